package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/text"
)

const maxExtractBytes = 64 << 20

func (a *app) extractCmd() *cobra.Command {
	var title, extractor string
	var noT2S bool
	var names []string
	cmd := &cobra.Command{
		Use:   "extract [FILE]",
		Short: "Print the entities and relations found in a text (no workspace needed)",
		Long: `Reads FILE, or standard input, and prints what the offline extractor finds.
With --json it prints one JSON object per line: {"kind":"entity",…} and
{"kind":"triple",…}, offsets in code points into the input.`,
		Example: `  echo '诸葛亮，字孔明，琅邪阳都人也。' | annals extract --json
  annals extract --title 诸葛亮传 chapter.txt
  annals extract --name 马哥 passage.txt`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var r io.Reader = os.Stdin
			name := "standard input"
			if len(args) == 1 && args[0] != "-" {
				f, err := os.Open(args[0])
				if err != nil {
					return err
				}
				defer f.Close()
				r, name = f, args[0]
			}
			data, err := io.ReadAll(io.LimitReader(r, maxExtractBytes+1))
			if err != nil {
				return fmt.Errorf("read %s: %w", name, err)
			}
			if len(data) > maxExtractBytes {
				return fmt.Errorf("%s is larger than %d MiB: index it instead", name, maxExtractBytes>>20)
			}
			s, _, err := text.Decode(data)
			if err != nil {
				return fmt.Errorf("read %s: %w", name, err)
			}
			return a.extract(cmd.Context(), s, annals.ExtractOptions{Schema: a.schema, NoT2S: noT2S, Title: title, Names: names, Extractor: extractor,
				Waiting: a.waiting})
		},
	}
	cmd.Flags().StringVar(&title, "title", "", "chapter title, to resolve short names (诸葛亮传: 亮 → 诸葛亮)")
	cmd.Flags().StringArrayVar(&names, "name", nil, "read NAME as a person wherever it occurs, for a name the recogniser misses (repeatable)")
	cmd.Flags().StringVar(&extractor, "extractor", "", "pattern, llm, ekg or regex (default: llm when ANNALS_LLM_BASE_URL is set, else pattern)")
	cmd.Flags().BoolVar(&noT2S, "no-t2s", false, "keep traditional characters (no conversion to simplified)")
	return cmd
}

func (a *app) extract(ctx context.Context, s string, opts annals.ExtractOptions) error {
	res, lang, err := annals.Extract(ctx, s, opts)
	if err != nil {
		return err
	}
	runes := []rune(s)
	if a.json {
		return extract.WriteJSONL(a.out, runes, 0, res)
	}
	a.printf("language %s: %d entities, %d relations\n", lang, len(res.Entities), len(res.Triples))
	tw := widest(res.Entities, 0, func(e extract.Entity) string { return e.Type })
	for _, e := range res.Entities {
		name := e.Text
		if e.Name != "" && e.Name != e.Text {
			name += " → " + e.Name
		}
		a.printf("  %s %s [%d,%d)\n", pad(e.Type, tw), name, e.Start, e.End)
	}
	for _, t := range res.Triples {
		a.printf("  (%s, %s, %s)  「%s」\n", t.Head.Canonical(), t.Relation, t.Tail.Canonical(),
			strings.TrimSpace(string(runes[t.Evidence.Start:t.Evidence.End])))
	}
	return nil
}

func (a *app) statsCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "stats",
		Short:   "Count documents, entities and relations by type",
		Example: "  annals stats\n  annals stats --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				st, err := ws.Stats(cmd.Context())
				if err != nil {
					return err
				}
				if a.json {
					usage, err := ws.Usage(cmd.Context())
					if err != nil {
						return err
					}
					hist, aside, err := ws.ScoreHistogram(cmd.Context())
					if err != nil {
						return err
					}
					return a.printJSON(struct {
						*annals.Stats
						LLMUsage       []annals.UsageRow `json:"llm_usage"`
						ScoreHistogram map[int]int       `json:"score_histogram"`
						KeptAside      int               `json:"kept_aside"`
					}{st, usage, hist, aside})
				}
				a.printf("workspace %s: %d documents, %s characters\n", ws.Dir, st.Documents, thousands(int64(st.Characters)))
				if len(st.Languages) > 0 {
					a.printf("  languages: %s\n", countList(st.Languages))
				}
				a.printStats(st)
				if len(st.Status) > 0 {
					a.printf("  relations by status: %s\n", countList(st.Status))
				}
				return a.printLLMStats(cmd, ws)
			})
		},
	}
}

