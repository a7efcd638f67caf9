package llm_test

import (
	"context"
	"errors"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/annals-project/annals/internal/llm"
)

func TestEstimateTokens(t *testing.T) {
	cases := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"   \n", 0},
		{"诸葛亮任丞相", 6},
		{"亮躬耕陇亩，好为梁父吟。", 12},              // 10 Han + 2 marks
		{"The quick brown fox", 5},        // 4 words × 4/3
		{"Hello, world!", 5},              // 2 words + 2 marks, rounded
		{"2024", 2},                       // digits in threes
		{"internationalization", 4},       // 20 letters count as 3 words
		{"诸葛亮 (Zhuge Liang) 181–234", 11}, // 3 Han + 2 words + 3 marks + 2 digit groups
	}
	for _, c := range cases {
		if got := llm.EstimateTokens(c.in); got != c.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", c.in, got, c.want)
		}
	}
	msgs := []llm.Message{{Role: "user", Content: "诸葛亮"}}
	if got := llm.EstimateMessages(msgs); got != 3+4+1+3 {
		t.Errorf("EstimateMessages = %d", got)
	}
}

func TestMeterAccounting(t *testing.T) {
	m := llm.NewMeter(0)
	r, err := m.Reserve(context.Background(), 1000)
	if err != nil {
		t.Fatal(err)
	}
	r.Commit("extract", llm.Usage{PromptTokens: 1_000_000, CompletionTokens: 500_000})
	r.Commit("extract", llm.Usage{PromptTokens: 1}) // a second commit is ignored
	m.RecordCached("extract", llm.Usage{PromptTokens: 10, CompletionTokens: 5})
	m.Record("score", llm.Usage{PromptTokens: 100, CompletionTokens: 0, Estimated: true})
	m.RecordFailure("score")
	by := m.ByStep()
	if e := by["extract"]; e.Calls != 1 || e.CachedCalls != 1 || e.PromptTokens != 1_000_000 || e.SavedTokens != 15 {
		t.Fatalf("extract = %+v", e)
	}
	if s := by["score"]; s.Calls != 1 || s.Failures != 1 || !s.Estimated {
		t.Fatalf("score = %+v", s)
	}
	tot := m.Totals()
	if tot.Tokens() != 1_500_100 || !tot.Estimated || tot.Calls != 2 {
		t.Fatalf("totals = %+v", tot)
	}
	// gpt-4o-mini: 0.15 $/M prompt, 0.60 $/M completion.
	want := (1_000_100*0.15 + 500_000*0.60) / 1e6
	if got := m.Cost(llm.DefaultPrices(), "gpt-4o-mini"); math.Abs(got-want) > 1e-9 {
		t.Fatalf("cost = %v, want %v", got, want)
	}
	if got := m.Cost(map[string]llm.Price{"local": {}}, "local"); got != 0 {
		t.Fatalf("free model costs %v", got)
	}
	if got := m.Cost(nil, "not-listed"); got != 0 {
		t.Fatalf("unlisted model costs %v", got)
	}
	for _, name := range []string{"deepseek-chat", "gpt-4o-mini", "gpt-4o", "qwen-plus"} {
		if p, ok := llm.DefaultPrices()[name]; !ok || p.Prompt <= 0 || p.Completion <= 0 {
			t.Errorf("no default price for %s", name)
		}
	}
}

func TestMeterBudget(t *testing.T) {
	ctx := context.Background()
	m := llm.NewMeter(100)
	a, err := m.Reserve(ctx, 60)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Reserve(ctx, 101); !errors.Is(err, llm.ErrBudget) {
		t.Fatalf("a call larger than the budget: err = %v", err)
	}
	// 41 more fits once the call in flight settles: it waits, and gives up
	// with its context.
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	if _, err := m.Reserve(short, 41); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a reservation held by a call in flight should wait: err = %v", err)
	}
	cancel()
	got := make(chan error, 1)
	go func() {
		r, err := m.Reserve(ctx, 41)
		if err == nil {
			r.Release()
		}
		got <- err
	}()
	a.Commit("x", llm.Usage{PromptTokens: 20, CompletionTokens: 10})
	if err := <-got; err != nil {
		t.Fatalf("the waiting reservation should go through once the other settles: %v", err)
	}
	b, err := m.Reserve(ctx, 70)
	if err != nil {
		t.Fatal(err)
	}
	b.Release()
	b.Release()
	if limit, used, reserved := m.Budget(); limit != 100 || used != 30 || reserved != 0 {
		t.Fatalf("budget = %d %d %d", limit, used, reserved)
	}

	// Many goroutines reserving at once never hold more than the budget.
	m = llm.NewMeter(1000)
	var wg sync.WaitGroup
	var mu sync.Mutex
	granted := 0
	for range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := m.Reserve(ctx, 30)
			if err != nil {
				return
			}
			mu.Lock()
			granted++
			mu.Unlock()
			r.Commit("x", llm.Usage{PromptTokens: 20, CompletionTokens: 10})
		}()
	}
	wg.Wait()
	if _, used, _ := m.Budget(); used > 1000 || granted != 33 {
		t.Fatalf("used %d with %d grants", used, granted)
	}

	// A nil meter has no budget and records nothing.
	var nm *llm.Meter
	r, err := nm.Reserve(ctx, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	r.Commit("x", llm.Usage{PromptTokens: 1})
	if nm.Totals().Calls != 0 || len(nm.ByStep()) != 0 {
		t.Fatal("nil meter recorded")
	}
}
