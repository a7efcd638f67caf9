package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// fake echoes its arguments, so that tests see what the server passed on.
type fake struct {
	mu    sync.Mutex
	calls []string
}

func (f *fake) record(name string) {
	f.mu.Lock()
	f.calls = append(f.calls, name)
	f.mu.Unlock()
}

func (f *fake) Search(_ context.Context, a SearchArgs) (any, error) {
	f.record("search")
	return map[string]any{"tool": "search", "args": a}, nil
}

func (f *fake) Entity(_ context.Context, a EntityArgs) (any, error) {
	f.record("entity")
	if a.Name == "nobody" {
		return nil, fmt.Errorf("entity %q: not found", a.Name)
	}
	if a.Name == "panic" {
		panic("boom")
	}
	return map[string]any{"tool": "entity", "args": a}, nil
}

func (f *fake) Ask(_ context.Context, a AskArgs) (any, error) {
	f.record("ask")
	return map[string]any{"tool": "ask", "args": a, "html": "<b>&</b>"}, nil
}

func (f *fake) Relate(_ context.Context, a RelateArgs) (any, error) {
	f.record("relate")
	return map[string]any{"tool": "relate", "args": a}, nil
}

func (f *fake) Timeline(_ context.Context, a TimelineArgs) (any, error) {
	f.record("timeline")
	return map[string]any{"tool": "timeline", "args": a}, nil
}

// reply is a decoded response.
type reply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// serve runs a server over the lines and returns its replies.
func serve(t *testing.T, b Backend, lines ...string) []reply {
	t.Helper()
	var out bytes.Buffer
	s := New(b, "test")
	if err := s.Serve(context.Background(), strings.NewReader(strings.Join(lines, "\n")+"\n"), &out); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	return parseReplies(t, out.Bytes())
}

