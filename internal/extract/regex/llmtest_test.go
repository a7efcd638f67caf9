package regex

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/llm/llmtest"
)

func client(t *testing.T, srv *llmtest.Server, cache llm.Cache) llm.Client {
	t.Helper()
	c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "test-model", MaxRetries: -1}, cache, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestOverHTTP(t *testing.T) {
	srv := llmtest.New(t)
	// The model writes the regex into JSON without escaping it, as models do.
	srv.Script(llmtest.Reply{Content: "Here is the pattern:\n```json\n" +
		`{"regex": "(?P<name>\p{Han}{2,3})，字(?P<zi>\p{Han}{1,2})，号(?P<hao>\p{Han}{1,3})，(?P<place>\p{Han}{2,6}?)人",
		  "groups": {"name": "人物", "zi": "人物", "hao": "人物", "place": "地点"},
		  "relations": [{"head": "name", "relation": "别称", "tail": "zi", "alias_kind": "字"},
		                {"head": "name", "relation": "籍贯", "tail": "place"},]}` + "\n```"})
	cache := llm.NewMemoryCache()
	x := New(client(t, srv, cache), &stub{}, Options{NoSeeds: true})
	res, err := x.Extract(context.Background(), zhIn(entry1))
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, entry1, res)
	if triple(res, "汪润之", "别称", "雨元") == nil || triple(res, "汪润之", "籍贯", "浙江钱塘") == nil {
		t.Fatalf("triples %+v", res.Triples)
	}
	res, _ = x.Extract(context.Background(), zhIn(entry2))
	if srv.Calls() != 1 || triple(res, "洪燿", "籍贯", "浙江新城") == nil {
		t.Fatalf("%d calls, %+v", srv.Calls(), res.Triples)
	}
	req := srv.Requests()[0]
	if len(req.ResponseFormat) == 0 || req.Messages[1].Content != entry1 || req.Temperature != 0 {
		t.Fatalf("request %+v", req)
	}

	// Re-reading without the kept patterns asks the same question, which the
	// reply cache answers.
	y := New(client(t, srv, cache), &stub{}, Options{NoSeeds: true})
	if res, _ := y.Extract(context.Background(), zhIn(entry1)); len(res.Triples) != 2 || srv.Calls() != 1 {
		t.Fatalf("%d calls, %+v", srv.Calls(), res.Triples)
	}
}

func TestOverHTTPFailures(t *testing.T) {
	srv := llmtest.New(t, llmtest.WithRejectJSONSchema())
	srv.Handle(func(r llmtest.ChatRequest) llmtest.Reply {
		if len(r.Messages) > 2 {
			return llmtest.Reply{Content: reply(bioPattern)}
		}
		return llmtest.Reply{Content: `{"regex": "(?P<name>\\p{Han}{2,3}"}`}
	})
	fb := &stub{}
	x := New(client(t, srv, nil), fb, Options{NoSeeds: true})
	res, err := x.Extract(context.Background(), zhIn(entry1))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Triples) != 3 || fb.n != 0 {
		t.Fatalf("%+v", res)
	}
	st := x.Stats()
	if st.Calls != 2 || st.CompileFailures != 1 || st.Learned != 1 {
		t.Fatalf("stats %+v", st)
	}
	// The retry carried the compile error.
	var fed bool
	for _, r := range srv.Requests() {
		for _, m := range r.Messages {
			fed = fed || strings.Contains(m.Content, "does not compile")
		}
	}
	if !fed {
		t.Fatal("the compile error was not fed back")
	}

	down := llmtest.New(t)
	down.Script(llmtest.Reply{Status: 500})
	z := New(client(t, down, nil), fb, Options{NoSeeds: true})
	if _, err := z.Extract(context.Background(), zhIn(entry1)); err == nil {
		t.Fatal("server error swallowed")
	}

	// A spent budget stops the run before a call is made.
	srv2 := llmtest.New(t)
	c, err := llm.New(llm.Config{BaseURL: srv2.URL, Model: "m", MaxRetries: -1, MaxTokens: 10}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(c, fb, Options{NoSeeds: true}).Extract(context.Background(), zhIn(entry1)); !errors.Is(err, llm.ErrBudget) || srv2.Calls() != 0 {
		t.Fatalf("err %v, %d calls", err, srv2.Calls())
	}
}

// A reply that is no pattern at all is fed back like any failure, but not
// cached: a later run asks the model again rather than replaying it.
func TestProseReplyNotCached(t *testing.T) {
	srv := llmtest.New(t)
	srv.Handle(func(r llmtest.ChatRequest) llmtest.Reply {
		if len(r.Messages) > 2 {
			return llmtest.Reply{Content: reply(bioPattern)}
		}
		return llmtest.Reply{Content: "此传体例，先名后字，次及籍贯，不烦正则。"}
	})
	cache := llm.NewMemoryCache()
	x := New(client(t, srv, cache), &stub{}, Options{NoSeeds: true})
	res, err := x.Extract(context.Background(), zhIn(entry1))
	if err != nil || len(res.Triples) != 3 {
		t.Fatalf("%v, %+v", err, res)
	}
	if srv.Calls() != 2 || cache.Len() != 1 {
		t.Fatalf("%d calls, %d cached; want 2 calls and only the pattern cached", srv.Calls(), cache.Len())
	}
	y := New(client(t, srv, cache), &stub{}, Options{NoSeeds: true})
	if _, err := y.Extract(context.Background(), zhIn(entry1)); err != nil || srv.Calls() != 3 {
		t.Fatalf("%v, %d calls: the prose reply was answered from the cache", err, srv.Calls())
	}
}
