// Package extract defines how extractors turn text into entities and
// relations, and the JSON-lines format `annals extract --json` prints.
package extract

import (
	"context"
	"encoding/json"
	"io"

	"github.com/annals-project/annals/internal/docstats"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/schema"
)

// Extractor reads entities and relation triples out of a text.
type Extractor interface {
	// Name identifies the extractor in stored facts ("pattern", "llm" …).
	Name() string
	// Version changes whenever the extractor would produce different output,
	// so that workspaces re-run extraction.
	Version() string
	Extract(ctx context.Context, in Input) (Result, error)
}

// Input is one piece of text to extract from. All offsets in the Result are
// Unicode code points into Text.
type Input struct {
	Text   string // normalised (simplified) text of a chunk or sentence
	Lang   string // lzh, zh, vi, en, und
	Schema *schema.Schema
	// Doc carries what earlier chunks of the same document taught the
	// extractor (full names for short ones, the chapter's subject). Nil for a
	// stand-alone text; chunks of one document share one DocContext and are
	// extracted in order.
	Doc *DocContext
	// Names are persons the caller knows the text names, such as the
	// subject of a question, which a recogniser may miss (马哥, a Jurchen
	// name); an extractor that can reads each occurrence as a person.
	Names []string
	// Known are facts the graph already holds about entities the text
	// names, as lines (诸葛亮 任官 丞相), for an extractor that reads them
	// as context (RAG-augmented extraction); they are not to be copied.
	Known []string
}

// WithNames returns ex reading the given names as persons in every text
// it extracts from (Input.Names); ex itself when there are none.
func WithNames(ex Extractor, names []string) Extractor {
	if len(names) == 0 {
		return ex
	}
	return withNames{ex, names}
}

type withNames struct {
	Extractor
	names []string
}

func (w withNames) Extract(ctx context.Context, in Input) (Result, error) {
	in.Names = append(in.Names[:len(in.Names):len(in.Names)], w.names...)
	return w.Extractor.Extract(ctx, in)
}

// DocContext is per-document state shared across the chunks of a document.
type DocContext struct {
	Key     string   // document key
	Title   string   // document title, e.g. 诸葛亮传
	Section []string // section path
	// Names maps a name seen in the document to its canonical full name
	// (亮 → 诸葛亮 once 诸葛亮 has appeared). Extractors add to it.
	Names map[string]string
	// Types remembers the entity type of each canonical name seen so far.
	Types map[string]string
	// Designations maps a title or form of address to the person it
	// stands for in this document (太祖 → 曹操 in 三国志·魏书), with why.
	Designations map[string]*Designation
	// Subjects are the persons the chapter is about: the one its opening
	// names, and each whose life it joins opens with his name and 字
	// (班超字仲升 in 班梁列传). Extractors add to it.
	Subjects map[string]bool
	// Life is the person whose life the text has reached, in a chapter
	// that joins several: the last paragraph opened with a full name and
	// 字 so far ("" before any).
	Life string
	// Chunks counts the chunks extracted so far; the first holds the
	// chapter's opening, which names its subject.
	Chunks int
	// Use is how the whole document uses its characters, for a name
	// model that reads a sentence at a time; nil: an extractor counts the
	// text it is given.
	Use *docstats.Stats
	// Found are the names a name model has found in the document so far,
	// sentence by sentence, for it to read the next sentence knowing them.
	Found *docstats.Found
}

// Designation is the person a title stands for in a document.
type Designation struct {
	Person string
	// Kind is the alias kind the title is recorded under (庙号, 称号 …).
	Kind string
	// Cited is set once the document has recorded the title as an alias.
	Cited bool
}

// NewDocContext returns an empty context for a document.
func NewDocContext(key, title string, section []string) *DocContext {
	return &DocContext{Key: key, Title: title, Section: section, Names: map[string]string{}, Types: map[string]string{}, Designations: map[string]*Designation{}, Subjects: map[string]bool{}, Found: docstats.NewFound()}
}

// Entity is one mention of an entity.
type Entity struct {
	Text string `json:"text"` // the surface form as it occurs in the text
	Type string `json:"type"`
	kg.Span
	// Name is the canonical name the mention refers to when it differs from
	// Text (维 → 姜维); empty otherwise.
	Name string `json:"name,omitempty"`
}

// Canonical is the name the mention refers to.
func (e Entity) Canonical() string {
	if e.Name != "" {
		return e.Name
	}
	return e.Text
}

// Triple is a relation read in one sentence.
type Triple struct {
	Head     Entity
	Relation string
	Tail     Entity
	Evidence kg.Span // the sentence
	// AliasKind says what kind of name the tail of an alias relation is
	// (字, 号, 小名 …); empty for other relations.
	AliasKind string
	Score     *float64 // 0–10 when a judge scored it, else nil
	// Aside marks a triple that a judge scored under the threshold: stored
	// and listable, but kept out of the graph.
	Aside bool
}

