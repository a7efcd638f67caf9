package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals/internal/ner"
	"github.com/annals-project/annals/internal/ner/shipped"
)

func (a *app) trainCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "train", Short: "Train a model from annotated data"}
	var data, test []string
	var out string
	var rules bool
	var opts ner.TrainOptions
	nc := &cobra.Command{
		Use:   "ner --data FILE… --out MODEL",
		Short: "Train a name recogniser from annotated sentences",
		Long: `Trains a character tagger (an averaged structured perceptron, BIOES tags,
Viterbi) from annotated sentences and writes it to MODEL. Files may be CoNLL,
one character and its tag a line (B-PER, I-PER, E-PER, S-PER, O; PER, LOC,
OFI and BOOK become 人物, 地点, 职官 and 文献), as CHisIEC's NER files are, or
annals's own format (docs/annotation.md). With --rules (the default) the
offline rules' names are features too, which needs fewer labels. The same
data and seed give the same model, byte for byte. With --test, the model is
scored on those files after training.`,
		Example: `  annals train ner --data ../shared/data/chisiec/ner_train.txt --data ../shared/data/chisiec/ner_dev.txt \
    --test ../shared/data/chisiec/ner_test.txt --out chisiec.ner`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if len(data) == 0 || out == "" {
				return fmt.Errorf("give the training files (--data) and where to write the model (--out)")
			}
			train, _, err := readSentences(data)
			if err != nil {
				return err
			}
			types := typesOf(train)
			if len(types) == 0 {
				return fmt.Errorf("no names in %s: nothing to learn", strings.Join(data, ", "))
			}
			opts.Rules = rules
			t := ner.Train(train, types, opts)
			if err := t.SaveFile(out, strings.Join(data, " ")); err != nil {
				return err
			}
			a.printf("trained on %d sentences (%s): %d features; written to %s\n", len(train), strings.Join(types, " "), t.Features(), out)
			if len(test) > 0 {
				return a.scoreNER(t, test)
			}
			return nil
		},
	}
	nc.Flags().StringArrayVar(&data, "data", nil, "a training file (repeatable)")
	nc.Flags().StringArrayVar(&test, "test", nil, "a file to score the model on after training (repeatable)")
	nc.Flags().StringVar(&out, "out", "", "where to write the model")
	nc.Flags().BoolVar(&rules, "rules", true, "use the offline rules' names as features")
	nc.Flags().IntVar(&opts.Epochs, "epochs", 0, "passes over the data (0: 20)")
	nc.Flags().Uint64Var(&opts.Seed, "seed", 1, "the order of sentences in each pass")
	cmd.AddCommand(nc)
	return cmd
}

func (a *app) evalNERCmd() *cobra.Command {
	var model, against string
	var data []string
	cmd := &cobra.Command{
		Use:   "ner [--model MODEL] --data FILE…",
		Short: "Score a name recogniser on annotated sentences (precision, recall, F1 by type)",
		Long: `Tags the sentences of the annotated files with MODEL (by default the model
annals embeds) and scores the names found against the annotations. A CoNLL
file (CHisIEC's format) is scored by CHisIEC's conventions when the model
reads by annals's: a state or people is a place there, a noble rank an
office, dates are not marked, and an office held at a place is the place
and the office (华州 + 刺史). With --against OTHER instead of a model, it
scores OTHER's annotation of the same sentences (matched by ID) against the
files': the agreement of two annotators.`,
		Example: `  annals eval ner --data ../shared/data/chisiec/ner_test.txt
  annals eval ner --model chisiec.ner --data ../shared/data/chisiec/ner_test.txt
  annals eval ner --data internal/ner/annotations/batch-01.txt --against internal/ner/annotations/agreement/batch-01.second.txt`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if len(data) == 0 {
				return fmt.Errorf("give the annotated files (--data)")
			}
			if against != "" {
				return a.agreeNER(data, against)
			}
			var t *ner.Tagger
			if model == "" {
				r, err := shipped.Recogniser()
				if err != nil {
					return err
				}
				t = r.Tagger
			} else {
				var err error
				if t, _, err = ner.LoadFile(model); err != nil {
					return err
				}
			}
			return a.scoreNER(t, data)
		},
	}
	cmd.Flags().StringVar(&model, "model", "", "a model written by annals train ner (default: the embedded model)")
	cmd.Flags().StringArrayVar(&data, "data", nil, "an annotated file (repeatable)")
	cmd.Flags().StringVar(&against, "against", "", "a second annotation of the same sentences, to score against --data")
	return cmd
}

// agreeNER scores a second annotation against the first.
func (a *app) agreeNER(files []string, against string) error {
	first, _, err := readSentences(files)
	if err != nil {
		return err
	}
	second, err := ner.ReadFile(against)
	if err != nil {
		return err
	}
	sc, n, err := ner.Agree(first, second)
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("no sentence of %s is in %s", against, strings.Join(files, ", "))
	}
	return a.printScore(sc, n)
}

// scoreNER tags the files' sentences and prints the scores. CoNLL files
// are scored by CHisIEC's conventions when the tagger reads by annals's.
func (a *app) scoreNER(t *ner.Tagger, files []string) error {
	test, conll, err := readSentences(files)
	if err != nil {
		return err
	}
	var as func([]rune, []ner.Span) []ner.Span
	if conll && t.ReadsBeyondCHisIEC() {
		as = ner.AsCHisIEC
	}
	return a.printScore(t.EvaluateAs(test, as), len(test))
}

// readSentences reads the annotated sentences of every file, in order,
// and says whether every file was CoNLL.
func readSentences(files []string) (out []ner.Sentence, allCoNLL bool, err error) {
	allCoNLL = true
	for _, p := range files {
		ss, conll, err := ner.ReadFileFormat(p)
		if err != nil {
			return nil, false, err
		}
		out = append(out, ss...)
		allCoNLL = allCoNLL && conll
	}
	return out, allCoNLL, nil
}

func (a *app) printScore(sc *ner.Score, sentences int) error {
	if a.json {
		return a.printJSON(map[string]any{"sentences": sentences, "precision": sc.Precision(), "recall": sc.Recall(), "f1": sc.F1(), "by_type": sc.ByType})
	}
	a.printf("%d sentences: precision %.3f, recall %.3f, F1 %.3f\n", sentences, sc.Precision(), sc.Recall(), sc.F1())
	tw := widest(sc.TypeNames(), 6, func(ty string) string { return ty })
	for _, ty := range sc.TypeNames() {
		x := sc.ByType[ty]
		a.printf("  %s gold %5d  found %5d  P %.3f  R %.3f  F1 %.3f\n", pad(ty, tw), x.Gold, x.Found, x.Precision(), x.Recall(), x.F1())
	}
	return nil
}

// typesOf lists the types the sentences name, in annals's order first.
func typesOf(ss []ner.Sentence) []string {
	seen := map[string]bool{}
	for _, s := range ss {
		for _, n := range s.Names {
			seen[n.Type] = true
		}
	}
	var out []string
	for _, t := range ner.Types {
		if seen[t] {
			out = append(out, t)
			delete(seen, t)
		}
	}
	var rest []string
	for t := range seen {
		rest = append(rest, t)
	}
	sort.Strings(rest)
	return append(out, rest...)
}
