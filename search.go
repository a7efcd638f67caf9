package annals

import (
	"context"
	"errors"
	"strings"

	"github.com/annals-project/annals/internal/index"
	"github.com/annals-project/annals/internal/pipeline"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// Lexical search types.
type (
	// Concordance is a page of the occurrences of a string, with the total.
	Concordance = store.Concordance
	// Occurrence is one place a string occurs, in original offsets, with
	// its context.
	Occurrence = store.Occurrence
	// ChunkHit is a chunk ranked by BM25.
	ChunkHit = store.ChunkHit
)

// SearchOptions pages a concordance.
type SearchOptions struct {
	Context int // characters each side; 0 means 20, negative none
	Limit   int // occurrences to return; 0 means 100
	Offset  int // occurrences to skip
}

// Search lists every occurrence of text in the corpus (a concordance), by
// document and offset. Traditional characters find their simplified forms
// when the workspace normalises (normalize.t2s), as documents are matched
// in normalised form; words of other scripts match whole, in any case.
func (w *Workspace) Search(ctx context.Context, text string, opts SearchOptions) (*Concordance, error) {
	q, err := w.normaliseQuery(text)
	if err != nil {
		return nil, err
	}
	// Documents not yet in the lexical index are still found, more slowly.
	pending, err := pipeline.LexicalPending(ctx, w.db)
	if err != nil {
		return nil, err
	}
	return w.db.Concordance(ctx, store.ConcordanceQuery{Text: q, Context: opts.Context, Limit: opts.Limit, Offset: opts.Offset, Scan: pending})
}

// SearchChunks ranks chunks by BM25 over the terms of text (Han bigrams,
// words); limit 0 means 20.
func (w *Workspace) SearchChunks(ctx context.Context, text string, limit int) ([]ChunkHit, error) {
	q, err := w.normaliseQuery(text)
	if err != nil {
		return nil, err
	}
	return w.db.SearchChunks(ctx, index.Terms(q), limit)
}

// searchRareChunks is SearchChunks over the chunks that hold one of the
// rarer terms only, as the retrieval route reads it.
func (w *Workspace) searchRareChunks(ctx context.Context, text string, limit int) ([]ChunkHit, error) {
	q, err := w.normaliseQuery(text)
	if err != nil {
		return nil, err
	}
	return w.db.SearchRareChunks(ctx, index.Terms(q), limit)
}

// normaliseQuery trims the query and normalises it as documents are.
func (w *Workspace) normaliseQuery(q string) (string, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return "", errors.New("nothing to search for: give a word or some characters")
	}
	if w.Config.Normalize.T2S {
		q, _ = text.ToSimplified(q)
	}
	return q, nil
}
