package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// wantsEvents says whether the client asked for server-sent events.
func wantsEvents(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}

// events writes server-sent events, one JSON value each, flushed at once.
type events struct {
	w http.ResponseWriter
	f http.Flusher
}

func startEvents(w http.ResponseWriter) *events {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // a proxy in front must not hold events back
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	return &events{w: w, f: f}
}

// send writes one event; its data is one line of JSON, escaped for HTML
// like every reply of the API.
func (e *events) send(name string, v any) error {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(true)
	if err := enc.Encode(v); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", name, strings.TrimRight(b.String(), "\n")); err != nil {
		return err
	}
	if e.f != nil {
		e.f.Flush()
	}
	return nil
}
