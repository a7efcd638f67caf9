package relate

import (
	"context"
	"fmt"
	"testing"

	"github.com/annals-project/annals/internal/store"
)

// edgeWorld is a world whose facts carry support counts.
type edgeWorld struct {
	world
	edges []store.RelationEdge
}

func (w *edgeWorld) RelationEdges(ctx context.Context) ([]store.RelationEdge, error) {
	return w.edges, nil
}

// An entity's edges come best supported first, ties by relation id, in
// both directions, as the store lists them; feeding back and reverting
// keep that order.
func TestEKGEdgesBestSupportedFirst(t *testing.T) {
	w := &edgeWorld{edges: []store.RelationEdge{
		{ID: 1, Head: 10, Tail: 11, Type: "子女", Status: "extracted", Support: 2},
		{ID: 2, Head: 12, Tail: 10, Type: "任官", Status: "extracted", Support: 9},
		{ID: 3, Head: 10, Tail: 13, Type: "攻", Status: "extracted", Support: 2},
		{ID: 4, Head: 10, Tail: 10, Type: "别称", Status: "extracted", Support: 50}, // a loop is no edge
		{ID: 5, Head: 10, Tail: 14, Type: "居", Status: "extracted", Support: 5},
	}}
	g, err := LoadEKG(context.Background(), w)
	if err != nil {
		t.Fatal(err)
	}
	show := func(es []store.Edge) string {
		s := ""
		for _, e := range es {
			s += fmt.Sprintf("%d:%d:%v:%d ", e.RelationID, e.Other, e.Forward, e.Support)
		}
		return s
	}
	if got, want := show(g.Edges(10, 10)), "2:12:false:9 5:14:true:5 1:11:true:2 3:13:true:2 "; got != want {
		t.Errorf("edges of 10: %s, want %s", got, want)
	}
	if got, want := show(g.Edges(10, 2)), "2:12:false:9 5:14:true:5 "; got != want {
		t.Errorf("first two edges of 10: %s, want %s", got, want)
	}
	if got := g.Edges(99, 5); len(got) != 0 {
		t.Errorf("an entity without relations has edges %v", got)
	}
	g.Add(store.RelationEdge{ID: 6, Head: 15, Tail: 10, Type: "积极态度倾向", Status: "verified", Support: 6})
	if got, want := show(g.Edges(10, 3)), "2:12:false:9 6:15:false:6 5:14:true:5 "; got != want {
		t.Errorf("after feedback: %s, want %s", got, want)
	}
	g.Remove(2)
	if got, want := show(g.Edges(10, 2)), "6:15:false:6 5:14:true:5 "; got != want {
		t.Errorf("after a revert: %s, want %s", got, want)
	}
}
