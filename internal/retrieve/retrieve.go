package retrieve

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// Source is what retrieval reads from a workspace.
type Source interface {
	MatchNames(ctx context.Context, texts []string) ([]store.NameMatch, error)
	Aliases(ctx context.Context, entityID int64) ([]kg.Alias, error)
	// Facts are an entity's relations, those of the given types first,
	// then best supported first, each with one evidence sentence.
	Facts(ctx context.Context, entityID int64, types []string, limit int) ([]kg.Relation, error)
	Edges(ctx context.Context, entityID int64, limit int) ([]store.Edge, error)
	RelationsByID(ctx context.Context, ids []int64, per int) ([]kg.Relation, error)
	EntityChunks(ctx context.Context, entityID int64, limit int) ([]int64, error)
	Passages(ctx context.Context, ids []int64) ([]store.Passage, error)
	ChunksInYears(ctx context.Context, from, to int) ([]int64, error)
	AliasEvidence(ctx context.Context, entityID int64, kinds []string) ([]store.AliasEvidence, error)
	// Statements are an entity's relations of the given types only, each
	// with up to per evidence sentences.
	Statements(ctx context.Context, entityID int64, types []string, per int) ([]kg.Relation, error)
	// OwnDocuments are the entity's own chapters: documents titled by
	// one of its names.
	OwnDocuments(ctx context.Context, entityID int64) (map[int64]bool, error)
	// MentionsIn are the mentions inside a span of a document, in order.
	MentionsIn(ctx context.Context, docID int64, start, end int) ([]store.TypedMention, error)
	// DocumentsTitled are the documents whose titles hold one of terms.
	DocumentsTitled(ctx context.Context, terms []string) ([]int64, error)
	// EntitiesIn counts the entities named in documents, most named first.
	EntitiesIn(ctx context.Context, docs []int64, limit int) ([]store.EntityCount, error)
	EntitiesByID(ctx context.Context, ids []int64) ([]kg.Entity, error)
	// EntitiesNamedEnding are the entities of a type whose names end with
	// one of suffixes, most mentioned first.
	EntitiesNamedEnding(ctx context.Context, typ string, suffixes []string, limit int) ([]kg.Entity, error)
	// EntityYears are the years of the dated passages naming each entity.
	EntityYears(ctx context.Context, ids []int64) (map[int64][]int, error)
	// Communities are the communities' reports; EntityCommunity is the
	// community an entity belongs to, 0 when none.
	Communities(ctx context.Context) ([]kg.Community, error)
	EntityCommunity(ctx context.Context, entityID int64) (int64, error)
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
	// RouteEntityVector finds entities by the cosine of their stored
	// vectors with the question and its options (seed 001 §3.5), beside
	// the name lookup, with their facts.
	RouteEntityVector = "entity-vector"
	// RouteTripleVector ranks every fact by the cosine of its text with
	// the question (seed 004's triple matching).
	RouteTripleVector = "triple-vector"
	// RouteDFS walks depth-first from the question's one entity (seed
	// 004's DFS path traversal).
	RouteDFS = "dfs"
)

// Item kinds.
const (
	KindEntity    = "entity"
	KindTriple    = "triple"
	KindChunk     = "chunk"
	KindPath      = "path"
	KindCommunity = "community"
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
	// passage is a chunk whose sentence is not yet chosen; Overlap is
	// then the whole chunk's, which no sentence of it can exceed.
	passage *store.Passage
}

// Options tune retrieval.
type Options struct {
	Limit  int  // items returned; 0 means 30
	Delta  int  // the ± years of the temporal window; negative means 1
	T2S    bool // normalise the question to simplified characters
	Extra  []string
	NoPath bool
	// Level, when set (LevelNode, LevelTriple, LevelCommunity), is the
	// level of the knowledge tree a decomposed sub-question is routed to:
	// the items that level answers from come first, and a community
	// question is searched over the whole corpus.
	Level string
	// EntitySim is δ, the least cosine between the question (with its
	// options) and an entity's vector for the entity-vector route to take
	// the entity; 0 (or above 1) leaves the route off (see
	// SuggestedEntitySim).
	EntitySim float64
	// NoDFS turns the walk from a single entity off. TripleVector turns
	// the ranking of every fact by its vector on: it costs building the
	// facts' vectors once per process and generation, and lowered a
	// question set at any weight that changes a ranking.
	NoDFS, TripleVector bool
}

