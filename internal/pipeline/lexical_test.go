package pipeline

import (
	"context"
	"testing"

	"github.com/annals-project/annals/internal/index"
	"github.com/annals-project/annals/internal/store/sqlstore"
)

// searchDocs lists the keys of the documents whose chunks hold a term of q.
func searchDocs(t *testing.T, ctx context.Context, db *sqlstore.DB, q string) map[string]bool {
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

func indexedRows(t *testing.T, db *sqlstore.DB) (rows, chunks int) {
	t.Helper()
	if err := db.QueryRow(context.Background(), "SELECT (SELECT count(*) FROM chunk_terms), (SELECT count(*) FROM chunks)").Scan(&rows, &chunks); err != nil {
		t.Fatal(err)
	}
	return rows, chunks
}

func TestLexicalIsIncremental(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		ctx, db, root, ex, opts := setup(t, engine)
		write(t, root, "蜀书/先主传/text.txt", "刘备子刘禅。先主三顾诸葛亮于草庐之中。")
		write(t, root, "蜀书/后主传/text.txt", "刘备子刘禅，立为太子。")
		write(t, root, "蜀书/诸葛亮传/text.txt", "諸葛亮子诸葛瞻。亮躬耕陇亩，好为梁父吟。亮每自比于管仲、乐毅，时人莫之许也。"+
			"惟博陵崔州平、颍川徐庶元直与亮友善，谓为信然。时先主屯新野。徐庶见先主，先主器之。")
		rep, err := indexWith(ctx, db, []string{root}, opts)
		if err != nil {
			t.Fatal(err)
		}
		rows, chunks := indexedRows(t, db)
		if rep.Ran[StepLexical] != 3 || rows != chunks || chunks < 4 {
			t.Fatalf("every chunk should be indexed once: %+v, %d rows, %d chunks", rep.Ran, rows, chunks)
		}
		if pending, err := LexicalPending(ctx, db); err != nil || pending {
			t.Fatalf("nothing should be pending: %v %v", pending, err)
		}
		// Traditional text is indexed in its normalised form.
		if got := searchDocs(t, ctx, db, "諸葛瞻"); !got["蜀书/诸葛亮传/text.txt"] || len(got) != 1 {
			t.Fatalf("诸葛瞻: %v", got)
		}

		// An unchanged corpus costs nothing.
		if rep, err := indexWith(ctx, db, []string{root}, opts); err != nil || rep.Unchanged != 3 || len(rep.Ran) != 0 {
			t.Fatalf("unchanged corpus: %+v %v", rep, err)
		}

		// A changed document alone is indexed again, without its old text.
		write(t, root, "蜀书/后主传/text.txt", "后主讳禅，字公嗣。")
		if rep, err := indexWith(ctx, db, []string{root}, opts); err != nil || rep.Ran[StepLexical] != 1 {
			t.Fatalf("one changed document: %+v %v", rep, err)
		}
		if got := searchDocs(t, ctx, db, "太子"); len(got) != 0 {
			t.Fatalf("the old text of a changed document is still found: %v", got)
		}
		if got := searchDocs(t, ctx, db, "公嗣"); !got["蜀书/后主传/text.txt"] {
			t.Fatalf("the new text is not found: %v", got)
		}

		// A new extractor re-extracts and keeps the chunks and their terms.
		ex.version = "2"
		if rep, err := indexWith(ctx, db, []string{root}, opts); err != nil || rep.Ran[StepExtract] != 3 || rep.Ran[StepLexical] != 0 {
			t.Fatalf("a new extractor re-runs extraction alone: %+v %v", rep, err)
		}
		if pending, _ := LexicalPending(ctx, db); pending {
			t.Fatal("re-extracting must keep the search terms current")
		}

		// New terms (a workspace indexed before them) re-index the kept chunks
		// and nothing else, one row per chunk.
		if _, err := db.Exec(context.Background(), "DELETE FROM steps WHERE step = 'lexical'"); err != nil {
			t.Fatal(err)
		}
		rep, err = indexWith(ctx, db, []string{root}, opts)
		if err != nil || rep.Ran[StepLexical] != 3 || rep.Ran[StepExtract] != 0 || rep.Ran[StepIngest] != 0 || rep.Updated != 3 {
			t.Fatalf("new terms re-run the lexical step alone: %+v %v", rep, err)
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
	})
}
