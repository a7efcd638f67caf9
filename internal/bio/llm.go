package bio

import (
	"context"
	"embed"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/annals-project/annals/internal/chrono"
	"github.com/annals-project/annals/internal/llm"
)

//go:embed prompts/*.tmpl
var builtin embed.FS

// Steps of the LLM biography, for usage accounting.
const (
	StepWrite  = "bio"
	StepVerify = "bio-verify"
)

// Verdicts and error kinds of the verifier.
const (
	verdictSupported   = "supported"
	verdictNotIncluded = "not_included"
	errEra             = "era"
	errReference       = "reference"
	errKnowledge       = "knowledge"
	errAlias           = "alias"
)

// LLMOptions tunes Generate.
type LLMOptions struct {
	Client    llm.Client
	PromptDir string // the workspace's prompt overrides
	Style     string // Modern or Classical
	Strict    bool   // leave out sentences still unverified after the last round
	// Rounds is the most rounds of checking and correcting a sentence
	// goes through; 0 means 2.
	Rounds int
	// More finds further source sentences about a sentence, for a fact the
	// sources are too few to tell (knowledge lack); nil finds none.
	More func(ctx context.Context, text string) ([]Citation, error)
	// Names are the person's other names (字, designations), given to the
	// model where it called the person or a relative by a wrong one.
	Names []string
	// Neighbours are passages about the person's neighbours in the graph
	// (kin, associates) that name him, shown after the profile's own
	// sentences: the story he shares with them.
	Neighbours []Citation
}

// source is a numbered sentence the model may cite.
type source struct {
	N    int
	Text string
	Cite string
	Year int
	c    Citation
}

// draft is a sentence being written and checked.
type draft struct {
	text  string
	cites []int // source numbers
}

// Generate writes a biography with a model, as seed 003 does: it writes
// from the profile's cited sentences, then checks each sentence fact by
// fact against its evidence (its citations and the sources most like it);
// a router sends a fact not included in the sources back to the model, and
// an unsupported fact to the solver of its error: a date is set to the
// year the sources give (chrono), a source about someone else is dropped,
// more sources are looked for, the person's names are given, or the
// sentence is rewritten. A sentence still failing after the last round is
// marked, or left out when strict.
func Generate(ctx context.Context, name string, p *Profile, o LLMOptions) ([]Sentence, llm.Usage, error) {
	if o.Rounds <= 0 {
		o.Rounds = 2
	}
	g := &generator{o: o, name: name, srcs: sourcesOf(p, o.Neighbours)}
	if len(g.srcs) == 0 {
		return []Sentence{}, g.usage, nil
	}
	var written struct {
		Sentences []struct {
			Text    string `json:"text"`
			Sources []int  `json:"sources"`
		} `json:"sentences"`
	}
	if err := g.call(ctx, StepWrite, "write.tmpl", map[string]any{"Name": name, "Style": o.Style, "Sources": g.srcs}, &written); err != nil {
		return nil, g.usage, fmt.Errorf("write the biography of %s: %w", name, err)
	}
	out := []Sentence{}
	for _, w := range written.Sentences {
		s, err := g.check(ctx, &draft{text: strings.TrimSpace(w.Text), cites: g.valid(w.Sources)})
		if err != nil {
			return nil, g.usage, err
		}
		if s == nil || o.Strict && !s.Verified {
			continue
		}
		out = append(out, *s)
	}
	return out, g.usage, nil
}

type generator struct {
	o     LLMOptions
	name  string
	srcs  []source
	usage llm.Usage
}

func (g *generator) call(ctx context.Context, step, tmpl string, data, out any) error {
	t, err := llm.LoadTemplate(builtin, "prompts", tmpl, g.o.PromptDir, nil)
	if err != nil {
		return err
	}
	u, err := llm.ChatJSON(ctx, g.o.Client, t, step, data, out)
	g.usage = g.usage.Add(u)
	return err
}

