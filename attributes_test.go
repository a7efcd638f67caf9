package annals_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/llm/llmtest"
)

// statedAttr finds an attribute of an entity view.
func statedAttr(v *annals.EntityView, kind string) *annals.Attribute {
	for i, a := range v.Stated {
		if a.Kind == kind {
			return &v.Stated[i]
		}
	}
	return nil
}

// The attributes an LLM reads are stored with the document and shown on
// the entity's view with the sentence that states them and the offsets of
// the name and the value; a 字 among them finds the entity. A malformed
// item and a value the text does not hold are dropped, and the triples
// stay.
func TestLLMAttributesAreStoredAndShown(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t)
	const text = "诸葛亮字孔明，琅邪阳都人也。年五十四卒。"
	srv.Handle(func(req llmtest.ChatRequest) llmtest.Reply {
		if strings.HasPrefix(req.Messages[0].Content, "You grade") {
			return fakeModel(req)
		}
		return llmtest.Reply{Content: `{"entities":[{"text":"诸葛亮","type":"人物"},{"text":"琅邪阳都","type":"地点"}],
"triples":[{"head":"诸葛亮","relation":"籍贯","tail":"琅邪阳都"}],
"attributes":[{"entity":"诸葛亮","attribute":"字","value":"孔明","evidence":"诸葛亮字孔明"},
{"entity":"诸葛亮","attribute":"享年","value":"五十四"},
{"entity":"诸葛亮","attribute":"号"},
{"entity":"诸葛亮","attribute":"号","value":"卧龙"}]}`}
	})
	ws, corpus := llmWorkspace(t, srv)
	if err := os.WriteFile(filepath.Join(corpus, "诸葛亮传.txt"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Index(ctx, []string{corpus}, annals.IndexOptions{Extractor: "llm"}); err != nil {
		t.Fatal(err)
	}
	v, err := ws.Entity(ctx, "孔明", annals.EntityOptions{})
	if err != nil || v.Name != "诸葛亮" {
		t.Fatalf("the 字 does not find its entity: %+v %v", v, err)
	}
	zi := statedAttr(v, "字")
	if zi == nil || zi.Value != "孔明" || zi.Extractor != "llm" || zi.Evidence == nil {
		t.Fatalf("stated attributes %+v", v.Stated)
	}
	ev := zi.Evidence
	if ev.Sentence != "诸葛亮字孔明，琅邪阳都人也。" || ev.Start != 0 || ev.End != 14 ||
		ev.Head != (kg.Span{Start: 0, End: 3}) || ev.Tail != (kg.Span{Start: 4, End: 6}) || ev.Cite != "《诸葛亮传》" {
		t.Fatalf("the 字's citation %+v", ev)
	}
	if age := statedAttr(v, "享年"); age == nil || age.Value != "五十四" || age.Evidence.Tail != (kg.Span{Start: 15, End: 18}) {
		t.Fatalf("享年 %+v", v.Stated)
	}
	if statedAttr(v, "号") != nil || len(v.Stated) != 2 {
		t.Fatalf("a 号 the text does not hold, or none at all, was kept: %+v", v.Stated)
	}
	if len(v.Relations) == 0 || v.Relations[0].Type != "籍贯" {
		t.Fatalf("the triple was lost: %+v", v.Relations)
	}
	found := false
	for _, n := range v.Attributes["字"] {
		found = found || n == "孔明"
	}
	if !found {
		t.Fatalf("the 字 is not among the names by kind: %v", v.Attributes)
	}

	// Removing the document removes its attributes.
	if _, err := ws.Remove(ctx, "诸葛亮传.txt", nil); err != nil {
		t.Fatal(err)
	}
	if v, err := ws.Entity(ctx, "诸葛亮", annals.EntityOptions{}); err == nil && len(v.Stated) > 0 {
		t.Fatalf("attributes outlive their document: %+v", v.Stated)
	} else if err != nil && !errors.Is(err, annals.ErrNotFound) {
		t.Fatal(err)
	}
}
