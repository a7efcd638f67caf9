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
// after the last retry. It unwraps to the cause (a context error when the
// caller gave up).
type CallError struct {
	Endpoint string // URL of the call
	Status   int    // last HTTP status; 0 when no reply came
	Attempts int    // HTTP calls made
	Err      error
}

func (e *CallError) Error() string {
	var b strings.Builder
	b.WriteString("llm: ")
	b.WriteString(e.Endpoint)
	if e.Status != 0 {
		fmt.Fprintf(&b, ": HTTP %d %s", e.Status, http.StatusText(e.Status))
	}
	if e.Attempts == 1 {
		b.WriteString(" (1 attempt)")
	} else {
		fmt.Fprintf(&b, " (%d attempts)", e.Attempts)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *CallError) Unwrap() error { return e.Err }

// failure is one failed attempt, classified.
type failure struct {
	status     int
	retryable  bool
	retryAfter time.Duration
	body       string // error body from the server, if any
	err        error
}

// sdkCall performs one HTTP call; opts must be passed to the SDK method.
type sdkCall func(ctx context.Context, opts ...option.RequestOption) error

// call runs do with the concurrency limit, the per-call timeout and the
// retry policy. On failure it returns a *CallError; the failure of the last
// attempt is returned too, for callers that look at the server's reply.
func (c *client) call(ctx context.Context, endpoint string, do sdkCall) (*failure, error) {
	for attempt := 0; ; attempt++ {
		f := c.attempt(ctx, do)
		if f == nil {
			return nil, nil
		}
		if err := ctx.Err(); err != nil {
			return f, &CallError{Endpoint: endpoint, Status: f.status, Attempts: attempt + 1, Err: err}
		}
		if !f.retryable || attempt >= c.maxRetries {
			return f, &CallError{Endpoint: endpoint, Status: f.status, Attempts: attempt + 1, Err: f.err}
		}
		if err := c.clock.Sleep(ctx, c.backoff(attempt, f.retryAfter)); err != nil {
			return f, &CallError{Endpoint: endpoint, Status: f.status, Attempts: attempt + 1, Err: err}
		}
	}
}

func (c *client) attempt(ctx context.Context, do sdkCall) *failure {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return &failure{err: ctx.Err()}
	}
	defer func() { <-c.sem }()
	actx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var res *http.Response
	err := do(actx, option.WithResponseInto(&res))
	if err == nil {
		return nil
	}
	return c.classify(ctx, err, res)
}

func (c *client) classify(ctx context.Context, err error, res *http.Response) *failure {
	if res != nil && res.StatusCode >= 400 {
		f := &failure{status: res.StatusCode}
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
		f.err = fmt.Errorf("no reply within %s: %w", c.timeout, err)
	case errors.As(err, &be):
		// The connection broke mid-reply.
		f.retryable = true
	case res != nil:
		// A reply that arrived whole but does not parse: asking again
		// would most likely get the same.
		f.status = res.StatusCode
		f.err = fmt.Errorf("malformed reply: %w", err)
	case errors.Is(err, syscall.ECONNREFUSED):
		f.retryable = true
		f.err = fmt.Errorf("connection refused (is the server running?): %w", err)
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNABORTED), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		f.retryable = true
	default:
		var ne net.Error
		var dns *net.DNSError
		switch {
		case errors.As(err, &dns):
			f.retryable = dns.IsTimeout || dns.IsTemporary
		case errors.As(err, &ne):
			f.retryable = ne.Timeout()
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
