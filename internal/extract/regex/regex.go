// Package regex extracts with regular expressions that an LLM writes for a
// passage's writing pattern. Texts of one kind (a biographical dictionary, a
// dynastic history's 列传) repeat a few formulae — 诸葛亮，字孔明，琅邪阳都人也 —
// so a regex written for one passage reads the next hundred without another
// call. The LLM's regex is compiled and checked before use: it must compile,
// must name a formula rather than match any text, and its groups and
// relations must fit the schema. Good regexes are kept, in memory and in an
// optional Store, and tried on every new passage before the LLM is asked.
// When no regex works, a fallback extractor reads the passage.
//
// Offline, only the kept patterns and the built-in seeds run, then the
// fallback.
package regex

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/schema"
	"github.com/annals-project/annals/internal/text"
)

// version changes whenever the code below would produce different output.
const version = "regex-1"

// Store keeps learned patterns between runs.
type Store interface {
	Load(ctx context.Context) ([]Pattern, error)
	Save(ctx context.Context, p Pattern) error
}

// Options tune the extractor; the zero value is the default.
type Options struct {
	// Store persists learned patterns; nil keeps them in memory only.
	Store Store
	// Attempts is how many regexes the LLM may write for one passage, each
	// after hearing why the last failed. Default 2.
	Attempts int
	// MaxCoverage is the largest share of a passage a pattern's groups may
	// capture before it counts as too broad. Default 0.8.
	MaxCoverage float64
	// MaxEntityRunes bounds one captured name. Default 24.
	MaxEntityRunes int
	// MaxPatterns bounds the learned patterns kept in memory; the least
	// used go first. Default 256.
	MaxPatterns int
	// Demos is how many learned patterns the prompt shows beside two
	// seeds. Default 2; negative shows none.
	Demos int
	// NoSeeds leaves out the built-in patterns.
	NoSeeds bool
	// Supplement also runs the fallback on passages the patterns read and
	// adds what it found, so that a regex that read one formula does not
	// cost the rest of the passage. Without it the fallback runs only when
	// no pattern worked.
	Supplement bool
}

func (o Options) withDefaults() Options {
	if o.Attempts <= 0 {
		o.Attempts = 2
	}
	if o.MaxCoverage <= 0 || o.MaxCoverage > 1 {
		o.MaxCoverage = 0.8
	}
	if o.MaxEntityRunes <= 0 {
		o.MaxEntityRunes = 24
	}
	if o.MaxPatterns <= 0 {
		o.MaxPatterns = 256
	}
	if o.Demos == 0 {
		o.Demos = 2
	}
	return o
}

// Stats counts what the extractor did since it was made.
type Stats struct {
	Chunks          int64 // passages extracted
	Calls           int64 // LLM calls made
	CacheHits       int64 // passages read by kept patterns, with no call
	Learned         int64 // LLM patterns that worked and were kept
	CompileFailures int64 // LLM regexes that did not compile
	Rejected        int64 // LLM replies refused: no JSON, unknown types, no fitting relation, too broad
	NoMatch         int64 // LLM regexes that read no fact from their own passage
	Fallbacks       int64 // passages handed to the fallback because no pattern worked
	SaveErrors      int64 // learned patterns the Store failed to keep
}

type counters struct {
	chunks, calls, hits, learned, compile, rejected, nomatch, fallbacks, saveErrs atomic.Int64
}

// entry is a kept pattern.
type entry struct {
	p     Pattern
	re    *regexp.Regexp
	seed  bool
	hits  atomic.Int64
	seq   int64    // insertion order, for ties when evicting
	bound sync.Map // *schema.Schema → bound: every chunk would bind it again
}

type bound struct {
	b *binding
	f *failure
}

func (e *entry) bind(sch *schema.Schema) (*binding, *failure) {
	if v, ok := e.bound.Load(sch); ok {
		b := v.(bound)
		return b.b, b.f
	}
	b, f := bind(e.re, e.p, sch)
	e.bound.Store(sch, bound{b, f})
	return b, f
}

// Extractor reads passages with kept regexes, asks the LLM for new ones, and
// falls back to another extractor.
type Extractor struct {
	c        llm.Client
	fallback extract.Extractor
	opts     Options
	prompt   string // prompt version

	mu      sync.RWMutex
	entries []*entry
	keys    map[string]bool
	seq     int64
	loaded  bool
	loadMu  sync.Mutex

	n counters
}

