package annals_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/ner"
)

// The offline extractor's name model is a setting: the embedded one by
// default, the rules alone, or a file; each names itself in the extractor
// version, and a model that cannot be read stops the run before it starts.
func TestOfflineNameModel(t *testing.T) {
	dir := t.TempDir()
	// A model file of the user's, trained on two sentences.
	train, err := ner.ReadAnnotations(strings.NewReader("a:0\t[诸葛亮|人物]为[丞相|职官]。\na:1\t[曹操|人物]至[邺|地点]。\n"))
	if err != nil {
		t.Fatal(err)
	}
	own := filepath.Join(dir, "own.ner")
	if err := ner.Train(train, ner.Types, ner.TrainOptions{Epochs: 2, Rules: true}).SaveFile(own, "two sentences"); err != nil {
		t.Fatal(err)
	}
	versions := map[string]bool{}
	for _, model := range []string{"", "rules", own} {
		ex, err := annals.OfflineExtractor(model)
		if err != nil {
			t.Fatalf("model %q: %v", model, err)
		}
		versions[ex.Version()] = true
	}
	if len(versions) != 3 {
		t.Errorf("three models, versions %v", versions)
	}
	junk := filepath.Join(dir, "junk.ner")
	os.WriteFile(junk, []byte("not a model"), 0o644)
	for _, bad := range []string{junk, filepath.Join(dir, "absent.ner")} {
		if _, err := annals.OfflineExtractor(bad); err == nil || !strings.Contains(err.Error(), "model") {
			t.Errorf("model %s: %v", bad, err)
		}
	}
	ws, err := annals.Open(context.Background(), filepath.Join(dir, ".annals"))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("诸葛亮为丞相。"), 0o644)
	if _, err := ws.Index(context.Background(), []string{filepath.Join(dir, "a.txt")}, annals.IndexOptions{Model: junk}); err == nil {
		t.Error("indexed with a model file that is not one")
	}
}
