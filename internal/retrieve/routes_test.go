package retrieve

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/embed"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// fakeGraph is a small graph in memory: what the graph routes read.
// Methods it does not define panic through the nil Source it embeds.
type fakeGraph struct {
	Source
	ents  []kg.Entity
	rels  []kg.Relation
	edges int // Edges calls
}

func newFakeGraph(names ...string) *fakeGraph {
	g := &fakeGraph{}
	for i, n := range names {
		g.ents = append(g.ents, kg.Entity{ID: int64(i + 1), Name: n, Type: "人物", Mentions: 10})
	}
	return g
}

func (g *fakeGraph) id(name string) int64 {
	for _, e := range g.ents {
		if e.Name == name {
			return e.ID
		}
	}
	panic("no entity " + name)
}

func (g *fakeGraph) relate(head, typ, tail string) int64 {
	h, t := g.id(head), g.id(tail)
	id := int64(len(g.rels) + 1)
	g.rels = append(g.rels, kg.Relation{ID: id, HeadID: h, Head: head, HeadType: "人物", Type: typ, TailID: t, Tail: tail,
		TailType: "人物", Status: "extracted", Evidence: []kg.Evidence{{DocID: 1, Sentence: head + typ + tail, Norm: head + typ + tail}}})
	return id
}

func (g *fakeGraph) MatchNames(_ context.Context, texts []string) ([]store.NameMatch, error) {
	var out []store.NameMatch
	for _, t := range texts {
		for _, e := range g.ents {
			if e.Name == t {
				out = append(out, store.NameMatch{Text: t, Entity: e, ByName: true})
			}
		}
	}
	return out, nil
}

func (g *fakeGraph) Aliases(context.Context, int64) ([]kg.Alias, error) { return nil, nil }

func (g *fakeGraph) Facts(_ context.Context, id int64, _ []string, limit int) ([]kg.Relation, error) {
	var out []kg.Relation
	for _, r := range g.rels {
		if (r.HeadID == id || r.TailID == id) && len(out) < limit {
			out = append(out, r)
		}
	}
	return out, nil
}

func (g *fakeGraph) Edges(_ context.Context, id int64, limit int) ([]store.Edge, error) {
	g.edges++
	var out []store.Edge
	for _, r := range g.rels {
		switch {
		case len(out) == limit:
		case r.HeadID == id:
			out = append(out, store.Edge{RelationID: r.ID, Type: r.Type, Other: r.TailID, Forward: true, Support: 1})
		case r.TailID == id:
			out = append(out, store.Edge{RelationID: r.ID, Type: r.Type, Other: r.HeadID, Support: 1})
		}
	}
	return out, nil
}

func (g *fakeGraph) RelationsByID(_ context.Context, ids []int64, _ int) ([]kg.Relation, error) {
	var out []kg.Relation
	for _, r := range g.rels {
		if slices.Contains(ids, r.ID) {
			out = append(out, r)
		}
	}
	return out, nil
}

func (g *fakeGraph) EntitiesByID(_ context.Context, ids []int64) ([]kg.Entity, error) {
	var out []kg.Entity
	for _, e := range g.ents {
		if slices.Contains(ids, e.ID) {
			out = append(out, e)
		}
	}
	return out, nil
}

func (g *fakeGraph) AliasEvidence(context.Context, int64, []string) ([]store.AliasEvidence, error) {
	return nil, nil
}
func (g *fakeGraph) Passages(context.Context, []int64) ([]store.Passage, error) { return nil, nil }
func (g *fakeGraph) Communities(context.Context) ([]kg.Community, error)        { return nil, nil }
func (g *fakeGraph) EntityCommunity(context.Context, int64) (int64, error)      { return 0, nil }

// routeItems are the items a route found, in the order it ranked them.
func routeItems(res *Result, route string) []Item {
	var out []Item
	for _, it := range res.Items {
		if _, ok := it.ranks[route]; ok {
			out = append(out, it)
		}
	}
	slices.SortStableFunc(out, func(a, b Item) int { return a.ranks[route] - b.ranks[route] })
	return out
}

