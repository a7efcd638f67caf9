package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/store/sqlstore"
)

func (a *app) migrateCmd() *cobra.Command {
	var to string
	cmd := &cobra.Command{
		Use:   "migrate --to postgres://…|FOLDER",
		Short: "Copy the workspace's graph into PostgreSQL, or back into a folder",
		Long: `Copies every table of the workspace's store (documents, chunks, facts with
their evidence, aliases, vectors, dates, communities, feedback, the LLM
cache), ids and all, into an empty store:

  --to postgres://USER:PASSWORD@HOST:5432/DATABASE
        a PostgreSQL database (its schema is made on first use)
  --to FOLDER
        a folder that becomes a workspace with its own SQLite file

The copy reads one snapshot and writes one transaction: a copy that fails
leaves the destination as it was, and the workspace is never changed. Then
point the servers at the new store: store: in annals.yaml, or ANNALS_STORE.`,
		Example: `  annals migrate --to postgres://annals:secret@db.example.org:5432/annals
  ANNALS_STORE=postgres://annals:secret@db.example.org/annals annals migrate --to ./backup`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if to == "" {
				return fmt.Errorf("give --to: a postgres:// URL or a folder")
			}
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				var total int
				progress := func(table string, rows int) {
					total += rows
					if !a.quiet && !a.json {
						a.warnf("  %-18s %9d rows\n", table, rows)
					}
				}
				if err := ws.Migrate(cmd.Context(), to, progress, a.waiting); err != nil {
					return err
				}
				where := to
				if sqlstore.IsPostgresURL(to) {
					where = sqlstore.Redact(to)
				}
				if a.json {
					return a.printJSON(map[string]any{"to": where, "rows": total})
				}
				if !a.quiet {
					hint := "store: " + where + " in annals.yaml, or ANNALS_STORE"
					if !strings.Contains(where, "://") {
						hint = "annals -w " + where + " …"
					}
					a.printf("copied %d rows to %s; use it with %s\n", total, where, hint)
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&to, "to", "", "a postgres:// URL or a folder")
	return cmd
}
