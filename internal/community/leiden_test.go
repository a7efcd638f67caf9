package community

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// leidenCliques builds cliques of the given sizes, nodes numbered clique by
// clique, plus the extra edges.
func leidenCliques(sizes []int, extra [][2]int) (*Graph, []int) {
	g := &Graph{}
	var truth []int
	for c, size := range sizes {
		base := len(g.Nodes)
		for i := range size {
			g.Nodes = append(g.Nodes, Node{ID: int64(base + i)})
			truth = append(truth, c)
			for j := range i {
				g.Edges = append(g.Edges, Edge{A: base + j, B: base + i})
			}
		}
	}
	for _, e := range extra {
		g.Edges = append(g.Edges, Edge{A: e[0], B: e[1]})
	}
	return g, truth
}

// plantedGraph builds a random graph of n nodes in groups of equal size
// (node i is in group i%groups) with the given number of edges (repeats
// sum), a share mixing of them between groups, and returns it with the
// planted partition.
func plantedGraph(n, groups, edges int, mixing float64, seed uint64) (*Graph, []int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	g := &Graph{Nodes: make([]Node, n)}
	truth := make([]int, n)
	for i := range n {
		g.Nodes[i].ID = int64(i)
		truth[i] = i % groups
	}
	for len(g.Edges) < edges {
		a := rng.IntN(n)
		var b int
		if rng.Float64() < mixing {
			b = rng.IntN(n) // any group; rejected below if it is a's
			if truth[b] == truth[a] {
				continue
			}
		} else {
			b = rng.IntN(n/groups)*groups + truth[a]
		}
		if a != b {
			g.Edges = append(g.Edges, Edge{A: a, B: b})
		}
	}
	return g, truth
}

func communityCount(of []int) int {
	if len(of) == 0 {
		return 0
	}
	return slices.Max(of) + 1
}

// sameGrouping says whether a and b group nodes alike, whatever the ids.
func sameGrouping(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	ab, ba := map[int]int{}, map[int]int{}
	for i := range a {
		if x, ok := ab[a[i]]; ok && x != b[i] {
			return false
		}
		if y, ok := ba[b[i]]; ok && y != a[i] {
			return false
		}
		ab[a[i]], ba[b[i]] = b[i], a[i]
	}
	return true
}

// normalisedMI is the normalised mutual information of two partitions.
func normalisedMI(a, b []int) float64 {
	n := float64(len(a))
	joint := map[[2]int]float64{}
	ca, cb := map[int]float64{}, map[int]float64{}
	for i := range a {
		joint[[2]int{a[i], b[i]}]++
		ca[a[i]]++
		cb[b[i]]++
	}
	entropy := func(c map[int]float64) float64 {
		h := 0.0
		for _, x := range c {
			h -= x / n * math.Log(x/n)
		}
		return h
	}
	mi := 0.0
	for k, x := range joint {
		mi += x / n * math.Log(x*n/(ca[k[0]]*cb[k[1]]))
	}
	ha, hb := entropy(ca), entropy(cb)
	if ha+hb == 0 {
		return 1
	}
	return 2 * mi / (ha + hb)
}

// checkFirstNodeOrder fails unless ids are 0, 1, … in order of first node.
func checkFirstNodeOrder(t *testing.T, of []int) {
	t.Helper()
	next := 0
	for i, c := range of {
		if c > next || c < 0 {
			t.Fatalf("node %d has community %d; want at most %d", i, c, next)
		}
		if c == next {
			next++
		}
	}
}

// checkCommunitiesConnected fails if any community is not connected, walking from
// each community's first node over edges inside the community only.
func checkCommunitiesConnected(t *testing.T, g *Graph, of []int) {
	t.Helper()
	a := adjacencyOf(g)
	size := map[int]int{}
	for _, c := range of {
		size[c]++
	}
	reached := make([]bool, len(of))
	for root, c := range of {
		if reached[root] {
			continue
		}
		reached[root] = true
		count, queue := 1, []int{root}
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			for _, u := range a.nbr[v] {
				if !reached[u] && of[u] == c {
					reached[u] = true
					count++
					queue = append(queue, u)
				}
			}
		}
		if count != size[c] {
			t.Fatalf("community %d: %d of its %d nodes reachable from node %d", c, count, size[c], root)
		}
	}
}