// handshake is what a client sends first: the SDK answers nothing but
// initialize and ping before it.
var handshake = []string{
	`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
}

// session is serve after the handshake, without the reply to initialize.
func session(t *testing.T, b Backend, lines ...string) []reply {
	t.Helper()
	var rs []reply
	for _, r := range serve(t, b, append(handshake[:len(handshake):len(handshake)], lines...)...) {
		if string(r.ID) != `"init"` {
			rs = append(rs, r)
		}
	}
	return rs
}

func parseReplies(t *testing.T, out []byte) []reply {
	t.Helper()
	var rs []reply
	for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		if l == "" {
			continue
		}
		var r reply
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("reply is not JSON: %v\n%s", err, l)
		}
		rs = append(rs, r)
	}
	return rs
}

func req(id any, method string, params any) string {
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if id != nil {
		m["id"] = id
	}
	if params != nil {
		m["params"] = params
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func call(id any, name string, args any) string {
	return req(id, "tools/call", map[string]any{"name": name, "arguments": args})
}

// byID finds the reply to a request.
func byID(t *testing.T, rs []reply, id string) reply {
	t.Helper()
	for _, r := range rs {
		if string(r.ID) == id {
			return r
		}
	}
	t.Fatalf("no reply with id %s in %d replies", id, len(rs))
	return reply{}
}

// toolText decodes a tools/call result. isError may be left out when
// false, as the SDK does.
func toolText(t *testing.T, r reply) (string, bool) {
	t.Helper()
	if r.Error != nil {
		t.Fatalf("id %s: error %d %s", r.ID, r.Error.Code, r.Error.Message)
	}
	var res struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil || len(res.Content) != 1 || res.Content[0].Type != "text" {
		t.Fatalf("id %s: not a tool result: %s", r.ID, r.Result)
	}
	return res.Content[0].Text, res.IsError
}

func TestInitializeHandshake(t *testing.T) {
	// The version a client asks for, if the server speaks it, else the
	// server's own; one initialize a session (the SDK refuses a second).
	for asked, want := range map[string]string{"2025-06-18": "2025-06-18", "2025-03-26": "2025-03-26", "2024-11-05": "2024-11-05",
		"1999-01-01": ProtocolVersion, "2025-11-25": ProtocolVersion} {
		rs := serve(t, &fake{},
			req(1, "initialize", map[string]any{"protocolVersion": asked, "capabilities": map[string]any{},
				"clientInfo": map[string]any{"name": "test", "version": "1"}}),
			req(nil, "notifications/initialized", nil),
			req(2, "initialize", map[string]any{"protocolVersion": asked}),
			req("p", "ping", nil),
		)
		if len(rs) != 3 {
			t.Fatalf("want 3 replies (none to the notification), got %d", len(rs))
		}
		r := byID(t, rs, "1")
		var res struct {
			ProtocolVersion string                     `json:"protocolVersion"`
			Capabilities    map[string]json.RawMessage `json:"capabilities"`
			ServerInfo      struct{ Name, Version string }
			Instructions    string `json:"instructions"`
		}
		if r.JSONRPC != "2.0" || r.Error != nil || json.Unmarshal(r.Result, &res) != nil {
			t.Fatalf("initialize asking for %s: %+v", asked, r)
		}
		if res.ProtocolVersion != want || res.ServerInfo.Name != "annals" || res.ServerInfo.Version != "test" ||
			string(res.Capabilities["tools"]) != "{}" || len(res.Capabilities) != 1 || res.Instructions == "" {
			t.Fatalf("initialize asking for %s: %s", asked, r.Result)
		}
		if again := byID(t, rs, "2"); again.Error == nil || !strings.Contains(again.Error.Message, "duplicate") {
			t.Fatalf("a second initialize: %+v", again)
		}
		if p := byID(t, rs, `"p"`); string(p.Result) != "{}" {
			t.Fatalf("ping: %s", p.Result)
		}
	}
}

func TestToolsListHasSchemas(t *testing.T) {
	rs := session(t, &fake{}, req(1, "tools/list", nil))
	var res struct {
		Tools []struct {
			Name        string `json:"name"`
			Description string `json:"description"`
			InputSchema struct {
				Type       string `json:"type"`
				Properties map[string]struct {
					Type  string          `json:"type"`
					Items json.RawMessage `json:"items"`
				} `json:"properties"`
				Required []string `json:"required"`
			} `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(rs[0].Result, &res); err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		required string
		props    map[string]string
	}{
		"search":   {"text", map[string]string{"text": "string", "limit": "integer", "offset": "integer"}},
		"entity":   {"name", map[string]string{"name": "string", "relations": "integer", "mentions": "integer"}},
		"ask":      {"question", map[string]string{"question": "string", "mode": "string", "options": "array", "agent": "boolean"}},
		"relate":   {"head,tail", map[string]string{"head": "string", "tail": "string", "top": "integer", "no_feedback": "boolean"}},
		"timeline": {"", map[string]string{"name": "string", "from": "integer", "to": "integer", "type": "string", "limit": "integer"}},
	}
	if len(res.Tools) != len(want) {
		t.Fatalf("want %d tools, got %d", len(want), len(res.Tools))
	}
	for _, tl := range res.Tools {
		w, ok := want[tl.Name]
		if !ok {
			t.Fatalf("unexpected tool %q", tl.Name)
		}
		if tl.Description == "" || tl.InputSchema.Type != "object" || strings.Join(tl.InputSchema.Required, ",") != w.required {
			t.Errorf("%s: %+v", tl.Name, tl)
		}
		if len(tl.InputSchema.Properties) != len(w.props) {
			t.Errorf("%s: properties %v", tl.Name, tl.InputSchema.Properties)
		}
		for p, typ := range w.props {
			if got := tl.InputSchema.Properties[p].Type; got != typ {
				t.Errorf("%s.%s: type %q, want %q", tl.Name, p, got, typ)
			}
		}
	}
	var items struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	for _, tl := range res.Tools {
		if tl.Name == "ask" {
			json.Unmarshal(tl.InputSchema.Properties["options"].Items, &items)
		}
	}
	if items.Type != "object" || len(items.Properties) != 2 || strings.Join(items.Required, ",") != "letter,text" {
		t.Errorf("ask's options should describe their items: %+v", items)
	}
}

