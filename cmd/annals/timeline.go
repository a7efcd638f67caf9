package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
)

func (a *app) timelineCmd() *cobra.Command {
	var opts annals.TimelineOptions
	var from, to int
	cmd := &cobra.Command{
		Use:   "timeline [NAME]",
		Short: "List a person's dated facts, or what happened between two years, each cited",
		Long: `With NAME, lists the entity's facts that have a year, in order. With --from and
--to, lists every dated fact in that window. Years are astronomical (−121 is
122 BCE); a fact's year comes from the time expression in its sentence, or from
the year in force where the sentence stands (precision "context").`,
		Example: `  annals timeline 诸葛亮
  annals timeline --from 220 --to 234 --type 死亡时间
  annals timeline 孙权 --json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("from") {
				opts.From = &from
			}
			if cmd.Flags().Changed("to") {
				opts.To = &to
			}
			name := ""
			if len(args) == 1 {
				name = args[0]
			}
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				items, err := ws.Timeline(cmd.Context(), name, opts)
				if err != nil {
					return err
				}
				if a.json {
					if items == nil {
						items = []annals.TimelineItem{}
					}
					return a.printJSON(map[string]any{"items": items})
				}
				for _, it := range items {
					var when string
					switch {
					case it.Year != nil:
						when = yearLabel(*it.Year)
						if it.EndYear != nil {
							when += "–" + yearLabel(*it.EndYear)
						}
					case it.Reign != nil:
						when = fmt.Sprintf("%s %d", it.Reign.Ruler, it.Reign.Year)
					}
					how := it.Expression
					if how == "" {
						how = it.Precision
					}
					a.printf("%s (%s, %s, %s)  [%s]\n      「%s」 %s [%d,%d)\n", pad(when, 12), it.Fact.Head, it.Fact.Type, it.Fact.Tail, how,
						strings.TrimSpace(it.Citation.Sentence), it.Citation.Cite, it.Citation.Start, it.Citation.End)
				}
				return nil
			})
		},
	}
	cmd.Flags().IntVar(&from, "from", 0, "first year of the window")
	cmd.Flags().IntVar(&to, "to", 0, "last year of the window")
	cmd.Flags().StringVar(&opts.Type, "type", "", "only this relation type")
	cmd.Flags().IntVarP(&opts.Limit, "limit", "n", 200, "most facts")
	return cmd
}
