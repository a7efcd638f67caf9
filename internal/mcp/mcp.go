// Package mcp serves a workspace's read operations (search, entity, ask,
// relate, timeline) as Model Context Protocol tools over stdio: JSON-RPC
// 2.0, one message a line on the input and the output, logs elsewhere.
//
// The server knows nothing of the workspace: it validates the arguments
// against each tool's input schema, applies the defaults and calls a
// Backend, whose results it returns as indented JSON text.
package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
	"time"
)

// ProtocolVersion is the MCP revision the server speaks by default.
const ProtocolVersion = "2025-06-18"

// supportedVersions are the revisions whose tool messages the server
// speaks; a client asking for one of them gets it back.
var supportedVersions = []string{ProtocolVersion, "2025-03-26", "2024-11-05"}

// MaxLine is the default limit on one message's size in bytes.
const MaxLine = 4 << 20

// JSON-RPC error codes.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
)

// Backend does the work of the five tools. A returned error becomes a tool
// result with isError set, its message as the text; the result otherwise
// is marshalled to JSON.
type Backend interface {
	Search(ctx context.Context, args SearchArgs) (any, error)
	Entity(ctx context.Context, args EntityArgs) (any, error)
	Ask(ctx context.Context, args AskArgs) (any, error)
	Relate(ctx context.Context, args RelateArgs) (any, error)
	Timeline(ctx context.Context, args TimelineArgs) (any, error)
}

// Server answers MCP requests with a Backend.
type Server struct {
	Backend Backend
	Name    string    // serverInfo.name; "" means "annals"
	Version string    // serverInfo.version; "" means "dev"
	Log     io.Writer // where to log; nil means nowhere
	MaxLine int       // largest message in bytes; 0 means MaxLine
}

// New returns a server for b.
func New(b Backend, version string) *Server {
	return &Server{Backend: b, Name: "annals", Version: version}
}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return e.Message }

func errorf(code int, format string, args ...any) *rpcError {
	return &rpcError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// response is a JSON-RPC response: exactly one of Result and Error.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

var nullID = json.RawMessage("null")

// output writes one message a line; after close it drops what it is
// given, so that a call finishing after Serve returned writes nothing.
type output struct {
	mu     sync.Mutex
	w      io.Writer
	closed bool
	err    error
}

func (o *output) send(r response) {
	r.JSONRPC = "2.0"
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		// A result that cannot be marshalled is the server's fault.
		buf.Reset()
		enc.Encode(response{JSONRPC: "2.0", ID: r.ID, Error: errorf(CodeInternalError, "marshal the result: %v", err)})
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed || o.err != nil {
		return
	}
	_, o.err = o.w.Write(buf.Bytes())
}

func (o *output) close() {
	o.mu.Lock()
	o.closed = true
	o.mu.Unlock()
}

// line is one message read, or why none could be.
type line struct {
	data    []byte
	tooLong bool
	err     error // io.EOF at the end
}

// readLines sends the input's lines, then a last line with the error that
// ended it. A line longer than max is reported as too long, and skipped.
func readLines(r io.Reader, max int, lines chan<- line, done <-chan struct{}) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		var buf []byte
		tooLong := false
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			if !tooLong {
				if len(buf)+len(chunk) > max+2 { // room for "\r\n"
					tooLong, buf = true, nil
				} else {
					buf = append(buf, chunk...)
				}
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if len(buf) > 0 || tooLong {
			if err == io.EOF {
				err = nil // the last line, without its newline
			}
			select {
			case lines <- line{data: buf, tooLong: tooLong}:
			case <-done:
				return
			}
		}
		if err != nil {
			select {
			case lines <- line{err: err}:
			case <-done:
			}
			return
		}
	}
}

// session is the state of one Serve: the calls under way and the queue of
// tool calls, which run one at a time in the order they came.
type session struct {
	s       *Server
	out     *output
	ctx     context.Context
	mu      sync.Mutex
	running map[string]context.CancelFunc // by the request's id
	queue   chan *job
	version string // the protocol version agreed
}

// job is a validated tool call waiting for the backend.
type job struct {
	id     json.RawMessage
	ctx    context.Context
	cancel context.CancelFunc
	tool   *tool
	args   any
}

