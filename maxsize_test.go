package annals_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annals-project/annals"
)

// index.max_file_size in annals.yaml decides which files are too large
// to read, and the warning says how to raise it.
func TestMaxFileSizeSetting(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	wsDir := filepath.Join(dir, ".annals")
	os.MkdirAll(wsDir, 0o755)
	os.WriteFile(filepath.Join(wsDir, "annals.yaml"), []byte("index:\n  max_file_size: 100\n"), 0o644)
	corpus := filepath.Join(dir, "corpus")
	os.MkdirAll(corpus, 0o755)
	os.WriteFile(filepath.Join(corpus, "short.txt"), []byte("关羽，字云长。"), 0o644)
	big := strings.Repeat("诸葛亮，字孔明，琅邪阳都人也。", 5) // 225 bytes
	os.WriteFile(filepath.Join(corpus, "long.txt"), []byte(big), 0o644)

	ws, err := annals.Open(ctx, wsDir)
	if err != nil {
		t.Fatal(err)
	}
	var warned []string
	rep, err := ws.Index(ctx, []string{corpus}, annals.IndexOptions{Warn: func(s string) { warned = append(warned, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Added != 1 || len(rep.Skipped) != 1 || len(warned) != 1 {
		t.Fatalf("report %+v, warnings %q", rep, warned)
	}
	for _, s := range []string{"long.txt", "225 bytes", "over the limit of 100 bytes", "index.max_file_size"} {
		if !strings.Contains(warned[0], s) {
			t.Errorf("warning %q does not say %q", warned[0], s)
		}
	}
	ws.Close()

	os.WriteFile(filepath.Join(wsDir, "annals.yaml"), []byte("index:\n  max_file_size: 1KiB\n"), 0o644)
	if ws, err = annals.Open(ctx, wsDir); err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if rep, err = ws.Index(ctx, []string{corpus}, annals.IndexOptions{}); err != nil || rep.Added != 1 || len(rep.Skipped) != 0 {
		t.Fatalf("with the limit raised: %+v, %v", rep, err)
	}
	if v, err := ws.Entity(ctx, "孔明", annals.EntityOptions{}); err != nil || v.Name != "诸葛亮" {
		t.Fatalf("the long file's entity: %+v, %v", v, err)
	}
}
