package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// eval qa scores retrieval on the passages a question marks supporting,
// over the evidence --top-k gives the answer, and reports time per
// question.
func TestEvalQARecallAndTopK(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "qs.jsonl")
	body := `{"id":"1","question":"孙策的父亲是谁？","answer":"孙坚","context":[{"title":"孙坚","text":"孙坚字文台，吴郡富春人。孙坚之子孙策，勇而有谋。","supporting":true},{"title":"孙权","text":"孙权字仲谋，孙策之弟也。"},{"title":"曹操","text":"曹操字孟德，沛国谯人也。"},{"title":"刘备","text":"刘备字玄德，涿郡涿县人。"}]}
{"id":"2","question":"孙权字什么？","answer":"仲谋","context":[{"title":"孙权","text":"孙权字仲谋，孙策之弟也。","supporting":true},{"title":"周瑜","text":"周瑜字公瑾，庐江舒人也。"}]}
`
	if err := os.WriteFile(data, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	type report struct {
		Recalled int     `json:"recalled"`
		Recall   float64 `json:"recall"`
		Millis   float64 `json:"ms"`
		Results  []struct {
			Recall *float64 `json:"recall"`
			Millis float64  `json:"ms"`
			Docs   []string `json:"docs"`
		} `json:"results"`
	}
	score := func(topK string) report {
		out := mustRun(t, "eval", "qa", "--dataset", data, "--top-k", topK, "--json")
		var r report
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if r.Recalled != 2 || len(r.Results) != 2 || r.Results[0].Recall == nil || r.Millis <= 0 {
			t.Fatalf("--top-k %s: want recall and time for both questions: %s", topK, out)
		}
		return r
	}
	wide, narrow := score("15"), score("1")
	if wide.Recall != 1 {
		t.Errorf("fifteen evidence items miss a supporting passage of a five-passage corpus: recall %.2f", wide.Recall)
	}
	if narrow.Recall > wide.Recall {
		t.Errorf("recall over one item (%.2f) above recall over fifteen (%.2f)", narrow.Recall, wide.Recall)
	}
	if n, w := len(narrow.Results[0].Docs), len(wide.Results[0].Docs); n != 1 || w < 2 {
		t.Errorf("passages retrieved for the answer: %d with --top-k 1 (want 1), %d with 15 (want more)", n, w)
	}
}

// --llm-only needs an LLM, and says so before it reads any question.
func TestEvalQALLMOnlyNeedsAnLLM(t *testing.T) {
	t.Setenv("ANNALS_LLM_BASE_URL", "")
	t.Setenv("OPENAI_BASE_URL", "")
	set := filepath.Join(t.TempDir(), "q.jsonl")
	if err := os.WriteFile(set, []byte(`{"question":"诸葛亮字什么？","answer":"孔明"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, "-q", "-w", filepath.Join(t.TempDir(), "ws"), "eval", "qa", "--dataset", set, "--llm-only")
	if err == nil || !strings.Contains(err.Error(), "LLM alone") {
		t.Fatalf("--llm-only without an LLM: %v\n%s", err, out)
	}
}

// eval extract scores the extractor it is given, and refuses one it does
// not know before reading any data.
func TestEvalExtractNamesItsExtractor(t *testing.T) {
	out, err := run(t, "-w", filepath.Join(t.TempDir(), "ws"), "eval", "extract", "--extractor", "nonsense")
	if err == nil || !strings.Contains(err.Error(), "unknown extractor") {
		t.Fatalf("an unknown extractor: %v\n%s", err, out)
	}
}
