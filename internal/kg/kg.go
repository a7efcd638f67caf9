// Package kg holds the data model of an annals knowledge graph: documents,
// chunks, entities, mentions and relations, each carrying the document
// offsets it came from. It imports nothing else of the project.
package kg

import "slices"

// Fact status values (see docs/architecture.md, "Fact status").
const (
	StatusExtracted = "extracted" // an extractor read it in a sentence
	StatusInferred  = "inferred"  // reasoned at query time, not yet verified
	StatusVerified  = "verified"  // inferred, then confirmed against its evidence
	StatusUser      = "user"      // added or edited by a person
)

// IsAliasRelation says whether a relation type says that two names name
// one thing: the alias relations of the shipped schemas (zh-history's 别称,
// general's alias_of). Such relations are identity, not edges.
func IsAliasRelation(t string) bool { return slices.Contains(AliasRelations, t) }

// AliasRelations are the alias relations of the shipped schemas.
var AliasRelations = []string{"别称", "alias_of"}

// Span is a half-open range [Start,End) of Unicode code points.
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Len is the number of code points in the span.
func (s Span) Len() int { return s.End - s.Start }

// Contains reports whether o lies inside s.
func (s Span) Contains(o Span) bool { return o.Start >= s.Start && o.End <= s.End }

// Document is one indexed text.
type Document struct {
	ID       int64    `json:"id"`
	Key      string   `json:"key"`     // path relative to the indexed root
	Version  string   `json:"version"` // SHA-256 of the decoded text
	Title    string   `json:"title"`
	Section  []string `json:"section"` // section path, e.g. [三国志 蜀书 诸葛亮传]
	Lang     string   `json:"lang"`    // lzh, zh, vi, en, und
	Encoding string   `json:"encoding"`
	Chars    int      `json:"chars"`
	Text     string   `json:"-"` // decoded original text
	Norm     string   `json:"-"` // normalised text, same length in code points unless OffsetMap is set
	// OffsetMap maps a normalised code-point offset to the original offset.
	// Nil when normalisation kept every position (the usual case).
	OffsetMap []int32 `json:"-"`
}

// Chunk is a window of a document that extraction and retrieval work on.
type Chunk struct {
	ID      int64  `json:"id"`
	DocID   int64  `json:"doc_id"`
	Seq     int    `json:"seq"`
	Section string `json:"section"` // section path inside the document, "/"-joined, then the unit (卷一/张辽) where chunks follow the writing pattern
	Span           // offsets into the document
	Overlap int    `json:"overlap"` // leading code points shared with the previous chunk
	Text    string `json:"text"`    // normalised text of the span
}