func (a *app) entityCmd() *cobra.Command {
	var opts annals.EntityOptions
	cmd := &cobra.Command{
		Use:   "entity NAME",
		Short: "Show an entity: its names, facts with cited sentences, and mentions",
		Long: `Looks NAME up among main names, aliases (字, 号 …) and names read in the text,
in simplified or traditional characters, and shows the best match.`,
		Example: "  annals entity 诸葛亮\n  annals entity 孔明 --json\n  annals entity 曹操 --relations 100",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				v, err := ws.Entity(cmd.Context(), args[0], opts)
				if err != nil {
					return err
				}
				if a.json {
					return a.printJSON(v)
				}
				a.printEntity(v)
				return nil
			})
		},
	}
	cmd.Flags().IntVar(&opts.Relations, "relations", 50, "most relations to show")
	cmd.Flags().IntVar(&opts.Mentions, "mentions", 10, "most mentions to show")
	return cmd
}

func (a *app) printEntity(v *annals.EntityView) {
	a.printf("%s  [%s]  %d mentions\n", v.Name, v.Type, v.Mentions)
	if v.Born != nil || v.Died != nil {
		life := func(y *int) string {
			if y == nil {
				return "?"
			}
			return yearLabel(*y)
		}
		a.printf("  life: %s – %s\n", life(v.Born), life(v.Died))
	}
	if v.Description != "" {
		by := ""
		if v.DescribedBy == "llm" {
			by = "  (written by a model from the facts)"
		}
		a.printf("  %s%s\n", v.Description, by)
	}
	// The names by kind, then what the texts state as attributes with the
	// sentence that does; a name stated as an attribute of its kind is
	// listed once, there.
	stated := map[string]bool{}
	for _, at := range v.Stated {
		stated[at.Kind+"\x00"+at.Value] = true
	}
	for kind, names := range v.Attributes {
		var rest []string
		for _, n := range names {
			if !stated[kind+"\x00"+n] {
				rest = append(rest, n)
			}
		}
		if len(rest) > 0 {
			a.printf("  %s: %s\n", kind, strings.Join(rest, "、"))
		}
	}
	for _, at := range v.Stated {
		more := ""
		if at.Support > 1 {
			more = fmt.Sprintf("  (%d sentences)", at.Support)
		}
		a.printf("  %s: %s%s\n", at.Kind, at.Value, more)
		if e := at.Evidence; e != nil {
			a.printf("      「%s」 %s [%d,%d)\n", strings.TrimSpace(e.Sentence), e.Cite, e.Start, e.End)
		}
	}
	if len(v.Relations) > 0 {
		a.printf("facts:\n")
	}
	for _, r := range v.Relations {
		a.printf("  (%s, %s, %s)  %s\n", r.Head, r.Type, r.Tail, r.Status)
		for _, e := range r.Evidence {
			a.printf("      「%s」 %s [%d,%d)\n", strings.TrimSpace(e.Sentence), e.Cite, e.Start, e.End)
		}
	}
	if len(v.Occurrences) > 0 {
		a.printf("mentions:\n")
	}
	for _, m := range v.Occurrences {
		a.printf("  %s [%d,%d)  …%s…\n", m.Cite, m.Start, m.End, strings.ReplaceAll(m.Context, "\n", " "))
	}
	if len(v.Others) > 0 {
		var others []string
		for _, o := range v.Others {
			others = append(others, fmt.Sprintf("%s [%s]", o.Name, o.Type))
		}
		a.printf("the name may also mean: %s\n", strings.Join(others, ", "))
	}
}

