package llmextract

import (
	"context"
	"errors"
	"sync"

	"github.com/annals-project/annals/internal/llm"
)

// fakeClient answers chat calls from a script, or from a handler, and
// records every request.
type fakeClient struct {
	mu      sync.Mutex
	model   string
	script  []fakeReply
	handler func(llm.Request) fakeReply
	reqs    []llm.Request
}

type fakeReply struct {
	content string
	err     error
	cached  bool
}

func newFake(replies ...string) *fakeClient {
	f := &fakeClient{model: "fake-model"}
	for _, r := range replies {
		f.script = append(f.script, fakeReply{content: r})
	}
	return f
}

func (f *fakeClient) Chat(ctx context.Context, req llm.Request) (*llm.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = append(f.reqs, req)
	var r fakeReply
	switch {
	case f.handler != nil:
		r = f.handler(req)
	case len(f.script) > 0:
		r, f.script = f.script[0], f.script[1:]
	default:
		return nil, errors.New("fake: no reply scripted")
	}
	if r.err != nil {
		return nil, r.err
	}
	return &llm.Response{Content: r.content, Cached: r.cached, Usage: llm.Usage{PromptTokens: 100, CompletionTokens: 50}}, nil
}

func (f *fakeClient) Embed(context.Context, string, []string) ([][]float32, llm.Usage, error) {
	return nil, llm.Usage{}, errors.New("fake: no embeddings")
}

func (f *fakeClient) Model() string { return f.model }

func (f *fakeClient) requests() []llm.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]llm.Request(nil), f.reqs...)
}