// Serve reads requests from r and writes responses to w until r ends
// (then it returns nil, once the calls under way have answered) or ctx is
// done (then it returns ctx.Err() without waiting for them). Tool calls
// run one at a time, in order; pings and the other requests are answered
// while one runs, and notifications/cancelled stops the call it names.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	if s.Backend == nil {
		return errors.New("mcp: a server needs a backend")
	}
	max := s.MaxLine
	if max <= 0 {
		max = MaxLine
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ss := &session{s: s, out: &output{w: w}, ctx: ctx, running: map[string]context.CancelFunc{}, queue: make(chan *job, 256)}
	defer ss.out.close()

	done := make(chan struct{})
	defer close(done)
	lines := make(chan line)
	go readLines(r, max, lines, done)

	var worker sync.WaitGroup
	worker.Add(1)
	go func() {
		defer worker.Done()
		for j := range ss.queue {
			ss.run(j)
		}
	}()
	finish := func() { close(ss.queue); worker.Wait() }

	for {
		select {
		case <-ctx.Done():
			ss.out.close()
			close(ss.queue)
			return ctx.Err()
		case l := <-lines:
			switch {
			case l.err == io.EOF || errors.Is(l.err, os.ErrClosed) || errors.Is(l.err, io.ErrClosedPipe):
				finish()
				return nil
			case l.err != nil:
				finish()
				return fmt.Errorf("mcp: read: %w", l.err)
			case l.tooLong:
				s.logf("a message longer than %d bytes, skipped", max)
				ss.out.send(response{ID: nullID, Error: errorf(CodeInvalidRequest,
					"message too long: the limit is %d bytes (%d MiB) a line", max, max>>20)})
			default:
				ss.handle(l.data)
			}
		}
	}
}

func (s *Server) logf(format string, args ...any) {
	if s.Log != nil {
		fmt.Fprintf(s.Log, "annals mcp: "+format+"\n", args...)
	}
}

