package annals

import (
	"context"
	"errors"
	"strings"
	"sync"

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

// lazyLexical is the lexical index held in memory for questions: built in
// the background from the second question on (questions asked before it
// is ready read the full-text index instead), and again when the chunks
// change. A single `annals ask` thus neither waits for it nor spends a
// core building what it will not use; a server or a batch soon has it.
type lazyLexical struct {
	mu       sync.Mutex
	build    sync.Mutex // held while a question builds it (PostgreSQL)
	mem      *index.Memory
	gen      [2]int64
	building bool
	asked    int // questions ranked so far
}

// rankChunks ranks chunks by BM25 over the terms of text, as the
// retrieval route reads them.
func (w *Workspace) rankChunks(ctx context.Context, text string, limit int) ([]ChunkHit, error) {
	q, err := w.normaliseQuery(text)
	if err != nil {
		return nil, err
	}
	count, maxID, err := w.db.ChunkGeneration(ctx)
	if err != nil {
		return nil, err
	}
	gen := [2]int64{count, maxID}
	l := &w.lexical
	l.mu.Lock()
	mem := l.mem
	if mem != nil && l.gen != gen {
		mem = nil // the chunks changed
	}
	l.asked++
	pg := w.db.Postgres()
	if mem == nil && !l.building && l.asked > 1 && !pg {
		l.building = true
		go w.buildLexical(gen)
	}
	l.mu.Unlock()
	terms := index.Terms(q)
	if mem == nil && pg {
		// PostgreSQL has no BM25 of its own: ranking there reads the term
		// arrays of every chunk holding a term (a third of a second on the
		// First Four Histories), more than reading the chunks once.
		if mem, err = w.lexicalNow(ctx, gen); err != nil {
			return nil, err
		}
	}
	if mem == nil {
		return w.db.SearchChunks(ctx, terms, limit)
	}
	hits := mem.Search(terms, limit)
	out := make([]ChunkHit, len(hits))
	for i, h := range hits {
		out[i] = ChunkHit{ChunkID: h.ID, Score: h.Score}
	}
	return out, nil
}

// buildLexical reads every chunk into a new index in memory. It outlives
// the question that started it, so it has its own context; a failure
// leaves questions on the full-text index.
func (w *Workspace) buildLexical(gen [2]int64) {
	w.loadLexical(context.Background(), gen)
	l := &w.lexical
	l.mu.Lock()
	l.building = false
	l.mu.Unlock()
}

// loadLexical reads every chunk into a new index in memory and keeps it
// for chunks of generation gen.
func (w *Workspace) loadLexical(ctx context.Context, gen [2]int64) (*index.Memory, error) {
	mem := index.NewMemory()
	if err := w.db.EachChunk(ctx, mem.Add); err != nil {
		return nil, err
	}
	l := &w.lexical
	l.mu.Lock()
	l.mem, l.gen = mem, gen
	l.mu.Unlock()
	return mem, nil
}

// lexicalNow builds the index in memory for chunks of generation gen, or
// waits for the question already building it.
func (w *Workspace) lexicalNow(ctx context.Context, gen [2]int64) (*index.Memory, error) {
	l := &w.lexical
	l.build.Lock()
	defer l.build.Unlock()
	l.mu.Lock()
	mem, same := l.mem, l.gen == gen
	l.mu.Unlock()
	if mem != nil && same {
		return mem, nil
	}
	return w.loadLexical(ctx, gen)
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

// Warm reads into memory what questions and relation reasoning use (the
// chunk vectors, the lexical index, the graph's structure), so that a
// server's or a batch's first questions do not wait for it. Commands that
// answer one question never need to call it.
func (w *Workspace) Warm(ctx context.Context) error {
	if _, err := w.vectors(ctx); err != nil {
		return err
	}
	count, maxID, err := w.db.ChunkGeneration(ctx)
	if err != nil {
		return err
	}
	if _, err := w.loadLexical(ctx, [2]int64{count, maxID}); err != nil {
		return err
	}
	_, err = w.ekg(ctx)
	return err
}
