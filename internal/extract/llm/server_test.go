package llmextract

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/llm/llmtest"
)

// These tests go through the real client to the fake HTTP server.

func serverClient(t *testing.T, srv *llmtest.Server, cache llm.Cache, budget int) llm.Client {
	t.Helper()
	c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "test-model", MaxRetries: -1, MaxTokens: budget}, cache, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestServerRoundTripAndCache(t *testing.T) {
	srv := llmtest.New(t)
	srv.Script(llmtest.Reply{Content: goodReply, Usage: &llm.Usage{PromptTokens: 700, CompletionTokens: 300}})
	st := &Stats{}
	x := New(serverClient(t, srv, llm.NewMemoryCache(), 0), Options{Stats: st})
	in := extract.Input{Text: lzhText, Lang: "lzh", Schema: zhHistory()}
	for range 2 {
		res, err := x.Extract(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, lzhText, in.Schema, res)
		if len(res.Triples) != 6 {
			t.Fatalf("triples %+v", res.Triples)
		}
	}
	if srv.Calls() != 1 {
		t.Fatalf("%d calls; the second extraction should come from the cache", srv.Calls())
	}
	c := st.Counts()
	if c.Calls != 1 || c.Cached != 1 || c.Usage.PromptTokens != 1400 {
		t.Errorf("counts %+v", c)
	}
	req := srv.Requests()[0]
	if !strings.Contains(string(req.ResponseFormat), "json_schema") || !strings.Contains(string(req.ResponseFormat), "积极态度倾向") {
		t.Errorf("response_format %s", req.ResponseFormat)
	}
	if req.Temperature != 0 || req.MaxTokens != DefaultMaxTokens || req.Model != "test-model" {
		t.Errorf("request %+v", req)
	}
	if !strings.HasSuffix(x.VersionFor("lzh"), "+test-model") {
		t.Errorf("version %q", x.VersionFor("lzh"))
	}
}

func TestServerWithoutStructuredOutput(t *testing.T) {
	srv := llmtest.New(t, llmtest.WithRejectJSONSchema())
	srv.Handle(func(llmtest.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Content: "```json\n" + goodReply + "\n```"}
	})
	res, err := New(serverClient(t, srv, nil, 0), Options{}).Extract(context.Background(), extract.Input{Text: lzhText, Lang: "lzh", Schema: zhHistory()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Triples) != 6 {
		t.Fatalf("triples %+v", res.Triples)
	}
}

func TestServerTruncatedReply(t *testing.T) {
	// Cut inside the name in the last triple: repair would keep 魏文, half
	// a name, so that triple goes and the five before it stay.
	cut := strings.LastIndex(goodReply, "魏文帝") + len("魏文")
	srv := llmtest.New(t)
	srv.Script(llmtest.Reply{Content: goodReply[:cut], FinishReason: "length"})
	st := &Stats{}
	res, err := New(serverClient(t, srv, nil, 0), Options{Stats: st}).Extract(context.Background(), extract.Input{Text: lzhText, Lang: "lzh", Schema: zhHistory()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Triples) != 5 || findTriple(res, "丕", "别称", "魏文") != nil {
		t.Fatalf("triples %+v", res.Triples)
	}
	if st.Counts().Read[readTruncated] != 1 {
		t.Errorf("counts %+v", st.Counts())
	}
}

func TestServerErrors(t *testing.T) {
	srv := llmtest.New(t)
	srv.Script(llmtest.Reply{Status: 500, Content: "overloaded"})
	_, err := New(serverClient(t, srv, nil, 0), Options{}).Extract(context.Background(), extract.Input{Text: lzhText, Lang: "lzh"})
	if err == nil {
		t.Fatal("a failed call must be an error")
	}

	srv = llmtest.New(t)
	srv.Script(llmtest.Reply{Content: goodReply})
	_, err = New(serverClient(t, srv, nil, 50), Options{}).Extract(context.Background(), extract.Input{Text: lzhText, Lang: "lzh"})
	if !errors.Is(err, llm.ErrBudget) {
		t.Fatalf("got %v, want ErrBudget", err)
	}
	if srv.Calls() != 0 {
		t.Fatal("a call past the budget was made")
	}

	srv = llmtest.New(t)
	srv.Script(llmtest.Reply{Content: ""})
	st := &Stats{}
	res, err := New(serverClient(t, srv, nil, 0), Options{Stats: st}).Extract(context.Background(), extract.Input{Text: lzhText, Lang: "lzh"})
	if err != nil || len(res.Entities) != 0 || st.Counts().Failures[FailEmpty] != 1 {
		t.Fatalf("empty reply: %v %+v %+v", err, res, st.Counts())
	}
}