// Attribute is a property of an entity read in one sentence: the triple
// (entity, has_attr, attribute: value) of Youtu-GraphRAG's schema, whose
// value is text rather than an entity: a 字, a 号, the years of a life.
type Attribute struct {
	Entity Entity
	Name   string  // the attribute type, one of the schema's (字, 号, 生卒 …)
	Value  string  // as written in the text
	At     kg.Span // where the value stands
	// Evidence is the sentence that states it.
	Evidence kg.Span
}

// NameKinds are the attributes that are names of their entity: each is
// also an alias of that kind, so that the name finds the entity.
var NameKinds = []string{"字", "号", "谥号", "庙号", "封号", "小名",
	"courtesy_name", "art_name", "posthumous_name", "temple_name", "birth_name", "epithet"}

// IsNameKind says whether an attribute (or the kind of an alias) is a
// name of its entity.
func IsNameKind(kind string) bool {
	for _, k := range NameKinds {
		if k == kind {
			return true
		}
	}
	return false
}

// Result is what an extractor found.
type Result struct {
	Entities   []Entity
	Triples    []Triple
	Attributes []Attribute
}

// EntityLine, TripleLine and AttributeLine are the kinds of line `annals
// extract --json` prints (see docs/architecture.md, "annals extract --json").
type EntityLine struct {
	Kind  string `json:"kind"`
	Text  string `json:"text"`
	Type  string `json:"type"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

type TripleLine struct {
	Kind          string   `json:"kind"`
	Head          string   `json:"head"`
	HeadType      string   `json:"head_type"`
	HeadStart     int      `json:"head_start"`
	HeadEnd       int      `json:"head_end"`
	Relation      string   `json:"relation"`
	Tail          string   `json:"tail"`
	TailType      string   `json:"tail_type"`
	TailStart     int      `json:"tail_start"`
	TailEnd       int      `json:"tail_end"`
	Evidence      string   `json:"evidence"`
	EvidenceStart int      `json:"evidence_start"`
	EvidenceEnd   int      `json:"evidence_end"`
	Score         *float64 `json:"score"`
}

type AttributeLine struct {
	Kind          string `json:"kind"`
	Entity        string `json:"entity"`
	EntityType    string `json:"entity_type"`
	EntityStart   int    `json:"entity_start"`
	EntityEnd     int    `json:"entity_end"`
	Attribute     string `json:"attribute"`
	Value         string `json:"value"`
	ValueStart    int    `json:"value_start"`
	ValueEnd      int    `json:"value_end"`
	Evidence      string `json:"evidence"`
	EvidenceStart int    `json:"evidence_start"`
	EvidenceEnd   int    `json:"evidence_end"`
}

// WriteJSONL prints r as JSON lines, entities first, then triples, then
// attributes. text is the text the
// offsets point into; shift is added to every offset (the position of text
// inside a larger input).
func WriteJSONL(w io.Writer, text []rune, shift int, r Result) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, e := range r.Entities {
		if err := enc.Encode(EntityLine{Kind: "entity", Text: e.Text, Type: e.Type, Start: e.Start + shift, End: e.End + shift}); err != nil {
			return err
		}
	}
	cut := func(sp kg.Span) string {
		if sp.Start >= 0 && sp.End <= len(text) && sp.Start <= sp.End {
			return string(text[sp.Start:sp.End])
		}
		return ""
	}
	for _, t := range r.Triples {
		ev := cut(t.Evidence)
		line := TripleLine{
			Kind: "triple", Head: t.Head.Canonical(), HeadType: t.Head.Type,
			HeadStart: t.Head.Start + shift, HeadEnd: t.Head.End + shift,
			Relation: t.Relation,
			Tail:     t.Tail.Canonical(), TailType: t.Tail.Type,
			TailStart: t.Tail.Start + shift, TailEnd: t.Tail.End + shift,
			Evidence: ev, EvidenceStart: t.Evidence.Start + shift, EvidenceEnd: t.Evidence.End + shift,
			Score: t.Score,
		}
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	for _, a := range r.Attributes {
		line := AttributeLine{
			Kind: "attribute", Entity: a.Entity.Canonical(), EntityType: a.Entity.Type,
			EntityStart: a.Entity.Start + shift, EntityEnd: a.Entity.End + shift,
			Attribute: a.Name, Value: a.Value, ValueStart: a.At.Start + shift, ValueEnd: a.At.End + shift,
			Evidence: cut(a.Evidence), EvidenceStart: a.Evidence.Start + shift, EvidenceEnd: a.Evidence.End + shift,
		}
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	return nil
}
