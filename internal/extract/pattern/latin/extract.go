package latin

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

// Lang is what a language brings to Extract besides the reading of a
// sentence.
type Lang struct {
	// Tokenize splits rs[from:to] into tokens.
	Tokenize func(rs []rune, from, to int) []Tok
	// Names says how people's names are shortened.
	Names NameRules
	// Rules returns the compiled relation rules.
	Rules func() *RuleSet
}

var general = sync.OnceValue(func() *schema.Schema { return schema.MustLoad(schema.General) })

// Extract reads entities and relations out of in.Text sentence by
// sentence. read finds a sentence's mentions and returns how rules read the
// rest of it.
func (l *Lang) Extract(ctx context.Context, in extract.Input, read func(*Sent) Reader) (extract.Result, error) {
	var res extract.Result
	if strings.TrimSpace(in.Text) == "" {
		return res, nil
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
	out := &output{sc: sc, res: &res, seenE: map[entKey]bool{}, seenT: map[tripKey]bool{}}
	names := NewNames(doc, l.Names)
	rs := []rune(in.Text)
	for _, sp := range text.Sentences(in.Text, in.Lang) {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		a, b := trim(rs, sp)
		if a >= b {
			continue
		}
		ts := l.Tokenize(rs, a, b)
		if len(ts) == 0 {
			continue
		}
		s := NewSent(rs, ts, names)
		r := read(s)
		s.emit(out, kg.Span{Start: a, End: b}, s.relate(l.Rules(), r))
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

// output is the result of one input as it grows, with what it already
// holds, so that an entity or a triple read twice is kept once.
type output struct {
	sc    *schema.Schema
	res   *extract.Result
	seenE map[entKey]bool
	seenT map[tripKey]bool
}

// emit settles types, keeps what the schema allows and appends the
// sentence's entities and triples, read from evidence ev, to out.
func (s *Sent) emit(out *output, ev kg.Span, found []match) {
	sc, res := out.sc, out.res
	// Rules give untyped mentions a type; the first rule to do so wins.
	for _, m := range found {
		if m.veto {
			continue
		}
		s.settle(m.head, m.hs, "")
		s.settle(m.tail, m.tsl, s.Mentions[m.head].Type)
	}
	for i := range s.Mentions {
		if s.Mentions[i].Type == "" {
			s.Mentions[i].Type = s.Mentions[i].Soft
		}
	}
	vetoed := map[vetoKey]bool{}
	for _, m := range found {
		if m.veto {
			vetoed[vetoKey{m.rel, m.head, m.tail}] = true
		}
	}
	ents := make([]extract.Entity, len(s.Mentions))
	for i, m := range s.Mentions {
		if m.Type == "" || !sc.HasEntityType(m.Type) {
			continue
		}
		e := s.entity(i)
		ents[i] = e
		k := entKey{e.Start, e.End, e.Type}
		if !out.seenE[k] {
			out.seenE[k] = true
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
		if out.seenT[k] {
			return
		}
		out.seenT[k] = true
		res.Triples = append(res.Triples, extract.Triple{Head: he, Relation: rel, Tail: te, Evidence: ev, AliasKind: kind})
		if rel == "alias_of" && te.Name == "" {
			s.Names.alias(te.Text, he.Canonical())
		}
	}
	for _, d := range s.Direct {
		addTriple(d.Rel, d.Head, d.Tail, "")
	}
	for _, m := range found {
		if m.veto || !fits(s.Mentions[m.head].Type, m.hs) || !fits(s.Mentions[m.tail].Type, m.tsl) {
			continue
		}
		addTriple(m.rel, m.head, m.tail, m.kind)
	}
	// Full names are remembered for later sentences and chunks.
	for i, m := range s.Mentions {
		if ents[i].Type == "" || m.Name != "" {
			continue
		}
		switch m.Type {
		case "person":
			if m.B-m.A >= 2 {
				s.Names.record(ents[i].Text, m.Type)
			}
		case "place", "organisation", "event", "work":
			s.Names.record(ents[i].Text, m.Type)
		}
	}
}

// settle gives an untyped mention the type its slot implies.
func (s *Sent) settle(k int, sl slot, headType string) {
	m := &s.Mentions[k]
	if m.Type != "" || !sl.untyped {
		return
	}
	t := sl.types[0]
	if t == "=" {
		t = headType
	}
	m.Type = t
}

// fits reports whether a mention of type typ may fill slot sl.
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

func (s *Sent) entity(i int) extract.Entity {
	m := s.Mentions[i]
	a, b := s.Toks[m.A].Start, s.Toks[m.B-1].End
	e := extract.Entity{Text: string(s.Runes[a:b]), Type: m.Type, Name: m.Name}
	e.Start, e.End = a, b
	if e.Name == e.Text {
		e.Name = ""
	}
	return e
}
