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
}

// Feedback is a fact relation reasoning established and wrote back into
// the graph: the relation (status verified or inferred), the question
// that produced it, and the sentences it rests on.
type Feedback struct {
	ID         int64         `json:"id"`
	RelationID int64         `json:"relation_id"`
	Head       string        `json:"head"`
	HeadID     int64         `json:"head_id"`
	Type       string        `json:"relation"`
	Tail       string        `json:"tail"`
	TailID     int64         `json:"tail_id"`
	Status     string        `json:"status"` // kg.StatusVerified or kg.StatusInferred
	Query      string        `json:"query"`
	Via        []string      `json:"via,omitempty"` // the entities between, for a composed fact
	Evidence   []kg.Evidence `json:"evidence"`
	Created    string        `json:"created_at"`
	Reverted   string        `json:"reverted_at,omitempty"`
	// New is false when the graph already held the fact with this
	// status, so nothing was added.
	New bool `json:"new"`
}
