// Package pipeline indexes a corpus as named, versioned, resumable steps:
// ingest (decode, normalise, detect language) → chunk → extract, per
// document, then alignment over the whole corpus. A workspace records which
// version of each step ran on each document, so unchanged documents cost a
// hash and a changed step re-runs only where it must. Documents are written
// in batches, each in one transaction: a process killed at any point leaves a
// consistent database and the next run goes on from there.
package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/corpus"
	"github.com/annals-project/annals/internal/docstats"
	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/resolve"
	"github.com/annals-project/annals/internal/schema"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// Step names.
const (
	StepIngest  = "ingest"
	StepChunk   = "chunk"
	StepExtract = "extract"
)

// ingestVersion and chunkVersion change when decoding/normalisation or
// chunking would give different results.
const (
	ingestVersion = "1"
	chunkVersion  = "1"
)

// Options tunes an index run.
type Options struct {
	// Schema is a schema name or YAML file; "" chooses by language.
	Schema    string
	T2S       bool
	Chunk     corpus.ChunkOptions
	Workers   int // 0: one per CPU
	Extractor extract.Extractor
	// Progress, when set, is told about every document handled.
	Progress func(Progress)
	// Warn, when set, is told about every file skipped, as it happens.
	Warn func(string)
	// Within, when set, confines symbolic links to these folders.
	Within []string
	// MaxBytes skips larger files with a warning; 0 means
	// corpus.DefaultMaxBytes.
	MaxBytes int64
	// AfterCommit, when set, runs after each batch is committed (batches
	// are numbered from 1); tests kill the process here.
	AfterCommit func(batch int)
	// BatchDocs and BatchChars bound a write transaction.
	BatchDocs  int
	BatchChars int
	// Extend, when set, widens the schema for the run (schema growth).
	Extend func(*schema.Schema) *schema.Schema
	// Parallel extracts up to this many chunks of one document at once.
	// Above 1 the chunks get no shared DocContext: meant for extractors
	// that wait on a remote model rather than on the CPU.
	Parallel int
}

// Progress is the state of a run after one more document.
type Progress struct {
	Documents int    // documents handled so far (written, unchanged or failed)
	Written   int    // documents written so far
	Failed    int    // documents a step failed on so far
	Chars     int64  // characters handled so far
	Key       string // the document just handled
}

// Failure is a document a step failed on in a run: nothing of it was
// written (an earlier version stays as it was), the store records the
// failure, and the next run tries the document again.
type Failure struct {
	Key    string `json:"key"`
	Step   string `json:"step"`
	Reason string `json:"reason"`
}

// Report says what a run did.
type Report struct {
	Documents  int           `json:"documents"` // documents read
	Added      int           `json:"added"`     // new documents
	Changed    int           `json:"changed"`   // documents whose text changed
	Updated    int           `json:"updated"`   // same text, a step re-ran
	Unchanged  int           `json:"unchanged"` // nothing to do
	Skipped    []string      `json:"skipped"`   // files skipped (unreadable), with why
	Failed     []Failure     `json:"failed"`    // documents a step failed on
	Characters int64         `json:"characters"`
	Aligned    bool          `json:"aligned"` // entity alignment re-ran
	Elapsed    time.Duration `json:"elapsed_ns"`
	// Stopped says why the run ended before reading everything (the token
	// budget); what was finished is kept and the next run goes on.
	Stopped string `json:"stopped,omitempty"`
	// Usage is the LLM token usage of the run, per step.
	Usage []store.UsageRow `json:"llm_usage,omitempty"`
	// Embed is what the embedding step did.
	Embed *EmbedReport `json:"embed,omitempty"`
	// Date is what dating facts did.
	Date *DateReport `json:"date,omitempty"`
	// Lexical is what indexing chunks for search did.
	Lexical *LexicalReport `json:"lexical,omitempty"`
	// Steps are the run's steps in order, with what each cost.
	Steps []StepTime `json:"steps,omitempty"`
}

