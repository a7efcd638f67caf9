package community

import (
	"math"
	"math/rand/v2"
	"slices"
)

// LeidenOptions tune Leiden.
type LeidenOptions struct {
	Resolution float64 // γ of the modularity quality function; 0 means 1
	Seed       uint64  // seeds the random order of node visits and the refinement's random choices
	MaxLevels  int     // aggregation levels at most; 0 means until nothing moves
}

// leidenTheta is θ, the refinement's randomness: a merge is chosen with
// probability ∝ exp(ΔQ/θ), ΔQ being the change of modularity itself.
const leidenTheta = 0.01

// leidenMaxStalls bounds how many refinements in a row may merge nothing before
// Leiden stops aggregating; each retry draws a new random order.
const leidenMaxStalls = 16

// Passes over the whole hierarchy stop once one raises modularity by less
// than leidenMinGain (later passes polish only a little), or after
// leidenMaxPasses.
const (
	leidenMinGain   = 1e-4
	leidenMaxPasses = 20
)

// leidenStream is the second PCG word, fixed so that Seed alone decides.
const leidenStream = 0x9e3779b97f4a7c15

// Leiden partitions g's nodes by modularity with the Leiden algorithm and
// returns each node's community, numbered 0, 1, … in the order of each
// community's first node.
func Leiden(g *Graph, opts LeidenOptions) []int {
	a := adjacencyOf(g)
	n := len(g.Nodes)
	if a.total == 0 {
		return singletons(n) // nothing links nodes: each is alone
	}
	gamma := opts.Resolution
	if gamma == 0 {
		gamma = 1
	}
	s := newLeiden(n, a.total, gamma, opts.Seed)
	base := baseLevel(a)
	best, bestQ := singletons(n), math.Inf(-1)
	budget := opts.MaxLevels
	// Each iteration starts from the best partition so far; the paper
	// iterates so, since one pass can leave nodes in sub-communities that
	// the refinement picked at random.
	for range leidenMaxPasses {
		out, levels, complete := s.run(base, slices.Clone(best), budget)
		if complete {
			s.compact(out)
		} else {
			// Stopped before the refined partition settled: communities
			// of the unrefined partition may be disconnected, and
			// splitting them can only raise modularity.
			out = splitDisconnected(a, out)
		}
		q := s.quality(base, out)
		if q <= bestQ {
			break
		}
		gain := q - bestQ
		best, bestQ = out, q
		if gain < leidenMinGain {
			break
		}
		if budget > 0 {
			if budget -= levels; budget <= 0 {
				break
			}
		}
		if !complete {
			break
		}
	}
	return best
}

// quality is the modularity of comm (ids below l.size()) at resolution γ.
func (s *leiden) quality(l *leidenLevel, comm []int) float64 {
	sigma := s.sigma[:l.size()]
	clear(sigma)
	inside := 0.0
	for v, c := range comm {
		sigma[c] += l.k[v]
		inside += l.self[v] + s.weightInside(l, comm, v)
	}
	expected := 0.0
	for _, k := range sigma {
		expected += k * k * s.scale
	}
	return (inside - expected) * s.invM / 2
}

// leidenLevel is one graph of the hierarchy: the input, then each aggregate.
// Neighbour lists are flat (CSR) so that scans touch contiguous memory.
type leidenLevel struct {
	start []int     // node v's neighbours are nbr[start[v]:start[v+1]]
	nbr   []int     // neighbour node, self loops excluded
	w     []float64 // summed edge weight to that neighbour
	k     []float64 // weighted degree, counting edges folded into the node
	self  []float64 // weight of the edges folded into the node, counted twice
}

func (l *leidenLevel) size() int { return len(l.k) }

// baseLevel flattens the input adjacency.
func baseLevel(a *adjacency) *leidenLevel {
	n := len(a.nbr)
	l := &leidenLevel{
		start: make([]int, n+1),
		k:     append([]float64(nil), a.degree...),
		self:  make([]float64, n),
	}
	for v := range n {
		l.nbr = append(l.nbr, a.nbr[v]...)
		l.w = append(l.w, a.w[v]...)
		l.start[v+1] = len(l.nbr)
	}
	return l
}

