package embed

import "slices"

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
	// A min-heap of the best k so far: the root is the one to beat, so
	// most vectors cost one comparison after their dot product.
	h := make([]Hit, 0, k)
	for i, v := range vectors {
		if len(v) != len(query) {
			continue
		}
		s := dot(query, v)
		if s != s {
			continue
		}
		if len(h) < k {
			h = append(h, Hit{i, s})
			siftUp(h, len(h)-1)
			continue
		}
		if s > h[0].Score {
			h[0] = Hit{i, s}
			siftDown(h, 0)
		}
	}
	slices.SortFunc(h, compareHits)
	return h
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