// New returns the extractor. c may be nil (offline: kept patterns and
// seeds only); fallback may be nil (then a passage no pattern reads yields
// nothing).
func New(c llm.Client, fallback extract.Extractor, opts Options) *Extractor {
	x := &Extractor{c: c, fallback: fallback, opts: opts.withDefaults(), keys: map[string]bool{}}
	extra := fmt.Sprintf("%d/%g/%d/%d/%v/%v", x.opts.Attempts, x.opts.MaxCoverage, x.opts.MaxEntityRunes, x.opts.Demos, x.opts.NoSeeds, x.opts.Supplement)
	if c != nil {
		extra += "/" + c.Model()
	}
	x.prompt = promptVersion(extra)
	if !x.opts.NoSeeds {
		for _, p := range Seeds() {
			if re, f := compile(p); f == nil {
				x.add(p, re, true)
			}
		}
	}
	return x
}

// Name implements extract.Extractor.
func (*Extractor) Name() string { return "regex" }

// Version implements extract.Extractor.
func (x *Extractor) Version() string {
	v := version + "-" + x.prompt
	if x.fallback != nil {
		v += "+" + x.fallback.Version()
	}
	return v
}

// VersionFor is the version for one language, following the fallback's
// per-language version when it has one.
func (x *Extractor) VersionFor(lang string) string {
	v := version + "-" + x.prompt
	if f, ok := x.fallback.(interface{ VersionFor(string) string }); ok {
		v += "+" + f.VersionFor(lang)
	} else if x.fallback != nil {
		v += "+" + x.fallback.Version()
	}
	return v
}

// Stats returns the counters so far.
func (x *Extractor) Stats() Stats {
	return Stats{
		Chunks: x.n.chunks.Load(), Calls: x.n.calls.Load(), CacheHits: x.n.hits.Load(),
		Learned: x.n.learned.Load(), CompileFailures: x.n.compile.Load(), Rejected: x.n.rejected.Load(),
		NoMatch: x.n.nomatch.Load(), Fallbacks: x.n.fallbacks.Load(), SaveErrors: x.n.saveErrs.Load(),
	}
}

// Patterns lists the kept patterns, seeds first, then by use.
func (x *Extractor) Patterns() []Pattern {
	x.mu.RLock()
	es := append([]*entry(nil), x.entries...)
	x.mu.RUnlock()
	sortEntries(es)
	out := make([]Pattern, len(es))
	for i, e := range es {
		out[i] = e.p
	}
	return out
}

func sortEntries(es []*entry) {
	sort.SliceStable(es, func(a, b int) bool {
		if es[a].seed != es[b].seed {
			return es[a].seed
		}
		ha, hb := es[a].hits.Load(), es[b].hits.Load()
		if ha != hb {
			return ha > hb
		}
		return es[a].seq < es[b].seq
	})
}

// add keeps a pattern unless an identical one is kept; when the learned
// patterns are at their limit the least used one goes.
func (x *Extractor) add(p Pattern, re *regexp.Regexp, seed bool) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	k := p.key()
	if x.keys[k] {
		return false
	}
	if !seed {
		learned, victim := 0, -1
		for i, e := range x.entries {
			if e.seed {
				continue
			}
			learned++
			if victim < 0 || e.hits.Load() < x.entries[victim].hits.Load() {
				victim = i
			}
		}
		if learned >= x.opts.MaxPatterns && victim >= 0 {
			delete(x.keys, x.entries[victim].p.key())
			x.entries = append(x.entries[:victim], x.entries[victim+1:]...)
		}
	}
	x.seq++
	x.entries = append(x.entries, &entry{p: p, re: re, seed: seed, seq: x.seq})
	x.keys[k] = true
	return true
}

// load reads the Store once; a failed load is tried again next time.
func (x *Extractor) load(ctx context.Context) error {
	x.loadMu.Lock()
	defer x.loadMu.Unlock()
	if x.loaded || x.opts.Store == nil {
		return nil
	}
	ps, err := x.opts.Store.Load(ctx)
	if err != nil {
		return fmt.Errorf("regex: load patterns: %w", err)
	}
	for _, p := range ps {
		// A stored pattern passed these checks once; a corrupted or
		// hand-edited one that does not is skipped.
		if re, f := compile(p); f == nil {
			x.add(p, re, false)
		}
	}
	x.loaded = true
	return nil
}

