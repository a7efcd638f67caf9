package ner

import (
	"cmp"
	"math"
	"slices"
)

// Clusters put each character of a corpus into one of a few hundred
// classes of characters met in like company: the same runes before and
// after them. The annotations show a tagger only some thousand characters
// often enough to weigh them; the class lets one seen rarely there (a
// given name, a place's last rune) borrow what its class taught. They are
// learned from raw text alone, so the whole corpus serves, not only the
// annotated sentences.
type Clusters map[rune]uint16

// ClusterOptions are how LearnClusters learns; zero fields take defaults.
type ClusterOptions struct {
	K        int // classes; 0 means 128
	Iters    int // k-means passes; 0 means 12
	MinCount int // a character seen less often has no class; 0 means 3
	Contexts int // neighbours told apart, the most frequent; 0 means 3000
}

// LearnClusters learns classes of the characters of texts by k-means over
// the positive pointwise mutual information of each character with the
// rune just before and just after it. The classes are started from the
// most frequent characters and every sum runs in a fixed order, so the
// same texts always give the same classes.
func LearnClusters(texts []string, o ClusterOptions) Clusters {
	o.K = cmp.Or(o.K, 128)
	o.Iters = cmp.Or(o.Iters, 12)
	o.MinCount = cmp.Or(o.MinCount, 3)
	o.Contexts = cmp.Or(o.Contexts, 3000)

	count := map[rune]int{}
	for _, t := range texts {
		for _, r := range t {
			count[r]++
		}
	}
	byCount := make([]rune, 0, len(count))
	for r := range count {
		byCount = append(byCount, r)
	}
	slices.SortFunc(byCount, func(a, b rune) int {
		return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(a, b))
	})
	// Context ids: the most frequent runes, then one for every other rune
	// and one for the edge of a text; left and right contexts apart.
	other := o.Contexts
	side := other + 1
	ctx := map[rune]int{}
	for i, r := range byCount[:min(o.Contexts, len(byCount))] {
		ctx[r] = i
	}
	ctxOf := func(rs []rune, i int) int {
		if i < 0 || i >= len(rs) {
			return other
		}
		if c, ok := ctx[rs[i]]; ok {
			return c
		}
		return other
	}
	vocab := map[rune]int{}
	var chars []rune
	for _, r := range byCount {
		if count[r] >= o.MinCount {
			vocab[r] = len(chars)
			chars = append(chars, r)
		}
	}
	if len(chars) == 0 {
		return Clusters{}
	}
	pairs := make([]map[int]float64, len(chars))
	for i := range pairs {
		pairs[i] = map[int]float64{}
	}
	for _, t := range texts {
		rs := []rune(t)
		for i, r := range rs {
			if v, ok := vocab[r]; ok {
				pairs[v][ctxOf(rs, i-1)]++
				pairs[v][side+ctxOf(rs, i+1)]++
			}
		}
	}

	// Each character's row, sorted by context so that sums are ordered.
	type cell struct {
		c int
		x float64
	}
	rows := make([][]cell, len(chars))
	colSum := make([]float64, 2*side)
	rowSum := make([]float64, len(chars))
	total := 0.0
	for v, m := range pairs {
		row := make([]cell, 0, len(m))
		for c, x := range m {
			row = append(row, cell{c, x})
		}
		slices.SortFunc(row, func(a, b cell) int { return cmp.Compare(a.c, b.c) })
		for _, e := range row {
			colSum[e.c] += e.x
			rowSum[v] += e.x
			total += e.x
		}
		rows[v] = row
	}
	pairs = nil
	// PPMI with the contexts' counts smoothed (^0.75), as for word vectors,
	// so that rare neighbours do not dominate; rows of unit length.
	smooth := 0.0
	for _, s := range colSum {
		smooth += math.Pow(s, 0.75)
	}
	for v, row := range rows {
		kept := row[:0]
		norm := 0.0
		for _, e := range row {
			pmi := math.Log(e.x / rowSum[v] / (math.Pow(colSum[e.c], 0.75) / smooth))
			if pmi > 0 {
				kept = append(kept, cell{e.c, pmi})
				norm += pmi * pmi
			}
		}
		norm = math.Sqrt(norm)
		for i := range kept {
			kept[i].x /= norm
		}
		rows[v] = kept
	}

	k := min(o.K, len(chars))
	centres := make([][]float64, k)
	for j := range centres {
		centres[j] = make([]float64, 2*side)
		for _, e := range rows[j] {
			centres[j][e.c] = e.x
		}
	}
	class := make([]int, len(chars))
	for range o.Iters {
		for v, row := range rows {
			best, bestSim := 0, math.Inf(-1)
			for j, c := range centres {
				sim := 0.0
				for _, e := range row {
					sim += e.x * c[e.c]
				}
				if sim > bestSim {
					best, bestSim = j, sim
				}
			}
			class[v] = best
		}
		for _, c := range centres {
			clear(c)
		}
		for v, row := range rows {
			c := centres[class[v]]
			for _, e := range row {
				c[e.c] += e.x
			}
		}
		for _, c := range centres {
			norm := 0.0
			for _, x := range c {
				norm += x * x
			}
			if norm = math.Sqrt(norm); norm > 0 {
				for i := range c {
					c[i] /= norm
				}
			}
		}
	}
	out := make(Clusters, len(chars))
	for v, r := range chars {
		out[r] = uint16(class[v] + 1) // 0 is "no class"
	}
	return out
}
