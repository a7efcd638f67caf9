package retrieve

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/annals-project/annals/internal/kg"
)

// The walk from a question's single entity (seed 004's DFS path
// traversal, depth d ≤ 5): at most maxHops facts from it, the facts of at
// most dfsVisits entities read, and at each depth only the first few
// neighbours descended into (those the question speaks of first, then the
// best supported), so that a hub such as 曹操 cannot make one question
// slow.
const dfsVisits = 60

// dfsFanout is how many neighbours the walk descends into from an entity
// at each depth (facts from the question's entity): wide near it, narrow
// further out. An entity at depth maxHops-1 has its facts read, for a
// last step, but is not descended from.
var dfsFanout = [maxHops - 1]int{12, 4, 2, 2}

// dfsPath is a chain of facts the walk kept.
type dfsPath struct {
	rels  []int64
	score float64
}

// dfs walks depth-first from the question's one entity along its facts
// and keeps the chains that end at an entity the question or its options
// name, or whose every fact is of a relation type the question asks or
// names, best first: a question that names one entity and the kind of
// answer (诸葛亮的儿子的官职) or, in its options, the answer itself.
func (r *Retriever) dfs(ctx context.Context, a *Analysis, extra []string) ([]Item, error) {
	root := a.Entities[0].Entity.ID
	mentioned, err := r.mentionedEntities(ctx, a, extra)
	if err != nil {
		return nil, err
	}
	delete(mentioned, root)
	asked := map[string]bool{}
	if a.Asks != nil {
		for _, t := range a.Asks.Relations {
			asked[t] = true
		}
	}
	said := func(t string) bool { return asked[t] || t != "" && strings.Contains(a.Norm, t) }

	visited := map[int64]bool{root: true}
	best := map[int64]dfsPath{} // by the entity the chain ends at
	var typed []dfsPath
	expanded := 0
	var chain []int64
	onChain := map[int64]bool{root: true}
	var walk func(id int64, allSaid bool, saidCount int) error
	walk = func(id int64, allSaid bool, saidCount int) error {
		if expanded >= dfsVisits {
			return nil
		}
		expanded++
		edges, err := r.Src.Edges(ctx, id, edgesPerHop)
		if err != nil {
			return err
		}
		d := len(chain) + 1 // facts in a chain ending with one of these edges
		// What the question speaks of first, then as stored: best supported.
		rank := func(e int) int {
			switch {
			case mentioned[edges[e].Other]:
				return 0
			case said(edges[e].Type):
				return 1
			}
			return 2
		}
		order := make([]int, len(edges))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(i, j int) bool { return rank(order[i]) < rank(order[j]) })
		for _, i := range order {
			e := edges[i]
			if onChain[e.Other] {
				continue
			}
			s := saidCount
			if said(e.Type) {
				s++
			}
			switch {
			case mentioned[e.Other]:
				// The nearer the better; facts of the types asked help.
				score := 3 - 0.4*float64(d) + float64(s)/float64(d)
				if p, ok := best[e.Other]; !ok || score > p.score {
					best[e.Other] = dfsPath{rels: append(slices.Clone(chain), e.RelationID), score: score}
				}
			case d >= 2 && allSaid && said(e.Type):
				// One fact of an asked type is the triple route's.
				typed = append(typed, dfsPath{rels: append(slices.Clone(chain), e.RelationID), score: 1.5 - 0.2*float64(d)})
			}
		}
		if d >= maxHops {
			return nil
		}
		n := 0
		for _, i := range order {
			e := edges[i]
			if n >= dfsFanout[d-1] || expanded >= dfsVisits {
				break
			}
			if visited[e.Other] {
				continue
			}
			visited[e.Other] = true
			n++
			chain = append(chain, e.RelationID)
			onChain[e.Other] = true
			ok := said(e.Type)
			s := saidCount
			if ok {
				s++
			}
			err := walk(e.Other, allSaid && ok, s)
			onChain[e.Other] = false
			chain = chain[:len(chain)-1]
			if err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root, true, 0); err != nil {
		return nil, err
	}
	kept := make([]dfsPath, 0, len(best)+len(typed))
	for _, p := range best {
		kept = append(kept, p)
	}
	kept = append(kept, typed...)
	sort.SliceStable(kept, func(i, j int) bool {
		if kept[i].score != kept[j].score {
			return kept[i].score > kept[j].score
		}
		if len(kept[i].rels) != len(kept[j].rels) {
			return len(kept[i].rels) < len(kept[j].rels)
		}
		return slices.Compare(kept[i].rels, kept[j].rels) < 0
	})
	if len(kept) > routeLimit {
		kept = kept[:routeLimit]
	}
	var ids []int64
	for _, p := range kept {
		ids = append(ids, p.rels...)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	rels, err := r.Src.RelationsByID(ctx, ids, 1)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]kg.Relation, len(rels))
	for _, rel := range rels {
		byID[rel.ID] = rel
	}
	var out []Item
	for _, p := range kept {
		path := make([]kg.Relation, 0, len(p.rels))
		for _, id := range p.rels {
			if rel, ok := byID[id]; ok {
				path = append(path, rel)
			}
		}
		if len(path) != len(p.rels) {
			continue
		}
		var it Item
		if len(path) == 1 {
			it = tripleItem(path[0], a.Lang)
		} else {
			it = pathItem(path, a.Lang)
		}
		it.Score = p.score
		out = append(out, it)
	}
	return out, nil
}

// mentionedEntities are the entities a name in the question or in the
// extra texts can stand for: every reading of every name, not only the
// one the analysis chose for each place.
func (r *Retriever) mentionedEntities(ctx context.Context, a *Analysis, extra []string) (map[int64]bool, error) {
	cands := map[string]bool{}
	for _, t := range append([]string{a.Norm}, extra...) {
		for k := range nameCandidates(t) {
			cands[k] = true
		}
	}
	out := map[int64]bool{}
	if len(cands) == 0 {
		return out, nil
	}
	names := make([]string, 0, len(cands))
	for k := range cands {
		names = append(names, k)
	}
	sort.Strings(names)
	matches, err := r.Src.MatchNames(ctx, names)
	if err != nil {
		return nil, err
	}
	for _, m := range matches {
		out[m.Entity.ID] = true
	}
	return out, nil
}
