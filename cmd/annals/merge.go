package main

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
)

func (a *app) mergeCmd() *cobra.Command {
	var undo int64
	var reason string
	cmd := &cobra.Command{
		Use:   "merge [MAIN OTHER…]",
		Short: "List, make or undo entity merges",
		Long: `Without arguments, lists the merges an LLM or a person recorded. With names,
records that they are one entity whose main name is the first. --undo ID
reverses a merge; the names separate again at once.`,
		Example: `  annals merge
  annals merge 曹操 魏武 --reason "魏武 is 曹操's posthumous style"
  annals merge --undo 3`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				ctx := cmd.Context()
				switch {
				case undo > 0:
					if err := ws.UndoMerge(ctx, undo, a.waiting); err != nil {
						return err
					}
					if a.json {
						return a.printJSON(map[string]int64{"undone": undo})
					}
					a.printf("merge %d undone\n", undo)
					return nil
				case len(args) >= 2:
					m, err := ws.MergeNames(ctx, args, reason, a.waiting)
					if err != nil {
						return err
					}
					if a.json {
						return a.printJSON(m)
					}
					a.printf("merge %d: %s ← %s\n", m.ID, m.Canonical, strings.Join(m.Names, "、"))
					return nil
				case len(args) == 1:
					return cmd.Usage()
				}
				list, err := ws.Merges(ctx)
				if err != nil {
					return err
				}
				if a.json {
					if list == nil {
						list = []annals.Merge{}
					}
					return a.printJSON(list)
				}
				for _, m := range list {
					state := ""
					if m.UndoneAt != "" {
						state = "  (undone " + m.UndoneAt + ")"
					}
					a.printf("%4s  %s [%s] ← %s  by %s: %s%s\n", strconv.FormatInt(m.ID, 10), m.Canonical, m.Type,
						strings.Join(m.Names, "、"), m.Source, m.Reason, state)
				}
				return nil
			})
		},
	}
	cmd.Flags().Int64Var(&undo, "undo", 0, "undo the merge with this id")
	cmd.Flags().StringVar(&reason, "reason", "", "why the names are one entity (kept with the merge)")
	return cmd
}
