// Package ekg builds the entity layer of an enhanced knowledge graph: it
// finds entities and their mentions and leaves relations to be read from the
// cited text at query time. Construction then needs only named-entity
// recognition, which is cheap, while every mention still points back at its
// sentence.
//
// Offline it keeps the entities of a base extractor (the rules). With an LLM
// it asks one short NER question per chunk and merges the validated answer
// into the base entities.
package ekg

import (
	"context"
	"sort"
	"sync/atomic"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/schema"
)

// version changes whenever the filtering or merging below changes output.
const version = "ekg-1"

// Extractor finds entities and mentions only.
type Extractor struct {
	base extract.Extractor
	c    llm.Client

	calls, badReplies, kept, dropped atomic.Int64
}

// Stats counts what the LLM step did since the extractor was made.
type Stats struct {
	Calls      int64 // NER calls made
	BadReplies int64 // replies that held no readable entity list
	Kept       int64 // mentions the LLM added or retyped
	Dropped    int64 // proposed entities refused: not in the text, unknown type, malformed
}

// New returns an EKG extractor over base (the offline extractor, which may
// be nil). c may be nil: then only the base entities are used.
func New(base extract.Extractor, c llm.Client) *Extractor {
	return &Extractor{base: base, c: c}
}

// Name implements extract.Extractor.
func (*Extractor) Name() string { return "ekg" }

// Version implements extract.Extractor.
func (e *Extractor) Version() string {
	b := "none"
	if e.base != nil {
		b = e.base.Version()
	}
	return e.versionWith(b)
}

// VersionFor is the version for one language, so that a change to one
// language's base rules re-runs only that language.
func (e *Extractor) VersionFor(lang string) string {
	b := "none"
	if v, ok := e.base.(interface{ VersionFor(string) string }); ok {
		b = v.VersionFor(lang)
	} else if e.base != nil {
		b = e.base.Version()
	}
	return e.versionWith(b)
}

func (e *Extractor) versionWith(base string) string {
	v := version + "+" + base
	if e.c != nil {
		v += "+ner-" + promptHash(e.c.Model())
	}
	return v
}

// Stats returns the counters so far.
func (e *Extractor) Stats() Stats {
	return Stats{Calls: e.calls.Load(), BadReplies: e.badReplies.Load(), Kept: e.kept.Load(), Dropped: e.dropped.Load()}
}

// IsAlias reports whether t says that two names name one thing. Such
// triples are identity, not relations, and alignment needs them.
func IsAlias(t extract.Triple) bool {
	return t.AliasKind != "" || kg.IsAliasRelation(t.Relation)
}

// Extract implements extract.Extractor.
func (e *Extractor) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	if err := ctx.Err(); err != nil {
		return extract.Result{}, err
	}
	var res extract.Result
	if e.base != nil {
		r, err := e.base.Extract(ctx, in)
		if err != nil {
			return extract.Result{}, err
		}
		res.Entities = append(res.Entities, r.Entities...)
		for _, t := range r.Triples {
			if IsAlias(t) {
				res.Triples = append(res.Triples, t)
			}
		}
	}
	if e.c == nil || in.Text == "" {
		return res, nil
	}
	sch := schemaFor(in)
	found, err := e.ask(ctx, in, sch)
	if err != nil {
		return extract.Result{}, err
	}
	res = dropSplit(res, found)
	return e.merge(res, dropNested(found, res.Entities), sch), nil
}

// dropSplit drops the base's mentions, other than people, that hold a
// person the model read (颍川司马徽 read as one place, where the model read
// 颍川 a place and 司马徽 a person): the model read the whole chunk
// against the schema, and a person is not part of a place's or an
// office's name. Offices fused with their place (南阳太守) stay whole
// whatever the model read inside them. Triples through a dropped mention
// go with it.
func dropSplit(res extract.Result, found []extract.Entity) extract.Result {
	person := func(t string) bool { return t == "人物" || t == "person" }
	split := map[kg.Span]bool{}
	kept := res.Entities[:0:0]
	for _, b := range res.Entities {
		drop := false
		for _, f := range found {
			if person(f.Type) && !person(b.Type) && b.Len() > f.Len() && b.Contains(f.Span) {
				drop = true
				break
			}
		}
		if drop {
			split[b.Span] = true
			continue
		}
		kept = append(kept, b)
	}
	if len(split) == 0 {
		return res
	}
	res.Entities = kept
	triples := res.Triples[:0:0]
	for _, t := range res.Triples {
		if !split[t.Head.Span] && !split[t.Tail.Span] {
			triples = append(triples, t)
		}
	}
	res.Triples = triples
	return res
}

// schemaFor is the input's schema, or the default for its language.
func schemaFor(in extract.Input) *schema.Schema {
	if in.Schema != nil {
		return in.Schema
	}
	return schema.DefaultFor(in.Lang)
}

// merge adds the LLM's mentions to the base result. Same span and type is
// one mention; on the same span with another type the LLM's type wins,
// since it was checked against the schema and read the whole chunk.
func (e *Extractor) merge(res extract.Result, found []extract.Entity, sch *schema.Schema) extract.Result {
	type key struct {
		s kg.Span
		t string
	}
	have := map[key]bool{}
	first := map[kg.Span]int{} // span → index of its first entity
	for i, en := range res.Entities {
		have[key{en.Span, en.Type}] = true
		if _, ok := first[en.Span]; !ok {
			first[en.Span] = i
		}
	}
	retyped := map[kg.Span]string{}
	for _, f := range found {
		if have[key{f.Span, f.Type}] {
			continue
		}
		if i, ok := first[f.Span]; ok {
			if _, done := retyped[f.Span]; done || !sch.HasEntityType(f.Type) {
				continue
			}
			delete(have, key{f.Span, res.Entities[i].Type})
			res.Entities[i].Type = f.Type
			have[key{f.Span, f.Type}] = true
			retyped[f.Span] = f.Type
			e.kept.Add(1)
			continue
		}
		have[key{f.Span, f.Type}] = true
		first[f.Span] = len(res.Entities)
		res.Entities = append(res.Entities, f)
		e.kept.Add(1)
	}
	// An alias whose ends were retyped must still fit the schema.
	if len(retyped) > 0 {
		kept := res.Triples[:0]
		for _, t := range res.Triples {
			if typ, ok := retyped[t.Head.Span]; ok {
				t.Head.Type = typ
			}
			if typ, ok := retyped[t.Tail.Span]; ok {
				t.Tail.Type = typ
			}
			if sch.Allows(t.Head.Type, t.Relation, t.Tail.Type) {
				kept = append(kept, t)
			}
		}
		res.Triples = kept
	}
	sort.SliceStable(res.Entities, func(a, b int) bool {
		x, y := res.Entities[a], res.Entities[b]
		if x.Start != y.Start {
			return x.Start < y.Start
		}
		return x.End < y.End
	})
	return res
}
