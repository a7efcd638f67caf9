package annals

import (
	"context"
	"fmt"

	"github.com/annals-project/annals/internal/extract"
	llmextract "github.com/annals-project/annals/internal/extract/llm"
	"github.com/annals-project/annals/internal/extract/score"
)

// supervised is LLM extraction under process supervision (seed 000): a
// judge scores each chunk's chain of thought and triples 0–10; triples under
// the threshold are stored but kept aside, out of the graph.
type supervised struct {
	ex        *llmextract.Extractor
	judge     *score.Judge
	threshold float64
}

func (s *supervised) Name() string { return s.ex.Name() }

// Version changes with the extractor, the judge and the threshold, so that
// a new rubric or threshold re-scores finished work (from the cache).
func (s *supervised) Version() string {
	return fmt.Sprintf("%s+judge-%s@%g", s.ex.Version(), s.judge.Version(), s.threshold)
}

// VersionFor keeps extraction versions per language.
func (s *supervised) VersionFor(lang string) string {
	return fmt.Sprintf("%s+judge-%s@%g", s.ex.VersionFor(lang), s.judge.Version(), s.threshold)
}

func (s *supervised) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	out, err := s.ex.Run(ctx, in)
	if err != nil {
		return extract.Result{}, err
	}
	if len(out.Result.Triples) == 0 {
		return out.Result, nil
	}
	sc, err := s.judge.ScoreTrace(ctx, in.Text, in, out.Result, score.Trace{
		Translation: out.Translation, Analysis: out.Analysis, Framework: out.Framework,
	})
	if err != nil {
		return extract.Result{}, err
	}
	kept, aside := score.Filter(out.Result, sc, s.threshold)
	for _, t := range aside.Triples {
		t.Aside = true
		kept.Triples = append(kept.Triples, t)
	}
	return kept, nil
}
