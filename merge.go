package annals

import (
	"context"
	"fmt"
	"strings"

	"github.com/annals-project/annals/internal/resolve"
	"github.com/annals-project/annals/internal/store"
)

// Merge is a recorded decision that several names are one entity.
type Merge = store.Merge

// Merges lists the recorded merges, undone ones too.
func (w *Workspace) Merges(ctx context.Context) ([]Merge, error) { return w.db.Merges(ctx) }

// MergeNames records, as a person's decision, that names are one entity
// whose main name is the first, and re-aligns the graph. Every name must
// already name an entity of the same type.
func (w *Workspace) MergeNames(ctx context.Context, names []string, reason string, waiting func(string)) (*Merge, error) {
	if len(names) < 2 {
		return nil, fmt.Errorf("merge needs at least two names")
	}
	var typ string
	for _, n := range names {
		found, err := w.db.FindEntities(ctx, n)
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("merge: %q: %w", n, ErrNotFound)
		}
		if typ == "" {
			typ = found[0].Type
		} else if found[0].Type != typ {
			return nil, fmt.Errorf("merge: %s is %s but %s is %s: only entities of one type merge", names[0], typ, n, found[0].Type)
		}
	}
	l, err := w.lock(ctx, "annals merge", waiting)
	if err != nil {
		return nil, err
	}
	defer l.Unlock()
	if reason == "" {
		reason = "merged by hand: " + strings.Join(names, ", ")
	}
	m := store.Merge{Type: typ, Canonical: names[0], Names: names[1:], Reason: reason, Source: "user"}
	if m.ID, err = w.db.AddMerge(ctx, m); err != nil {
		return nil, err
	}
	if _, err := resolve.Align(ctx, w.db, false); err != nil {
		return nil, err
	}
	return &m, nil
}

// UndoMerge reverses a recorded merge and re-aligns the graph.
func (w *Workspace) UndoMerge(ctx context.Context, id int64, waiting func(string)) error {
	l, err := w.lock(ctx, "annals merge --undo", waiting)
	if err != nil {
		return err
	}
	defer l.Unlock()
	if err := w.db.UndoMerge(ctx, id); err != nil {
		return err
	}
	_, err = resolve.Align(ctx, w.db, false)
	return err
}

// UsageRow is the LLM token usage of one step with one model.
type UsageRow = store.UsageRow

// Usage sums the LLM tokens every run used, per step and model.
func (w *Workspace) Usage(ctx context.Context) ([]UsageRow, error) { return w.db.Usage(ctx) }

// ScoreHistogram counts facts by their process-supervision score (0–10) and
// says how many were kept aside under the threshold.
func (w *Workspace) ScoreHistogram(ctx context.Context) (map[int]int, int, error) {
	return w.db.ScoreHistogram(ctx)
}
