// Package zh reads persons, places, offices, titles, times, works and the
// relations between them out of classical (and modern) Chinese with rules
// and gazetteers, for the zh-history schema. It works offline and fast:
// lexicons live in one rune trie and every rule looks at a few runes around
// a trigger word.
package zh

import (
	"context"
	"sort"
	"sync"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/schema"
	"github.com/annals-project/annals/internal/text"
)

// Extractor is the rule-and-gazetteer extractor for Chinese, optionally
// with a learned recogniser deciding the names.
type Extractor struct {
	rec Recogniser
	rel Relater
	// plain leaves out who titles stand for and the clean-up after
	// recognition, for reading the rules' names as a model's features.
	plain bool
}

// New returns the extractor; its lexicons load on first use.
func New() *Extractor { return &Extractor{} }

// Plain returns the rules as a learned recogniser sees them while it
// reads: names and relations, without resolving titles to the persons
// they stand for (which runs after recognition). Training features come
// from it so that they match what the recogniser sees at work.
func Plain() *Extractor { return &Extractor{plain: true} }

// Name implements extract.Extractor.
func (*Extractor) Name() string { return "pattern" }

// Version implements extract.Extractor; it changes with the output.
func (e *Extractor) Version() string {
	v := "zh-67"
	if e.rec != nil {
		v += "+" + e.rec.Version()
	}
	if e.rel != nil {
		v += "+" + e.rel.Version()
	}
	return v
}

// Extract implements extract.Extractor.
func (e *Extractor) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	if err := ctx.Err(); err != nil {
		return extract.Result{}, err
	}
	x := newRun(in.Text, in.Doc)
	x.plain = e.plain
	x.recognise()
	x.readAs(in.Names)
	lang := in.Lang
	if lang == "" {
		lang = text.Classical
	}
	spans := text.Sentences(in.Text, lang)
	ss := make([]sentence, 0, len(spans))
	for _, sp := range spans {
		if sp.Start < sp.End && sp.Start >= 0 && sp.End <= len(x.rs) {
			ss = append(ss, sentence{sp.Start, sp.End})
		}
	}
	sort.Slice(ss, func(a, b int) bool { return ss[a].s < ss[b].s })
	if e.rec != nil {
		x.learned(e.rec, ss)
		x.readAs(in.Names)
	}
	if !e.plain {
		x.posthFormulas()
	}
	x.openings(ss)
	if !e.plain {
		x.designate()
		x.appointedGiven()
	}
	x.relate(ss)
	if !e.plain {
		x.lateGivenNames()
	}
	if e.rel != nil && !e.plain {
		x.classify(e.rel, ss)
	}
	if !e.plain {
		x.nameAliases()
		x.readEvents(ss)
	}
	res := x.result(in, ss)
	x.doc.Life = x.lifeAt(len(x.rs))
	x.doc.Chunks++
	return res, nil
}

func (x *run) entity(k int) extract.Entity {
	en := x.ents[k]
	out := extract.Entity{Text: string(x.rs[en.s:en.e]), Type: en.typ, Span: kg.Span{Start: en.s, End: en.e}}
	if en.name != "" && en.name != out.Text {
		out.Name = en.name
	}
	return out
}

func (x *run) result(in extract.Input, ss []sentence) extract.Result {
	var res extract.Result
	for _, k := range x.order {
		res.Entities = append(res.Entities, x.entity(k))
		en := x.ents[k]
		if en.typ != tPer && en.typ != tTime {
			x.doc.Types[en.canonical(x.rs)] = en.typ
		}
	}
	type key struct {
		h, t int
		r    string
	}
	seen := map[key]bool{}
	for _, r := range x.rels {
		if r.h < 0 || r.t < 0 || r.h == r.t {
			continue
		}
		h, t := x.ents[r.h], x.ents[r.t]
		if h.s < 0 || t.s < 0 || h.typ == tPer && x.diedBefore(r.h, r.t, r.r) {
			continue
		}
		if in.Schema != nil && !in.Schema.Allows(h.typ, r.r, t.typ) {
			continue
		}
		if in.Schema == nil && !defaultAllows(h.typ, r.r, t.typ) {
			continue
		}
		// A subject carried over from an earlier sentence widens the
		// evidence to the sentences between.
		sen := sentOf(ss, min(h.s, t.s))
		last := sentOf(ss, max(h.e, t.e)-1)
		if sen.s < 0 || last.s < 0 {
			continue
		}
		sen.e = last.e
		kk := key{r.h, r.t, r.r}
		if seen[kk] {
			continue
		}
		seen[kk] = true
		if h.canonical(x.rs) == t.canonical(x.rs) && (r.r != "别称" || string(x.rs[t.s:t.e]) == h.canonical(x.rs)) {
			continue
		}
		tail := x.entity(r.t)
		if r.r == "别称" {
			// An alias is the name as written (晟 for 孙晟), not the
			// person it resolves to.
			tail.Name = ""
		}
		res.Triples = append(res.Triples, extract.Triple{
			Head: x.entity(r.h), Relation: r.r, Tail: tail,
			Evidence: kg.Span{Start: sen.s, End: sen.e}, AliasKind: r.alias,
		})
	}
	for _, c := range x.called {
		en := x.ents[c.k]
		if en.s < 0 {
			continue
		}
		head, tail := x.entity(c.k), x.entity(c.k)
		tail.Name = ""
		sen := sentOf(ss, en.s)
		if sen.s < 0 {
			continue
		}
		res.Triples = append(res.Triples, extract.Triple{Head: head, Relation: "别称", Tail: tail,
			Evidence: kg.Span{Start: sen.s, End: sen.e}, AliasKind: c.kind})
	}
	sort.SliceStable(res.Triples, func(a, b int) bool {
		ta, tb := res.Triples[a], res.Triples[b]
		if ta.Evidence.Start != tb.Evidence.Start {
			return ta.Evidence.Start < tb.Evidence.Start
		}
		return ta.Head.Start < tb.Head.Start
	})
	return res
}

var zhHistory = sync.OnceValue(func() *schema.Schema { return schema.MustLoad(schema.ZhHistory) })

// defaultAllows bounds relations by the zh-history schema when the input
// names none.
func defaultAllows(h, r, t string) bool { return zhHistory().Allows(h, r, t) }
