package annals_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/annals-project/annals"
)

func TestSearchConcordance(t *testing.T) {
	ctx := context.Background()
	ws, rep := indexDemo(t)
	if rep.Ran["lexical"] != rep.Added || rep.Ran["extract"] != rep.Added {
		t.Fatalf("every document should be indexed for search: %+v", rep.Ran)
	}
	c, err := ws.Search(ctx, "诸葛亮", annals.SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Total < 5 || len(c.Occurrences) != c.Total {
		t.Fatalf("诸葛亮 should occur in several documents: %+v", c)
	}
	texts := map[string][]rune{}
	for i, o := range c.Occurrences {
		orig, ok := texts[o.DocKey]
		if !ok {
			d, err := ws.Store().Document(ctx, o.DocKey)
			if err != nil {
				t.Fatal(err)
			}
			orig = []rune(d.Text)
			texts[o.DocKey] = orig
		}
		if string(orig[o.Start:o.End]) != o.Match || o.Match != "诸葛亮" {
			t.Fatalf("occurrence %d: [%d,%d) of %s is %q, not the match %q", i, o.Start, o.End, o.DocKey, string(orig[o.Start:o.End]), o.Match)
		}
		if !strings.HasPrefix(o.Cite, "《") || strings.ContainsAny(o.Left+o.Right, "\n\r") {
			t.Fatalf("occurrence %d: %+v", i, o)
		}
		if i > 0 {
			p := c.Occurrences[i-1]
			if p.DocKey > o.DocKey || p.DocKey == o.DocKey && p.Start >= o.Start {
				t.Fatalf("occurrences out of order at %d: %s@%d after %s@%d", i, o.DocKey, o.Start, p.DocKey, p.Start)
			}
		}
	}

	// Traditional characters find the same places.
	trad, err := ws.Search(ctx, "諸葛亮", annals.SearchOptions{})
	if err != nil || trad.Total != c.Total || !slices.Equal(trad.Occurrences, c.Occurrences) {
		t.Fatalf("諸葛亮 should find what 诸葛亮 finds: %d vs %d, %v", trad.Total, c.Total, err)
	}
	// One character, read from every document.
	one, err := ws.Search(ctx, "亮", annals.SearchOptions{Limit: 1000})
	if err != nil || one.Total <= c.Total {
		t.Fatalf("亮 occurs wherever 诸葛亮 does and more: %d vs %d, %v", one.Total, c.Total, err)
	}
	// Paging.
	page, err := ws.Search(ctx, "诸葛亮", annals.SearchOptions{Limit: 2, Offset: 1})
	if err != nil || page.Total != c.Total || !slices.Equal(page.Occurrences, c.Occurrences[1:3]) {
		t.Fatalf("page 2–3: %+v %v", page, err)
	}
	// Context.
	narrow, err := ws.Search(ctx, "诸葛亮", annals.SearchOptions{Context: 2})
	if err != nil || len([]rune(narrow.Occurrences[1].Left)) > 2 || len([]rune(narrow.Occurrences[1].Right)) != 2 {
		t.Fatalf("two characters of context: %+v %v", narrow.Occurrences[1], err)
	}
	// Other scripts: whole words in any case.
	en, err := ws.Search(ctx, "zhuge liang", annals.SearchOptions{})
	if err != nil || en.Total == 0 || en.Occurrences[0].Match != "Zhuge Liang" {
		t.Fatalf("Zhuge Liang in the English texts: %+v %v", en, err)
	}
	if none, err := ws.Search(ctx, "司马懿登月", annals.SearchOptions{}); err != nil || none.Total != 0 || len(none.Occurrences) != 0 {
		t.Fatalf("a string found nowhere: %+v %v", none, err)
	}
	if _, err := ws.Search(ctx, "  ", annals.SearchOptions{}); err == nil {
		t.Fatal("an empty query is an error")
	}

	// BM25 over chunks.
	hits, err := ws.SearchChunks(ctx, "諸葛亮卒于五丈原", 5)
	if err != nil || len(hits) == 0 || len(hits) > 5 {
		t.Fatalf("chunks about 诸葛亮 and 五丈原: %+v %v", hits, err)
	}
	for i, h := range hits {
		if h.Score <= 0 || i > 0 && h.Score > hits[i-1].Score {
			t.Fatalf("scores should be positive, best first: %+v", hits)
		}
	}
}

func TestSearchReachesOlderWorkspaces(t *testing.T) {
	ctx := context.Background()
	ws, rep := indexDemo(t)
	want, err := ws.Search(ctx, "孔明", annals.SearchOptions{})
	if err != nil || want.Total == 0 {
		t.Fatalf("孔明: %+v %v", want, err)
	}
	// A workspace from before the lexical index: nothing in it.
	db := ws.Store().SQL()
	if _, err := db.Exec("INSERT INTO chunk_terms(chunk_terms) VALUES('delete-all'); DELETE FROM steps WHERE step = 'lexical'"); err != nil {
		t.Fatal(err)
	}
	got, err := ws.Search(ctx, "孔明", annals.SearchOptions{})
	if err != nil || got.Total != want.Total || !slices.Equal(got.Occurrences, want.Occurrences) {
		t.Fatalf("search should read the documents while the index is missing: %d vs %d, %v", got.Total, want.Total, err)
	}
	again, err := ws.Index(ctx, []string{filepath.Join(filepath.Dir(ws.Dir), "corpus")}, annals.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Added+again.Changed != 0 || again.Ran["lexical"] != rep.Added || again.Ran["extract"] != 0 {
		t.Fatalf("indexing should fill the lexical index without re-extracting: %+v %+v", again, again.Ran)
	}
	if hits, err := ws.SearchChunks(ctx, "孔明", 3); err != nil || len(hits) == 0 {
		t.Fatalf("BM25 after re-indexing: %v %v", hits, err)
	}
}
