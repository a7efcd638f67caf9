package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/bio"
	"github.com/spf13/cobra"
)

func (a *app) bioCmd() *cobra.Command {
	var opts annals.BioOptions
	cmd := &cobra.Command{
		Use:   "bio NAME",
		Short: "A person's profile (names, dates, native place, kin, career) and a biography, every item cited",
		Long: `Looks NAME up as entity does and reads the person's profile out of the graph:
names by kind (字, 号, 谥号, designations), birth and death, native place, kin,
offices and titles in time order, places, and associates. Then writes a short
biography from it, each sentence citing the sentences of the sources it rests
on and checked fact by fact against them; a sentence a check fails on is
marked, or left out with --strict.

With an LLM endpoint configured (or --llm), the model writes the biography
from the profile's sentences and checks each sentence fact by fact against
its evidence; a fact the sources do not include goes back to the model, and
an unsupported one to the solver of its error (a date set to the year the
sources give, a source about someone else dropped, more sources looked for,
the person's names given), for --rounds rounds. --offline writes without it.`,
		Example: "  annals bio 诸葛亮\n  annals bio 孔明 --style classical\n  annals bio 曹操 --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				opts.Waiting = a.waiting
				b, err := ws.Bio(cmd.Context(), args[0], opts)
				if err != nil {
					return err
				}
				if a.json {
					return a.printJSON(b)
				}
				a.printBio(b)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&opts.Style, "style", bio.Modern, "modern or classical Chinese")
	cmd.Flags().BoolVar(&opts.Strict, "strict", false, "leave out sentences a check failed on")
	cmd.Flags().BoolVar(&opts.LLM, "llm", false, "write with the configured LLM endpoint (an error if none)")
	cmd.Flags().BoolVar(&opts.Offline, "offline", false, "write without the LLM even where one is configured")
	cmd.Flags().IntVar(&opts.Rounds, "rounds", 2, "most rounds of checking and correcting each sentence (LLM)")
	cmd.Flags().IntVar(&opts.MaxTokens, "max-tokens", 0, "LLM token budget of the run; 0 means none")
	return cmd
}

// kinTree lays relatives out a generation a line, elders first, the
// person on his own generation's line (● 诸葛亮 · 兄弟姊妹 诸葛均), and
// clansmen last.
func kinTree(name string, kin []bio.Item) []string {
	if len(kin) == 0 {
		return nil
	}
	byGen := map[int][]string{0: {"● " + name}}
	gens := []int{0}
	const clan = 100
	for _, it := range kin {
		g := clan
		if it.Generation != nil {
			g = *it.Generation
		}
		if _, ok := byGen[g]; !ok {
			gens = append(gens, g)
		}
		s := it.Kind + " " + it.Text
		if it.Year != nil {
			s += " (" + yearLabel(*it.Year) + ")"
		}
		byGen[g] = append(byGen[g], s)
	}
	sort.Ints(gens)
	var out []string
	for _, g := range gens {
		line := strings.Join(byGen[g], "、")
		if g == 0 {
			line = byGen[0][0]
			if len(byGen[0]) > 1 {
				line += " · " + strings.Join(byGen[0][1:], "、")
			}
		}
		out = append(out, map[int]string{-2: "  ", -1: "  ", 0: "", 1: "  ", 2: "  ", clan: "  "}[g]+line)
	}
	return out
}

// printBio prints the profile, then the biography with its citations
// numbered as they first appear.
func (a *app) printBio(b *annals.Biography) {
	p := b.Profile
	a.printf("%s\n", b.Name)
	names := func(items []bio.Item) string {
		var out []string
		for _, it := range items {
			s := it.Text
			if it.Kind != "" {
				s = it.Kind + " " + s
			}
			switch {
			case it.Era != "":
				s += " (" + it.Era + "，" + yearLabel(*it.Year) + ")"
			case it.Year != nil:
				s += " (" + yearLabel(*it.Year) + ")"
			case it.Reign != "":
				s += " (" + it.Reign + ")"
			}
			out = append(out, s)
		}
		return strings.Join(out, "、")
	}
	line := func(label, value string) {
		if value != "" {
			a.printf("  %s %s\n", pad(label, 10), value)
		}
	}
	if p.Surname != "" {
		line("name", "姓"+p.Surname+" 名"+p.Given)
	}
	line("zi", p.Zi)
	line("names", names(p.Names))
	var called []string
	for _, d := range p.Designations {
		var where []string
		for _, u := range d.Scope {
			where = append(where, fmt.Sprintf("%s %d", u.Part, u.Mentions))
		}
		called = append(called, d.Name+" ("+strings.Join(where, ", ")+")")
	}
	line("called", strings.Join(called, "、"))
	if p.NativePlace != nil {
		line("from", p.NativePlace.Text)
	}
	life := func(it *bio.Item) string {
		if it == nil {
			return "?"
		}
		return yearLabel(*it.Year)
	}
	if p.Born != nil || p.Died != nil {
		line("life", life(p.Born)+" – "+life(p.Died))
	} else if len(p.Active) == 2 {
		line("fl.", yearLabel(p.Active[0])+" – "+yearLabel(p.Active[1]))
	}
	for i, gen := range kinTree(b.Name, p.Kin) {
		label := ""
		if i == 0 {
			label = "kin"
		}
		line(label, gen)
	}
	line("offices", names(p.Offices))
	line("titles", names(p.Titles))
	line("places", names(p.Places))
	line("associates", names(p.Associates))
	if len(b.Biography) == 0 {
		return
	}
	if b.Usage.Calls > 0 {
		a.printf("\n(written and checked by the model: %d calls, %d + %d tokens)", b.Usage.Calls, b.Usage.PromptTokens, b.Usage.CompletionTokens)
	}
	a.printf("\n")
	number := map[string]int{}
	var cites []bio.Citation
	for _, s := range b.Biography {
		var refs []string
		for _, c := range s.Citations {
			k := fmt.Sprintf("%s@%d-%d", c.Doc, c.Start, c.End)
			if number[k] == 0 {
				cites = append(cites, c)
				number[k] = len(cites)
			}
			refs = append(refs, fmt.Sprint(number[k]))
		}
		mark := ""
		if !s.Verified {
			mark = " (unverified)"
		}
		a.printf("%s[%s]%s", s.Text, strings.Join(refs, ","), mark)
	}
	a.printf("\n\n")
	for i, c := range cites {
		a.printf("[%d] %s [%d,%d) 「%s」\n", i+1, c.Cite, c.Start, c.End, strings.TrimSpace(c.Quote))
	}
	if len(b.Others) > 0 {
		var others []string
		for _, o := range b.Others {
			others = append(others, o.Name)
		}
		a.printf("\nthe name may also mean: %s\n", strings.Join(others, "、"))
	}
}
