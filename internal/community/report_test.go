package community

import (
	"context"
	"slices"
	"testing"

	"github.com/annals-project/annals/internal/kg"
)

type fakeSource struct{ rels map[int64]kg.Relation }

func (f fakeSource) RelationsByID(_ context.Context, ids []int64, _ int) ([]kg.Relation, error) {
	var out []kg.Relation
	for i := len(ids) - 1; i >= 0; i-- { // out of order: the report sorts them
		out = append(out, f.rels[ids[i]])
	}
	return out, nil
}

func (fakeSource) Aliases(_ context.Context, id int64) ([]kg.Alias, error) {
	if id == 1 {
		return []kg.Alias{{Name: "仲谋", Kind: "字"}, {Name: "仲谋", Kind: "字"}, {Name: "权", Kind: "short"}}, nil
	}
	return nil, nil
}

func (fakeSource) Statements(_ context.Context, id int64, _ []string, _ int) ([]kg.Relation, error) {
	if id == 1 {
		return []kg.Relation{{HeadID: 1, Tail: "吴王", Evidence: []kg.Evidence{{Sentence: "封权为吴王。", DocKey: "吴主传"}}}}, nil
	}
	return nil, nil
}

func TestReports(t *testing.T) {
	// 孙权 (0), 周瑜 (1), 鲁肃 (2) with 江东 (3); 曹操 (4), 荀彧 (5), 郭嘉 (6)
	// with 许 (7); 赤壁 (8) between the sides.
	names := []string{"孙权", "周瑜", "鲁肃", "江东", "曹操", "荀彧", "郭嘉", "许", "赤壁"}
	types := []string{"人物", "人物", "人物", "地点", "人物", "人物", "人物", "地点", "地点"}
	g := &Graph{}
	for i, n := range names {
		g.Nodes = append(g.Nodes, Node{ID: int64(i + 1), Name: n, Type: types[i], Weight: 10 - i})
	}
	src := fakeSource{rels: map[int64]kg.Relation{}}
	edge := func(a, b int, rel string, w float64, years ...int) {
		id := int64(len(g.Edges) + 100)
		g.Edges = append(g.Edges, Edge{A: a, B: b, Relation: rel, Weight: w, RelationID: id, Years: years})
		src.rels[id] = kg.Relation{ID: id, Head: names[a], Type: rel, Tail: names[b],
			Evidence: []kg.Evidence{{DocKey: "d", Span: kg.Span{Start: 0, End: 5}, Sentence: names[a] + rel + names[b] + "。"}}}
	}
	edge(0, 1, "下级", 5, 200, 208)
	edge(0, 2, "下级", 3, 210)
	edge(1, 2, "积极态度倾向", 1)
	edge(0, 3, "居", 2)
	edge(1, 8, "攻", 1, 208)
	edge(4, 5, "下级", 4, 196)
	edge(4, 6, "下级", 2, 200)
	edge(4, 7, "居", 2)
	edge(4, 8, "访", 1, 208)
	of := []int{0, 0, 0, 0, 1, 1, 1, 1, 1}
	reps, all, err := Reports(context.Background(), src, g, of, "dual")
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 2 || len(all) != 2 {
		t.Fatalf("%d reports, want 2: %+v", len(reps), reps)
	}
	wu := reps[1]
	if reps[0].Size < wu.Size {
		t.Errorf("reports not largest first: %d then %d", reps[0].Size, wu.Size)
	}
	if wu.Members[0].Name != "孙权" || wu.Members[0].Centrality <= wu.Members[1].Centrality {
		t.Errorf("孙权 is not the most central: %+v", wu.Members)
	}
	var kws []string
	for _, k := range wu.Keywords {
		kws = append(kws, k.Term)
	}
	// 江东 is the community's own place; 赤壁 is named by both sides, so
	// it marks neither as much.
	if len(kws) == 0 || kws[0] != "江东" || slices.Contains(kws, "周瑜") {
		t.Errorf("keywords %v: want 江东 first and no people of the community", kws)
	}
	if wu.Name != "江东：孙权、周瑜、鲁肃" {
		t.Errorf("name %q", wu.Name)
	}
	if wu.From == nil || *wu.From != 200 || *wu.To != 210 {
		t.Errorf("span %v–%v, want 200–210", wu.From, wu.To)
	}
	if len(wu.Facts) == 0 || wu.Facts[0].Head != "孙权" || wu.Facts[0].Tail != "周瑜" {
		t.Errorf("key facts %+v: want 孙权 下级 周瑜 first", wu.Facts)
	}
	for _, f := range wu.Facts {
		if f.Tail == "赤壁" {
			t.Errorf("a fact that leaves the community is a key fact: %+v", f)
		}
	}
	if len(wu.Summary) == 0 || wu.Summary[0].Sentence != "孙权下级周瑜。" {
		t.Errorf("summary %+v", wu.Summary)
	}
	want := []kg.Attribute{{EntityID: 1, Entity: "孙权", Kind: "字", Value: "仲谋"}}
	if len(wu.Attributes) != 2 || wu.Attributes[0] != want[0] || wu.Attributes[1].Value != "吴王" || wu.Attributes[1].Evidence == nil {
		t.Errorf("attributes %+v: want 字 仲谋 once and the title 吴王 with its sentence", wu.Attributes)
	}
	if len(all[1]) != 4 || all[1][0].Name != "孙权" {
		t.Errorf("all members %+v", all[1])
	}
}

// Groups under MinSize are not communities.
func TestReportsSkipSmallGroups(t *testing.T) {
	g := &Graph{Nodes: []Node{{ID: 1, Name: "甲"}, {ID: 2, Name: "乙"}}, Edges: []Edge{{A: 0, B: 1, Relation: "下级"}}}
	reps, _, err := Reports(context.Background(), fakeSource{}, g, []int{0, 0}, "dual")
	if err != nil || len(reps) != 0 {
		t.Errorf("a pair made %d reports (%v)", len(reps), err)
	}
}
