// Package pipeline indexes a corpus as a list of named, versioned steps.
// Document steps (ingest, chunk, extract, lexical) work on one document at
// a time while it is in memory, and everything they make of it is written
// in one transaction; the store records which version of each step made it,
// so unchanged documents cost a hash and a changed step re-runs only where
// it must. Corpus steps (align, embed, date) then work over the whole
// corpus. Documents are written in batches: a process killed at any point
// leaves a consistent database, and the next run goes on from there.
package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/corpus"
	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/resolve"
	"github.com/annals-project/annals/internal/schema"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// IndexStore is what the runner reads and writes; the corpus steps hold
// the stores they need themselves.
type IndexStore interface {
	DocStates(ctx context.Context) (map[string]store.DocState, error)
	WriteDocs(ctx context.Context, docs []store.DocWrite) error
	// Failures lists the documents a step failed on; ClearFailures forgets
	// those whose stored version turned out to be current after all.
	Failures(ctx context.Context) ([]store.Failure, error)
	ClearFailures(ctx context.Context, keys []string) error
}

// Options tunes an index run: which steps, and how the runner runs them.
type Options struct {
	// Steps are the steps to run, document steps first; Standard makes the
	// usual list from the fields below.
	Steps []Step
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
	// Total is how many documents the run reads in all: 0 until known,
	// then a quick count made while the reading begins (files counted,
	// not read), and the exact number once every file was read.
	Total int
	// Step is the corpus step that begins, where one does; Documents and
	// the rest then stay as the document steps left them.
	Step string
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
	// Communities is what finding communities did.
	Communities *CommunityReport `json:"communities,omitempty"`
	// Ran counts the documents each document step ran on and wrote.
	Ran map[string]int `json:"ran,omitempty"`
	// Steps are the run's steps in order, with what each cost.
	Steps []StepTime `json:"steps,omitempty"`
}

type job struct {
	doc   corpus.Doc
	hash  string
	state *store.DocState // nil for a new document
}

type result struct {
	write store.DocWrite
	kind  string // added, changed, updated
	err   error
	step  string // the step err comes from
	key   string
	chars int
	ran   []string // the document steps that ran again
}

// Standard is the usual list of steps: the document steps, then entity
// alignment over the whole corpus. Callers append the other corpus steps.
func Standard(opts Options, db resolve.AlignStore) ([]Step, error) {
	steps, err := DocSteps(opts)
	if err != nil {
		return nil, err
	}
	return append(steps, Alignment(db, false)), nil
}

