package annals

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// indexTexts writes files (name → text) into a corpus folder and indexes
// it into a fresh workspace, closed when the test ends; it returns the
// workspace and the corpus folder, for tests that add to it.
func indexTexts(t *testing.T, files map[string]string) (*Workspace, string) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	corpus := filepath.Join(dir, "corpus")
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(corpus, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := Open(ctx, filepath.Join(dir, ".annals"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	if _, err := ws.Index(ctx, []string{corpus}, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	return ws, corpus
}
