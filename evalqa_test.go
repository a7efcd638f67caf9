package annals_test

import (
	"context"
	"strings"
	"testing"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/eval/qa"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/llm/llmtest"
)

// With --judge, the configured LLM grades each free answer against the
// gold, offline answers included; multiple-choice questions keep their
// letters, and the judge's tokens count in the cost per question.
func TestEvaluateQAJudge(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t)
	ws := askWorkspace(t, srv)
	srv.Handle(func(req llmtest.ChatRequest) llmtest.Reply {
		sys, user := req.Messages[0].Content, req.Messages[len(req.Messages)-1].Content
		if !strings.HasPrefix(sys, "You grade answers") {
			t.Errorf("only the judge should be asked, got %.60s", sys)
		}
		verdict := `{"correct":false,"reason":"other"}`
		if strings.Contains(user, "Reference answer: 孔明") && strings.Contains(user, "Answer to grade: ") && strings.Contains(user[strings.Index(user, "Answer to grade: "):], "孔明") {
			verdict = `{"correct":true,"reason":"same"}`
		}
		return llmtest.Reply{Content: verdict, Usage: &llm.Usage{PromptTokens: 40, CompletionTokens: 5}}
	})
	qs := []qa.Question{
		{ID: "1", Question: "诸葛亮字什么？", Answer: "孔明"},
		{ID: "2", Question: "诸葛亮字什么？", Answer: "子龙"},
		{ID: "3", Question: "诸葛亮字什么？", Options: []qa.Option{{Letter: "A", Text: "孔明"}, {Letter: "B", Text: "子龙"}}, Answer: "A"},
	}
	rep, err := ws.EvaluateQA(ctx, qs, annals.QAEvalOptions{Ask: annals.AskOptions{Offline: true}, Judge: true, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Results
	if r[0].Judged == nil || !*r[0].Judged || r[1].Judged == nil || *r[1].Judged || r[2].Judged != nil {
		t.Fatalf("verdicts: %v %v %v (answers %q, %q)", r[0].Judged, r[1].Judged, r[2].Judged, r[0].Predicted, r[1].Predicted)
	}
	if rep.Judged != 2 || rep.JudgedRight != 0.5 || r[0].Tokens != 45 || srv.Calls() != 2 {
		t.Fatalf("judged %d (right %.2f), tokens %d, calls %d", rep.Judged, rep.JudgedRight, r[0].Tokens, srv.Calls())
	}
	if !r[2].Correct {
		t.Errorf("the multiple-choice question is scored by its letter: %+v", r[2])
	}
	// No endpoint: judging is refused before any question is asked.
	t.Setenv("ANNALS_LLM_BASE_URL", "")
	t.Setenv("OPENAI_BASE_URL", "")
	plain, _ := indexDemo(t)
	if _, err := plain.EvaluateQA(ctx, qs, annals.QAEvalOptions{Judge: true}); err == nil || !strings.Contains(err.Error(), "judge") {
		t.Fatalf("judging without an LLM: %v", err)
	}
}

func TestEvaluateQALLMOnly(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t)
	ws := askWorkspace(t, srv)
	srv.Handle(func(req llmtest.ChatRequest) llmtest.Reply {
		sys, user := req.Messages[0].Content, req.Messages[len(req.Messages)-1].Content
		if !strings.HasPrefix(sys, "You answer questions about history from what you know") {
			t.Errorf("only the zero-shot answer should be asked, got %.60s", sys)
		}
		reply := `{"answer":"","choice":"","known":false}`
		switch {
		case strings.Contains(user, "A. 孔明"):
			// The options reach the prompt; a letter no option has is no choice.
			reply = `{"answer":"孔明","choice":"A","known":true}`
		case strings.Contains(user, "字什么"):
			reply = `{"answer":"孔明","choice":"Z","known":true}`
		}
		return llmtest.Reply{Content: reply, Usage: &llm.Usage{PromptTokens: 30, CompletionTokens: 6}}
	})
	qs := []qa.Question{
		{ID: "1", Question: "诸葛亮字什么？", Answer: "孔明"},
		{ID: "2", Question: "诸葛亮的父亲是谁？", Answer: "诸葛珪"},
		{ID: "3", Question: "诸葛亮之字？", Options: []qa.Option{{Letter: "A", Text: "孔明"}, {Letter: "B", Text: "子龙"}}, Answer: "A"},
	}
	rep, err := ws.EvaluateQA(ctx, qs, annals.QAEvalOptions{LLMOnly: true, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Results
	if !r[0].Contains || r[0].Choice != "" || !r[1].Abstained || !r[2].Correct || srv.Calls() != 3 {
		t.Fatalf("results %+v, calls %d", r, srv.Calls())
	}
	if r[0].Tokens != 36 || r[0].Method != "llm-only" || rep.ByMethod["llm-only"] == nil || rep.ByMethod["llm-only"].N != 3 {
		t.Fatalf("cost and method: %+v, by method %+v", r[0], rep.ByMethod)
	}
	// No endpoint: refused before any question is asked.
	t.Setenv("ANNALS_LLM_BASE_URL", "")
	t.Setenv("OPENAI_BASE_URL", "")
	plain, _ := indexDemo(t)
	if _, err := plain.EvaluateQA(ctx, qs, annals.QAEvalOptions{LLMOnly: true}); err == nil || !strings.Contains(err.Error(), "LLM alone") {
		t.Fatalf("the LLM alone without an LLM: %v", err)
	}
}
