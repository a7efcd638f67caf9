package annals

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/annals-project/annals/internal/demo"
)

// A warmed workspace walks the graph in memory, not in the store, and
// finds the same as a cold one; once the relations change, it reads the
// store again until the graph is read anew.
func TestWarmRetrievalWalksTheGraphInMemory(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	corpus, aliases, err := demo.WriteTo(dir)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := Open(ctx, filepath.Join(dir, ".annals"))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if _, err := ws.ImportAliases(ctx, aliases, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Index(ctx, []string{corpus}, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	qs := []string{"诸葛亮的父亲是谁？", "刘备与孙权是什么关系？", "曹操为何起兵？"}
	retrieveAll := func() string {
		t.Helper()
		var out []any
		for _, q := range qs {
			res, err := ws.Retrieve(ctx, q, 30, 1)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, res)
		}
		b, _ := json.Marshal(out)
		return string(b)
	}
	inMemory := func() bool { return ws.retriever(ctx, nil).Src.(askSource).graph != nil }
	if inMemory() {
		t.Fatal("a cold workspace walks a graph in memory")
	}
	cold := retrieveAll()
	if err := ws.Warm(ctx); err != nil {
		t.Fatal(err)
	}
	if !inMemory() {
		t.Fatal("a warmed workspace does not walk the graph in memory")
	}
	if warm := retrieveAll(); warm != cold {
		t.Errorf("warm retrieval differs from cold:\n%s\n%s", warm, cold)
	}
	more := t.TempDir()
	os.WriteFile(filepath.Join(more, "new.txt"), []byte("诸葛瞻，字思远，诸葛亮之子也。"), 0o644)
	if _, err := ws.Index(ctx, []string{more}, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	if inMemory() {
		t.Error("after new relations the graph held in memory is still walked")
	}
}
