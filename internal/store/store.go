// Package store defines what annals keeps in a workspace: the rows the
// rest of the program reads and writes. store/sqlite keeps them in the
// embedded default; each package that uses a store declares the few
// methods it needs, where it uses them.
package store

import (
	"errors"

	"github.com/annals-project/annals/internal/kg"
)

// ErrNotFound is returned when a document or entity does not exist.
var ErrNotFound = errors.New("not found")

// DocState is what the store remembers of an indexed document, enough to
// decide whether it needs work.
type DocState struct {
	ID      int64
	Key     string
	Version string
	Steps   map[string]string // step name → version that ran
}

// ChunkFacts is what extraction found in one chunk, in document offsets of
// the original text.
type ChunkFacts struct {
	Seq        int // the chunk's sequence number in the document
	Mentions   []NameSpan
	Evidence   []Statement
	Attributes []AttributeFact
}

// AttributeFact is an attribute of a named entity read in one sentence of
// a document: (entity, has_attr, attribute: value).
type AttributeFact struct {
	Entity    NameSpan
	Attribute string  // 字, 号, 生卒 …
	Value     string  // as written (original characters)
	At        kg.Span // where the value stands
	Sentence  kg.Span
}

// NameSpan is a name as it stands in a document: the canonical name an
// extractor gave it, its type, its offsets and its characters there.
type NameSpan struct {
	Name, Type string
	Start, End int
	Surface    string
}

// Statement is a relation read in one sentence of a document.
type Statement struct {
	Relation   string
	Head, Tail NameSpan
	Sentence   kg.Span
	// AliasKind says what kind of name the tail of an alias relation is
	// (字, 号 …); empty for other relations.
	AliasKind string
	Score     *float64 // 0–10 where a judge scored it
	// Aside marks a statement a judge scored under the threshold: stored,
	// but kept out of the graph.
	Aside bool
}

// DocWrite is one document with everything the document steps made of it,
// written in one transaction. What a step did not redo is left as stored.
type DocWrite struct {
	Doc kg.Document
	// KeepDoc says the stored document row is current (same text, same
	// ingest version): only its id is looked up, the text is not written.
	KeepDoc bool
	Chunks  []kg.Chunk   // nil: keep the stored chunks
	Facts   []ChunkFacts // nil with ReplaceFacts false: keep the stored facts
	// Terms are the chunks' lexical terms, by chunk sequence number; nil
	// keeps the stored ones.
	Terms     []ChunkTerms
	Extractor string
	// ReplaceFacts drops the document's stored mentions, evidence and
	// attributes before writing Facts (a changed document, or a new
	// extractor version), and with them the record of every step run on the
	// document, so that the corpus steps (dating) run on it again.
	ReplaceFacts bool
	Steps        map[string]string // steps to record as done, name → version
	// Failed, when set, records instead that a step failed on the document
	// (Doc.Key): nothing else is written, and what the store holds of an
	// earlier version stays as it was. Writing the document later, or
	// removing it, clears the record.
	Failed *Failure
}

// Failure is a document that a step failed on: an LLM reply that was not
// valid, a call that failed. Attempts counts the runs that failed on it
// since it was last written.
type Failure struct {
	Key      string `json:"key"`
	Step     string `json:"step"`
	Reason   string `json:"reason"`
	Attempts int    `json:"attempts"`
	At       string `json:"at"` // the last failed attempt, RFC 3339, UTC
}

// NameRef is an extracted name: the canonical form an extractor gave a
// mention, with its type.
type NameRef struct {
	ID       int64
	Name     string
	Type     string
	EntityID int64
	Mentions int
}

// AliasFact is an alias read in the text (a 别称 relation) or imported from
// a dictionary.
type AliasFact struct {
	Main   string // the entity's main name
	Alias  string
	Kind   string // 字, 号, 小字, dictionary …
	Source string // provenance: dictionary:FILE:LINE or text:DOCKEY@OFFSET
	DocID  int64  // 0 for dictionary entries
}

// Stats summarises a workspace.
type Stats struct {
	Documents   int            `json:"documents"`
	Chunks      int            `json:"chunks"`
	Characters  int            `json:"characters"`
	Entities    int            `json:"entities"`
	Mentions    int            `json:"mentions"`
	Relations   int            `json:"relations"`
	Evidence    int            `json:"evidence"`
	Aliases     int            `json:"aliases"`
	EntityTypes map[string]int `json:"entity_types"`
	Relation    map[string]int `json:"relation_types"`
	Languages   map[string]int `json:"languages"`
	Status      map[string]int `json:"status"`
}

