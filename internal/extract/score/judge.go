package score

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/template"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/schema"
)

//go:embed prompts/score.tmpl
var builtin embed.FS

// PromptFile names the judge's template, built in and in Options.PromptDir.
const PromptFile = "score.tmpl"

// DefaultPrompt returns the built-in template, for writing into a
// workspace's prompts folder as a starting point.
func DefaultPrompt() string {
	b, _ := builtin.ReadFile("prompts/" + PromptFile)
	return string(b)
}

// Step is the usage-accounting name of the judge's calls.
const Step = "score"

// DefaultMaxTokens bounds a judge reply: five scores and a short verdict
// per triple.
const DefaultMaxTokens = 800

// logicVersion changes when the way replies become scores changes.
const logicVersion = "1"

// Options tune the judge.
type Options struct {
	PromptDir   string // holds a score.tmpl replacing the built-in one
	Temperature float64
	MaxTokens   int    // per call; 0 means DefaultMaxTokens
	Stats       *Stats // may be nil
}

// Judge grades extractions with an LLM, one call per chunk.
type Judge struct {
	c    llm.Client
	opts Options
	tmpl *template.Template
	hash string
	err  error
}

// NewJudge returns a judge that calls c. A broken prompt override is
// reported by Check and by every Score.
func NewJudge(c llm.Client, opts Options) *Judge {
	if opts.MaxTokens <= 0 {
		opts.MaxTokens = DefaultMaxTokens
	}
	j := &Judge{c: c, opts: opts}
	j.tmpl, j.hash, j.err = loadPrompt(opts.PromptDir)
	return j
}

func loadPrompt(dir string) (*template.Template, string, error) {
	funcs := template.FuncMap{"join": strings.Join, "inc": func(i int) int { return i + 1 }}
	t, err := llm.LoadTemplate(builtin, "prompts", PromptFile, dir, funcs)
	if err != nil {
		return nil, "", err
	}
	return t.Template, t.Hash, nil
}

// Check reports a prompt override that cannot be used.
func (j *Judge) Check() error { return j.err }

// Version changes with the prompt, the model and the scoring rules.
func (j *Judge) Version() string {
	sum := sha256.Sum256([]byte(logicVersion + "\x00" + j.hash))
	model := "none"
	if j.c != nil {
		model = j.c.Model()
	}
	return hex.EncodeToString(sum[:])[:10] + "+" + model
}

// Trace is the chain of thought an extraction came with; any part may be
// empty, and the framework is then read off the triples.
type Trace struct {
	Translation string
	Analysis    string
	Framework   [][]string
}

// Score grades one chunk's extraction. text is the chunk as the judge
// should read it (the original characters, say); empty means in.Text,
// which is what res's offsets point into. Only a failed call (after the
// client's retries), a spent budget or a cancelled context is an error: a
// reply that cannot be used (or that was cut off) gives the offline scores,
// Judged false, and is not cached, so that a later scoring asks again.
func (j *Judge) Score(ctx context.Context, text string, in extract.Input, res extract.Result, translation string) (Scored, error) {
	return j.ScoreTrace(ctx, text, in, res, Trace{Translation: translation})
}

// ScoreTrace is Score with the whole chain of thought.
func (j *Judge) ScoreTrace(ctx context.Context, text string, in extract.Input, res extract.Result, tr Trace) (Scored, error) {
	sch := in.Schema
	if sch == nil {
		sch = schema.DefaultFor(in.Lang)
	}
	if j.err != nil {
		return Scored{}, j.err
	}
	if j.c == nil {
		return Scored{}, llm.ErrNotConfigured
	}
	if err := ctx.Err(); err != nil {
		return Scored{}, err
	}
	st := j.opts.Stats
	st.add(func(c *Counts) { c.Chunks++ })
	if len(res.Entities) == 0 && len(res.Triples) == 0 {
		// Nothing to grade: no call.
		sc := OfflineScore(in.Text, res, sch)
		return sc, nil
	}
	if text == "" {
		text = in.Text
	}
	system, user, err := j.render(text, sch, res, tr)
	if err != nil {
		return Scored{}, err
	}
	n := len(res.Triples)
	resp, err := j.c.Chat(ctx, llm.Request{
		Step:        Step,
		Messages:    []llm.Message{{Role: "system", Content: system}, {Role: "user", Content: user}},
		Temperature: j.opts.Temperature,
		MaxTokens:   j.opts.MaxTokens,
		Schema:      replySchema,
		Prompt:      PromptFile + "@" + j.hash + "/" + logicVersion,
		Validate: func(content string) error {
			if _, _, failure := parseJudge(content, n); failure != "" {
				return errors.New(failure)
			}
			return nil
		},
	})
	// A reply Validate refused is read below and falls back to the offline
	// scores, as it always did; it is only not cached.
	if err != nil && (resp == nil || !errors.Is(err, llm.ErrInvalidReply)) {
		if errors.Is(err, llm.ErrBudget) || ctx.Err() != nil {
			return Scored{}, err
		}
		return Scored{}, fmt.Errorf("llm score: %w", err)
	}
	if resp == nil {
		resp = &llm.Response{}
	}
	st.add(func(c *Counts) {
		if resp.Cached {
			c.Cached++
		} else {
			c.Calls++
		}
		c.Usage = c.Usage.Add(resp.Usage)
	})
	stages, verdicts, failure := parseJudge(resp.Content, n)
	if resp.Truncated {
		// Grades cut off at the limit miss the last triples' verdicts.
		failure = FailTruncated
	}
	var sc Scored
	if failure != "" {
		sc = OfflineScore(in.Text, res, sch)
		sc.Failure = failure
	} else {
		sc = combine(stages, verdicts, in.Text, res, sch)
	}
	st.add(func(c *Counts) {
		if failure != "" {
			c.Failures[failure]++
		}
		c.Chunk.Add(sc.Total)
		for _, t := range sc.Triples {
			c.Triple.Add(t.Score)
		}
	})
	return sc, nil
}

