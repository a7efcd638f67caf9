// Package llmtest is a scripted, OpenAI-compatible HTTP server for tests and
// benchmarks of code that talks to an LLM. It serves POST /v1/chat/completions,
// POST /v1/embeddings and GET /v1/models on a local httptest listener.
//
// Replies come from a FIFO script first, then from a handler function, then a
// default reply of "{}". Every reply can carry an HTTP status, extra latency,
// usage figures, headers, or a deliberately broken body.
package llmtest

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/annals-project/annals/internal/llm"
)

// Reply is what the server answers to one chat call.
type Reply struct {
	Content  string            // assistant message content
	Status   int               // HTTP status to return instead (429, 500, 400 …); 0 = 200
	Delay    time.Duration     // extra latency for this reply
	Usage    *llm.Usage        // usage to report; nil = report none
	Truncate bool              // cut the body mid-JSON (malformed HTTP reply)
	Raw      string            // raw body to send instead of a well-formed completion
	Header   map[string]string // e.g. Retry-After
	// FinishReason defaults to "stop".
	FinishReason string
}

// ChatRequest is a chat call as the server received it.
type ChatRequest struct {
	Model          string
	Messages       []llm.Message
	Temperature    float64
	MaxTokens      int
	ResponseFormat json.RawMessage
	// Header holds the request's HTTP headers (Authorization …).
	Header http.Header
	// Stream says the client asked for the reply as server-sent events;
	// it then comes in pieces of a few characters.
	Stream bool
}

// Option configures a Server.
type Option func(*Server)

// WithLatency adds d to every reply.
func WithLatency(d time.Duration) Option { return func(s *Server) { s.latency = d } }

// WithEmbedder sets the function that makes embedding vectors. The default
// is HashEmbed.
func WithEmbedder(f func(text string) []float32) Option {
	return func(s *Server) { s.embedder = f }
}

// WithRejectJSONSchema makes the server answer 400 to any chat call that asks
// for response_format json_schema, as servers without structured output do.
func WithRejectJSONSchema() Option { return func(s *Server) { s.rejectSchema = true } }

// Server is a fake OpenAI-compatible endpoint.
type Server struct {
	// URL is the base URL, ending in /v1.
	URL string

	srv          *httptest.Server
	latency      time.Duration
	embedder     func(string) []float32
	rejectSchema bool

	mu       sync.Mutex
	script   []Reply
	handler  func(ChatRequest) Reply
	requests []ChatRequest
	batches  [][]string

	calls       atomic.Int64
	embedCalls  atomic.Int64
	inFlight    atomic.Int64
	maxInFlight atomic.Int64
}

// New starts a server; it is closed when the test ends.
func New(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := &Server{embedder: HashEmbed}
	for _, o := range opts {
		o(s)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.chat)
	mux.HandleFunc("POST /v1/embeddings", s.embeddings)
	mux.HandleFunc("GET /v1/models", s.models)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + "/v1"
	t.Cleanup(s.srv.Close)
	return s
}

// Script queues replies for the next chat calls, first in first out. When
// the queue is empty the handler set with Handle answers.
func (s *Server) Script(replies ...Reply) {
	s.mu.Lock()
	s.script = append(s.script, replies...)
	s.mu.Unlock()
}

// Handle sets a function that answers chat calls when nothing is scripted.
// It is called from many goroutines at once and must be safe for that.
func (s *Server) Handle(f func(ChatRequest) Reply) {
	s.mu.Lock()
	s.handler = f
	s.mu.Unlock()
}

// Calls is the number of chat calls received.
func (s *Server) Calls() int { return int(s.calls.Load()) }

// EmbedCalls is the number of embedding calls received.
func (s *Server) EmbedCalls() int { return int(s.embedCalls.Load()) }

// Requests returns the chat calls received so far, in arrival order.
func (s *Server) Requests() []ChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ChatRequest(nil), s.requests...)
}

// EmbedBatches returns the inputs of the embedding calls received so far.
func (s *Server) EmbedBatches() [][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([][]string, len(s.batches))
	for i, b := range s.batches {
		out[i] = append([]string(nil), b...)
	}
	return out
}

// MaxInFlight is the largest number of calls (chat and embeddings) the
// server was handling at the same moment.
func (s *Server) MaxInFlight() int { return int(s.maxInFlight.Load()) }

// Down closes the listener and every open connection: from now on new
// connections get "connection refused". A client that reuses a kept-alive
// connection may first see it closed (EOF) on its next request.
func (s *Server) Down() {
	_ = s.srv.Listener.Close()
	s.srv.CloseClientConnections()
}