// leiden holds one run's constants and scratch space. Every slice is sized
// for the input graph and reused, resliced, by the smaller aggregates.
type leiden struct {
	scale float64 // γ/2m: k_i·Σ_C·scale is the weight chance puts between i and C
	invM  float64 // 1/m: turns a weight gain into a modularity gain
	rng   *rand.Rand

	weightTo []float64 // weight from the current node to each community; 0 when untouched
	touched  []int     // communities with weightTo set, in the order first met
	sigma    []float64 // total degree of each community
	members  []int     // member count of each community
	empty    []int     // communities with no member, for moves to a new community
	queue    []int     // ring of nodes to visit
	queued   []bool
	order    []int // random visit order
	remap    []int // old id → compact id, −1 when unseen
	seen     []int // old ids in order of first appearance

	inside  []float64 // weight from a node to the rest of its community
	subK    []float64 // total degree of each sub-community
	subOut  []float64 // weight from a sub-community to the rest of its community
	subSize []int
	picks   []int     // candidate sub-communities of a merge
	odds    []float64 // their cumulative odds
}

func newLeiden(n int, total, gamma float64, seed uint64) *leiden {
	s := &leiden{
		scale:    gamma / (2 * total),
		invM:     1 / total,
		rng:      rand.New(rand.NewPCG(seed, leidenStream)),
		weightTo: make([]float64, n),
		sigma:    make([]float64, n),
		members:  make([]int, n),
		queue:    make([]int, n),
		queued:   make([]bool, n),
		order:    make([]int, n),
		remap:    make([]int, n),
		inside:   make([]float64, n),
		subK:     make([]float64, n),
		subOut:   make([]float64, n),
		subSize:  make([]int, n),
	}
	for i := range s.remap {
		s.remap[i] = -1
	}
	return s
}

// run builds the hierarchy from a starting partition comm of l's nodes and
// returns each node's community and how many aggregation levels it built.
// complete is false when it stopped early (maxLevels, or refinements that
// kept merging nothing), so that the result is the unrefined partition.
func (s *leiden) run(l *leidenLevel, comm []int, maxLevels int) (out []int, levels int, complete bool) {
	nodeOf := singletons(l.size()) // input node → node of the current level
	stalls := 0
	for {
		s.moveNodes(l, comm)
		if s.compact(comm) == l.size() {
			// Nothing grouped: comm is the previous level's refined
			// partition, whose communities are connected.
			return flattenLevels(nodeOf, comm), levels, true
		}
		if maxLevels > 0 && levels == maxLevels {
			return flattenLevels(nodeOf, comm), levels, false
		}
		ref := s.refine(l, comm)
		nRef := s.compact(ref)
		if nRef == l.size() {
			// Aggregating would change nothing; retry with new draws.
			if stalls++; stalls == leidenMaxStalls {
				return flattenLevels(nodeOf, comm), levels, false
			}
			continue
		}
		stalls = 0
		next := s.aggregate(l, ref, nRef)
		comm = s.liftPartition(comm, ref, nRef)
		for i, v := range nodeOf {
			nodeOf[i] = ref[v]
		}
		l = next
		levels++
	}
}

// moveNodes is the fast local moving phase: every node is visited once in
// random order, and afterwards only neighbours of nodes that moved, until
// no move raises modularity. comm must hold ids below l.size().
func (s *leiden) moveNodes(l *leidenLevel, comm []int) {
	n := l.size()
	sigma, members := s.sigma[:n], s.members[:n]
	clear(sigma)
	clear(members)
	for v, c := range comm {
		sigma[c] += l.k[v]
		members[c]++
	}
	s.empty = s.empty[:0]
	for c := n - 1; c >= 0; c-- {
		if members[c] == 0 {
			s.empty = append(s.empty, c)
		}
	}
	queue, queued := s.queue[:n], s.queued[:n]
	copy(queue, s.shuffled(n))
	for v := range queued {
		queued[v] = true
	}
	head, count := 0, n
	for count > 0 {
		v := queue[head]
		head, count = (head+1)%n, count-1
		queued[v] = false
		cur := comm[v]
		if best := s.bestMove(l, comm, v); best != cur {
			for _, u := range l.nbr[l.start[v]:l.start[v+1]] {
				if !queued[u] && comm[u] != best {
					queue[(head+count)%n] = u
					count++
					queued[u] = true
				}
			}
		}
	}
}

