// Package llm talks to OpenAI-compatible chat and embedding endpoints
// (DeepSeek, Qwen behind vLLM, Ollama, a llama.cpp server, OpenAI). It adds
// what a corpus-sized job needs: a persistent response cache so that
// re-indexing makes no calls, a concurrency limit, bounded retries with
// backoff, token accounting per pipeline step with an estimated cost, and a
// token budget that stops cleanly.
//
// The LLM is optional: nothing in annals calls New unless an endpoint is
// configured or an LLM step is named explicitly.
package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"` // system, user, assistant
	Content string `json:"content"`
}

// JSONSchema asks for structured output. Servers that do not support it get
// the schema described in the prompt instead, and the reply is parsed
// tolerantly.
type JSONSchema struct {
	Name   string         `json:"name"`
	Schema map[string]any `json:"schema"`
}

// Request is one chat call.
type Request struct {
	// Step names the pipeline step the call serves ("extract", "score" …),
	// for usage accounting. It is not part of the cache key.
	Step        string      `json:"-"`
	Messages    []Message   `json:"messages"`
	Temperature float64     `json:"temperature"`
	MaxTokens   int         `json:"max_tokens,omitempty"`
	Schema      *JSONSchema `json:"schema,omitempty"`
	// Stream, when set, is told the reply's text piece by piece as the
	// server writes it (a cached reply comes in one piece). A call that is
	// retried after a broken stream starts over: the pieces are a preview,
	// the Response is what counts.
	Stream func(delta string) `json:"-"`
	// Prompt names the version of what asks and reads the call (a
	// template's name@hash, the caller's logic version): part of the cache
	// key, so that a new way of reading replies never reuses replies that
	// were only good for the old one.
	Prompt string `json:"-"`
	// Validate, when set, says whether a reply is one the caller can use,
	// reading it as the caller will. Only replies it accepts are cached; a
	// cached reply it refuses counts as a miss and the call is made again;
	// a fresh reply it refuses comes back with an error that satisfies
	// errors.Is(err, ErrInvalidReply).
	Validate func(content string) error `json:"-"`
}

// Usage counts tokens.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	// Estimated is set when the server reported no usage and the figures
	// come from the offline tokenizer.
	Estimated bool `json:"estimated,omitempty"`
}

// Add sums usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{PromptTokens: u.PromptTokens + o.PromptTokens, CompletionTokens: u.CompletionTokens + o.CompletionTokens, Estimated: u.Estimated || o.Estimated}
}

// Response is a chat reply.
type Response struct {
	Content string `json:"content"`
	Usage   Usage  `json:"usage"`
	Cached  bool   `json:"cached"` // answered from the cache: no call made
	// FinishReason is why the model stopped writing, as the server said:
	// "stop" for a complete reply (every cached reply is one), "length"
	// when the completion limit cut it off, "content_filter" when the
	// endpoint withheld the rest.
	FinishReason string `json:"finish_reason,omitempty"`
	// Truncated is set when the reply was cut off at the completion limit
	// (FinishReason "length"): what came is only the start of a reply.
	Truncated bool `json:"truncated,omitempty"`
}

// Complete reports whether the reply is whole: not empty, not cut off and
// not withheld. Only complete replies are cached.
func (r *Response) Complete() bool {
	return r != nil && r.Content != "" && wholeReply(r.FinishReason)
}

// wholeReply tells finish reasons of whole replies from those of cut-off or
// withheld ones. Servers that send no reason are taken at their word.
func wholeReply(finish string) bool {
	return finish != "length" && finish != "content_filter"
}

// Client is a chat and embedding endpoint.
type Client interface {
	Chat(ctx context.Context, req Request) (*Response, error)
	// Embed returns one vector per text.
	Embed(ctx context.Context, step string, texts []string) ([][]float32, Usage, error)
	// Model names the chat model (part of every cache key).
	Model() string
}

// Cache keeps responses between runs. Keys are opaque strings made from the
// endpoint, the model, the prompt and the parameters (see CacheKey). Put is
// told the pipeline step the entry serves, so that a cache can be counted
// and cleared by step.
type Cache interface {
	Get(ctx context.Context, key string) ([]byte, bool, error)
	Put(ctx context.Context, step, key string, value []byte) error
}

// Errors callers act on.
var (
	// ErrBudget is returned, before the call is made, when a call would
	// take the run past its token budget.
	ErrBudget = errors.New("LLM token budget reached")
	// ErrNotConfigured means no endpoint is set.
	ErrNotConfigured = errors.New("no LLM endpoint configured (set ANNALS_LLM_BASE_URL or llm.base_url in annals.yaml)")
	// ErrInvalidReply is what an InvalidReplyError is: the model answered,
	// but not with a reply the caller can use.
	ErrInvalidReply = errors.New("the model's reply is not valid")
)

// InvalidReplyError is a complete reply that the request's Validate
// refused. It was paid for but not cached; Chat returns the Response with
// it.
type InvalidReplyError struct {
	Step   string // the request's step
	Reason string // what Validate said
	Start  string // the start of the reply, quoted (see Quote)
}

func (e *InvalidReplyError) Error() string {
	return fmt.Sprintf("the model's reply to %s is not valid: %s: %s", stepName(e.Step), e.Reason, e.Start)
}

// Is makes errors.Is(err, ErrInvalidReply) true.
func (e *InvalidReplyError) Is(target error) bool { return target == ErrInvalidReply }

// quoteRunes is how much of a reply Quote shows.
const quoteRunes = 40

// Quote shows the start of a reply for a message: its first characters,
// on one line, between «», with … where it goes on. Control and format
// characters (terminal escapes, bidirectional overrides) show as U+FFFD:
// the message is read on terminals and in logs, and the reply is the
// model's, not ours.
func Quote(content string) string {
	s := strings.Map(func(r rune) rune {
		if unicode.IsControl(r) && !unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) {
			return unicode.ReplacementChar
		}
		return r
	}, content)
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "«»"
	}
	r := []rune(s)
	if len(r) > quoteRunes {
		return "«" + string(r[:quoteRunes]) + "…»"
	}
	return "«" + s + "»"
}

// Config says which endpoint to use and how.
type Config struct {
	BaseURL     string
	Model       string
	APIKey      string
	EmbedModel  string // default: the chat model
	Concurrency int    // calls in flight at once; default 8
	MaxRetries  int    // default 4
	TimeoutSec  int    // per attempt; default 120
	// CallTimeoutSec bounds a call: all its attempts and the waits between
	// them; default 240.
	CallTimeoutSec int
	// Prices are per million tokens, by model name; a model not listed
	// costs nothing in the estimate.
	Prices map[string]Price
	// MaxTokens is the budget for prompt + completion tokens of the run;
	// 0 means none.
	MaxTokens int
}

// Price is the cost of a million tokens.
type Price struct {
	Prompt     float64 `yaml:"prompt" json:"prompt"`
	Completion float64 `yaml:"completion" json:"completion"`
}
