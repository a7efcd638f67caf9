package annals_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/llm/llmtest"
)

// askWorkspace indexes the demo offline, then reopens it with the fake
// endpoint configured, so that asking goes to the model.
func askWorkspace(t *testing.T, srv *llmtest.Server) *annals.Workspace {
	t.Helper()
	ws, _ := indexDemo(t)
	t.Setenv("ANNALS_LLM_BASE_URL", srv.URL)
	t.Setenv("ANNALS_LLM_MODEL", "fake-model")
	again, err := annals.Open(context.Background(), ws.Dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { again.Close() })
	return again
}

// scripted answers each prompt of the answer package by its system text.
func scripted(answer func(user string) string) func(llmtest.ChatRequest) llmtest.Reply {
	usage := &llm.Usage{PromptTokens: 100, CompletionTokens: 10}
	return func(req llmtest.ChatRequest) llmtest.Reply {
		sys, user := req.Messages[0].Content, req.Messages[len(req.Messages)-1].Content
		switch {
		case strings.HasPrefix(sys, "You select evidence"):
			return llmtest.Reply{Content: `{"selected":[3,1,2]}`, Usage: usage}
		case strings.HasPrefix(sys, "You plan"):
			return llmtest.Reply{Content: `{"sub_questions":["孙策的父亲是谁","#1字什么"]}`, Usage: usage}
		}
		return llmtest.Reply{Content: answer(user), Usage: usage}
	}
}

