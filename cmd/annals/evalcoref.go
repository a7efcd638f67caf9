package main

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/eval/coref"
)

func (a *app) evalCorefCmd() *cobra.Command {
	var gold string
	cmd := &cobra.Command{
		Use:   "coref --gold FILE",
		Short: "Score who designations are taken to be: occurrences linked to the right person, pairs kept apart",
		Long: `Reads a gold set of designations in context (CHAPTER, DESIGNATION, PERSON:
every occurrence of the designation in that chapter names the person; and
"apart" lines: two designations, each in its chapter, that name two people)
and scores the current workspace: the share of occurrences whose mention is
linked to an entity of that name, and the pairs whose mentions are not linked
to one entity. internal/eval/coref/gold.tsv is a gold set over the First Four
Histories.`,
		Example: `  annals -w histories/.annals eval coref --gold internal/eval/coref/gold.tsv`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f, err := os.Open(gold)
			if err != nil {
				return err
			}
			defer f.Close()
			g, err := coref.Parse(f)
			if err != nil {
				return fmt.Errorf("%s: %w", gold, err)
			}
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				rep, err := coref.Score(cmd.Context(), chapters{ws}, g)
				if err != nil {
					return err
				}
				if a.json {
					return a.printJSON(map[string]any{"linked": rep.Linked(), "report": rep})
				}
				a.printf("%d occurrences of %d designations: %.3f linked to the right person (%d)\n", rep.Occurrences, len(g.Links), rep.Linked(), rep.Right)
				a.printf("%d pairs: %d kept apart\n", rep.Pairs, rep.KeptApart)
				for _, m := range rep.Merged {
					a.printf("  taken for one: %s\n", m)
				}
				for _, p := range rep.People {
					var wrong []string
					for name, n := range p.Wrong {
						if name == "" {
							name = "(no one)"
						}
						wrong = append(wrong, fmt.Sprintf("%s %d", name, n))
					}
					sort.Strings(wrong)
					a.printf("  %s %3d/%-3d %s\n", pad(p.Person, 6), p.Right, p.Occurrences, strings.Join(wrong, " · "))
				}
				for _, m := range rep.Missing {
					a.printf("  missing: %s\n", m)
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&gold, "gold", "internal/eval/coref/gold.tsv", "the gold set")
	return cmd
}

// chapters reads chapters and their mentions from a workspace.
type chapters struct{ ws *annals.Workspace }

func (c chapters) Chapter(ctx context.Context, key string) (string, []coref.Mention, error) {
	r, err := c.ws.Read(ctx, key)
	if err != nil {
		return "", nil, err
	}
	ms := make([]coref.Mention, len(r.Mentions))
	for i, m := range r.Mentions {
		ms[i] = coref.Mention{Start: m.Start, End: m.End, Entity: m.EntityID, Name: m.Name}
	}
	return r.Text, ms, nil
}