var replySchema = &llm.JSONSchema{Name: "grading", Schema: map[string]any{
	"type": "object",
	"properties": map[string]any{
		"scores": map[string]any{"type": "array", "items": map[string]any{"type": "number", "minimum": 0, "maximum": MaxStage}, "minItems": NumStages, "maxItems": NumStages},
		"triples": map[string]any{"type": "array", "items": map[string]any{
			"type": "object",
			"properties": map[string]any{
				"i":       map[string]any{"type": "integer"},
				"verdict": map[string]any{"type": "string", "enum": []string{VerdictOK, VerdictUnsupported, VerdictWrong}},
				"why":     map[string]any{"type": "string"},
			},
			"required": []string{"i", "verdict"},
		}},
	},
	"required": []string{"scores", "triples"},
}}

type promptData struct {
	Text, Translation, Analysis string
	Entities, Framework         []string
	Triples                     []string
	Relations                   []string
}

func (j *Judge) render(text string, s *schema.Schema, res extract.Result, tr Trace) (string, string, error) {
	d := promptData{Text: text, Translation: strings.TrimSpace(tr.Translation), Analysis: strings.TrimSpace(tr.Analysis)}
	for _, r := range s.RelationTypes {
		side := func(ts []string) string {
			if len(ts) == 0 {
				return "*"
			}
			return strings.Join(ts, "|")
		}
		d.Relations = append(d.Relations, fmt.Sprintf("%s %s→%s", r.Name, side(r.Domain), side(r.Range)))
	}
	seen := map[string]bool{}
	for _, e := range res.Entities {
		k := name(e) + "(" + e.Type + ")"
		if !seen[k] {
			seen[k] = true
			d.Entities = append(d.Entities, k)
		}
	}
	frame := tr.Framework
	if len(frame) == 0 {
		for _, t := range res.Triples {
			frame = append(frame, []string{t.Head.Type, t.Relation, t.Tail.Type})
		}
	}
	seen = map[string]bool{}
	for _, f := range frame {
		k := "(" + strings.Join(f, ", ") + ")"
		if !seen[k] {
			seen[k] = true
			d.Framework = append(d.Framework, k)
		}
	}
	for _, t := range res.Triples {
		d.Triples = append(d.Triples, fmt.Sprintf("(%s:%s, %s, %s:%s)", name(t.Head), t.Head.Type, t.Relation, name(t.Tail), t.Tail.Type))
	}
	var b strings.Builder
	if err := j.tmpl.ExecuteTemplate(&b, "system", d); err != nil {
		return "", "", fmt.Errorf("prompt %s: %w", PromptFile, err)
	}
	system := b.String()
	b.Reset()
	if err := j.tmpl.ExecuteTemplate(&b, "user", d); err != nil {
		return "", "", fmt.Errorf("prompt %s: %w", PromptFile, err)
	}
	return system, b.String(), nil
}

// name shows a mention with the full name it stands for: 操[曹操].
func name(e extract.Entity) string {
	if e.Name != "" && e.Name != e.Text {
		return e.Text + "[" + e.Name + "]"
	}
	return e.Text
}

type verdict struct{ verdict, why string }