// Retriever runs the routes over one workspace.
type Retriever struct {
	Src     Source
	Lexical Search // BM25 over chunks; nil disables the chunk route
	Vectors Search // nearest chunks by embedding; nil when none
	// Entities are the nearest entities by their stored vectors (Scored.ID
	// an entity's), and Triples the nearest facts by the vectors of their
	// texts (TripleText; Scored.ID a relation's), the score a cosine
	// either way; nil disables the route. A search that cannot run here
	// returns an Unavailable error, which says why.
	Entities Search
	Triples  Search
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
	routeLimit     = 20
	timeRead       = 40 // chunks of a window of years read to rank
	relationLimit  = 30 // the facts read of each entity: of the types asked, then best supported
	communityItems = 3  // the best communities a question's items hold
)

// Retrieve analyses a question and runs every route. Extra texts (the
// options of a multiple-choice question, a bridge entity) widen the
// lexical routes without changing what the question asks.
func (r *Retriever) Retrieve(ctx context.Context, question string, opts Options) (*Result, error) {
	a, err := Analyze(ctx, r.Src, question, opts.T2S)
	if err != nil {
		return nil, fmt.Errorf("analyse question: %w", err)
	}
	atLevel(a, opts.Level)
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
	// The chunk searches run beside the graph routes: they read other
	// tables, and a question should not wait for them in turn.
	// BM25 over the question's content terms (its question words and
	// particles match thousands of chunks and say nothing), the other
	// names of its entities, and any extra text.
	query := strings.Join(append(append(slices.Clone(a.terms), aliasTexts(a)...), opts.Extra...), " ")
	// Each search reads its chunks' passages too, so that the slowest
	// route alone sets how long a question waits.
	type found struct {
		hits     []Scored
		passages []store.Passage
		err      error
	}
	search := func(route string, s Search, text string, out *found) {
		if out.hits, out.err = s(ctx, text, routeLimit); out.err != nil {
			out.err = fmt.Errorf("%s search: %w", route, out.err)
			return
		}
		ids := make([]int64, len(out.hits))
		for i, h := range out.hits {
			ids[i] = h.ID
		}
		out.passages, out.err = r.Src.Passages(ctx, ids)
	}
	var (
		wg            sync.WaitGroup
		lexical, near found
	)
	defer wg.Wait()
	if r.Lexical != nil {
		wg.Go(func() { search(RouteChunk, r.Lexical, query, &lexical) })
	} else {
		res.Inactive[RouteChunk] = "no lexical index"
	}
	vq := vectorQuery(a, opts.Extra)
	if r.Vectors != nil {
		wg.Go(func() { search(RouteVector, r.Vectors, vq, &near) })
	} else {
		res.Inactive[RouteVector] = "no chunk vectors"
	}
	minSim := opts.EntitySim
	cq := contentQuery(a, opts.Extra)
	var entVec, tripVec vectorSearch
	switch {
	case r.Entities == nil:
		res.Inactive[RouteEntityVector] = "no entity vectors"
	case minSim <= 0 || minSim > 1:
		res.Inactive[RouteEntityVector] = "off unless asked for (ask --entity-sim 0.45)"
	default:
		wg.Go(func() { entVec.hits, entVec.err = r.Entities(ctx, cq, entityVectorLimit) })
	}
	switch {
	case r.Triples == nil:
		res.Inactive[RouteTripleVector] = "no fact vectors"
	case !opts.TripleVector:
		res.Inactive[RouteTripleVector] = "off unless asked for (ask --triple-vector)"
	default:
		wg.Go(func() { tripVec.hits, tripVec.err = r.Triples(ctx, cq, tripleVectorLimit) })
	}
	// Meanwhile: the entities, their facts and the paths between them.
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
	var paths []Item
	if len(a.Entities) >= 2 && !opts.NoPath {
		if paths, err = r.paths(ctx, a); err != nil {
			return nil, err
		}
	}
	// The temporal window: chunks that speak of a year near the question's.
	chunkIDs := map[string][]Scored{}
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
	wg.Wait()
	read := map[int64]*store.Passage{}
	for _, fd := range []*found{&lexical, &near} {
		if fd.err != nil {
			return nil, fd.err
		}
		for i := range fd.passages {
			read[fd.passages[i].ChunkID] = &fd.passages[i]
		}
	}
	if r.Lexical != nil {
		chunkIDs[RouteChunk] = lexical.hits
	}
	if r.Vectors != nil {
		chunkIDs[RouteVector] = near.hits
	}
	if err := r.addChunks(ctx, f, chunkIDs, read, res); err != nil {
		return nil, err
	}
	if len(a.Entities) >= 2 && !opts.NoPath {
		for i, it := range paths {
			f.add(RoutePath, i, it)
		}
		res.Routes[RoutePath] = len(paths)
	} else {
		res.Inactive[RoutePath] = "fewer than two entities in the question"
	}
	if err := r.addVectorRoutes(ctx, f, a, &entVec, &tripVec, minSim, res); err != nil {
		return nil, err
	}
	switch {
	case opts.NoDFS:
		res.Inactive[RouteDFS] = "turned off"
	case len(a.Entities) == 0:
		res.Inactive[RouteDFS] = "no entity in the question"
	case len(a.Entities) > 1:
		res.Inactive[RouteDFS] = "the question names more than one entity: the path route links them"
	default:
		walked, err := r.dfs(ctx, a, opts.Extra)
		if err != nil {
			return nil, err
		}
		for i, it := range walked {
			f.add(RouteDFS, i, it)
		}
		res.Routes[RouteDFS] = len(walked)
	}
	named := make([]kg.Entity, len(a.Entities))
	for i, m := range a.Entities {
		named[i] = m.Entity
	}
	communities, err := r.rankCommunities(ctx, named, a.terms, a.Global)
	if err != nil {
		return nil, err
	}
	if len(communities) > 0 {
		for i, rc := range communities[:min(len(communities), communityItems)] {
			f.add(RouteCommunity, i, communityItem(rc.Community))
		}
		res.Routes[RouteCommunity] = min(len(communities), communityItems)
	} else {
		res.Inactive[RouteCommunity] = "no community's report matches the question (or the workspace has none)"
	}
	res.Items = f.ranked(opts.Limit)
	byLevel(res.Items, opts.Level)
	if len(res.Inactive) == 0 {
		res.Inactive = nil
	}
	return res, nil
}

