package community

import (
	"math"
	"math/rand/v2"
	"slices"
)

// DualOptions tune dual-perception detection. The zero value means the
// defaults below.
type DualOptions struct {
	// Beta and Eta bound the initial k-means: k = min(max(2, ⌊n/β⌋), η).
	Beta, Eta int
	// Lambda weighs the semantic score against the structural one in
	// φ = S_r + λ·S_s.
	Lambda float64
	// Epsilon is the divergence under which two linked communities merge.
	Epsilon float64
	// Rounds of reassignment and merging at most.
	Rounds int
	// Dim is the size vectors are projected to before k-means.
	Dim  int
	Seed uint64
}

// The defaults. β and η are the paper's. λ and ε were chosen on the First
// Four Histories (see docs/architecture.md): with λ = 0.5 the link share
// decides where a node with links goes, and the cosine breaks ties and
// places what has few links; ε = 0.15 merges a pair only when their centres
// score the other community nearly as well as their own.
const (
	defaultBeta    = 10
	defaultEta     = 200
	defaultLambda  = 0.3
	defaultEpsilon = 0.15
	defaultRounds  = 6
	defaultDim     = 64
	defaultSeed    = 42
)

func (o DualOptions) withDefaults() DualOptions {
	if o.Beta <= 0 {
		o.Beta = defaultBeta
	}
	if o.Eta <= 0 {
		o.Eta = defaultEta
	}
	if o.Lambda == 0 {
		o.Lambda = defaultLambda
	}
	if o.Epsilon == 0 {
		o.Epsilon = defaultEpsilon
	}
	if o.Rounds <= 0 {
		o.Rounds = defaultRounds
	}
	if o.Dim <= 0 {
		o.Dim = defaultDim
	}
	if o.Seed == 0 {
		o.Seed = defaultSeed
	}
	return o
}

// Dual partitions g's nodes by dual perception (Youtu-GraphRAG §3.2) and
// returns each node's community, numbered 0, 1, … in the order of each
// community's first node.
//
//  1. Each node is represented by the mean of its triples [e_i ‖ r ‖ e_j]:
//     its own vector, the mix of its relation types, and the mean vector of
//     its neighbours, each part scaled to unit length.
//  2. k-means (k-means++ seeding) makes the initial communities.
//  3. Each round moves every node to the community, among its own and its
//     neighbours' (among all for a node without links), with the best
//     φ(e, C) = S_r + λ·S_s: S_r is the share of the node's incident
//     relations (by evidence) that join it to C, less the share C's size
//     alone would draw, and S_s the cosine of its vector to C's centroid. Then each community's
//     centre is its member of best φ, and two linked communities merge
//     when each centre scores the other community within ε of its own.
func Dual(g *Graph, opts DualOptions) []int {
	o := opts.withDefaults()
	n := len(g.Nodes)
	if n == 0 {
		return []int{}
	}
	adj := adjacencyOf(g)
	x := represent(g, adj, o)
	k := min(max(2, n/o.Beta), o.Eta, n)
	of := kmeans(x, k, o.Seed)
	d := &dual{adj: adj, x: x, lambda: o.Lambda}
	for range o.Rounds {
		d.reset(of)
		moved := d.reassign(of)
		merged := d.merge(of, o.Epsilon)
		if !moved && !merged {
			break
		}
	}
	return renumber(of)
}

// represent builds each node's vector, projected to o.Dim dimensions by
// a seeded random projection.
func represent(g *Graph, adj *adjacency, o DualOptions) [][]float32 {
	n := len(g.Nodes)
	dim := 0
	for _, nd := range g.Nodes {
		dim = max(dim, len(nd.Vector))
	}
	own := make([][]float32, n)
	for i, nd := range g.Nodes {
		v := make([]float32, dim)
		copy(v, nd.Vector)
		unit(v)
		own[i] = v
	}
	// Relation types, numbered in order of first use; a type read from
	// the head and from the tail are different parts of a profile.
	types := map[string]int{}
	type incident struct{ node, kind int }
	var inc []incident
	for _, e := range g.Edges {
		if e.A == e.B || e.A < 0 || e.B < 0 || e.A >= n || e.B >= n {
			continue
		}
		for _, end := range []struct {
			node int
			key  string
		}{{e.A, e.Relation + ">"}, {e.B, "<" + e.Relation}} {
			t, ok := types[end.key]
			if !ok {
				t = len(types)
				types[end.key] = t
			}
			inc = append(inc, incident{end.node, t})
		}
	}
	full := 2*dim + len(types)
	proj := projection(full, o.Dim, o.Seed)
	out := make([][]float32, n)
	profile := make([][]float32, n)
	for _, c := range inc {
		if profile[c.node] == nil {
			profile[c.node] = make([]float32, len(types))
		}
		profile[c.node][c.kind]++
	}
	row := make([]float32, full)
	for i := range n {
		clear(row)
		copy(row, own[i])
		if p := profile[i]; p != nil {
			copy(row[dim:], p)
			unit(row[dim : dim+len(types)])
		}
		nb := row[dim+len(types):]
		for k, j := range adj.nbr[i] {
			w := float32(adj.w[i][k])
			for t, v := range own[j] {
				nb[t] += w * v
			}
		}
		unit(nb)
		out[i] = project(row, proj, o.Dim)
		unit(out[i])
	}
	return out
}

