package main

import (
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
)

func (a *app) evalBioCmd() *cobra.Command {
	var profiles, book string
	var misses, limit int
	var heldOut bool
	cmd := &cobra.Command{
		Use:   "bio",
		Short: "Score profiles: the 字 and native place of each person against their biography's opening",
		Long: `Reads people with their 字 and native place (JSONL: name, zi, native_place,
source), reads each one's profile from the current workspace as annals bio
does, and prints per book how many 字 and native places it got right, with the
time a profile took and the misses. The default set holds the openings of the
biographies of 汉书, 后汉书 and 三国志 (X字Y，Z人也), written by
internal/eval/qa/devset/gen from the First Four Histories.

With --held-out it writes each person's biography with their own chapter
left out of what it may rest on, and compares it with their part of that
chapter: ROUGE-1/2/L over characters, the share of the facts it states that
the chapter states too, and the share of sentences with a fact that neither
the chapter nor the sentence's own citations state.`,
		Example: "  annals eval bio\n  annals eval bio --held-out --book 三国志\n  annals eval bio --profiles people.jsonl --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cases, err := annals.LoadProfileCases(profiles)
			if err != nil {
				return err
			}
			if book != "" {
				kept := cases[:0]
				for _, c := range cases {
					if strings.HasPrefix(c.Source, book+"/") {
						kept = append(kept, c)
					}
				}
				cases = kept
			}
			if limit > 0 && limit < len(cases) {
				cases = cases[:limit]
			}
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				if heldOut {
					rep, err := ws.EvalBiographies(cmd.Context(), cases)
					if err != nil {
						return err
					}
					if a.json {
						return a.printJSON(rep)
					}
					a.printf("%d biographies, %d sentences, each without its person's own chapter\n", rep.People, rep.Sentences)
					a.printf("against the chapter: ROUGE-1 %.3f  ROUGE-2 %.3f  ROUGE-L %.3f\n", rep.R1, rep.R2, rep.RL)
					a.printf("facts the chapter states too: %d/%d (%.3f)\n", rep.Supported, rep.Facts, rep.Precision)
					a.printf("sentences with a fact neither the chapter nor their citations state: %d (%.3f)\n", rep.Hallucinated, rep.Rate)
					a.printf("%.1f ms a biography\n", rep.MeanMillis)
					return nil
				}
				rep, err := ws.EvalProfiles(cmd.Context(), cases)
				if err != nil {
					return err
				}
				if a.json {
					return a.printJSON(rep)
				}
				line := func(name string, s *annals.ProfileScore) {
					a.printf("%-8s %4d people  字 %d/%d  native place %d/%d  accuracy %.3f  not found %d\n",
						name, s.People, s.Zi, s.ZiAsked, s.Place, s.PlaceAsked, s.Accuracy, s.NotFound)
				}
				var books []string
				for b := range rep.Books {
					books = append(books, b)
				}
				sort.Strings(books)
				for _, b := range books {
					line(b, rep.Books[b])
				}
				line("all", &rep.All)
				a.printf("profile and biography: %.1f ms mean, %.1f ms worst\n", rep.All.MeanMillis, rep.All.WorstMillis)
				for i, m := range rep.Misses {
					if i == misses {
						a.printf("  … %d more (--misses)\n", len(rep.Misses)-misses)
						break
					}
					a.printf("  %s %s: want %s, got %q\n", m.Name, m.Field, m.Want, m.Got)
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&profiles, "profiles", "internal/bio/openings.jsonl", "people with their 字 and native place (JSONL)")
	cmd.Flags().IntVar(&misses, "misses", 20, "most misses to print")
	cmd.Flags().BoolVar(&heldOut, "held-out", false, "score biographies written without each person's own chapter against it")
	cmd.Flags().StringVar(&book, "book", "", "only the people of one book (汉书, 后汉书, 三国志)")
	cmd.Flags().IntVar(&limit, "limit", 0, "only the first N people")
	return cmd
}
