package relate

import (
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/llm/llmtest"
)

func judge(t *testing.T, srv *llmtest.Server) *LLMJudge {
	t.Helper()
	c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "test"}, llm.NewMemoryCache(), llm.NewMeter(0))
	if err != nil {
		t.Fatal(err)
	}
	return &LLMJudge{Client: c, Types: []string{"子女", "下级", "同胞"}}
}

func TestLLMReadsAHopNoCueReads(t *testing.T) {
	srv := llmtest.New(t)
	srv.Handle(func(r llmtest.ChatRequest) llmtest.Reply {
		if strings.Contains(r.Messages[0].Content, "check a fact") {
			return llmtest.Reply{Content: `{"consistent": true}`}
		}
		if strings.Contains(r.Messages[1].Content, "周瑜与孙权共议") {
			return llmtest.Reply{Content: `{"relation": "下级", "head": "孙权"}`}
		}
		return llmtest.Reply{Content: `{"relation": "none"}`}
	})
	w := family()
	w.facts = nil
	r := relater(t, w)
	r.Judge = judge(t, srv)
	res, err := r.Relate(t.Context(), 4, 3, Options{SearchOptions: SearchOptions{MaxPaths: 1}})
	if err != nil {
		t.Fatal(err)
	}
	var hop *HopView
	for _, p := range res.Paths {
		if len(p.Hops) == 1 {
			hop = &p.Hops[0]
		}
	}
	if hop == nil || hop.Relation != "下级" || hop.Source != FromLLM || hop.Head || hop.Status != kg.StatusInferred {
		t.Fatalf("the model's reading of 周瑜与孙权共议 (孙权 head): %+v", res.Paths)
	}
	// Read by the model, then judged consistent with its evidence.
	if len(res.Findings) == 0 || res.Findings[0].Status != kg.StatusVerified || !strings.Contains(res.Findings[0].Verified, "model") {
		t.Fatalf("findings %+v", res.Findings)
	}
	req := srv.Requests()[0]
	if !strings.Contains(req.Messages[1].Content, "周瑜与孙权共议") || !strings.Contains(req.Messages[0].Content, "同胞") {
		t.Fatalf("the prompt shows the sentence and the schema's types: %+v", req.Messages)
	}
}

func TestLLMJudgeReplies(t *testing.T) {
	srv := llmtest.New(t)
	j := judge(t, srv)
	srv.Script(llmtest.Reply{Content: `{"relation": "盟友", "head": "甲"}`}, llmtest.Reply{Content: `{"relation": "none"}`},
		llmtest.Reply{Content: `not json`}, llmtest.Reply{Status: 400})
	if typ, _, err := j.HopRelation(t.Context(), "甲", "乙", []string{"甲与乙盟"}); err != nil || typ != "" {
		t.Fatalf("a type outside the schema is none: %q %v", typ, err)
	}
	if typ, _, err := j.HopRelation(t.Context(), "甲", "乙", []string{"甲乙二人"}); err != nil || typ != "" {
		t.Fatalf("none: %q %v", typ, err)
	}
	if _, _, err := j.HopRelation(t.Context(), "甲", "乙", []string{"甲乙三人"}); err == nil || !strings.Contains(err.Error(), "JSON") {
		t.Fatalf("malformed reply: %v", err)
	}
	if _, err := j.Verify(t.Context(), Finding{Text: "甲是乙的部下"}); err == nil {
		t.Fatal("an API error passed as a verdict")
	}
	srv.Script(llmtest.Reply{Content: `{"consistent": true}`}, llmtest.Reply{Content: `{"verdict": "yes"}`})
	if ok, err := j.Verify(t.Context(), Finding{Text: "甲是乙的部下", Evidence: []kg.Evidence{{Sentence: "甲事乙"}}}); err != nil || !ok {
		t.Fatalf("consistent: %v %v", ok, err)
	}
	if _, err := j.Verify(t.Context(), Finding{Text: "甲是乙的孙"}); err == nil {
		t.Fatal("a reply without consistent passed")
	}
}