func (a *app) entitiesCmd() *cobra.Command {
	var q annals.EntityQuery
	cmd := &cobra.Command{
		Use:     "entities",
		Short:   "List entities, most mentioned first",
		Example: "  annals entities --type 人物 --limit 20\n  annals entities --prefix 诸葛",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				list, err := ws.Entities(cmd.Context(), q)
				if err != nil {
					return err
				}
				if len(list) == 0 && q.Type != "" {
					if err := checkEntityType(cmd.Context(), ws, q.Type); err != nil {
						return err
					}
				}
				if a.json {
					if list == nil {
						list = []annals.Entity{}
					}
					return a.printJSON(list)
				}
				tw := widest(list, 0, func(e annals.Entity) string { return e.Type })
				for _, e := range list {
					a.printf("%6d  %s %s\n", e.Mentions, pad(e.Type, tw), e.Name)
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVarP(&q.Type, "type", "t", "", "only this entity type (人物, 地点, 职官 … or person, place …)")
	cmd.Flags().StringVar(&q.Prefix, "prefix", "", "only names starting with this")
	cmd.Flags().IntVarP(&q.Limit, "limit", "n", 50, "how many")
	cmd.Flags().IntVar(&q.Offset, "offset", 0, "skip this many")
	return cmd
}

// checkEntityType refuses an entity type that neither the workspace's
// schemas (Chinese and general, with the types they grew) nor its entities
// have, listing those there are.
func checkEntityType(ctx context.Context, ws *annals.Workspace, typ string) error {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for _, lang := range []string{"lzh", "en"} {
		s, err := ws.ActiveSchema(ctx, lang)
		if err != nil {
			return err
		}
		for _, e := range s.EntityTypes {
			add(e.Name)
		}
	}
	st, err := ws.Stats(ctx)
	if err != nil {
		return err
	}
	found := make([]string, 0, len(st.EntityTypes))
	for t := range st.EntityTypes {
		found = append(found, t)
	}
	sort.Strings(found)
	for _, t := range found {
		add(t)
	}
	if seen[typ] {
		return nil
	}
	return usageErrorf("--type %q: no such entity type; the types are %s", typ, strings.Join(names, ", "))
}

func (a *app) docsCmd() *cobra.Command {
	var failed bool
	cmd := &cobra.Command{
		Use:   "docs",
		Short: "List the indexed documents, or those a step failed on",
		Long: `Lists the indexed documents: id, language, characters, key and version.

With --failed, lists instead the documents a step failed on (an LLM reply that
was not valid, a call that kept failing): the step, the reason, how many runs
tried the document and when the last did. The next index run tries them again;
an earlier version of such a document keeps its facts meanwhile.`,
		Example: "  annals docs\n  annals docs --json\n  annals docs --failed",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				if failed {
					return a.printFailed(cmd, ws)
				}
				docs, err := ws.Documents(cmd.Context())
				if err != nil {
					return err
				}
				if a.json {
					if docs == nil {
						docs = []annals.Document{}
					}
					return a.printJSON(docs)
				}
				lw := widest(docs, 0, func(d annals.Document) string { return d.Lang })
				kw := widest(docs, 0, func(d annals.Document) string { return d.Key })
				for _, d := range docs {
					a.printf("%5d  %s %7d  %s  %s\n", d.ID, pad(d.Lang, lw), d.Chars, pad(d.Key, kw), d.Version[:12])
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&failed, "failed", false, "list the documents a step failed on, with the reason")
	return cmd
}

// printFailed lists the documents a step failed on.
func (a *app) printFailed(cmd *cobra.Command, ws *annals.Workspace) error {
	fails, err := ws.FailedDocuments(cmd.Context())
	if err != nil {
		return err
	}
	if a.json {
		if fails == nil {
			fails = []annals.FailedDocument{}
		}
		return a.printJSON(fails)
	}
	if len(fails) == 0 {
		a.printf("no failed documents\n")
		return nil
	}
	for _, f := range fails {
		a.printf("%s  %s  %d attempt(s), last %s\n    %s\n", f.Key, f.Step, f.Attempts, f.At, f.Reason)
	}
	a.printf("%d document(s) failed; the next `annals index` of their folder tries them again\n", len(fails))
	return nil
}

func (a *app) rmCmd() *cobra.Command {
	var yes, dryRun bool
	cmd := &cobra.Command{
		Use:   "rm DOC…",
		Short: "Delete documents and the facts only they supported",
		Long: `Each DOC is a document key (as ` + "`annals docs`" + ` lists it), a unique prefix of one,
or an id. The key of a document that failed and was never indexed
(` + "`annals docs --failed`" + `) removes its failure. If a DOC finds no document,
nothing is removed (exit status 3).

rm names the documents and asks before it deletes them, "remove N
document(s) …? [y/N]". --yes deletes without asking. Where no one can answer
(standard input is not a terminal: a script, a pipe) rm refuses unless --yes
is given. --dry-run lists what would be removed and removes nothing.`,
		Example: "  annals rm 三国志/蜀书/诸葛亮传/text.txt\n  annals rm --dry-run 三国志/蜀书/诸葛\n  annals rm -y notes.md records.jsonl#3",
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				docs, err := ws.FindDocuments(cmd.Context(), args)
				if err != nil {
					return err
				}
				if dryRun {
					if a.json {
						return a.printJSON(map[string]any{"dry_run": true, "would_remove": docs})
					}
					for _, d := range docs {
						a.printf("would remove %s\n", docDescription(d))
					}
					a.printf("%d document(s) would be removed; nothing was removed (--dry-run)\n", len(docs))
					return nil
				}
				if !yes {
					if err := a.confirmRemoval(docs); err != nil {
						return err
					}
				}
				p := a.newProgress("removing", "docs")
				removed, err := ws.RemoveDocuments(cmd.Context(), args, annals.RemoveOptions{
					Waiting: a.waitingOn(p),
					Progress: func(pr annals.Progress) {
						p.Set(pr.Documents, pr.Total)
						if pr.Step == "remove" {
							p.Step("removing " + pr.Key)
						} else {
							p.Step(stepLabel(pr.Step))
						}
					},
				})
				p.Finish()
				if err != nil {
					return err
				}
				if a.json {
					return a.printJSON(map[string]any{"removed": removed})
				}
				for _, d := range removed {
					if d.ID == 0 {
						a.printf("removed the failure of %s, which was never indexed\n", d.Key)
						continue
					}
					a.printf("removed %s (%d characters)\n", d.Key, d.Chars)
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "remove without asking")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "list what would be removed, and remove nothing")
	return cmd
}

// docDescription names a document for rm: its key and size, or that only
// its failure is recorded.
func docDescription(d annals.Document) string {
	if d.ID == 0 {
		return d.Key + " (the record of its failure; it was never indexed)"
	}
	return fmt.Sprintf("%s (%d characters)", d.Key, d.Chars)
}

// confirmRemoval asks on the terminal whether to remove docs, and is an
// error unless the answer is yes. Without a terminal to ask on it is a
// usage error that says to give --yes.
func (a *app) confirmRemoval(docs []annals.Document) error {
	keys := make([]string, 0, 3)
	for i, d := range docs {
		if i == 3 {
			keys = append(keys, fmt.Sprintf("and %d more", len(docs)-3))
			break
		}
		keys = append(keys, d.Key)
	}
	what := fmt.Sprintf("%d document(s) (%s)", len(docs), strings.Join(keys, ", "))
	if !a.canAsk() {
		return usageErrorf("rm would remove %s, and standard input is not a terminal to confirm on: give --yes to remove them, or --dry-run to list them", what)
	}
	if len(docs) > 3 {
		for _, d := range docs {
			a.warnf("  %s\n", docDescription(d))
		}
	}
	a.warnf("remove %s and the facts only they support? [y/N] ", what)
	answer, err := bufio.NewReader(a.in).ReadString('\n')
	if err != nil && answer == "" {
		a.warnf("\n")
	}
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "y", "yes":
		return nil
	}
	return errors.New("nothing removed")
}

// waitingOn is what a command tells of its waits: in the progress line p
// when there is one, else as lines on stderr.
func (a *app) waitingOn(p *progress) func(string) {
	if p != nil {
		return p.Wait
	}
	return a.waiting
}

func (a *app) aliasesCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "aliases", Short: "Manage alias dictionaries"}
	var allowUnknown bool
	imp := &cobra.Command{
		Use:   "import FILE",
		Short: "Import an alias dictionary (主名:别名1,别名2, one entity a line)",
		Long: `Reads a plain-text file (UTF-8), one entity a line: its main name, a colon,
then its other names separated by commas:

  曹操:孟德,魏武帝,阿瞒
  诸葛亮：孔明、卧龙

The colon may be full-width (：), and the other names may be separated by , ，
、 ; or ；. Blank lines and lines starting with # are skipped, traditional
characters are read as simplified, and a line without a colon or without
other names is reported and skipped. The names are merged at once, and every
merge remembers the file and line.

Every main name must name an entity of the workspace, by its name, an alias
or a name read in the texts. A file with main names that match no entity is
refused, naming them with their line numbers, and nothing of it is imported;
--allow-unknown imports it all the same (for texts not indexed yet: the
names merge once they are).`,
		Example: "  annals aliases import aliases.txt\n  annals aliases import --allow-unknown later-chapters.txt",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withWorkspace(cmd, false, func(ws *annals.Workspace) error {
				p := a.newProgress("importing aliases", "")
				rep, err := ws.ImportAliasesWith(cmd.Context(), args[0], annals.AliasOptions{
					Waiting:   a.waitingOn(p),
					KnownOnly: !allowUnknown,
					Progress: func(pr annals.Progress) {
						p.Step(aliasStepLabel(pr.Step, args[0]))
					},
				})
				p.Finish()
				if err != nil {
					return err
				}
				if a.json {
					if err := a.printJSON(rep); err != nil {
						return err
					}
				} else {
					for _, p := range rep.Problems {
						a.warnf("warning: %s\n", p)
					}
					a.printf("read %d aliases from %s, %d new\n", rep.Read, rep.File, rep.Added)
				}
				// A file none of whose lines could be read is not in the
				// format: most likely the wrong file, which should not pass
				// as an import of nothing.
				if rep.Read == 0 && len(rep.Problems) > 0 {
					return fmt.Errorf("%s: no line could be read as 主名:别名1,别名2 (%d problem(s))", args[0], len(rep.Problems))
				}
				return nil
			})
		},
	}
	imp.Flags().BoolVar(&allowUnknown, "allow-unknown", false, "import even where a main name matches no entity yet")
	cmd.AddCommand(imp)
	return cmd
}