// EntityQuery filters ListEntities.
type EntityQuery struct {
	Type   string
	Prefix string
	Limit  int
	Offset int
}

// Resolution is the outcome of entity alignment over the whole corpus:
// which entity every extracted name belongs to and which aliases each entity
// has, with their provenance.
type Resolution struct {
	Entities []ResolvedEntity
}

// ResolvedEntity is one entity with the names that refer to it.
type ResolvedEntity struct {
	Name    string
	Type    string
	NameIDs []int64    // extracted names that refer to it
	Aliases []kg.Alias // other names, with kind and source
}

// UsageRow is the LLM token usage of one step with one model.
type UsageRow struct {
	Command          string  `json:"command,omitempty"`
	Step             string  `json:"step"`
	Model            string  `json:"model"`
	Calls            int     `json:"calls"`
	Cached           int     `json:"cached"`
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	Estimated        bool    `json:"estimated"`
	Cost             float64 `json:"cost"`
}

// Merge says that some names are one entity, as an LLM or a person decided.
type Merge struct {
	ID        int64    `json:"id"`
	Type      string   `json:"type"` // entity type
	Canonical string   `json:"canonical"`
	Names     []string `json:"names"`
	Reason    string   `json:"reason"`
	Source    string   `json:"source"` // llm:MODEL or user
	CreatedAt string   `json:"created_at"`
	UndoneAt  string   `json:"undone_at,omitempty"`
}

// VectorItem is a chunk or an entity with the text to embed.
type VectorItem struct {
	ID   int64
	Text string
}

// DatedDoc is a document with the evidence and chunks the time step dates.
type DatedDoc struct {
	ID       int64
	Key      string
	Title    string
	Section  string
	Lang     string
	Text     string
	Norm     string
	Evidence []Dated
	Chunks   []Dated
	Times    []Dated // mentions of time entities (时间, time)
	People   []PersonMention
}

// PersonMention is a mention of a person in a document being dated, with
// the entity it was aligned to (0 when none).
type PersonMention struct {
	NameID, EntityID int64
	Name             string
	Start, End       int
}

// EntityDoc counts an entity's mentions in one document.
type EntityDoc struct {
	EntityID     int64
	Section, Key string
	Mentions     int
}

// Dated is an evidence sentence or a chunk with the time found for it.
type Dated struct {
	ID         int64
	Start, End int
	Section    string // chunks only
	// For evidence: the time of the fact.
	Dated         bool
	Year, EndYear int
	Precision     string
	Expr          string
	// For evidence dated only within a reign the table cannot place: the
	// ruler as written, the name it was linked to (0 when none) and the year
	// of the reign.
	Reign     string
	ReignName int64
	ReignYear int
	// For chunks: every year it speaks of.
	Years []int
}

// Reign is a year counted from a ruler's accession that no table places:
// the Nth year of the ruler, who is an entity of the graph where known.
type Reign struct {
	Ruler   string `json:"ruler"`
	RulerID int64  `json:"ruler_id,omitempty"`
	Year    int    `json:"year"`
}

// TimelineQuery selects dated facts.
type TimelineQuery struct {
	EntityID int64 // the facts of one entity; 0 for all
	From, To *int  // a window of years (astronomical), inclusive
	Type     string
	Limit    int
	Offset   int // items skipped, for paging
}

// FactYear is the year one evidence sentence gives a dated fact, and the
// document it is in.
type FactYear struct {
	Year     int
	Doc      int64
	Sentence string // the sentence that dates it, normalised
}

// TimelineItem is one dated fact with the sentence that dates and states it.
// A fact dated only within a reign the table cannot place has no year but
// a Reign, which orders it among the facts of that reign.
type TimelineItem struct {
	Year       *int        `json:"year"`
	EndYear    *int        `json:"end_year"`
	Precision  string      `json:"precision"`
	Expression string      `json:"expression"`
	Reign      *Reign      `json:"reign,omitempty"`
	Fact       kg.Relation `json:"fact"`
	Citation   kg.Evidence `json:"citation"`
}

// GraphNode is an entity that communities are found among, with the
// chunks that mention it (some of them, in id order).
type GraphNode struct {
	ID       int64
	Name     string
	Type     string
	Mentions int
	Chunks   []int64
}

// GraphEdge is a relation between two such entities, with its support and
// the years its evidence is dated to.
type GraphEdge struct {
	RelationID, Head, Tail int64
	Type                   string
	Support                int
	Years                  []int
}
