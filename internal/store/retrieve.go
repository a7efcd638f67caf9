package store

import "github.com/annals-project/annals/internal/kg"

// NameMatch is an entity whose name, alias or extracted name is Text.
type NameMatch struct {
	Text   string
	Entity kg.Entity
	ByName bool // Text is the entity's canonical name
}

// Passage is a chunk ready to be cited: its normalised text, for matching,
// and the original text of its span, with the way back from one to the
// other.
type Passage struct {
	ChunkID, DocID int64
	DocKey, Cite   string
	Lang           string
	Start, End     int    // original offsets of the chunk in its document
	Text           string // original characters of the span
	Norm           string // normalised text of the span
	// Orig maps a code-point offset into Norm to an offset into the
	// document; nil when they are the same (offset + Start).
	Orig []int
}

// OrigOffset maps an offset into Norm to an offset into the document.
func (p *Passage) OrigOffset(n int) int {
	if p.Orig == nil {
		return p.Start + n
	}
	if n >= len(p.Orig) {
		return p.End
	}
	return p.Orig[n]
}

// Edge is one relation seen from one of its ends.
type Edge struct {
	RelationID int64
	Type       string
	Other      int64 // the entity at the other end
	Forward    bool  // the entity asked about is the head
	Support    int   // evidence sentences
	Status     string
}

// AliasEvidence is a sentence that gives an entity another name (诸葛亮，
// 字孔明): the name, its kind and the sentence.
type AliasEvidence struct {
	Alias    string
	Kind     string
	Evidence kg.Evidence
}

// NameUse is how often a name stands for an entity in one part of the
// corpus (a book, or a book's part: 三国志/魏书): a designation's scope.
type NameUse struct {
	Name     string
	Part     string
	Mentions int
	First    kg.Mention // the first of them, with its context
}

// DocMention is an entity named in a document: where (original offsets),
// as written, and which entity.
type DocMention struct {
	kg.Span
	Surface  string `json:"surface"`
	EntityID int64  `json:"entity_id"` // 0 when the name is not aligned to one
	Name     string `json:"name"`
	Type     string `json:"type"`
}

// TypedMention is a mention with the type and name of what it names.
type TypedMention struct {
	kg.Span         // original offsets in the document
	Surface  string // as written
	Type     string
	Name     string // the entity's name (or the extracted name, unaligned)
	EntityID int64  // 0 when unaligned
}

// EntityCount is how often an entity is named in some documents, with
// the first place it is.
type EntityCount struct {
	Entity         kg.Entity
	Count          int
	DocID, ChunkID int64
	kg.Span        // the first mention, original offsets
}
