package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
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
relate with feedback) must then carry
it as "Authorization: Bearer TOKEN". Reads need no token.`,
		Example: `  annals serve
  curl 'http://127.0.0.1:8080/api/entity/诸葛亮'
  curl -d '{"question":"诸葛亮字什么？"}' http://127.0.0.1:8080/api/ask
  annals serve --root ~/texts      # then: curl -d '{"path":"new-chapters"}' …/api/index
  ANNALS_TOKEN=… annals serve --addr 0.0.0.0:8080`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Token = os.Getenv("ANNALS_TOKEN")
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
	return cmd
}
