// Package score is process supervision for extraction (seed 000 §3.2): a
// judge grades each chunk's chain of thought in five stages of 2 points
// each, deducting for the faults of the seed's Table 7, and grades every
// triple; offline checks that need no model add their own deductions.
// Triples scoring under a threshold (8 by default) are set aside.
package score

import (
	"fmt"
	"math"
	"strings"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/schema"
)

// The five stages, in the order of the chain of thought.
const (
	StageTranslation = iota
	StageEntities
	StageAnalysis
	StageFramework
	StageTriples
	NumStages
)

// StageNames name the stages in reports.
var StageNames = [NumStages]string{"translation", "entities", "analysis", "framework", "triples"}

// MaxStage is what a stage is worth; a chunk is worth NumStages*MaxStage.
const MaxStage = 2.0

// DefaultThreshold is the least score a triple needs to stay in the graph:
// the seed keeps results scored 8 to 10.
const DefaultThreshold = 8.0

// Verdicts a judge gives a triple.
const (
	VerdictOK          = "ok"          // the text states it, the right way round
	VerdictUnsupported = "unsupported" // plausible, but the text does not say it
	VerdictWrong       = "wrong"       // contradicted by the text, or reversed
)

// Stages holds one score per stage.
type Stages [NumStages]float64

// Sum is the total of the stages.
func (s Stages) Sum() float64 {
	t := 0.0
	for _, v := range s {
		t += v
	}
	return t
}

// Scored is the grading of one chunk's extraction.
type Scored struct {
	Total   float64 // 0–10
	Stages  Stages
	Triples []TripleScore // one per triple of the result, in its order
	// Judged is false when no judge reply was used and the scores are the
	// offline checks alone.
	Judged bool
	// Penalties lists the offline deductions, e.g. "framework: relation 杀
	// is not in the schema".
	Penalties []string
	// Failure says why a judge reply could not be used.
	Failure string
}

// TripleScore grades one triple.
type TripleScore struct {
	Score   float64
	Stages  Stages
	Verdict string // empty when the judge gave none
	Reason  string
}

// penalties are the offline deductions, per stage, of a chunk or a triple.
type penalties struct {
	by    Stages
	notes []string
}

func (p *penalties) add(stage int, note string) {
	p.by[stage]++
	p.notes = append(p.notes, StageNames[stage]+": "+note)
}

// stages turns deductions into scores: each kind of fault costs a point
// once per stage, as in Table 7, however often it occurs.
func (p *penalties) stages() Stages {
	var s Stages
	for i := range s {
		s[i] = clamp(MaxStage - p.by[i])
	}
	return s
}

func clamp(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return math.Max(0, math.Min(MaxStage, v))
}

// offline checks res against its text and schema. The chunk's deductions
// count each kind of fault once; each triple's, its own faults.
func offline(text string, res extract.Result, s *schema.Schema) (chunk penalties, triples []penalties) {
	rs := []rune(text)
	inText := func(e extract.Entity) bool {
		return e.Start >= 0 && e.Start < e.End && e.End <= len(rs) && string(rs[e.Start:e.End]) == e.Text
	}
	seen := map[string]bool{}
	once := func(stage int, kind, note string) {
		if !seen[kind] {
			seen[kind] = true
			chunk.add(stage, note)
		}
	}
	for _, e := range res.Entities {
		if !inText(e) {
			once(StageEntities, "ent-text", fmt.Sprintf("entity %q is not in the text", e.Text))
		}
		if e.Text == "" || s != nil && !s.HasEntityType(e.Type) {
			once(StageEntities, "ent-type", fmt.Sprintf("entity %q has no schema type (%q)", e.Text, e.Type))
		}
	}
	triples = make([]penalties, len(res.Triples))
	dup := map[string]bool{}
	for i, t := range res.Triples {
		p := &triples[i]
		if !inText(t.Head) || !inText(t.Tail) || t.Evidence.Start > min(t.Head.Start, t.Tail.Start) || t.Evidence.End < max(t.Head.End, t.Tail.End) {
			note := fmt.Sprintf("triple (%s, %s, %s) has an element outside the text or its evidence", t.Head.Text, t.Relation, t.Tail.Text)
			p.add(StageTriples, note)
			once(StageTriples, "tri-text", note)
		}
		switch {
		case s == nil:
		case s.Relation(t.Relation) == nil:
			note := fmt.Sprintf("relation %s is not in the schema", t.Relation)
			p.add(StageFramework, note)
			p.add(StageTriples, note)
			once(StageFramework, "rel", note)
			once(StageTriples, "tri-schema", note)
		case !s.Allows(t.Head.Type, t.Relation, t.Tail.Type):
			note := fmt.Sprintf("(%s, %s, %s) breaks the schema's domain or range", t.Head.Type, t.Relation, t.Tail.Type)
			p.add(StageFramework, note)
			p.add(StageTriples, note)
			once(StageFramework, "domain", note)
			once(StageTriples, "tri-schema", note)
		}
		k := t.Head.Canonical() + "\x00" + t.Relation + "\x00" + t.Tail.Canonical()
		if dup[k] {
			note := fmt.Sprintf("(%s, %s, %s) is stated twice", t.Head.Canonical(), t.Relation, t.Tail.Canonical())
			p.add(StageAnalysis, note)
			once(StageAnalysis, "dup", note)
		}
		dup[k] = true
	}
	return chunk, triples
}

