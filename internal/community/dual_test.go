package community

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// planted is a graph of groups of size each: dense links inside a group,
// a few across, relation types that differ by group, and vectors that
// lean towards the group's direction.
func planted(groups, size int, seed uint64) (*Graph, []int) {
	r := rand.New(rand.NewPCG(seed, 7))
	g := &Graph{}
	var truth []int
	dim := 16
	for c := range groups {
		for range size {
			v := make([]float32, dim)
			for t := range v {
				v[t] = float32(r.NormFloat64()) * 0.6
			}
			v[c%dim] += 2
			g.Nodes = append(g.Nodes, Node{ID: int64(len(g.Nodes) + 1), Type: "人物", Vector: v})
			truth = append(truth, c)
		}
	}
	rels := []string{"下级", "同胞", "婚恋", "积极态度倾向"}
	n := len(g.Nodes)
	for i := range n {
		for j := i + 1; j < n; j++ {
			p := 0.002
			if truth[i] == truth[j] {
				p = 0.3
			}
			if r.Float64() < p {
				g.Edges = append(g.Edges, Edge{A: i, B: j, Relation: rels[truth[i]%len(rels)], Weight: 1})
			}
		}
	}
	return g, truth
}

// pairAgreement is the share of node pairs that two partitions treat
// alike (together in both, or apart in both).
func pairAgreement(a, b []int) float64 {
	same, all := 0, 0
	for i := range a {
		for j := i + 1; j < len(a); j++ {
			all++
			if (a[i] == a[j]) == (b[i] == b[j]) {
				same++
			}
		}
	}
	return float64(same) / float64(all)
}

func TestDualFindsPlantedGroups(t *testing.T) {
	g, truth := planted(8, 40, 1)
	of := Dual(g, DualOptions{})
	if len(of) != len(g.Nodes) {
		t.Fatalf("%d labels for %d nodes", len(of), len(g.Nodes))
	}
	if got := pairAgreement(of, truth); got < 0.95 {
		t.Errorf("pair agreement with the planted groups %.3f, want ≥ 0.95", got)
	}
	q, qt := Modularity(g, of), Modularity(g, truth)
	if q < qt-0.05 {
		t.Errorf("modularity %.3f, planted %.3f", q, qt)
	}
	if !slices.Equal(of, Dual(g, DualOptions{})) {
		t.Error("two runs with the same seed differ")
	}
}

// What is said of a node places it where links are silent: a node with no
// links joins the group its vector leans to.
func TestDualPlacesUnlinkedNodesByMeaning(t *testing.T) {
	g, truth := planted(4, 30, 2)
	lone := len(g.Nodes)
	v := make([]float32, 16)
	v[2] = 2
	g.Nodes = append(g.Nodes, Node{ID: 999, Type: "人物", Vector: v})
	of := Dual(g, DualOptions{})
	var inGroup2 int
	for i, c := range truth {
		if c == 2 {
			inGroup2 = i
			break
		}
	}
	if of[lone] != of[inGroup2] {
		t.Errorf("the unlinked node is in community %d, group 2 is in %d", of[lone], of[inGroup2])
	}
}

func TestDualKBounds(t *testing.T) {
	if got := Dual(&Graph{}, DualOptions{}); len(got) != 0 {
		t.Errorf("empty graph: %v", got)
	}
	one := &Graph{Nodes: []Node{{ID: 1}}}
	if got := Dual(one, DualOptions{}); !slices.Equal(got, []int{0}) {
		t.Errorf("one node: %v", got)
	}
	// η bounds the number of communities whatever the graph's size.
	g, _ := planted(10, 30, 3)
	of := Dual(g, DualOptions{Eta: 4})
	if k := slices.Max(of) + 1; k > 4 {
		t.Errorf("η = 4 but %d communities", k)
	}
}

func TestModularity(t *testing.T) {
	// Two triangles joined by one edge: m = 7, each side has 3 inside
	// edges and degree sum 7.
	g := &Graph{Nodes: make([]Node, 6)}
	for _, e := range [][2]int{{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}, {2, 3}} {
		g.Edges = append(g.Edges, Edge{A: e[0], B: e[1]})
	}
	want := 2 * (3.0/7 - (7.0/14)*(7.0/14))
	if got := Modularity(g, []int{0, 0, 0, 1, 1, 1}); got < want-1e-9 || got > want+1e-9 {
		t.Errorf("modularity %v, want %v", got, want)
	}
	if got := Modularity(g, []int{0, 0, 0, 0, 0, 0}); got != 0 {
		t.Errorf("one community: modularity %v, want 0", got)
	}
}

func BenchmarkDual(b *testing.B) {
	g, _ := planted(40, 50, 4)
	for b.Loop() {
		Dual(g, DualOptions{})
	}
}