func TestToolsCallEachTool(t *testing.T) {
	f := &fake{}
	rs := session(t, f,
		call(1, "search", map[string]any{"text": "诸葛亮"}),
		call(2, "search", map[string]any{"text": "亮", "limit": 5.0, "offset": 10}),
		call(3, "entity", map[string]any{"name": "孔明"}),
		call(4, "ask", map[string]any{"question": "诸葛亮卒于何地？", "mode": "open", "agent": true,
			"options": []map[string]string{{"letter": "a", "text": " 赤壁 "}, {"letter": "B", "text": "五丈原"}}}),
		call(5, "relate", map[string]any{"head": "曹操", "tail": "司马懿"}),
		call(6, "relate", map[string]any{"head": "曹操", "tail": "司马懿", "top": 3, "no_feedback": false}),
		call(7, "timeline", map[string]any{"name": "孙权"}),
		call(8, "timeline", map[string]any{"from": -200, "to": 220, "type": "死亡时间", "limit": 7}),
	)
	want := map[string]string{
		"1": `{"tool":"search","args":{"text":"诸葛亮","limit":20,"offset":0}}`,
		"2": `{"tool":"search","args":{"text":"亮","limit":5,"offset":10}}`,
		"3": `{"tool":"entity","args":{"name":"孔明","relations":50,"mentions":10}}`,
		"4": `{"html":"<b>&</b>","tool":"ask","args":{"question":"诸葛亮卒于何地？","mode":"open","options":[{"letter":"A","text":"赤壁"},{"letter":"B","text":"五丈原"}],"agent":true}}`,
		"5": `{"tool":"relate","args":{"head":"曹操","tail":"司马懿","top":10,"no_feedback":true}}`,
		"6": `{"tool":"relate","args":{"head":"曹操","tail":"司马懿","top":3,"no_feedback":false}}`,
		"7": `{"tool":"timeline","args":{"name":"孙权","from":null,"to":null,"type":"","limit":200}}`,
		"8": `{"tool":"timeline","args":{"name":"","from":-200,"to":220,"type":"死亡时间","limit":7}}`,
	}
	for id, w := range want {
		text, isErr := toolText(t, byID(t, rs, id))
		if isErr {
			t.Fatalf("id %s: isError: %s", id, text)
		}
		if !strings.Contains(text, "\n  ") {
			t.Errorf("id %s: the result should be indented JSON:\n%s", id, text)
		}
		var got, exp any
		if err := json.Unmarshal([]byte(text), &got); err != nil {
			t.Fatalf("id %s: %v\n%s", id, err, text)
		}
		json.Unmarshal([]byte(w), &exp)
		g, _ := json.Marshal(got)
		e, _ := json.Marshal(exp)
		if !bytes.Equal(g, e) {
			t.Errorf("id %s:\n got %s\nwant %s", id, g, e)
		}
	}
	if !strings.Contains(func() string { s, _ := toolText(t, byID(t, rs, "4")); return s }(), "<b>&</b>") {
		t.Error("the text should keep < and & as they are")
	}
	if len(f.calls) != len(want) {
		t.Fatalf("calls %v", f.calls)
	}
	// Calls run in the order they came.
	if strings.Join(f.calls, " ") != "search search entity ask relate relate timeline timeline" {
		t.Fatalf("calls out of order: %v", f.calls)
	}
}

func TestToolFailureIsAResult(t *testing.T) {
	rs := session(t, &fake{}, call(1, "entity", map[string]any{"name": "nobody"}), call(2, "entity", map[string]any{"name": "panic"}))
	text, isErr := toolText(t, byID(t, rs, "1"))
	if !isErr || text != `entity "nobody": not found` {
		t.Fatalf("want an isError result with the message, got %v %q", isErr, text)
	}
	if r := byID(t, rs, "2"); r.Error == nil || r.Error.Code != CodeInternalError {
		t.Fatalf("a panicking backend: %+v", r)
	}
}

