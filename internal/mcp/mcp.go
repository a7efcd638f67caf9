// Package mcp serves a workspace's read operations (search, entity, ask,
// relate, timeline) as Model Context Protocol tools over stdio: JSON-RPC
// 2.0, one message a line on the input and the output, logs elsewhere.
//
// The protocol (the handshake and version negotiation, ping, tools/list,
// tools/call, cancellation) is the official Go SDK's
// (github.com/modelcontextprotocol/go-sdk); the stdio transport under it
// is this package's own (see transport.go). The server knows nothing of
// the workspace: it validates the arguments against each tool's input
// schema, applies the defaults and calls a Backend, whose results it
// returns as indented JSON text.
package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ProtocolVersion is the MCP revision the server speaks by default.
const ProtocolVersion = "2025-06-18"

// supportedVersions are the revisions whose tool messages the server
// speaks; a client asking for one of them gets it back, any other gets
// ProtocolVersion.
var supportedVersions = []string{ProtocolVersion, "2025-03-26", "2024-11-05"}

// MaxLine is the default limit on one message's size in bytes.
const MaxLine = 4 << 20

// JSON-RPC error codes.
const (
	CodeParseError     = jsonrpc.CodeParseError
	CodeInvalidRequest = jsonrpc.CodeInvalidRequest
	CodeMethodNotFound = jsonrpc.CodeMethodNotFound
	CodeInvalidParams  = jsonrpc.CodeInvalidParams
	CodeInternalError  = jsonrpc.CodeInternalError
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

const instructions = "Tools over a knowledge graph built from historical texts: every fact cites the sentence it came from. " +
	"Use entity for a person, place or office by name or alias, search for every occurrence of a string, " +
	"ask for a question answered with citations, relate for how two entities are connected, and timeline for dated facts."

// Serve reads requests from r and writes responses to w until r ends
// (then it returns nil, once the calls under way have answered) or ctx is
// done (then it returns ctx.Err(), once the call under way, cancelled,
// has returned). Tool calls run one at a time, in order; pings and the
// other requests are answered while one runs, and
// notifications/cancelled stops the call it names, which is then not
// answered.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	if s.Backend == nil {
		return errors.New("mcp: a server needs a backend")
	}
	max := s.MaxLine
	if max <= 0 {
		max = MaxLine
	}
	name, version := s.Name, s.Version
	if name == "" {
		name = "annals"
	}
	if version == "" {
		version = "dev"
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: name, Version: version}, &sdk.ServerOptions{
		Instructions: instructions,
		Logger:       slog.New(sdkLog{slog.NewTextHandler(logWriter{s}, &slog.HandlerOptions{Level: slog.LevelWarn, ReplaceAttr: noTime})}),
		// Tools only, and a list that never changes.
		Capabilities:              &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}},
		SupportedProtocolVersions: supportedVersions,
		InitializedHandler: func(_ context.Context, req *sdk.InitializedRequest) {
			p := req.Session.InitializeParams()
			if p == nil {
				return
			}
			client := "a client"
			if p.ClientInfo != nil {
				client = p.ClientInfo.Name + " " + p.ClientInfo.Version
			}
			s.logf("%s ready (it asked for protocol %s)", client, p.ProtocolVersion)
		},
	})
	for _, t := range tools {
		srv.AddTool(t.describe(), s.handler(ctx, t))
	}
	err := srv.Run(ctx, &transport{r: r, w: w, max: max, logf: s.logf})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

func (s *Server) logf(format string, args ...any) {
	if s.Log != nil {
		fmt.Fprintf(s.Log, "annals mcp: "+format+"\n", args...)
	}
}

// logWriter writes the SDK's log lines to the server's log.
type logWriter struct{ s *Server }

func (l logWriter) Write(p []byte) (int, error) {
	l.s.logf("%s", bytes.TrimRight(p, "\n"))
	return len(p), nil
}

// sdkLog is the SDK's log, less what says that the session ended because
// its context did: the normal way to stop (Ctrl-C).
type sdkLog struct{ slog.Handler }

func (l sdkLog) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "server run cancelled" {
		return nil
	}
	return l.Handler.Handle(ctx, r)
}

func noTime(_ []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}

// describe is the tool as tools/list shows it.
func (t *tool) describe() *sdk.Tool {
	no := false
	a := &sdk.ToolAnnotations{Title: t.title, ReadOnlyHint: t.readOnly, OpenWorldHint: &no}
	if !t.readOnly {
		a.DestructiveHint = &no
		a.IdempotentHint = true
	}
	return &sdk.Tool{Name: t.name, Title: t.title, Description: t.description, InputSchema: t.schema, Annotations: a}
}

// handler answers a call of the tool. Arguments that do not fit the
// schema are a JSON-RPC error (-32602); a failure of the backend is a
// result with isError set; a panic is an internal error (-32603). The
// call's context ends when the client cancels it or serving ends.
func (s *Server) handler(serving context.Context, t *tool) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		args, err := t.parse(req.Params.Arguments)
		if err != nil {
			return nil, &jsonrpc.Error{Code: CodeInvalidParams, Message: fmt.Sprintf("invalid params: %s: %v", t.name, err)}
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(serving, cancel)()
		start := time.Now()
		res, err := s.invoke(ctx, t, args)
		took := time.Since(start).Round(time.Millisecond)
		if ctx.Err() != nil {
			// The transport drops the reply to a call the client
			// cancelled; when serving ends, nothing more is written.
			s.logf("%s: cancelled after %v", t.name, took)
			return nil, ctx.Err()
		}
		if err != nil {
			s.logf("%s: %v (%v)", t.name, err, took)
			var rerr *jsonrpc.Error
			if errors.As(err, &rerr) {
				return nil, err
			}
			return textResult(err.Error(), true), nil
		}
		s.logf("%s: done in %v", t.name, took)
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return nil, &jsonrpc.Error{Code: CodeInternalError, Message: fmt.Sprintf("internal error: marshal the %s result: %v", t.name, err)}
		}
		return textResult(string(bytes.TrimRight(buf.Bytes(), "\n")), false), nil
	}
}

// invoke calls the backend, turning a panic into an internal error.
func (s *Server) invoke(ctx context.Context, t *tool, args any) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.logf("%s panicked: %v\n%s", t.name, p, debug.Stack())
			err = &jsonrpc.Error{Code: CodeInternalError, Message: fmt.Sprintf("internal error in %s: %v", t.name, p)}
		}
	}()
	return t.call(ctx, s.Backend, args)
}

// textResult is a tool's result: one text item. isError is left out of
// the reply when false, which means the same.
func textResult(text string, isError bool) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, IsError: isError}
}