func TestLLMReasonsAlongAPathNoRuleComposes(t *testing.T) {
	srv := llmtest.New(t)
	srv.Handle(func(r llmtest.ChatRequest) llmtest.Reply {
		switch sys := r.Messages[0].Content; {
		case strings.Contains(sys, "chain of relations"):
			return llmtest.Reply{Content: `{"relation": "下级", "head": "孙坚"}`}
		case strings.Contains(sys, "check a fact"):
			return llmtest.Reply{Content: `{"consistent": false}`}
		}
		return llmtest.Reply{Content: `{"relation": "none"}`}
	})
	w := family()
	w.facts = nil
	r := relater(t, w)
	r.Judge = judge(t, srv)
	// 周瑜 served under 孙策, who is 孙坚's son: no rule composes that.
	res, err := r.Relate(t.Context(), 4, 1, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 {
		t.Fatalf("findings %+v", res.Findings)
	}
	f := res.Findings[0]
	if f.Type != "下级" || f.HeadID != 1 || f.Status != kg.StatusInferred || len(f.Via) != 1 || f.Via[0] != "孙策" {
		t.Fatalf("the model's reading of the chain, judged inconsistent, stays inferred: %+v", f)
	}
	var asked bool
	for _, req := range srv.Requests() {
		if strings.Contains(req.Messages[0].Content, "chain of relations") {
			asked = strings.Contains(req.Messages[1].Content, "孙策遣周瑜屯巴丘") && strings.Contains(req.Messages[1].Content, "孙坚之子孙策")
		}
	}
	if !asked {
		t.Fatal("the chain prompt lacks the steps' sentences")
	}
}

// With a model, each of the best paths is read on its own, and one call
// merges the readings; the merge may not bring in a relation no path read.
func TestLLMReadsEachPathThenMerges(t *testing.T) {
	srv := llmtest.New(t)
	srv.Handle(func(r llmtest.ChatRequest) llmtest.Reply {
		switch sys := r.Messages[0].Content; {
		case strings.Contains(sys, "Merge those readings"):
			return llmtest.Reply{Content: `{"relations": [{"relation": "同胞", "head": "孙策", "paths": [1, 2]}, {"relation": "子女", "head": "孙策", "paths": [7]}]}`}
		case strings.Contains(sys, "chain of relations"):
			return llmtest.Reply{Content: `{"relation": "同胞", "head": "孙策"}`}
		case strings.Contains(sys, "check a fact"):
			return llmtest.Reply{Content: `{"consistent": true}`}
		}
		// 周瑜与孙权共议: 周瑜 served 孙权.
		return llmtest.Reply{Content: `{"relation": "下级", "head": "孙权"}`}
	})
	w := family()
	w.facts = nil
	r := relater(t, w)
	r.Judge = judge(t, srv)
	res, err := r.Relate(t.Context(), 2, 3, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var chains, merges int
	for _, req := range srv.Requests() {
		switch sys := req.Messages[0].Content; {
		case strings.Contains(sys, "chain of relations"):
			chains++
		case strings.Contains(sys, "Merge those readings"):
			merges++
			if u := req.Messages[1].Content; !strings.Contains(u, "Chain 1 reads: 同胞") || !strings.Contains(u, "孙坚之子孙策") {
				t.Errorf("the merge prompt lacks the readings and their sentences:\n%s", u)
			}
		}
	}
	if chains < 2 || merges != 1 {
		t.Fatalf("%d path readings and %d merges; want one reading per path and one merge", chains, merges)
	}
	if len(res.Findings) != 1 {
		t.Fatalf("findings %+v; want the one relation the paths read", res.Findings)
	}
	f := res.Findings[0]
	if f.Type != "同胞" || f.Status != kg.StatusVerified || len(f.Paths) < 2 || len(f.Evidence) < 2 {
		t.Fatalf("the merged finding, verified by the model, with its paths and sentences: %+v", f)
	}
	// Steps are verified by the model too before they may be written.
	for _, s := range res.Steps {
		if !strings.Contains(s.Verified, "model") {
			t.Errorf("step %s not checked by the model: %+v", s.Text, s)
		}
	}
}
