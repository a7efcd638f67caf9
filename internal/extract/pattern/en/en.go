// Package en reads people, places, offices, events and the relations between
// them out of English historical prose, offline, for the general schema.
//
// Entities come from rules over capitalisation, titles, head words ("Langya
// Commandery", "Battle of Red Cliffs") and word lists, with prose's
// named-entity labels as a fallback for names the rules do not know.
// Relations come from surface patterns matched within one sentence.
package en

import (
	"context"
	"strings"
	"sync"
	"unicode"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/schema"
	"github.com/annals-project/annals/internal/text"
)

// Extractor is the English pattern extractor. It is safe for concurrent use
// as long as concurrent calls do not share a DocContext.
type Extractor struct{}

// New returns the English pattern extractor.
func New() *Extractor { return &Extractor{} }

// Name identifies the extractor in stored facts.
func (*Extractor) Name() string { return "pattern-en" }

// Version changes whenever the output would.
func (*Extractor) Version() string { return "en-1" }

var general = sync.OnceValue(func() *schema.Schema { return schema.MustLoad(schema.General) })

// Extract reads entities and relations out of in.Text.
func (x *Extractor) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	var res extract.Result
	if strings.TrimSpace(in.Text) == "" {
		return res, nil
	}
	p, err := loadPipeline()
	if err != nil {
		return res, err
	}
	sc := in.Schema
	if sc == nil {
		sc = general()
	}
	doc := in.Doc
	if doc == nil {
		// A stand-alone text still resolves short names within itself.
		doc = extract.NewDocContext("", "", nil)
	}
	names := newNameIndex(doc)
	rs := []rune(in.Text)
	seenE := map[entKey]bool{}
	seenT := map[tripKey]bool{}
	guesses := map[string]string{}
	for _, sp := range text.Sentences(in.Text, in.Lang) {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		a, b := trim(rs, sp)
		if a >= b {
			continue
		}
		ts := tokenizeSpan(rs, a, b)
		if len(ts) == 0 {
			continue
		}
		s := newSent(rs, ts, names)
		s.nlp, s.guesses = p, guesses
		s.build()
		s.emit(sc, kg.Span{Start: a, End: b}, &res, seenE, seenT)
	}
	return res, nil
}

// trim drops white space at either end of a sentence span, clamped to the
// text.
func trim(rs []rune, sp kg.Span) (int, int) {
	a, b := max(sp.Start, 0), min(sp.End, len(rs))
	for a < b && unicode.IsSpace(rs[a]) {
		a++
	}
	for b > a && unicode.IsSpace(rs[b-1]) {
		b--
	}
	return a, b
}

type entKey struct {
	start, end int
	typ        string
}

type vetoKey struct {
	rel        string
	head, tail int
}

type tripKey struct {
	hs, he int
	rel    string
	ts, te int
}

// emit settles types, keeps what the schema allows and appends the sentence's
// entities and triples to res.
func (s *sent) emit(sc *schema.Schema, ev kg.Span, res *extract.Result, seenE map[entKey]bool, seenT map[tripKey]bool) {
	found := s.relate()
	// Rules give untyped mentions a type; the first rule to do so wins.
	for _, m := range found {
		if m.veto {
			continue
		}
		s.settle(m.head, m.hs, "")
		s.settle(m.tail, m.tsl, s.ms[m.head].typ)
	}
	for i := range s.ms {
		if s.ms[i].typ == "" {
			s.ms[i].typ = s.ms[i].soft
		}
	}
	vetoed := map[vetoKey]bool{}
	for _, m := range found {
		if m.veto {
			vetoed[vetoKey{m.rel, m.head, m.tail}] = true
		}
	}
	ents := make([]extract.Entity, len(s.ms))
	for i, m := range s.ms {
		if m.typ == "" || !sc.HasEntityType(m.typ) {
			continue
		}
		e := s.entity(i)
		ents[i] = e
		k := entKey{e.Start, e.End, e.Type}
		if !seenE[k] {
			seenE[k] = true
			res.Entities = append(res.Entities, e)
		}
	}
	addTriple := func(rel string, h, t int, kind string) {
		he, te := ents[h], ents[t]
		if he.Type == "" || te.Type == "" || h == t || he.Canonical() == te.Canonical() {
			return
		}
		if !sc.Allows(he.Type, rel, te.Type) {
			return
		}
		if vetoed[vetoKey{rel, h, t}] {
			return
		}
		k := tripKey{he.Start, he.End, rel, te.Start, te.End}
		if r := sc.Relation(rel); r != nil && r.Symmetric && te.Start < he.Start {
			k = tripKey{te.Start, te.End, rel, he.Start, he.End}
		}
		if seenT[k] {
			return
		}
		seenT[k] = true
		res.Triples = append(res.Triples, extract.Triple{Head: he, Relation: rel, Tail: te, Evidence: ev, AliasKind: kind})
		if rel == "alias_of" && te.Name == "" {
			s.names.alias(te.Text, he.Canonical())
		}
	}
	for _, d := range s.direct {
		addTriple(d.rel, d.head, d.tail, "")
	}
	for _, m := range found {
		if m.veto || !fits(s.ms[m.head].typ, m.hs) || !fits(s.ms[m.tail].typ, m.tsl) {
			continue
		}
		addTriple(m.rel, m.head, m.tail, m.kind)
	}
	// Full names are remembered for later sentences and chunks.
	for i, m := range s.ms {
		if ents[i].Type == "" || m.name != "" {
			continue
		}
		switch m.typ {
		case "person":
			if m.b-m.a >= 2 {
				s.names.record(ents[i].Text, m.typ)
			}
		case "place", "organisation", "event", "work":
			s.names.record(ents[i].Text, m.typ)
		}
	}
}

// settle gives an untyped mention the type its slot implies.
func (s *sent) settle(k int, sl slot, headType string) {
	m := &s.ms[k]
	if m.typ != "" || !sl.untyped {
		return
	}
	t := sl.types[0]
	if t == "=" {
		t = headType
	}
	m.typ = t
}

func fits(typ string, sl slot) bool {
	if typ == "" {
		return false
	}
	for _, t := range sl.types {
		if t == typ || t == "=" {
			return true
		}
	}
	return false
}

func (s *sent) entity(i int) extract.Entity {
	m := s.ms[i]
	a, b := s.ts[m.a].start, s.ts[m.b-1].end
	e := extract.Entity{Text: string(s.rs[a:b]), Type: m.typ, Name: m.name}
	e.Start, e.End = a, b
	if e.Name == e.Text {
		e.Name = ""
	}
	return e
}
