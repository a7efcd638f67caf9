package annals

import (
	"context"
	"errors"
	"fmt"

	"github.com/annals-project/annals/internal/pipeline"
	"github.com/annals-project/annals/internal/store"
)

// ErrDocumentsFailed is what an error from IndexFailures is: the run went
// through, but a step failed on some documents, which are recorded as
// failed (FailedDocuments) and tried again by the next run. The command
// line exits with status 4 for it.
var ErrDocumentsFailed = errors.New("documents failed")

// IndexFailure is a document a step failed on in one run.
type IndexFailure = pipeline.Failure

// FailedDocument is a document the workspace records as failed: the step,
// the reason, how many runs tried it and when the last did.
type FailedDocument = store.Failure

// DocumentsFailedError lists the documents a run left failed.
type DocumentsFailedError struct {
	Failed []IndexFailure
}

func (e *DocumentsFailedError) Error() string {
	return fmt.Sprintf("%d document(s) failed; `annals docs --failed` lists them; the next run retries them", len(e.Failed))
}

// Is makes errors.Is(err, ErrDocumentsFailed) true.
func (e *DocumentsFailedError) Is(target error) bool { return target == ErrDocumentsFailed }

// IndexFailures is a *DocumentsFailedError when the run reported failed
// documents, and nil otherwise. Index itself returns no error for them:
// the rest of the run (the documents that were read, embedding, dating,
// the search index) is done and kept.
func IndexFailures(rep *IndexReport) error {
	if rep == nil || len(rep.Failed) == 0 {
		return nil
	}
	return &DocumentsFailedError{Failed: rep.Failed}
}

// FailedDocuments lists the documents a step failed on, most recent first.
func (w *Workspace) FailedDocuments(ctx context.Context) ([]FailedDocument, error) {
	return w.db.Failures(ctx)
}

// CacheStepUnknown names, in CacheStats and ClearCache, the cached LLM
// replies stored before the cache recorded the step each served.
const CacheStepUnknown = "unknown"

// CacheStep is what the LLM reply cache holds for one step.
type CacheStep struct {
	Step    string `json:"step"`
	Entries int    `json:"entries"`
	Bytes   int64  `json:"bytes"`
}

// CacheStats is what the LLM reply cache holds, per step and in all.
type CacheStats struct {
	Steps   []CacheStep `json:"steps"`
	Entries int         `json:"entries"`
	Bytes   int64       `json:"bytes"`
}

// CacheStats counts the cached LLM replies and embeddings, and their
// bytes, per step.
func (w *Workspace) CacheStats(ctx context.Context) (*CacheStats, error) {
	rows, err := w.db.Cache().Stats(ctx)
	if err != nil {
		return nil, err
	}
	out := &CacheStats{Steps: []CacheStep{}}
	for _, r := range rows {
		step := r.Step
		if step == "" {
			step = CacheStepUnknown
		}
		out.Steps = append(out.Steps, CacheStep{Step: step, Entries: r.Entries, Bytes: r.Bytes})
		out.Entries += r.Entries
		out.Bytes += r.Bytes
	}
	return out, nil
}

// ClearCache deletes cached LLM replies, all of them when step is "",
// else those of one step (CacheStepUnknown for those of no recorded step),
// and says how many went. The calls are made again when next needed.
func (w *Workspace) ClearCache(ctx context.Context, step string, waiting func(string)) (int64, error) {
	l, err := w.lock(ctx, "annals cache clear", waiting)
	if err != nil {
		return 0, err
	}
	defer l.Unlock()
	if step == "" {
		return w.db.Cache().Clear(ctx, nil)
	}
	if step == CacheStepUnknown {
		step = ""
	}
	return w.db.Cache().Clear(ctx, &step)
}