// addVectorRoutes adds what the entity-vector and triple-vector searches
// found, once they are done, to the fusion.
func (r *Retriever) addVectorRoutes(ctx context.Context, f *fusion, a *Analysis, ent, trip *vectorSearch, minSim float64, res *Result) error {
	if _, off := res.Inactive[RouteEntityVector]; !off {
		if why, ok := unavailable(ent.err); ok {
			res.Inactive[RouteEntityVector] = why
		} else if ent.err != nil {
			return fmt.Errorf("%s search: %w", RouteEntityVector, ent.err)
		} else {
			ents, facts, err := r.entityVectorItems(ctx, a, ent.hits, minSim)
			if err != nil {
				return err
			}
			for i, it := range ents {
				f.add(RouteEntityVector, i, it)
			}
			for i, it := range facts {
				f.add(RouteEntityVector, i, it)
			}
			res.Routes[RouteEntityVector] = len(ents) + len(facts)
		}
	}
	if _, off := res.Inactive[RouteTripleVector]; !off {
		if why, ok := unavailable(trip.err); ok {
			res.Inactive[RouteTripleVector] = why
		} else if trip.err != nil {
			return fmt.Errorf("%s search: %w", RouteTripleVector, trip.err)
		} else {
			items, err := r.tripleVectorItems(ctx, a, trip.hits)
			if err != nil {
				return err
			}
			for i, it := range items {
				f.add(RouteTripleVector, i, it)
			}
			res.Routes[RouteTripleVector] = len(items)
		}
	}
	return nil
}

