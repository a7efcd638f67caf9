package regex

import (
	"context"
	"errors"
	"sync"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/llm"
)

// fakeLLM answers chat calls from a script, in order, and remembers them;
// past the script it answers with last (or an empty object).
type fakeLLM struct {
	mu      sync.Mutex
	replies []string
	last    string
	err     error
	reqs    []llm.Request
}

func (f *fakeLLM) Chat(_ context.Context, req llm.Request) (*llm.Response, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = append(f.reqs, req)
	if f.err != nil {
		return nil, f.err
	}
	if len(f.replies) == 0 {
		if f.last == "" {
			return &llm.Response{Content: "{}"}, nil
		}
		return &llm.Response{Content: f.last}, nil
	}
	r := f.replies[0]
	f.replies = f.replies[1:]
	return &llm.Response{Content: r}, nil
}

func (f *fakeLLM) Embed(context.Context, string, []string) ([][]float32, llm.Usage, error) {
	return nil, llm.Usage{}, errors.New("no embeddings")
}

func (f *fakeLLM) Model() string { return "fake" }

func (f *fakeLLM) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

// stub is a fallback that returns a fixed result and counts its calls.
type stub struct {
	mu  sync.Mutex
	n   int
	res extract.Result
}

func (s *stub) Name() string    { return "stub" }
func (s *stub) Version() string { return "stub-1" }
func (s *stub) Extract(context.Context, extract.Input) (extract.Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	return s.res, nil
}

// memStore is a Store in memory.
type memStore struct {
	mu    sync.Mutex
	saved []Pattern
	err   error
}

func (m *memStore) Load(context.Context) ([]Pattern, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Pattern(nil), m.saved...), m.err
}

func (m *memStore) Save(_ context.Context, p Pattern) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return m.err
	}
	m.saved = append(m.saved, p)
	return nil
}
