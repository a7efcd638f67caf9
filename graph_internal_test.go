package annals

import (
	"reflect"
	"testing"
)

func TestFoldAliases(t *testing.T) {
	// 1 曹操 (centre), 2 操, 3 太祖, 4 荆州, 5 许褚; 6 is an alias of 5.
	n := &Neighbourhood{Center: 1, Edges: []GraphEdge{
		{ID: 10, Head: 1, Tail: 2, Type: "别称", Support: 5},
		{ID: 11, Head: 1, Tail: 3, Type: "别称", Support: 3},
		{ID: 12, Head: 1, Tail: 4, Type: "攻", Support: 4},
		{ID: 13, Head: 3, Tail: 4, Type: "攻", Support: 2}, // 太祖攻荆州 is 曹操's
		{ID: 14, Head: 2, Tail: 5, Type: "下级", Support: 1},
		{ID: 15, Head: 5, Tail: 6, Type: "别称", Support: 1},
	}}
	into := foldAliases(n, 1)
	if want := map[int64]int64{2: 1, 3: 1, 6: 5}; !reflect.DeepEqual(into, want) {
		t.Fatalf("folded %v, want %v", into, want)
	}
	want := []GraphEdge{
		{ID: 12, Head: 1, Tail: 4, Type: "攻", Support: 6},
		{ID: 14, Head: 1, Tail: 5, Type: "下级", Support: 1},
	}
	if !reflect.DeepEqual(n.Edges, want) {
		t.Fatalf("edges after folding:\n%+v\nwant\n%+v", n.Edges, want)
	}
	// An alias of the centre written the other way round folds the head.
	m := &Neighbourhood{Center: 1, Edges: []GraphEdge{{ID: 1, Head: 2, Tail: 1, Type: "alias_of"}}}
	if into := foldAliases(m, 1); into[2] != 1 || len(m.Edges) != 0 {
		t.Fatalf("alias of the centre as tail: %v %+v", into, m.Edges)
	}
}
