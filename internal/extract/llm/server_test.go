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
	// A reply cut off at the completion limit is refused, however much of
	// it repair could keep, and is not cached: the next run asks again.
	cut := strings.LastIndex(goodReply, "魏文帝") + len("魏文")
	srv := llmtest.New(t)
	srv.Script(llmtest.Reply{Content: goodReply[:cut], FinishReason: "length"}, llmtest.Reply{Content: goodReply})
	st := &Stats{}
	cache := llm.NewMemoryCache()
	x := New(serverClient(t, srv, cache, 0), Options{Stats: st})
	in := extract.Input{Text: lzhText, Lang: "lzh", Schema: zhHistory()}
	res, err := x.Extract(context.Background(), in)
	var re *ReplyError
	if !errors.As(err, &re) || re.Reason != FailTruncated ||
		err.Error() != "the reply was cut off at the token limit (max_tokens 1500): raise llm.max_tokens or lower chunk.max_chars" {
		t.Fatalf("err = %v", err)
	}
	if len(res.Entities)+len(res.Triples) != 0 || cache.Len() != 0 {
		t.Fatalf("cut-off reply: %+v, %d cached", res, cache.Len())
	}
	if st.Counts().Failures[FailTruncated] != 1 {
		t.Errorf("counts %+v", st.Counts())
	}
	res, err = x.Extract(context.Background(), in)
	if err != nil || len(res.Triples) != 6 || srv.Calls() != 2 || cache.Len() != 1 {
		t.Fatalf("second run: %v, %d triples, %d calls, %d cached", err, len(res.Triples), srv.Calls(), cache.Len())
	}
}

func TestServerProseReplyNotCached(t *testing.T) {
	srv := llmtest.New(t)
	srv.Script(llmtest.Reply{Content: "今按：此段所记，皆曹操之事，无可抽取者。"}, llmtest.Reply{Content: goodReply})
	cache := llm.NewMemoryCache()
	x := New(serverClient(t, srv, cache, 0), Options{})
	in := extract.Input{Text: lzhText, Lang: "lzh", Schema: zhHistory()}
	if _, err := x.Extract(context.Background(), in); err == nil || !strings.HasPrefix(err.Error(), "the model's reply is not JSON: «今按") {
		t.Fatalf("err = %v", err)
	}
	if cache.Len() != 0 {
		t.Fatal("prose reply cached")
	}
	if res, err := x.Extract(context.Background(), in); err != nil || len(res.Triples) != 6 || srv.Calls() != 2 {
		t.Fatalf("second run: %v, %+v, %d calls", err, res, srv.Calls())
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
	if err == nil || len(res.Entities) != 0 || st.Counts().Failures[FailEmpty] != 1 {
		t.Fatalf("empty reply: %v %+v %+v", err, res, st.Counts())
	}
}
