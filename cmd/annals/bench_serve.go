package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/annals-project/annals"
)

// Targets of the HTTP API on the First Four Histories, 2 cores, loopback.
const (
	targetAPIP50       = 10 * time.Millisecond
	targetEntityRate   = 1000 // requests a second, sustained
	benchLoadClients   = 8    // the load generator's connections: it waits for each reply
	benchLoadDuration  = 5 * time.Second
	benchLatencyRounds = 200
)

type serveBench struct {
	EntityP50 time.Duration `json:"entity_p50_ns"`
	EntityP95 time.Duration `json:"entity_p95_ns"`
	SearchP50 time.Duration `json:"search_p50_ns"`
	SearchP95 time.Duration `json:"search_p95_ns"`
	// The load: Clients connections, each sending its next request when
	// the last is answered, for Duration.
	Clients  int           `json:"clients"`
	Duration time.Duration `json:"duration_ns"`
	Requests int           `json:"requests"`
	Rate     float64       `json:"requests_per_second"`
	LoadP50  time.Duration `json:"load_p50_ns"`
	LoadP99  time.Duration `json:"load_p99_ns"`
	Bytes    int64         `json:"bytes"`
}

// benchServe serves the workspace on a loopback port and measures the
// entity and search endpoints one request at a time, then the entity
// endpoint under a bounded load.
func benchServe(ctx context.Context, w *annals.Workspace, names []string) (*serveBench, error) {
	if len(names) == 0 {
		return nil, nil
	}
	h, err := w.Handler(annals.ServeOptions{Addr: "127.0.0.1:0"})
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchLoadClients}}
	get := func(ctx context.Context, path string) (int64, error) {
		req, err := http.NewRequestWithContext(ctx, "GET", base+path, nil)
		if err != nil {
			return 0, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		n, err := io.Copy(io.Discard, resp.Body)
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("GET %s: %s", path, resp.Status)
		}
		return n, err
	}
	entity := func(i int) string { return "/api/entity/" + url.PathEscape(names[i%len(names)]) }
	search := func(i int) string { return "/api/search?limit=20&text=" + url.QueryEscape(names[i%len(names)]) }
	rep := &serveBench{Clients: benchLoadClients}
	// One at a time: latency without queueing.
	for _, ep := range []struct {
		path     func(int) string
		p50, p95 *time.Duration
	}{{entity, &rep.EntityP50, &rep.EntityP95}, {search, &rep.SearchP50, &rep.SearchP95}} {
		var times []time.Duration
		for i := range benchLatencyRounds {
			t0 := time.Now()
			if _, err := get(ctx, ep.path(i)); err != nil {
				return nil, err
			}
			times = append(times, time.Since(t0))
		}
		slices.Sort(times)
		*ep.p50, *ep.p95 = percentile(times, 50), percentile(times, 95)
	}
	// The load: a fixed number of clients, each waiting for its reply.
	lctx, cancel := context.WithTimeout(ctx, benchLoadDuration)
	defer cancel()
	var next atomic.Int64
	var bytes atomic.Int64
	var mu sync.Mutex
	var times []time.Duration
	var firstErr error
	var wg sync.WaitGroup
	start := time.Now()
	for range benchLoadClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for lctx.Err() == nil {
				t0 := time.Now()
				n, err := get(lctx, entity(int(next.Add(1))))
				if lctx.Err() != nil {
					break // the time is up: this request does not count
				}
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					break
				}
				mine = append(mine, time.Since(t0))
				bytes.Add(n)
			}
			mu.Lock()
			times = append(times, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	rep.Duration = time.Since(start)
	if firstErr != nil {
		return nil, fmt.Errorf("under load: %w", firstErr)
	}
	slices.Sort(times)
	rep.Requests, rep.Bytes = len(times), bytes.Load()
	rep.Rate = float64(len(times)) / rep.Duration.Seconds()
	if len(times) > 0 {
		rep.LoadP50, rep.LoadP99 = percentile(times, 50), percentile(times, 99)
	}
	return rep, nil
}
