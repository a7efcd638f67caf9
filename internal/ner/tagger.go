package ner

import (
	"math/rand/v2"

	"github.com/annals-project/annals/internal/featurehash"
)

// Positions of a name's characters, BIOES.
const (
	tagB = iota
	tagI
	tagE
	tagS
)

// Tagger labels each character of a sentence with a BIOES tag: an
// averaged structured perceptron over character n-gram features, decoded
// by Viterbi under the constraints that make every tag sequence a set of
// whole names.
type Tagger struct {
	Types []string // entity types; tag 0 is O, then B, I, E, S of each type
	// weights are each feature's non-zero weights, by tag.
	weights *featurehash.Sparse
	trans   []float32 // (previous tag + 1) × tags; previous −1 is the start
	// Rules says the offline rules' names are features: a sentence's
	// Hints, or the rules read over the sentence alone when it has none.
	Rules bool
	// Clusters, when set, add each character's class and its
	// neighbours' as features.
	Clusters Clusters
	// Known are names the training annotations mark, as features; nil:
	// none.
	Known Known
	// DocUse says how a sentence's chapter uses its characters is a
	// feature (Context.Use).
	DocUse bool
	// Found says the names found before in the document are features
	// (Context.Found).
	Found bool

	lat *lattice // built with the tagger, read by every Tag at once
}

func (t *Tagger) tags() int { return 1 + 4*len(t.Types) }

func tagOf(typ, pos int) int { return 1 + 4*typ + pos }

// tagInfo splits a tag into its type (−1 for O) and position.
func tagInfo(tag int) (typ, pos int) {
	if tag == 0 {
		return -1, -1
	}
	return (tag - 1) / 4, (tag - 1) % 4
}

// allowed says whether tag b may follow tag a (a = −1 at the start).
func allowed(a, b int) bool {
	at, ap := tagInfo(a)
	bt, bp := tagInfo(b)
	open := a >= 0 && (ap == tagB || ap == tagI)
	if open {
		return bt == at && (bp == tagI || bp == tagE)
	}
	return b == 0 || bp == tagB || bp == tagS
}

// canEnd says whether a sentence may end on tag a.
func canEnd(a int) bool {
	_, p := tagInfo(a)
	return a == 0 || p == tagE || p == tagS
}

// scores are each position's tag scores from its features.
func (t *Tagger) scores(fs [][]uint64) [][]float32 {
	n := t.tags()
	out := make([][]float32, len(fs))
	all := make([]float32, len(fs)*n)
	for i, hs := range fs {
		out[i] = all[i*n : (i+1)*n : (i+1)*n]
		t.weights.AddTo(hs, out[i])
	}
	return out
}

// training are a tagger's weights while it learns: a dense row of
// weights for every feature seen, which the updates write in place.
type training struct {
	feats   *featurehash.Table
	weights []float32
}

// scores are each position's tag scores from its features, as
// Tagger.scores reads them once frozen.
func (tr *training) scores(fs [][]uint64, n int) [][]float32 {
	out := make([][]float32, len(fs))
	all := make([]float32, len(fs)*n)
	for i, hs := range fs {
		row := all[i*n : (i+1)*n : (i+1)*n]
		for _, h := range hs {
			r, _ := tr.feats.Get(h)
			for k, x := range tr.weights[int(r)*n : int(r)*n+n] {
				row[k] += x
			}
		}
		out[i] = row
	}
	return out
}

// lattice is what Viterbi needs of the tag set, worked out once: the
// tags a name may not be open before (O, E, S), which all the tags that
// open a name or stand outside one (O, B, S) may follow, and which tags
// may start and end a sentence. Inside a name (I, E) a tag follows only
// B or I of its own type.
type lattice struct {
	closed, opening []int // ascending
	start, final    []bool
}

func newLattice(n int) *lattice {
	l := &lattice{start: make([]bool, n), final: make([]bool, n)}
	for b := 0; b < n; b++ {
		l.start[b] = allowed(-1, b)
		l.final[b] = canEnd(b)
		if allowed(0, b) {
			l.opening = append(l.opening, b)
		}
		if allowed(b, 0) {
			l.closed = append(l.closed, b)
		}
	}
	return l
}

