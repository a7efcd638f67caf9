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
	targetEntityRate   = 1500 // new pages a second, sustained
	benchLoadClients   = 8    // the load generator's connections: it waits for each reply
	benchLoadDuration  = 5 * time.Second
	benchLatencyRounds = 200
)

type serveBench struct {
	LatencyMet bool `json:"latency_target_met"`
	RateMet    bool `json:"rate_target_met"`

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
	// The same with no answer cached.
	FreshRate float64       `json:"fresh_requests_per_second"`
	FreshP50  time.Duration `json:"fresh_p50_ns"`
	FreshP99  time.Duration `json:"fresh_p99_ns"`
}

type loadResult struct {
	n        int
	bytes    int64
	d        time.Duration
	rate     float64
	p50, p99 time.Duration
}

// load runs benchLoadClients clients for benchLoadDuration, each sending
// its next request when its reply has come.
func load(ctx context.Context, get func(context.Context, string) (int64, error), path func(int) string) (*loadResult, error) {
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
				n, err := get(lctx, path(int(next.Add(1))))
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
	if firstErr != nil {
		return nil, fmt.Errorf("under load: %w", firstErr)
	}
	r := &loadResult{n: len(times), bytes: bytes.Load(), d: time.Since(start)}
	r.rate = float64(r.n) / r.d.Seconds()
	if len(times) > 0 {
		slices.Sort(times)
		r.p50, r.p99 = percentile(times, 50), percentile(times, 99)
	}
	return r, nil
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
	// The load, twice: pages asked again (as readers do, answered from the
	// server's cache until the next commit), then every request a new one
	// (each name asked with 50–59 facts and 10–19 mentions in turn, 100
	// pages a name before one comes again).
	again, err := load(ctx, get, entity)
	if err != nil {
		return nil, err
	}
	fresh, err := load(ctx, get, func(i int) string {
		n := len(names)
		return entity(i) + fmt.Sprintf("?relations=%d&mentions=%d", 50+i/n%10, 10+i/(10*n)%10)
	})
	if err != nil {
		return nil, err
	}
	rep.Requests, rep.Bytes, rep.Duration, rep.Rate, rep.LoadP50, rep.LoadP99 = again.n, again.bytes, again.d, again.rate, again.p50, again.p99
	rep.FreshRate, rep.FreshP50, rep.FreshP99 = fresh.rate, fresh.p50, fresh.p99
	rep.LatencyMet = rep.EntityP50 <= targetAPIP50 && rep.SearchP50 <= targetAPIP50
	rep.RateMet = rep.Rate >= targetEntityRate && rep.FreshRate >= targetEntityRate
	return rep, nil
}

func (a *app) printServeBench(s *serveBench) {
	if s == nil {
		return
	}
	a.printf("HTTP entity %6.2f ms p50, %.2f ms p95; search %.2f ms p50, %.2f ms p95, one at a time over loopback (target p50 ≤ 10 ms)  %s\n",
		ms(s.EntityP50), ms(s.EntityP95), ms(s.SearchP50), ms(s.SearchP95), mark(s.LatencyMet))
	a.printf("HTTP load  %8.0f entity requests/s over %d connections for %.0f s, pages asked again (%d requests, %.0f MB; %.2f ms p50, %.2f ms p99);\n",
		s.Rate, s.Clients, s.Duration.Seconds(), s.Requests, float64(s.Bytes)/(1<<20), ms(s.LoadP50), ms(s.LoadP99))
	a.printf("           %8.0f requests/s with every request a new one (%.2f ms p50, %.2f ms p99) (target ≥ %d/s)  %s\n",
		s.FreshRate, ms(s.FreshP50), ms(s.FreshP99), targetEntityRate, mark(s.RateMet))
}

// benchAPI measures the HTTP API alone on a workspace, warmed first as
// `annals serve` warms it.
func (a *app) benchAPI(ctx context.Context, w *annals.Workspace) error {
	if err := w.Warm(ctx); err != nil {
		return err
	}
	top, err := w.Entities(ctx, annals.EntityQuery{Limit: benchLookupTop})
	if err != nil {
		return err
	}
	names := make([]string, len(top))
	for i, e := range top {
		names[i] = e.Name
	}
	rep, err := benchServe(ctx, w, names)
	if err != nil || rep == nil {
		return err
	}
	if a.json {
		return a.printJSON(rep)
	}
	a.printServeBench(rep)
	return nil
}