// Alias is another name of an entity, with where it came from.
type Alias struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`   // 字, 号, 谥号, 封号, 小名, variant, short, dictionary
	Source string `json:"source"` // "dictionary:FILE", "text:DOCKEY@START", …
}

// Entity is a node of the graph.
type Entity struct {
	ID          int64             `json:"id"`
	Name        string            `json:"name"`
	Type        string            `json:"type"`
	Aliases     []Alias           `json:"aliases,omitempty"`
	Attributes  map[string]string `json:"attributes,omitempty"`
	Description string            `json:"description,omitempty"`
	Mentions    int               `json:"mentions"`
}

// Mention links an entity to the place in a document where it is named:
// the entity–document edges of the Enhanced Knowledge Graph.
type Mention struct {
	EntityID int64 `json:"entity_id"`
	DocID    int64 `json:"doc_id"`
	ChunkID  int64 `json:"chunk_id"`
	Span
	Surface string `json:"surface"` // the text as written (original characters)
	DocKey  string `json:"doc_key,omitempty"`
	Cite    string `json:"cite,omitempty"`
	Context string `json:"context,omitempty"` // the surrounding text (normalised), for reading
	// Year is the year a time expression stands for, where it resolved.
	Year *int `json:"year,omitempty"`
}

// Evidence is one sentence that supports a relation.
type Evidence struct {
	DocID    int64  `json:"doc_id"`
	DocKey   string `json:"doc_key"`
	Cite     string `json:"cite"` // 《三国志·蜀书·诸葛亮传》
	ChunkID  int64  `json:"chunk_id"`
	Span            // sentence offsets in the document
	Head     Span   `json:"head"`
	Tail     Span   `json:"tail"`
	Sentence string `json:"sentence"`       // original characters
	Norm     string `json:"sentence_norm"`  // normalised form
	Year     *int   `json:"year,omitempty"` // the year the sentence dates the fact to, when dated
	// Precision says how Year was found: "context" when the sentence names
	// no time and the year is the one in force where it stands; else the
	// precision of the sentence's own time expression (year, month, day …).
	Precision string `json:"year_precision,omitempty"`
	// Reign and ReignYear date a fact only within a reign the era table
	// cannot place (景公二十九年): the ruler as written, and the year of
	// his reign.
	Reign     string `json:"reign,omitempty"`
	ReignYear int    `json:"reign_year,omitempty"`
}

// Close reports whether the sentence names the head and the tail at most
// gap characters apart (以亮为右将军, 丞相亮): a fact stated of the person
// named, not of a subject carried over from clauses before.
func (e Evidence) Close(gap int) bool {
	d := e.Tail.Start - e.Head.End
	if e.Tail.Start < e.Head.Start {
		d = e.Head.Start - e.Tail.End
	}
	return d <= gap
}

// Hearsay reports whether a post of a person whose own chapters are known
// (own) rests on one sentence of another chapter that does not name him
// at the post (more than two characters from it): such a post is more
// often the next man's, in a life his name was carried into (亮辟维为仓曹掾，
// 加奉义将军 in 姜维's), than his; 以丞相亮领益州牧 is his.
func Hearsay(own map[int64]bool, evs []Evidence) bool {
	if len(own) == 0 || len(evs) != 1 {
		return false
	}
	return !own[evs[0].DocID] && !evs[0].Close(2)
}

// Words is the normalised text of a span of the document inside the
// sentence (a head or a tail as written there), or "" when the span is
// not inside it.
func (e Evidence) Words(sp Span) string {
	text := e.Norm
	if text == "" {
		text = e.Sentence
	}
	rs := []rune(text)
	a, b := sp.Start-e.Start, sp.End-e.Start
	if a < 0 || b > len(rs) || a >= b {
		return ""
	}
	return string(rs[a:b])
}

// Relation is an edge of the graph with its evidence.
type Relation struct {
	ID        int64    `json:"id"`
	HeadID    int64    `json:"head_id"`
	Head      string   `json:"head"`
	HeadType  string   `json:"head_type"`
	Type      string   `json:"relation"`
	TailID    int64    `json:"tail_id"`
	Tail      string   `json:"tail"`
	TailType  string   `json:"tail_type"`
	Status    string   `json:"status"`
	Score     *float64 `json:"score"`
	Extractor string   `json:"extractor"`
	// Support is how many sentences state the relation, where the store
	// counted them.
	Support  int        `json:"support,omitempty"`
	Evidence []Evidence `json:"evidence"`
}

// Cite names a document as a reader would: 《三国志·蜀书·诸葛亮传》. Without a
// section path it falls back to the title, then to the key.
func Cite(section []string, title, key string) string {
	switch {
	case len(section) > 0:
		s := ""
		for i, p := range section {
			if i > 0 {
				s += "·"
			}
			s += p
		}
		return "《" + s + "》"
	case title != "":
		return "《" + title + "》"
	}
	return key
}

// Community is a group of entities that belong together, with its report:
// the four levels of the knowledge tree (Youtu-GraphRAG §3.2.1) are the
// community itself, its keywords, its key facts (triples) and its members'
// attributes (字, 号, titles, years).
type Community struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Method string `json:"method"` // how it was found: dual or leiden
	Size   int    `json:"size"`   // members
	// Members are its most central members, most central first.
	Members  []CommunityMember `json:"members"`
	Keywords []Keyword         `json:"keywords"`
	// From and To are the years its dated facts span (the middle 80 %).
	From *int `json:"from,omitempty"`
	To   *int `json:"to,omitempty"`
	// Facts are its key facts, each with the sentence that states it.
	Facts []Relation `json:"facts"`
	// Summary is a few of those sentences, chosen to cover its members and
	// keywords: an extractive summary.
	Summary    []Evidence  `json:"summary"`
	Attributes []Attribute `json:"attributes"`
	// Written is the report an LLM wrote from the cited sentences above,
	// when one was configured at indexing; nil offline.
	Written *WrittenReport `json:"written,omitempty"`
}

// WrittenReport is a community's report written by an LLM: a title and a
// summary whose every sentence cites the evidence it rests on.
type WrittenReport struct {
	Title   string       `json:"title"`
	Summary []ReportLine `json:"summary"`
	Model   string       `json:"model,omitempty"`
}

// ReportLine is one sentence of a written report with its evidence.
type ReportLine struct {
	Text     string     `json:"text"`
	Evidence []Evidence `json:"evidence"`
}

// CommunityMember is an entity of a community and how central it is there
// (its share of the community's link weight).
type CommunityMember struct {
	EntityID   int64   `json:"entity_id"`
	Name       string  `json:"name"`
	Type       string  `json:"type"`
	Centrality float64 `json:"centrality"`
}

// Keyword is a term that marks a community, with its TF-IDF weight.
type Keyword struct {
	Term   string  `json:"term"`
	Weight float64 `json:"weight"`
}

// Attribute is one thing said of an entity: a 字 or 号, a title, a year.
// Read from the texts (the has_attr triples of extraction), its Evidence
// is the first sentence that states it, with the entity's name as Head
// and the value as Tail, and Support counts the sentences that do.
type Attribute struct {
	EntityID  int64     `json:"entity_id"`
	Entity    string    `json:"entity"`
	Kind      string    `json:"kind"`
	Value     string    `json:"value"`
	Evidence  *Evidence `json:"evidence,omitempty"`
	Support   int       `json:"support,omitempty"`
	Extractor string    `json:"extractor,omitempty"`
}
