package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/server"
)

func (a *app) serveCmd() *cobra.Command {
	opts := annals.ServeOptions{Addr: "127.0.0.1:8080"}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the workspace in a browser and as a JSON HTTP API (described at /api/openapi.json)",
		Long: `Serves the workspace over HTTP: stats, entity search (names and aliases) and
entity pages, the concordance, ask, relate, timelines, date conversion,
documents and feedback, as JSON, and a web interface at /. /api/openapi.json
describes every endpoint.

With --root FOLDER, clients may index files under that folder (POST
/api/index, progress as server-sent events at /api/jobs/ID/events); paths
that lead outside it, by ".." or by a symbolic link, are refused.

It listens on loopback (127.0.0.1:8080) unless --addr says otherwise. On any
other address it refuses to start without a token (ANNALS_TOKEN), and every
request that writes (indexing, deleting a document, reverting feedback,
relate with feedback) must then carry it as "Authorization: Bearer TOKEN".
Reads need no token.

Browsers: a request other than GET must come from this server's own pages
(Origin, Sec-Fetch-Site) and send JSON (Content-Type: application/json), so
that no page on another site can write or make the server work for it; and
the server answers only to its own address, localhost, loopback addresses and
the names given with --allow-host, so that a page whose name was rebound to
this machine (DNS rebinding) gets 403. Programs send JSON too (curl --json).

Each request is bounded: a question of at most 1,000 characters and 26
options, names and search texts of at most 200 characters, top_k up to 100,
relate's top up to 50 and budget up to 1,000,000 nodes (400 beyond, saying
the limit); a read may take at most --read-budget (a question a model answers,
two minutes); work stops when the client hangs up.`,
		Example: `  annals serve
  curl 'http://127.0.0.1:8080/api/entity/诸葛亮'
  curl --json '{"question":"诸葛亮字什么？"}' http://127.0.0.1:8080/api/ask
  annals serve --root ~/texts      # then: curl --json '{"path":"new-chapters"}' …/api/index
  ANNALS_TOKEN=$(openssl rand -hex 24) annals serve --addr 0.0.0.0:8080 --allow-host annals.lan`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if tok, set := os.LookupEnv("ANNALS_TOKEN"); set {
				if err := server.CheckToken(tok); err != nil {
					return fmt.Errorf("ANNALS_TOKEN: %w", err)
				}
				opts.Token = tok
			}
			opts.Version = buildVersion()
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				return ws.Serve(cmd.Context(), opts, func(addr string) {
					a.printf("serving %s on http://%s (open it in a browser; the API is described at http://%s/api/openapi.json); Ctrl-C stops\n", ws.Dir, addr, addr)
				})
			})
		},
	}
	cmd.Flags().StringVar(&opts.Addr, "addr", opts.Addr, "HOST:PORT to listen on")
	cmd.Flags().StringArrayVar(&opts.Roots, "root", nil, "a folder under which clients may start index jobs (repeatable); none: indexing over HTTP is off")
	cmd.Flags().StringArrayVar(&opts.AllowHosts, "allow-host", nil, `a name clients may reach the server by, besides its address and localhost (repeatable; "*": any)`)
	cmd.Flags().DurationVar(&opts.ReadBudget, "read-budget", server.DefaultReadBudget, "the most time one read (search, entity page, offline answer) may take")
	return cmd
}
