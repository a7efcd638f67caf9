package annals_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annals-project/annals"
)

// A workspace copied into a new folder holds the same graph, with the
// source's settings (less its store) and prompt overrides; a folder that
// holds a graph is not written over.
func TestMigrateToAFolder(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	settings := "store: \"\"\nworkers: 3\nchunk:\n  max_chars: 500\n"
	os.WriteFile(filepath.Join(ws.Dir, "annals.yaml"), []byte(settings), 0o644)
	os.WriteFile(filepath.Join(ws.Dir, "prompts", "extract.txt"), []byte("my prompt"), 0o644)
	to := filepath.Join(t.TempDir(), "copy")
	var tables []string
	if err := ws.Migrate(ctx, to, func(table string, rows int) { tables = append(tables, table) }, nil); err != nil {
		t.Fatal(err)
	}
	if len(tables) < 20 {
		t.Fatalf("tables copied: %v", tables)
	}
	copied, err := annals.Open(ctx, to)
	if err != nil {
		t.Fatal(err)
	}
	defer copied.Close()
	want, _ := ws.Stats(ctx)
	got, err := copied.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.Entities != want.Entities || got.Relations != want.Relations || got.Evidence != want.Evidence || got.Documents != want.Documents || got.Entities == 0 {
		t.Fatalf("copy holds %+v, the workspace %+v", got, want)
	}
	if copied.Config.Workers != 3 || copied.Config.Chunk.MaxChars != 500 || copied.Config.Store != "" {
		t.Fatalf("settings not carried: %+v", copied.Config)
	}
	if b, _ := os.ReadFile(filepath.Join(to, "prompts", "extract.txt")); string(b) != "my prompt" {
		t.Fatalf("prompt override not carried: %q", b)
	}
	a, _ := ws.Entity(ctx, "诸葛亮", annals.EntityOptions{})
	b, err := copied.Entity(ctx, "诸葛亮", annals.EntityOptions{})
	if err != nil || a == nil || b == nil || a.ID != b.ID || len(a.Relations) != len(b.Relations) {
		t.Fatalf("诸葛亮 differs in the copy: %v", err)
	}
	if err := ws.Migrate(ctx, to, nil, nil); !errors.Is(err, annals.ErrNotEmpty) {
		t.Fatalf("a second copy over the first: %v", err)
	}
	if err := ws.Migrate(ctx, ws.Dir, nil, nil); err == nil || !strings.Contains(err.Error(), "already") {
		t.Fatalf("a copy onto itself: %v", err)
	}
}
