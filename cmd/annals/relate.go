package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
)

func (a *app) relateCmd() *cobra.Command {
	var opts annals.RelateOptions
	var explain bool
	var batch string
	var rounds int
	cmd := &cobra.Command{
		Use:   "relate A B | --batch PAIRS.jsonl [--rounds N]",
		Short: "How are A and B related? Paths, per-step evidence and a verdict",
		Long: `Finds every relation annals can establish between two entities, directly or
through one other: paths over the Enhanced Knowledge Graph (entities linked to
the chunks that name them, plus the extracted facts) of at most three
entities, ranked by EF-IDF: the mean over a path's entities of how many of
the paths found hold the entity, over the sum of that count for the path's
entities, times how rare the entity is in the corpus (--scoring raw leaves
the count unnormalised). Each step's relation comes from a fact where the
graph has one, else from a cue in the sentence that names both (with an LLM
configured, the model chooses from the schema's relation types); a path with
a step that states no relation is dropped. Two steps compose (father's father
→ grandfather; both served under X → colleagues), and the paths fuse into one
verdict; with an LLM each of the best paths is read on its own and one call
merges the readings.

What is found is written back into the graph (BEKO's feedback): the findings
between the two and the triples of the steps along the paths, each verified
first (offline by the cue that states it; with an LLM by a consistency
judge), with its evidence and the query. What verification refuses stays
inferred, with why, and is not written. List and revert what was written with
"annals feedback". --no-feedback only reads.

--batch runs every pair of a JSONL file ({"head": "…", "tail": "…"} per
line) for --rounds rounds, feeding back after each, and prints per round the
connectivity ratio (the share of pairs with a path), the facts added (and of
them the steps along paths) and the triples verification refused.`,
		Example: `  annals relate 曹操 司马懿
  annals relate 孙策 孙权 --explain
  annals relate --batch pairs.jsonl --rounds 3`,
		Args: func(cmd *cobra.Command, args []string) error {
			if batch != "" {
				return cobra.NoArgs(cmd, args)
			}
			return cobra.ExactArgs(2)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Waiting = a.waiting
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				if batch != "" {
					return a.relateBatch(cmd, ws, batch, rounds, opts)
				}
				res, err := ws.Relate(cmd.Context(), args[0], args[1], opts)
				if err != nil {
					return err
				}
				if a.json {
					if !explain {
						for i := range res.Paths {
							res.Paths[i].Explain = nil
						}
					}
					return a.printJSON(res)
				}
				a.printRelated(res, explain)
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.IntVar(&opts.Top, "top", 0, "paths kept, best EF-IDF first (default 10)")
	f.IntVar(&opts.Budget, "budget", 0, "graph nodes the search may visit (default 200000)")
	f.StringVar(&opts.Scoring, "scoring", "", "how paths are ranked: normalised (BEKO's EF-IDF, each entity's path frequency over the path's sum; the default) or raw (the frequency as it is)")
	f.BoolVar(&explain, "explain", false, "show each path's EF-IDF: every entity's frequency over the paths, normalised over the path, and its IDF")
	f.BoolVar(&opts.NoFeed, "no-feedback", false, "do not write what was found back into the graph")
	f.BoolVar(&opts.AddDocument, "add-document", false, "also add the verdict as a document (findings/relate/A与B.txt) whose entities link to it")
	f.StringVar(&batch, "batch", "", "a JSONL file of pairs to relate")
	f.IntVar(&rounds, "rounds", 1, "with --batch: rounds of relating and feeding back")
	f.BoolVar(&opts.LLM, "llm", false, "use the configured LLM (or OPENAI_BASE_URL) even if annals.yaml names none")
	f.BoolVar(&opts.Offline, "offline", false, "never call an LLM")
	f.IntVar(&opts.MaxTokens, "max-tokens", 0, "token budget of LLM calls (0: none)")
	return cmd
}

func (a *app) printRelated(res *annals.Related, explain bool) {
	a.printf("%s\n\n", res.Verdict)
	for i, p := range res.Paths {
		a.printf("path %d: %s", i+1, strings.Join(p.Names, " — "))
		if explain {
			var parts []string
			for k, e := range p.Explain {
				parts = append(parts, fmt.Sprintf("%s ef=%d ef_norm=%.2f idf=%.2f", p.Names[k], e.EF, e.EFNorm, e.IDF))
			}
			a.printf("   EF-IDF %.2f (%s)", p.Score, strings.Join(parts, "; "))
		}
		a.printf("\n")
		for _, h := range p.Hops {
			head, tail := h.FromName, h.ToName
			if !h.Head {
				head, tail = tail, head
			}
			a.printf("  %s —%s→ %s  [%s, %s]\n", head, h.Relation, tail, h.Source, h.Status)
			if ev := h.Evidence; ev != nil {
				a.printf("    %s [%d,%d) 「%s」\n", ev.Cite, ev.Start, ev.End, ev.Sentence)
			}
		}
	}
	if len(res.Steps) > 0 {
		a.printf("\nsteps along the paths, not yet in the graph:\n")
		for _, s := range res.Steps {
			a.printf("  %s  [%s]", s.Text, s.Status)
			if s.Rejected != "" {
				a.printf("  not written: %s", s.Rejected)
			}
			a.printf("\n")
		}
	}
	if res.Dropped > 0 {
		a.printf("\n%d ranked path(s) left out: a step states no relation.\n", res.Dropped)
	}
	if res.Stopped != "" {
		a.printf("%s\n", res.Stopped)
	}
	if len(res.Feedback) > 0 {
		added := 0
		for _, f := range res.Feedback {
			if f.New {
				added++
			}
		}
		a.printf("\nwritten back: %d new fact(s) of %d found (annals feedback list; annals feedback revert ID)\n", added, len(res.Feedback))
	}
	if res.Document != "" {
		a.printf("the verdict is now the document %s\n", res.Document)
	}
}

func (a *app) feedbackCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "feedback list | revert ID",
		Short: "List or revert the facts relation reasoning wrote into the graph",
	}
	var all bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List the facts relate wrote back, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				fbs, err := ws.FeedbackList(cmd.Context(), all)
				if err != nil {
					return err
				}
				if a.json {
					return a.printJSON(fbs)
				}
				if len(fbs) == 0 {
					a.printf("no facts written back yet (annals relate A B writes them)\n")
				}
				for _, f := range fbs {
					state := ""
					if f.Reverted != "" {
						state = "  (reverted " + f.Reverted + ")"
					}
					via := ""
					if len(f.Via) > 0 {
						via = " via " + strings.Join(f.Via, "、")
					}
					a.printf("%d  %s —%s→ %s  [%s]%s  from %q, %s%s\n", f.ID, f.Head, f.Type, f.Tail, f.Status, via, f.Query, f.Created, state)
					for _, ev := range f.Evidence {
						a.printf("     %s [%d,%d) 「%s」\n", ev.Cite, ev.Start, ev.End, ev.Sentence)
					}
				}
				return nil
			})
		},
	}
	list.Flags().BoolVar(&all, "all", false, "include reverted facts")
	revert := &cobra.Command{
		Use:   "revert ID",
		Short: "Take a written-back fact out of the graph",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil {
				return fmt.Errorf("feedback id %q: want a number from annals feedback list", args[0])
			}
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				if err := ws.RevertFeedback(cmd.Context(), id); err != nil {
					return err
				}
				a.printf("reverted %d\n", id)
				return nil
			})
		},
	}
	cmd.AddCommand(list, revert)
	return cmd
}