// bestMove takes v out of its community, puts it where modularity gains
// most (staying on ties) and returns that community.
func (s *leiden) bestMove(l *leidenLevel, comm []int, v int) int {
	kv, cur := l.k[v], comm[v]
	s.sigma[cur] -= kv
	s.members[cur]--
	s.gatherWeights(l, v, comm)
	// Each gain is k_v,C − γ·k_v·Σ_C/2m with v out of every community;
	// a new, empty community gains 0.
	kScaled := kv * s.scale
	eps := 1e-12 * kv // rounding must not make v hop between equals
	best, bestGain := cur, s.weightTo[cur]-kScaled*s.sigma[cur]
	for _, c := range s.touched {
		if gain := s.weightTo[c] - kScaled*s.sigma[c]; gain > bestGain+eps {
			best, bestGain = c, gain
		}
	}
	s.resetWeights()
	if bestGain < -eps && s.members[cur] > 0 {
		best = s.empty[len(s.empty)-1]
		s.empty = s.empty[:len(s.empty)-1]
	}
	s.sigma[best] += kv
	s.members[best]++
	comm[v] = best
	if best != cur && s.members[cur] == 0 {
		s.empty = append(s.empty, cur)
	}
	return best
}

// gatherWeights sums v's edge weight to each community of part.
func (s *leiden) gatherWeights(l *leidenLevel, v int, part []int) {
	for e := l.start[v]; e < l.start[v+1]; e++ {
		c := part[l.nbr[e]]
		if s.weightTo[c] == 0 { // weights are positive, so 0 means untouched
			s.touched = append(s.touched, c)
		}
		s.weightTo[c] += l.w[e]
	}
}

func (s *leiden) resetWeights() {
	for _, c := range s.touched {
		s.weightTo[c] = 0
	}
	s.touched = s.touched[:0]
}

// refine splits each community of comm into well-connected
// sub-communities: nodes start alone, and a node still alone may join a
// well-connected sub-community of its own community, chosen at random
// among the merges that do not lower modularity. Sub-community ids are
// node ids; the caller compacts them.
func (s *leiden) refine(l *leidenLevel, comm []int) []int {
	n := l.size()
	sigma := s.sigma[:n]
	clear(sigma)
	for v, c := range comm {
		sigma[c] += l.k[v]
	}
	sub := singletons(n)
	for v := range n {
		s.inside[v] = s.weightInside(l, comm, v)
		s.subK[v], s.subOut[v], s.subSize[v] = l.k[v], s.inside[v], 1
	}
	for _, v := range s.shuffled(n) {
		if s.subSize[sub[v]] != 1 || !s.wellConnected(s.inside[v], l.k[v], sigma[comm[v]]) {
			continue
		}
		if t, w := s.pickSubcommunity(l, comm, sub, v); t != sub[v] {
			s.join(sub, v, t, l.k[v], w)
		}
	}
	return sub
}

// weightInside is the weight from v to the rest of its community.
func (s *leiden) weightInside(l *leidenLevel, comm []int, v int) float64 {
	w := 0.0
	for e := l.start[v]; e < l.start[v+1]; e++ {
		if comm[l.nbr[e]] == comm[v] {
			w += l.w[e]
		}
	}
	return w
}

// wellConnected says whether a set of total degree k, with weight out to
// the rest of its community of total degree sigma, is linked to that rest
// at least as much as chance would link it.
func (s *leiden) wellConnected(out, k, sigma float64) bool {
	return out >= k*(sigma-k)*s.scale
}

// pickSubcommunity draws where v goes: its own singleton (gain 0) or a
// neighbouring well-connected sub-community of its community, with
// probability ∝ exp(ΔQ/θ) among those with ΔQ ≥ 0. It returns the choice
// and v's edge weight to it.
func (s *leiden) pickSubcommunity(l *leidenLevel, comm, sub []int, v int) (int, float64) {
	own, c, kv := sub[v], comm[v], l.k[v]
	s.picks, s.odds = append(s.picks[:0], own), append(s.odds[:0], 0)
	for e := l.start[v]; e < l.start[v+1]; e++ {
		u := l.nbr[e]
		if comm[u] != c {
			continue
		}
		t := sub[u]
		if s.weightTo[t] == 0 {
			s.touched = append(s.touched, t)
		}
		s.weightTo[t] += l.w[e]
	}
	sigma, top := s.sigma[c], 0.0
	for _, t := range s.touched {
		if !s.wellConnected(s.subOut[t], s.subK[t], sigma) {
			continue
		}
		if gain := (s.weightTo[t] - kv*s.subK[t]*s.scale) * s.invM; gain >= 0 {
			s.picks, s.odds = append(s.picks, t), append(s.odds, gain)
			top = max(top, gain)
		}
	}
	t := s.draw(top)
	w := s.weightTo[t]
	s.resetWeights()
	return t, w
}