func TestLeidenTwoCliques(t *testing.T) {
	g, truth := leidenCliques([]int{5, 5}, [][2]int{{4, 5}})
	got := Leiden(g, LeidenOptions{Seed: 1})
	if !sameGrouping(got, truth) {
		t.Fatalf("got %v; want the two cliques %v", got, truth)
	}
	if !slices.Equal(got, truth) {
		t.Fatalf("got %v; want numbering %v", got, truth)
	}
}

func TestLeidenRingOfCliques(t *testing.T) {
	const cliques, size = 8, 6
	var bridges [][2]int
	for c := range cliques {
		next := (c + 1) % cliques
		bridges = append(bridges, [2]int{c*size + size - 1, next * size})
	}
	g, truth := leidenCliques(slices.Repeat([]int{size}, cliques), bridges)
	// The resolution limit: merging two neighbouring cliques must lower
	// modularity here, or the cliques would not be the optimum.
	merged := slices.Clone(truth)
	for i := range size {
		merged[size+i] = 0
	}
	if Modularity(g, merged) >= Modularity(g, truth) {
		t.Fatalf("merging two cliques raises modularity: the test graph is wrong")
	}
	for seed := range uint64(10) {
		got := Leiden(g, LeidenOptions{Seed: seed})
		if !sameGrouping(got, truth) {
			t.Fatalf("seed %d: got %v; want the cliques", seed, got)
		}
		checkFirstNodeOrder(t, got)
	}
}

func TestLeidenPlanted(t *testing.T) {
	g, truth := plantedGraph(2000, 20, 8000, 0.25, 7)
	got := Leiden(g, LeidenOptions{Seed: 3})
	checkFirstNodeOrder(t, got)
	q, qTruth := Modularity(g, got), Modularity(g, truth)
	t.Logf("communities %d, modularity %.4f, planted %.4f, NMI %.4f",
		communityCount(got), q, qTruth, normalisedMI(got, truth))
	if q < qTruth-0.005 {
		t.Errorf("modularity %.4f; want at least the planted %.4f", q, qTruth)
	}
	if score := normalisedMI(got, truth); score < 0.9 {
		t.Errorf("NMI with the planted partition %.3f; want ≥ 0.9", score)
	}
}

func TestLeidenConnected(t *testing.T) {
	// Sparse and mixed, so that communities have weak spots to break at.
	g, _ := plantedGraph(2000, 40, 4000, 0.4, 11)
	for seed := range uint64(5) {
		checkCommunitiesConnected(t, g, Leiden(g, LeidenOptions{Seed: seed}))
	}
	// Stopping after one aggregation returns the unrefined partition,
	// which Leiden must split where it is disconnected.
	checkCommunitiesConnected(t, g, Leiden(g, LeidenOptions{Seed: 1, MaxLevels: 1}))
}

func TestLeidenDeterministic(t *testing.T) {
	g, _ := plantedGraph(2000, 20, 8000, 0.3, 5)
	a := Leiden(g, LeidenOptions{Seed: 42})
	b := Leiden(g, LeidenOptions{Seed: 42})
	if !slices.Equal(a, b) {
		t.Fatal("two runs with the same seed differ")
	}
}

func TestLeidenIsolatedNodes(t *testing.T) {
	// A triangle, two isolated nodes between its corners, and edges that
	// detection ignores: a self loop and one out of range.
	g := &Graph{Nodes: make([]Node, 5), Edges: []Edge{
		{A: 0, B: 2}, {A: 2, B: 4}, {A: 4, B: 0}, {A: 1, B: 1}, {A: 3, B: 9},
	}}
	got := Leiden(g, LeidenOptions{})
	if want := []int{0, 1, 0, 2, 0}; !slices.Equal(got, want) {
		t.Fatalf("got %v; want %v", got, want)
	}
	none := Leiden(&Graph{Nodes: make([]Node, 3)}, LeidenOptions{})
	if want := []int{0, 1, 2}; !slices.Equal(none, want) {
		t.Fatalf("edgeless graph: got %v; want %v", none, want)
	}
}