// aliasStepLabel says what a step of aliases import does.
func aliasStepLabel(step, file string) string {
	switch step {
	case "read":
		return "reading " + file
	case "check":
		return "checking the main names against the entities"
	case "store":
		return "storing the aliases"
	}
	return stepLabel(step)
}

// printLLMStats shows token usage and cost per step, and the histogram of
// process-supervision scores, when an LLM has been used.
func (a *app) printLLMStats(cmd *cobra.Command, ws *annals.Workspace) error {
	usage, err := ws.Usage(cmd.Context())
	if err != nil {
		return err
	}
	if len(usage) > 0 {
		a.printf("LLM usage (all runs):\n")
		a.printUsage(usage)
	}
	hist, aside, err := ws.ScoreHistogram(cmd.Context())
	if err != nil {
		return err
	}
	if len(hist) > 0 {
		a.printf("extraction scores (0–10), facts kept aside under the threshold: %d\n", aside)
		for s := 0; s <= 10; s++ {
			if n := hist[s]; n > 0 {
				a.printf("  %2d %7d %s\n", s, n, strings.Repeat("█", barLen(n, hist)))
			}
		}
	}
	return nil
}

func (a *app) printUsage(rows []annals.UsageRow) {
	for _, u := range rows {
		est := ""
		if u.Estimated {
			est = " (estimated)"
		}
		a.printf("  %-8s %-18s %6d calls (%d cached)  %9d prompt + %8d completion tokens%s  ≈ $%.4f\n",
			u.Step, u.Model, u.Calls, u.Cached, u.PromptTokens, u.CompletionTokens, est, u.Cost)
	}
}

func barLen(n int, hist map[int]int) int {
	most := 1
	for _, v := range hist {
		if v > most {
			most = v
		}
	}
	return 1 + 39*n/most
}
