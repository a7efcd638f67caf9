package ekg

import (
	"context"
	"testing"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/extract/pattern"
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