// schemaFor is the input's schema, or the default for its language.
func schemaFor(in extract.Input) *schema.Schema {
	if in.Schema != nil {
		return in.Schema
	}
	return schema.DefaultFor(in.Lang)
}

// fits reports whether a pattern is meant for this schema and language.
func fits(p Pattern, sch *schema.Schema, lang string) bool {
	if p.Schema != "" && p.Schema != sch.Name {
		return false
	}
	if p.Lang == "" || lang == "" || p.Lang == lang {
		return true
	}
	return text.IsChinese(p.Lang) && text.IsChinese(lang)
}

func (x *Extractor) limits() limits {
	return limits{maxRunes: x.opts.MaxEntityRunes, maxCoverage: x.opts.MaxCoverage}
}

// Extract implements extract.Extractor.
func (x *Extractor) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	if err := ctx.Err(); err != nil {
		return extract.Result{}, err
	}
	x.n.chunks.Add(1)
	if err := x.load(ctx); err != nil {
		return extract.Result{}, err
	}
	sch := schemaFor(in)
	c := newChunk(in)
	if res, ok := x.fromKept(c, sch, in.Lang); ok {
		x.n.hits.Add(1)
		return x.finish(ctx, in, res)
	}
	if x.c != nil && len(c.runes) > 0 {
		res, ok, err := x.learn(ctx, in, c, sch)
		if err != nil {
			return extract.Result{}, err
		}
		if ok {
			return x.finish(ctx, in, res)
		}
	}
	x.n.fallbacks.Add(1)
	if x.fallback == nil {
		return extract.Result{}, nil
	}
	return x.fallback.Extract(ctx, in)
}

// fromKept runs every kept pattern that fits and unites what they read.
func (x *Extractor) fromKept(c *chunk, sch *schema.Schema, lang string) (extract.Result, bool) {
	x.mu.RLock()
	es := append([]*entry(nil), x.entries...)
	x.mu.RUnlock()
	var acc result
	for _, e := range es {
		if !fits(e.p, sch, lang) {
			continue
		}
		b, f := e.bind(sch)
		if f != nil {
			continue
		}
		r, f := b.apply(c, x.limits())
		if f != nil {
			continue
		}
		e.hits.Add(1)
		acc.add(r)
	}
	return acc.res, len(acc.res.Triples) > 0
}

// learn asks the LLM for a pattern for this passage, feeding each failure
// back, and keeps the first that works.
func (x *Extractor) learn(ctx context.Context, in extract.Input, c *chunk, sch *schema.Schema) (extract.Result, bool, error) {
	msgs := []llm.Message{
		{Role: "system", Content: system(sch, x.opts.MaxEntityRunes, x.demos(sch, in.Lang))},
		{Role: "user", Content: in.Text},
	}
	for attempt := 0; attempt < x.opts.Attempts; attempt++ {
		x.n.calls.Add(1)
		resp, err := x.c.Chat(ctx, llm.Request{Step: Step, Messages: msgs, Temperature: 0, MaxTokens: 1024, Schema: replySchema,
			Prompt: version, Validate: validReply})
		if resp == nil {
			// A reply that came with an error (its cache write failed, or it
			// is not a pattern and so was not cached) is still a reply; only
			// no reply stops the passage.
			return extract.Result{}, false, fmt.Errorf("regex: %w", err)
		}
		p, re, res, f := x.try(resp.Content, c, sch, in.Lang)
		if resp.Truncated {
			f = reject("the reply was cut off at the token limit; reply with the JSON object alone")
		}
		if f == nil {
			if x.add(p, re, false) {
				x.n.learned.Add(1)
				if x.opts.Store != nil {
					if err := x.opts.Store.Save(ctx, p); err != nil {
						// Losing a pattern costs a call next run, not a fact.
						x.n.saveErrs.Add(1)
					}
				}
			}
			return res, true, nil
		}
		switch f.kind {
		case failCompile:
			x.n.compile.Add(1)
		case failNoMatch:
			x.n.nomatch.Add(1)
		default:
			x.n.rejected.Add(1)
		}
		msgs = append(msgs,
			llm.Message{Role: "assistant", Content: clip(resp.Content, 2000)},
			llm.Message{Role: "user", Content: fmt.Sprintf(feedback, f.msg)})
	}
	return extract.Result{}, false, nil
}

