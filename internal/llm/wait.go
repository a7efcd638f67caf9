package llm

import (
	"fmt"
	"strings"
	"time"
)

// Wait reports a call that is waiting on the endpoint: for its next
// attempt after one failed, or for the reply of an attempt that is slow to
// come (Slow).
type Wait struct {
	// Step is the step the call serves ("extract", "score" …); "" when
	// the caller named none.
	Step string `json:"step"`
	// Attempt is the attempt waited for, from 1: the next one when a retry
	// is coming, the one in flight when Slow.
	Attempt int `json:"attempt"`
	// Attempts is the most the call makes: llm.max_retries + 1.
	Attempts int `json:"attempts"`
	// Slow is set when the attempt in flight has had no reply for Waited;
	// otherwise the last attempt failed for Reason and the next comes in
	// Retry.
	Slow   bool          `json:"slow,omitempty"`
	Waited time.Duration `json:"waited,omitempty"`
	Reason string        `json:"reason,omitempty"` // "HTTP 503", "no reply within 1m0s", "connection refused" …
	Retry  time.Duration `json:"retry,omitempty"`
	// Left is what remains of the call's time (llm.call_timeout_sec).
	Left time.Duration `json:"left"`
}

// String reads, for example, "waiting for the LLM (extract): attempt 2 of 5
// after HTTP 503, retry in 8s, 2m10s left".
func (w Wait) String() string {
	var b strings.Builder
	b.WriteString("waiting for the LLM")
	if w.Step != "" {
		fmt.Fprintf(&b, " (%s)", w.Step)
	}
	fmt.Fprintf(&b, ": attempt %d of %d", w.Attempt, w.Attempts)
	if w.Slow {
		fmt.Fprintf(&b, ", no reply for %s", ShortDuration(w.Waited))
	} else {
		if w.Reason != "" {
			fmt.Fprintf(&b, " after %s", w.Reason)
		}
		fmt.Fprintf(&b, ", retry in %s", ShortDuration(w.Retry))
	}
	fmt.Fprintf(&b, ", %s left", ShortDuration(w.Left))
	return b.String()
}

// ShortDuration writes d as a person reads it: whole seconds from a second
// up ("8s", "2m10s", "3m"), tenths of a second below ("0.5s"), milliseconds
// under a tenth ("30ms"), and "0s" for nothing or less.
func ShortDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return "0s"
	case d < 100*time.Millisecond:
		return d.Round(time.Millisecond).String()
	case d < time.Second:
		tenths := (d + 50*time.Millisecond) / (100 * time.Millisecond)
		if tenths >= 10 {
			return "1s"
		}
		if tenths == 0 {
			tenths = 1
		}
		return fmt.Sprintf("0.%ds", tenths)
	}
	s := d.Round(time.Second).String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
