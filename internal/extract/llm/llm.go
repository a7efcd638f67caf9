// Package llmextract is the LLM-backed extractor: seed 000's five-step chain
// of thought (translate, recognise entities, analyse relations, build the
// relation framework, emit triples) in one call per chunk, bounded by the
// active schema (Youtu-GraphRAG §3.1). Nothing the model says is stored
// unless the chunk and the schema bear it out: every entity is found in
// the text and every triple respects the schema's domain and range.
package llmextract

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/schema"
)

// Defaults of Options.
const DefaultMaxTokens = 1500

// Step is the usage-accounting name of the extraction calls.
const Step = "extract"

// Options tune the extractor.
type Options struct {
	// PromptDir holds templates that replace the built-in ones of the same
	// name (see PromptFile); usually the workspace's prompts folder.
	PromptDir   string
	Temperature float64
	MaxTokens   int // per call; 0 means DefaultMaxTokens
	// AllowGrowth asks the model to propose types the schema lacks; they
	// go to Growth, which decides when one joins the schema.
	AllowGrowth bool
	Growth      *schema.Growth
	Stats       *Stats // may be nil
	// Shots is how many worked examples the prompt shows: OneShot (also
	// 0), FiveShot, or ZeroShot for the steps alone.
	Shots int
}

// Extractor reads entities and relations with an LLM.
type Extractor struct {
	c       llm.Client
	opts    Options
	prompts map[string]*prompt
	err     error // from loading the prompts; every Extract returns it
}

var _ extract.Extractor = (*Extractor)(nil)

// New returns an extractor that calls c. A broken prompt override does not
// fail here but in Check and every Extract, so that the caller can report
// it where it reports other errors.
func New(c llm.Client, opts Options) *Extractor {
	if opts.MaxTokens <= 0 {
		opts.MaxTokens = DefaultMaxTokens
	}
	ps, err := loadPrompts(opts.PromptDir)
	return &Extractor{c: c, opts: opts, prompts: ps, err: err}
}

// Check reports a prompt override that cannot be used.
func (x *Extractor) Check() error { return x.err }

// Name is the extractor's name in stored facts.
func (x *Extractor) Name() string { return "llm" }

// Version changes with any prompt template, the model, or the handling of
// replies.
func (x *Extractor) Version() string {
	h := sha256.New()
	for _, l := range promptLangs {
		if p := x.prompts[l]; p != nil {
			h.Write([]byte(p.hash))
		}
	}
	return x.version(hex.EncodeToString(h.Sum(nil)))
}

// VersionFor is the version for one language, so that editing one
// language's prompt re-runs extraction only on that language.
func (x *Extractor) VersionFor(lang string) string {
	l := promptLang(lang)
	hash := ""
	if p := x.prompts[l]; p != nil {
		hash = p.hash
	}
	return l + "-" + x.version(hash)
}

func (x *Extractor) version(hash string) string {
	_, exHash, _ := loadExamples()
	sum := sha256.Sum256([]byte(logicVersion + "\x00" + hash + fmt.Sprintf("\x00%v\x00%s", x.opts.AllowGrowth, x.shots())))
	model := "none"
	if x.c != nil {
		model = x.c.Model()
	}
	if x.shots() != "one-shot" {
		// The examples shown are part of what the model is asked.
		sum = sha256.Sum256(append(sum[:], exHash...))
	}
	return hex.EncodeToString(sum[:])[:10] + "+" + model
}

// shots names the prompt variant.
func (x *Extractor) shots() string {
	switch x.opts.Shots {
	case ZeroShot:
		return "zero-shot"
	case FiveShot:
		return "five-shot"
	}
	return "one-shot"
}

// Output is everything one chunk's reply yielded, for callers that score
// or inspect the chain of thought as well as the facts.
type Output struct {
	Result      extract.Result
	Translation string     // step 1, empty where the prompt skips it
	Analysis    string     // step 3
	Framework   [][]string // step 4, as the model wrote it
	Proposals   []schema.Proposal
	Usage       llm.Usage
	Cached      bool
	// Read says how the reply was read: json, recovered, truncated,
	// tuples; empty when it was unusable and Failure says why.
	Read    string
	Failure string
}

// Extract implements extract.Extractor.
func (x *Extractor) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	out, err := x.Run(ctx, in)
	return out.Result, err
}

