package llm_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/llm/llmtest"
)

// skipClock lets real time flow but skips the waits asked of it: Now is
// the real time plus every wait skipped so far. So an attempt's time on
// the network counts, and backoff costs nothing.
type skipClock struct {
	mu      sync.Mutex
	skipped time.Duration
	sleeps  []time.Duration
}

func (c *skipClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.skipped)
}

func (c *skipClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	c.skipped += d
	c.mu.Unlock()
	return ctx.Err()
}

func (c *skipClock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

// waits collects the reports a client makes.
type waits struct {
	mu   sync.Mutex
	list []llm.Wait
}

func (w *waits) add(x llm.Wait) {
	w.mu.Lock()
	w.list = append(w.list, x)
	w.mu.Unlock()
}

func (w *waits) get() []llm.Wait {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]llm.Wait(nil), w.list...)
}

func waitClient(t *testing.T, srv *llmtest.Server, cfg llm.Config, o llm.Options) (llm.Client, *waits) {
	t.Helper()
	w := &waits{}
	cfg.BaseURL, cfg.Model = srv.URL, "m"
	o.OnWait = w.add
	cli, err := llm.NewWithOptions(cfg, nil, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	return cli, w
}

func TestRetriesAreReported(t *testing.T) {
	srv := llmtest.New(t)
	srv.Script(llmtest.Reply{Status: 503}, llmtest.Reply{Status: 503}, llmtest.Reply{Content: "ok"})
	clock := &skipClock{}
	cli, w := waitClient(t, srv, llm.Config{}, llm.Options{
		Clock:  clock,
		Jitter: func(max time.Duration) time.Duration { return max },
	})
	resp, err := cli.Chat(context.Background(), userReq("extract", "x"))
	if err != nil || resp.Content != "ok" {
		t.Fatalf("resp = %+v, err = %v", resp, err)
	}
	got := w.get()
	if len(got) != 2 {
		t.Fatalf("reports = %+v", got)
	}
	budget := llm.DefaultCallTimeoutSec * time.Second
	for i, want := range []struct {
		attempt int
		retry   time.Duration
		before  time.Duration // skipped before the report
	}{{2, 500 * time.Millisecond, 0}, {3, time.Second, 500 * time.Millisecond}} {
		r := got[i]
		if r.Step != "extract" || r.Attempt != want.attempt || r.Attempts != llm.DefaultMaxRetries+1 ||
			r.Reason != "HTTP 503" || r.Retry != want.retry || r.Slow {
			t.Errorf("report %d = %+v", i, r)
		}
		// What is left is the budget less the waits skipped and the
		// (short) time the attempts took.
		if most := budget - want.before; r.Left > most || r.Left < most-5*time.Second {
			t.Errorf("report %d: %v left, want a little under %v", i, r.Left, most)
		}
	}
	if s := got[0].String(); s != "waiting for the LLM (extract): attempt 2 of 5 after HTTP 503, retry in 0.5s, 4m left" {
		t.Errorf("report reads %q", s)
	}
}

func TestHangingServerFailsAtCallTimeout(t *testing.T) {
	srv := llmtest.New(t)
	srv.Handle(func(llmtest.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Content: "late", Delay: 10 * time.Second}
	})
	clock := &skipClock{}
	// Eleven attempts of 200 ms would take 2.2 s; the call has 500 ms.
	cli, w := waitClient(t, srv, llm.Config{MaxRetries: 10}, llm.Options{
		Clock:       clock,
		Jitter:      func(time.Duration) time.Duration { return 0 },
		Timeout:     200 * time.Millisecond,
		CallTimeout: 500 * time.Millisecond,
	})
	start := time.Now()
	_, err := cli.Chat(context.Background(), userReq("extract", "x"))
	took := time.Since(start)
	var ce *llm.CallError
	if !errors.As(err, &ce) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if took < 450*time.Millisecond || took > 1500*time.Millisecond {
		t.Fatalf("the call took %v, want about 500ms", took)
	}
	if ce.Attempts != 3 || srv.Calls() != 3 {
		t.Fatalf("%d attempts, %d calls; want 3 (200 + 200 + the 100 ms left)", ce.Attempts, srv.Calls())
	}
	for _, s := range []string{"gave up after 3 attempts in", "llm.call_timeout_sec", "no reply within"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not say %q", err, s)
		}
	}
	reports := w.get()
	if len(reports) != 2 || reports[0].Attempt != 2 || reports[1].Attempt != 3 || reports[0].Attempts != 11 {
		t.Fatalf("reports = %+v", reports)
	}
	if l := reports[1].Left; l <= 0 || l > 300*time.Millisecond {
		t.Errorf("before the third attempt %v was left, want under 300ms", l)
	}
	if r := reports[0].Reason; r != "no reply within 0.2s" {
		t.Errorf("reason = %q", r)
	}
}

