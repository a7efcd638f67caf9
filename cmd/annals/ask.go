package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/eval/qa"
)

func (a *app) askCmd() *cobra.Command {
	var opts annals.AskOptions
	var options []string
	var trace bool
	var file string
	cmd := &cobra.Command{
		Use:   "ask QUESTION | --file QUESTIONS.jsonl",
		Short: "Answer a question from the graph and the texts, with citations",
		Long: `Finds what the question names (entities and their aliases, years, the kind of
answer it wants), retrieves by several routes (entities, facts, passages by BM25
and by vectors, paths between the entities, a window of years, entities by
their vectors, a depth-first walk from a single entity, and with
--triple-vector facts by their vectors) and answers.

Offline, the answer is extractive: the facts that answer a typed question (字,
offices, kin, death, native place, allegiance) phrased by a template, else the
sentence that best answers it, else "unable to answer". With an LLM configured,
the model picks the evidence and writes the answer: in reject mode (the
default) only from the evidence, in open mode adding what it knows, marked.

Multiple choice: give the options with --option A="…" (repeated), or a JSONL
file of questions with --file (question, options as a list lettered A, B, C …
or an object letter → text; one answer line each, JSON lines with --json).
Options less plausible than --theta are dropped before the final choice.`,
		Example: `  annals ask 诸葛亮字什么
  annals ask "诸葛亮的儿子的字是什么" --agent --trace
  annals ask "建兴十二年谁卒于军中？" --json
  annals ask "诸葛亮卒于何年？" --option A=二三四年 --option B=二二三年`,
		Args: func(cmd *cobra.Command, args []string) error {
			if file != "" {
				return cobra.NoArgs(cmd, args)
			}
			return cobra.ExactArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Waiting = a.waiting
			if file != "" {
				return a.askFile(cmd, file, opts)
			}
			for _, o := range options {
				letter, text, ok := strings.Cut(o, "=")
				letter = strings.ToUpper(strings.TrimSpace(letter))
				if !ok || letter == "" || strings.TrimSpace(text) == "" {
					return fmt.Errorf("--option %q: want LETTER=TEXT, e.g. --option A=\"…\"", o)
				}
				opts.Options = append(opts.Options, annals.AnswerOption{Letter: letter, Text: strings.TrimSpace(text)})
			}
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				ans, err := ws.Ask(cmd.Context(), args[0], opts)
				if err != nil {
					return err
				}
				if a.json {
					if !trace {
						ans.Trace = nil
					}
					return a.printJSON(ans)
				}
				a.printAnswer(ans, trace)
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&file, "file", "", "answer every question of a JSONL file")
	f.StringVar(&opts.Mode, "mode", annals.ModeReject, "reject (only from the evidence) or open (the model may add what it knows)")
	f.StringArrayVar(&options, "option", nil, "a multiple-choice option, LETTER=TEXT (repeat)")
	f.Float64Var(&opts.Theta, "theta", 0, "drop options less plausible than this share (default 0.15; negative keeps all)")
	f.BoolVar(&opts.Agent, "agent", false, "decompose the question into steps and reflect")
	f.BoolVar(&trace, "trace", false, "show the agent's steps")
	f.IntVar(&opts.MaxSteps, "steps", 0, "most agent steps (default 4)")
	f.IntVar(&opts.TopK, "top-k", 0, "evidence items the answer reads (default 15)")
	f.IntVar(&opts.Delta, "delta", 1, "± years of the temporal window")
	routeFlags(cmd, &opts)
	f.BoolVar(&opts.LLM, "llm", false, "use the LLM endpoint of OPENAI_BASE_URL even if none is configured")
	f.BoolVar(&opts.Offline, "offline", false, "never call an LLM")
	f.IntVar(&opts.MaxTokens, "max-tokens", 0, "token budget of LLM calls (0: none)")
	return cmd
}

// askFile answers each question of a JSONL file in turn.
func (a *app) askFile(cmd *cobra.Command, path string, opts annals.AskOptions) error {
	qs, err := qa.Load(path, qa.FormatJSONL)
	if err != nil {
		return err
	}
	return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
		for _, q := range qs {
			o := opts
			o.Options = nil
			for _, c := range q.Options {
				o.Options = append(o.Options, annals.AnswerOption{Letter: c.Letter, Text: c.Text})
			}
			ans, err := ws.Ask(cmd.Context(), q.Question, o)
			if err != nil {
				return fmt.Errorf("question %s: %w", q.ID, err)
			}
			if a.json {
				line, err := json.Marshal(emptyLists(map[string]any{"id": q.ID, "answer": ans.Answer, "choice": ans.Choice,
					"answered": ans.Answered, "citations": ans.Citations}))
				if err != nil {
					return err
				}
				a.printf("%s\n", line)
				continue
			}
			a.printf("%s  %s\n", q.ID, q.Question)
			a.printAnswer(ans, false)
			a.printf("\n")
		}
		return nil
	})
}

