package llm

import (
	"context"
	"fmt"
	"sync"
)

// StepUsage is the accounting of one pipeline step (or of the whole run).
type StepUsage struct {
	Calls       int `json:"calls"`        // calls sent to the server
	CachedCalls int `json:"cached_calls"` // calls answered from the cache
	Failures    int `json:"failures"`     // calls that ended in an error
	// Billed tokens: cached calls add nothing here.
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	// SavedTokens is what the cached calls cost when they were first made.
	SavedTokens int `json:"saved_tokens"`
	// Estimated is set when any figure came from the offline tokenizer.
	Estimated bool `json:"estimated,omitempty"`
}

// Tokens is prompt plus completion tokens billed.
func (s StepUsage) Tokens() int { return s.PromptTokens + s.CompletionTokens }

func (s StepUsage) add(o StepUsage) StepUsage {
	return StepUsage{
		Calls:            s.Calls + o.Calls,
		CachedCalls:      s.CachedCalls + o.CachedCalls,
		Failures:         s.Failures + o.Failures,
		PromptTokens:     s.PromptTokens + o.PromptTokens,
		CompletionTokens: s.CompletionTokens + o.CompletionTokens,
		SavedTokens:      s.SavedTokens + o.SavedTokens,
		Estimated:        s.Estimated || o.Estimated,
	}
}

// Meter accounts for token use per step and enforces the run's token
// budget. It is safe for concurrent use; a nil *Meter records nothing and
// has no budget.
//
// Before each call that is not answered from the cache, the client
// reserves the most the call can cost (estimated prompt + max_tokens); the
// reservation is refused with ErrBudget when billed tokens plus open
// reservations would pass the budget. After the call the reservation is
// replaced by the real usage. So concurrent calls cannot together pass the
// budget, except by what the prompt estimate falls short.
type Meter struct {
	mu       sync.Mutex
	max      int
	used     int
	reserved int
	steps    map[string]StepUsage
	// settled is closed (and replaced) whenever a reservation settles, to
	// wake calls waiting for budget held by calls in flight.
	settled chan struct{}
}

// NewMeter makes a meter with a budget of maxTokens prompt + completion
// tokens; 0 means no budget.
func NewMeter(maxTokens int) *Meter {
	return &Meter{max: maxTokens, steps: map[string]StepUsage{}, settled: make(chan struct{})}
}

// SetBudget changes the budget; 0 removes it. Tokens already billed count
// against the new budget.
func (m *Meter) SetBudget(maxTokens int) {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.max = maxTokens
	m.mu.Unlock()
}

// Reservation holds budget for one call in flight.
type Reservation struct {
	m      *Meter
	tokens int
	done   bool
}

// Reserve sets aside tokens of the budget for a call. The error wraps
// ErrBudget when the tokens already billed leave too little for it; no call
// should be made then. When only calls in flight hold the budget, Reserve
// waits for them to settle (they usually cost far less than they reserve),
// until ctx ends.
func (m *Meter) Reserve(ctx context.Context, tokens int) (*Reservation, error) {
	if m == nil {
		return &Reservation{}, nil
	}
	if tokens < 0 {
		tokens = 0
	}
	for {
		m.mu.Lock()
		if m.max > 0 && m.used+tokens > m.max {
			used := m.used
			m.mu.Unlock()
			return nil, fmt.Errorf("%w: %d of %d tokens used, this call may need %d", ErrBudget, used, m.max, tokens)
		}
		if m.max == 0 || m.used+m.reserved+tokens <= m.max {
			m.reserved += tokens
			m.mu.Unlock()
			return &Reservation{m: m, tokens: tokens}, nil
		}
		wait := m.settled
		m.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for token budget held by calls in flight: %w", ctx.Err())
		}
	}
}

// wake tells waiting reservations that budget was settled; m.mu is held.
func (m *Meter) wake() {
	close(m.settled)
	m.settled = make(chan struct{})
}