// Index runs opts.Steps over every document under paths: the document
// steps on each document that needs them, then the corpus steps in order.
func Index(ctx context.Context, st IndexStore, paths []string, opts Options) (*Report, error) {
	start := time.Now()
	docSteps, corpusSteps, err := split(opts.Steps)
	if err != nil {
		return nil, err
	}
	if len(docSteps) == 0 && len(corpusSteps) == 0 {
		return nil, errors.New("pipeline: no steps")
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
	r := &runner{st: st, opts: opts, steps: docSteps, rep: &Report{}, busy: make([]atomic.Int64, len(docSteps)+1)}
	err = Timed(&r.rep.Steps, "documents", func() error { return r.documents(ctx, paths) })
	for i, s := range docSteps {
		r.rep.Steps = append(r.rep.Steps, StepTime{Name: s.Name(), Work: time.Duration(r.busy[i].Load())})
	}
	r.rep.Steps = append(r.rep.Steps, StepTime{Name: "write", Work: time.Duration(r.busy[len(docSteps)].Load())})
	if err != nil {
		return r.rep, err
	}
	for _, s := range corpusSteps {
		if opts.Progress != nil {
			opts.Progress(Progress{Documents: r.progress.Documents, Written: r.progress.Written,
				Failed: r.progress.Failed, Chars: r.progress.Chars, Total: r.progress.Total, Step: s.Name()})
		}
		err := Timed(&r.rep.Steps, s.Name(), func() error { return s.Run(ctx, &Run{Report: r.rep}) })
		if errors.Is(err, llm.ErrBudget) {
			// Out of tokens in a corpus step: what is done is kept, the
			// next run goes on.
			if r.rep.Stopped == "" {
				r.rep.Stopped = err.Error()
			}
			break
		}
		if err != nil {
			return r.rep, fmt.Errorf("%s: %w", s.Name(), err)
		}
	}
	r.rep.Elapsed = time.Since(start)
	return r.rep, nil
}

// runner reads, works on and writes the documents: one goroutine walks the
// paths and hashes each document, workers run the document steps, and one
// writer batches the results into transactions.
type runner struct {
	st    IndexStore
	opts  Options
	steps []DocStep

	mu       sync.Mutex // guards rep, progress and counted between the walker and the writer
	rep      *Report
	progress Progress
	counted  bool // progress.Total is exact: every file was read
	// busy is the time spent in each document step, and then in writing,
	// summed over documents, in nanoseconds.
	busy []atomic.Int64
}

// report tells opts.Progress about one more document, under r.mu.
func (r *runner) report(key string) {
	r.progress.Documents++
	r.progress.Key = key
	if r.opts.Progress != nil {
		r.opts.Progress(r.progress)
	}
}

func (r *runner) documents(ctx context.Context, paths []string) error {
	states, err := r.st.DocStates(ctx)
	if err != nil {
		return err
	}
	fails, err := r.st.Failures(ctx)
	if err != nil {
		return err
	}
	failed := map[string]bool{}
	for _, f := range fails {
		failed[f.Key] = true
	}
	var stale []string // failed once, current now: the failure is old news

	// ctx carries the writes; work, the reading and the steps, which a
	// budget stop cuts short while finished documents are still written.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work, stopWork := context.WithCancel(ctx)
	defer stopWork()
	jobs := make(chan job, r.opts.Workers*2)
	results := make(chan result, r.opts.Workers*2)

	// A quick count gives the documents' total while the reading goes on;
	// the walk's own count replaces it when the walk is done.
	counting, stopCounting := context.WithCancel(work)
	var countDone sync.WaitGroup
	defer countDone.Wait()
	defer stopCounting()
	countDone.Go(func() { r.count(counting, paths) })

	var walkErr error
	go func() {
		defer close(jobs)
		walkErr = r.walk(ctx, work, paths, states, func(key string) {
			if failed[key] {
				stale = append(stale, key)
			}
		}, jobs)
		stopCounting()
		if walkErr == nil && work.Err() == nil {
			r.mu.Lock()
			r.counted = true
			r.total(r.rep.Documents)
			r.mu.Unlock()
		}
	}()

	var wg sync.WaitGroup
	for range r.opts.Workers {
		wg.Go(func() {
			for j := range jobs {
				res := r.process(work, j)
				select {
				case results <- res:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	go func() { wg.Wait(); close(results) }()

	if err := r.write(ctx, work, stopWork, cancel, results); err != nil {
		return err
	}
	if walkErr != nil {
		return walkErr
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return r.st.ClearFailures(ctx, stale)
}

// count counts the documents under paths quickly and reports the total,
// unless the walk was done first.
func (r *runner) count(ctx context.Context, paths []string) {
	n := 0
	for _, root := range paths {
		c, err := corpus.Count(ctx, root, corpus.WalkOptions{Within: r.opts.Within, MaxBytes: r.opts.MaxBytes})
		if err != nil {
			return
		}
		n += c
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.counted {
		r.total(n)
	}
}

// total reports n as the documents' total, under r.mu.
func (r *runner) total(n int) {
	if n == r.progress.Total {
		return
	}
	r.progress.Total = n
	if r.opts.Progress != nil {
		r.opts.Progress(r.progress)
	}
}

// walk reads every path and passes on each document some step must run on;
// current is told about the others.
func (r *runner) walk(ctx, work context.Context, paths []string, states map[string]store.DocState, current func(key string), jobs chan<- job) error {
	for _, root := range paths {
		warnings, err := corpus.WalkWith(work, root, corpus.WalkOptions{Within: r.opts.Within, MaxBytes: r.opts.MaxBytes}, func(d corpus.Doc) error {
			sum := sha256.Sum256([]byte(d.Text))
			j := job{doc: d, hash: hex.EncodeToString(sum[:])}
			if s, ok := states[d.Key]; ok {
				j.state = &s
			}
			needed := r.needsWork(j)
			r.mu.Lock()
			r.rep.Documents++
			r.rep.Characters += int64(utf8.RuneCountInString(d.Text))
			if !needed {
				current(d.Key)
				r.rep.Unchanged++
				r.report(d.Key)
			}
			r.mu.Unlock()
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
			r.mu.Lock()
			r.rep.Skipped = append(r.rep.Skipped, w.Error())
			r.mu.Unlock()
			if r.opts.Warn != nil {
				r.opts.Warn(w.Error())
			}
		}
		if err != nil {
			if work.Err() == nil || ctx.Err() != nil {
				return fmt.Errorf("read %s: %w", root, err)
			}
			return nil
		}
	}
	return nil
}

// needsWork reports whether some step must run on a document: it is new or
// changed, or a step's version differs from the one that ran.
func (r *runner) needsWork(j job) bool {
	if j.state == nil || j.state.Version != j.hash {
		return true
	}
	// Only the extract step's version depends on the language, which is a
	// property of the unchanged text.
	return planFor(r.steps, &Work{Hash: j.hash, Lang: Language(j.doc.Text), Stored: j.state}).any()
}

// process runs the document steps a document needs and makes its write.
func (r *runner) process(ctx context.Context, j job) (res result) {
	res.key = j.doc.Key
	step := ""
	defer func() {
		if e := recover(); e != nil {
			res.err, res.step = fmt.Errorf("internal error while indexing: %v", e), step
		}
	}()
	w := &Work{Source: j.doc, Hash: j.hash, Lang: Language(j.doc.Text), Stored: j.state}
	p := planFor(r.steps, w)
	for i, s := range r.steps {
		if !p.compute[s.Name()] {
			continue
		}
		step = s.Name()
		t0 := time.Now()
		err := s.Do(ctx, w)
		r.busy[i].Add(int64(time.Since(t0)))
		if err != nil {
			res.err, res.step = err, step
			return res
		}
	}
	dw := store.DocWrite{Doc: kg.Document{Key: j.doc.Key}, KeepDoc: true, Steps: p.versions}
	if w.Doc.Key != "" {
		// The stored row is kept unless ingest runs again, but chunks and
		// evidence written anew cut their original characters and
		// sentences out of the text worked out in memory.
		dw.Doc = w.Doc
	}
	for _, s := range r.steps {
		if p.rerun[s.Name()] {
			s.Write(w, &dw)
			res.ran = append(res.ran, s.Name())
		}
	}
	switch {
	case j.state == nil:
		res.kind = "added"
	case j.state.Version != j.hash:
		res.kind = "changed"
	default:
		res.kind = "updated"
	}
	res.write, res.chars = dw, utf8.RuneCountInString(j.doc.Text)
	return res
}

// write batches the results into transactions. A budget stop ends the
// reading (stopWork) and keeps every finished document.
func (r *runner) write(ctx, work context.Context, stopWork, cancel func(), results <-chan result) error {
	var batch []store.DocWrite
	batchChars, batchNo := 0, 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		t0 := time.Now()
		err := r.st.WriteDocs(ctx, batch)
		r.busy[len(r.steps)].Add(int64(time.Since(t0)))
		if err != nil {
			return err
		}
		batchNo++
		batch, batchChars = batch[:0], 0
		if r.opts.AfterCommit != nil {
			r.opts.AfterCommit(batchNo)
		}
		return nil
	}
	var writeErr error
	for res := range results {
		if writeErr != nil {
			continue // drain
		}
		stopped := r.rep.Stopped != ""
		switch {
		case res.err != nil && errors.Is(res.err, llm.ErrBudget):
			// Out of tokens: stop reading, keep every finished document.
			if !stopped {
				r.mu.Lock()
				r.rep.Stopped = res.err.Error()
				r.mu.Unlock()
				stopWork()
			}
			continue
		case res.err != nil && stopped && errors.Is(res.err, context.Canceled):
			continue // cut short by the stop above
		case res.err != nil && (ctx.Err() != nil || work.Err() != nil):
			// The run was cut short (interrupted, or stopped above): not
			// the document's failure.
			msg := fmt.Sprintf("%s: skipped: %v", res.key, res.err)
			r.mu.Lock()
			r.rep.Skipped = append(r.rep.Skipped, msg)
			r.mu.Unlock()
			if r.opts.Warn != nil {
				r.opts.Warn(msg)
			}
			continue
		case res.err != nil:
			// A step failed on the document: record it, in the same write
			// path as documents, and go on. Nothing else of it is written.
			f := Failure{Key: res.key, Step: res.step, Reason: res.err.Error()}
			batch = append(batch, store.DocWrite{Doc: kg.Document{Key: f.Key}, Failed: &store.Failure{Key: f.Key, Step: f.Step, Reason: f.Reason}})
			r.mu.Lock()
			r.rep.Failed = append(r.rep.Failed, f)
			r.progress.Failed++
			r.report(res.key)
			r.mu.Unlock()
			if r.opts.Warn != nil {
				r.opts.Warn(fmt.Sprintf("%s: failed (%s): %s", f.Key, f.Step, f.Reason))
			}
		default:
			batch = append(batch, res.write)
			batchChars += res.chars
			r.mu.Lock()
			switch res.kind {
			case "added":
				r.rep.Added++
			case "changed":
				r.rep.Changed++
			default:
				r.rep.Updated++
			}
			if r.rep.Ran == nil {
				r.rep.Ran = map[string]int{}
			}
			for _, name := range res.ran {
				r.rep.Ran[name]++
			}
			r.progress.Written++
			r.progress.Chars += int64(res.chars)
			r.report(res.key)
			r.mu.Unlock()
		}
		if len(batch) >= r.opts.BatchDocs || batchChars >= r.opts.BatchChars {
			if err := flush(); err != nil {
				writeErr = err
				cancel() // the workers stop; the rest is drained
			}
		}
	}
	if writeErr != nil {
		return writeErr
	}
	return flush()
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

// ExtractText extracts from a text on its own, as the document steps would, with
// offsets into s. It needs no workspace.
func ExtractText(ctx context.Context, s string, opts ExtractOptions) (extract.Result, string, error) {
	steps, err := DocSteps(Options{Schema: opts.Schema, T2S: opts.T2S, Chunk: opts.Chunk, Extractor: opts.Extractor, Parallel: opts.Parallel})
	if err != nil {
		return extract.Result{}, "", err
	}
	w := &Work{Source: corpus.Doc{Key: "-", Title: opts.Title, Format: "txt", Text: s}, Lang: Language(s)}
	for _, st := range steps {
		if st.Name() == StepLexical {
			continue // search terms are for the store
		}
		if err := st.(DocStep).Do(ctx, w); err != nil {
			return extract.Result{}, "", err
		}
	}
	var out extract.Result
	for _, f := range w.Found {
		out.Entities = append(out.Entities, f.Entities...)
		out.Triples = append(out.Triples, f.Triples...)
		out.Attributes = append(out.Attributes, f.Attributes...)
	}
	return dedupe(out), w.Lang, nil
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
	type ak struct {
		name, entity string
		at           kg.Span
	}
	seenA := map[ak]bool{}
	for _, a := range r.Attributes {
		k := ak{a.Name, a.Entity.Canonical(), a.At}
		if !seenA[k] {
			seenA[k] = true
			out.Attributes = append(out.Attributes, a)
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
	for _, a := range res.Attributes {
		if c.Overlap > 0 && a.Evidence.End <= c.Overlap {
			continue
		}
		a.Entity, a.At, a.Evidence = entity(a.Entity), span(a.At), span(a.Evidence)
		a.Value = surface(a.At)
		out.Attributes = append(out.Attributes, a)
	}
	out.Attributes = withNameAttributes(out)
	return out
}

// withNameAttributes adds to a chunk's attributes the names its alias
// triples give a kind that is an attribute (字, 号, 谥号 …), however the
// extractor read them: every such name is an attribute of its entity, as
// every such attribute is an alias. Triples set aside give none.
func withNameAttributes(r extract.Result) []extract.Attribute {
	type ak struct {
		name, entity string
		at           kg.Span
	}
	have := map[ak]bool{}
	for _, a := range r.Attributes {
		have[ak{a.Name, a.Entity.Canonical(), a.At}] = true
	}
	out := r.Attributes
	for _, t := range r.Triples {
		if t.Aside || !kg.IsAliasRelation(t.Relation) || !extract.IsNameKind(t.AliasKind) {
			continue
		}
		k := ak{t.AliasKind, t.Head.Canonical(), t.Tail.Span}
		if have[k] {
			continue
		}
		have[k] = true
		out = append(out, extract.Attribute{Entity: t.Head, Name: t.AliasKind, Value: t.Tail.Text, At: t.Tail.Span, Evidence: t.Evidence})
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
