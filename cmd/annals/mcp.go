package main

import (
	"context"
	"errors"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/mcp"
)

func (a *app) mcpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve the workspace's search, entity, ask, relate and timeline as MCP tools over stdio",
		Long: `Runs a Model Context Protocol server on standard input and output, so that an
agent (Claude Desktop, an IDE, any MCP client) can read the workspace: JSON-RPC
2.0, one message a line; logs go to standard error (none with --quiet).

The tools, each returning JSON:
  search    every occurrence of a string, in context, cited (text, limit, offset)
  entity    an entity by name or alias with its cited facts (name, relations, mentions)
  ask       a question answered with citations (question, mode, options, agent)
  relate    how two entities are related (head, tail, top, no_feedback)
  timeline  dated facts of a person or a window of years (name, from, to, type, limit)

Everything is offline unless annals.yaml configures an LLM, as for "annals ask".
relate only reads unless the client passes no_feedback: false, which writes what
it found back into the graph (revert with "annals feedback"). The client starts
the server and stops it by closing its input.`,
		Example: `  # a client's configuration (Claude Desktop: claude_desktop_config.json)
  {
    "mcpServers": {
      "annals": {
        "command": "annals",
        "args": ["mcp", "--workspace", "/path/to/.annals"]
      }
    }
  }

  # by hand: one message a line, the handshake first
  printf '%s\n' \
    '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}' \
    '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"entity","arguments":{"name":"孔明"}}}' | annals mcp`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				s := mcp.New(mcpBackend{ws}, buildVersion())
				if !a.quiet {
					s.Log = a.errOut
					a.warnf("annals mcp: serving %s on stdio\n", ws.Dir)
				}
				err := s.Serve(cmd.Context(), cmd.InOrStdin(), a.out)
				if errors.Is(err, context.Canceled) {
					return nil // interrupted: a normal way to stop
				}
				return err
			})
		},
	}
}

// buildVersion is the module's version when built from a release, else
// "dev".
func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// mcpBackend answers the MCP tools from a workspace.
type mcpBackend struct{ ws *annals.Workspace }

func (b mcpBackend) Search(ctx context.Context, args mcp.SearchArgs) (any, error) {
	return b.ws.Search(ctx, args.Text, annals.SearchOptions{Limit: args.Limit, Offset: args.Offset})
}

func (b mcpBackend) Entity(ctx context.Context, args mcp.EntityArgs) (any, error) {
	return b.ws.Entity(ctx, args.Name, annals.EntityOptions{Relations: args.Relations, Mentions: args.Mentions})
}

func (b mcpBackend) Ask(ctx context.Context, args mcp.AskArgs) (any, error) {
	opts := annals.AskOptions{Mode: args.Mode, Agent: args.Agent, Delta: -1}
	for _, o := range args.Options {
		opts.Options = append(opts.Options, annals.AnswerOption{Letter: o.Letter, Text: o.Text})
	}
	ans, err := b.ws.Ask(ctx, args.Question, opts)
	if err != nil {
		return nil, err
	}
	// The answer and its citations are what an agent reads; every item
	// retrieval found would fill its context many times over.
	ans.Items = nil
	return ans, nil
}

func (b mcpBackend) Relate(ctx context.Context, args mcp.RelateArgs) (any, error) {
	res, err := b.ws.Relate(ctx, args.Head, args.Tail, annals.RelateOptions{Top: args.Top, NoFeed: args.NoFeedback})
	if err != nil {
		return nil, err
	}
	for i := range res.Paths {
		res.Paths[i].Explain = nil // the EF-IDF breakdown, as "annals relate" without --explain
	}
	return res, nil
}

func (b mcpBackend) Timeline(ctx context.Context, args mcp.TimelineArgs) (any, error) {
	items, err := b.ws.Timeline(ctx, args.Name, annals.TimelineOptions{From: args.From, To: args.To, Type: args.Type, Limit: args.Limit})
	if err != nil {
		return nil, err
	}
	if items == nil {
		items = []annals.TimelineItem{}
	}
	return map[string]any{"items": items}, nil
}
