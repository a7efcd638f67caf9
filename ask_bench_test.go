package annals_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"sync/atomic"
	"testing"

	"github.com/annals-project/annals"
)

// benchWorkspace opens the workspace named by ANNALS_BENCH_WORKSPACE (one
// indexed from the First Four Histories, e.g. by `annals bench --keep`).
func benchWorkspace(b *testing.B) *annals.Workspace {
	dir := os.Getenv("ANNALS_BENCH_WORKSPACE")
	if dir == "" {
		b.Skip("set ANNALS_BENCH_WORKSPACE to an indexed workspace (annals bench --keep makes one)")
	}
	ws, err := annals.Open(context.Background(), dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ws.Close() })
	return ws
}

var benchAsks = []string{"诸葛亮字什么？", "曹操是哪里人？", "孙权卒于何年？", "刘备担任过什么官职？", "曹丕的父亲是谁？",
	"建安十三年周瑜在哪里？", "关羽与张飞是什么关系？", "袁绍为何起兵？", "司马懿与诸葛亮谁先卒？", "项羽为何败？"}

func BenchmarkRetrieve(b *testing.B) {
	ws := benchWorkspace(b)
	ctx := context.Background()
	if err := ws.Warm(ctx); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := ws.Retrieve(ctx, benchAsks[i%len(benchAsks)], 30, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAskOffline(b *testing.B) {
	ws := benchWorkspace(b)
	ctx := context.Background()
	for i, q := range benchAsks {
		b.Run(fmt.Sprint(i), func(b *testing.B) {
			for b.Loop() {
				if _, err := ws.Ask(ctx, q, annals.AskOptions{Offline: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRelate relates neighbours among the 201 most mentioned people
// (nothing written back); the graph's structure is read before timing.
func BenchmarkRelate(b *testing.B) {
	ws := benchWorkspace(b)
	ctx := context.Background()
	people, err := ws.Entities(ctx, annals.EntityQuery{Type: "人物", Limit: 201})
	if err != nil || len(people) < 2 {
		b.Fatal("no people", err)
	}
	opts := annals.RelateOptions{NoFeed: true, Offline: true}
	ws.RelateIDs(ctx, people[0].ID, people[1].ID, opts)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		k := i % (len(people) - 1)
		if _, err := ws.RelateIDs(ctx, people[k].ID, people[k+1].ID, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAPIEntity requests entity pages of the most mentioned people
// over loopback HTTP from several clients at once: ns/op is the inverse of
// the throughput.
func BenchmarkAPIEntity(b *testing.B) {
	ws, people := benchPeople(b)
	h, err := ws.Handler(annals.ServeOptions{Addr: "127.0.0.1:0"})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	var next atomic.Int64
	b.SetParallelism(4)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		client := &http.Client{}
		for pb.Next() {
			// A new page each time (facts and mentions vary), so that the
			// server's cache of answers does not answer.
			i := int(next.Add(1))
			p := people[i%len(people)]
			resp, err := client.Get(srv.URL + "/api/entity/" + url.PathEscape(p.Name) +
				fmt.Sprintf("?relations=%d&mentions=%d", 50+i/len(people)%10, 10+i/(10*len(people))%10))
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				b.Fatalf("%s: %d", p.Name, resp.StatusCode)
			}
		}
	})
}

// BenchmarkEntity builds entity pages in process, a new one each time (as
// BenchmarkAPIEntity asks them, without HTTP or the server's cache).
func BenchmarkEntity(b *testing.B) {
	ws, people := benchPeople(b)
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		p := people[i%len(people)]
		if _, err := ws.Entity(ctx, p.Name, annals.EntityOptions{Relations: 50 + i/len(people)%10, Mentions: 10 + i/(10*len(people))%10}); err != nil {
			b.Fatalf("%s: %v", p.Name, err)
		}
	}
}

// benchPeople opens the bench workspace and lists its 200 most mentioned
// people, whose pages the entity benchmarks ask for.
func benchPeople(b *testing.B) (*annals.Workspace, []annals.Entity) {
	ws := benchWorkspace(b)
	people, err := ws.Entities(context.Background(), annals.EntityQuery{Type: "人物", Limit: 200})
	if err != nil || len(people) == 0 {
		b.Fatal("no people", err)
	}
	return ws, people
}