// Run extracts from one chunk and returns the whole chain of thought. A
// chunk counts only when the model's reply is whole and readable: a failed
// call (after the client's retries), a spent budget, a cancelled context, a
// broken prompt override, and also a reply that cannot be used (empty, not
// the JSON asked for, cut off at the token limit) are errors; for the last
// the Output has Failure set, and the error, a *ReplyError, says why in
// words. Such replies are never cached, so that asking again asks the
// model again.
func (x *Extractor) Run(ctx context.Context, in extract.Input) (Output, error) {
	var out Output
	if x.err != nil {
		return out, x.err
	}
	if x.c == nil {
		return out, llm.ErrNotConfigured
	}
	if err := ctx.Err(); err != nil {
		return out, err
	}
	st := x.opts.Stats
	st.add(func(c *Counts) { c.Chunks++ })
	if strings.TrimSpace(in.Text) == "" {
		return out, nil
	}
	sch := in.Schema
	if sch == nil {
		sch = schema.DefaultFor(in.Lang)
	}
	ch := newChunk(in.Text, in.Lang)
	growth := x.opts.AllowGrowth
	data := promptData{
		Lang:        in.Lang,
		Text:        in.Text,
		EntityTypes: sch.EntityTypeNames(),
		Groups:      groups(sch),
		Growth:      growth,
	}
	for _, a := range sch.AttributeTypes {
		data.Attributes = append(data.Attributes, a.Name)
	}
	data.ByDomain = byDomain(data.Groups)
	if in.Doc != nil {
		data.Hints = hints(in.Doc.Names, func(s string) bool { return len(ch.find(s)) > 0 })
	}
	exs, err := shown(in.Lang, x.opts.Shots, growth)
	if err != nil {
		return out, err
	}
	data.Examples = exs
	data.Known = in.Known
	p := x.prompts[promptLang(in.Lang)]
	system, user, err := p.render(data)
	if err != nil {
		return out, err
	}
	resp, err := x.c.Chat(ctx, llm.Request{
		Step:        Step,
		Messages:    []llm.Message{{Role: "system", Content: system}, {Role: "user", Content: user}},
		Temperature: x.opts.Temperature,
		MaxTokens:   x.opts.MaxTokens,
		Schema:      replySchema(sch, growth),
		Prompt:      PromptFile(in.Lang) + "@" + p.hash + "/" + logicVersion + "/" + x.shots(),
		Validate:    checkReply,
	})
	if err != nil && (resp == nil || !errors.Is(err, llm.ErrInvalidReply)) {
		// A refused reply is read below, to say why; any other error ends
		// the chunk.
		st.add(func(c *Counts) { c.Errors++ })
		if errors.Is(err, llm.ErrBudget) || ctx.Err() != nil {
			return out, err
		}
		return out, fmt.Errorf("llm extract: %w", err)
	}
	out.Usage, out.Cached = resp.Usage, resp.Cached
	st.add(func(c *Counts) {
		if resp.Cached {
			c.Cached++
		} else {
			c.Calls++
		}
		c.Usage = c.Usage.Add(resp.Usage)
	})

	v := &validator{c: ch, s: sch, doc: in.Doc, dropped: map[string]int{}}
	r, how, rerr := x.read(resp)
	if rerr != nil {
		out.Failure = rerr.Reason
		st.add(func(c *Counts) { c.Failures[out.Failure]++ })
		return out, rerr
	}
	out.Read = how
	out.Translation, out.Analysis = r.Translation, r.Analysis
	out.Framework = r.Framework
	out.Result = v.run(r)
	if growth {
		out.Proposals = v.proposals(r.NewTypes, chunkID(in))
		if g := x.opts.Growth; g != nil {
			for _, p := range out.Proposals {
				g.Propose(p)
			}
		}
	}
	st.add(func(c *Counts) {
		if how != readJSON {
			c.Read[how]++
		}
		for k, n := range v.dropped {
			c.Dropped[k] += n
		}
		c.Entities += len(out.Result.Entities)
		c.Triples += len(out.Result.Triples)
		c.Attributes += len(out.Result.Attributes)
		c.Proposals += len(out.Proposals)
	})
	return out, nil
}

// Failure reasons, as counted in Counts.Failures and set in
// Output.Failure.
const (
	FailEmpty     = "reply_empty"
	FailUnusable  = "reply_unusable"  // no JSON, or not the JSON asked for, or JSON that breaks off
	FailTruncated = "reply_truncated" // cut off at the completion limit
	FailFiltered  = "reply_filtered"  // withheld by the endpoint's content filter
)

