// Package community finds communities in the knowledge graph: groups of
// entities that belong together by their links and by what is said of
// them. Dual is the dual-perception method of Youtu-GraphRAG (§3.2):
// k-means over triple-context vectors, refined by a score that fuses the
// overlap of incident relation types with the cosine to the community's
// centroid. Leiden is the structural baseline. Both read a Graph and return
// one community number per node.
package community

// Graph is what detection reads: nodes with an optional vector, and
// undirected weighted edges that carry their relation type.
type Graph struct {
	Nodes []Node
	Edges []Edge
}

// Node is an entity.
type Node struct {
	ID     int64  // the entity's id in the workspace
	Name   string // for reports and tests
	Type   string // entity type
	Weight int    // mentions, for ranking members
	// Vector is what is said of the entity (the mean of its passages'
	// vectors); nil when unknown.
	Vector []float32
}

// Edge joins two nodes (indices into Nodes): A is the relation's head, B
// its tail, Relation its type.
type Edge struct {
	A, B     int
	Relation string
	Weight   float64 // evidence sentences; ≤ 0 counts as 1
	// RelationID and Years are for reports: the relation in the
	// workspace, and the years its evidence is dated to.
	RelationID int64
	Years      []int
}

// weight is an edge's weight for structural methods.
func (e Edge) weight() float64 {
	if e.Weight <= 0 {
		return 1
	}
	return e.Weight
}

// adjacency is the graph as neighbour lists with summed weights, self
// loops dropped: what Leiden and modularity read.
type adjacency struct {
	nbr    [][]int
	w      [][]float64
	degree []float64 // weighted degree
	total  float64   // sum of all edge weights (each edge once)
}

func adjacencyOf(g *Graph) *adjacency {
	n := len(g.Nodes)
	idx := make([]map[int]int, n)
	a := &adjacency{nbr: make([][]int, n), w: make([][]float64, n), degree: make([]float64, n)}
	add := func(x, y int, w float64) {
		if idx[x] == nil {
			idx[x] = map[int]int{}
		}
		if k, ok := idx[x][y]; ok {
			a.w[x][k] += w
			return
		}
		idx[x][y] = len(a.nbr[x])
		a.nbr[x] = append(a.nbr[x], y)
		a.w[x] = append(a.w[x], w)
	}
	for _, e := range g.Edges {
		if e.A == e.B || e.A < 0 || e.B < 0 || e.A >= n || e.B >= n {
			continue
		}
		w := e.weight()
		add(e.A, e.B, w)
		add(e.B, e.A, w)
		a.degree[e.A] += w
		a.degree[e.B] += w
		a.total += w
	}
	return a
}

// Modularity is Newman's modularity of a partition (of[i] is node i's
// community): the share of edge weight inside communities less what a
// random graph with the same degrees would put there. Self loops and
// malformed edges are ignored, as detection ignores them.
func Modularity(g *Graph, of []int) float64 {
	a := adjacencyOf(g)
	if a.total == 0 {
		return 0
	}
	m2 := 2 * a.total
	inside := map[int]float64{}
	degree := map[int]float64{}
	for i := range a.nbr {
		degree[of[i]] += a.degree[i]
		for k, j := range a.nbr[i] {
			if of[i] == of[j] {
				inside[of[i]] += a.w[i][k]
			}
		}
	}
	q := 0.0
	for c, d := range degree {
		q += inside[c]/m2 - (d/m2)*(d/m2)
	}
	return q
}