func TestSlowReplyReported(t *testing.T) {
	srv := llmtest.New(t)
	srv.Script(llmtest.Reply{Content: "ok", Delay: 400 * time.Millisecond})
	clock := &skipClock{}
	cli, w := waitClient(t, srv, llm.Config{}, llm.Options{
		Clock:       clock,
		CallTimeout: 10 * time.Second,
		SlowReply:   100 * time.Millisecond,
	})
	if _, err := cli.Chat(context.Background(), userReq("score", "x")); err != nil {
		t.Fatal(err)
	}
	got := w.get()
	// Reports at about 100, 150, 200 … 350 ms.
	if len(got) < 3 {
		t.Fatalf("reports = %+v", got)
	}
	var last time.Duration
	for i, r := range got {
		if !r.Slow || r.Attempt != 1 || r.Step != "score" || r.Waited < 100*time.Millisecond || r.Waited <= last ||
			r.Left > 10*time.Second-r.Waited || r.Left < 9*time.Second-r.Waited {
			t.Errorf("report %d = %+v", i, r)
		}
		last = r.Waited
	}
	if !strings.Contains(got[0].String(), "attempt 1 of 5, no reply for 0.1s, ") {
		t.Errorf("report reads %q", got[0])
	}
	// No report comes once the call is over.
	time.Sleep(150 * time.Millisecond)
	if n := len(w.get()); n != len(got) {
		t.Fatalf("%d reports after the call returned", n-len(got))
	}
}

func TestRetryAfterPastCallTimeoutGivesUp(t *testing.T) {
	srv := llmtest.New(t)
	srv.Script(llmtest.Reply{Status: 429, Header: map[string]string{"Retry-After": "300"}})
	clock := &skipClock{}
	cli, w := waitClient(t, srv, llm.Config{}, llm.Options{Clock: clock})
	_, err := cli.Chat(context.Background(), userReq("extract", "x"))
	var ce *llm.CallError
	if !errors.As(err, &ce) || ce.Attempts != 1 || ce.Status != 429 {
		t.Fatalf("err = %v", err)
	}
	for _, s := range []string{"gave up after 1 attempt", "in 5m", "llm.call_timeout_sec allows: 4m"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not say %q", err, s)
		}
	}
	if len(clock.Sleeps()) != 0 || len(w.get()) != 0 {
		t.Fatalf("waited %v, reported %+v", clock.Sleeps(), w.get())
	}
}

func TestOutOfAttemptsSaysSo(t *testing.T) {
	srv := llmtest.New(t)
	srv.Handle(func(llmtest.ChatRequest) llmtest.Reply { return llmtest.Reply{Status: 502} })
	cli, w := waitClient(t, srv, llm.Config{MaxRetries: 2}, llm.Options{Clock: &skipClock{}})
	_, err := cli.Chat(context.Background(), userReq("extract", "x"))
	var ce *llm.CallError
	if !errors.As(err, &ce) || ce.Attempts != 3 || ce.Elapsed <= 0 {
		t.Fatalf("err = %v", err)
	}
	for _, s := range []string{"HTTP 502", "gave up after 3 attempts in", "llm.max_retries allows: 2 retries"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not say %q", err, s)
		}
	}
	if got := w.get(); len(got) != 2 || got[1].Attempt != 3 || got[1].Attempts != 3 {
		t.Fatalf("reports = %+v", got)
	}
}

func TestShortDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", -time.Second: "0s", 30 * time.Millisecond: "30ms", 450 * time.Millisecond: "0.5s",
		999 * time.Millisecond: "1s", 8*time.Second + 300*time.Millisecond: "8s", 130 * time.Second: "2m10s",
		3 * time.Minute: "3m", time.Hour: "1h", time.Hour + 2*time.Minute: "1h2m",
	} {
		if got := llm.ShortDuration(d); got != want {
			t.Errorf("ShortDuration(%v) = %q, want %q", d, got, want)
		}
	}
}
