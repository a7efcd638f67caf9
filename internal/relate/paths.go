package relate

import (
	"cmp"
	"fmt"
	"slices"
)

// Hop is one step of a path: from an entity to the next through a chunk
// that mentions both, or through a relation between them.
type Hop struct {
	From     int64  `json:"from"`
	To       int64  `json:"to"`
	Chunk    int64  `json:"chunk,omitempty"`    // the shared chunk; 0 for a relation hop
	Relation int64  `json:"relation,omitempty"` // the relation; 0 for a chunk hop
	Type     string `json:"type,omitempty"`     // a relation hop's type
	Forward  bool   `json:"forward,omitempty"`  // a relation hop's From is its head
}

// EntityScore is one entity's share of a path's EF-IDF.
type EntityScore struct {
	Entity int64 `json:"entity"`
	EF     int   `json:"ef"` // paths found that hold it
	// EFNorm is EF over the sum of the EFs of the path's entities, so
	// that a path's EFNorm add up to 1 (BEKO §4.2.1).
	EFNorm float64 `json:"ef_norm"`
	IDF    float64 `json:"idf"` // log((chunks+1) / (chunks mentioning it+1))
}

// Path runs from the head to the tail through at most one entity between.
type Path struct {
	Entities []int64       `json:"entities"`
	Hops     []Hop         `json:"hops"`
	Score    float64       `json:"score"` // EF-IDF, averaged over the path's entities (see Scoring)
	Explain  []EntityScore `json:"explain,omitempty"`
}

// SearchOptions bound the search.
type SearchOptions struct {
	MaxPaths int // paths kept, best EF-IDF first; 0 means DefaultMaxPaths
	Budget   int // graph nodes visited at most; 0 means DefaultBudget
	// Scoring is how a path's EF-IDF weighs its entities' frequencies:
	// ScoringNormalised ("" too) or ScoringRaw.
	Scoring string
}

// Scorings of the paths.
const (
	// ScoringNormalised is BEKO's EF-IDF (§4.2.1): an entity's EF is the
	// paths that hold it over the sum of that count for the path's
	// entities, and a path scores the mean of EF × IDF over its entities.
	ScoringNormalised = "normalised"
	// ScoringRaw takes an entity's EF as the paths that hold it, not
	// normalised: the mean of count × IDF.
	ScoringRaw = "raw"
)

// Scorings lists the scorings, the default first.
var Scorings = []string{ScoringNormalised, ScoringRaw}

// CheckScoring says whether s names a scoring ("" is the default).
func CheckScoring(s string) error {
	if s == "" || slices.Contains(Scorings, s) {
		return nil
	}
	return fmt.Errorf("scoring %q: want %s or %s", s, ScoringNormalised, ScoringRaw)
}

// Defaults of the search.
const (
	DefaultMaxPaths = 10
	DefaultBudget   = 200_000
	chunksPerLink   = 2 // shared chunks tried per pair of adjacent entities
	directChunks    = 30
)

// link is how an entity reaches a neighbour: relations, then shared
// chunks, the most specific (fewest entities) first.
type link struct {
	rels   []edge
	chunks []int64
}

// Search finds the paths of at most three entities between head and tail
// and ranks them. It visits at most Budget nodes (chunks and the entities
// they mention) and says whether it had to stop there.
func (g *EKG) Search(head, tail int64, opts SearchOptions) (paths []Path, visited int, stopped bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if opts.MaxPaths <= 0 {
		opts.MaxPaths = DefaultMaxPaths
	}
	if opts.Budget <= 0 {
		opts.Budget = DefaultBudget
	}
	if head == tail {
		return nil, 0, false
	}
	var all []Path
	// Direct: the relations between the two, and the chunks naming both.
	for _, e := range g.edges[head] {
		if e.other == tail {
			all = append(all, Path{Entities: []int64{head, tail}, Hops: []Hop{relationHop(head, e)}})
		}
	}
	shared := g.specific(intersect(g.chunks[head], g.chunks[tail]))
	for _, c := range shared[:min(len(shared), directChunks)] {
		all = append(all, Path{Entities: []int64{head, tail}, Hops: []Hop{{From: head, To: tail, Chunk: c}}})
	}
	// Through one entity: the neighbours of each end, met in the middle.
	budget := opts.Budget
	fromHead, n1, s1 := g.neighbours(head, tail, budget/2)
	fromTail, n2, s2 := g.neighbours(tail, head, budget-n1)
	visited, stopped = n1+n2, s1 || s2
	var middle []int64
	for m := range fromHead {
		if _, ok := fromTail[m]; ok {
			middle = append(middle, m)
		}
	}
	slices.Sort(middle)
	for _, m := range middle {
		for _, a := range g.hops(head, m, fromHead[m]) {
			for _, b := range g.hops(m, tail, reverse(fromTail[m], tail)) {
				all = append(all, Path{Entities: []int64{head, m, tail}, Hops: []Hop{a, b}})
			}
		}
	}
	return g.rank(all, opts.MaxPaths, opts.Scoring), visited, stopped
}

