package index

import (
	"math"
	"slices"
)

// Memory is an inverted index of chunks held in memory for BM25 ranking:
// built once from the chunks' texts (the terms the lexical index stores),
// then queried in microseconds where the full-text index takes
// milliseconds. Scores follow FTS5's bm25(): k1 = 1.2, b = 0.75,
// idf = ln((N − n + 0.5) / (n + 0.5)), at least 1e-6.
type Memory struct {
	ids   []int64 // chunk id by position
	lens  []int32 // terms per chunk
	total int64   // terms over all chunks
	index map[string]int32
	post  [][]posting
	count map[string]int32 // a chunk's term counts, reused while adding
}

type posting struct {
	doc int32
	tf  int32
}

// Hit is a chunk and its BM25 score (higher is better).
type Hit struct {
	ID    int64
	Score float64
}

// NewMemory makes an empty index.
func NewMemory() *Memory {
	return &Memory{index: map[string]int32{}, count: map[string]int32{}}
}

// Add indexes a chunk's text.
func (m *Memory) Add(id int64, text string) {
	doc := int32(len(m.ids))
	m.ids = append(m.ids, id)
	clear(m.count)
	n := int32(0)
	sc := newScanner(text)
	for {
		t, ok := sc.next()
		if !ok {
			break
		}
		m.count[t]++
		n++
	}
	m.lens = append(m.lens, n)
	m.total += int64(n)
	for t, tf := range m.count {
		k, ok := m.index[t]
		if !ok {
			k = int32(len(m.post))
			m.index[t] = k
			m.post = append(m.post, nil)
		}
		m.post[k] = append(m.post[k], posting{doc, tf})
	}
}

// Len is the number of chunks indexed.
func (m *Memory) Len() int { return len(m.ids) }

// BM25 parameters, as FTS5 has them.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// IDF is BM25's inverse document frequency of a term that df of n chunks
// hold, at least 1e-6 as in FTS5.
func IDF(n, df int) float64 {
	idf := math.Log((float64(n) - float64(df) + 0.5) / (float64(df) + 0.5))
	if idf <= 0 {
		return 1e-6
	}
	return idf
}

// TermScore is what a term of inverse frequency idf, found tf times in a
// chunk of dl terms, adds to the chunk's BM25 score, where chunks have
// avgLen terms on average.
func TermScore(idf float64, tf, dl int, avgLen float64) float64 {
	t := float64(tf)
	return idf * t * (bm25K1 + 1) / (t + bm25K1*(1-bm25B+bm25B*float64(dl)/avgLen))
}

// Search ranks the chunks holding any of the terms by BM25 over all of
// them, best first; equal scores go to the lower chunk id.
func (m *Memory) Search(terms []string, limit int) []Hit {
	if len(m.ids) == 0 || limit <= 0 {
		return nil
	}
	n := float64(len(m.ids))
	avg := float64(m.total) / n
	scores := make([]float64, len(m.ids))
	var touched []int32
	seen := map[string]bool{}
	for _, t := range terms {
		k, ok := m.index[t]
		if !ok || seen[t] {
			continue
		}
		seen[t] = true
		ps := m.post[k]
		idf := IDF(len(m.ids), len(ps))
		for _, p := range ps {
			if scores[p.doc] == 0 {
				touched = append(touched, p.doc)
			}
			scores[p.doc] += TermScore(idf, int(p.tf), int(m.lens[p.doc]), avg)
		}
	}
	better := func(a, b Hit) bool { return a.Score > b.Score || a.Score == b.Score && a.ID < b.ID }
	// The best limit, kept in order as they come: far cheaper than
	// sorting every chunk a common term is in.
	hits := make([]Hit, 0, limit+1)
	for _, d := range touched {
		h := Hit{m.ids[d], scores[d]}
		if len(hits) == limit && !better(h, hits[limit-1]) {
			continue
		}
		i, _ := slices.BinarySearchFunc(hits, h, func(x, y Hit) int {
			if better(x, y) {
				return -1
			}
			return 1
		})
		hits = slices.Insert(hits, i, h)
		if len(hits) > limit {
			hits = hits[:limit]
		}
	}
	return hits
}
