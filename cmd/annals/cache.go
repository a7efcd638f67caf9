package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
)

func (a *app) cacheCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cache",
		Short: "Count or clear the cached LLM replies",
		Long: `The workspace keeps every complete, valid LLM reply (and embedding), keyed by
the endpoint, the model, the whole request and the prompt's version, so that
re-indexing makes no calls. ` + "`cache stats`" + ` counts the entries and their bytes
per step; ` + "`cache clear`" + ` deletes them, all or one step's, and the calls are made
again when next needed. Entries stored before the cache recorded steps are
counted under "unknown".`,
		Example: "  annals cache stats\n  annals cache clear --step extract\n  annals cache clear",
	}
	cmd.AddCommand(&cobra.Command{
		Use:     "stats",
		Short:   "Entries and bytes of the LLM cache, per step and in all",
		Example: "  annals cache stats\n  annals cache stats --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				st, err := ws.CacheStats(cmd.Context())
				if err != nil {
					return err
				}
				if a.json {
					return a.printJSON(st)
				}
				a.printf("%-12s %9s %12s\n", "step", "entries", "bytes")
				for _, s := range st.Steps {
					a.printf("%-12s %9d %12s\n", s.Step, s.Entries, byteSize(s.Bytes))
				}
				a.printf("%-12s %9d %12s\n", "total", st.Entries, byteSize(st.Bytes))
				return nil
			})
		},
	})
	var step string
	clear := &cobra.Command{
		Use:   "clear",
		Short: "Delete cached LLM replies, all or one step's",
		Long: `Deletes cached LLM replies: all of them, or with --step those of one step
(extract, score, ner, regex, align, answer …, as ` + "`cache stats`" + ` lists them;
"unknown" for entries stored before the cache recorded steps). Documents
already indexed are not re-extracted by this alone; the calls are made again
when a step next needs them.`,
		Example: "  annals cache clear --step extract\n  annals cache clear",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("step") && step == "" {
				return fmt.Errorf("--step needs a step name (see annals cache stats)")
			}
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				n, err := ws.ClearCache(cmd.Context(), step, a.waiting)
				if err != nil {
					return err
				}
				if a.json {
					out := map[string]any{"cleared": n}
					if step != "" {
						out["step"] = step
					}
					return a.printJSON(out)
				}
				if step == "" {
					a.printf("cleared %d cached entries\n", n)
				} else {
					a.printf("cleared %d cached entries of step %s\n", n, step)
				}
				return nil
			})
		},
	}
	clear.Flags().StringVar(&step, "step", "", "only the entries of this step (as cache stats names them)")
	cmd.AddCommand(clear)
	return cmd
}

// byteSize writes a byte count for people: 512 B, 3.4 KiB, 12.0 MiB.
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 3; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGT"[exp])
}