// ReplyError is a reply the extractor cannot use. Its message says why
// and how the reply begins.
type ReplyError struct {
	Reason string // one of the Fail constants
	msg    string
}

func (e *ReplyError) Error() string { return e.msg }

// read parses a reply, refusing one that is not whole.
func (x *Extractor) read(resp *llm.Response) (reply, string, *ReplyError) {
	switch {
	case resp.Truncated:
		return reply{}, "", &ReplyError{FailTruncated, fmt.Sprintf(
			"the reply was cut off at the token limit (max_tokens %d): raise llm.max_tokens or lower chunk.max_chars", x.opts.MaxTokens)}
	case resp.FinishReason == "content_filter":
		return reply{}, "", &ReplyError{FailFiltered, "the endpoint's content filter withheld the reply: " + llm.Quote(resp.Content)}
	}
	r, how, err := parseReply(resp.Content)
	if err == nil && how == readTruncated {
		err = errBrokenOff
	}
	if err != nil {
		return reply{}, "", replyError(err, resp.Content)
	}
	return r, how, nil
}

// checkReply is the requests' Validate: a reply is good when it reads
// whole, so that only such replies are cached.
func checkReply(content string) error {
	_, how, err := parseReply(content)
	if err == nil && how == readTruncated {
		err = errBrokenOff
	}
	if err != nil {
		return replyError(err, content)
	}
	return nil
}

// errBrokenOff is JSON that stops before its end in a reply the server
// called finished.
var errBrokenOff = errors.New("JSON breaks off")

func replyError(err error, content string) *ReplyError {
	switch {
	case errors.Is(err, errEmptyReply):
		return &ReplyError{FailEmpty, "the model's reply is empty"}
	case errors.Is(err, errBrokenOff), errors.Is(err, llm.ErrTruncated):
		return &ReplyError{FailUnusable, "the model's JSON reply breaks off: " + llm.Quote(content)}
	case errors.Is(err, errNoJSON): // JSON, but no reply's
		return &ReplyError{FailUnusable, "the model's reply is not the JSON asked for: " + llm.Quote(content)}
	}
	return &ReplyError{FailUnusable, "the model's reply is not JSON: " + llm.Quote(content)}
}

// chunkID tells chunks apart for schema growth, which counts distinct
// chunks: the same text in the same document is one chunk.
func chunkID(in extract.Input) string {
	sum := sha256.Sum256([]byte(in.Text))
	id := hex.EncodeToString(sum[:8])
	if in.Doc != nil && in.Doc.Key != "" {
		return in.Doc.Key + "#" + id
	}
	return id
}

// Stats counts what the extractor did; safe for concurrent use. The zero
// value is ready.
type Stats struct {
	mu sync.Mutex
	c  Counts
}

// Counts is a snapshot of Stats.
type Counts struct {
	Chunks   int // chunks given to Extract
	Calls    int // calls answered by the endpoint
	Cached   int // calls answered from the cache
	Errors   int // calls that failed (returned as errors)
	Entities int // entity mentions kept
	Triples  int // triples kept
	// Attributes counts attributes kept (字 孔明, 生卒 …).
	Attributes int
	Proposals  int // schema proposals passed on
	// Read counts replies that needed repair, by how they were read
	// (recovered, truncated, tuples).
	Read map[string]int
	// Failures counts replies that gave nothing, by reason.
	Failures map[string]int
	// Dropped counts items that failed validation, by reason.
	Dropped map[string]int
	Usage   llm.Usage
}

func (s *Stats) add(f func(*Counts)) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.c.Dropped == nil {
		s.c.Read, s.c.Failures, s.c.Dropped = map[string]int{}, map[string]int{}, map[string]int{}
	}
	f(&s.c)
}

// Counts returns a copy of the counters.
func (s *Stats) Counts() Counts {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.c
	c.Read, c.Failures, c.Dropped = copyMap(s.c.Read), copyMap(s.c.Failures), copyMap(s.c.Dropped)
	return c
}

func copyMap(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Failed is the number of replies that gave nothing.
func (c Counts) Failed() int {
	n := 0
	for _, v := range c.Failures {
		n += v
	}
	return n
}
