package embed

import (
	"fmt"
	"slices"
)

// Hit is one search result: the position of a vector and its score.
type Hit struct {
	Index int
	Score float32
}

// TopK returns the k vectors with the highest dot product with query, best
// first; ties go to the lower index. For the unit vectors every Embedder
// returns the score is the cosine. The search is exact. Vectors whose length
// differs from the query's, and NaN scores, are skipped.
func TopK(query []float32, vectors [][]float32, k int) []Hit {
	if k <= 0 || len(query) == 0 {
		return nil
	}
	if k > len(vectors) {
		k = len(vectors)
	}
	score := func(v []float32) float32 { return dot(query, v) }
	// A short text's hashed features fill few dimensions: multiplying
	// through the runs of non-zero ones only is much quicker.
	if n := countNonZero(query); n*3 < len(query)*2 {
		runs := nonZeroRuns(query)
		score = func(v []float32) float32 { return runsDot(runs, query, v) }
	}
	var b best
	b.h = make([]Hit, 0, k)
	for i, v := range vectors {
		if len(v) == len(query) {
			b.offer(Hit{i, score(v)}, k)
		}
	}
	slices.SortFunc(b.h, compareHits)
	return b.h
}

// best keeps the k best hits offered: a min-heap whose root is the one to
// beat, so most hits cost one comparison.
type best struct{ h []Hit }

func (b *best) offer(hit Hit, k int) {
	if hit.Score != hit.Score { // NaN
		return
	}
	if len(b.h) < k {
		b.h = append(b.h, hit)
		siftUp(b.h, len(b.h)-1)
		return
	}
	if hit.Score > b.h[0].Score {
		b.h[0] = hit
		siftDown(b.h, 0)
	}
}

// Matrix holds vectors of one length by dimension, for searching many
// times: a query's score for every vector is built dimension by dimension,
// skipping the query's zeros, and each dimension is read in one sweep
// rather than a piece of every vector.
type Matrix struct {
	n, dim int
	cols   []float32 // dimension j of vector i at j*n+i
}

// NewMatrix copies vectors, all of length dim, into a Matrix.
func NewMatrix(vectors [][]float32, dim int) (*Matrix, error) {
	m := &Matrix{n: len(vectors), dim: dim, cols: make([]float32, len(vectors)*dim)}
	for i, v := range vectors {
		if len(v) != dim {
			return nil, fmt.Errorf("embed: vector %d has %d dimensions, not %d", i, len(v), dim)
		}
		for j, x := range v {
			m.cols[j*m.n+i] = x
		}
	}
	return m, nil
}

// NewMatrixFunc makes a Matrix of n vectors of length dim, calling fill
// for each in order with a slice to write it into: no copy of all the
// vectors is held beside the matrix.
func NewMatrixFunc(n, dim int, fill func(i int, v []float32) error) (*Matrix, error) {
	m := &Matrix{n: n, dim: dim, cols: make([]float32, n*dim)}
	v := make([]float32, dim)
	for i := range n {
		clear(v)
		if err := fill(i, v); err != nil {
			return nil, err
		}
		for j, x := range v {
			m.cols[j*n+i] = x
		}
	}
	return m, nil
}

// Len is the number of vectors.
func (m *Matrix) Len() int { return m.n }

// TopK is TopK over the matrix's vectors.
func (m *Matrix) TopK(query []float32, k int) []Hit {
	if k <= 0 || len(query) != m.dim || m.n == 0 {
		return nil
	}
	k = min(k, m.n)
	scores := make([]float32, m.n)
	for j, x := range query {
		if x != 0 {
			axpy(x, m.cols[j*m.n:(j+1)*m.n], scores)
		}
	}
	var b best
	b.h = make([]Hit, 0, k)
	for i, s := range scores {
		b.offer(Hit{i, s}, k)
	}
	slices.SortFunc(b.h, compareHits)
	return b.h
}

func compareHits(a, b Hit) int {
	if better(a, b) {
		return -1
	}
	if better(b, a) {
		return 1
	}
	return 0
}

// better orders hits best first, the lower index first on equal scores.
func better(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.Index < b.Index
}

// The heap keeps the worst hit at the root.
func siftUp(h []Hit, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !better(h[p], h[i]) {
			break
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func siftDown(h []Hit, i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		w := l
		if r := l + 1; r < len(h) && better(h[l], h[r]) {
			w = r
		}
		if !better(h[i], h[w]) {
			return
		}
		h[i], h[w] = h[w], h[i]
		i = w
	}
}

func countNonZero(v []float32) int {
	n := 0
	for _, x := range v {
		if x != 0 {
			n++
		}
	}
	return n
}

// span is a run [start, end) of dimensions.
type span struct{ start, end int }

// nonZeroRuns lists the runs of consecutive non-zero entries of v.
func nonZeroRuns(v []float32) []span {
	var runs []span
	for i := 0; i < len(v); i++ {
		if v[i] == 0 {
			continue
		}
		j := i + 1
		for j < len(v) && v[j] != 0 {
			j++
		}
		runs = append(runs, span{i, j})
		i = j
	}
	return runs
}

// runsDot is the dot product of q and v over the runs only.
func runsDot(runs []span, q, v []float32) float32 {
	v = v[:len(q)]
	var s float32
	for _, r := range runs {
		if r.end-r.start == 1 {
			s += q[r.start] * v[r.start]
			continue
		}
		s += dot(q[r.start:r.end], v[r.start:r.end])
	}
	return s
}