// validReply is the requests' Validate: a reply is good when it is a
// pattern in the form asked for. One whose regex then fails to compile or
// to read the passage is still a good reply of the conversation: it is
// cached, so that a later run replays the same exchange at no cost, and the
// next message tells the model what went wrong. A reply that is no pattern
// at all is not cached.
func validReply(content string) error {
	if _, f := parseReply(content); f != nil {
		return errors.New(f.msg)
	}
	return nil
}

// try checks one reply against the passage it was written for.
func (x *Extractor) try(reply string, c *chunk, sch *schema.Schema, lang string) (Pattern, *regexp.Regexp, extract.Result, *failure) {
	p, f := parseReply(reply)
	if f != nil {
		return Pattern{}, nil, extract.Result{}, f
	}
	re, f := compile(p)
	if f != nil {
		return p, nil, extract.Result{}, f
	}
	b, f := bind(re, p, sch)
	if f != nil {
		return p, nil, extract.Result{}, f
	}
	res, f := b.apply(c, x.limits())
	if f != nil {
		return p, nil, extract.Result{}, f
	}
	p.Schema, p.Lang, p.Source = sch.Name, lang, "llm"
	if t := res.Triples[0]; t.Evidence.Start >= 0 && t.Evidence.End <= len(c.runes) {
		p.Example = clip(string(c.runes[t.Evidence.Start:t.Evidence.End]), 120)
	}
	return p, re, res, nil
}

// maxSeedDemos bounds the seeds shown: two teach the form, more only cost
// tokens on every call.
const maxSeedDemos = 2

// demos picks the first seeds for the schema and the most used learned
// patterns.
func (x *Extractor) demos(sch *schema.Schema, lang string) []Pattern {
	x.mu.RLock()
	es := append([]*entry(nil), x.entries...)
	x.mu.RUnlock()
	sortEntries(es)
	var out []Pattern
	seeds, learned := 0, 0
	for _, e := range es {
		if !fits(e.p, sch, lang) || e.p.Example == "" {
			continue
		}
		if e.seed && seeds >= maxSeedDemos || !e.seed && learned >= x.opts.Demos {
			continue
		}
		if _, f := e.bind(sch); f != nil {
			continue
		}
		if e.seed {
			seeds++
		} else {
			learned++
		}
		out = append(out, e.p)
	}
	return out
}

// finish adds the fallback's findings when asked to.
func (x *Extractor) finish(ctx context.Context, in extract.Input, res extract.Result) (extract.Result, error) {
	if !x.opts.Supplement || x.fallback == nil {
		return res, nil
	}
	more, err := x.fallback.Extract(ctx, in)
	if err != nil {
		return extract.Result{}, err
	}
	acc := result{res: res}
	acc.index()
	acc.add(more)
	return acc.res, nil
}

// result unites results: a mention is one (span, type), a triple one
// (head span, relation, tail span); the first seen wins.
type result struct {
	res  extract.Result
	ents map[entKey]bool
	trs  map[triKey]bool
}

type entKey struct {
	sp  kg.Span
	typ string
}

type triKey struct {
	h, t kg.Span
	rel  string
}

func (r *result) index() {
	r.ents, r.trs = map[entKey]bool{}, map[triKey]bool{}
	for _, e := range r.res.Entities {
		r.ents[entKey{e.Span, e.Type}] = true
	}
	for _, t := range r.res.Triples {
		r.trs[triKey{t.Head.Span, t.Tail.Span, t.Relation}] = true
	}
}

func (r *result) add(o extract.Result) {
	if r.ents == nil {
		r.index()
	}
	for _, e := range o.Entities {
		if k := (entKey{e.Span, e.Type}); !r.ents[k] {
			r.ents[k] = true
			r.res.Entities = append(r.res.Entities, e)
		}
	}
	for _, t := range o.Triples {
		if k := (triKey{t.Head.Span, t.Tail.Span, t.Relation}); !r.trs[k] {
			r.trs[k] = true
			r.res.Triples = append(r.res.Triples, t)
		}
	}
}
