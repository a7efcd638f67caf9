package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/eval/qa"
)

func (a *app) evalQACmd() *cobra.Command {
	var dataset, format, corpus, keep string
	var opts annals.QAEvalOptions
	var limit int
	var baseline, anonymize, llmOnly bool
	cmd := &cobra.Command{
		Use:   "qa",
		Short: "Score question answering: multiple-choice accuracy, answer-contains, token F1",
		Long: `Reads questions from a JSONL file (question, optional options and context,
answer) or from the MuSiQue and HotpotQA sample formats, answers each and scores
the answers per question type. When the questions carry context passages (or
--corpus names a corpus file), they are pooled into a corpus and indexed into a
fresh workspace first (kept with --keep DIR); otherwise the questions are asked
of the current workspace. --baseline answers from each question's own gold
context, without retrieval, as a reference point. --anonymize scores the
questions a second time over a copy of the corpus whose person names are
replaced by pseudonyms (in the questions too, revealed again before
scoring): what remains is reasoning over retrieval, not memory of names.

Beside the answers' figures it reports the time (ms/q) and LLM tokens
(tokens/q) per question and, where the data set marks supporting passages
(MuSiQue, HotpotQA), retrieval recall@k: the share of them among the
passages the top-k evidence items come from. --judge has the configured
LLM grade each free answer against the gold as well.`,
		Example: `  annals eval qa --dataset ../shared/data/vi-history-mcq/dev.jsonl
  annals eval qa --dataset ../shared/data/multihop/musique_train.json --corpus ../shared/data/multihop/musique_train_corpus.json
  annals eval qa --dataset questions.jsonl --baseline --json
  annals eval qa --dataset questions.jsonl --top-k 5 --delta 3 --judge`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			qs, err := qa.Load(dataset, format)
			if err != nil {
				return err
			}
			if limit > 0 && limit < len(qs) {
				qs = qs[:limit]
			}
			var passages []qa.Passage
			if corpus != "" {
				if passages, err = qa.LoadCorpus(corpus); err != nil {
					return err
				}
			} else {
				passages = qa.Corpus(qs)
			}
			qa.LinkSupporting(qs, passages)
			report := func(rep *annals.QAReport) error {
				if a.json {
					return a.printJSON(rep)
				}
				if c := qa.Chance(qs); c > 0 {
					a.printf("%d questions; chance %.1f%%\n", len(qs), 100*c)
				}
				return rep.Text(a.out)
			}
			run := func(ws *annals.Workspace) error {
				rep, err := ws.EvaluateQA(ctx, qs, opts)
				if err != nil || !anonymize {
					if err != nil {
						return err
					}
					return report(rep)
				}
				dir, err := os.MkdirTemp("", "annals-anonymised-")
				if err != nil {
					return err
				}
				defer os.RemoveAll(dir)
				if !a.quiet && !a.json {
					a.warnf("indexing the corpus with its names hidden into %s …\n", dir)
				}
				anon, err := ws.EvaluateQAAnonymized(ctx, qs, opts, dir)
				if err != nil {
					return err
				}
				if a.json {
					return a.printJSON(map[string]any{"plain": rep, "anonymized": anon})
				}
				a.printf("plain:\n")
				if err := report(rep); err != nil {
					return err
				}
				a.printf("\nanonymised (person names replaced by pseudonyms in the corpus and the questions):\n")
				return report(anon)
			}
			if baseline {
				rep, err := annals.EvaluateQABaseline(ctx, qs, true)
				if err != nil {
					return err
				}
				return report(rep)
			}
			if llmOnly {
				// Nothing is read: no passages to index, only the
				// workspace's LLM settings to use.
				opts.LLMOnly = true
				return a.withWorkspace(cmd, false, func(ws *annals.Workspace) error {
					rep, err := ws.EvaluateQA(ctx, qs, opts)
					if err != nil {
						return err
					}
					return report(rep)
				})
			}
			if len(passages) == 0 {
				return a.withWorkspace(cmd, true, run)
			}
			dir := keep
			if dir == "" {
				if dir, err = os.MkdirTemp("", "annals-eval-qa-"); err != nil {
					return err
				}
				defer os.RemoveAll(dir)
			}
			root := filepath.Join(dir, "corpus")
			if err := annals.WritePassages(root, passages); err != nil {
				return err
			}
			ws, err := annals.Open(ctx, filepath.Join(dir, ".annals"))
			if err != nil {
				return err
			}
			defer ws.Close()
			if !a.quiet && !a.json {
				a.warnf("indexing %d passages into %s …\n", len(passages), ws.Dir)
			}
			if _, err := ws.Index(ctx, []string{root}, annals.IndexOptions{}); err != nil {
				return fmt.Errorf("index the passages: %w", err)
			}
			return run(ws)
		},
	}
	f := cmd.Flags()
	f.StringVar(&dataset, "dataset", "", "questions: a JSONL file, or a MuSiQue or HotpotQA JSON file")
	f.StringVar(&format, "format", "", "format: "+strings.Join(qa.Formats(), ", ")+" (default: from the file)")
	f.StringVar(&corpus, "corpus", "", "a corpus file to index instead of the questions' pooled contexts")
	f.StringVar(&keep, "keep", "", "index into this folder and keep it")
	f.BoolVar(&baseline, "baseline", false, "answer from each question's gold context, without retrieval")
	f.BoolVar(&llmOnly, "llm-only", false, "answer with the configured LLM alone, reading nothing (the zero-shot baseline)")
	f.BoolVar(&anonymize, "anonymize", false, "score again with person names replaced by pseudonyms in the corpus and the questions, side by side")
	f.BoolVar(&opts.Ask.Agent, "agent", false, "answer in agent mode")
	f.StringVar(&opts.Ask.Mode, "mode", annals.ModeReject, "reject or open")
	f.IntVar(&opts.Ask.TopK, "top-k", 0, "evidence items given to the answer, and over which retrieval recall@k is scored (0: 15)")
	f.IntVar(&opts.Ask.Delta, "delta", 1, "± years of the temporal retrieval window")
	routeFlags(cmd, &opts.Ask)
	f.Float64Var(&opts.Ask.Theta, "theta", 0, "multiple choice: drop options less plausible than this (0: 0.15; negative keeps all)")
	f.BoolVar(&opts.Judge, "judge", false, "have the configured LLM grade each free answer against the gold too (judge% column)")
	f.IntVar(&opts.Workers, "workers", 4, "questions answered at once")
	f.IntVar(&limit, "limit", 0, "only the first N questions (0: all)")
	_ = cmd.MarkFlagRequired("dataset")
	return cmd
}
