package export

import (
	"cmp"
	"slices"

	"github.com/annals-project/annals/internal/kg"
)

// Filter narrows an export. The zero Filter exports everything.
type Filter struct {
	Types     []string // entity types kept; none: all
	Relations []string // relation types kept; none: all
	// Since keeps the relations dated in or after this year (astronomical);
	// an undated relation goes.
	Since *int
	// Around, when not 0, keeps the entities within Depth relations of
	// this entity (Depth 0 counts as 1), walking the relations the other
	// filters keep.
	Around int64
	Depth  int
	// Verified keeps only the facts fit to teach a model (see Verified),
	// with MinScore the least judge score that makes one.
	Verified bool
	MinScore float64
}

// narrowsRelations says whether the filter keeps only some relations; the
// entities they leave unconnected are then left out too.
func (f Filter) narrowsRelations() bool {
	return len(f.Relations) > 0 || f.Since != nil || f.Around != 0 || f.Verified
}

// Select makes the graph an export writes from the workspace's entities
// and relations. Without a filter it keeps every entity, so that the
// counts match `annals stats`.
func Select(ents []kg.Entity, rels []kg.Relation, f Filter) *Graph {
	byID := make(map[int64]*kg.Entity, len(ents))
	for i := range ents {
		if len(f.Types) == 0 || slices.Contains(f.Types, ents[i].Type) {
			byID[ents[i].ID] = &ents[i]
		}
	}
	var kept []kg.Relation
	for _, r := range rels {
		if byID[r.HeadID] == nil || byID[r.TailID] == nil {
			continue
		}
		if len(f.Relations) > 0 && !slices.Contains(f.Relations, r.Type) {
			continue
		}
		if f.Since != nil {
			if y := relationYear(&r); y == nil || *y < *f.Since {
				continue
			}
		}
		if f.Verified && !Verified(&r, f.MinScore) {
			continue
		}
		kept = append(kept, r)
	}
	if f.Around != 0 {
		near := neighbourhood(f.Around, max(f.Depth, 1), kept)
		kept = slices.DeleteFunc(kept, func(r kg.Relation) bool { return !near[r.HeadID] || !near[r.TailID] })
		for id := range byID {
			if !near[id] {
				delete(byID, id)
			}
		}
	}
	g := &Graph{Relations: kept}
	linked := map[int64]bool{}
	for _, r := range kept {
		linked[r.HeadID], linked[r.TailID] = true, true
	}
	// An entity's years are those of all its dated facts, whatever the
	// filter keeps.
	years := map[int64][2]int{}
	for i := range rels {
		r := &rels[i]
		if byID[r.HeadID] == nil && byID[r.TailID] == nil {
			continue
		}
		for _, ev := range r.Evidence {
			if ev.Year == nil {
				continue
			}
			for _, id := range []int64{r.HeadID, r.TailID} {
				span, ok := years[id]
				if !ok {
					span = [2]int{*ev.Year, *ev.Year}
				}
				span[0], span[1] = min(span[0], *ev.Year), max(span[1], *ev.Year)
				years[id] = span
			}
		}
	}
	for _, e := range byID {
		if f.narrowsRelations() && !linked[e.ID] && e.ID != f.Around {
			continue
		}
		n := Node{Entity: *e}
		if span, ok := years[e.ID]; ok {
			n.FirstYear, n.LastYear = &span[0], &span[1]
		}
		g.Nodes = append(g.Nodes, n)
	}
	slices.SortFunc(g.Nodes, func(a, b Node) int { return cmp.Compare(a.ID, b.ID) })
	return g
}

// neighbourhood is the set of entities within depth relations of start.
func neighbourhood(start int64, depth int, rels []kg.Relation) map[int64]bool {
	adj := map[int64][]int64{}
	for _, r := range rels {
		adj[r.HeadID] = append(adj[r.HeadID], r.TailID)
		adj[r.TailID] = append(adj[r.TailID], r.HeadID)
	}
	seen := map[int64]bool{start: true}
	frontier := []int64{start}
	for d := 0; d < depth && len(frontier) > 0; d++ {
		var next []int64
		for _, id := range frontier {
			for _, n := range adj[id] {
				if !seen[n] {
					seen[n] = true
					next = append(next, n)
				}
			}
		}
		frontier = next
	}
	return seen
}
