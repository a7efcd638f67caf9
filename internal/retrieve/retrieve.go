package retrieve

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// Source is what retrieval reads from a workspace.
type Source interface {
	MatchNames(ctx context.Context, texts []string) ([]store.NameMatch, error)
	Aliases(ctx context.Context, entityID int64) ([]kg.Alias, error)
	Relations(ctx context.Context, entityID int64, limit int) ([]kg.Relation, error)
	Edges(ctx context.Context, entityID int64, limit int) ([]store.Edge, error)
	RelationsByID(ctx context.Context, ids []int64, per int) ([]kg.Relation, error)
	EntityChunks(ctx context.Context, entityID int64, limit int) ([]int64, error)
	Passages(ctx context.Context, ids []int64) ([]store.Passage, error)
	ChunksInYears(ctx context.Context, from, to int) ([]int64, error)
	AliasEvidence(ctx context.Context, entityID int64, kinds []string) ([]store.AliasEvidence, error)
}

// Scored is a chunk with a score from a ranked search.
type Scored struct {
	ID    int64
	Score float64
}

// Search ranks chunks for a text: BM25 over terms, or vectors.
type Search func(ctx context.Context, text string, limit int) ([]Scored, error)

// Routes.
const (
	RouteEntity    = "entity"
	RouteTriple    = "triple"
	RouteChunk     = "chunk"
	RouteVector    = "vector"
	RoutePath      = "path"
	RouteTime      = "time"
	RouteCommunity = "community"
)

// Item kinds.
const (
	KindEntity = "entity"
	KindTriple = "triple"
	KindChunk  = "chunk"
	KindPath   = "path"
)

// Item is one thing retrieval found: an entity, a fact, a passage or a path
// of facts, with the sentence that supports it.
type Item struct {
	Key      string        `json:"key"`
	Kind     string        `json:"kind"`
	Routes   []string      `json:"routes"`
	Score    float64       `json:"score"`
	Text     string        `json:"text"` // the item as a reader (or a model) sees it
	Entity   *kg.Entity    `json:"entity,omitempty"`
	Relation *kg.Relation  `json:"relation,omitempty"`
	Path     []kg.Relation `json:"path,omitempty"`
	Citation *kg.Evidence  `json:"citation,omitempty"`
	// Overlap is the share of the question's content terms the item's text
	// holds: how well it speaks to the question, whatever route found it.
	Overlap float64 `json:"overlap"`
	ranks   map[string]int
}

// Options tune retrieval.
type Options struct {
	Limit  int  // items returned; 0 means 30
	Delta  int  // the ± years of the temporal window; negative means 1
	T2S    bool // normalise the question to simplified characters
	Extra  []string
	NoPath bool
}

// Retriever runs the routes over one workspace.
type Retriever struct {
	Src     Source
	Lexical Search // BM25 over chunks; nil disables the chunk route
	Vectors Search // nearest chunks by embedding; nil when none
	// Communities is the community route; nil until communities exist.
	Communities func(ctx context.Context, a *Analysis, limit int) ([]Item, error)
}

// Result is what retrieval found, best first, and how.
type Result struct {
	Analysis *Analysis `json:"analysis"`
	Items    []Item    `json:"items"`
	// Routes says how many items each route returned, and Inactive which
	// routes could not run and why.
	Routes   map[string]int    `json:"routes"`
	Inactive map[string]string `json:"inactive,omitempty"`
}

// Per-route limits.
const (
	routeLimit    = 20
	timeRead      = 40 // chunks of a window of years read to rank
	relationLimit = 60 // the best-supported facts of each entity
)

// Retrieve analyses a question and runs every route. Extra texts (the
// options of a multiple-choice question, a bridge entity) widen the
// lexical routes without changing what the question asks.
func (r *Retriever) Retrieve(ctx context.Context, question string, opts Options) (*Result, error) {
	a, err := Analyze(ctx, r.Src, question, opts.T2S)
	if err != nil {
		return nil, fmt.Errorf("analyse question: %w", err)
	}
	return r.RetrieveFor(ctx, a, opts)
}