// Failure reasons, as counted in Counts.Failures.
const (
	FailEmpty     = "reply_empty"
	FailUnusable  = "reply_unusable"  // no JSON, JSON that breaks off, or not the grades asked for
	FailTruncated = "reply_truncated" // cut off at the completion limit
)

// parseJudge reads a judge reply: stage scores (a list of five, or an
// object by stage name or number) and verdicts (objects with an index, or
// a list in triple order). Either part may be missing, not both.
func parseJudge(content string, n int) (*Stages, []verdict, string) {
	if strings.TrimSpace(content) == "" {
		return nil, nil, FailEmpty
	}
	raw, err := llm.ExtractJSON(content)
	if raw == nil || err != nil {
		// JSON that breaks off would grade some triples and not others.
		return nil, nil, FailUnusable
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return nil, nil, FailUnusable
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, nil, FailUnusable
	}
	m = lowerKeys(m)
	stages := readStages(firstOf(m, "scores", "stages", "score"))
	verdicts := readVerdicts(firstOf(m, "triples", "verdicts", "triple"), n)
	if stages == nil && verdicts == nil {
		return nil, nil, FailUnusable
	}
	return stages, verdicts, ""
}

func lowerKeys(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[strings.ToLower(strings.TrimSpace(k))] = v
	}
	return out
}

func firstOf(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil {
			return v
		}
	}
	return nil
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	case string:
		s := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(x), "分pointsPOINTS "))
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil
	case map[string]any:
		m := lowerKeys(x)
		return number(firstOf(m, "score", "points", "value"))
	}
	return 0, false
}

func readStages(v any) *Stages {
	var s Stages
	switch x := v.(type) {
	case []any:
		if len(x) != NumStages {
			return nil
		}
		for i, e := range x {
			f, ok := number(e)
			if !ok {
				return nil
			}
			s[i] = clamp(f)
		}
		return &s
	case map[string]any:
		m := lowerKeys(x)
		for i, name := range StageNames {
			f, ok := number(firstOf(m, name, strconv.Itoa(i+1)))
			if !ok {
				return nil
			}
			s[i] = clamp(f)
		}
		return &s
	}
	return nil
}

// readVerdicts returns one verdict per triple, in triple order; indexes
// are 1-based as in the prompt, or 0-based when a 0 appears.
func readVerdicts(v any, n int) []verdict {
	items, ok := v.([]any)
	if !ok || len(items) == 0 {
		return nil
	}
	type iv struct {
		i int
		v verdict
	}
	var got []iv
	zero := false
	for k, it := range items {
		switch x := it.(type) {
		case map[string]any:
			m := lowerKeys(x)
			i := k + 1
			if f, ok := number(firstOf(m, "i", "index", "id", "n")); ok {
				i = int(f)
			}
			zero = zero || i == 0
			vd := normVerdict(fmt.Sprint(firstOf(m, "verdict", "label", "judgement", "judgment", "ok")))
			why, _ := firstOf(m, "why", "reason").(string)
			got = append(got, iv{i, verdict{vd, why}})
		case string:
			got = append(got, iv{k + 1, verdict{normVerdict(x), ""}})
		}
	}
	out := make([]verdict, n)
	found := false
	sort.SliceStable(got, func(a, b int) bool { return got[a].i < got[b].i })
	for _, g := range got {
		i := g.i - 1
		if zero {
			i = g.i
		}
		if i >= 0 && i < n && g.v.verdict != "" && out[i].verdict == "" {
			out[i] = g.v
			found = true
		}
	}
	if !found {
		return nil
	}
	return out
}

func normVerdict(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "ok", "correct", "yes", "true", "supported", "正确", "对":
		return VerdictOK
	case "unsupported", "weak", "partial", "not stated", "unclear", "无据", "不明确", "存疑":
		return VerdictUnsupported
	case "wrong", "incorrect", "no", "false", "reversed", "contradicted", "错误", "错":
		return VerdictWrong
	}
	return ""
}

// Stats counts what the judge did; safe for concurrent use. The zero value
// is ready.
type Stats struct {
	mu sync.Mutex
	c  Counts
}

// Counts is a snapshot of Stats.
type Counts struct {
	Chunks   int
	Calls    int
	Cached   int
	Failures map[string]int
	Usage    llm.Usage
	Chunk    Histogram // chunk totals
	Triple   Histogram // triple scores
}

func (s *Stats) add(f func(*Counts)) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.c.Failures == nil {
		s.c.Failures = map[string]int{}
	}
	f(&s.c)
}

// Counts returns a copy of the counters.
func (s *Stats) Counts() Counts {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.c
	c.Failures = make(map[string]int, len(s.c.Failures))
	for k, v := range s.c.Failures {
		c.Failures[k] = v
	}
	return c
}
