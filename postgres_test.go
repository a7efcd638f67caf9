package annals_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/eval"
	"github.com/annals-project/annals/internal/export"
	"github.com/annals-project/annals/internal/store/sqlstore/sqltest"
)

// indexDemoInto indexes the demo corpus into store ("" for the
// workspace's own SQLite file), one document at a time so that ids come
// in the same order.
func indexDemoInto(t *testing.T, store string) *annals.Workspace {
	t.Helper()
	ws, _ := indexDemoWith(t, "store: \""+store+"\"\nworkers: 1\n")
	return ws
}

// What a reader sees (counts, entity pages, answers, timelines, relation
// reasoning, the concordance, the exported facts) is the same whichever
// store holds the graph.
func TestPostgresAnswersAsSQLite(t *testing.T) {
	pg := indexDemoInto(t, sqltest.PostgresURL(t))
	lite := indexDemoInto(t, "")
	ctx := context.Background()
	same := func(what string, f func(w *annals.Workspace) (any, error)) {
		t.Helper()
		a, err := f(lite)
		if err != nil {
			t.Fatalf("%s on SQLite: %v", what, err)
		}
		b, err := f(pg)
		if err != nil {
			t.Fatalf("%s on PostgreSQL: %v", what, err)
		}
		ja, jb := withoutIDs(t, a), withoutIDs(t, b)
		if string(ja) != string(jb) {
			i := 0
			for i < len(ja) && i < len(jb) && ja[i] == jb[i] {
				i++
			}
			from := max(i-200, 0)
			t.Errorf("%s differs at byte %d:\nSQLite     …%s\nPostgreSQL …%s", what, i, ja[from:min(i+200, len(ja))], jb[from:min(i+200, len(jb))])
		}
	}
	same("stats", func(w *annals.Workspace) (any, error) { return w.Stats(ctx) })
	for _, name := range []string{"诸葛亮", "刘备", "曹操"} {
		same("entity "+name, func(w *annals.Workspace) (any, error) { return w.Entity(ctx, name, annals.EntityOptions{}) })
		same("timeline "+name, func(w *annals.Workspace) (any, error) { return w.Timeline(ctx, name, annals.TimelineOptions{}) })
	}
	for _, q := range []string{"诸葛亮字什么？", "刘备是哪里人？", "诸葛亮卒于何处？", "Who was Zhuge Liang?"} {
		same("answer to "+q, func(w *annals.Workspace) (any, error) {
			a, err := w.Ask(ctx, q, annals.AskOptions{})
			if err != nil {
				return nil, err
			}
			return []any{a.Answer, a.Answered, a.Confidence, a.Method, a.Citations}, nil
		})
	}
	same("relate", func(w *annals.Workspace) (any, error) {
		return w.Relate(ctx, "刘备", "诸葛亮", annals.RelateOptions{})
	})
	same("search", func(w *annals.Workspace) (any, error) { return w.Search(ctx, "诸葛", annals.SearchOptions{}) })
	same("export", func(w *annals.Workspace) (any, error) {
		g, err := w.ExportGraph(ctx, annals.ExportOptions{})
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		err = export.WriteJSONL(&b, g)
		return b.String(), err
	})
}

// withoutIDs is v as JSON without the ids rows were given: documents are
// written in the order workers finish them, in either store.
func withoutIDs(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var x any
	json.Unmarshal(b, &x)
	var strip func(any) any
	strip = func(x any) any {
		switch x := x.(type) {
		case map[string]any:
			for k, v := range x {
				if k == "id" || strings.HasSuffix(k, "_id") || k == "from" || k == "to" {
					delete(x, k)
					continue
				}
				x[k] = strip(v)
			}
		case []any:
			for i := range x {
				x[i] = strip(x[i])
			}
		}
		return x
	}
	b, _ = json.Marshal(strip(x))
	return b
}

// BenchmarkIndexShu indexes 三国志·蜀书 from ../shared/data into a new
// workspace on each store. PostgreSQL's time should stay within 3× of
// SQLite's: on a corpus this size the writes' round trips, not the fixed
// cost of making the schema, decide it.
func BenchmarkIndexShu(b *testing.B) {
	data, err := eval.DataDir()
	if err != nil {
		b.Skip(err)
	}
	shu := filepath.Join(data, "first-four-histories", "三国志", "蜀书")
	if _, err := os.Stat(shu); err != nil {
		b.Skipf("三国志·蜀书 absent: %v", err)
	}
	for _, engine := range []string{"sqlite", "postgres"} {
		b.Run(engine, func(b *testing.B) {
			ctx := context.Background()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				dir := b.TempDir()
				if engine == "postgres" {
					settings := "store: \"" + sqltest.PostgresURL(b) + "\"\n"
					if err := os.WriteFile(filepath.Join(dir, "annals.yaml"), []byte(settings), 0o644); err != nil {
						b.Fatal(err)
					}
				}
				ws, err := annals.Open(ctx, dir)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := ws.Index(ctx, []string{shu}, annals.IndexOptions{}); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				ws.Close()
			}
		})
	}
}
