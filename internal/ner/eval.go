package ner

import (
	"fmt"
	"sort"
)

// Score counts names found against names given, overall and by type; a
// name counts as found only with the same start, end and type.
type Score struct {
	Gold, Found, Right int
	ByType             map[string]*Score `json:"by_type,omitempty"`
}

// Precision, Recall and F1 of the names found.
func (s *Score) Precision() float64 { return ratio(s.Right, s.Found) }
func (s *Score) Recall() float64    { return ratio(s.Right, s.Gold) }
func (s *Score) F1() float64 {
	p, r := s.Precision(), s.Recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Add scores one sentence's names found against its gold names.
func (s *Score) Add(gold, found []Span) {
	if s.ByType == nil {
		s.ByType = map[string]*Score{}
	}
	of := func(t string) *Score {
		if s.ByType[t] == nil {
			s.ByType[t] = &Score{}
		}
		return s.ByType[t]
	}
	want := map[Span]bool{}
	for _, g := range gold {
		want[g] = true
		s.Gold++
		of(g.Type).Gold++
	}
	for _, f := range found {
		s.Found++
		of(f.Type).Found++
		if want[f] {
			delete(want, f)
			s.Right++
			of(f.Type).Right++
		}
	}
}

// TypeNames lists the types scored, most frequent in the gold first.
func (s *Score) TypeNames() []string {
	var out []string
	for t := range s.ByType {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := s.ByType[out[i]], s.ByType[out[j]]
		if a.Gold != b.Gold {
			return a.Gold > b.Gold
		}
		return out[i] < out[j]
	})
	return out
}

// Evaluate tags every sentence, with its hints when it has them, and
// scores the names against its own.
func (t *Tagger) Evaluate(sentences []Sentence) *Score { return t.EvaluateAs(sentences, nil) }

// EvaluateAs is Evaluate with the names found rewritten by as, when not
// nil, before they are scored (AsCHisIEC for a set annotated by other
// conventions).
func (t *Tagger) EvaluateAs(sentences []Sentence, as func([]rune, []Span) []Span) *Score {
	s := &Score{}
	for _, x := range sentences {
		rs := x.Runes()
		found := t.TagIn(rs, x.Context())
		if as != nil {
			found = as(rs, found)
		}
		s.Add(x.Names, found)
	}
	return s
}

// Agree scores one annotation of sentences against another of the same
// sentences, matched by ID: the F1 of one against the other is the
// agreement of the two annotators. Sentences only one side has are left
// out; a sentence whose text differs is an error.
func Agree(a, b []Sentence) (*Score, int, error) {
	byID := map[string]Sentence{}
	for _, s := range b {
		byID[s.ID] = s
	}
	sc := &Score{}
	n := 0
	for _, s := range a {
		o, ok := byID[s.ID]
		if !ok {
			continue
		}
		if o.Text != s.Text {
			return nil, n, fmt.Errorf("%s: the two annotations are of different texts", s.ID)
		}
		sc.Add(s.Names, o.Names)
		n++
	}
	return sc, n, nil
}