// valid keeps the source numbers that exist, once each.
func (g *generator) valid(ns []int) []int {
	var out []int
	for _, n := range ns {
		if n >= 1 && n <= len(g.srcs) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// fact is one atomic fact as the verifier judged it.
type fact struct {
	Fact    string `json:"fact"`
	Verdict string `json:"verdict"`
	Error   string `json:"error"`
	Source  int    `json:"source"`
}

// check verifies a draft round after round, correcting what fails; nil
// when a rewrite left nothing of it.
func (g *generator) check(ctx context.Context, d *draft) (*Sentence, error) {
	s := &Sentence{Checks: []Check{}}
	for round := 1; round <= g.o.Rounds && d.text != ""; round++ {
		facts, err := g.verify(ctx, d)
		if err != nil {
			return nil, err
		}
		var bad []fact
		for _, f := range facts {
			s.Checks = append(s.Checks, Check{Fact: f.Fact, Passed: f.Verdict == verdictSupported,
				Why: strings.TrimSpace(fmt.Sprintf("round %d: %s %s", round, f.Verdict, f.Error))})
			if f.Verdict != verdictSupported {
				bad = append(bad, f)
			}
		}
		if len(bad) == 0 && len(facts) > 0 {
			s.Verified = true
			break
		}
		if round == g.o.Rounds {
			break
		}
		if err := g.solve(ctx, d, bad); err != nil {
			return nil, err
		}
	}
	if d.text == "" {
		return nil, nil
	}
	s.Text = d.text
	s.Citations = []Citation{}
	for _, n := range d.cites {
		s.Citations = append(s.Citations, g.srcs[n-1].c)
	}
	return s, nil
}

// evidenceFor is what a draft is checked against: its citations, and the
// sources most like it by character-bigram overlap (Jaccard), a few.
func (g *generator) evidenceFor(d *draft) []source {
	const alike = 3
	mine := bigrams(d.text)
	type scored struct {
		n int
		j float64
	}
	var all []scored
	for _, s := range g.srcs {
		if !slices.Contains(d.cites, s.N) {
			all = append(all, scored{s.N, jaccard(mine, bigrams(s.Text))})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].j > all[j].j })
	var out []source
	for _, n := range d.cites {
		out = append(out, g.srcs[n-1])
	}
	for i := 0; i < len(all) && i < alike && all[i].j > 0; i++ {
		out = append(out, g.srcs[all[i].n-1])
	}
	return out
}

func (g *generator) verify(ctx context.Context, d *draft) ([]fact, error) {
	var v struct {
		Facts []fact `json:"facts"`
	}
	data := map[string]any{"Name": g.name, "Sentence": d.text, "Sources": g.evidenceFor(d)}
	if err := g.call(ctx, StepVerify, "verify.tmpl", data, &v); err != nil {
		return nil, fmt.Errorf("check %q: %w", d.text, err)
	}
	return v.Facts, nil
}

// solve routes the failed facts of a draft to their solvers; what no
// solver fixed goes back to the model with the problems named.
func (g *generator) solve(ctx context.Context, d *draft, bad []fact) error {
	var rest []string
	for _, f := range bad {
		fixed := false
		if f.Verdict != verdictNotIncluded {
			switch f.Error {
			case errEra:
				fixed = g.fixEra(d)
			case errReference:
				fixed = g.dropOthers(d)
			case errKnowledge:
				more, err := g.more(ctx, d)
				if err != nil {
					return err
				}
				fixed = more
			}
		}
		if !fixed {
			problem := f.Fact
			if f.Error == errAlias {
				problem += fmt.Sprintf(" (call him %s; his other names: %s)", g.name, strings.Join(g.o.Names, "、"))
			}
			rest = append(rest, problem)
		}
	}
	if len(rest) == 0 {
		return nil
	}
	var r struct {
		Text    string `json:"text"`
		Sources []int  `json:"sources"`
	}
	data := map[string]any{"Name": g.name, "Sentence": d.text, "Problems": rest, "Sources": g.evidenceFor(d)}
	if err := g.call(ctx, StepWrite, "rewrite.tmpl", data, &r); err != nil {
		return fmt.Errorf("correct %q: %w", d.text, err)
	}
	d.text = strings.TrimSpace(r.Text)
	if cites := g.valid(r.Sources); len(cites) > 0 {
		d.cites = cites
	}
	return nil
}

// years in a written sentence: 公元234年, 公元前206年, 234年.
var yearWords = regexp.MustCompile(`(公元前|公元)?(\d{1,4})年`)

// fixEra sets the dates of a draft to the year its dated sources give,
// where they agree on one: a year in figures is rewritten, and an era year
// that chrono places elsewhere becomes that year.
func (g *generator) fixEra(d *draft) bool {
	year, ok := 0, false
	for _, n := range d.cites {
		if y := g.srcs[n-1].c.Year; y != nil {
			if ok && *y != year {
				return false // the sources disagree: nothing to set
			}
			year, ok = *y, true
		}
	}
	if !ok {
		return false
	}
	text := yearWords.ReplaceAllStringFunc(d.text, func(m string) string {
		sub := yearWords.FindStringSubmatch(m)
		v, _ := strconv.Atoi(sub[2])
		if sub[1] == "公元前" {
			v = 1 - v
		}
		if v == year {
			return m
		}
		return yearText(year)
	})
	rs := []rune(text)
	times := chrono.Parse(text, &chrono.Context{})
	for i := len(times) - 1; i >= 0; i-- {
		t := times[i]
		if t.Span.Start < 0 || t.Span.End > len(rs) || t.Expr == "" || t.Ordinal == 0 && !t.Resolved {
			continue
		}
		// An era year that can denote the sources' year stays as written
		// (建兴十二年 for 234); one that cannot becomes that year.
		if ok, _ := chrono.Check(t.Expr, year, chrono.Context{}); !ok {
			rs = append(rs[:t.Span.Start], append([]rune(yearText(year)), rs[t.Span.End:]...)...)
		}
	}
	fixed := string(rs) != d.text
	d.text = string(rs)
	return fixed
}

// dropOthers drops the citations that do not name the person by any of
// his names: they are about someone else.
func (g *generator) dropOthers(d *draft) bool {
	names := append([]string{g.name}, g.o.Names...)
	var kept []int
	for _, n := range d.cites {
		for _, nm := range names {
			if nm != "" && strings.Contains(g.srcs[n-1].Text, nm) {
				kept = append(kept, n)
				break
			}
		}
	}
	dropped := len(kept) < len(d.cites)
	if dropped && len(kept) > 0 {
		d.cites = kept
	}
	return dropped && len(kept) > 0
}

// more adds further sources about the draft, and cites them.
func (g *generator) more(ctx context.Context, d *draft) (bool, error) {
	if g.o.More == nil {
		return false, nil
	}
	found, err := g.o.More(ctx, d.text)
	if err != nil {
		return false, fmt.Errorf("look for more about %q: %w", d.text, err)
	}
	added := false
	for _, c := range found {
		dup := false
		for _, s := range g.srcs {
			if s.c.Doc == c.Doc && s.c.Start == c.Start && s.c.End == c.End {
				dup = true
			}
		}
		if dup {
			continue
		}
		g.srcs = append(g.srcs, newSource(len(g.srcs)+1, c))
		d.cites = append(d.cites, len(g.srcs))
		added = true
	}
	return added, nil
}

// maxSources bounds what the model is shown of a profile.
const maxSources = 60

// sourcesOf numbers the sentences a profile rests on, the person's own
// story first (names, origin, life, kin, career), then the passages about
// his neighbours, each once.
func sourcesOf(p *Profile, neighbours []Citation) []source {
	type at struct {
		doc        string
		start, end int
	}
	var out []source
	seen := map[at]bool{}
	add := func(items ...Item) {
		for _, it := range items {
			for i, c := range it.Citations {
				k := at{c.Doc, c.Start, c.End}
				if i == 2 || len(out) == maxSources {
					break
				}
				if !seen[k] {
					seen[k] = true
					out = append(out, newSource(len(out)+1, c))
				}
			}
		}
	}
	add(p.Names...)
	for _, it := range []*Item{p.NativePlace, p.Born, p.Died} {
		if it != nil {
			add(*it)
		}
	}
	add(p.Kin...)
	add(p.Offices...)
	add(p.Titles...)
	add(p.Places...)
	add(p.Associates...)
	for _, c := range neighbours {
		add(Item{Citations: []Citation{c}})
	}
	return out
}

func newSource(n int, c Citation) source {
	s := source{N: n, Text: c.Quote, Cite: c.Cite, c: c}
	if c.Year != nil {
		s.Year = *c.Year
	}
	return s
}

// bigrams are the character pairs of a text, Han and letters only.
func bigrams(s string) map[string]bool {
	var rs []rune
	for _, r := range s {
		if r > 0x2E80 || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			rs = append(rs, r)
		}
	}
	out := map[string]bool{}
	for i := 0; i+1 < len(rs); i++ {
		out[string(rs[i:i+2])] = true
	}
	return out
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	both := 0
	for k := range a {
		if b[k] {
			both++
		}
	}
	return float64(both) / float64(len(a)+len(b)-both)
}