// triples are the facts of the question's entities, ranked by how well
// their relation type and other end fit what is asked, then by support.
func (r *Retriever) triples(ctx context.Context, a *Analysis) ([]Item, error) {
	var items []Item
	var asked []string
	if a.Asks != nil {
		asked = a.Asks.Relations
	}
	for _, m := range a.Entities {
		rels, err := r.Src.Facts(ctx, m.Entity.ID, asked, relationLimit)
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
			// Facts come best supported first, and the sort below is
			// stable: support breaks ties.
			it.Score = tripleFit(a, m.Entity.ID, rel)
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

// addChunks adds the chunks the search routes found, whose passages are
// in read (the time route's are read here), to the fusion.
func (r *Retriever) addChunks(ctx context.Context, f *fusion, byRoute map[string][]Scored, read map[int64]*store.Passage, res *Result) error {
	seen := map[int64]bool{}
	for _, route := range []string{RouteChunk, RouteVector} {
		for _, s := range byRoute[route] {
			seen[s.ID] = true
		}
	}
	// A window of years can hold hundreds of chunks: those the other
	// routes found first, then others up to a bound.
	var ids []int64
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
	if len(ids) > 0 {
		ps, err := r.Src.Passages(ctx, ids)
		if err != nil {
			return err
		}
		for i := range ps {
			read[ps[i].ChunkID] = &ps[i]
		}
	}
	byID := read
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
			f.add(route, rank, Item{Key: chunkKey(p.ChunkID), Kind: KindChunk, passage: p})
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
	best, bestScore := kg.Span{End: utf8.RuneCountInString(p.Norm)}, -1.0
	// Only the terms the passage holds can be in its sentences.
	low := lower(p.Norm)
	in := make([]string, 0, len(terms))
	for _, t := range terms {
		if strings.Contains(low, t) {
			in = append(in, t)
		}
	}
	// Han text has no case: its sentences need no lowering.
	caseless := low == p.Norm
	at := runeCursor{s: p.Norm}
	for _, sp := range text.Sentences(p.Norm, p.Lang) {
		s := p.Norm[at.seek(sp.Start):at.seek(sp.End)]
		score := 0.0
		if len(in) > 0 {
			ls := s
			if !caseless {
				ls = lower(s)
			}
			score = share(in, ls) * float64(len(in)) / float64(len(terms))
		}
		if a != nil {
			for _, m := range a.Entities {
				if strings.Contains(s, m.Text) || strings.Contains(s, m.Entity.Name) {
					score += 0.5
				}
			}
			// Checked only for a sentence that would win.
			if score > bestScore && !a.AddsTo(s) {
				score = -0.5 // only if the passage has nothing else
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
	norm := runeCursor{s: p.Norm}
	ns, ne := norm.seek(max(sp.Start, 0)), norm.seek(max(sp.End, 0))
	sp.Start, sp.End = norm.at(ns), norm.at(ne) // clamped to the text
	start, end := p.OrigOffset(sp.Start), p.OrigOffset(sp.End)
	orig := p.Text
	if os, oe := start-p.Start, end-p.Start; os >= 0 && os <= oe {
		c := runeCursor{s: p.Text}
		if b := c.seek(os); c.r == os {
			if e := c.seek(oe); c.r == oe {
				orig = p.Text[b:e]
			}
		}
	}
	return &kg.Evidence{DocID: p.DocID, DocKey: p.DocKey, Cite: p.Cite, ChunkID: p.ChunkID,
		Span: kg.Span{Start: start, End: end}, Sentence: strings.TrimSpace(orig), Norm: strings.TrimSpace(p.Norm[ns:ne])}
}

// runeCursor finds the byte offsets of character offsets in a text,
// walking forward from the last one found: slicing by character offsets,
// in order, without copying the text into runes.
type runeCursor struct {
	s    string
	r, b int // character r starts at byte b
}

// seek returns the byte offset of character n, or len(s) past the end.
func (c *runeCursor) seek(n int) int {
	if n < c.r {
		c.r, c.b = 0, 0
	}
	for c.r < n && c.b < len(c.s) {
		_, w := utf8.DecodeRuneInString(c.s[c.b:])
		c.b += w
		c.r++
	}
	return c.b
}

// at is the character offset of byte b, which seek returned last.
func (c *runeCursor) at(b int) int {
	if b == c.b {
		return c.r
	}
	return utf8.RuneCountInString(c.s[:b])
}

// overlap is the share of terms that s contains.
func overlap(terms []string, s string) float64 {
	if len(terms) == 0 {
		return 0
	}
	return share(terms, lower(s))
}

// share is the share of terms that low, already lowercased, contains.
func share(terms []string, low string) float64 {
	if len(terms) == 0 {
		return 0
	}
	n := 0
	for _, t := range terms {
		if strings.Contains(low, t) {
			n++
		}
	}
	return float64(n) / float64(len(terms))
}

// lower lowercases s, returning it as it is when nothing in it has case:
// Han text, most of what is compared, is returned at once.
func lower(s string) string {
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			if 'A' <= r && r <= 'Z' {
				return strings.ToLower(s)
			}
		case r >= 0x2E80 && r <= 0x9FFF, r >= 0xF900 && r <= 0xFAFF, r >= 0xFF00 && r <= 0xFF20, r >= 0x20000:
			// CJK characters and punctuation have no case.
		case unicode.IsUpper(r) || unicode.IsTitle(r):
			return strings.ToLower(s)
		}
	}
	return s
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
	RouteEntityVector: 0.4, RouteTripleVector: 0.3, RouteDFS: 0.8,
}

// rrfK damps the reciprocal-rank scores so that the first few places of a
// route are worth about the same.
const rrfK = 10

func newFusion(a *Analysis) *fusion { return &fusion{a: a, items: map[string]*Item{}} }

func (f *fusion) add(route string, rank int, it Item) {
	cur := f.items[it.Key]
	if cur == nil {
		it.Score, it.Routes, it.ranks = 0, nil, map[string]int{}
		if it.passage != nil {
			it.Overlap = overlap(f.a.terms, it.passage.Norm)
		} else {
			f.measure(&it)
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

// measure sets how much of the question an item's text holds.
func (f *fusion) measure(it *Item) {
	it.Overlap = overlap(f.a.terms, it.Text)
	if it.Citation != nil {
		it.Overlap = math.Max(it.Overlap, overlap(f.a.terms, it.Citation.Norm))
	}
}

// ranked scores the items and returns the best. A chunk's sentence is
// chosen only once the chunk ranks among them: its score can then only
// fall, so choosing until the best are all chosen gives the ranking of
// choosing every one.
func (f *fusion) ranked(limit int) []Item {
	all := make([]Item, 0, len(f.items))
	for _, k := range f.order {
		all = append(all, *f.items[k])
	}
	score := func(it *Item) float64 { return math.Round((it.Score*float64(rrfK)+it.Overlap)*1000) / 1000 }
	order := make([]int, len(all))
	for {
		for i := range order {
			order[i] = i
		}
		// Best first; equal scores in the order the routes found them.
		sort.SliceStable(order, func(i, j int) bool { return score(&all[order[i]]) > score(&all[order[j]]) })
		chose := false
		for _, k := range order[:min(limit, len(order))] {
			if it := &all[k]; it.passage != nil {
				it.Citation = BestSentence(it.passage, f.a.terms, f.a)
				it.Text, it.passage = it.Citation.Norm, nil
				f.measure(it)
				chose = true
			}
		}
		if !chose {
			break
		}
	}
	out := make([]Item, 0, min(limit, len(order)))
	for _, k := range order[:min(limit, len(order))] {
		it := all[k]
		it.Score = score(&it)
		out = append(out, it)
	}
	return out
}