func TestMalformedJSONThenNextRequest(t *testing.T) {
	rs := serve(t, &fake{}, `{"jsonrpc":"2.0","id":1,"method":"ping"`, "", "  ", "\x00\xff", req(2, "ping", nil))
	if len(rs) != 3 {
		t.Fatalf("want two parse errors and a pong, got %+v", rs)
	}
	for _, r := range rs[:2] {
		if r.Error == nil || r.Error.Code != CodeParseError || string(r.ID) != "null" || r.JSONRPC != "2.0" {
			t.Fatalf("want -32700 with a null id: %+v", r)
		}
	}
	if string(rs[2].ID) != "2" || string(rs[2].Result) != "{}" {
		t.Fatalf("the next request should be answered: %+v", rs[2])
	}
}

func TestErrors(t *testing.T) {
	f := &fake{}
	cases := []struct {
		line string
		id   string
		code int
		msg  string
	}{
		// The SDK answers the list methods of MCP with empty lists, and
		// names a method it does not know.
		{req(1, "nonesuch/list", nil), "1", CodeMethodNotFound, `method not found: "nonesuch/list"`},
		{call(2, "nonesuch", map[string]any{}), "2", CodeInvalidParams, `unknown tool "nonesuch"`},
		{call(3, "search", map[string]any{}), "3", CodeInvalidParams, `missing required argument "text"`},
		{call(4, "search", map[string]any{"text": "亮", "limit": "5"}), "4", CodeInvalidParams, `"limit" must be an integer, not a string`},
		{call(5, "search", map[string]any{"text": "亮", "limit": 1.5}), "5", CodeInvalidParams, `"limit" must be an integer`},
		{call(6, "search", map[string]any{"text": "亮", "limit": 0}), "6", CodeInvalidParams, `"limit" is 0; want 1 to 1000`},
		{call(7, "search", map[string]any{"query": "亮"}), "7", CodeInvalidParams, `missing required argument "text"`},
		{call(8, "search", map[string]any{"text": "亮", "query": "亮"}), "8", CodeInvalidParams, `unknown argument "query"`},
		{call(9, "relate", map[string]any{"head": "曹操"}), "9", CodeInvalidParams, `missing required argument "tail"`},
		{call(10, "ask", map[string]any{"question": "？", "mode": "closed"}), "10", CodeInvalidParams, `"mode" is "closed"`},
		{call(11, "ask", map[string]any{"question": "？", "options": []any{map[string]any{"letter": "A"}}}), "11", CodeInvalidParams, `missing required argument "options[0].text"`},
		{call(12, "ask", map[string]any{"question": "？", "agent": "yes"}), "12", CodeInvalidParams, `"agent" must be true or false`},
		{call(13, "timeline", map[string]any{}), "13", CodeInvalidParams, `give a "name", or a window of years`},
		{call(14, "timeline", map[string]any{"from": 300, "to": 200}), "14", CodeInvalidParams, `"from" (300) is after "to" (200)`},
		{call(15, "entity", map[string]any{"name": "  "}), "15", CodeInvalidParams, `"name" is empty`},
		{call(16, "entity", []string{"孔明"}), "16", CodeInvalidParams, "arguments must be an object"},
		// The SDK's own messages for a call without a name or params; the
		// latter is an invalid request to it.
		{req(17, "tools/call", map[string]any{"arguments": map[string]any{}}), "17", CodeInvalidParams, `unknown tool ""`},
		{req(18, "tools/call", nil), "18", CodeInvalidRequest, `missing required "params"`},
		{req(19, "tools/call", []any{1}), "19", CodeInvalidParams, "invalid params"},
		{`{"jsonrpc":"1.0","id":20,"method":"ping"}`, "20", CodeInvalidRequest, `"jsonrpc" must be "2.0"`},
		{`{"jsonrpc":"2.0","id":21,"method":7}`, "21", CodeInvalidRequest, "the method must be a string"},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "null", CodeInvalidRequest, "the id must be a string or a number"},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, "null", CodeInvalidRequest, "the id must be a string or a number"},
		{`{"jsonrpc":"2.0","id":23}`, "23", CodeInvalidRequest, `no "method"`},
		{`[{"jsonrpc":"2.0","id":24,"method":"ping"}]`, "null", CodeInvalidRequest, "batches are not supported"},
		{`42`, "null", CodeInvalidRequest, "a message is a JSON object"},
	}
	for _, c := range cases {
		rs := session(t, f, c.line)
		if len(rs) != 1 {
			t.Fatalf("%s: want one reply, got %+v", c.line, rs)
		}
		r := rs[0]
		if r.Error == nil || r.Error.Code != c.code || string(r.ID) != c.id || !strings.Contains(r.Error.Message, c.msg) || r.Result != nil {
			t.Errorf("%s:\n got id %s %+v\nwant id %s %d …%s…", c.line, r.ID, r.Error, c.id, c.code, c.msg)
		}
	}
	// Before the handshake, the SDK answers initialize and ping only.
	if rs := serve(t, f, call(30, "search", map[string]any{"text": "亮"})); len(rs) != 1 || rs[0].Error == nil || !strings.Contains(rs[0].Error.Message, "initialization") {
		t.Errorf("a call before initialize: %+v", rs)
	}
	if len(f.calls) != 0 {
		t.Fatalf("no invalid call should reach the backend: %v", f.calls)
	}
}

