package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
)

func (a *app) searchCmd() *cobra.Command {
	var opts annals.SearchOptions
	cmd := &cobra.Command{
		Use:   "search TEXT",
		Short: "Show every occurrence of a word or string in context (a concordance), each cited",
		Long: `Lists every place TEXT occurs in the corpus, one line each: the text before, the
match, the text after, then the citation and the match's offsets [start,end) in
the original document. Traditional characters find their simplified forms (the
texts are searched normalised); words of other scripts match whole, in any
case, diacritics kept. Occurrences are ordered by document and offset.`,
		Example: `  annals search 诸葛亮
  annals search 諸葛亮 --limit 20 --offset 20
  annals search 亮 --context 10
  annals search "Zhuge Liang" --json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Context == 0 {
				opts.Context = -1 // --context 0: none; the API reads 0 as the default
			}
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				c, err := ws.Search(cmd.Context(), strings.Join(args, " "), opts)
				if err != nil {
					return err
				}
				if a.json {
					return a.printJSON(c)
				}
				a.printConcordance(c, opts.Offset)
				return nil
			})
		},
	}
	cmd.Flags().IntVarP(&opts.Limit, "limit", "n", 100, "most occurrences to show")
	cmd.Flags().IntVar(&opts.Offset, "offset", 0, "occurrences to skip (for the next page)")
	cmd.Flags().IntVarP(&opts.Context, "context", "C", 20, "characters of context on each side")
	return cmd
}

// printConcordance prints key-word-in-context lines: contexts padded so
// that the matches line up, wide (CJK) characters counted as two columns.
func (a *app) printConcordance(c *annals.Concordance, offset int) {
	left, right := 0, 0
	for _, o := range c.Occurrences {
		left = max(left, displayWidth(o.Left))
		right = max(right, displayWidth(o.Right))
	}
	for _, o := range c.Occurrences {
		a.printf("%s%s 【%s】 %s%s  %s [%d,%d)\n",
			strings.Repeat(" ", left-displayWidth(o.Left)), o.Left, o.Match,
			o.Right, strings.Repeat(" ", right-displayWidth(o.Right)), o.Cite, o.Start, o.End)
	}
	noun := "occurrences"
	if c.Total == 1 {
		noun = "occurrence"
	}
	if n := len(c.Occurrences); n < c.Total || offset > 0 {
		if n == 0 {
			a.printf("%s %s (none from %d on)\n", thousands(int64(c.Total)), noun, offset+1)
			return
		}
		a.printf("%s %s, showing %d–%d\n", thousands(int64(c.Total)), noun, offset+1, offset+n)
		return
	}
	a.printf("%s %s\n", thousands(int64(c.Total)), noun)
}
