package retrieve

import (
	"slices"
	"testing"
)

// Each question is routed to the level of the tree that answers it, and a
// community question need not be worded as a list.
func TestLevels(t *testing.T) {
	for q, want := range map[string]string{
		"孙吴的将领有哪些？": LevelCommunity,
		"孔明是谁的字？":   LevelNode,
		"诸葛亮字什么？":   LevelNode,
		"诸葛亮的父亲是谁？": LevelTriple,
		"诸葛亮卒于何处？":  LevelTriple,
		"赤壁之战在哪一年？": LevelTriple,
	} {
		a, err := Analyze(t.Context(), noNames{}, q, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := LevelOf(a); got != want {
			t.Errorf("%s: level %s, want %s (type %s)", q, got, want, a.Type)
		}
	}
	a, err := Analyze(t.Context(), noNames{}, "孙吴的将领", false)
	if err != nil {
		t.Fatal(err)
	}
	if a.Global != nil {
		t.Fatalf("a bare phrase is already global: %+v", a.Global)
	}
	atLevel(a, LevelCommunity)
	if a.Type != QGlobal || a.Global == nil || !slices.Contains(a.Global.Categories, "将领") {
		t.Errorf("孙吴的将领 at the community level: type %s, %+v", a.Type, a.Global)
	}
	items := []Item{{Key: "c", Kind: KindChunk}, {Key: "t1", Kind: KindTriple}, {Key: "e", Kind: KindEntity}, {Key: "p", Kind: KindPath}, {Key: "t2", Kind: KindTriple}}
	byLevel(items, LevelTriple)
	var order []string
	for _, it := range items {
		order = append(order, it.Key)
	}
	if want := []string{"t1", "p", "t2", "c", "e"}; !slices.Equal(order, want) {
		t.Errorf("triple level order %v, want %v", order, want)
	}
}
