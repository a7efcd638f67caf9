package sqlstore

import (
	"context"
	"slices"
	"testing"

	"github.com/annals-project/annals/internal/store"
)

// The titles read for one look-up serve the next until a document is
// written: a chapter indexed after the first look-up is found.
func TestDocumentsTitledSeesNewChapters(t *testing.T) {
	eachEngine(t, func(t *testing.T, ctx context.Context, db *DB) {
		write := func(key string) {
			t.Helper()
			if err := db.WriteDocs(ctx, []store.DocWrite{chunked(key, "亮躬耕陇亩，好为梁父吟。", "", nil, 10, 3)}); err != nil {
				t.Fatal(err)
			}
		}
		titled := func(terms ...string) []int64 {
			t.Helper()
			ids, err := db.DocumentsTitled(ctx, terms)
			if err != nil {
				t.Fatal(err)
			}
			return ids
		}
		write("三国志/蜀书/诸葛亮传/text.txt")
		first := titled("诸葛亮")
		if len(first) != 1 || len(titled("酷吏")) != 0 {
			t.Fatalf("诸葛亮: %v; want the one chapter", first)
		}
		write("汉书/传/酷吏传/text.txt")
		write("史记/列传/酷吏列传/text.txt")
		both := titled("酷吏")
		if len(both) != 2 || !slices.IsSorted(both) || slices.Contains(both, first[0]) {
			t.Fatalf("酷吏 after two chapters were written: %v; want both, in id order", both)
		}
		if got := titled("诸葛亮", "酷吏"); len(got) != 3 {
			t.Fatalf("either term: %v; want all three chapters", got)
		}
	})
}