// handle answers one line: a request, a notification or garbage.
func (ss *session) handle(data []byte) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return // a blank line says nothing
	}
	if !json.Valid(data) {
		ss.s.logf("not JSON: %.80q", data)
		ss.out.send(response{ID: nullID, Error: errorf(CodeParseError, "parse error: the line is not valid JSON")})
		return
	}
	if data[0] == '[' {
		ss.out.send(response{ID: nullID, Error: errorf(CodeInvalidRequest, "invalid request: batches are not supported; send one message a line")})
		return
	}
	var msg map[string]json.RawMessage
	if data[0] != '{' || json.Unmarshal(data, &msg) != nil {
		ss.out.send(response{ID: nullID, Error: errorf(CodeInvalidRequest, "invalid request: a message is a JSON object")})
		return
	}
	id, hasID := msg["id"]
	rawMethod, hasMethod := msg["method"]
	if !hasMethod {
		// A response to a request of ours: the server sends none, so there
		// is nothing to match it with. Anything else is no message at all.
		_, isResult := msg["result"]
		_, isError := msg["error"]
		if !isResult && !isError {
			ss.reply(validID(id), nil, errorf(CodeInvalidRequest, `invalid request: no "method"`))
		}
		return
	}
	if hasID && !isValidID(id) {
		ss.out.send(response{ID: nullID, Error: errorf(CodeInvalidRequest, "invalid request: the id must be a string or a number")})
		return
	}
	var method string
	if err := json.Unmarshal(rawMethod, &method); err != nil {
		if hasID {
			ss.reply(id, nil, errorf(CodeInvalidRequest, "invalid request: the method must be a string"))
		}
		return
	}
	if v, ok := msg["jsonrpc"]; !ok || string(v) != `"2.0"` {
		if hasID {
			ss.reply(id, nil, errorf(CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`))
		}
		return
	}
	params := msg["params"]
	if len(params) > 0 && params[0] != '{' && string(params) != "null" {
		if hasID {
			ss.reply(id, nil, errorf(CodeInvalidParams, "invalid params: params must be an object"))
		}
		return
	}
	if !hasID {
		ss.notify(method, params)
		return
	}
	ss.request(id, method, params)
}

// isValidID reports whether an id is one JSON-RPC allows and MCP keeps: a
// string or a number, not null.
func isValidID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	switch c := id[0]; {
	case c == '"':
		return true
	case c == '-' || c >= '0' && c <= '9':
		return true
	}
	return false
}

func validID(id json.RawMessage) json.RawMessage {
	if isValidID(id) {
		return id
	}
	return nullID
}

func (ss *session) reply(id json.RawMessage, result any, err *rpcError) {
	if err != nil {
		ss.out.send(response{ID: id, Error: err})
		return
	}
	ss.out.send(response{ID: id, Result: result})
}

// notify handles a notification: it is never answered.
func (ss *session) notify(method string, params json.RawMessage) {
	switch method {
	case "notifications/initialized":
		ss.s.logf("client ready")
	case "notifications/cancelled":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
			Reason    string          `json:"reason"`
		}
		if json.Unmarshal(params, &p) != nil || !isValidID(p.RequestID) {
			return
		}
		ss.mu.Lock()
		cancel := ss.running[idKey(p.RequestID)]
		ss.mu.Unlock()
		if cancel != nil {
			ss.s.logf("request %s cancelled: %s", p.RequestID, p.Reason)
			cancel()
		}
	}
}

// idKey is an id in a form that the same id always takes.
func idKey(id json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, id) != nil {
		return string(id)
	}
	return buf.String()
}

// request answers a request, or queues it when it calls a tool.
func (ss *session) request(id json.RawMessage, method string, params json.RawMessage) {
	switch method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
			ClientInfo      struct {
				Name    string `json:"name"`
				Version string `json:"version"`
			} `json:"clientInfo"`
		}
		if len(params) > 0 {
			if err := json.Unmarshal(params, &p); err != nil {
				ss.reply(id, nil, errorf(CodeInvalidParams, "invalid params: %v", err))
				return
			}
		}
		version := ProtocolVersion
		for _, v := range supportedVersions {
			if p.ProtocolVersion == v {
				version = v
			}
		}
		ss.version = version
		ss.s.logf("initialize from %s %s, protocol %s", p.ClientInfo.Name, p.ClientInfo.Version, version)
		name, v := ss.s.Name, ss.s.Version
		if name == "" {
			name = "annals"
		}
		if v == "" {
			v = "dev"
		}
		ss.reply(id, map[string]any{
			"protocolVersion": version,
			"capabilities":    map[string]any{"tools": map[string]any{}},
			"serverInfo":      map[string]string{"name": name, "version": v},
			"instructions": "Tools over a knowledge graph built from historical texts: every fact cites the sentence it came from. " +
				"Use entity for a person, place or office by name or alias, search for every occurrence of a string, " +
				"ask for a question answered with citations, relate for how two entities are connected, and timeline for dated facts.",
		}, nil)
	case "ping":
		ss.reply(id, struct{}{}, nil)
	case "tools/list":
		list := make([]map[string]any, len(tools))
		for i, t := range tools {
			list[i] = map[string]any{"name": t.name, "title": t.title, "description": t.description,
				"inputSchema": t.schema, "annotations": t.annotations()}
		}
		ss.reply(id, map[string]any{"tools": list}, nil)
	case "tools/call":
		ss.call(id, params)
	default:
		ss.reply(id, nil, errorf(CodeMethodNotFound, "method not found: %s", method))
	}
}

// call validates a tools/call and queues it.
func (ss *session) call(id json.RawMessage, params json.RawMessage) {
	var p struct {
		Name      *string         `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if len(params) == 0 || string(params) == "null" {
		ss.reply(id, nil, errorf(CodeInvalidParams, "invalid params: tools/call needs the tool's name"))
		return
	}
	if err := json.Unmarshal(params, &p); err != nil || p.Name == nil {
		ss.reply(id, nil, errorf(CodeInvalidParams, `invalid params: "name" must be the tool's name, a string`))
		return
	}
	t := findTool(*p.Name)
	if t == nil {
		ss.reply(id, nil, errorf(CodeInvalidParams, "invalid params: unknown tool %q (the tools are %s)", *p.Name, toolNames()))
		return
	}
	args, err := t.parse(p.Arguments)
	if err != nil {
		ss.reply(id, nil, errorf(CodeInvalidParams, "invalid params: %s: %v", t.name, err))
		return
	}
	ctx, cancel := context.WithCancel(ss.ctx)
	key := idKey(id)
	ss.mu.Lock()
	ss.running[key] = cancel
	ss.mu.Unlock()
	select {
	case ss.queue <- &job{id: id, ctx: ctx, cancel: cancel, tool: t, args: args}:
	case <-ss.ctx.Done():
		cancel()
	}
}

// run calls the backend for a job and answers it, unless it was cancelled.
func (ss *session) run(j *job) {
	defer func() {
		j.cancel()
		ss.mu.Lock()
		delete(ss.running, idKey(j.id))
		ss.mu.Unlock()
	}()
	if j.ctx.Err() != nil {
		return // cancelled while it waited: no answer, as MCP asks
	}
	start := time.Now()
	res, err := ss.invoke(j)
	if j.ctx.Err() != nil {
		ss.s.logf("%s: cancelled after %v", j.tool.name, time.Since(start).Round(time.Millisecond))
		return
	}
	if err != nil {
		ss.s.logf("%s: %v (%v)", j.tool.name, err, time.Since(start).Round(time.Millisecond))
		if rerr, ok := err.(*rpcError); ok {
			ss.reply(j.id, nil, rerr)
			return
		}
		ss.reply(j.id, toolResult(err.Error(), true), nil)
		return
	}
	ss.s.logf("%s: done in %v", j.tool.name, time.Since(start).Round(time.Millisecond))
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res); err != nil {
		ss.reply(j.id, nil, errorf(CodeInternalError, "internal error: marshal the %s result: %v", j.tool.name, err))
		return
	}
	ss.reply(j.id, toolResult(string(bytes.TrimRight(buf.Bytes(), "\n")), false), nil)
}

// invoke calls the backend, turning a panic into an internal error.
func (ss *session) invoke(j *job) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			ss.s.logf("%s panicked: %v\n%s", j.tool.name, p, debug.Stack())
			err = errorf(CodeInternalError, "internal error in %s: %v", j.tool.name, p)
		}
	}()
	return j.tool.call(j.ctx, ss.s.Backend, j.args)
}

func toolResult(text string, isError bool) map[string]any {
	return map[string]any{
		"content": []map[string]string{{"type": "text", "text": text}},
		"isError": isError,
	}
}
