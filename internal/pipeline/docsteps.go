package pipeline

import (
	"context"
	"fmt"

	"github.com/annals-project/annals/internal/corpus"
	"github.com/annals-project/annals/internal/docstats"
	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/index"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// The document steps' names.
const (
	StepIngest  = "ingest"
	StepChunk   = "chunk"
	StepExtract = "extract"
	StepLexical = "lexical"
)

// ingestVersion and chunkVersion change when decoding and normalising, or
// chunking, would give different results; the lexical step's version is
// that of its terms.
const (
	ingestVersion  = "1"
	chunkVersion   = "1"
	lexicalVersion = index.Version
)

// DocSteps are the document steps of an index run with these options:
// ingest, chunk, extract and lexical.
func DocSteps(opts Options) ([]Step, error) {
	if opts.Extractor == nil {
		return nil, fmt.Errorf("pipeline: no extractor")
	}
	sc, err := newSchemas(opts.Schema)
	if err != nil {
		return nil, err
	}
	sc.extend = opts.Extend
	chunking := opts.Chunk
	if chunking.MaxChars == 0 {
		patterns := chunking.Patterns
		chunking = corpus.DefaultChunkOptions()
		chunking.Patterns = patterns
	}
	return []Step{
		ingest{t2s: opts.T2S},
		chunk{opts: chunking},
		extraction{ex: opts.Extractor, schemas: sc, parallel: opts.Parallel},
		lexical{},
	}, nil
}

// ingest normalises a document (traditional → simplified where asked) and
// makes the row the store keeps of it. The text was decoded, and its
// language detected, when it was read.
type ingest struct{ t2s bool }

func (ingest) Name() string     { return StepIngest }
func (ingest) Inputs() []string { return nil }
func (s ingest) Version(string) string {
	if s.t2s {
		return ingestVersion + "+t2s"
	}
	return ingestVersion
}

func (s ingest) Do(_ context.Context, w *Work) error {
	d := w.Source
	norm, offmap := d.Text, []int32(nil)
	if s.t2s && text.IsChinese(w.Lang) {
		norm, offmap = text.ToSimplified(d.Text)
	}
	w.Doc = kg.Document{
		Key: d.Key, Version: w.Hash, Title: d.Title, Section: d.Section, Lang: w.Lang,
		Encoding: d.Encoding, Chars: len(w.runes()), Text: d.Text, Norm: norm, OffsetMap: offmap,
	}
	return nil
}

func (ingest) Write(w *Work, dw *store.DocWrite) { dw.Doc, dw.KeepDoc = w.Doc, false }

// chunk cuts the normalised text into overlapping, section-aware chunks,
// following the units of the writing pattern when asked.
type chunk struct{ opts corpus.ChunkOptions }

func (chunk) Name() string     { return StepChunk }
func (chunk) Inputs() []string { return []string{StepIngest} }
func (s chunk) Version(string) string {
	v := fmt.Sprintf("%s:%d/%d", chunkVersion, s.opts.MaxChars, s.opts.Overlap)
	if s.opts.Patterns {
		// Units of the writing pattern (corpus.ChunkOptions.Patterns); the
		// version names how they are found.
		v += "+" + corpus.PatternsVersion
	}
	return v
}

func (s chunk) Do(_ context.Context, w *Work) error {
	w.Chunks = corpus.Chunk(w.Doc.Norm, w.Source.Format, w.Lang, s.opts)
	return nil
}

// Write stores the chunks with offsets into the original text.
func (chunk) Write(w *Work, dw *store.DocWrite) {
	dw.Chunks = make([]kg.Chunk, len(w.Chunks))
	for i, c := range w.Chunks {
		c.Start, c.End = w.orig(c.Start), w.orig(c.End)
		dw.Chunks[i] = c
	}
}

// extraction reads entities and relations from every chunk.
type extraction struct {
	ex       extract.Extractor
	schemas  *schemas
	parallel int
}

func (extraction) Name() string     { return StepExtract }
func (extraction) Inputs() []string { return []string{StepChunk} }

// Version is per language where the extractor dispatches by language, so
// that changing one language's rules re-runs only its documents.
func (s extraction) Version(lang string) string {
	v := s.ex.Version()
	if by, ok := s.ex.(interface{ VersionFor(string) string }); ok {
		v = by.VersionFor(lang)
	}
	return s.ex.Name() + "@" + v + "/" + s.schemas.name(lang)
}

func (s extraction) Do(ctx context.Context, w *Work) error {
	dc := extract.NewDocContext(w.Source.Key, w.Source.Title, w.Source.Section)
	if text.IsChinese(w.Lang) {
		dc.Use = docstats.OfDocument([]rune(w.Doc.Norm))
	}
	results, err := extractChunks(ctx, w.Chunks, w.Lang, s.schemas.forLang(w.Lang), s.ex, dc, s.parallel)
	if err != nil {
		return err
	}
	w.Found = make([]extract.Result, len(results))
	for i := range w.Chunks {
		w.Found[i] = toDocument(results[i], &w.Chunks[i], w.runes(), w.orig)
	}
	return nil
}

func (s extraction) Write(w *Work, dw *store.DocWrite) {
	dw.Facts = make([]store.ChunkFacts, len(w.Found))
	for i, res := range w.Found {
		dw.Facts[i] = chunkFacts(w.Chunks[i].Seq, res)
	}
	dw.ReplaceFacts, dw.Extractor = true, s.ex.Name()
}

// chunkFacts is what the store keeps of one chunk's extraction.
func chunkFacts(seq int, res extract.Result) store.ChunkFacts {
	f := store.ChunkFacts{Seq: seq, Mentions: make([]store.NameSpan, len(res.Entities)), Evidence: make([]store.Statement, len(res.Triples))}
	for i, e := range res.Entities {
		f.Mentions[i] = nameSpan(e)
	}
	for i, t := range res.Triples {
		f.Evidence[i] = store.Statement{Relation: t.Relation, Head: nameSpan(t.Head), Tail: nameSpan(t.Tail),
			Sentence: t.Evidence, AliasKind: t.AliasKind, Score: t.Score, Aside: t.Aside}
	}
	for _, a := range res.Attributes {
		f.Attributes = append(f.Attributes, store.AttributeFact{Entity: nameSpan(a.Entity), Attribute: a.Name, Value: a.Value, At: a.At, Sentence: a.Evidence})
	}
	return f
}

func nameSpan(e extract.Entity) store.NameSpan {
	return store.NameSpan{Name: e.Canonical(), Type: e.Type, Start: e.Start, End: e.End, Surface: e.Text}
}

// lexical makes each chunk's search terms (index.AppendText), written with
// the chunks, so that the search index is never read back to be built.
type lexical struct{}

func (lexical) Name() string                      { return StepLexical }
func (lexical) Inputs() []string                  { return []string{StepChunk} }
func (lexical) Version(string) string             { return lexicalVersion }
func (lexical) Write(w *Work, dw *store.DocWrite) { dw.Terms = w.Terms }

func (lexical) Do(_ context.Context, w *Work) error {
	w.Terms = make([]store.ChunkTerms, len(w.Chunks))
	var buf []byte
	for i, c := range w.Chunks {
		// One buffer; earlier slices of it stay valid when it grows.
		start := len(buf)
		buf = index.AppendText(buf, c.Text)
		w.Terms[i] = store.ChunkTerms{Seq: c.Seq, Terms: buf[start:len(buf):len(buf)]}
	}
	return nil
}