// viterbi finds the best allowed tag sequence. Each tag's predecessors
// are tried in ascending order, so ties go to the lowest.
func (t *Tagger) viterbi(sc [][]float32) []int {
	n := t.tags()
	if len(sc) == 0 {
		return nil
	}
	l := t.lat
	const neg = float32(-1e30)
	best := make([]float32, len(sc)*n)
	back := make([]int32, len(sc)*n)
	for b := 0; b < n; b++ {
		best[b] = neg
		if l.start[b] {
			best[b] = sc[0][b] + t.trans[b]
		}
	}
	for i := 1; i < len(sc); i++ {
		prev, cur, arg := best[(i-1)*n:i*n], best[i*n:(i+1)*n], back[i*n:(i+1)*n]
		for b := range cur {
			cur[b] = neg
		}
		// O, B and S follow O, E or S: one row of transitions per
		// predecessor.
		for _, a := range l.closed {
			pa := prev[a]
			if pa == neg {
				continue
			}
			row := t.trans[(a+1)*n : (a+2)*n]
			for _, b := range l.opening {
				if s := pa + row[b]; s > cur[b] {
					cur[b], arg[b] = s, int32(a)
				}
			}
		}
		// I and E follow B or I of their type.
		for b0 := 1; b0+3 < n; b0 += 4 {
			for _, b := range [2]int{b0 + tagI, b0 + tagE} {
				for _, a := range [2]int{b0 + tagB, b0 + tagI} {
					if prev[a] == neg {
						continue
					}
					if s := prev[a] + t.trans[(a+1)*n+b]; s > cur[b] {
						cur[b], arg[b] = s, int32(a)
					}
				}
			}
		}
		for b, x := range cur {
			if x != neg {
				cur[b] = x + sc[i][b]
			}
		}
	}
	last := len(sc) - 1
	end, top := 0, neg
	for b := 0; b < n; b++ {
		if l.final[b] && best[last*n+b] > top {
			end, top = b, best[last*n+b]
		}
	}
	out := make([]int, len(sc))
	out[last] = end
	for i := last; i > 0; i-- {
		out[i-1] = int(back[i*n+out[i]])
	}
	return out
}

// Tag finds the names in a sentence, with the rules read over the
// sentence alone.
func (t *Tagger) Tag(text string) []Span {
	return t.TagIn([]rune(text), Context{})
}

// TagIn finds the names in a sentence read in the context c of its
// document.
func (t *Tagger) TagIn(text []rune, c Context) []Span {
	return t.spans(t.viterbi(t.scores(t.features(text, c, t.Known))))
}

// TagNext tags the next sentence of a document, knowing the names found
// in those before it (c.Found, read so far), and records the names it
// finds there for the sentences after; without c.Found it is TagIn.
func (t *Tagger) TagNext(text []rune, c Context) []Span {
	if c.Found == nil {
		return t.TagIn(text, c)
	}
	k := c.Found.Read
	c.Sentence = k
	got := t.TagIn(text, c)
	for _, s := range got {
		c.Found.Add(k, string(text[s.Start:s.End]), s.Type)
	}
	c.Found.Read++
	return got
}

func (t *Tagger) spans(tags []int) []Span {
	var out []Span
	start := -1
	for i, tag := range tags {
		typ, pos := tagInfo(tag)
		switch pos {
		case tagS:
			out = append(out, Span{i, i + 1, t.Types[typ]})
		case tagB:
			start = i
		case tagE:
			if start >= 0 {
				out = append(out, Span{start, i + 1, t.Types[typ]})
			}
			start = -1
		}
	}
	return out
}

// gold is the tag sequence of a sentence's names; a name of a type the
// tagger does not know is left untagged.
func (t *Tagger) gold(s Sentence) []int {
	tags := make([]int, len([]rune(s.Text)))
	for _, n := range s.Names {
		typ := -1
		for k, x := range t.Types {
			if x == n.Type {
				typ = k
			}
		}
		if typ < 0 || n.End > len(tags) || n.Start >= n.End {
			continue
		}
		if n.End-n.Start == 1 {
			tags[n.Start] = tagOf(typ, tagS)
			continue
		}
		tags[n.Start] = tagOf(typ, tagB)
		for i := n.Start + 1; i < n.End-1; i++ {
			tags[i] = tagOf(typ, tagI)
		}
		tags[n.End-1] = tagOf(typ, tagE)
	}
	return tags
}

