package sqlstore

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

func TestRefusesNewerDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	db.SQL().Exec("PRAGMA user_version = 999")
	db.Close()
	if _, err := Open(ctx, path); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("want a clear error for a newer schema, got %v", err)
	}
}

func TestDocumentByPrefix(t *testing.T) {
	eachEngine(t, func(t *testing.T, ctx context.Context, db *DB) {
		var writes []store.DocWrite
		for _, k := range []string{"蜀书/诸葛亮传/text.txt", "蜀书/关羽传/text.txt", "魏书/武帝纪/text.txt"} {
			writes = append(writes, store.DocWrite{Doc: kg.Document{Key: k, Version: "v", Text: "文", Chars: 1}})
		}
		if err := db.WriteDocs(ctx, writes); err != nil {
			t.Fatal(err)
		}
		if d, err := db.Document(ctx, "魏书"); err != nil || d.Key != "魏书/武帝纪/text.txt" || d.Text != "文" {
			t.Fatalf("unique prefix: %+v %v", d, err)
		}
		if _, err := db.Document(ctx, "蜀书"); err == nil || !strings.Contains(err.Error(), "several") {
			t.Fatalf("ambiguous prefix should list the matches, got %v", err)
		}
		if _, err := db.Document(ctx, "吴书"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("missing document: %v", err)
		}
		if _, err := db.Document(ctx, "100%"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("LIKE wildcards must be literal: %v", err)
		}
	})
}

func TestSentenceSourceUsesTheOffsetMap(t *testing.T) {
	// A normalisation that drops one character: the map sends normalised
	// offsets to original ones.
	doc := &kg.Document{Text: "甲乙X丙。", Norm: "甲乙丙。", OffsetMap: []int32{0, 1, 3, 4, 5}}
	s := newSentenceSource(doc)
	orig, norm := s.at(kg.Span{Start: 0, End: 5})
	if orig != "甲乙X丙。" || norm != "甲乙丙。" {
		t.Fatalf("got %q %v", orig, norm)
	}
}

// The LLM cache counts and clears its entries by step; entries from before
// the cache recorded steps migrate with the step "".
func TestCacheStatsAndClearByStep(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	// Back to schema 10, with an entry written then.
	for _, q := range []string{"DROP INDEX documents_title", "DROP TABLE entity_attributes", "DROP TABLE community_members", "DROP TABLE communities", "DROP TABLE failures", "ALTER TABLE llm_cache DROP COLUMN step", "PRAGMA user_version = 10",
		"INSERT INTO llm_cache(key, value, created_at) VALUES('old', x'0102', '2025-01-01T00:00:00Z')"} {
		if _, err := db.SQL().Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	if db, err = Open(ctx, path); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c := db.Cache()
	for _, e := range []struct{ step, key, value string }{{"extract", "a", "xyz"}, {"extract", "b", "xy"}, {"score", "c", "x"}} {
		if err := c.Put(ctx, e.step, e.key, []byte(e.value)); err != nil {
			t.Fatal(err)
		}
	}
	stats, err := c.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []CacheStep{{"", 1, 5}, {"extract", 2, 7}, {"score", 1, 2}}
	if len(stats) != len(want) {
		t.Fatalf("stats %+v, want %+v", stats, want)
	}
	for i := range want {
		if stats[i] != want[i] {
			t.Fatalf("stats %+v, want %+v", stats, want)
		}
	}
	step := "extract"
	if n, err := c.Clear(ctx, &step); err != nil || n != 2 {
		t.Fatalf("clear extract: %d, %v", n, err)
	}
	if _, ok, _ := c.Get(ctx, "a"); ok {
		t.Fatal("a cleared entry is still read")
	}
	if _, ok, _ := c.Get(ctx, "c"); !ok {
		t.Fatal("another step's entry went")
	}
	if n, err := c.Clear(ctx, nil); err != nil || n != 2 {
		t.Fatalf("clear all: %d, %v", n, err)
	}
	if stats, _ := c.Stats(ctx); len(stats) != 0 {
		t.Fatalf("stats after clearing %+v", stats)
	}
}