func TestLeidenEmpty(t *testing.T) {
	if got := Leiden(&Graph{}, LeidenOptions{}); len(got) != 0 {
		t.Fatalf("empty graph: got %v", got)
	}
}

func TestLeidenResolution(t *testing.T) {
	g, _ := plantedGraph(2000, 20, 8000, 0.25, 7)
	prev := 0
	for _, gamma := range []float64{0.05, 1, 3, 10} {
		n := communityCount(Leiden(g, LeidenOptions{Resolution: gamma, Seed: 3}))
		t.Logf("γ %.2f: %d communities", gamma, n)
		if n < prev {
			t.Errorf("γ %.2f gives %d communities, fewer than %d at a lower γ", gamma, n, prev)
		}
		prev = n
	}
	low := communityCount(Leiden(g, LeidenOptions{Resolution: 0.05, Seed: 3}))
	high := communityCount(Leiden(g, LeidenOptions{Resolution: 10, Seed: 3}))
	if low >= 20 || high <= 20 {
		t.Errorf("γ 0.05: %d communities, γ 10: %d; want fewer and more than the 20 planted", low, high)
	}
}

// TestLeidenPhases checks each phase on its own: local moving settles,
// refinement splits communities into connected parts, and aggregation
// keeps modularity.
func TestLeidenPhases(t *testing.T) {
	g, _ := plantedGraph(2000, 20, 8000, 0.3, 13)
	a := adjacencyOf(g)
	s := newLeiden(len(g.Nodes), a.total, 1, 5)
	base := baseLevel(a)
	comm := singletons(base.size())
	s.moveNodes(base, comm)
	nComm := s.compact(comm)
	if q := s.quality(base, comm); q < 0.3 {
		t.Fatalf("local moving reached modularity %.3f only", q)
	}
	checkSettled(t, s, base, comm)

	ref := s.refine(base, comm)
	nRef := s.compact(ref)
	if nRef <= nComm || nRef >= base.size() {
		t.Fatalf("refinement: %d parts of %d communities of %d nodes", nRef, nComm, base.size())
	}
	for v := range ref {
		for _, u := range a.nbr[v] {
			if ref[u] == ref[v] && comm[u] != comm[v] {
				t.Fatalf("nodes %d and %d share a part but not a community", u, v)
			}
		}
	}
	checkCommunitiesConnected(t, g, ref)

	next := s.aggregate(base, ref, nRef)
	lifted := s.liftPartition(comm, ref, nRef)
	if q, want := s.quality(next, lifted), s.quality(base, comm); math.Abs(q-want) > 1e-9 {
		t.Fatalf("modularity %.6f on the aggregate; want %.6f as on the graph", q, want)
	}
	if q, want := s.quality(base, comm), Modularity(g, comm); math.Abs(q-want) > 1e-9 {
		t.Fatalf("quality %.6f; want Modularity's %.6f", q, want)
	}
}

// checkSettled fails if a node shares a community without linking to it,
// or if a second round of local moving still finds much to gain. (Fast
// local moving revisits only neighbours of moved nodes, so a node may miss
// what far-off moves did to a community's degree: it is not exactly node
// optimal.)
func checkSettled(t *testing.T, s *leiden, l *leidenLevel, comm []int) {
	t.Helper()
	size := map[int]int{}
	for _, c := range comm {
		size[c]++
	}
	for v, c := range comm {
		linked := false
		for _, u := range l.nbr[l.start[v]:l.start[v+1]] {
			linked = linked || comm[u] == c
		}
		if size[c] > 1 && !linked {
			t.Fatalf("node %d shares community %d with no neighbour", v, c)
		}
	}
	again := slices.Clone(comm)
	s.moveNodes(l, again)
	if gain := s.quality(l, again) - s.quality(l, comm); gain > 0.005 {
		t.Fatalf("a second round of local moving gains %.4f", gain)
	}
}

func BenchmarkLeiden(b *testing.B) {
	g, _ := plantedGraph(20000, 200, 60000, 0.3, 9)
	for b.Loop() {
		Leiden(g, LeidenOptions{Seed: 1})
	}
}