func TestAskWithLLMRejectMode(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t)
	ws := askWorkspace(t, srv)
	srv.Handle(scripted(func(string) string { return `{"answer":"诸葛亮字孔明。","citations":[1]}` }))
	ans, err := ws.Ask(ctx, "诸葛亮字什么？", annals.AskOptions{TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !ans.Answered || ans.Answer != "诸葛亮字孔明。" || ans.Method != "llm" || len(ans.Citations) != 1 || len(ans.Items) != 3 {
		t.Fatalf("the model's answer with the evidence it cited: %+v", ans)
	}
	if ans.Usage.PromptTokens != 200 || srv.Calls() != 2 {
		t.Fatalf("a rerank call and an answer call, both counted: %+v, %d calls", ans.Usage, srv.Calls())
	}
	// The answer prompt shows facts as sentences, numbered, with the question.
	var prompt string
	for _, r := range srv.Requests() {
		if strings.Contains(r.Messages[0].Content, "numbered evidence") {
			prompt = r.Messages[1].Content
		}
	}
	if !strings.Contains(prompt, "Question: 诸葛亮字什么？") || !strings.Contains(prompt, "[1] ") {
		t.Fatalf("answer prompt: %s", prompt)
	}
	// An answer that cites nothing is not taken in reject mode, nor one the
	// model says it cannot give.
	// (Each asks in other words: replies are cached by prompt.)
	for i, reply := range []string{`{"answer":"孔明","citations":[]}`, `{"answer":"","unable":true}`} {
		srv.Handle(scripted(func(string) string { return reply }))
		ans, err = ws.Ask(ctx, []string{"诸葛亮的字是什么？", "诸葛亮表字为何？"}[i], annals.AskOptions{TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if ans.Answered || !strings.HasPrefix(ans.Answer, "无法回答") || len(ans.Citations) != 0 {
			t.Fatalf("reply %s: want unable to answer, got %+v", reply, ans.Answer)
		}
	}
	// Open mode takes the model's own knowledge, marked.
	srv.Handle(scripted(func(string) string {
		return `{"answer":"诸葛亮字孔明，号卧龙 [own knowledge]。","citations":[],"own_knowledge":true}`
	}))
	ans, err = ws.Ask(ctx, "诸葛亮字何？", annals.AskOptions{TopK: 3, Mode: annals.ModeOpen})
	if err != nil {
		t.Fatal(err)
	}
	if !ans.Answered || !ans.Own || ans.Mode != "open" {
		t.Fatalf("open mode keeps a marked answer: %+v", ans)
	}
	// A reply that is not JSON is an error that says so.
	srv.Handle(scripted(func(string) string { return "I think it is 孔明" }))
	if _, err := ws.Ask(ctx, "孔明字什么？", annals.AskOptions{TopK: 3}); err == nil || !strings.Contains(err.Error(), "not the JSON") {
		t.Fatalf("malformed reply: %v", err)
	}
	if _, err := ws.Ask(ctx, "诸葛亮字什么？", annals.AskOptions{Mode: "guess"}); err == nil {
		t.Fatal("an unknown mode is an error")
	}
}

func TestAskWithLLMMultipleChoiceFiltersThenPicks(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t)
	ws := askWorkspace(t, srv)
	var priors int
	srv.Handle(scripted(func(user string) string {
		if strings.Contains(user, "C. ") {
			if !strings.Contains(user, "Evidence:") {
				priors++ // rated from the question alone, before retrieval
			}
			return `{"scores":{"A":0.05,"B":0.8,"C":0.1,"D":0.05}}`
		}
		return `{"choice":"B","citations":[1],"why":"the text says so"}`
	}))
	opts := []annals.AnswerOption{{Letter: "A", Text: "赤壁"}, {Letter: "B", Text: "五丈原"}, {Letter: "C", Text: "洛阳"}, {Letter: "D", Text: "建业"}}
	ans, err := ws.Ask(ctx, "诸葛亮卒于何处？", annals.AskOptions{Options: opts, TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if priors != 1 || ans.Options[1].Prior != 0.8 || ans.Options[0].Prior != 0.05 {
		t.Fatalf("the options are rated once before retrieval (%d): %+v", priors, ans.Options)
	}
	if ans.Choice != "B" || !ans.Answered || len(ans.Citations) == 0 {
		t.Fatalf("the model's choice: %+v", ans)
	}
	kept := 0
	for _, o := range ans.Options {
		if o.Kept {
			kept++
		}
	}
	if kept != 1 {
		t.Fatalf("options under θ=0.15 are dropped before the final choice: %+v", ans.Options)
	}
}

func TestAskWithLLMAgentDecomposesAndReflects(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t)
	ws := askWorkspace(t, srv)
	srv.Handle(scripted(func(user string) string {
		if strings.Contains(user, "Steps so far") {
			return `{"sufficient":true,"answer":"孙策之父孙坚字文台。","citations":[1]}`
		}
		if strings.Contains(user, "Question: 孙策的父亲是谁") {
			return `{"answer":"孙坚","citations":[1]}`
		}
		return `{"answer":"文台","citations":[1]}`
	}))
	ans, err := ws.Ask(ctx, "孙策的父亲字什么？", annals.AskOptions{Agent: true, TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !ans.Answered || ans.Answer != "孙策之父孙坚字文台。" || len(ans.Trace) != 2 {
		t.Fatalf("two sub-questions, then the answer: %+v", ans)
	}
	if ans.Trace[1].Question != "孙坚字什么" {
		t.Fatalf("the second sub-question takes the first one's answer: %+v", ans.Trace)
	}
	// A plan of bare questions is routed by their wording: a relation to
	// the triple level, a courtesy name to the node level.
	if ans.Trace[0].Level != "triple" || ans.Trace[1].Level != "node" {
		t.Errorf("levels %q, %q: want triple, node", ans.Trace[0].Level, ans.Trace[1].Level)
	}
}

// Typed decomposition: a sub-question the plan puts at the community
// level is answered by the whole-corpus search even when it is not worded
// as a list; the others go to the level the plan gives them.
func TestAgentRoutesSubQuestionsByLevel(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t)
	ws := askWorkspace(t, srv)
	var reduced atomic.Int32
	srv.Handle(func(req llmtest.ChatRequest) llmtest.Reply {
		sys, user := req.Messages[0].Content, req.Messages[len(req.Messages)-1].Content
		switch {
		case strings.HasPrefix(sys, "You plan"):
			if !strings.Contains(sys, `"level"`) {
				t.Errorf("the plan prompt asks for no levels: %s", sys)
			}
			return llmtest.Reply{Content: `{"sub_questions":[{"question":"刘备手下的将领","level":"community"},{"question":"关羽字什么","level":"node"},{"question":"","level":"node"}]}`}
		case strings.HasPrefix(sys, "You read one part"):
			n := shownNumber.FindStringSubmatch(user)[1]
			return llmtest.Reply{Content: `{"points":[{"names":["关羽"],"text":"关羽随刘备","citations":[` + n + `],"score":80}]}`}
		case strings.HasPrefix(sys, "You answer a question about a group"):
			reduced.Add(1)
			cited := citedNumber.FindStringSubmatch(user)
			return llmtest.Reply{Content: `{"names":["关羽"],"answer":"刘备手下的将领有关羽等。","citations":[` + cited[1] + `]}`}
		case strings.HasPrefix(sys, "You select evidence"):
			return llmtest.Reply{Content: `{"selected":[1,2,3]}`}
		case strings.Contains(user, "Steps so far"):
			return llmtest.Reply{Content: `{"sufficient":true,"answer":"刘备的将领有关羽，字云长。","citations":[1]}`}
		}
		return llmtest.Reply{Content: `{"answer":"云长","citations":[1]}`}
	})
	ans, err := ws.Ask(ctx, "刘备手下的将领中，关羽字什么？", annals.AskOptions{Agent: true, TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Trace) != 2 || ans.Trace[0].Level != "community" || ans.Trace[1].Level != "node" {
		t.Fatalf("two sub-questions (the empty one dropped) at the community and node levels: %+v", ans.Trace)
	}
	if reduced.Load() != 1 || !strings.Contains(ans.Trace[0].Answer, "关羽") {
		t.Errorf("the community-level step was not answered by the global search: %d reduce calls, answer %q", reduced.Load(), ans.Trace[0].Answer)
	}
	if !ans.Answered || ans.Answer != "刘备的将领有关羽，字云长。" {
		t.Errorf("answer %+v", ans.Answer)
	}
}

func TestAskStreamsTheModelsAnswerOverHTTP(t *testing.T) {
	srv := llmtest.New(t)
	ws := askWorkspace(t, srv)
	const answer = "诸葛亮字孔明，\"卧龙\"是他的号。"
	srv.Handle(scripted(func(string) string {
		b, _ := json.Marshal(map[string]any{"answer": answer, "citations": []int{1}})
		return string(b)
	}))
	h, err := ws.Handler(annals.ServeOptions{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	req := apiRequest("POST", "/api/ask", strings.NewReader(`{"question":"诸葛亮字什么？","top_k":3}`))
	req.Header.Set("Accept", "text/event-stream")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var tokens []string
	var result struct {
		Answer    string `json:"answer"`
		Citations []any  `json:"citations"`
	}
	for _, e := range readEvents(t, rec.Body) {
		switch e.name {
		case "token":
			var tok struct{ Text string }
			if err := json.Unmarshal([]byte(e.data), &tok); err != nil {
				t.Fatal(err)
			}
			tokens = append(tokens, tok.Text)
		case "result":
			if err := json.Unmarshal([]byte(e.data), &result); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(tokens) < 3 || strings.Join(tokens, "") != answer {
		t.Fatalf("streamed %q: want the answer in pieces", tokens)
	}
	if result.Answer != answer || len(result.Citations) != 1 {
		t.Fatalf("result %+v", result)
	}
	for _, r := range srv.Requests() {
		if strings.Contains(r.Messages[0].Content, "numbered evidence") && !r.Stream {
			t.Error("the answer call was not streamed")
		}
	}
}
