// Package relate answers "how are A and B related?" over the Enhanced
// Knowledge Graph (BEKO, seed 002): entities linked to the chunks that
// mention them, plus the extracted relations. It finds paths of at most
// three entities between the two, ranks them by EF-IDF, reads each hop's
// relation from a fact or from its evidence sentence, composes the hops
// into relations between the two, verifies each against its evidence and
// says what can be written back into the graph.
package relate

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// Source is what the graph is read from.
type Source interface {
	EKGLinks(ctx context.Context) ([]store.EKGLink, error)
	RelationEdges(ctx context.Context) ([]store.RelationEdge, error)
	EntityTypes(ctx context.Context) (map[int64]string, error)
	EntityNames(ctx context.Context, ids []int64) (map[int64][]string, error)
	Entity(ctx context.Context, id int64) (*kg.Entity, error)
	Passages(ctx context.Context, ids []int64) ([]store.Passage, error)
	RelationsByID(ctx context.Context, ids []int64, per int) ([]kg.Relation, error)
}

// edge is a relation seen from one end.
type edge struct {
	rel     int64
	other   int64
	typ     string
	forward bool // the entity it is seen from is the head
	status  string
	support int
}

// EKG holds the graph's structure in memory: which chunks mention each
// entity and which entities each chunk mentions (sorted ids), and each
// entity's relations. It is read once and then shared; Add keeps it up
// to date with facts fed back.
type EKG struct {
	mu       sync.RWMutex
	chunks   map[int64][]int64 // entity → chunks, ascending
	entities map[int64][]int64 // chunk → entities, ascending
	edges    map[int64][]edge  // in the order the relations were read
	// ranked are, for each entity, the indexes of its edges best
	// supported first, ties by relation id: the order retrieval walks
	// them in (Edges).
	ranked  map[int64][]int32
	types   map[int64]string
	nChunks int
}

// LoadEKG reads the graph's structure from src.
func LoadEKG(ctx context.Context, src Source) (*EKG, error) {
	links, err := src.EKGLinks(ctx)
	if err != nil {
		return nil, err
	}
	rels, err := src.RelationEdges(ctx)
	if err != nil {
		return nil, err
	}
	types, err := src.EntityTypes(ctx)
	if err != nil {
		return nil, err
	}
	g := &EKG{chunks: map[int64][]int64{}, entities: map[int64][]int64{}, edges: map[int64][]edge{}, ranked: map[int64][]int32{}, types: types}
	for _, l := range links {
		g.chunks[l.Entity] = append(g.chunks[l.Entity], l.Chunk)
		g.entities[l.Chunk] = append(g.entities[l.Chunk], l.Entity)
	}
	// Sorted and unique, as the search's intersections need, whatever
	// order the links came in.
	for id, cs := range g.chunks {
		slices.Sort(cs)
		g.chunks[id] = slices.Compact(cs)
	}
	for id, es := range g.entities {
		slices.Sort(es)
		g.entities[id] = slices.Compact(es)
	}
	g.nChunks = len(g.entities)
	for _, r := range rels {
		g.addEdge(r)
	}
	for id := range g.edges {
		g.rankEdges(id)
	}
	return g, nil
}

// rankEdges orders an entity's edges for Edges.
func (g *EKG) rankEdges(id int64) {
	es := g.edges[id]
	order := g.ranked[id][:0]
	for i := range es {
		order = append(order, int32(i))
	}
	slices.SortFunc(order, func(a, b int32) int {
		return cmp.Or(cmp.Compare(es[b].support, es[a].support), cmp.Compare(es[a].rel, es[b].rel))
	})
	g.ranked[id] = order
}

// Edges are an entity's first limit relations, best supported first,
// as the store lists them (store.Edge) but read from memory.
func (g *EKG) Edges(id int64, limit int) []store.Edge {
	g.mu.RLock()
	defer g.mu.RUnlock()
	es, order := g.edges[id], g.ranked[id]
	out := make([]store.Edge, 0, min(limit, len(order)))
	for _, i := range order[:min(limit, len(order))] {
		e := es[i]
		out = append(out, store.Edge{RelationID: e.rel, Type: e.typ, Other: e.other, Forward: e.forward, Support: e.support, Status: e.status})
	}
	return out
}

func (g *EKG) addEdge(r store.RelationEdge) {
	if r.Head == r.Tail {
		return
	}
	for _, e := range g.edges[r.Head] {
		if e.rel == r.ID {
			return
		}
	}
	g.edges[r.Head] = append(g.edges[r.Head], edge{rel: r.ID, other: r.Tail, typ: r.Type, forward: true, status: r.Status, support: r.Support})
	g.edges[r.Tail] = append(g.edges[r.Tail], edge{rel: r.ID, other: r.Head, typ: r.Type, forward: false, status: r.Status, support: r.Support})
}

// Add puts relations fed back into the graph into its structure.
func (g *EKG) Add(rels ...store.RelationEdge) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, r := range rels {
		g.addEdge(r)
		g.rankEdges(r.Head)
		g.rankEdges(r.Tail)
	}
}

// Remove takes a relation out of the structure (a reverted feedback).
func (g *EKG) Remove(relID int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for id, es := range g.edges {
		if kept := slices.DeleteFunc(es, func(e edge) bool { return e.rel == relID }); len(kept) < len(es) {
			g.edges[id] = kept
			g.rankEdges(id)
		}
	}
}

// holds says whether the graph holds, at a status an extractor, a user
// or verification gave, the relation typ with head as its head and tail
// as its tail (either way round, for a symmetric one).
func (g *EKG) holds(head, tail int64, typ string) bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	for _, e := range g.edges[head] {
		if e.other == tail && e.typ == typ && (e.forward || symmetricTypes[typ]) && solid(e.status) {
			return true
		}
	}
	return false
}

// typeOf is an entity's type.
func (g *EKG) typeOf(id int64) string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.types[id]
}

// idf is the inverse chunk frequency of an entity.
func (g *EKG) idf(id int64) float64 {
	return math.Log(float64(g.nChunks+1) / float64(len(g.chunks[id])+1))
}

// Stats says how big the structure is.
func (g *EKG) Stats() string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	n := 0
	for _, es := range g.edges {
		n += len(es)
	}
	return fmt.Sprintf("%d entities in %d chunks, %d relation ends", len(g.chunks), g.nChunks, n)
}
