package pipeline

import (
	"context"
	"testing"

	"github.com/annals-project/annals/internal/index"
	"github.com/annals-project/annals/internal/store/sqlite"
)

// searchDocs lists the keys of the documents whose chunks hold a term of q.
func searchDocs(t *testing.T, ctx context.Context, db *sqlite.DB, q string) map[string]bool {
	t.Helper()
	hits, err := db.SearchChunks(ctx, index.Terms(q), 100)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := db.Documents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[int64]string{}
	for _, d := range docs {
		keys[d.ID] = d.Key
	}
	out := map[string]bool{}
	for _, h := range hits {
		out[keys[h.DocID]] = true
	}
	return out
}

func indexedRows(t *testing.T, db *sqlite.DB) (rows, chunks int) {
	t.Helper()
	if err := db.SQL().QueryRow("SELECT (SELECT count(*) FROM chunk_terms), (SELECT count(*) FROM chunks)").Scan(&rows, &chunks); err != nil {
		t.Fatal(err)
	}
	return rows, chunks
}

func TestLexicalIsIncremental(t *testing.T) {
	ctx, db, root, ex, opts := setup(t)
	write(t, root, "蜀书/先主传/text.txt", "刘备子刘禅。先主三顾诸葛亮于草庐之中。")
	write(t, root, "蜀书/后主传/text.txt", "刘备子刘禅，立为太子。")
	write(t, root, "蜀书/诸葛亮传/text.txt", "諸葛亮子诸葛瞻。亮躬耕陇亩，好为梁父吟。亮每自比于管仲、乐毅，时人莫之许也。"+
		"惟博陵崔州平、颍川徐庶元直与亮友善，谓为信然。时先主屯新野。徐庶见先主，先主器之。")
	if _, err := Index(ctx, db, []string{root}, opts); err != nil {
		t.Fatal(err)
	}
	if pending, err := LexicalPending(ctx, db); err != nil || !pending {
		t.Fatalf("before the step every document is pending: %v %v", pending, err)
	}
	rep, err := Lexical(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	rows, chunks := indexedRows(t, db)
	if rep.Documents != 3 || rep.Chunks != chunks || rows != chunks || chunks < 4 {
		t.Fatalf("every chunk should be indexed once: %+v, %d rows, %d chunks", rep, rows, chunks)
	}
	if pending, _ := LexicalPending(ctx, db); pending {
		t.Fatal("nothing should be pending after the step")
	}
	// Traditional text is indexed in its normalised form.
	if got := searchDocs(t, ctx, db, "諸葛瞻"); !got["蜀书/诸葛亮传/text.txt"] || len(got) != 1 {
		t.Fatalf("诸葛瞻: %v", got)
	}

	// An unchanged corpus costs nothing.
	if _, err := Index(ctx, db, []string{root}, opts); err != nil {
		t.Fatal(err)
	}
	if rep, err := Lexical(ctx, db); err != nil || rep.Documents != 0 || rep.Chunks != 0 {
		t.Fatalf("unchanged corpus: %+v %v", rep, err)
	}

	// A changed document alone is indexed again, without its old text.
	write(t, root, "蜀书/后主传/text.txt", "后主讳禅，字公嗣。")
	if _, err := Index(ctx, db, []string{root}, opts); err != nil {
		t.Fatal(err)
	}
	if rep, err := Lexical(ctx, db); err != nil || rep.Documents != 1 {
		t.Fatalf("one changed document: %+v %v", rep, err)
	}
	if got := searchDocs(t, ctx, db, "太子"); len(got) != 0 {
		t.Fatalf("the old text of a changed document is still found: %v", got)
	}
	if got := searchDocs(t, ctx, db, "公嗣"); !got["蜀书/后主传/text.txt"] {
		t.Fatalf("the new text is not found: %v", got)
	}

	// A new extractor keeps the chunks but clears the steps: indexing them
	// again leaves one row per chunk.
	ex.version = "2"
	if _, err := Index(ctx, db, []string{root}, opts); err != nil {
		t.Fatal(err)
	}
	if rep, err := Lexical(ctx, db); err != nil || rep.Documents != 3 {
		t.Fatalf("re-extracted documents are indexed again: %+v %v", rep, err)
	}
	if rows, chunks := indexedRows(t, db); rows != chunks {
		t.Fatalf("%d rows for %d chunks", rows, chunks)
	}

	// A removed document leaves the index.
	d, err := db.Document(ctx, "蜀书/诸葛亮传")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.RemoveDocument(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	if got := searchDocs(t, ctx, db, "梁父吟 管仲"); len(got) != 0 {
		t.Fatalf("a removed document is still found: %v", got)
	}
	if rows, chunks := indexedRows(t, db); rows != chunks {
		t.Fatalf("%d rows for %d chunks after removal", rows, chunks)
	}
}

func TestLexicalStopsWhenCancelled(t *testing.T) {
	ctx, db, root, _, opts := setup(t)
	write(t, root, "a.txt", "刘备子刘禅。")
	if _, err := Index(ctx, db, []string{root}, opts); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Lexical(cancelled, db); err == nil {
		t.Fatal("a cancelled run should say so")
	}
	if pending, _ := LexicalPending(ctx, db); !pending {
		t.Fatal("a cancelled run records nothing as done")
	}
}
