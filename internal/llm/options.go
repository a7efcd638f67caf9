package llm

import (
	"context"
	"math/rand/v2"
	"net/http"
	"time"
)

// Clock tells time and waits; retries wait through it so that tests can run
// backoff without sleeping.
type Clock interface {
	Now() time.Time
	// Sleep waits for d or until ctx is done, whichever comes first, and
	// returns ctx's error in the second case.
	Sleep(ctx context.Context, d time.Duration) error
}

// SystemClock is the real clock.
func SystemClock() Clock { return systemClock{} }

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Options are the knobs of a client that do not belong in annals.yaml.
// The zero value is what New uses.
type Options struct {
	// HTTPClient sends the requests; default: a client whose transport
	// keeps enough idle connections for Config.Concurrency.
	HTTPClient *http.Client
	// Clock times the retries; default SystemClock.
	Clock Clock
	// Timeout bounds each HTTP call; when > 0 it replaces
	// Config.TimeoutSec, which cannot express less than a second.
	Timeout time.Duration
	// CallTimeout bounds a call's attempts and the waits between them
	// together; when > 0 it replaces Config.CallTimeoutSec.
	CallTimeout time.Duration
	// OnWait, when set, is told while a call waits: before each retry,
	// and every few seconds while an attempt has long had no reply (see
	// SlowReply). It is called from the goroutines making calls, so it
	// must be safe for concurrent use, and it should return quickly.
	OnWait func(Wait)
	// SlowReply is how long an attempt waits for its reply before OnWait
	// hears of it; it hears again every half of that while the attempt
	// goes on waiting. Default 10 s. This watch runs on the system's
	// timers, not on Clock.
	SlowReply time.Duration
	// Jitter picks the wait before a retry, between 0 and max inclusive;
	// default uniformly at random ("full jitter").
	Jitter func(max time.Duration) time.Duration
}

// Retry timing: exponential backoff from retryBase, capped at retryCap,
// with full jitter. A server's Retry-After is honoured up to
// maxRetryAfter so that a bogus header cannot stall a run for hours.
const (
	retryBase     = 500 * time.Millisecond
	retryCap      = 30 * time.Second
	maxRetryAfter = 5 * time.Minute
)

// Defaults for Config fields left at zero.
const (
	DefaultConcurrency = 8
	DefaultMaxRetries  = 4
	DefaultTimeoutSec  = 120
	// DefaultCallTimeoutSec bounds a call, all its attempts and the waits
	// between them: a server that hangs fails the call after four minutes
	// rather than after TimeoutSec × (MaxRetries+1), while one attempt may
	// still take two minutes for a slow model's long reply.
	DefaultCallTimeoutSec = 240
	// defaultSlowReply is when an attempt without a reply is first
	// reported to Options.OnWait.
	defaultSlowReply = 10 * time.Second
	// defaultMaxTokens is the completion budget reserved for a call that
	// sets no MaxTokens.
	defaultMaxTokens = 1024
	// embedBatch is the most texts sent in one embedding call.
	embedBatch = 64
)

func fullJitter(max time.Duration) time.Duration {
	if max <= 0 {
		return 0
	}
	return rand.N(max + 1)
}

func defaultHTTPClient(concurrency int) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	// The default of 2 idle connections per host makes a busy client open
	// and tear down connections on almost every call.
	t.MaxIdleConnsPerHost = concurrency * 2
	if t.MaxIdleConns < t.MaxIdleConnsPerHost {
		t.MaxIdleConns = t.MaxIdleConnsPerHost
	}
	return &http.Client{Transport: t}
}