// RetrieveFor runs the routes for an analysed question.
func (r *Retriever) RetrieveFor(ctx context.Context, a *Analysis, opts Options) (*Result, error) {
	if opts.Limit <= 0 {
		opts.Limit = 30
	}
	if opts.Delta < 0 {
		opts.Delta = 1
	}
	res := &Result{Analysis: a, Routes: map[string]int{}, Inactive: map[string]string{}}
	f := newFusion(a)
	// Entities and their facts.
	for _, m := range a.Entities {
		e := m.Entity
		f.add(RouteEntity, 0, Item{Key: entityKey(e.ID), Kind: KindEntity, Entity: &e, Text: entityText(e, m.Aliases)})
	}
	res.Routes[RouteEntity] = len(a.Entities)
	triples, err := r.triples(ctx, a)
	if err != nil {
		return nil, err
	}
	for i, it := range triples {
		f.add(RouteTriple, i, it)
	}
	res.Routes[RouteTriple] = len(triples)
	// Chunks: BM25 over the question, its aliases and any extra text.
	query := strings.Join(append(append([]string{a.Norm}, aliasTexts(a)...), opts.Extra...), " ")
	chunkIDs := map[string][]Scored{}
	if r.Lexical != nil {
		hits, err := r.Lexical(ctx, query, routeLimit)
		if err != nil {
			return nil, fmt.Errorf("lexical search: %w", err)
		}
		chunkIDs[RouteChunk] = hits
	} else {
		res.Inactive[RouteChunk] = "no lexical index"
	}
	if r.Vectors != nil {
		hits, err := r.Vectors(ctx, a.Norm+" "+strings.Join(opts.Extra, " "), routeLimit)
		if err != nil {
			return nil, fmt.Errorf("vector search: %w", err)
		}
		chunkIDs[RouteVector] = hits
	} else {
		res.Inactive[RouteVector] = "no chunk vectors"
	}
	// The temporal window: chunks that speak of a year near the question's.
	if len(a.Years) > 0 {
		var ids []Scored
		for _, y := range a.Years {
			in, err := r.Src.ChunksInYears(ctx, y-opts.Delta, y+opts.Delta)
			if err != nil {
				return nil, err
			}
			for _, id := range in {
				ids = append(ids, Scored{ID: id})
			}
		}
		chunkIDs[RouteTime] = ids
	} else {
		res.Inactive[RouteTime] = "no time in the question"
	}
	if err := r.addChunks(ctx, f, chunkIDs, res); err != nil {
		return nil, err
	}
	// Paths between the question's entities.
	if len(a.Entities) >= 2 && !opts.NoPath {
		paths, err := r.paths(ctx, a)
		if err != nil {
			return nil, err
		}
		for i, it := range paths {
			f.add(RoutePath, i, it)
		}
		res.Routes[RoutePath] = len(paths)
	} else {
		res.Inactive[RoutePath] = "fewer than two entities in the question"
	}
	if r.Communities != nil {
		items, err := r.Communities(ctx, a, routeLimit)
		if err != nil {
			return nil, err
		}
		for i, it := range items {
			f.add(RouteCommunity, i, it)
		}
		res.Routes[RouteCommunity] = len(items)
	} else {
		res.Inactive[RouteCommunity] = "no communities in this workspace"
	}
	res.Items = f.ranked(opts.Limit)
	if len(res.Inactive) == 0 {
		res.Inactive = nil
	}
	return res, nil
}

// triples are the facts of the question's entities, ranked by how well
// their relation type and other end fit what is asked, then by support.
func (r *Retriever) triples(ctx context.Context, a *Analysis) ([]Item, error) {
	var items []Item
	for _, m := range a.Entities {
		rels, err := r.Src.Relations(ctx, m.Entity.ID, relationLimit)
		if err != nil {
			return nil, err
		}
		for i := range rels {
			rel := rels[i]
			it := Item{Key: relationKey(rel.ID), Kind: KindTriple, Relation: &rel, Text: RenderTriple(rel, a.Lang)}
			if len(rel.Evidence) > 0 {
				ev := rel.Evidence[0]
				it.Citation = &ev
			}
			it.Score = tripleFit(a, m.Entity.ID, rel) + 0.01*float64(len(rel.Evidence))
			items = append(items, it)
		}
		// Names folded into the entity itself (孔明 is 诸葛亮) are no
		// longer relations: a courtesy question reads them from the
		// sentences that gave them.
		if a.Type == QCourtesy {
			var kinds []string
			if text.IsChinese(a.Lang) || a.Lang == text.Unknown {
				kinds = []string{a.Asks.Label}
			}
			names, err := r.Src.AliasEvidence(ctx, m.Entity.ID, kinds)
			if err != nil {
				return nil, err
			}
			for i, al := range names {
				rel := kg.Relation{HeadID: m.Entity.ID, Head: m.Entity.Name, HeadType: m.Entity.Type, Type: a.Asks.Relations[0],
					Tail: al.Alias, TailType: m.Entity.Type, Status: "extracted", Evidence: []kg.Evidence{al.Evidence}}
				ev := al.Evidence
				items = append(items, Item{Key: fmt.Sprintf("a%d-%d-%d", ev.DocID, ev.Start, i), Kind: KindTriple, Relation: &rel,
					Text: RenderTriple(rel, a.Lang), Citation: &ev, Score: 3})
			}
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].Score > items[j].Score })
	if len(items) > routeLimit*2 {
		items = items[:routeLimit*2]
	}
	return items, nil
}

