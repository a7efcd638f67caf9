package pipeline

import (
	"context"
	"fmt"
	"time"

	"github.com/annals-project/annals/internal/index"
	"github.com/annals-project/annals/internal/store"
)

// StepLexical indexes chunks for BM25 search and the concordance. Its
// version is that of the terms, so new terms re-index every chunk.
const (
	StepLexical    = "lexical"
	lexicalVersion = index.Version
)

// Chunks are read lexicalRead documents at a time and written in
// transactions of about lexicalWrite bytes of text: few enough that a run
// killed half-way loses little, large enough that FTS5 writes few segments
// (each flush makes one, and merging them costs about as much again).
const (
	lexicalRead  = 64
	lexicalWrite = 4 << 20
)

// LexicalStore is what lexical indexing reads and writes.
type LexicalStore interface {
	DocsNeedingStep(ctx context.Context, step, version string) ([]int64, error)
	LexicalChunks(ctx context.Context, docIDs []int64) ([]store.ChunkText, error)
	WriteChunkTerms(ctx context.Context, docIDs []int64, chunks []store.ChunkTerms, step, version string) error
}

// LexicalReport says what lexical indexing did.
type LexicalReport struct {
	Documents int           `json:"documents"` // documents indexed by this run
	Chunks    int           `json:"chunks"`
	Elapsed   time.Duration `json:"elapsed_ns"`
}

// Lexical indexes the chunks of every document not yet indexed with the
// current terms. An unchanged corpus costs one query.
func Lexical(ctx context.Context, db LexicalStore) (*LexicalReport, error) {
	t0 := time.Now()
	rep := &LexicalReport{}
	defer func() { rep.Elapsed = time.Since(t0) }()
	ids, err := db.DocsNeedingStep(ctx, StepLexical, lexicalVersion)
	if err != nil || len(ids) == 0 {
		return rep, err
	}
	var (
		batch []int64
		terms []store.ChunkTerms
		buf   []byte
		size  int
	)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := db.WriteChunkTerms(ctx, batch, terms, StepLexical, lexicalVersion); err != nil {
			return fmt.Errorf("lexical index: %w", err)
		}
		rep.Documents += len(batch)
		rep.Chunks += len(terms)
		batch, terms, buf, size = batch[:0], terms[:0], buf[:0], 0
		return nil
	}
	for len(ids) > 0 {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		read := ids[:min(lexicalRead, len(ids))]
		ids = ids[len(read):]
		chunks, err := db.LexicalChunks(ctx, read)
		if err != nil {
			return rep, err
		}
		for _, c := range chunks {
			// One buffer; earlier slices of it stay valid when it grows.
			start := len(buf)
			buf = index.AppendText(buf, c.Text)
			terms = append(terms, store.ChunkTerms{ID: c.ID, Terms: buf[start:len(buf):len(buf)]})
			size += len(c.Text)
		}
		batch = append(batch, read...)
		if size >= lexicalWrite {
			if err := flush(); err != nil {
				return rep, err
			}
		}
	}
	if err := flush(); err != nil {
		return rep, err
	}
	return rep, nil
}

// LexicalPending reports whether some document is not in the lexical index
// with the current terms, so that a search through the index would miss
// it (a workspace from before the index, or one being indexed).
func LexicalPending(ctx context.Context, db interface {
	DocsNeedingStep(ctx context.Context, step, version string) ([]int64, error)
}) (bool, error) {
	ids, err := db.DocsNeedingStep(ctx, StepLexical, lexicalVersion)
	return len(ids) > 0, err
}