// OfflineScore grades res with the checks that need no model: entities
// and triple ends found at their offsets, relations in the schema and
// within its domain and range, no duplicates. Stages it cannot check
// (translation, most of the analysis) keep full marks.
func OfflineScore(text string, res extract.Result, s *schema.Schema) Scored {
	chunk, triples := offline(text, res, s)
	sc := Scored{Stages: chunk.stages(), Penalties: chunk.notes}
	sc.Total = sc.Stages.Sum()
	sc.Triples = make([]TripleScore, len(res.Triples))
	for i := range triples {
		st := triples[i].stages()
		st[StageTranslation] = sc.Stages[StageTranslation]
		st[StageEntities] = sc.Stages[StageEntities]
		sc.Triples[i] = TripleScore{Score: st.Sum(), Stages: st}
	}
	return sc
}

// combine merges a judge's stage scores and verdicts with the offline
// deductions. For each stage the lower of the two counts, so that a fault
// both found is not charged twice. A triple's analysis, framework and
// triple stages follow its own verdict rather than the chunk's, so one bad
// triple does not sink the good ones beside it.
func combine(judge *Stages, verdicts []verdict, text string, res extract.Result, s *schema.Schema) Scored {
	chunk, tp := offline(text, res, s)
	off := chunk.stages()
	sc := Scored{Judged: true, Penalties: chunk.notes}
	for i := range sc.Stages {
		sc.Stages[i] = off[i]
		if judge != nil {
			sc.Stages[i] = math.Min(clamp(judge[i]), off[i])
		}
	}
	sc.Total = sc.Stages.Sum()
	sc.Triples = make([]TripleScore, len(res.Triples))
	for i := range res.Triples {
		own := tp[i].stages()
		st := Stages{StageTranslation: sc.Stages[StageTranslation], StageEntities: sc.Stages[StageEntities]}
		var v verdict
		if i < len(verdicts) {
			v = verdicts[i]
		}
		switch v.verdict {
		case VerdictOK:
			st[StageAnalysis] = own[StageAnalysis]
			st[StageFramework] = own[StageFramework]
			st[StageTriples] = own[StageTriples]
		case VerdictUnsupported:
			// Table 8: a relation the text does not state costs a point
			// in each of the last three stages.
			st[StageAnalysis] = clamp(own[StageAnalysis] - 1)
			st[StageFramework] = clamp(own[StageFramework] - 1)
			st[StageTriples] = clamp(own[StageTriples] - 1)
		case VerdictWrong:
			st[StageAnalysis] = 0
			st[StageFramework] = clamp(own[StageFramework] - 1)
			st[StageTriples] = 0
		default:
			st[StageAnalysis] = math.Min(sc.Stages[StageAnalysis], own[StageAnalysis])
			st[StageFramework] = math.Min(sc.Stages[StageFramework], own[StageFramework])
			st[StageTriples] = math.Min(sc.Stages[StageTriples], own[StageTriples])
		}
		sc.Triples[i] = TripleScore{Score: st.Sum(), Stages: st, Verdict: v.verdict, Reason: v.why}
	}
	return sc
}

// Filter splits res by score: triples scoring at least threshold are kept,
// the rest set aside (Aside set), and both get Triple.Score. A threshold
// of 0 or less means DefaultThreshold. Entities stay with the kept result:
// a mention found in the text is a fact whatever its relations scored.
func Filter(res extract.Result, sc Scored, threshold float64) (kept, setAside extract.Result) {
	if threshold <= 0 {
		threshold = DefaultThreshold
	}
	kept.Entities, kept.Attributes = res.Entities, res.Attributes
	for i, t := range res.Triples {
		v := sc.Total
		if i < len(sc.Triples) {
			v = sc.Triples[i].Score
		}
		t.Score = &v
		if v >= threshold {
			t.Aside = false
			kept.Triples = append(kept.Triples, t)
		} else {
			t.Aside = true
			setAside.Triples = append(setAside.Triples, t)
		}
	}
	return kept, setAside
}

// Histogram counts scores by integer value, 0 to 10, for `stats`.
type Histogram [11]int

// Add counts one score; it goes to the bucket of its integer part, clamped
// to 0–10.
func (h *Histogram) Add(score float64) {
	if math.IsNaN(score) {
		return
	}
	b := int(math.Floor(score))
	h[max(0, min(10, b))]++
}

// HistogramOf counts scores.
func HistogramOf(scores []float64) Histogram {
	var h Histogram
	for _, s := range scores {
		h.Add(s)
	}
	return h
}

// Total is the number of scores counted.
func (h Histogram) Total() int {
	n := 0
	for _, c := range h {
		n += c
	}
	return n
}

// AtLeast counts the scores of threshold or more.
func (h Histogram) AtLeast(threshold float64) int {
	n := 0
	for i, c := range h {
		if float64(i) >= threshold {
			n += c
		}
	}
	return n
}

// String draws the histogram as text, one line per score, bars scaled to
// at most 40 characters.
func (h Histogram) String() string {
	most := 0
	for _, c := range h {
		most = max(most, c)
	}
	var b strings.Builder
	for i := len(h) - 1; i >= 0; i-- {
		bar := 0
		if most > 0 {
			bar = (h[i]*40 + most - 1) / most
		}
		fmt.Fprintf(&b, "%2d %s %d\n", i, strings.Repeat("█", bar), h[i])
	}
	return b.String()
}
