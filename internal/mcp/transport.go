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
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// transport is the stdio transport the SDK's server runs on: one JSON-RPC
// message a line each way. The SDK has its own (mcp.StdioTransport,
// mcp.IOTransport), which this one replaces because of what it does at
// the edges of a session:
//
//   - a line that is not JSON, or not a JSON-RPC message (a bad id, no
//     method, "jsonrpc" not "2.0"), or longer than its limit ends the
//     session without an answer; here it is answered with a JSON-RPC
//     error (-32700 or -32600, id null where the line has none) and the
//     next line is read;
//   - at the end of the input it cancels the calls still under way and
//     drops their replies, so `printf REQUEST | annals mcp` answers
//     nothing; here the calls read before the end are answered first;
//   - it runs tool calls side by side; here they run one at a time, in the
//     order they came (the workspace's lazily built indexes and relate's
//     feedback are not meant for concurrent writers), while pings and the
//     other requests are answered at once;
//   - a call the client cancelled is answered with an error; here it is
//     not answered, as MCP asks, and one cancelled before its turn never
//     reaches the SDK.
//
// Everything between the lines (the handshake, version negotiation,
// methods, tools/list and tools/call, cancellation of the running call)
// is the SDK's.
type transport struct {
	r    io.Reader
	w    io.Writer
	max  int // longest line in bytes
	logf func(format string, args ...any)
}

// maxHeld bounds the tool calls waiting their turn; beyond it, the input
// is not read until one has run.
const maxHeld = 256

func (t *transport) Connect(context.Context) (sdk.Connection, error) {
	c := &conn{t: t, lines: make(chan line), wake: make(chan struct{}, 1), closed: make(chan struct{}),
		pending: map[string]bool{}, cancelled: map[string]bool{}}
	go readLines(t.r, t.max, c.lines, c.closed)
	return c, nil
}

// conn is one session's connection.
type conn struct {
	t      *transport
	lines  chan line
	wake   chan struct{} // a reply was written: a held call may run, or the input's end be told
	closed chan struct{}
	once   sync.Once

	// Read's own: the input's end once read, and the tool calls waiting
	// their turn.
	end  error
	held []*jsonrpc.Request

	mu        sync.Mutex
	writeErr  error
	pending   map[string]bool // calls passed on and not yet answered, by id
	cancelled map[string]bool // pending calls the client cancelled: their replies are dropped
	running   string          // the id of the tool call passed on and not yet answered, or ""
}

// Read returns the next message for the SDK: a held tool call when none
// runs, else the next line's message. Lines that are no message are
// answered here. At the end of the input it returns io.EOF (or the read
// error) once every call passed on has been answered.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		c.mu.Lock()
		if c.running == "" && len(c.held) > 0 {
			req := c.held[0]
			c.held = c.held[1:]
			c.running = idKey(req.ID)
			c.pending[c.running] = true
			c.mu.Unlock()
			return req, nil
		}
		answered := len(c.pending) == 0
		c.mu.Unlock()
		if c.end != nil && answered && len(c.held) == 0 {
			return nil, c.end
		}
		var lines <-chan line
		if c.end == nil && len(c.held) < maxHeld {
			lines = c.lines
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case <-c.wake:
		case l := <-lines:
			switch {
			case l.err == io.EOF || errors.Is(l.err, os.ErrClosed) || errors.Is(l.err, io.ErrClosedPipe):
				c.end = io.EOF
			case l.err != nil:
				c.end = fmt.Errorf("mcp: read: %w", l.err)
			case l.tooLong:
				c.t.logf("a message longer than %d bytes, skipped", c.t.max)
				c.reply(nil, errorf(CodeInvalidRequest, "message too long: the limit is %d bytes (%d MiB) a line", c.t.max, c.t.max>>20))
			default:
				if msg := c.accept(l.data); msg != nil {
					return msg, nil
				}
			}
		}
	}
}

// accept checks a line and returns the message to pass on, or nil when
// the line is answered here, held, or ignored.
func (c *conn) accept(data []byte) jsonrpc.Message {
	msg := c.check(data)
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return msg
	}
	if !req.IsCall() {
		if req.Method == "notifications/cancelled" {
			return c.cancel(req)
		}
		return req
	}
	key := idKey(req.ID)
	c.mu.Lock()
	inUse := c.pending[key]
	for _, h := range c.held {
		inUse = inUse || idKey(h.ID) == key
	}
	if !inUse && req.Method != "tools/call" {
		c.pending[key] = true
	}
	c.mu.Unlock()
	switch {
	case inUse:
		c.reply(nil, errorf(CodeInvalidRequest, "invalid request: the id %v is taken by a request not yet answered", req.ID.Raw()))
		return nil
	case req.Method == "tools/call":
		c.held = append(c.held, req)
		return nil
	}
	return req
}