func (a *app) printAnswer(ans *annals.Answer, trace bool) {
	if trace {
		for _, s := range ans.Trace {
			a.printf("step %d: %s\n  → %s\n", s.N, s.Question, s.Answer)
			if s.Thought != "" {
				a.printf("  (%s)\n", s.Thought)
			}
		}
		if len(ans.Trace) > 0 {
			a.printf("\n")
		}
	}
	a.printf("%s\n", lines(ans.Answer))
	if ans.Answered && len(ans.Options) == 0 {
		a.printf("(confidence %.2f%s%s)\n", ans.Confidence, readNote(ans), alsoMeant(ans))
	}
	if ans.Own {
		a.printf("(includes the model's own knowledge, marked in the answer)\n")
	}
	for _, o := range ans.Options {
		mark := " "
		if o.Letter == ans.Choice {
			mark = "*"
		}
		state := fmt.Sprintf("plausibility %.2f, support %.2f", o.Plausibility, o.Score)
		if !o.Kept {
			state = fmt.Sprintf("plausibility %.2f, dropped", o.Plausibility)
		}
		a.printf("%s %s. %s  (%s)\n", mark, o.Letter, o.Text, state)
	}
	if len(ans.Citations) > 0 {
		a.printf("\n")
	}
	for _, c := range ans.Citations {
		a.printf("[%d] %s [%d,%d) 「%s」\n", c.N, c.Cite, c.Start, c.End, strings.TrimSpace(c.Sentence))
	}
}

// readNote says an answer was read from sentences at question time rather
// than from a fact of the graph.
func readNote(ans *annals.Answer) string {
	if ans.Method != "reading" {
		return ""
	}
	return "; read from the sentences, not yet a fact of the graph"
}

// alsoMeant names the other people the question's subject may mean.
func alsoMeant(ans *annals.Answer) string {
	if ans.Analysis == nil || len(ans.Analysis.Others) == 0 {
		return ""
	}
	names := make([]string, len(ans.Analysis.Others))
	for i, e := range ans.Analysis.Others {
		names[i] = e.Name
	}
	return "; also called so: " + strings.Join(names, ", ")
}

// routeFlags are the flags of the retrieval routes ask and eval qa share.
func routeFlags(cmd *cobra.Command, opts *annals.AskOptions) {
	f := cmd.Flags()
	f.Float64Var(&opts.EntitySim, "entity-sim", 0,
		"δ: the least cosine between the question (with its options) and an entity's vector for the entity-vector route; 0 leaves it off ("+
			fmt.Sprint(annals.SuggestedEntitySim)+" suits the built-in embedder)")
	f.BoolVar(&opts.NoDFS, "no-dfs", false, "do not walk the graph depth-first from a question's single entity")
	f.BoolVar(&opts.TripleVector, "triple-vector", false, "also rank every fact by the cosine of its text with the question (builds the facts' vectors in memory on the first question)")
}
