package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/eval"
	"github.com/annals-project/annals/internal/eval/qa"
	"github.com/annals-project/annals/internal/relate"
)

// Formats of eval relate's --dataset.
const (
	relateFormatCHisIEC = "chisiec"
	relateFormatJSONL   = "jsonl"
)

func (a *app) evalRelateCmd() *cobra.Command {
	var dataset, format, corpus, keep string
	var rounds, limit int
	var opts annals.RelateOptions
	cmd := &cobra.Command{
		Use:   "relate",
		Short: "Score relation reasoning: per round, macro and micro P/R/F1 of the types found between gold pairs",
		Long: `Reads pairs of names with the relation types that hold between them, indexes a
corpus into a fresh workspace (kept with --keep DIR), relates every pair for
--rounds rounds, feeding back what each round finds (as "annals relate --batch"
does), and scores each round: the distinct types of the findings between the
two, direction ignored, against the gold types, as macro and micro precision,
recall and F1, with the connectivity ratio and the facts added; then per-type
rows for the last round.

The rounds run under each ranking of the paths, a row per scoring and round:
normalised (BEKO's EF-IDF, each entity's path frequency over the sum of the
path's; the default of "annals relate") and raw (the frequency unnormalised),
each from the graph as indexed (what one fed back is reverted before the
other runs); the per-type rows are the normalised scoring's. --scoring runs
one only.

--format chisiec reads a CHisIEC relation file (re_coling_*.json): every
relation between two entities of the set gives their pair its label mapped onto
our types (the mapping of "annals eval extract"; a label with several
counterparts is matched by any), labels with no counterpart are left out, and
each record's sentence is a passage of the corpus. --format jsonl reads
{"head": "…", "tail": "…", "relations": ["子女", …]} per line and needs
--corpus, a corpus file as "annals eval qa --corpus" reads.`,
		Example: `  annals eval relate --dataset ../shared/data/chisiec/re_coling_train_dev.json
  annals eval relate --dataset pairs.jsonl --corpus corpus.json --rounds 2 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if err := relate.CheckScoring(opts.Scoring); err != nil {
				return fmt.Errorf("--scoring: %w", err)
			}
			if format == "" {
				f, err := guessRelateFormat(dataset)
				if err != nil {
					return err
				}
				format = f
			}
			var pairs []annals.RelatePair
			var passages []qa.Passage
			leftOut := &eval.RelateLeftOut{}
			switch format {
			case relateFormatCHisIEC:
				exs, err := eval.LoadCHisIECREFile(dataset)
				if err != nil {
					return err
				}
				set := eval.CHisIECRelatePairs(exs)
				for _, p := range set.Pairs {
					pairs = append(pairs, annals.RelatePair{Head: p.Head, Tail: p.Tail, Gold: p.Gold})
				}
				for _, t := range set.Texts {
					passages = append(passages, qa.Passage{Text: t})
				}
				*leftOut = set.LeftOut
			case relateFormatJSONL:
				if corpus == "" {
					return fmt.Errorf("--format %s needs --corpus FILE: the texts to index", relateFormatJSONL)
				}
				var err error
				if pairs, err = readPairs(dataset); err != nil {
					return err
				}
				for _, p := range pairs {
					if len(p.Gold) == 0 {
						leftOut.NoGold++
					}
				}
			default:
				return fmt.Errorf("--format %q: want %s or %s", format, relateFormatCHisIEC, relateFormatJSONL)
			}
			if corpus != "" {
				var err error
				if passages, err = qa.LoadCorpus(corpus); err != nil {
					return err
				}
			}
			if len(pairs) == 0 {
				return fmt.Errorf("%s: no pair with a relation type to evaluate", dataset)
			}
			if limit > 0 && limit < len(pairs) {
				leftOut.Limited = len(pairs) - limit
				pairs = pairs[:limit]
			}
			dir := keep
			if dir == "" {
				var err error
				if dir, err = os.MkdirTemp("", "annals-eval-relate-"); err != nil {
					return err
				}
				defer os.RemoveAll(dir)
			}
			if !a.quiet && !a.json {
				a.warnf("indexing %d passages into %s, then relating %d pairs over %d round(s) …\n",
					len(passages), filepath.Join(dir, ".annals"), len(pairs), max(rounds, 1))
			}
			rep, err := annals.EvaluateRelate(ctx, dir, pairs, passages, rounds, opts)
			if err != nil {
				return err
			}
			rep.Dataset, rep.LeftOut = dataset, leftOut
			if a.json {
				return a.printJSON(rep)
			}
			return rep.Text(a.out)
		},
	}
	f := cmd.Flags()
	f.StringVar(&dataset, "dataset", "", "pairs: a CHisIEC relation file (re_coling_*.json) or a JSONL file")
	f.StringVar(&format, "format", "", "format: chisiec or jsonl (default: chisiec for a JSON array, else jsonl)")
	f.StringVar(&corpus, "corpus", "", "a corpus file to index (required with --format jsonl; with chisiec, instead of its sentences)")
	f.IntVar(&rounds, "rounds", 3, "rounds of relating and feeding back")
	f.IntVar(&limit, "limit", 0, "only the first N pairs (0: all)")
	f.StringVar(&keep, "keep", "", "index into this folder and keep it")
	f.IntVar(&opts.Top, "top", 0, "paths kept per pair, best EF-IDF first (default 10)")
	f.IntVar(&opts.Budget, "budget", 0, "graph nodes a search may visit (default 200000)")
	f.StringVar(&opts.Scoring, "scoring", "", "only this ranking of the paths: normalised or raw (default: both, a row each)")
	f.BoolVar(&opts.LLM, "llm", false, "index and relate with the configured LLM (or OPENAI_BASE_URL)")
	f.BoolVar(&opts.Offline, "offline", false, "never call an LLM")
	f.IntVar(&opts.MaxTokens, "max-tokens", 0, "token budget of LLM calls while relating (0: none)")
	_ = cmd.MarkFlagRequired("dataset")
	return cmd
}

// guessRelateFormat reads a JSON array as CHisIEC, anything else as JSONL.
func guessRelateFormat(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read pairs: %w", err)
	}
	if bytes.HasPrefix(bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))), []byte("[")) {
		return relateFormatCHisIEC, nil
	}
	return relateFormatJSONL, nil
}