// projection is a seeded Gaussian matrix, from × to, row-major.
func projection(from, to int, seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 0x70726f6a))
	m := make([]float32, from*to)
	for i := range m {
		m[i] = float32(r.NormFloat64())
	}
	return m
}

func project(v, m []float32, to int) []float32 {
	out := make([]float32, to)
	for i, x := range v {
		if x == 0 {
			continue
		}
		row := m[i*to : (i+1)*to]
		for k := range out {
			out[k] += x * row[k]
		}
	}
	return out
}

// unit scales v to length 1 in place (a zero vector stays zero).
func unit(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	f := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= f
	}
}

func dot(a, b []float32) float64 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return float64(s)
}

// kmeans clusters x into k groups: k-means++ seeding, then Lloyd's
// iterations until no point moves (at most 25).
func kmeans(x [][]float32, k int, seed uint64) []int {
	n, dim := len(x), len(x[0])
	r := rand.New(rand.NewPCG(seed, 0x6b6d65616e73))
	centres := make([][]float32, 0, k)
	dist := make([]float64, n)
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	pick := r.IntN(n)
	for len(centres) < k {
		c := slices.Clone(x[pick])
		centres = append(centres, c)
		total := 0.0
		for i, v := range x {
			dist[i] = min(dist[i], sqDist(v, c))
			total += dist[i]
		}
		if total == 0 {
			break // fewer distinct points than k
		}
		t := r.Float64() * total
		pick = n - 1
		for i, d := range dist {
			if t -= d; t <= 0 {
				pick = i
				break
			}
		}
	}
	of := make([]int, n)
	for i := range of {
		of[i] = -1
	}
	sums := make([][]float64, len(centres))
	counts := make([]int, len(centres))
	for range 25 {
		moved := false
		for i, v := range x {
			best, bd := 0, math.Inf(1)
			for c, cv := range centres {
				if d := sqDist(v, cv); d < bd {
					best, bd = c, d
				}
			}
			if of[i] != best {
				of[i], moved = best, true
			}
		}
		if !moved {
			break
		}
		for c := range centres {
			if sums[c] == nil {
				sums[c] = make([]float64, dim)
			}
			clear(sums[c])
			counts[c] = 0
		}
		for i, v := range x {
			s := sums[of[i]]
			for t, f := range v {
				s[t] += float64(f)
			}
			counts[of[i]]++
		}
		for c := range centres {
			if counts[c] == 0 {
				continue // an empty group keeps its centre
			}
			for t := range centres[c] {
				centres[c][t] = float32(sums[c][t] / float64(counts[c]))
			}
		}
	}
	return of
}

func sqDist(a, b []float32) float64 {
	var s float32
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return float64(s)
}

// dual holds what the refinement rounds keep per community: the sums of
// the members' vectors (for centroids) and their sizes.
type dual struct {
	adj    *adjacency
	x      [][]float32
	lambda float64
	sum    map[int][]float32
	size   map[int]int
	vol    map[int]float64 // members' weighted degrees
	// link is scratch: a node's link weight into each community.
	link map[int]float64
}

func (d *dual) reset(of []int) {
	d.sum, d.size, d.vol = map[int][]float32{}, map[int]int{}, map[int]float64{}
	for i, c := range of {
		d.add(i, c, 1)
	}
}

func (d *dual) add(i, c int, sign float32) {
	s := d.sum[c]
	if s == nil {
		s = make([]float32, len(d.x[i]))
		d.sum[c] = s
	}
	for t, v := range d.x[i] {
		s[t] += sign * v
	}
	d.size[c] += int(sign)
	d.vol[c] += float64(sign) * d.adj.degree[i]
}