// cancel takes a held call out of the queue, unanswered, or marks a call
// under way so that its reply is dropped; the SDK cancels the latter's
// context.
func (c *conn) cancel(req *jsonrpc.Request) jsonrpc.Message {
	var p struct {
		RequestID any    `json:"requestId"`
		Reason    string `json:"reason"`
	}
	if json.Unmarshal(req.Params, &p) != nil {
		return req
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	if err != nil || !id.IsValid() {
		return req
	}
	key := idKey(id)
	for i, h := range c.held {
		if idKey(h.ID) == key {
			c.held = append(c.held[:i:i], c.held[i+1:]...)
			c.t.logf("request %v cancelled before it ran: %s", id.Raw(), p.Reason)
			return nil
		}
	}
	c.mu.Lock()
	if c.pending[key] {
		c.cancelled[key] = true
		c.t.logf("request %v cancelled: %s", id.Raw(), p.Reason)
	}
	c.mu.Unlock()
	return req
}

// check answers a line that is no JSON-RPC message, or a request that is
// malformed, and returns nil for it; it ignores blank lines, responses
// (the server asks nothing) and notifications of methods that are
// requests. Anything else it decodes.
func (c *conn) check(data []byte) jsonrpc.Message {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil // a blank line says nothing
	}
	if !json.Valid(data) {
		c.t.logf("not JSON: %.80q", data)
		c.reply(nil, errorf(CodeParseError, "parse error: the line is not valid JSON"))
		return nil
	}
	if data[0] == '[' {
		c.reply(nil, errorf(CodeInvalidRequest, "invalid request: batches are not supported; send one message a line"))
		return nil
	}
	var msg map[string]json.RawMessage
	if data[0] != '{' || json.Unmarshal(data, &msg) != nil {
		c.reply(nil, errorf(CodeInvalidRequest, "invalid request: a message is a JSON object"))
		return nil
	}
	id, hasID := msg["id"]
	rawMethod, hasMethod := msg["method"]
	if !hasMethod {
		// A response to a request of ours: the server sends none, so there
		// is nothing to match it with. Anything else is no message at all.
		_, isResult := msg["result"]
		_, isError := msg["error"]
		if !isResult && !isError {
			c.reply(validID(id), errorf(CodeInvalidRequest, `invalid request: no "method"`))
		}
		return nil
	}
	if hasID && !isValidID(id) {
		c.reply(nil, errorf(CodeInvalidRequest, "invalid request: the id must be a string or a number"))
		return nil
	}
	var method string
	if err := json.Unmarshal(rawMethod, &method); err != nil {
		if hasID {
			c.reply(id, errorf(CodeInvalidRequest, "invalid request: the method must be a string"))
		}
		return nil
	}
	if v, ok := msg["jsonrpc"]; !ok || string(v) != `"2.0"` {
		if hasID {
			c.reply(id, errorf(CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`))
		}
		return nil
	}
	if !hasID && !strings.HasPrefix(method, "notifications/") {
		c.t.logf("%s sent as a notification, which gets no answer: ignored", method)
		return nil
	}
	m, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		if hasID {
			c.reply(validID(id), errorf(CodeInvalidRequest, "invalid request: %v", err))
		}
		return nil
	}
	return m
}

// Write sends a message the SDK wrote, unless it answers a call the
// client cancelled.
func (c *conn) Write(_ context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.ID.IsValid() {
		key := idKey(resp.ID)
		c.mu.Lock()
		delete(c.pending, key)
		drop := c.cancelled[key]
		delete(c.cancelled, key)
		if c.running == key {
			c.running = ""
		}
		c.mu.Unlock()
		select {
		case c.wake <- struct{}{}:
		default:
		}
		if drop {
			return nil
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	if resp, ok := msg.(*jsonrpc.Response); ok && !resp.ID.IsValid() {
		// A reply to a request whose id could not be read: JSON-RPC
		// gives it the id null, which the SDK leaves out.
		var m map[string]json.RawMessage
		if json.Unmarshal(data, &m) == nil {
			m["id"] = json.RawMessage("null")
			data, _ = json.Marshal(m)
		}
	}
	return c.write(data)
}

// reply answers here: with id, or null when id is nil.
func (c *conn) reply(id json.RawMessage, e *jsonrpc.Error) {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
	}{"2.0", id, e})
	c.write(data)
}

func (c *conn) write(data []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.closed:
		return sdk.ErrConnectionClosed
	default:
	}
	if c.writeErr == nil {
		_, c.writeErr = c.t.w.Write(append(data, '\n'))
	}
	return c.writeErr
}

// Close ends the session: nothing is read or written after it. The input
// and output stay open; they are the caller's.
func (c *conn) Close() error {
	c.once.Do(func() {
		c.mu.Lock()
		close(c.closed)
		c.mu.Unlock()
	})
	return nil
}

func (c *conn) SessionID() string { return "" }

func errorf(code int64, format string, args ...any) *jsonrpc.Error {
	return &jsonrpc.Error{Code: code, Message: fmt.Sprintf(format, args...)}
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
	return nil
}

// idKey is an id in a form that the same id always takes.
func idKey(id jsonrpc.ID) string {
	return fmt.Sprintf("%T %v", id.Raw(), id.Raw())
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
