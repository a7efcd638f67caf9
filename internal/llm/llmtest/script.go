package llmtest

import (
	"context"
	"errors"
	"sync"

	"github.com/annals-project/annals/internal/llm"
)

// Script is an in-memory llm.Client for unit tests that need no HTTP: it
// answers chat calls with Replies in order, then with Last (or "{}"), fails
// every call with Err when set, and records each request in Reqs. Like the
// real client it runs the request's Validate on each reply and returns a
// refused one with an *llm.InvalidReplyError.
type Script struct {
	mu      sync.Mutex
	Replies []string
	Last    string
	Err     error
	Usage   llm.Usage // reported with every reply
	Reqs    []llm.Request
}

var _ llm.Client = (*Script)(nil)

// Chat answers from the script.
func (s *Script) Chat(_ context.Context, req llm.Request) (*llm.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Reqs = append(s.Reqs, req)
	if s.Err != nil {
		return nil, s.Err
	}
	content := s.Last
	if len(s.Replies) > 0 {
		content, s.Replies = s.Replies[0], s.Replies[1:]
	} else if content == "" {
		content = "{}"
	}
	resp := &llm.Response{Content: content, Usage: s.Usage, FinishReason: "stop"}
	if req.Validate != nil {
		if err := req.Validate(content); err != nil {
			return resp, &llm.InvalidReplyError{Step: req.Step, Reason: err.Error(), Start: llm.Quote(content)}
		}
	}
	return resp, nil
}

// Embed is not scripted.
func (s *Script) Embed(context.Context, string, []string) ([][]float32, llm.Usage, error) {
	return nil, llm.Usage{}, errors.New("llmtest.Script: no embeddings")
}

// Model names the fake model.
func (s *Script) Model() string { return "fake" }

// Calls counts the chat calls received.
func (s *Script) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.Reqs)
}