// draw picks one of s.picks with odds exp((gain−top)/θ); subtracting the
// top gain keeps exp from overflowing.
func (s *leiden) draw(top float64) int {
	total := 0.0
	for i, gain := range s.odds {
		total += math.Exp((gain - top) / leidenTheta)
		s.odds[i] = total
	}
	r := s.rng.Float64() * total
	for i, cum := range s.odds {
		if r < cum {
			return s.picks[i]
		}
	}
	return s.picks[len(s.picks)-1]
}

// join moves singleton v, of degree kv and with edge weight w to t, into
// sub-community t.
func (s *leiden) join(sub []int, v, t int, kv, w float64) {
	s.subSize[sub[v]] = 0
	s.subSize[t]++
	s.subK[t] += kv
	s.subOut[t] += s.inside[v] - 2*w // v's links to t turn inward
	sub[v] = t
}

// aggregate folds each refined community (ids below nRef) into one node.
func (s *leiden) aggregate(l *leidenLevel, ref []int, nRef int) *leidenLevel {
	first, members := groupByID(ref, nRef)
	next := &leidenLevel{
		start: make([]int, nRef+1),
		nbr:   make([]int, 0, len(l.nbr)), // folding only removes edges
		w:     make([]float64, 0, len(l.w)),
		k:     make([]float64, nRef),
		self:  make([]float64, nRef),
	}
	for c := range nRef {
		for _, v := range members[first[c]:first[c+1]] {
			next.k[c] += l.k[v]
			next.self[c] += l.self[v]
			s.gatherWeights(l, v, ref)
		}
		for _, t := range s.touched {
			if t == c {
				next.self[c] += s.weightTo[t] // moves ignore it; quality does not
				continue
			}
			next.nbr = append(next.nbr, t)
			next.w = append(next.w, s.weightTo[t])
		}
		s.resetWeights()
		next.start[c+1] = len(next.nbr)
	}
	return next
}

// liftPartition gives each aggregate node the (unrefined) community of its
// members: the starting partition of the next level.
func (s *leiden) liftPartition(comm, ref []int, nRef int) []int {
	lifted := make([]int, nRef)
	for v, c := range ref {
		lifted[c] = comm[v] // refinement never crosses communities
	}
	s.compact(lifted)
	return lifted
}

// groupByID lists the indices with each id (ids below n), by counting sort:
// id c's indices are members[first[c]:first[c+1]], in increasing order.
func groupByID(ids []int, n int) (first, members []int) {
	first = make([]int, n+1)
	for _, c := range ids {
		first[c+1]++
	}
	for c := range n {
		first[c+1] += first[c]
	}
	members = make([]int, len(ids))
	fill := append([]int(nil), first[:n]...)
	for v, c := range ids {
		members[fill[c]] = v
		fill[c]++
	}
	return first, members
}

// shuffled returns 0…n−1 in random order, in reused space.
func (s *leiden) shuffled(n int) []int {
	order := s.order[:n]
	for i := range order {
		order[i] = i
	}
	s.rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
	return order
}

// compact renumbers ids in place to 0, 1, … in order of first appearance
// and returns how many there are.
func (s *leiden) compact(ids []int) int {
	seen := s.seen[:0]
	for _, c := range ids {
		if s.remap[c] < 0 {
			s.remap[c] = len(seen)
			seen = append(seen, c)
		}
	}
	for i, c := range ids {
		ids[i] = s.remap[c]
	}
	for _, c := range seen {
		s.remap[c] = -1 // ready for the next call
	}
	s.seen = seen
	return len(seen)
}

// flattenLevels gives each input node the community of its node at the
// current level.
func flattenLevels(nodeOf, comm []int) []int {
	out := make([]int, len(nodeOf))
	for i, v := range nodeOf {
		out[i] = comm[v]
	}
	return out
}

// splitDisconnected numbers the connected parts of each community of of,
// in order of each part's first node.
func splitDisconnected(a *adjacency, of []int) []int {
	part := make([]int, len(of))
	for i := range part {
		part[i] = -1
	}
	next := 0
	var stack []int
	for root := range of {
		if part[root] >= 0 {
			continue
		}
		part[root] = next
		stack = append(stack[:0], root)
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, u := range a.nbr[v] {
				if part[u] < 0 && of[u] == of[v] {
					part[u] = next
					stack = append(stack, u)
				}
			}
		}
		next++
	}
	return part
}

func singletons(n int) []int {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	return ids
}