// TrainOptions tune Train.
type TrainOptions struct {
	Epochs int    // passes over the data; 0 means 20
	Seed   uint64 // the order of sentences in each pass
	Rules  bool   // the rules' names are features (see Tagger.Rules)
	// Clusters are character classes to use as features (see
	// LearnClusters); nil leaves them out.
	Clusters Clusters
	// Known makes the names the sentences mark features (Tagger.Known).
	// In training each sentence sees only the names of the other
	// folds, so that the model learns how far to trust a name met before.
	Known bool
	// DocUse makes the sentences' Use features (Tagger.DocUse).
	DocUse bool
	// Found makes the names found before in a sentence's chapter
	// features (Tagger.Found).
	Found bool
}

// knownFoldCount is how many folds Train splits the sentences into for
// the names they know.
const knownFoldCount = 5

// Train learns a tagger for types from sentences: in each pass every
// sentence is decoded and, where the decoding differs from the names,
// the features of the gold tags are raised and those of the decoded ones
// lowered; the weights returned are the average over all steps, which
// generalises far better than the last. The same data, options and order
// give the same weights.
func Train(sentences []Sentence, types []string, opts TrainOptions) *Tagger {
	if opts.Epochs <= 0 {
		// CHisIEC test F1, rules as features: 0.787 after 10 passes, 0.805
		// after 20.
		opts.Epochs = 20
	}
	t := &Tagger{Types: append([]string(nil), types...), Rules: opts.Rules, Clusters: opts.Clusters, DocUse: opts.DocUse, Found: opts.Found}
	var folds []Known
	if opts.Known {
		folds = knownFolds(sentences, knownFoldCount)
	}
	n := t.tags()
	t.lat = newLattice(n)
	t.trans = make([]float32, (n+1)*n)
	tr := training{feats: featurehash.NewTable(0)}
	// Every feature seen gets a row, so that training never grows them
	// mid-pass.
	type item struct {
		fs   [][]uint64
		gold []int
	}
	items := make([]item, 0, len(sentences))
	for i, s := range sentences {
		var known Known
		if folds != nil {
			known = folds[i%len(folds)]
		}
		fs := t.features([]rune(s.Text), s.Context(), known)
		for _, hs := range fs {
			for _, h := range hs {
				if _, ok := tr.feats.Get(h); !ok {
					tr.feats.Put(h, int32(tr.feats.Len()))
				}
			}
		}
		items = append(items, item{fs, t.gold(s)})
	}
	tr.weights = make([]float32, tr.feats.Len()*n)
	// Averaging: acc holds Σ step × update; the average is w − acc/steps.
	accW := make([]float32, len(tr.weights))
	accT := make([]float32, len(t.trans))
	step := float32(1)
	update := func(fs []uint64, tag int, by float32) {
		for _, h := range fs {
			r, _ := tr.feats.Get(h)
			k := int(r)*n + tag
			tr.weights[k] += by
			accW[k] += step * by
		}
	}
	updateTrans := func(a, b int, by float32) {
		k := (a+1)*n + b
		t.trans[k] += by
		accT[k] += step * by
	}
	rng := rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15))
	order := make([]int, len(items))
	for i := range order {
		order[i] = i
	}
	for range opts.Epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, idx := range order {
			it := items[idx]
			pred := t.viterbi(tr.scores(it.fs, n))
			for i := range pred {
				g, p := it.gold[i], pred[i]
				if g != p {
					update(it.fs[i], g, 1)
					update(it.fs[i], p, -1)
				}
				gp, pp := -1, -1
				if i > 0 {
					gp, pp = it.gold[i-1], pred[i-1]
				}
				if g != p || gp != pp {
					updateTrans(gp, g, 1)
					updateTrans(pp, p, -1)
				}
			}
			step++
		}
	}
	for k := range tr.weights {
		tr.weights[k] -= accW[k] / step
	}
	t.weights = featurehash.Freeze(tr.feats, tr.weights, n)
	for k := range t.trans {
		t.trans[k] -= accT[k] / step
	}
	if opts.Known {
		t.Known = NewKnown(sentences)
	}
	return t
}

// Features is how many features the tagger has weights for.
func (t *Tagger) Features() int { return t.weights.Len() }
