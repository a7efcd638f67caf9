package annals

import (
	"context"
	"errors"
	"fmt"

	"github.com/annals-project/annals/internal/embed"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/resolve/llmalign"
)

// AlignOptions tunes AlignWithLLM.
type AlignOptions struct {
	// Type aligns one entity type; "" aligns 人物, 地点, 社会集团, person,
	// place and organisation.
	Type string
	// Batch is the most groups of candidates in one prompt (default 8).
	Batch int
	// MaxTokens is the run's LLM token budget; 0 means none. The run stops
	// cleanly before a call would pass it, keeping the merges it recorded.
	MaxTokens int
	// Again asks about groups the model already judged with the same
	// evidence (their answers come from the cache).
	Again bool
	// Waiting is told if another process holds the workspace, and while
	// an LLM call waits (see IndexOptions.Waiting).
	Waiting func(string)
}

// AlignReport says what an LLM alignment run did.
type AlignReport = llmalign.Report

// AlignWithLLM asks the configured LLM which entities are one and the same,
// records the merges it justifies from the texts (source llm:MODEL, undoable
// with UndoMerge) and re-aligns the graph. Groups judged before with the
// same evidence are not asked again. A budget stop is not an error: the
// report's Stopped says so.
func (w *Workspace) AlignWithLLM(ctx context.Context, opts AlignOptions) (*AlignReport, error) {
	l, err := w.lock(ctx, "annals align", opts.Waiting)
	if err != nil {
		return nil, err
	}
	defer l.Unlock()
	cfg, err := w.Config.Endpoint(true, opts.MaxTokens)
	if err != nil {
		return nil, fmt.Errorf("align with an LLM: %w", err)
	}
	meter := llm.NewMeter(opts.MaxTokens)
	c, err := newClient(cfg, w.db.Cache(), meter, opts.Waiting)
	if err != nil {
		return nil, err
	}
	run := &llmRun{client: c, meter: meter, cfg: cfg}
	lo := llmalign.Options{Batch: opts.Batch, Parallel: cfg.Concurrency, Again: opts.Again}
	if lo.Parallel <= 0 {
		lo.Parallel = llm.DefaultConcurrency
	}
	if opts.Type != "" {
		lo.Types = []string{opts.Type}
	}
	if lo.Similar, err = w.entitySimilarity(ctx); err != nil {
		return nil, err
	}
	rep, err := llmalign.Run(ctx, w.db, c, lo)
	usage, ferr := w.finish(ctx, run, "align")
	rep.Usage = usage
	if err != nil && rep.Stopped != "" && onlyBudget(err) {
		err = nil
	}
	return rep, errors.Join(err, ferr)
}

// onlyBudget reports whether every error joined in err is the token budget
// running out.
func onlyBudget(err error) bool {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if !onlyBudget(e) {
				return false
			}
		}
		return true
	}
	return errors.Is(err, llm.ErrBudget)
}

// entitySimilarity scores two entities by the cosine of their stored
// vectors (0 when either has none), for candidate blocking.
func (w *Workspace) entitySimilarity(ctx context.Context) (func(a, b int64) float64, error) {
	raw, err := w.db.EntityVectors(ctx)
	if err != nil || len(raw) == 0 {
		return nil, err
	}
	vecs := make(map[int64][]float32, len(raw))
	for id, b := range raw {
		if v, err := embed.Decode(b); err == nil {
			vecs[id] = v
		}
	}
	return func(a, b int64) float64 {
		va, vb := vecs[a], vecs[b]
		if len(va) == 0 || len(va) != len(vb) {
			return 0
		}
		return float64(embed.Dot(va, vb))
	}, nil
}