// tripleFit scores a fact for a question: its type is what is asked, its
// other end is also named in the question, its sentence shares terms.
func tripleFit(a *Analysis, from int64, rel kg.Relation) float64 {
	s := 0.0
	if a.Asks != nil {
		for _, t := range a.Asks.Relations {
			if rel.Type == t {
				fromTail := rel.TailID == from && rel.HeadID != from
				if fromTail == a.Asks.FromTail {
					s += 2
				} else {
					s += 0.5
				}
			}
		}
	}
	if a.Named(rel.HeadID) && a.Named(rel.TailID) && rel.HeadID != rel.TailID {
		s += 1.5
	}
	if strings.Contains(a.Norm, rel.Type) {
		s += 0.5
	}
	if len(rel.Evidence) > 0 {
		s += overlap(a.terms, rel.Evidence[0].Norm)
	}
	return s
}

// addChunks reads the chunks the search routes found, cites the sentence
// of each that best matches the question and adds them to the fusion.
func (r *Retriever) addChunks(ctx context.Context, f *fusion, byRoute map[string][]Scored, res *Result) error {
	var ids []int64
	seen := map[int64]bool{}
	for _, route := range []string{RouteChunk, RouteVector} {
		for _, s := range byRoute[route] {
			if !seen[s.ID] {
				seen[s.ID] = true
				ids = append(ids, s.ID)
			}
		}
	}
	// A window of years can hold hundreds of chunks: read those the other
	// routes found first, then others up to a bound.
	if t := byRoute[RouteTime]; len(t) > 0 {
		var keep []Scored
		for _, s := range t {
			if seen[s.ID] {
				keep = append(keep, s)
			}
		}
		for _, s := range t {
			if len(keep) >= timeRead {
				break
			}
			if !seen[s.ID] {
				seen[s.ID] = true
				ids = append(ids, s.ID)
				keep = append(keep, s)
			}
		}
		byRoute[RouteTime] = keep
	}
	if len(ids) == 0 {
		return nil
	}
	ps, err := r.Src.Passages(ctx, ids)
	if err != nil {
		return err
	}
	byID := make(map[int64]*store.Passage, len(ps))
	for i := range ps {
		byID[ps[i].ChunkID] = &ps[i]
	}
	// The time route can return many chunks: keep those that speak to the
	// question most.
	if t := byRoute[RouteTime]; len(t) > 0 {
		for i := range t {
			if p := byID[t[i].ID]; p != nil {
				t[i].Score = overlap(f.a.terms, p.Norm)
			}
		}
		sort.SliceStable(t, func(i, j int) bool { return t[i].Score > t[j].Score })
		if len(t) > routeLimit {
			t = t[:routeLimit]
		}
		byRoute[RouteTime] = t
	}
	for _, route := range []string{RouteChunk, RouteVector, RouteTime} {
		n := 0
		for rank, s := range byRoute[route] {
			p := byID[s.ID]
			if p == nil {
				continue
			}
			ev := BestSentence(p, f.a.terms, f.a)
			f.add(route, rank, Item{Key: chunkKey(p.ChunkID), Kind: KindChunk, Text: ev.Norm, Citation: ev})
			n++
		}
		if _, ok := byRoute[route]; ok {
			res.Routes[route] = n
		}
	}
	return nil
}