func (s *Server) enter() func() {
	n := s.inFlight.Add(1)
	for {
		m := s.maxInFlight.Load()
		if n <= m || s.maxInFlight.CompareAndSwap(m, n) {
			break
		}
	}
	return func() { s.inFlight.Add(-1) }
}

// wireRequest is the subset of the chat completion request the server reads.
type wireRequest struct {
	Model               string          `json:"model"`
	Messages            []wireMessage   `json:"messages"`
	Temperature         *float64        `json:"temperature"`
	MaxTokens           int             `json:"max_tokens"`
	MaxCompletionTokens int             `json:"max_completion_tokens"`
	ResponseFormat      json.RawMessage `json:"response_format"`
	Stream              bool            `json:"stream"`
	StreamOptions       struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

type wireMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// text reads a message content given either as a string or as a list of
// content parts.
func (m wireMessage) text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(m.Content, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return string(m.Content)
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	defer s.enter()()
	s.calls.Add(1)
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "read request: "+err.Error())
		return
	}
	var wr wireRequest
	if err := json.Unmarshal(body, &wr); err != nil {
		writeError(w, http.StatusBadRequest, "invalid JSON body: "+err.Error())
		return
	}
	req := ChatRequest{
		Model:          wr.Model,
		MaxTokens:      wr.MaxTokens,
		ResponseFormat: wr.ResponseFormat,
		Header:         r.Header.Clone(),
		Stream:         wr.Stream,
	}
	if req.MaxTokens == 0 {
		req.MaxTokens = wr.MaxCompletionTokens
	}
	if wr.Temperature != nil {
		req.Temperature = *wr.Temperature
	}
	for _, m := range wr.Messages {
		req.Messages = append(req.Messages, llm.Message{Role: m.Role, Content: m.text()})
	}

	s.mu.Lock()
	s.requests = append(s.requests, req)
	var (
		reply   Reply
		handled bool
	)
	if len(s.script) > 0 {
		reply, s.script, handled = s.script[0], s.script[1:], true
	}
	h := s.handler
	s.mu.Unlock()

	if s.rejectSchema && wantsJSONSchema(req.ResponseFormat) {
		if !s.wait(r, s.latency) {
			return
		}
		writeError(w, http.StatusBadRequest, "response_format type json_schema is not supported by this server")
		return
	}
	if !handled {
		if h != nil {
			reply = h(req)
		} else {
			reply = Reply{Content: "{}"}
			reply.Usage = &llm.Usage{
				PromptTokens:     llm.EstimateMessages(req.Messages),
				CompletionTokens: llm.EstimateTokens(reply.Content),
			}
		}
	}
	if !s.wait(r, s.latency+reply.Delay) {
		return
	}
	for k, v := range reply.Header {
		w.Header().Set(k, v)
	}
	if req.Stream && reply.Raw == "" && reply.Status < 400 {
		s.stream(w, req.Model, reply, wr.StreamOptions.IncludeUsage)
		return
	}
	s.respond(w, req.Model, reply)
}

