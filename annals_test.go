package annals_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/demo"
)

func indexDemo(t testing.TB) (*annals.Workspace, *annals.IndexReport) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	corpus, aliases, err := demo.WriteTo(dir)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := annals.Open(ctx, filepath.Join(dir, ".annals"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	if _, err := ws.ImportAliases(ctx, aliases, nil); err != nil {
		t.Fatal(err)
	}
	rep, err := ws.Index(ctx, []string{corpus}, annals.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ws, rep
}

func TestDemoGraph(t *testing.T) {
	ctx := context.Background()
	ws, rep := indexDemo(t)
	if rep.Added < 35 || len(rep.Skipped) != 0 {
		t.Fatalf("index report: %+v", rep)
	}
	st, err := ws.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"lzh", "en", "vi"} {
		if st.Languages[lang] == 0 {
			t.Errorf("no %s document detected: %v", lang, st.Languages)
		}
	}
	for _, typ := range []string{"人物", "地点", "职官", "爵位", "时间", "文献", "社会集团", "person", "place"} {
		if st.EntityTypes[typ] == 0 {
			t.Errorf("no %s entity in the demo graph: %v", typ, st.EntityTypes)
		}
	}

	// Facts the demo states outright, each with a citation.
	want := []struct{ name, rel, tail string }{
		{"诸葛亮", "籍贯", "阳都"},
		{"诸葛亮", "卒于", "五丈原"},
		{"关羽", "封爵", "汉寿亭侯"},
		{"孙权", "攻", "合肥"},
		{"Zhuge Liang", "born_in", "Yangdu"},
	}
	for _, w := range want {
		v, err := ws.Entity(ctx, w.name, annals.EntityOptions{Relations: 200})
		if err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		found := false
		for _, r := range v.Relations {
			if r.Type == w.rel && r.Tail == w.tail {
				found = true
				if len(r.Evidence) == 0 || r.Evidence[0].Sentence == "" || !strings.HasPrefix(r.Evidence[0].Cite, "《") {
					t.Errorf("(%s, %s, %s) has no citation: %+v", w.name, w.rel, w.tail, r)
				}
			}
		}
		if !found {
			t.Errorf("(%s, %s, %s) not in the graph", w.name, w.rel, w.tail)
		}
	}

	// Aliases from the dictionary and from the text both lead to the person,
	// and remember where they came from.
	v, err := ws.Entity(ctx, "孔明", annals.EntityOptions{})
	if err != nil || v.Name != "诸葛亮" {
		t.Fatalf("孔明 → %+v, %v", v, err)
	}
	sources := map[string]bool{}
	for _, a := range v.Aliases {
		if a.Name == "孔明" {
			sources[strings.SplitN(a.Source, ":", 2)[0]] = true
		}
	}
	if !sources["dictionary"] || !sources["text"] {
		t.Fatalf("孔明 should be known from the dictionary and from the text: %+v", v.Aliases)
	}
	if _, err := ws.Entity(ctx, "无此人", annals.EntityOptions{}); !errors.Is(err, annals.ErrNotFound) {
		t.Fatalf("unknown name: %v", err)
	}
}

func TestExtractWithoutWorkspace(t *testing.T) {
	res, lang, err := annals.Extract(context.Background(), "黄忠，字汉升，南阳人也。", annals.ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if lang != "lzh" {
		t.Errorf("language %s", lang)
	}
	var alias bool
	for _, tr := range res.Triples {
		alias = alias || (tr.Relation == "别称" && tr.Tail.Text == "汉升")
	}
	if !alias {
		t.Fatalf("want 黄忠 别称 汉升: %+v", res)
	}
}

// BenchmarkIndexDemo measures a full index of the demo corpus into a fresh
// workspace.
func BenchmarkIndexDemo(b *testing.B) {
	for i := 0; i < b.N; i++ {
		indexDemo(b)
	}
}

func TestIndexEmbedsChunksAndEntitiesOnce(t *testing.T) {
	ctx := context.Background()
	ws, rep := indexDemo(t)
	st, _ := ws.Stats(ctx)
	if rep.Embed == nil || !rep.Embed.Trained || rep.Embed.Chunks != st.Chunks || rep.Embed.Entities != st.Entities {
		t.Fatalf("every chunk and entity should get a vector from a freshly trained model: %+v, %d chunks, %d entities", rep.Embed, st.Chunks, st.Entities)
	}
	dir := filepath.Dir(ws.Dir)
	again, err := ws.Index(ctx, []string{filepath.Join(dir, "corpus")}, annals.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Embed == nil || again.Embed.Trained || again.Embed.Chunks != 0 || again.Embed.Entities != 0 {
		t.Fatalf("an unchanged corpus embeds nothing: %+v", again.Embed)
	}
}
