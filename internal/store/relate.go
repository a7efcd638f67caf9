package store

import "github.com/annals-project/annals/internal/kg"

// EKGLink says that an entity is mentioned in a chunk: the entity–document
// links of BEKO's Enhanced Knowledge Graph.
type EKGLink struct {
	Entity, Chunk int64
}

// RelationEdge is a relation by ids, for walking the graph.
type RelationEdge struct {
	ID, Head, Tail int64
	Type, Status   string
	Support        int // evidence sentences
}

// Feedback is a fact that no extractor stands behind, kept with the
// sentences it rests on: one relation reasoning established and wrote
// back (status verified or inferred, with the question that produced it),
// or one imported from an export (query import:FILE).
type Feedback struct {
	ID         int64         `json:"id"`
	RelationID int64         `json:"relation_id"`
	Head       string        `json:"head"`
	HeadID     int64         `json:"head_id"`
	Type       string        `json:"relation"`
	Tail       string        `json:"tail"`
	TailID     int64         `json:"tail_id"`
	Status     string        `json:"status"` // kg.StatusVerified or kg.StatusInferred; kg.StatusUser when imported
	Score      *float64      `json:"score,omitempty"`
	Query      string        `json:"query"`
	Via        []string      `json:"via,omitempty"` // the entities between, for a composed fact
	Evidence   []kg.Evidence `json:"evidence"`
	Created    string        `json:"created_at"`
	Reverted   string        `json:"reverted_at,omitempty"`
	// New is false when the graph already held the fact with this
	// status, so nothing was added.
	New bool `json:"new"`
}

// ImportedFact is a fact read from an export, to be written into a
// workspace: its ends by name and type, and its evidence by document key,
// offsets and the sentence as the export quoted it.
type ImportedFact struct {
	Head, HeadType    string
	Type              string
	Tail, TailType    string
	Status, Extractor string
	Score             *float64
	Evidence          []kg.Evidence
}

// ImportResult is what an import did with each fact.
type ImportResult struct {
	Added         int `json:"added"`
	Present       int `json:"present"` // the graph held it already
	EntitiesAdded int `json:"entities_added"`
	// Skipped are the facts none of whose sentences this workspace holds.
	Skipped []Skipped `json:"skipped"`
	// Dropped are sentences left out of a fact that was imported with
	// others.
	Dropped []Skipped `json:"dropped_evidence"`
}

// Skipped names a fact (head relation tail) or a sentence left out, and
// why.
type Skipped struct {
	Fact   string `json:"fact"`
	Reason string `json:"reason"`
}
