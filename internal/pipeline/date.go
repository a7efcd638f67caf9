package pipeline

import (
	"context"
	"sort"
	"strings"

	"github.com/annals-project/annals/internal/chrono"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// StepChrono dates facts; chronoVersion changes when dating would change.
const (
	StepChrono    = "chrono"
	chronoVersion = "3"
)

// Precision of a year taken from the sentences before a fact rather than
// from the fact's own sentence.
const PrecisionContext = "context"

// contextReach is how many sentences after the last one that names a time
// the year in force still dates a sentence. Histories move on without saying
// so: a year named pages earlier says little about the sentence at hand.
const contextReach = 6

// DateStore is what dating reads and writes.
type DateStore interface {
	DocsNeedingStep(ctx context.Context, step, version string) ([]int64, error)
	DocumentByID(ctx context.Context, id int64) (*store.DatedDoc, error)
	SetDates(ctx context.Context, d *store.DatedDoc, step, version string) error
}

// DateReport says what dating did.
type DateReport struct {
	Documents int `json:"documents"` // documents dated by this run
	Evidence  int `json:"evidence"`  // evidence sentences looked at
	Dated     int `json:"dated"`     // of which got a year
}

// Date gives every fact the time of its sentence: the time expression in it
// (建兴十二年, 明年, 是岁 …), else the year in force where it stands, walking
// each document in order as a reader would; and it indexes each chunk by the
// years it speaks of. It is a step of its own, so workspaces indexed before
// it existed get it without extracting again.
func Date(ctx context.Context, db DateStore) (*DateReport, error) {
	rep := &DateReport{}
	ids, err := db.DocsNeedingStep(ctx, StepChrono, chronoVersion)
	if err != nil {
		return rep, err
	}
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		d, err := db.DocumentByID(ctx, id)
		if err != nil {
			return rep, err
		}
		dateDocument(d)
		if err := db.SetDates(ctx, d, StepChrono, chronoVersion); err != nil {
			return rep, err
		}
		rep.Documents++
		rep.Evidence += len(d.Evidence)
		for _, e := range d.Evidence {
			if e.Dated {
				rep.Dated++
			}
		}
	}
	return rep, nil
}

// sentenceTime is the time of one sentence.
type sentenceTime struct {
	kg.Span
	explicit    bool // the sentence names its time
	known       bool // a year is known, named or in force
	year, end   int
	precision   string
	expr        string
	contextYear int
}

func dateDocument(d *store.DatedDoc) {
	if !text.IsChinese(d.Lang) && d.Lang != text.Vietnamese && d.Lang != text.English {
		return
	}
	norm := []rune(d.Norm)
	c := &chrono.Context{Dynasty: dynastyOf(d.Section, d.Key)}
	var sents []sentenceTime
	var found []chrono.Time   // every resolved expression, in document offsets
	since := contextReach + 1 // sentences since one named a time
	for _, sp := range text.Sentences(d.Norm, d.Lang) {
		st := sentenceTime{Span: sp}
		for _, t := range chrono.Parse(string(norm[sp.Start:sp.End]), c) {
			if t.Resolved {
				t.Span = kg.Span{Start: sp.Start + t.Span.Start, End: sp.Start + t.Span.End}
				found = append(found, t)
			}
			if t.Resolved && !st.explicit {
				st.explicit, st.known = true, true
				st.year, st.end, st.precision, st.expr = t.Year, t.EndYear, t.Precision, t.Expr
			}
		}
		if st.explicit {
			since = 0
		} else {
			since++
		}
		if !st.explicit && c.HasYear && since <= contextReach {
			st.known, st.year, st.end, st.precision = true, c.Year, c.Year, PrecisionContext
		}
		sents = append(sents, st)
	}
	// Evidence: the last sentence of its span that names a time, else the
	// year in force at its last sentence.
	for i := range d.Evidence {
		e := &d.Evidence[i]
		first := sort.Search(len(sents), func(k int) bool { return sents[k].End > e.Start })
		var pick *sentenceTime
		for k := first; k < len(sents) && sents[k].Start < e.End; k++ {
			if sents[k].explicit || pick == nil || !pick.explicit {
				pick = &sents[k]
			}
		}
		if pick != nil && pick.known {
			e.Dated, e.Year, e.EndYear, e.Precision, e.Expr = true, pick.year, pick.end, pick.precision, pick.expr
			if e.EndYear == 0 {
				e.EndYear = e.Year
			}
		}
	}
	// Time expressions kept by extraction: the year of the parsed expression
	// they overlap.
	for i := range d.Times {
		m := &d.Times[i]
		k := sort.Search(len(found), func(k int) bool { return found[k].Span.End > m.Start })
		if k < len(found) && found[k].Span.Start < m.End {
			m.Dated, m.Year, m.EndYear = true, found[k].Year, found[k].EndYear
		}
	}
	// Chunks: every year their sentences name or stand in.
	for i := range d.Chunks {
		ch := &d.Chunks[i]
		seen := map[int]bool{}
		first := sort.Search(len(sents), func(k int) bool { return sents[k].End > ch.Start })
		for k := first; k < len(sents) && sents[k].Start < ch.End; k++ {
			if s := sents[k]; s.known && !seen[s.year] {
				seen[s.year] = true
				ch.Years = append(ch.Years, s.year)
			}
		}
	}
}

// dynastyOf guesses the dynasty a chapter is written about from its
// section path, which settles eras shared by several dynasties.
func dynastyOf(section, key string) string {
	path := section + "/" + key
	for _, m := range []struct{ part, dynasty string }{
		{"蜀书", "蜀汉"}, {"魏书", "曹魏"}, {"吴书", "孙吴"}, {"后汉书", "东汉"}, {"汉书", "西汉"},
		{"蜀", "蜀汉"}, {"魏", "曹魏"}, {"吴", "孙吴"},
	} {
		if strings.Contains(path, m.part) {
			return m.dynasty
		}
	}
	return ""
}