// Commit replaces the reservation with the call's real usage, in one step
// so that no other call can take the difference in between.
func (r *Reservation) Commit(step string, u Usage) {
	if r == nil || r.m == nil || r.done {
		return
	}
	r.done = true
	m := r.m
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reserved -= r.tokens
	m.wake()
	m.recordLocked(step, StepUsage{
		Calls:            1,
		PromptTokens:     u.PromptTokens,
		CompletionTokens: u.CompletionTokens,
		Estimated:        u.Estimated,
	})
}

// Release gives the reservation back unused, after a failed call.
func (r *Reservation) Release() {
	if r == nil || r.m == nil || r.done {
		return
	}
	r.done = true
	r.m.mu.Lock()
	r.m.reserved -= r.tokens
	r.m.wake()
	r.m.mu.Unlock()
}

// Record adds a call made outside any reservation.
func (m *Meter) Record(step string, u Usage) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recordLocked(step, StepUsage{Calls: 1, PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, Estimated: u.Estimated})
}

// RecordCached adds a call answered from the cache; u is what it cost when
// it was made, and nothing is billed now.
func (m *Meter) RecordCached(step string, u Usage) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recordLocked(step, StepUsage{CachedCalls: 1, SavedTokens: u.PromptTokens + u.CompletionTokens})
}

// RecordFailure counts a call that ended in an error.
func (m *Meter) RecordFailure(step string) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recordLocked(step, StepUsage{Failures: 1})
}

func (m *Meter) recordLocked(step string, s StepUsage) {
	m.used += s.PromptTokens + s.CompletionTokens
	if m.steps == nil {
		m.steps = map[string]StepUsage{}
	}
	m.steps[step] = m.steps[step].add(s)
}

// Totals sums all steps.
func (m *Meter) Totals() StepUsage {
	var t StepUsage
	if m == nil {
		return t
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.steps {
		t = t.add(s)
	}
	return t
}

// ByStep returns a copy of the accounting per step.
func (m *Meter) ByStep() map[string]StepUsage {
	out := map[string]StepUsage{}
	if m == nil {
		return out
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, v := range m.steps {
		out[k] = v
	}
	return out
}

// Budget reports the budget (0 = none), the tokens billed so far and the
// tokens reserved by calls in flight.
func (m *Meter) Budget() (limit, used, reserved int) {
	if m == nil {
		return 0, 0, 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.max, m.used, m.reserved
}

// Cost estimates the cost of the billed tokens at model's price, in the
// currency of prices (US dollars for DefaultPrices). A nil prices map means
// DefaultPrices; a model without a price costs 0.
func (m *Meter) Cost(prices map[string]Price, model string) float64 {
	if prices == nil {
		prices = DefaultPrices()
	}
	p, ok := prices[model]
	if !ok {
		return 0
	}
	t := m.Totals()
	return (float64(t.PromptTokens)*p.Prompt + float64(t.CompletionTokens)*p.Completion) / 1e6
}

// DefaultPrices are list prices in US dollars per million tokens for a few
// well-known hosted models. They are estimates that go stale: providers
// change prices, discount cache hits and off-peak hours, and bill in other
// currencies. Override them under llm.prices in annals.yaml. Local models
// (Ollama, llama.cpp, vLLM) are not listed and cost nothing.
func DefaultPrices() map[string]Price {
	return map[string]Price{
		"deepseek-chat":          {Prompt: 0.28, Completion: 0.42},
		"deepseek-reasoner":      {Prompt: 0.28, Completion: 0.42},
		"gpt-4o-mini":            {Prompt: 0.15, Completion: 0.60},
		"gpt-4o":                 {Prompt: 2.50, Completion: 10.00},
		"gpt-4.1-mini":           {Prompt: 0.40, Completion: 1.60},
		"gpt-4.1":                {Prompt: 2.00, Completion: 8.00},
		"qwen-turbo":             {Prompt: 0.05, Completion: 0.20},
		"qwen-plus":              {Prompt: 0.40, Completion: 1.20},
		"qwen-max":               {Prompt: 1.60, Completion: 6.40},
		"text-embedding-3-small": {Prompt: 0.02},
		"text-embedding-3-large": {Prompt: 0.13},
	}
}
