package annals_test

import (
	"context"
	"testing"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/llm/llmtest"
)

// A reply an endpoint gave that could not be read is not kept, and no
// reply is ever another endpoint's: after asking one that answers in
// prose, asking a working one reaches it and gets its answer.
func TestAskAnotherEndpointAfterAnUnreadableReply(t *testing.T) {
	ctx := context.Background()
	broken := llmtest.New(t)
	broken.Handle(func(llmtest.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Content: "I would rather not answer in JSON."}
	})
	ws := askWorkspace(t, broken)
	const q = "诸葛亮字什么？"
	if ans, err := ws.Ask(ctx, q, annals.AskOptions{TopK: 3}); err == nil && ans.Method == "llm" && ans.Answered {
		t.Fatalf("a prose reply was taken for an answer: %+v", ans)
	}
	if broken.Calls() == 0 {
		t.Fatal("the first endpoint was not asked")
	}
	st, err := ws.CacheStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st.Steps {
		if s.Step == "answer" || s.Step == "rerank" {
			t.Fatalf("an unreadable reply was cached: %+v", st)
		}
	}

	working := llmtest.New(t)
	working.Handle(scripted(func(string) string { return `{"answer":"诸葛亮字孔明。","citations":[1]}` }))
	t.Setenv("ANNALS_LLM_BASE_URL", working.URL)
	again, err := annals.Open(ctx, ws.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	ans, err := again.Ask(ctx, q, annals.AskOptions{TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if working.Calls() == 0 || !ans.Answered || ans.Method != "llm" || ans.Answer != "诸葛亮字孔明。" {
		t.Fatalf("the working endpoint got %d calls; answer %+v", working.Calls(), ans)
	}
}