func TestNotificationsGetNoReply(t *testing.T) {
	f := &fake{}
	rs := serve(t, f,
		req(nil, "notifications/initialized", nil),
		req(nil, "notifications/cancelled", map[string]any{"requestId": 99}),
		req(nil, "notifications/whatever", map[string]any{"x": 1}),
		req(nil, "ping", nil),
		req(nil, "no/such/method", nil),
		`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"search","arguments":{"text":"亮"}}}`,
		`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"nonesuch"}}`,
		`{"jsonrpc":"2.0","method":"tools/call","params":7}`,
		`{"jsonrpc":"1.0","method":"ping"}`,
		`{"jsonrpc":"2.0","id":5,"result":{}}`, // a response: the server asked nothing
		`{"jsonrpc":"2.0","id":6,"error":{"code":1,"message":"x"}}`,
	)
	if len(rs) != 0 {
		t.Fatalf("want no replies, got %+v", rs)
	}
	if len(f.calls) != 0 {
		t.Fatalf("a notification should not call a tool: %v", f.calls)
	}
}

func TestEOFEndsServe(t *testing.T) {
	s := New(&fake{}, "test")
	var out bytes.Buffer
	if err := s.Serve(context.Background(), strings.NewReader(""), &out); err != nil || out.Len() != 0 {
		t.Fatalf("empty input: %v %q", err, out.String())
	}
	// The last line needs no newline.
	if err := s.Serve(context.Background(), strings.NewReader(req(1, "ping", nil)), &out); err != nil || !strings.Contains(out.String(), `"id":1`) {
		t.Fatalf("unterminated last line: %v %q", err, out.String())
	}
	// A pipe whose writer closes.
	pr, pw := io.Pipe()
	done := make(chan error)
	go func() { done <- s.Serve(context.Background(), pr, io.Discard) }()
	pw.Write([]byte(req(1, "ping", nil) + "\n"))
	pw.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("closed input: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return when its input closed")
	}
	// A read error other than the end is returned.
	if err := s.Serve(context.Background(), io.MultiReader(strings.NewReader("\n"), errReader{}), io.Discard); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("read error: %v", err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestContextEndsServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	defer pw.Close()
	done := make(chan error)
	go func() { done <- New(&fake{}, "test").Serve(ctx, pr, io.Discard) }()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("want context.Canceled, got %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return when its context ended")
	}
}

