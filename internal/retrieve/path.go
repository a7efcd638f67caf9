package retrieve

import (
	"context"
	"strings"

	"github.com/annals-project/annals/internal/kg"
)

// Path search bounds: at most maxHops facts between two entities (five
// entities deep from either end: Youtu-GraphRAG's depth ≤ 5), each entity
// expanding its best-supported edges only, and a fixed number of entities
// visited per pair, so a hub such as 曹操 cannot make one question slow.
const (
	maxHops      = 5
	edgesPerHop  = 60
	visitBudget  = 400
	pathsPerPair = 3
)

// paths finds the shortest chains of facts between each pair of the
// question's entities by searching from both ends at once.
func (r *Retriever) paths(ctx context.Context, a *Analysis) ([]Item, error) {
	var out []Item
	for i := 0; i < len(a.Entities); i++ {
		for j := i + 1; j < len(a.Entities); j++ {
			chains, err := r.between(ctx, a.Entities[i].Entity.ID, a.Entities[j].Entity.ID)
			if err != nil {
				return nil, err
			}
			for _, ch := range chains {
				rels, err := r.Src.RelationsByID(ctx, ch, 1)
				if err != nil {
					return nil, err
				}
				if len(rels) != len(ch) {
					continue
				}
				out = append(out, pathItem(rels, a.Lang))
			}
		}
	}
	return out, nil
}

// pathItem is a chain of facts as an item, citing its first fact's
// sentence.
func pathItem(rels []kg.Relation, lang string) Item {
	it := Item{Kind: KindPath, Path: rels}
	var keys, parts []string
	for _, rel := range rels {
		keys = append(keys, relationKey(rel.ID))
		parts = append(parts, RenderTriple(rel, lang))
	}
	it.Key = "p" + strings.Join(keys, "-")
	it.Text = strings.Join(parts, "；")
	if ev := rels[0].Evidence; len(ev) > 0 {
		c := ev[0]
		it.Citation = &c
	}
	return it
}

// between returns up to pathsPerPair chains of relation ids from a to b,
// shortest first.
func (r *Retriever) between(ctx context.Context, a, b int64) ([][]int64, error) {
	if a == b {
		return nil, nil
	}
	type step struct {
		prev int64 // the entity this one was reached from
		rel  int64
	}
	// Two frontiers; each maps an entity to how it was reached.
	from := []map[int64]step{{a: {}}, {b: {}}}
	frontier := [][]int64{{a}, {b}}
	depth := []int{0, 0}
	visited := 0
	var meets []int64
	for depth[0]+depth[1] < maxHops && len(meets) == 0 && visited < visitBudget {
		// Grow the smaller frontier.
		side := 0
		if len(frontier[1]) < len(frontier[0]) {
			side = 1
		}
		if len(frontier[side]) == 0 {
			break
		}
		var next []int64
		for _, id := range frontier[side] {
			if visited >= visitBudget {
				break
			}
			visited++
			edges, err := r.Src.Edges(ctx, id, edgesPerHop)
			if err != nil {
				return nil, err
			}
			for _, e := range edges {
				if _, seen := from[side][e.Other]; seen {
					continue
				}
				from[side][e.Other] = step{prev: id, rel: e.RelationID}
				next = append(next, e.Other)
				if _, met := from[1-side][e.Other]; met {
					meets = append(meets, e.Other)
				}
			}
		}
		frontier[side] = next
		depth[side]++
	}
	var out [][]int64
	for _, m := range meets {
		if len(out) == pathsPerPair {
			break
		}
		var chain []int64
		// From the meeting point back to a, reversed, then on to b.
		for id := m; id != a; {
			s := from[0][id]
			chain = append([]int64{s.rel}, chain...)
			id = s.prev
		}
		for id := m; id != b; {
			s := from[1][id]
			chain = append(chain, s.rel)
			id = s.prev
		}
		out = append(out, chain)
	}
	return out, nil
}