// phi is φ(e_i, C): the share of i's link weight that goes into C, plus λ
// times the cosine of i's vector to C's centroid. self says i is counted
// in C's sums and is taken out for the cosine, so that a node is not
// pulled to a community by itself.
func (d *dual) phi(i, c int, links float64, self bool) float64 {
	// S_r is the overlap of i's incident relations with C's: the share of
	// i's link weight that joins it to C's other members, less the share
	// that C's size alone would draw (its part of all link weight), so
	// that a large community does not swallow its neighbours.
	sr := 0.0
	vol := d.vol[c]
	if self {
		vol -= d.adj.degree[i]
	}
	if deg := d.adj.degree[i]; deg > 0 {
		sr = links/deg - vol/(2*d.adj.total)
	}
	s := d.sum[c]
	if s == nil {
		return sr
	}
	var dp, nn float64
	for t, v := range s {
		if self {
			v -= d.x[i][t]
		}
		dp += float64(v) * float64(d.x[i][t])
		nn += float64(v) * float64(v)
	}
	ss := 0.0
	if nn > 0 {
		ss = dp / math.Sqrt(nn)
	}
	return sr + d.lambda*ss
}

// linksOf fills d.link with i's link weight into each community and
// returns the communities in order of first appearance.
func (d *dual) linksOf(i int, of []int) []int {
	if d.link == nil {
		d.link = map[int]float64{}
	}
	clear(d.link)
	var order []int
	for k, j := range d.adj.nbr[i] {
		c := of[j]
		if _, ok := d.link[c]; !ok {
			order = append(order, c)
		}
		d.link[c] += d.adj.w[i][k]
	}
	return order
}

// reassign moves each node, in order, to the community among its own and
// its neighbours' with the best φ. It says whether any node moved.
func (d *dual) reassign(of []int) bool {
	moved := false
	for i := range of {
		cands := d.linksOf(i, of)
		if len(cands) == 0 {
			// Nothing links the node anywhere: what is said of it
			// places it, among every community.
			cands = d.nonEmpty()
		}
		own := of[i]
		best, top := own, d.phi(i, own, d.link[own], true)
		for _, c := range cands {
			if c == own {
				continue
			}
			// A clear margin keeps nodes from swinging between equals.
			if p := d.phi(i, c, d.link[c], false); p > top+1e-9 {
				best, top = c, p
			}
		}
		if best != own {
			d.add(i, own, -1)
			d.add(i, best, 1)
			of[i], moved = best, true
		}
	}
	return moved
}

// nonEmpty lists the communities with members, in order.
func (d *dual) nonEmpty() []int {
	var out []int
	for c, n := range d.size {
		if n > 0 {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// merge finds each community's centre (its member of best φ), then joins
// linked communities whose centres score each other's community within ε
// of their own. It says whether any merged.
func (d *dual) merge(of []int, eps float64) bool {
	// The sums are current: reassign kept them so as it moved nodes.
	centre := map[int]int{}
	score := map[int]float64{}
	for i, c := range of {
		d.linksOf(i, of)
		p := d.phi(i, c, d.link[c], true)
		if cur, ok := centre[c]; !ok || p > score[c] || (p == score[c] && i < cur) {
			centre[c], score[c] = i, p
		}
	}
	// Pairs of communities that an edge joins, each once, in a set order.
	type pair struct{ a, b int }
	seen := map[pair]bool{}
	var pairs []pair
	for i, nb := range d.adj.nbr {
		for _, j := range nb {
			a, b := of[i], of[j]
			if a == b {
				continue
			}
			if a > b {
				a, b = b, a
			}
			if p := (pair{a, b}); !seen[p] {
				seen[p] = true
				pairs = append(pairs, p)
			}
		}
	}
	parent := map[int]int{}
	find := func(c int) int {
		for {
			p, ok := parent[c]
			if !ok || p == c {
				return c
			}
			c = p
		}
	}
	merged := false
	for _, p := range pairs {
		ca, cb := centre[p.a], centre[p.b]
		d.linksOf(ca, of)
		divA := score[p.a] - d.phi(ca, p.b, d.link[p.b], false)
		d.linksOf(cb, of)
		divB := score[p.b] - d.phi(cb, p.a, d.link[p.a], false)
		if divA < eps && divB < eps {
			ra, rb := find(p.a), find(p.b)
			if ra != rb {
				parent[max(ra, rb)] = min(ra, rb)
				merged = true
			}
		}
	}
	if merged {
		for i, c := range of {
			of[i] = find(c)
		}
	}
	return merged
}

// renumber numbers communities 0, 1, … in the order of their first node.
func renumber(of []int) []int {
	num := map[int]int{}
	out := make([]int, len(of))
	for i, c := range of {
		k, ok := num[c]
		if !ok {
			k = len(num)
			num[c] = k
		}
		out[i] = k
	}
	return out
}