func (a *app) relateBatch(cmd *cobra.Command, ws *annals.Workspace, file string, rounds int, opts annals.RelateOptions) error {
	pairs, err := readPairs(file)
	if err != nil {
		return err
	}
	report, err := ws.RelateRounds(cmd.Context(), pairs, rounds, opts, nil)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(report)
	}
	a.printf("%d pairs, %d round(s)\n", len(pairs), len(report))
	a.printf("round  connectivity  connected  facts added  of them steps  rejected  unknown names\n")
	for _, r := range report {
		a.printf("%5d  %11.1f%%  %9d  %11d  %13d  %8d  %13d\n", r.N, 100*r.Connectivity, r.Connected, r.Added, r.Steps, r.Rejected, r.Unknown)
	}
	return nil
}

// readPairs reads a JSONL file of pairs: {"head": "…", "tail": "…"} per
// line, optionally with the relation types that hold ("relations").
func readPairs(path string) ([]annals.RelatePair, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read pairs: %w", err)
	}
	var out []annals.RelatePair
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		var p annals.RelatePair
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			return nil, fmt.Errorf("%s:%d: %w (want {\"head\": \"…\", \"tail\": \"…\"})", path, i+1, err)
		}
		if strings.TrimSpace(p.Head) == "" || strings.TrimSpace(p.Tail) == "" {
			return nil, fmt.Errorf("%s:%d: a pair needs a head and a tail", path, i+1)
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no pairs", path)
	}
	return out, nil
}
