package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/config"
	"github.com/annals-project/annals/internal/eval"
	"github.com/annals-project/annals/internal/schema"
)

func (a *app) evalCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "eval", Short: "Evaluate annals against public data sets"}
	var ds, split, dataDir, model, annotations, extractor string
	var limit int
	ex := &cobra.Command{
		Use:   "extract",
		Short: "Score extraction (precision, recall, F1, ROUGE) on CHisIEC, C-CLUE or annals",
		Long: `Runs an extractor (--extractor: the offline one by default, or llm, ekg or
regex, with the workspace's LLM settings) over a data set's split and prints micro precision,
recall and F1 for entities and triples, per type, both over all gold items and
over the types that map onto the schema, with the mapping table. The data sets
are read from $ANNALS_DATA or ../shared/data.

Triples are also compared as strings: per sentence, the produced and the gold
triples, each written head+relation+tail and sorted, by character ROUGE-1,
ROUGE-2 and ROUGE-L F1, averaged over sentences; SCORE is the mean of F1 and
the three (docs/architecture.md, Evaluation and benchmarks).

Data set annals is the project's own annotations of 汉书, 后汉书 and 三国志
(--annotations, default internal/ner/annotations): split test is the tenth
never trained on. Each sentence is read in its chapter of the First Four
Histories, extracted whole as indexing does, so names and relations are
scored as a user meets them.`,
		Example: `  annals eval extract --dataset chisiec
  annals eval extract --dataset cclue --split dev --json
  annals eval extract --dataset annals
  annals eval extract --dataset cclue --extractor llm --limit 100`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := eval.ParseDataset(ds)
			if err != nil {
				return err
			}
			var sch *schema.Schema
			if a.schema != "" {
				if sch, err = schema.Load(a.schema); err != nil {
					return err
				}
			}
			// The settings are the workspace's where there is one (an
			// LLM endpoint, the judge), else the environment's.
			conf, err := config.Load(filepath.Join(a.dir(), "annals.yaml"))
			if err != nil {
				return err
			}
			ext, err := annals.NamedExtractor(cmd.Context(), conf, extractor, model, a.waiting)
			if err != nil {
				return err
			}
			rep, err := eval.RunExtract(cmd.Context(), ext, d, split, eval.Options{Limit: limit, DataDir: dataDir, Annotations: annotations, Schema: sch, SplitOffices: true})
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(rep)
			}
			return rep.Write(a.out)
		},
	}
	var names []string
	for _, d := range eval.Datasets() {
		names = append(names, string(d))
	}
	ex.Flags().StringVar(&ds, "dataset", "chisiec", fmt.Sprintf("data set: %s", strings.Join(names, ", ")))
	ex.Flags().StringVar(&split, "split", "test", "split: train, dev or test")
	ex.Flags().IntVar(&limit, "limit", 0, "only the first N examples (0: all)")
	ex.Flags().StringVar(&extractor, "extractor", annals.ExtractorPattern, "the extractor scored: pattern, llm, ekg or regex (llm and regex need an LLM endpoint: the workspace's settings, else ANNALS_LLM_BASE_URL)")
	ex.Flags().StringVar(&model, "model", "", `the name model: a file from annals train ner, or "rules" for the rules alone (default: the one annals ships)`)
	ex.Flags().StringVar(&annotations, "annotations", "", "the project's annotations, for --dataset annals (default internal/ner/annotations)")
	ex.Flags().StringVar(&dataDir, "data", "", "data folder (default: $ANNALS_DATA or ../shared/data)")
	cmd.AddCommand(ex, a.evalQACmd(), a.evalRelateCmd(), a.evalNERCmd(), a.evalCorefCmd(), a.evalBioCmd())
	return cmd
}
