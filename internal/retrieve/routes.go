package retrieve

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/text"
)

// Unavailable is the reason a search cannot run over this workspace (no
// vectors stored, vectors another embedder made): the route is reported
// inactive with it, and retrieval goes on without it.
type Unavailable string

func (u Unavailable) Error() string { return string(u) }

// SuggestedEntitySim is a δ for the workspace's own learned embedder:
// the least cosine between the question (with its options) and an
// entity's stored vector for the entity-vector route to take the entity.
// Its cosines run lower than an endpoint's model's: a question and the
// name of what it asks about meet at about 0.3–0.6, unrelated names at
// under 0.2. The route is off unless a δ is given: reading the entity
// vectors costs a fresh process about 0.2 s of CPU and 250 MB, more than
// a question may take, and offline it raised no figure of the question
// sets (the name lookup finds what it finds).
const SuggestedEntitySim = 0.45

// Bounds of the vector routes.
const (
	entityVectorLimit = 20 // the nearest entities taken, before δ
	entityVectorFacts = 8  // the facts read of each entity the vectors found
	entityVectorRead  = 6  // the best entities the vectors found whose facts are read
	tripleVectorLimit = 20 // the nearest facts taken
)

// vectorSearch is what one of the vector routes returned.
type vectorSearch struct {
	hits []Scored
	err  error
}

// unavailable reports whether err says that a search cannot run here, and
// why.
func unavailable(err error) (string, bool) {
	var u Unavailable
	if errors.As(err, &u) {
		return string(u), true
	}
	return "", false
}

// entityVectorItems are the entities whose vectors are at least minSim
// from the question's, nearest first, that the name lookup did not find,
// and their facts ranked as the triple route ranks the question's
// entities' facts.
func (r *Retriever) entityVectorItems(ctx context.Context, a *Analysis, hits []Scored, minSim float64) (ents, facts []Item, err error) {
	var ids []int64
	sim := map[int64]float64{}
	for _, h := range hits {
		if h.Score < minSim || a.Named(h.ID) {
			continue
		}
		if _, ok := sim[h.ID]; !ok {
			ids = append(ids, h.ID)
			sim[h.ID] = h.Score
		}
	}
	if len(ids) == 0 {
		return nil, nil, nil
	}
	found, err := r.Src.EntitiesByID(ctx, ids)
	if err != nil {
		return nil, nil, err
	}
	// An entity named by one Han character (项, 亮) is rarely what a
	// question means, and its vector is little more than that character's.
	found = slices.DeleteFunc(found, func(e kg.Entity) bool {
		rs := []rune(e.Name)
		return len(rs) == 1 && isHan(rs[0])
	})
	sort.SliceStable(found, func(i, j int) bool { return sim[found[i].ID] > sim[found[j].ID] })
	var asked []string
	if a.Asks != nil {
		asked = a.Asks.Relations
	}
	for i, e := range found {
		it := Item{Key: entityKey(e.ID), Kind: KindEntity, Entity: &found[i], Text: entityText(e, nil)}
		ents = append(ents, it)
		if i >= entityVectorRead {
			continue
		}
		rels, err := r.Src.Facts(ctx, e.ID, asked, entityVectorFacts)
		if err != nil {
			return nil, nil, err
		}
		for _, rel := range rels {
			it := tripleItem(rel, a.Lang)
			it.Score = tripleFit(a, e.ID, rel) + sim[e.ID]
			facts = append(facts, it)
		}
	}
	sort.SliceStable(facts, func(i, j int) bool { return facts[i].Score > facts[j].Score })
	if len(facts) > routeLimit {
		facts = facts[:routeLimit]
	}
	return ents, facts, nil
}

// tripleVectorItems are the facts the triple-vector search found, nearest
// first, each with its first evidence sentence.
func (r *Retriever) tripleVectorItems(ctx context.Context, a *Analysis, hits []Scored) ([]Item, error) {
	if len(hits) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(hits))
	at := make(map[int64]int, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
		at[h.ID] = i
	}
	rels, err := r.Src.RelationsByID(ctx, ids, 1)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(rels, func(x, y kg.Relation) int { return at[x.ID] - at[y.ID] })
	items := make([]Item, 0, len(rels))
	for _, rel := range rels {
		it := tripleItem(rel, a.Lang)
		it.Score = hits[at[rel.ID]].Score
		items = append(items, it)
	}
	return items, nil
}

// tripleItem is a fact as an item, citing its first sentence.
func tripleItem(rel kg.Relation, lang string) Item {
	it := Item{Key: relationKey(rel.ID), Kind: KindTriple, Relation: &rel, Text: RenderTriple(rel, lang)}
	if len(rel.Evidence) > 0 {
		ev := rel.Evidence[0]
		it.Citation = &ev
	}
	return it
}

// TripleText is the text a fact is embedded by for the triple-vector
// route: the fact phrased as a sentence ("诸葛亮曾任丞相"), its two names
// as the graph knows them, so that a question naming an entity and asking
// of one relation meets the facts that state it.
func TripleText(rel kg.Relation) string {
	return RenderTriple(rel, text.Unknown)
}

// vectorQuery is the text the chunk vector route embeds: the question and
// any extra text (the options of a multiple-choice question).
func vectorQuery(a *Analysis, extra []string) string {
	return a.Norm + " " + strings.Join(extra, " ")
}

// contentQuery is the text the entity-vector and triple-vector routes
// embed: the question without its question words, and any extra text.
// Names and facts are short: 什么 in the question would bring 什长 and
// 什方侯 nearer than the entity asked about.
func contentQuery(a *Analysis, extra []string) string {
	return strings.TrimSpace(withoutQuestionWords(a.Norm) + " " + strings.Join(extra, " "))
}

// withoutQuestionWords blanks the question words of a text: those written
// in Han characters wherever they stand, the others as whole words.
func withoutQuestionWords(s string) string {
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		if !isHan(rs[i]) {
			continue
		}
		for _, n := range []int{3, 2} {
			if i+n <= len(rs) && questionWordSet[string(rs[i:i+n])] {
				for k := i; k < i+n; k++ {
					rs[k] = ' '
				}
				i += n - 1
				break
			}
		}
	}
	for _, w := range wordSpans(rs) {
		if questionWordSet[strings.ToLower(string(rs[w.start:w.end]))] {
			for k := w.start; k < w.end; k++ {
				rs[k] = ' '
			}
		}
	}
	return strings.Join(strings.Fields(string(rs)), " ")
}