// neighbours maps the entities that share a chunk or a relation with from
// (other than to) to how they link, visiting at most budget nodes.
func (g *EKG) neighbours(from, to int64, budget int) (map[int64]*link, int, bool) {
	out := map[int64]*link{}
	visited := 0
	get := func(m int64) *link {
		l := out[m]
		if l == nil {
			l = &link{}
			out[m] = l
		}
		return l
	}
	for _, e := range g.edges[from] {
		if visited >= budget {
			return out, visited, true
		}
		visited++
		if e.other != to && g.between(e.other) {
			get(e.other).rels = append(get(e.other).rels, e)
		}
	}
	for _, c := range g.chunks[from] {
		ents := g.entities[c]
		if visited+1+len(ents) > budget {
			return out, visited, true
		}
		visited += 1 + len(ents)
		for _, m := range ents {
			if m != from && m != to && g.between(m) {
				l := get(m)
				l.chunks = append(l.chunks, c)
			}
		}
	}
	return out, visited, false
}

// between says whether an entity may stand between the two: people,
// groups and places relate people; a date or an office does not.
func (g *EKG) between(id int64) bool {
	switch g.types[id] {
	case "人物", "社会集团", "地点", "person", "organisation", "place", "event":
		return true
	}
	return false
}

// hops are the ways to step from one entity to the next along a link:
// each relation, then the most specific shared chunks.
func (g *EKG) hops(from, to int64, l *link) []Hop {
	var out []Hop
	for _, e := range l.rels {
		out = append(out, relationHop(from, e))
	}
	cs := g.specific(l.chunks)
	for _, c := range cs[:min(len(cs), chunksPerLink)] {
		out = append(out, Hop{From: from, To: to, Chunk: c})
	}
	return out
}

// reverse turns a link seen from the far end into one seen from the
// middle: a relation's direction flips, and it leads to the far end.
func reverse(l *link, far int64) *link {
	out := &link{chunks: l.chunks}
	for _, e := range l.rels {
		e.forward, e.other = !e.forward, far
		out.rels = append(out.rels, e)
	}
	return out
}

func relationHop(from int64, e edge) Hop {
	return Hop{From: from, To: e.other, Relation: e.rel, Type: e.typ, Forward: e.forward}
}

// specific orders chunks by how few entities they mention, then by id: a
// chunk about few people says more about each.
func (g *EKG) specific(chunks []int64) []int64 {
	out := slices.Clone(chunks)
	slices.SortStableFunc(out, func(a, b int64) int {
		return cmp.Or(cmp.Compare(len(g.entities[a]), len(g.entities[b])), cmp.Compare(a, b))
	})
	return out
}

// rank scores paths by EF-IDF (BEKO §4.2.1): how many of the paths found
// hold each entity, normalised over the path's entities (unless scoring
// is ScoringRaw), times how rare the entity is in the corpus, averaged
// over the path's entities. Direct relations always stay; direct chunks
// take at most half the places, so paths through others are seen too.
func (g *EKG) rank(all []Path, keep int, scoring string) []Path {
	ef := map[int64]int{}
	for _, p := range all {
		for _, e := range p.Entities {
			ef[e]++
		}
	}
	for i := range all {
		p := &all[i]
		total := 0
		for _, e := range p.Entities {
			total += ef[e]
		}
		sum := 0.0
		p.Explain = make([]EntityScore, len(p.Entities))
		for k, e := range p.Entities {
			s := EntityScore{Entity: e, EF: ef[e], EFNorm: float64(ef[e]) / float64(total), IDF: g.idf(e)}
			p.Explain[k] = s
			if scoring == ScoringRaw {
				sum += float64(s.EF) * s.IDF
			} else {
				sum += s.EFNorm * s.IDF
			}
		}
		p.Score = sum / float64(len(p.Entities))
	}
	slices.SortStableFunc(all, func(a, b Path) int { return cmp.Compare(b.Score, a.Score) })
	var out []Path
	chunkOnly := 0
	for _, p := range all {
		direct := len(p.Hops) == 1
		switch {
		case direct && p.Hops[0].Relation != 0:
		case len(out) >= keep:
			continue
		case direct:
			if chunkOnly >= keep/2 {
				continue
			}
			chunkOnly++
		}
		out = append(out, p)
	}
	return out
}

// intersect lists the ids in both ascending lists.
func intersect(a, b []int64) []int64 {
	var out []int64
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}