// BestSentence picks the sentence of a passage that holds most of the
// question's terms and entities, as a citation.
func BestSentence(p *store.Passage, terms []string, a *Analysis) *kg.Evidence {
	norm := []rune(p.Norm)
	best, bestScore := kg.Span{End: len(norm)}, -1.0
	for _, sp := range text.Sentences(p.Norm, p.Lang) {
		s := string(norm[sp.Start:sp.End])
		score := overlap(terms, s)
		if a != nil {
			for _, m := range a.Entities {
				if strings.Contains(s, m.Text) || strings.Contains(s, m.Entity.Name) {
					score += 0.5
				}
			}
		}
		if score > bestScore {
			best, bestScore = sp, score
		}
	}
	return Cite(p, best)
}

// Cite makes the citation of a span of a passage's normalised text.
func Cite(p *store.Passage, sp kg.Span) *kg.Evidence {
	norm := []rune(p.Norm)
	start, end := p.OrigOffset(sp.Start), p.OrigOffset(sp.End)
	orig := []rune(p.Text)
	os, oe := start-p.Start, end-p.Start
	if os < 0 || oe > len(orig) || os > oe {
		os, oe = 0, len(orig)
	}
	return &kg.Evidence{DocID: p.DocID, DocKey: p.DocKey, Cite: p.Cite, ChunkID: p.ChunkID,
		Span: kg.Span{Start: start, End: end}, Sentence: strings.TrimSpace(string(orig[os:oe])),
		Norm: strings.TrimSpace(string(norm[sp.Start:sp.End]))}
}

// overlap is the share of terms that s contains.
func overlap(terms []string, s string) float64 {
	if len(terms) == 0 {
		return 0
	}
	low := strings.ToLower(s)
	n := 0
	for _, t := range terms {
		if strings.Contains(low, t) {
			n++
		}
	}
	return float64(n) / float64(len(terms))
}

func aliasTexts(a *Analysis) []string {
	var out []string
	for _, m := range a.Entities {
		if m.Entity.Name != m.Text {
			out = append(out, m.Entity.Name)
		}
		for i, al := range m.Aliases {
			if i == 4 {
				break
			}
			out = append(out, al)
		}
	}
	return out
}

func entityKey(id int64) string   { return fmt.Sprintf("e%d", id) }
func relationKey(id int64) string { return fmt.Sprintf("r%d", id) }
func chunkKey(id int64) string    { return fmt.Sprintf("c%d", id) }

func entityText(e kg.Entity, aliases []string) string {
	s := e.Name + " (" + e.Type
	if len(aliases) > 0 {
		s += "; " + strings.Join(aliases, ", ")
	}
	s += ")"
	if e.Description != "" {
		s += ": " + e.Description
	}
	return s
}

// fusion merges what the routes found: one item per key, scored by
// reciprocal rank over the routes that found it (each route weighted),
// plus how much of the question the item's text holds.
type fusion struct {
	a     *Analysis
	items map[string]*Item
	order []string
}

// routeWeight says how much a first place on each route is worth.
var routeWeight = map[string]float64{
	RouteEntity: 0.6, RouteTriple: 1.0, RouteChunk: 1.0, RouteVector: 0.7, RoutePath: 1.2, RouteTime: 0.6, RouteCommunity: 0.5,
}

// rrfK damps the reciprocal-rank scores so that the first few places of a
// route are worth about the same.
const rrfK = 10

func newFusion(a *Analysis) *fusion { return &fusion{a: a, items: map[string]*Item{}} }

func (f *fusion) add(route string, rank int, it Item) {
	cur := f.items[it.Key]
	if cur == nil {
		it.Score, it.Routes, it.ranks = 0, nil, map[string]int{}
		it.Overlap = overlap(f.a.terms, it.Text)
		if it.Citation != nil {
			it.Overlap = math.Max(it.Overlap, overlap(f.a.terms, it.Citation.Norm))
		}
		f.items[it.Key] = &it
		f.order = append(f.order, it.Key)
		cur = &it
	}
	if _, ok := cur.ranks[route]; ok {
		return
	}
	cur.ranks[route] = rank
	cur.Routes = append(cur.Routes, route)
	cur.Score += routeWeight[route] / float64(rrfK+rank)
}

func (f *fusion) ranked(limit int) []Item {
	out := make([]Item, 0, len(f.items))
	for _, k := range f.order {
		it := *f.items[k]
		it.Score = math.Round((it.Score*float64(rrfK)+it.Overlap)*1000) / 1000
		out = append(out, it)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}