// The entity-vector route takes the entities at or above δ, not those
// below it nor the ones the question names already, and adds their facts.
func TestEntityVectorRouteKeepsEntitiesAtOrAboveDelta(t *testing.T) {
	g := newFakeGraph("刘备", "关羽", "张飞", "赵云", "马超", "关平")
	g.relate("关羽", "子女", "关平")
	cos := map[string]float64{"刘备": 0.95, "关羽": 0.9, "张飞": 0.45, "赵云": 0.449, "马超": 0.2}
	var asked string
	r := &Retriever{Src: g, Entities: func(_ context.Context, text string, limit int) ([]Scored, error) {
		asked = text
		var out []Scored
		for _, n := range []string{"刘备", "关羽", "张飞", "赵云", "马超"} {
			out = append(out, Scored{ID: g.id(n), Score: cos[n]})
		}
		return out[:min(limit, len(out))], nil
	}}
	res, err := r.Retrieve(context.Background(), "刘备的义弟是谁", Options{EntitySim: 0.45, Extra: []string{"关羽", "马超"}, NoDFS: true})
	if err != nil {
		t.Fatal(err)
	}
	if asked != "刘备的义弟 关羽 马超" {
		t.Errorf("embedded %q: want the question without its question words, and the options", asked)
	}
	var got []string
	for _, it := range routeItems(res, RouteEntityVector) {
		if it.Kind == KindEntity {
			got = append(got, it.Entity.Name)
		}
	}
	if !slices.Equal(got, []string{"关羽", "张飞"}) {
		t.Fatalf("entity-vector route found %v, want 关羽 and 张飞 (δ 0.45; 刘备 is named)", got)
	}
	found := false
	for _, it := range routeItems(res, RouteEntityVector) {
		if it.Kind == KindTriple && it.Relation.Tail == "关平" {
			found = true
		}
	}
	if !found {
		t.Error("the facts of an entity the vectors found are not in the route")
	}
	// A lower δ takes 赵云 too.
	res, err = r.Retrieve(context.Background(), "刘备的义弟是谁", Options{EntitySim: 0.3, NoDFS: true})
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, it := range routeItems(res, RouteEntityVector) {
		if it.Kind == KindEntity {
			got = append(got, it.Entity.Name)
		}
	}
	if !slices.Equal(got, []string{"关羽", "张飞", "赵云"}) {
		t.Fatalf("at δ 0.3 the route found %v", got)
	}
	// Without δ the route is off, and says so.
	res, err = r.Retrieve(context.Background(), "刘备的义弟是谁", Options{NoDFS: true})
	if err != nil {
		t.Fatal(err)
	}
	if why := res.Inactive[RouteEntityVector]; !strings.Contains(why, "off unless asked") {
		t.Fatalf("inactive routes %v: want the entity-vector route off without δ", res.Inactive)
	}
	// Without vectors the route says why.
	r.Entities = func(context.Context, string, int) ([]Scored, error) {
		return nil, Unavailable("no entity vectors: annals index stores them")
	}
	res, err = r.Retrieve(context.Background(), "刘备的义弟是谁", Options{EntitySim: SuggestedEntitySim, NoDFS: true})
	if err != nil {
		t.Fatal(err)
	}
	if why := res.Inactive[RouteEntityVector]; !strings.Contains(why, "no entity vectors") {
		t.Fatalf("inactive routes %v: want the entity-vector route's reason", res.Inactive)
	}
}

// The triple-vector route ranks first the fact whose text is nearest the
// question.
func TestTripleVectorRouteRanksTheMatchingFactFirst(t *testing.T) {
	g := newFakeGraph("关羽", "关平", "张飞", "张苞", "前将军", "刘备")
	g.relate("张飞", "子女", "张苞")
	g.relate("关羽", "任官", "前将军")
	want := g.relate("关羽", "子女", "关平")
	g.relate("刘备", "下级", "关羽")
	em := embed.NewHashed(256)
	texts := make([]string, len(g.rels))
	for i, rel := range g.rels {
		texts[i] = TripleText(rel)
	}
	vecs, err := em.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	r := &Retriever{Src: g, Triples: func(ctx context.Context, text string, limit int) ([]Scored, error) {
		q, err := em.Embed(ctx, []string{text})
		if err != nil {
			return nil, err
		}
		var out []Scored
		for _, h := range embed.TopK(q[0], vecs, limit) {
			out = append(out, Scored{ID: g.rels[h.Index].ID, Score: float64(h.Score)})
		}
		return out, nil
	}}
	res, err := r.Retrieve(context.Background(), "关羽的子女是谁", Options{NoDFS: true})
	if err != nil {
		t.Fatal(err)
	}
	if why, off := res.Inactive[RouteTripleVector]; !off || !strings.Contains(why, "--triple-vector") {
		t.Fatalf("the triple-vector route should be off unless asked for: %v", res.Inactive)
	}
	res, err = r.Retrieve(context.Background(), "关羽的子女是谁", Options{NoDFS: true, TripleVector: true})
	if err != nil {
		t.Fatal(err)
	}
	items := routeItems(res, RouteTripleVector)
	if len(items) != len(g.rels) || res.Routes[RouteTripleVector] != len(g.rels) {
		t.Fatalf("triple-vector route found %d items (routes %v), want %d", len(items), res.Routes, len(g.rels))
	}
	if items[0].Relation == nil || items[0].Relation.ID != want {
		t.Fatalf("first fact %q, want 关羽 子女 关平", items[0].Text)
	}
	if items[0].Citation == nil {
		t.Error("a fact the vectors found cites no sentence")
	}
}

