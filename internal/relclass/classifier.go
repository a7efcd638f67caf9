// Package relclass is a learned relation classifier: for each pair of
// names in a sentence, an averaged perceptron over the runes between and
// around them, the names' types, their order and distance decides which
// relation of the schema the sentence states between them, in which
// direction, or none. It is trained on the project's annotated relations
// and adds to what the formula rules read.
package relclass

import (
	"github.com/annals-project/annals/internal/featurehash"
	"math/rand/v2"
	"slices"

	"github.com/annals-project/annals/internal/schema"
)

// Name is a name in a sentence: runes [Start, End) and its entity type.
type Name struct {
	Start, End int
	Type       string
}

// Link is a relation between two names of a sentence, by index.
type Link struct {
	Head, Tail int
	Type       string
}

// Classifier reads relations between the names of a sentence.
type Classifier struct {
	Types     []string // entity types; code i+1 is Types[i], 0 any other
	Relations []string // label 1+2i: Relations[i] from the first name to the second; 2+2i the other way
	// weights are each feature's non-zero weights, by label.
	weights *featurehash.Sparse
	allow   map[[2]int][]int // labels the schema allows between two type codes, in order
}

// labels is how many labels there are, none included.
func (c *Classifier) labels() int { return 1 + 2*len(c.Relations) }

func (c *Classifier) typeCode(t string) int {
	return slices.Index(c.Types, t) + 1
}

// label names label l: its relation and whether the first name is the head.
func (c *Classifier) label(l int) (rel string, forward bool) {
	return c.Relations[(l-1)/2], (l-1)%2 == 0
}

// buildAllow works out, for every pair of types, the labels sch allows.
func (c *Classifier) buildAllow(sch *schema.Schema) {
	c.allow = map[[2]int][]int{}
	for i, a := range c.Types {
		for j, b := range c.Types {
			var ls []int
			for r, rel := range c.Relations {
				if sch.Allows(a, rel, b) {
					ls = append(ls, 1+2*r)
				}
				if sch.Allows(b, rel, a) {
					ls = append(ls, 2+2*r)
				}
			}
			if len(ls) > 0 {
				c.allow[[2]int{i + 1, j + 1}] = ls
			}
		}
	}
}

// pair is a candidate pair of names and its features.
type pair struct {
	a, b  int
	feats []uint64
	allow []int
}

// pairs lists the pairs of names the classifier reads: no more than
// MaxGap runes apart, with a relation the schema allows between them.
func (c *Classifier) pairs(rs []rune, ns []Name) []pair {
	names := make([]name, len(ns))
	for i, n := range ns {
		names[i] = name{n.Start, n.End, c.typeCode(n.Type)}
	}
	order := make([]int, len(ns))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return ns[x].Start - ns[y].Start })
	sorted := make([]name, len(ns))
	for i, k := range order {
		sorted[i] = names[k]
	}
	person := c.typeCode("人物")
	var out []pair
	for i := range sorted {
		for j := i + 1; j < len(sorted); j++ {
			if sorted[j].start < sorted[i].end {
				continue // overlapping names are not a pair
			}
			if sorted[j].start-sorted[i].end > MaxGap {
				break
			}
			ls := c.allow[[2]int{sorted[i].typ, sorted[j].typ}]
			if len(ls) == 0 {
				continue
			}
			out = append(out, pair{a: order[i], b: order[j], allow: ls, feats: pairFeatures(rs, sorted, i, j, person, nil)})
		}
	}
	return out
}

// score is the weight of label l for features fs.
func (c *Classifier) scores(fs []uint64, sc []float32) {
	clear(sc)
	c.weights.AddTo(fs, sc)
}

// best is the allowed label with the highest score, 0 (none) unless one
// beats it.
func best(sc []float32, allow []int) int {
	l := 0
	for _, k := range allow {
		if sc[k] > sc[l] {
			l = k
		}
	}
	return l
}

// Relate reads the relations the sentence rs states between its names.
func (c *Classifier) Relate(rs []rune, names []Name) []Link {
	var out []Link
	sc := make([]float32, c.labels())
	for _, p := range c.pairs(rs, names) {
		c.scores(p.feats, sc)
		if l := best(sc, p.allow); l > 0 {
			rel, fwd := c.label(l)
			h, t := p.a, p.b
			if !fwd {
				h, t = t, h
			}
			out = append(out, Link{Head: h, Tail: t, Type: rel})
		}
	}
	return out
}

// Example is a sentence with its names and the relations between them.
type Example struct {
	Text  []rune
	Names []Name
	Links []Link
}

// TrainOptions tune Train.
type TrainOptions struct {
	Epochs int    // passes over the data; 0 means 10
	Seed   uint64 // the order of pairs in each pass
}

// Train learns a classifier for the relations of sch between names of
// types from examples. In each pass every pair is classified and, where
// the label is wrong, the gold label's features are raised and the
// predicted one's lowered; the weights kept are the average over all
// steps. The same data and options give the same weights.
func Train(examples []Example, types []string, sch *schema.Schema, opts TrainOptions) *Classifier {
	if opts.Epochs <= 0 {
		opts.Epochs = 10
	}
	c := &Classifier{Types: slices.Clone(types)}
	feats := featurehash.NewTable(0)
	seen := map[string]bool{}
	for _, ex := range examples {
		for _, l := range ex.Links {
			seen[l.Type] = true
		}
	}
	for _, r := range sch.RelationTypeNames() {
		if seen[r] {
			c.Relations = append(c.Relations, r)
		}
	}
	c.buildAllow(sch)
	n := c.labels()
	type item struct {
		p    pair
		gold int
	}
	var items []item
	for _, ex := range examples {
		gold := map[[2]int]int{}
		for _, l := range ex.Links {
			r := slices.Index(c.Relations, l.Type)
			gold[[2]int{l.Head, l.Tail}] = 1 + 2*r
		}
		for _, p := range c.pairs(ex.Text, ex.Names) {
			g := 0
			if l, ok := gold[[2]int{p.a, p.b}]; ok {
				g = l
			} else if l, ok := gold[[2]int{p.b, p.a}]; ok {
				g = l + 1
			}
			if g != 0 && !slices.Contains(p.allow, g) {
				continue // the annotation's types do not allow it: left out
			}
			for _, h := range p.feats {
				if _, ok := feats.Get(h); !ok {
					feats.Put(h, int32(feats.Len()))
				}
			}
			items = append(items, item{p, g})
		}
	}
	w := make([]float32, feats.Len()*n)
	acc := make([]float32, len(w))
	step := float32(1)
	update := func(fs []uint64, l int, by float32) {
		for _, h := range fs {
			r, _ := feats.Get(h)
			k := int(r)*n + l
			w[k] += by
			acc[k] += step * by
		}
	}
	sc := make([]float32, n)
	rng := rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15))
	for range opts.Epochs {
		rng.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
		for _, it := range items {
			clear(sc)
			for _, h := range it.p.feats {
				r, _ := feats.Get(h)
				row := w[int(r)*n : int(r)*n+n]
				for k := range sc {
					sc[k] += row[k]
				}
			}
			if p := best(sc, it.p.allow); p != it.gold {
				update(it.p.feats, it.gold, 1)
				update(it.p.feats, p, -1)
			}
			step++
		}
	}
	for k := range w {
		w[k] -= acc[k] / step
	}
	c.weights = featurehash.Freeze(feats, w, n)
	return c
}

// Features is how many features the classifier has weights for.
func (c *Classifier) Features() int { return c.weights.Len() }