// The end of Serve's context cancels the call under way, and Serve
// returns once it has.
func TestContextEndsACallUnderWay(t *testing.T) {
	b := &slow{started: make(chan struct{}, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	defer pw.Close()
	done := make(chan error)
	go func() { done <- New(b, "test").Serve(ctx, pr, io.Discard) }()
	for _, l := range append(handshake[:len(handshake):len(handshake)], call(1, "search", map[string]any{"text": "亮"})) {
		fmt.Fprintln(pw, l)
	}
	<-b.started
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("want context.Canceled, got %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return when its context ended during a call")
	}
}

func TestLineTooLong(t *testing.T) {
	s := New(&fake{}, "test")
	s.MaxLine = 100
	var out bytes.Buffer
	in := call(1, "search", map[string]any{"text": strings.Repeat("亮", 200)}) + "\n" + req(2, "ping", nil) + "\n"
	if err := s.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	rs := parseReplies(t, out.Bytes())
	if len(rs) != 2 || rs[0].Error == nil || rs[0].Error.Code != CodeInvalidRequest || !strings.Contains(rs[0].Error.Message, "too long") || string(rs[1].ID) != "2" {
		t.Fatalf("want a too-long error then the pong: %+v", rs)
	}
	// The default limit takes a line far longer than bufio's buffer.
	out.Reset()
	long := strings.Join(handshake, "\n") + "\n" + call(3, "search", map[string]any{"text": strings.Repeat("亮", 100_000)})
	if err := New(&fake{}, "test").Serve(context.Background(), strings.NewReader(long), &out); err != nil {
		t.Fatal(err)
	}
	if text, isErr := toolText(t, byID(t, parseReplies(t, out.Bytes()), "3")); isErr || !strings.Contains(text, strings.Repeat("亮", 100_000)) {
		t.Fatal("a 300 KB line should be read whole")
	}
}

// slow blocks each search until its context ends, telling when it starts.
type slow struct {
	fake
	started chan struct{}
}

func (s *slow) Search(ctx context.Context, _ SearchArgs) (any, error) {
	s.started <- struct{}{}
	<-ctx.Done()
	return nil, ctx.Err()
}

func TestPingWhileACallRunsAndCancel(t *testing.T) {
	b := &slow{started: make(chan struct{}, 1)}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error)
	go func() { done <- New(b, "test").Serve(context.Background(), inR, outW); outW.Close() }()
	replies := bufio.NewScanner(outR)
	for _, l := range handshake {
		fmt.Fprintln(inW, l)
	}
	if !replies.Scan() || !strings.Contains(replies.Text(), `"id":"init"`) {
		t.Fatalf("initialize: %q", replies.Text())
	}

	fmt.Fprintln(inW, call(1, "search", map[string]any{"text": "亮"}))
	<-b.started
	fmt.Fprintln(inW, req(2, "ping", nil))
	if !replies.Scan() || !strings.Contains(replies.Text(), `"id":2`) {
		t.Fatalf("a ping should be answered while a call runs: %q", replies.Text())
	}
	fmt.Fprintln(inW, req(nil, "notifications/cancelled", map[string]any{"requestId": 1, "reason": "user"}))
	fmt.Fprintln(inW, req(3, "ping", nil))
	if !replies.Scan() || !strings.Contains(replies.Text(), `"id":3`) {
		t.Fatalf("want the pong only: %q", replies.Text())
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if replies.Scan() {
		t.Fatalf("a cancelled call gets no reply: %q", replies.Text())
	}
}

// Tool calls run one at a time, in the order they came: one that waits
// its turn and is cancelled never reaches the backend and gets no reply,
// nor does the running one when it is cancelled; the next then runs. An id
// still in use is refused.
func TestToolCallsWaitTheirTurn(t *testing.T) {
	b := &slow{started: make(chan struct{}, 1)}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error)
	go func() { done <- New(b, "test").Serve(context.Background(), inR, outW); outW.Close() }()
	replies := bufio.NewScanner(outR)
	next := func() reply {
		t.Helper()
		if !replies.Scan() {
			t.Fatal("no reply")
		}
		return parseReplies(t, replies.Bytes())[0]
	}
	for _, l := range handshake {
		fmt.Fprintln(inW, l)
	}
	next()

	fmt.Fprintln(inW, call(1, "search", map[string]any{"text": "亮"}))
	<-b.started
	fmt.Fprintln(inW, call(2, "entity", map[string]any{"name": "nobody"}))
	fmt.Fprintln(inW, call(3, "entity", map[string]any{"name": "孔明"}))
	fmt.Fprintln(inW, call(1, "entity", map[string]any{"name": "孔明"}))
	if r := next(); r.Error == nil || r.Error.Code != CodeInvalidRequest || string(r.ID) != "null" || !strings.Contains(r.Error.Message, "id 1") {
		t.Fatalf("a call reusing the id of one under way: %+v", r)
	}
	fmt.Fprintln(inW, req(nil, "notifications/cancelled", map[string]any{"requestId": 2}))
	fmt.Fprintln(inW, req(4, "ping", nil))
	if r := next(); string(r.ID) != "4" {
		t.Fatalf("a ping should be answered while calls wait: %+v", r)
	}
	b.mu.Lock()
	if len(b.calls) != 0 {
		t.Fatalf("a call ran beside the one under way: %v", b.calls)
	}
	b.mu.Unlock()
	fmt.Fprintln(inW, req(nil, "notifications/cancelled", map[string]any{"requestId": 1}))
	if r := next(); string(r.ID) != "3" {
		t.Fatalf("after the cancelled calls, the next: %+v", r)
	} else if text, _ := toolText(t, r); !strings.Contains(text, "孔明") {
		t.Fatalf("call 3: %s", text)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if replies.Scan() {
		t.Fatalf("a cancelled call gets no reply: %q", replies.Text())
	}
	if strings.Join(b.calls, " ") != "entity" {
		t.Fatalf("the backend ran %v; the call cancelled before its turn should not run", b.calls)
	}
}

// FuzzServeLine feeds arbitrary lines to the server: it must not panic,
// every reply must be a JSON-RPC response, and it must go on serving.
func FuzzServeLine(f *testing.F) {
	for _, s := range []string{
		"", "{", "[]", "null", `"x"`, "42", "{}", `{"jsonrpc":"2.0"}`,
		req(1, "initialize", map[string]any{"protocolVersion": "2025-06-18"}),
		req(1, "tools/list", nil),
		req("a", "ping", nil),
		req(nil, "notifications/initialized", nil),
		call(2, "search", map[string]any{"text": "亮", "limit": 3}),
		call(3, "ask", map[string]any{"question": "诸葛亮字什么？", "options": []map[string]string{{"letter": "A", "text": "孔明"}}}),
		call(4, "timeline", map[string]any{"from": -1e300}),
		call(5, "entity", map[string]any{"name": "nobody"}),
		call(6, "relate", map[string]any{"head": 1, "tail": nil}),
		`{"jsonrpc":"2.0","id":1e999,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":-0.5,"method":"tools/call","params":{"name":"search","arguments":{"text":"\ud800"}}}`,
		"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"ping\"}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var out bytes.Buffer
		s := New(&fake{}, "fuzz")
		s.MaxLine = 1 << 16
		in := line + "\n" + req("fuzz-ping", "ping", nil) + "\n"
		if err := s.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
			t.Fatalf("Serve: %v", err)
		}
		pong := false
		for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("reply is not a JSON object: %v\n%q", err, l)
			}
			if string(m["jsonrpc"]) != `"2.0"` {
				t.Fatalf("reply without jsonrpc 2.0: %s", l)
			}
			id, ok := m["id"]
			if !ok || !(string(id) == "null" || isValidID(id)) {
				t.Fatalf("reply with a bad id: %s", l)
			}
			_, hasResult := m["result"]
			e, hasError := m["error"]
			if hasResult == hasError {
				t.Fatalf("a reply has a result or an error: %s", l)
			}
			if hasError {
				var rerr struct {
					Code    *int    `json:"code"`
					Message *string `json:"message"`
				}
				if json.Unmarshal(e, &rerr) != nil || rerr.Code == nil || rerr.Message == nil {
					t.Fatalf("a bad error object: %s", l)
				}
			}
			if string(id) == `"fuzz-ping"` && hasResult {
				pong = true
			}
		}
		if !pong {
			t.Fatalf("the server stopped answering after %q:\n%s", line, out.String())
		}
	})
}