// stream sends a reply the way streaming servers do: one chunk per few
// characters of content, a last chunk with the finish reason, the usage
// when asked for, then [DONE]. With Truncate it stops half way, without
// [DONE], as a dropped connection would.
func (s *Server) stream(w http.ResponseWriter, model string, reply Reply, usage bool) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	send := func(v map[string]any) {
		v["id"], v["object"], v["created"], v["model"] = "chatcmpl-llmtest", "chat.completion.chunk", time.Now().Unix(), model
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if f != nil {
			f.Flush()
		}
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	runes := []rune(reply.Content)
	pieces := (len(runes) + 3) / 4
	if reply.Truncate {
		pieces /= 2
	}
	send(chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	for i := 0; i < pieces; i++ {
		send(chunk(map[string]any{"content": string(runes[i*4 : min(len(runes), i*4+4)])}, nil))
	}
	if reply.Truncate {
		return
	}
	finish := reply.FinishReason
	if finish == "" {
		finish = "stop"
	}
	send(chunk(map[string]any{}, finish))
	if u := reply.Usage; u != nil && usage {
		send(map[string]any{"choices": []any{}, "usage": map[string]int{
			"prompt_tokens": u.PromptTokens, "completion_tokens": u.CompletionTokens, "total_tokens": u.PromptTokens + u.CompletionTokens}})
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// wait sleeps for d unless the client gives up first; it reports whether
// the reply should still be written.
func (s *Server) wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

func (s *Server) respond(w http.ResponseWriter, model string, reply Reply) {
	status := reply.Status
	if status == 0 {
		status = http.StatusOK
	}
	if reply.Raw != "" {
		writeBody(w, status, []byte(reply.Raw), reply.Truncate)
		return
	}
	if status >= 400 {
		msg := reply.Content
		if msg == "" {
			msg = http.StatusText(status)
		}
		writeError(w, status, msg)
		return
	}
	finish := reply.FinishReason
	if finish == "" {
		finish = "stop"
	}
	out := map[string]any{
		"id":      "chatcmpl-llmtest",
		"object":  "chat.completion",
		"created": time.Now().Unix(),
		"model":   model,
		"choices": []any{map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": reply.Content},
			"finish_reason": finish,
		}},
	}
	if u := reply.Usage; u != nil {
		out["usage"] = map[string]int{
			"prompt_tokens":     u.PromptTokens,
			"completion_tokens": u.CompletionTokens,
			"total_tokens":      u.PromptTokens + u.CompletionTokens,
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeBody(w, status, b, reply.Truncate)
}

// writeBody sends b; with cut it announces the full length, sends half and
// drops the connection, so the client sees a body that ends mid-JSON.
func writeBody(w http.ResponseWriter, status int, b []byte, cut bool) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	if !cut {
		_, _ = w.Write(b)
		return
	}
	_, _ = w.Write(b[:len(b)/2])
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	panic(http.ErrAbortHandler)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	typ := "invalid_request_error"
	switch {
	case status == http.StatusTooManyRequests:
		typ = "rate_limit_error"
	case status >= 500:
		typ = "server_error"
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": msg, "type": typ, "param": nil, "code": nil,
	}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func wantsJSONSchema(rf json.RawMessage) bool {
	if len(rf) == 0 {
		return false
	}
	var v struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(rf, &v) == nil && v.Type == "json_schema"
}

func (s *Server) embeddings(w http.ResponseWriter, r *http.Request) {
	defer s.enter()()
	s.embedCalls.Add(1)
	var req struct {
		Model string          `json:"model"`
		Input json.RawMessage `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid JSON body: "+err.Error())
		return
	}
	var inputs []string
	if err := json.Unmarshal(req.Input, &inputs); err != nil {
		var one string
		if err := json.Unmarshal(req.Input, &one); err != nil {
			writeError(w, http.StatusBadRequest, "input must be a string or a list of strings")
			return
		}
		inputs = []string{one}
	}
	s.mu.Lock()
	s.batches = append(s.batches, inputs)
	s.mu.Unlock()
	if !s.wait(r, s.latency) {
		return
	}
	data := make([]any, len(inputs))
	tokens := 0
	for i, in := range inputs {
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": s.embedder(in)}
		tokens += llm.EstimateTokens(in)
	}
	b, err := json.Marshal(map[string]any{
		"object": "list",
		"model":  req.Model,
		"data":   data,
		"usage":  map[string]int{"prompt_tokens": tokens, "total_tokens": tokens},
	})
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeBody(w, http.StatusOK, b, false)
}

func (s *Server) models(w http.ResponseWriter, _ *http.Request) {
	b, _ := json.Marshal(map[string]any{
		"object": "list",
		"data": []any{
			map[string]any{"id": "llmtest-chat", "object": "model", "created": 0, "owned_by": "llmtest"},
			map[string]any{"id": "llmtest-embed", "object": "model", "created": 0, "owned_by": "llmtest"},
		},
	})
	writeBody(w, http.StatusOK, b, false)
}

// HashEmbed is the default embedder: a deterministic unit vector of
// dimension 16 derived from an FNV hash of the text. Equal texts get equal
// vectors; different texts almost surely differ.
func HashEmbed(text string) []float32 {
	const dim = 16
	v := make([]float32, dim)
	var norm float64
	for i := range v {
		h := fnv.New64a()
		var seed [8]byte
		binary.LittleEndian.PutUint64(seed[:], uint64(i))
		_, _ = h.Write(seed[:])
		_, _ = io.WriteString(h, text)
		x := float64(h.Sum64()%20001)/10000 - 1 // in [-1, 1]
		v[i] = float32(x)
		norm += x * x
	}
	if norm == 0 {
		v[0] = 1
		return v
	}
	n := float32(math.Sqrt(norm))
	for i := range v {
		v[i] /= n
	}
	return v
}

// String describes the server for test logs.
func (s *Server) String() string {
	return fmt.Sprintf("llmtest server at %s (%d chat, %d embedding calls)", s.URL, s.Calls(), s.EmbedCalls())
}
