package ekg

import (
	"context"
	"testing"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/extract/pattern"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/llm/llmtest"
)

func TestOverHTTP(t *testing.T) {
	srv := llmtest.New(t)
	// Reasoning before the JSON is read past.
	srv.Script(llmtest.Reply{Content: `<think>list the names</think>{"entities": [
		{"text": "庞统", "type": "人物"}, {"text": "司马徽", "type": "人物"}, {"text": "颍川", "type": "地点"}]}`})
	c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "test-model", MaxRetries: -1}, llm.NewMemoryCache(), nil)
	if err != nil {
		t.Fatal(err)
	}
	text := "庞统，字士元，襄阳人也。往谒颍川司马徽。"
	in := extract.Input{Text: text, Lang: "lzh", Schema: zhSchema, Doc: extract.NewDocContext("d", "庞统传", nil)}
	x := New(pattern.New(), c)
	res, err := x.Extract(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	checkOffsets(t, text, res)
	if !has(res, "司马徽", "人物", 16) || !has(res, "颍川", "地点", 14) || !has(res, "庞统", "人物", 0) {
		t.Fatalf("entities %+v", res.Entities)
	}
	for _, tr := range res.Triples {
		if !IsAlias(tr) {
			t.Fatalf("relation kept: %+v", tr)
		}
	}
	if srv.Calls() != 1 || len(srv.Requests()[0].ResponseFormat) == 0 {
		t.Fatalf("%d calls", srv.Calls())
	}
}

// A place or an office the offline reader ran into a person the model
// read is dropped; an office fused with its place stays whole.
func TestDropSplit(t *testing.T) {
	ent := func(text, typ string, start int) extract.Entity {
		return extract.Entity{Text: text, Type: typ, Span: kg.Span{Start: start, End: start + len([]rune(text))}}
	}
	base := extract.Result{
		Entities: []extract.Entity{ent("颍川司马徽", "地点", 2), ent("南阳太守", "职官", 10)},
		Triples:  []extract.Triple{{Head: ent("颍川司马徽", "地点", 2), Relation: "别称", Tail: ent("水镜", "人物", 20)}},
	}
	found := []extract.Entity{ent("颍川", "地点", 2), ent("司马徽", "人物", 4), ent("南阳", "地点", 10)}
	got := dropSplit(base, found)
	if len(got.Entities) != 1 || got.Entities[0].Text != "南阳太守" || len(got.Triples) != 0 {
		t.Fatalf("kept %+v, triples %+v", got.Entities, got.Triples)
	}
}