// chainGraph is 曹操 → 曹丕 → 曹叡 → 曹芳 → 曹髦 → 曹奂 → 司马炎, one fact
// a step.
func chainGraph() *fakeGraph {
	names := []string{"曹操", "曹丕", "曹叡", "曹芳", "曹髦", "曹奂", "司马炎"}
	g := newFakeGraph(names...)
	for i := 0; i+1 < len(names); i++ {
		g.relate(names[i], "更代", names[i+1])
	}
	return g
}

// The walk from the question's one entity reaches the entities its
// options name up to five facts away, and no further.
func TestDFSReachesNamedEntitiesWithinTheDepthBound(t *testing.T) {
	g := chainGraph()
	r := &Retriever{Src: g}
	res, err := r.Retrieve(context.Background(), "曹操之后由谁继承", Options{Extra: []string{"曹芳", "曹奂", "司马炎"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Analysis.Entities) != 1 {
		t.Fatalf("the question should name one entity: %+v", res.Analysis.Entities)
	}
	ends := map[string]int{}
	for _, it := range routeItems(res, RouteDFS) {
		if it.Kind != KindPath {
			t.Fatalf("dfs item %q is a %s", it.Text, it.Kind)
		}
		if it.Path[0].Head != "曹操" {
			t.Errorf("path %q does not start at the question's entity", it.Text)
		}
		ends[it.Path[len(it.Path)-1].Tail] = len(it.Path)
	}
	if ends["曹芳"] != 3 || ends["曹奂"] != 5 {
		t.Fatalf("paths end at %v: want 曹芳 three facts away and 曹奂 five", ends)
	}
	if _, ok := ends["司马炎"]; ok {
		t.Fatalf("司马炎 is six facts away, past the bound of %d: %v", maxHops, ends)
	}
	if res.Routes[RouteDFS] != 2 {
		t.Errorf("routes %v: want 2 dfs items", res.Routes)
	}
	// The first is the nearer.
	if first := routeItems(res, RouteDFS)[0]; first.Path[len(first.Path)-1].Tail != "曹芳" {
		t.Errorf("first dfs item %q, want the path to 曹芳", first.Text)
	}
}

// A question that names two entities is the path route's: the walk does
// not run, and says why.
func TestDFSDoesNotRunForTwoEntities(t *testing.T) {
	g := chainGraph()
	r := &Retriever{Src: g}
	res, err := r.Retrieve(context.Background(), "曹操与曹芳是什么关系", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res.Routes[RouteDFS]; ok || !strings.Contains(res.Inactive[RouteDFS], "more than one entity") {
		t.Fatalf("routes %v, inactive %v: the dfs route should not run", res.Routes, res.Inactive)
	}
	if res.Routes[RoutePath] == 0 {
		t.Fatalf("routes %v: the path route should link the two", res.Routes)
	}
}

// A hub cannot make the walk read more than its budget of entities.
func TestDFSVisitsAtMostItsBudget(t *testing.T) {
	names := []string{"曹操"}
	for i := range 30 {
		names = append(names, "甲"+string(rune('一'+i)))
		for j := range 10 {
			names = append(names, "乙"+string(rune('一'+i))+string(rune('一'+j)))
		}
	}
	g := newFakeGraph(names...)
	for i := range 30 {
		a := "甲" + string(rune('一'+i))
		g.relate("曹操", "下级", a)
		for j := range 10 {
			b := "乙" + string(rune('一'+i)) + string(rune('一'+j))
			g.relate(a, "下级", b)
			g.relate(b, "同族", "曹操")
		}
	}
	r := &Retriever{Src: g}
	if _, err := r.Retrieve(context.Background(), "曹操的部下", Options{}); err != nil {
		t.Fatal(err)
	}
	if g.edges == 0 || g.edges > dfsVisits {
		t.Fatalf("the walk read the facts of %d entities, budget %d", g.edges, dfsVisits)
	}
}

// Question words are left out of what the vector routes embed.
func TestWithoutQuestionWords(t *testing.T) {
	for in, want := range map[string]string{
		"项籍字什么？":                        "项籍字 ？",
		"汉高祖刘邦死于哪一年？":                   "汉高祖刘邦死于 ？",
		"Who was the father of Cao Pi?": "father Cao Pi?",
	} {
		if got := withoutQuestionWords(in); got != want {
			t.Errorf("withoutQuestionWords(%q) = %q, want %q", in, got, want)
		}
	}
}
