package regex

import (
	"context"
	"sync"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/llm/llmtest"
)

type fakeLLM = llmtest.Script

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
