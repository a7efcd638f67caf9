package main

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/community"
	"github.com/spf13/cobra"
)

func (a *app) communitiesCmd() *cobra.Command {
	var limit int
	cmd := &cobra.Command{
		Use:   "communities",
		Short: "List the communities of people, places and groups, largest first",
		Long: `Lists the communities indexing found: groups of people, places, groups and
events that belong together by their links and by what is said of them (see
index.communities in annals.yaml). Each shows its number, size, the years of its
dated facts, its central members and its keywords; annals community ID shows one
in full.`,
		Example: "  annals communities\n  annals communities --limit 0 --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				cs, err := ws.Communities(cmd.Context())
				if err != nil {
					return err
				}
				if limit > 0 && len(cs) > limit {
					cs = cs[:limit]
				}
				if a.json {
					return a.printJSON(cs)
				}
				if len(cs) == 0 {
					a.printf("no communities yet: index a corpus (index.communities must not be off)\n")
					return nil
				}
				for _, c := range cs {
					a.printf("%4d  %s  (%d members%s)\n", c.ID, c.Name, c.Size, years(c))
					a.printf("      members: %s\n", community.MemberNames(&c, 8))
					a.printf("      keywords: %s\n", community.KeywordTerms(&c, len(c.Keywords)))
				}
				return nil
			})
		},
	}
	cmd.Flags().IntVar(&limit, "limit", 30, "most communities to list (0: all)")
	return cmd
}

func (a *app) communityCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "community ID",
		Short: "Show a community: members, keywords, years, key facts with their sentences, summary",
		Long: `Shows one community's report, the four levels of its knowledge tree: the
community, its keywords, its key facts (each with the sentence that states it)
and its central people's names and titles; then a short summary made of its
sentences, and all its members.`,
		Example: "  annals community 3\n  annals community 3 --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil || id < 1 {
				return fmt.Errorf("community %q: give its number (annals communities lists them)", args[0])
			}
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				c, err := ws.Community(cmd.Context(), id)
				if err != nil {
					return err
				}
				if a.json {
					return a.printJSON(c)
				}
				a.printf("community %d: %s\n", c.ID, c.Name)
				a.printf("  %d members%s, found by %s\n", c.Size, years(c.Community), c.Method)
				a.printf("  central: %s\n", community.MemberNames(&c.Community, 12))
				a.printf("  keywords: %s\n", community.KeywordTerms(&c.Community, len(c.Keywords)))
				if w := c.Written; w != nil {
					a.printf("  report (written by %s): %s\n", cmp.Or(w.Model, "an LLM"), w.Title)
					for _, l := range w.Summary {
						var cites []string
						for _, e := range l.Evidence {
							cites = append(cites, fmt.Sprintf("%s [%d,%d)", e.Cite, e.Start, e.End))
						}
						a.printf("    %s  (%s)\n", l.Text, strings.Join(cites, "; "))
					}
				}
				if len(c.Facts) > 0 {
					a.printf("  key facts:\n")
					for _, f := range c.Facts {
						a.printf("    %s %s %s\n", f.Head, f.Type, f.Tail)
						for _, e := range f.Evidence {
							a.printf("      「%s」 %s [%d,%d)\n", strings.TrimSpace(e.Sentence), e.Cite, e.Start, e.End)
						}
					}
				}
				if len(c.Attributes) > 0 {
					a.printf("  names and titles:\n")
					for _, at := range c.Attributes {
						a.printf("    %s %s %s\n", at.Entity, at.Kind, at.Value)
					}
				}
				if len(c.Summary) > 0 {
					a.printf("  summary:\n")
					for _, e := range c.Summary {
						a.printf("    「%s」 %s [%d,%d)\n", strings.TrimSpace(e.Sentence), e.Cite, e.Start, e.End)
					}
				}
				var names []string
				for _, m := range c.AllMembers {
					names = append(names, m.Name)
				}
				a.printf("  all members: %s\n", strings.Join(names, "、"))
				return nil
			})
		},
	}
}

func years(c annals.Community) string {
	if c.From == nil || c.To == nil {
		return ""
	}
	return fmt.Sprintf(", %s–%s", yearLabel(*c.From), yearLabel(*c.To))
}
