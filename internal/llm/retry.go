package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/openai/openai-go/v3/option"
)

// CallError is a call that failed for good: not retryable, or still failing
// when the attempts or the time allowed ran out. It unwraps to the cause (a
// context error when the caller gave up).
type CallError struct {
	Endpoint string // URL of the call
	Status   int    // last HTTP status; 0 when no reply came
	Attempts int    // HTTP calls made
	// Elapsed is the time from the first attempt until the call gave up.
	Elapsed time.Duration
	// GaveUp, when set, says which limit ended a call whose failures were
	// being retried, naming the setting that raises it.
	GaveUp string
	Err    error
}

func (e *CallError) Error() string {
	var b strings.Builder
	b.WriteString("llm: ")
	b.WriteString(e.Endpoint)
	if e.Status != 0 {
		fmt.Fprintf(&b, ": HTTP %d %s", e.Status, http.StatusText(e.Status))
	}
	switch {
	case e.GaveUp != "":
		fmt.Fprintf(&b, ": gave up after %s in %s (%s)", attempts(e.Attempts), ShortDuration(e.Elapsed), e.GaveUp)
	default:
		fmt.Fprintf(&b, " (%s)", attempts(e.Attempts))
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func attempts(n int) string {
	if n == 1 {
		return "1 attempt"
	}
	return fmt.Sprintf("%d attempts", n)
}

func (e *CallError) Unwrap() error { return e.Err }

// failure is one failed attempt, classified.
type failure struct {
	status     int
	retryable  bool
	retryAfter time.Duration
	body       string // error body from the server, if any
	reason     string // a few words for a wait report: "HTTP 503", "no reply within 1m0s"
	err        error
}

// sdkCall performs one HTTP call; opts must be passed to the SDK method.
type sdkCall func(ctx context.Context, opts ...option.RequestOption) error

// callState is one call through its attempts.
type callState struct {
	step     string
	attempts int // allowed
	// start is when the first attempt got its place among the calls in
	// flight (time queued behind other calls of this client is not the
	// server's); deadline ends the call's time.
	start, deadline time.Time
}

// call runs do with the concurrency limit and the retry policy: each
// attempt bounded by the per-attempt timeout, and all of them with the
// waits between together by the call's time (a context deadline on each
// attempt, so that a server that hangs fails the call at that time, not
// after every attempt's timeout). On failure it returns a *CallError; the
// failure of the last attempt is returned too, for callers that look at
// the server's reply.
func (c *client) call(ctx context.Context, step, endpoint string, do sdkCall) (*failure, error) {
	cs := &callState{step: step, attempts: c.maxRetries + 1}
	for n := 1; ; n++ {
		f := c.attempt(ctx, cs, n, do)
		if f == nil {
			return nil, nil
		}
		fail := func(gaveUp string, err error) error {
			e := &CallError{Endpoint: endpoint, Status: f.status, Attempts: n, GaveUp: gaveUp, Err: err}
			if !cs.start.IsZero() {
				e.Elapsed = c.clock.Now().Sub(cs.start)
			}
			return e
		}
		if err := ctx.Err(); err != nil {
			return f, fail("", err)
		}
		if !f.retryable {
			return f, fail("", f.err)
		}
		if n >= cs.attempts {
			return f, fail(fmt.Sprintf("the attempts llm.max_retries allows: %d retries", c.maxRetries), f.err)
		}
		wait := c.backoff(n-1, f.retryAfter)
		left := cs.deadline.Sub(c.clock.Now())
		if left <= 0 {
			return f, fail("the time llm.call_timeout_sec allows: "+ShortDuration(c.callTimeout), f.err)
		}
		if wait >= left {
			return f, fail(fmt.Sprintf("the next attempt, in %s, would come after the time llm.call_timeout_sec allows: %s",
				ShortDuration(wait), ShortDuration(c.callTimeout)), f.err)
		}
		c.tell(Wait{Step: step, Attempt: n + 1, Attempts: cs.attempts, Reason: f.reason, Retry: wait, Left: left})
		if err := c.clock.Sleep(ctx, wait); err != nil {
			return f, fail("", err)
		}
	}
}

// tell passes a wait report on, if anyone listens.
func (c *client) tell(w Wait) {
	if c.onWait != nil {
		c.onWait(w)
	}
}

// attempt makes attempt n of the call: it takes a place among the calls in
// flight, and gives the HTTP call what is left of the per-attempt timeout
// and of the call's time, whichever is less.
func (c *client) attempt(ctx context.Context, cs *callState, n int, do sdkCall) *failure {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return &failure{err: ctx.Err()}
	}
	defer func() { <-c.sem }()
	now := c.clock.Now()
	if cs.start.IsZero() {
		cs.start, cs.deadline = now, now.Add(c.callTimeout)
	}
	timeout := min(c.timeout, cs.deadline.Sub(now))
	if timeout <= 0 {
		return &failure{retryable: true, reason: "no time left", err: errors.New("no time left for another attempt")}
	}
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if c.onWait != nil {
		defer c.watchSlow(actx, cs, n, now)()
	}
	var res *http.Response
	err := do(actx, option.WithResponseInto(&res))
	if err == nil {
		return nil
	}
	return c.classify(ctx, err, res, timeout)
}

// watchSlow tells OnWait about attempt n, begun at began, once it has had
// no reply for c.slow and every half of that after, until stop is called
// (which returns once the watch has ended, so no report comes after it) or
// actx ends.
func (c *client) watchSlow(actx context.Context, cs *callState, n int, began time.Time) (stop func()) {
	ctx, cancel := context.WithCancel(actx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTimer(c.slow)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			now := c.clock.Now()
			c.tell(Wait{Step: cs.step, Attempt: n, Attempts: cs.attempts, Slow: true, Waited: now.Sub(began),
				Left: cs.deadline.Sub(now)})
			t.Reset(max(c.slow/2, time.Millisecond))
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// classify tells what kind of failure err is; timeout is the time the
// attempt was given.
func (c *client) classify(ctx context.Context, err error, res *http.Response, timeout time.Duration) *failure {
	if res != nil && res.StatusCode >= 400 {
		f := &failure{status: res.StatusCode, reason: fmt.Sprintf("HTTP %d", res.StatusCode)}
		if res.Body != nil {
			b, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
			_ = res.Body.Close()
			f.body = string(b)
		}
		f.err = fmt.Errorf("server said: %s", serverMessage(f.body))
		switch {
		case res.StatusCode == http.StatusTooManyRequests, res.StatusCode == http.StatusRequestTimeout,
			res.StatusCode >= 500:
			f.retryable = true
			f.retryAfter = retryAfter(res.Header, c.clock.Now())
		}
		return f
	}
	f := &failure{err: err}
	var be *bodyError
	switch {
	case ctx.Err() != nil:
		// The caller gave up; call reports it.
	case errors.Is(err, context.DeadlineExceeded):
		f.retryable = true
		f.reason = "no reply within " + ShortDuration(timeout)
		if timeout >= c.timeout {
			f.err = fmt.Errorf("no reply within %s (llm.timeout_sec): %w", ShortDuration(timeout), err)
		} else {
			f.err = fmt.Errorf("no reply within %s, what was left of the call's time: %w", ShortDuration(timeout), err)
		}
	case errors.As(err, &be):
		// The connection broke mid-reply.
		f.retryable = true
		f.reason = "a reply broken off"
	case res != nil:
		// A reply that arrived whole but does not parse: asking again
		// would most likely get the same.
		f.status = res.StatusCode
		f.err = fmt.Errorf("malformed reply: %w", err)
	case errors.Is(err, syscall.ECONNREFUSED):
		f.retryable = true
		f.reason = "connection refused"
		f.err = fmt.Errorf("connection refused (is the server running?): %w", err)
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNABORTED), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		f.retryable = true
		f.reason = "the connection broke"
	default:
		var ne net.Error
		var dns *net.DNSError
		switch {
		case errors.As(err, &dns):
			f.retryable = dns.IsTimeout || dns.IsTemporary
			f.reason = "no answer from DNS"
		case errors.As(err, &ne):
			f.retryable = ne.Timeout()
			f.reason = "a network time-out"
		}
	}
	return f
}

// serverMessage pulls the message out of an OpenAI-style error body, or
// returns the start of the body as it is.
func serverMessage(body string) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal([]byte(body), &e) == nil && len(e.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(e.Error, &obj) == nil && obj.Message != "" {
			return obj.Message
		}
		var s string
		if json.Unmarshal(e.Error, &s) == nil && s != "" {
			return s
		}
	}
	body = strings.TrimSpace(body)
	if body == "" {
		return "(empty body)"
	}
	if len(body) > 300 {
		body = body[:300] + "…"
	}
	return body
}

// retryAfter reads retry-after-ms (OpenAI) or Retry-After, in seconds or
// as an HTTP date; 0 when absent or unreadable.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// backoff is the wait before retry number attempt+1.
func (c *client) backoff(attempt int, after time.Duration) time.Duration {
	if after > 0 {
		return min(after, maxRetryAfter)
	}
	d := retryCap
	if attempt < 16 {
		d = min(retryBase<<attempt, retryCap)
	}
	return c.jitter(d)
}

// bodyError marks a failure to read a reply body, so that a connection
// broken mid-reply (retried) is told from a body that does not parse (not
// retried): the SDK wraps both around the same io.ErrUnexpectedEOF.
type bodyError struct{ err error }

func (e *bodyError) Error() string { return e.err.Error() }
func (e *bodyError) Unwrap() error { return e.err }

type markedBody struct{ io.ReadCloser }

func (b markedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		err = &bodyError{err}
	}
	return n, err
}

// markBodies is SDK middleware that wraps every reply body in markedBody.
func markBodies(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	res, err := next(req)
	if res != nil && res.Body != nil {
		res.Body = markedBody{res.Body}
	}
	return res, err
}