type job struct {
	doc   corpus.Doc
	hash  string
	state *store.DocState // nil for a new document
	seq   int
}

type result struct {
	write store.DocWrite
	kind  string // added, changed, updated
	err   error
	step  string // the step err comes from
	key   string
	chars int
}

// Index reads every path into the store.
func Index(ctx context.Context, st store.Store, paths []string, opts Options) (*Report, error) {
	start, cpu0 := time.Now(), processCPU()
	if opts.Extractor == nil {
		return nil, errors.New("pipeline: no extractor")
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if opts.BatchDocs <= 0 {
		opts.BatchDocs = 64
	}
	if opts.BatchChars <= 0 {
		opts.BatchChars = 1 << 20
	}
	if opts.Chunk.MaxChars == 0 {
		opts.Chunk = corpus.DefaultChunkOptions()
	}
	schemas, err := newSchemas(opts.Schema)
	if err != nil {
		return nil, err
	}
	schemas.extend = opts.Extend
	states, err := st.DocStates(ctx)
	if err != nil {
		return nil, err
	}
	fails, err := st.Failures(ctx)
	if err != nil {
		return nil, err
	}
	failed := map[string]bool{}
	for _, f := range fails {
		failed[f.Key] = true
	}
	var stale []string // failed once, current now: the failure is old news
	p := &pipe{opts: opts, schemas: schemas}
	rep := &Report{}

	// ctx carries the writes; work, the reading and extracting, which a
	// budget stop cuts short while finished documents are still written.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work, cancelWalk := context.WithCancel(ctx)
	defer cancelWalk()
	jobs := make(chan job, opts.Workers*2)
	results := make(chan result, opts.Workers*2)

	// Read: walk every path, hash, and pass on what needs work.
	var walkErr error
	var progress Progress
	var mu sync.Mutex // guards rep and progress between the reader and the writer
	go func() {
		defer close(jobs)
		seq := 0
		for _, root := range paths {
			warnings, err := corpus.WalkWith(work, root, corpus.WalkOptions{Within: opts.Within, MaxBytes: opts.MaxBytes}, func(d corpus.Doc) error {
				sum := sha256.Sum256([]byte(d.Text))
				j := job{doc: d, hash: hex.EncodeToString(sum[:]), seq: seq}
				seq++
				if s, ok := states[d.Key]; ok {
					s := s
					j.state = &s
				}
				mu.Lock()
				rep.Documents++
				rep.Characters += int64(utf8.RuneCountInString(d.Text))
				needed := p.needsWork(j)
				if !needed {
					if failed[d.Key] {
						stale = append(stale, d.Key)
					}
					rep.Unchanged++
					progress.Documents++
					progress.Key = d.Key
					if opts.Progress != nil {
						opts.Progress(progress)
					}
				}
				mu.Unlock()
				if !needed {
					return nil
				}
				select {
				case jobs <- j:
					return nil
				case <-work.Done():
					return work.Err()
				}
			})
			for _, w := range warnings {
				mu.Lock()
				rep.Skipped = append(rep.Skipped, w.Error())
				mu.Unlock()
				if opts.Warn != nil {
					opts.Warn(w.Error())
				}
			}
			if err != nil {
				if work.Err() == nil || ctx.Err() != nil {
					walkErr = fmt.Errorf("read %s: %w", root, err)
				}
				return
			}
		}
	}()

	// Work: normalise, chunk and extract, one document per worker.
	var wg sync.WaitGroup
	for i := 0; i < opts.Workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				r := p.process(work, j)
				select {
				case results <- r:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	// Write: batch the results into transactions.
	var batch []store.DocWrite
	batchChars, batchNo := 0, 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := st.WriteDocs(ctx, batch); err != nil {
			return err
		}
		batchNo++
		batch, batchChars = batch[:0], 0
		if opts.AfterCommit != nil {
			opts.AfterCommit(batchNo)
		}
		return nil
	}
	var writeErr error
	for r := range results {
		if writeErr != nil {
			continue // drain
		}
		if r.err != nil && errors.Is(r.err, llm.ErrBudget) {
			// Out of tokens: stop reading, keep every finished document.
			if rep.Stopped == "" {
				mu.Lock()
				rep.Stopped = r.err.Error()
				mu.Unlock()
				cancelWalk()
			}
			continue
		}
		if r.err != nil && rep.Stopped != "" && errors.Is(r.err, context.Canceled) {
			continue // cut short by the stop above
		}
		if r.err != nil && (ctx.Err() != nil || work.Err() != nil) {
			// The run was cut short (interrupted, or stopped above): not
			// the document's failure.
			msg := fmt.Sprintf("%s: skipped: %v", r.key, r.err)
			mu.Lock()
			rep.Skipped = append(rep.Skipped, msg)
			mu.Unlock()
			if opts.Warn != nil {
				opts.Warn(msg)
			}
			continue
		}
		if r.err != nil {
			// A step failed on the document: record it, in the same write
			// path as documents, and go on. Nothing else of it is written.
			f := Failure{Key: r.key, Step: r.step, Reason: r.err.Error()}
			batch = append(batch, store.DocWrite{Doc: kg.Document{Key: f.Key}, Failed: &store.Failure{Key: f.Key, Step: f.Step, Reason: f.Reason}})
			mu.Lock()
			rep.Failed = append(rep.Failed, f)
			progress.Documents++
			progress.Failed++
			progress.Key = r.key
			if opts.Progress != nil {
				opts.Progress(progress)
			}
			mu.Unlock()
			if opts.Warn != nil {
				opts.Warn(fmt.Sprintf("%s: failed (%s): %s", f.Key, f.Step, f.Reason))
			}
			if len(batch) >= opts.BatchDocs {
				if err := flush(); err != nil {
					writeErr = err
					cancel()
				}
			}
			continue
		}
		batch = append(batch, r.write)
		batchChars += r.chars
		mu.Lock()
		switch r.kind {
		case "added":
			rep.Added++
		case "changed":
			rep.Changed++
		default:
			rep.Updated++
		}
		progress.Documents++
		progress.Written++
		progress.Chars += int64(r.chars)
		progress.Key = r.key
		if opts.Progress != nil {
			opts.Progress(progress)
		}
		mu.Unlock()
		if len(batch) >= opts.BatchDocs || batchChars >= opts.BatchChars {
			if err := flush(); err != nil {
				writeErr = err
				cancel()
			}
		}
	}
	if writeErr == nil {
		writeErr = flush()
	}
	if writeErr != nil {
		return rep, writeErr
	}
	if walkErr != nil {
		return rep, walkErr
	}
	if err := ctx.Err(); err != nil {
		return rep, err
	}
	if err := st.ClearFailures(ctx, stale); err != nil {
		return rep, err
	}
	rep.Steps = append(rep.Steps, StepTime{Name: "read, extract, write", Wall: time.Since(start), CPU: processCPU() - cpu0})
	err = Timed(&rep.Steps, "align", func() (err error) {
		rep.Aligned, err = Align(ctx, st, false)
		return err
	})
	if err != nil {
		return rep, err
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// Align runs entity alignment over the whole corpus when documents or
// aliases changed since it last ran (or always, with force).
func Align(ctx context.Context, st store.Store, force bool) (bool, error) {
	dirty, err := st.Meta(ctx, "resolve_dirty")
	if err != nil {
		return false, err
	}
	version, err := st.Meta(ctx, "resolve_version")
	if err != nil {
		return false, err
	}
	if !force && dirty != "1" && version == resolve.Version {
		return false, nil
	}
	names, err := st.Names(ctx)
	if err != nil {
		return false, err
	}
	aliases, err := st.AliasFacts(ctx)
	if err != nil {
		return false, err
	}
	merges, err := st.Merges(ctx)
	if err != nil {
		return false, err
	}
	if err := st.ApplyResolution(ctx, resolve.Resolve(names, aliases, merges...)); err != nil {
		return false, err
	}
	return true, st.SetMeta(ctx, "resolve_version", resolve.Version)
}

type pipe struct {
	opts    Options
	schemas *schemas
}

func (p *pipe) versions(lang string) map[string]string {
	ingest := ingestVersion
	if p.opts.T2S {
		ingest += "+t2s"
	}
	return map[string]string{
		StepIngest:  ingest,
		StepChunk:   fmt.Sprintf("%s:%d/%d", chunkVersion, p.opts.Chunk.MaxChars, p.opts.Chunk.Overlap),
		StepExtract: p.opts.Extractor.Name() + "@" + extractorVersion(p.opts.Extractor, lang) + "/" + p.schemas.name(lang),
	}
}

// extractorVersion is the version of what extracts lang: per language when
// the extractor dispatches by language, so that changing one language's
// rules re-runs only that language's documents.
func extractorVersion(ex extract.Extractor, lang string) string {
	if v, ok := ex.(interface{ VersionFor(string) string }); ok {
		return v.VersionFor(lang)
	}
	return ex.Version()
}

// needsWork reports whether a document must be (re)processed: new, changed,
// or some step's version differs from the one that ran.
func (p *pipe) needsWork(j job) bool {
	if j.state == nil || j.state.Version != j.hash {
		return true
	}
	// The language is a property of the text, which has not changed; the
	// extract version depends on it only through the schema name.
	for step, v := range p.versions(Language(j.doc.Text)) {
		if j.state.Steps[step] != v {
			return true
		}
	}
	return false
}

// process turns a document into what the store keeps.
func (p *pipe) process(ctx context.Context, j job) (r result) {
	d := j.doc
	r.key = d.Key
	defer func() {
		if e := recover(); e != nil {
			r.err, r.step = fmt.Errorf("internal error while indexing: %v", e), StepExtract
		}
	}()
	a, err := analyse(ctx, d, p.opts.T2S, p.opts.Chunk, p.opts.Extractor, p.schemas, p.opts.Parallel)
	if err != nil {
		r.err, r.step = err, StepExtract
		return r
	}
	versions := p.versions(a.doc.Lang)
	a.doc.Version = j.hash
	w := store.DocWrite{Doc: a.doc, Extractor: p.opts.Extractor.Name(), ReplaceFacts: true, Steps: versions, Facts: a.facts}
	switch {
	case j.state == nil:
		r.kind = "added"
	case j.state.Version != j.hash:
		r.kind = "changed"
	default:
		r.kind = "updated"
	}
	keepChunks := j.state != nil && j.state.Version == j.hash &&
		j.state.Steps[StepIngest] == versions[StepIngest] && j.state.Steps[StepChunk] == versions[StepChunk]
	if !keepChunks {
		w.Chunks = a.chunks
	}
	r.write = w
	r.chars = a.doc.Chars
	return r
}

// analysis is a document with its chunks and facts, all offsets mapped back
// to the original text.
type analysis struct {
	doc    kg.Document
	chunks []kg.Chunk
	facts  []store.ChunkFacts
}

// analyse detects the language, normalises, chunks and extracts one
// document. The extractor works on normalised text; offsets are mapped back
// to the original before they leave.
func analyse(ctx context.Context, d corpus.Doc, t2s bool, co corpus.ChunkOptions, ex extract.Extractor, sc *schemas, parallel int) (*analysis, error) {
	lang := Language(d.Text)
	norm, offmap := d.Text, []int32(nil)
	if t2s && text.IsChinese(lang) {
		norm, offmap = text.ToSimplified(d.Text)
	}
	orig := []rune(d.Text)
	a := &analysis{doc: kg.Document{
		Key: d.Key, Title: d.Title, Section: d.Section, Lang: lang,
		Encoding: d.Encoding, Chars: len(orig), Text: d.Text, Norm: norm, OffsetMap: offmap,
	}}
	toOrig := func(off int) int { return text.OrigOffset(offmap, off) }
	a.chunks = corpus.Chunk(norm, d.Format, lang, co)
	sch := sc.forLang(lang)
	dc := extract.NewDocContext(d.Key, d.Title, d.Section)
	if text.IsChinese(lang) {
		dc.Use = docstats.OfDocument([]rune(norm))
	}
	results, err := extractChunks(ctx, a.chunks, lang, sch, ex, dc, parallel)
	if err != nil {
		return nil, err
	}
	a.facts = make([]store.ChunkFacts, len(a.chunks))
	for i := range a.chunks {
		c := &a.chunks[i]
		a.facts[i] = store.ChunkFacts{Seq: c.Seq, Result: toDocument(results[i], c, orig, toOrig)}
		c.Start, c.End = toOrig(c.Start), toOrig(c.End)
	}
	return a, nil
}

// extractChunks runs the extractor over a document's chunks: in order with
// a shared DocContext, or, with parallel > 1, several at once without one.
func extractChunks(ctx context.Context, chunks []kg.Chunk, lang string, sch *schema.Schema, ex extract.Extractor, dc *extract.DocContext, parallel int) ([]extract.Result, error) {
	out := make([]extract.Result, len(chunks))
	if parallel <= 1 || len(chunks) <= 1 {
		for i := range chunks {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			res, err := ex.Extract(ctx, extract.Input{Text: chunks[i].Text, Lang: lang, Schema: sch, Doc: dc})
			if err != nil {
				return nil, chunkError(chunks[i].Seq, len(chunks), err)
			}
			out[i] = res
		}
		return out, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var once sync.Once
	var firstErr error
	sem := make(chan struct{}, parallel)
	for i := range chunks {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer func() { <-sem; wg.Done() }()
			if ctx.Err() != nil {
				return
			}
			res, err := ex.Extract(ctx, extract.Input{Text: chunks[i].Text, Lang: lang, Schema: sch})
			if err != nil {
				once.Do(func() { firstErr = chunkError(chunks[i].Seq, len(chunks), err); cancel() })
				return
			}
			out[i] = res
		}(i)
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return out, ctx.Err()
}

// chunkError names the chunk an extraction error comes from, counting
// from 1: "chunk 3 of 12: …".
func chunkError(seq, n int, err error) error {
	return fmt.Errorf("chunk %d of %d: %w", seq+1, n, err)
}

// Language is the language of a document: text.DetectLanguage, except
// that a text of Chinese characters too short to tell classical from modern
// is taken as classical, the language annals is built for first.
func Language(s string) string {
	lang := text.DetectLanguage(s)
	if lang != text.Unknown {
		return lang
	}
	han, letters := 0, 0
	for i, r := range s {
		if i > 4000 {
			break
		}
		switch {
		case unicode.Is(unicode.Han, r):
			han++
		case unicode.IsLetter(r):
			letters++
		}
	}
	if han > 0 && han >= letters {
		return text.Classical
	}
	return lang
}

// ExtractOptions tunes ExtractText.
type ExtractOptions struct {
	Schema    string // "" chooses by language
	T2S       bool
	Chunk     corpus.ChunkOptions
	Extractor extract.Extractor
	Title     string // helps resolve short names (诸葛亮传 → 亮 is 诸葛亮)
	Parallel  int    // chunks extracted at once (for LLM extractors)
}

// ExtractText extracts from a text on its own, as indexing would, with
// offsets into s. It needs no workspace.
func ExtractText(ctx context.Context, s string, opts ExtractOptions) (extract.Result, string, error) {
	if opts.Chunk.MaxChars == 0 {
		opts.Chunk = corpus.DefaultChunkOptions()
	}
	sc, err := newSchemas(opts.Schema)
	if err != nil {
		return extract.Result{}, "", err
	}
	d := corpus.Doc{Key: "-", Title: opts.Title, Format: "txt", Text: s}
	a, err := analyse(ctx, d, opts.T2S, opts.Chunk, opts.Extractor, sc, opts.Parallel)
	if err != nil {
		return extract.Result{}, "", err
	}
	var out extract.Result
	for _, f := range a.facts {
		out.Entities = append(out.Entities, f.Result.Entities...)
		out.Triples = append(out.Triples, f.Result.Triples...)
	}
	return dedupe(out), a.doc.Lang, nil
}

// dedupe drops facts found twice (overlapping chunks), keyed by offsets.
func dedupe(r extract.Result) extract.Result {
	type ek struct {
		s, e int
		name string
		typ  string
	}
	seenE := map[ek]bool{}
	var out extract.Result
	for _, e := range r.Entities {
		k := ek{e.Start, e.End, e.Canonical(), e.Type}
		if !seenE[k] {
			seenE[k] = true
			out.Entities = append(out.Entities, e)
		}
	}
	type tk struct {
		rel            string
		hs, he, ts, te int
	}
	seenT := map[tk]bool{}
	for _, t := range r.Triples {
		k := tk{t.Relation, t.Head.Start, t.Head.End, t.Tail.Start, t.Tail.End}
		if !seenT[k] {
			seenT[k] = true
			out.Triples = append(out.Triples, t)
		}
	}
	return out
}

// toDocument moves a chunk's extraction into document offsets of the
// original text, drops what lies wholly in the overlap with the previous
// chunk (that chunk has already read it), and gives surfaces in the original
// characters.
func toDocument(res extract.Result, c *kg.Chunk, orig []rune, toOrig func(int) int) extract.Result {
	var out extract.Result
	span := func(s kg.Span) kg.Span {
		return kg.Span{Start: toOrig(c.Start + s.Start), End: toOrig(c.Start + s.End)}
	}
	surface := func(s kg.Span) string {
		if s.Start < 0 || s.End > len(orig) || s.Start > s.End {
			return ""
		}
		return string(orig[s.Start:s.End])
	}
	entity := func(e extract.Entity) extract.Entity {
		sp := span(e.Span)
		name := e.Canonical()
		e.Span, e.Text, e.Name = sp, surface(sp), name
		return e
	}
	for _, e := range res.Entities {
		if c.Overlap > 0 && e.End <= c.Overlap {
			continue
		}
		out.Entities = append(out.Entities, entity(e))
	}
	for _, t := range res.Triples {
		if c.Overlap > 0 && t.Evidence.End <= c.Overlap {
			continue
		}
		t.Head, t.Tail, t.Evidence = entity(t.Head), entity(t.Tail), span(t.Evidence)
		if t.AliasKind == "" && (t.Relation == "别称" || t.Relation == "alias_of") {
			t.AliasKind = "alias"
		}
		out.Triples = append(out.Triples, t)
	}
	return out
}

// schemas resolves the schema for each language once.
type schemas struct {
	extend func(*schema.Schema) *schema.Schema
	fixed  *schema.Schema
	mu     sync.Mutex
	byLn   map[string]*schema.Schema
}

func newSchemas(nameOrPath string) (*schemas, error) {
	s := &schemas{byLn: map[string]*schema.Schema{}}
	if nameOrPath != "" {
		sc, err := schema.Load(nameOrPath)
		if err != nil {
			return nil, err
		}
		s.fixed = sc
	}
	return s, nil
}

func (s *schemas) forLang(lang string) *schema.Schema {
	name := schema.ForLanguage(lang)
	s.mu.Lock()
	defer s.mu.Unlock()
	if sc, ok := s.byLn[name]; ok {
		return sc
	}
	sc := s.fixed
	if sc == nil {
		sc = schema.MustLoad(name)
	}
	if s.extend != nil {
		sc = s.extend(sc)
	}
	s.byLn[name] = sc
	return sc
}

// name is the schema's name as step versions record it; a grown schema
// counts as the same, so that growth does not re-run finished documents.
func (s *schemas) name(lang string) string {
	if s.fixed != nil {
		return s.fixed.Name
	}
	return schema.ForLanguage(lang)
}
