package embed

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"unicode/utf8"
)

// Options control Train. Zero fields take the defaults of DefaultOptions.
type Options struct {
	// Dim is the length of the learned unit vectors.
	Dim int
	// HashedDim is the length of the hashed part; negative leaves it out
	// (learned vectors alone).
	HashedDim int
	// HashedWeight is the hashed part's share of the cosine between two
	// vectors, in [0, 1]; the learned part has the rest. Negative means 0.
	HashedWeight float64
	// Window is how many units either side count as context.
	Window int
	// MinCount is how often a unit must occur to get a vector.
	MinCount int
	// MaxVocab caps the units with vectors, the most frequent kept.
	MaxVocab int
	// MaxContexts caps the units used as contexts, the most frequent kept.
	MaxContexts int
	// PowerIters is the number of power iterations of the randomized SVD.
	PowerIters int
	// EigPower scales the singular vectors by σ^EigPower: 1 is the plain
	// SVD, 0 (the default) weighs every dimension alike, which retrieves
	// better.
	EigPower float64
	// IDFBits is log2 of the number of document-frequency slots kept for
	// hashed features.
	IDFBits int
	// Seed makes the random projection reproducible.
	Seed uint64
}

// DefaultOptions are the settings Default trains with, chosen by the
// retrieval evaluation in this package's tests.
func DefaultOptions() Options {
	return Options{
		Dim:          128,
		HashedDim:    256,
		HashedWeight: 0.7,
		Window:       5,
		MinCount:     3,
		MaxVocab:     20000,
		MaxContexts:  4096,
		PowerIters:   2,
		EigPower:     0,
		IDFBits:      20,
		Seed:         1,
	}
}

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.Dim <= 0 {
		o.Dim = d.Dim
	}
	if o.HashedDim == 0 {
		o.HashedDim = d.HashedDim
	}
	if o.HashedDim < 0 {
		o.HashedDim = 0
	}
	if o.HashedWeight == 0 {
		o.HashedWeight = d.HashedWeight
	}
	o.HashedWeight = min(max(o.HashedWeight, 0), 1)
	if o.HashedDim == 0 {
		o.HashedWeight = 0
	}
	if o.Window <= 0 {
		o.Window = d.Window
	}
	if o.MinCount <= 0 {
		o.MinCount = d.MinCount
	}
	if o.MaxVocab <= 0 {
		o.MaxVocab = d.MaxVocab
	}
	if o.MaxContexts <= 0 {
		o.MaxContexts = d.MaxContexts
	}
	if o.PowerIters <= 0 {
		o.PowerIters = d.PowerIters
	}
	o.EigPower = max(o.EigPower, 0)
	if o.IDFBits <= 0 {
		o.IDFBits = d.IDFBits
	}
	o.IDFBits = min(o.IDFBits, maxIDFBits)
	// The same limits as UnmarshalBinary, so every model trained loads.
	o.Dim, o.HashedDim = min(o.Dim, maxDim), min(o.HashedDim, maxDim)
	o.Window, o.PowerIters = min(o.Window, maxSmall), min(o.PowerIters, maxSmall)
	o.MinCount, o.MaxVocab, o.MaxContexts = min(o.MinCount, math.MaxInt32), min(o.MaxVocab, math.MaxInt32), min(o.MaxContexts, math.MaxInt32)
	if o.Seed == 0 {
		o.Seed = d.Seed
	}
	return o
}

const (
	maxIDFBits = 24
	maxDim     = 1 << 16
	maxSmall   = 1 << 10
)

// Learned embeds a text as the idf-weighted mean of vectors learned for its
// characters and words from the training corpus, joined to idf-weighted
// hashed n-grams so that unseen characters and names still count. It is
// safe for concurrent use.
type Learned struct {
	opts Options
	docs int // training documents, for idf

	units []string // vocabulary, most frequent first
	df    []uint32 // documents containing each unit
	vecs  []float32
	// common is the unit direction shared by most texts; removing it keeps
	// frequent characters from making every text alike.
	common []float32
	hdf    []uint32 // documents containing a hashed feature, by slot

	// Derived on load.
	cjk     map[rune]int32
	words   map[string]int32
	uidf    []float32
	version string
}

// Name implements Embedder.
func (l *Learned) Name() string { return "learned" }

// Version implements Embedder: it names the model's contents, so two models
// trained on different corpora or settings never share a version.
func (l *Learned) Version() string { return l.version }

// Dim implements Embedder.
func (l *Learned) Dim() int { return l.opts.Dim + l.opts.HashedDim }

// Options returns the settings the model was trained with.
func (l *Learned) Options() Options { return l.opts }

// VocabSize is the number of units with a learned vector.
func (l *Learned) VocabSize() int { return len(l.units) }

type unitStat struct {
	count int64
	df    uint32
	last  int32 // last document seen, to count each document once
}

// Train learns a model from texts, each one a document for the document
// frequencies (paragraphs or chunks work better than whole books). Unit
// vectors come from the positive pointwise mutual information of units
// within a window, reduced by a randomized truncated SVD. An empty corpus
// gives a model of hashed features alone.
func Train(ctx context.Context, texts []string, opts Options) (*Learned, error) {
	o := opts.withDefaults()
	l := &Learned{opts: o, docs: len(texts), hdf: make([]uint32, 1<<o.IDFBits)}

	// Pass 1: unit counts and document frequencies, hashed-feature
	// document frequencies.
	cjk := map[rune]*unitStat{}
	words := map[string]*unitStat{}
	var (
		sc    scanner
		feats []uint64
		buf   []byte
	)
	for d, t := range texts {
		if err := checkCtx(ctx, d); err != nil {
			return nil, err
		}
		sc.reset(t)
		for {
			tok, r := sc.next()
			if tok == tokEnd {
				break
			}
			var st *unitStat
			if tok == tokCJK {
				if st = cjk[r]; st == nil {
					st = &unitStat{last: -1}
					cjk[r] = st
				}
			} else {
				buf = appendRunes(buf[:0], sc.word)
				if st = words[string(buf)]; st == nil {
					st = &unitStat{last: -1}
					words[string(buf)] = st
				}
			}
			st.count++
			if st.last != int32(d) {
				st.last = int32(d)
				st.df++
			}
		}
		feats = appendFeatures(feats[:0], &sc, t)
		slices.Sort(feats)
		feats = slices.Compact(feats)
		for _, h := range feats {
			l.hdf[slotOf(h, uint(o.IDFBits))]++
		}
	}

	// The vocabulary: frequent units, most frequent first, ties by text
	// so that training is reproducible.
	type cand struct {
		key string
		st  *unitStat
	}
	var cands []cand
	for r, st := range cjk {
		if st.count >= int64(o.MinCount) {
			cands = append(cands, cand{string(r), st})
		}
	}
	for w, st := range words {
		if st.count >= int64(o.MinCount) {
			cands = append(cands, cand{w, st})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if c := cmp.Compare(b.st.count, a.st.count); c != 0 {
			return c
		}
		return cmp.Compare(a.key, b.key)
	})
	if len(cands) > o.MaxVocab {
		cands = cands[:o.MaxVocab]
	}
	l.units = make([]string, len(cands))
	l.df = make([]uint32, len(cands))
	for i, c := range cands {
		l.units[i], l.df[i] = c.key, c.st.df
	}
	cjk, words, cands = nil, nil, nil
	l.index()

	if len(l.units) > 0 {
		m, err := l.cooccurrence(ctx, texts)
		if err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		u := truncatedSVD(m, o.Dim, 16, o.PowerIters, o.EigPower, o.Seed)
		l.vecs = make([]float32, len(l.units)*o.Dim)
		for i := range l.units {
			v := l.vecs[i*o.Dim : (i+1)*o.Dim]
			for j := range v {
				v[j] = float32(u.a[i*o.Dim+j])
			}
			Normalize(v)
		}
		l.common = l.commonDirection(ctx, texts)
	} else {
		l.vecs = nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	l.seal()
	return l, nil
}

func appendRunes(b []byte, rs []rune) []byte {
	for _, r := range rs {
		b = utf8.AppendRune(b, r)
	}
	return b
}

// index builds the lookup maps and unit idfs from units and df.
func (l *Learned) index() {
	l.cjk = make(map[rune]int32)
	l.words = make(map[string]int32)
	for i, u := range l.units {
		if r, n := utf8.DecodeRuneInString(u); n == len(u) && isCJK(r) {
			l.cjk[r] = int32(i)
		} else {
			l.words[u] = int32(i)
		}
	}
	l.uidf = make([]float32, len(l.units))
	for i, df := range l.df {
		l.uidf[i] = idf(l.docs, df)
	}
}

// idf is ln(1 + N/df): never zero, so a unit found in every document still
// counts a little.
func idf(docs int, df uint32) float32 {
	if docs == 0 {
		return 1
	}
	return float32(math.Log1p(float64(docs) / float64(max(df, 1))))
}

// lookup returns the unit id of the scanner's current token, or -1.
func (l *Learned) lookup(tok int, r rune, sc *scanner, buf *[]byte) int32 {
	if tok == tokCJK {
		if id, ok := l.cjk[r]; ok {
			return id
		}
		return -1
	}
	*buf = appendRunes((*buf)[:0], sc.word)
	if id, ok := l.words[string(*buf)]; ok {
		return id
	}
	return -1
}

// Stream markers: a document boundary stops a window; an unknown unit
// takes a position but is no context.
const (
	streamBreak   = -1
	streamUnknown = -2
)

// Bounds that keep training memory in check on large corpora; the First
// Four Histories come nowhere near them. Co-occurrence statistics settle
// long before maxStream units, and rows keep their strongest entries.
const (
	maxStream = 1 << 24
	rowCap    = 1024
)

// cooccurrence counts, for every unit, the contexts within the window, each
// weighted by (window − distance + 1)/window, and turns the counts into
// positive PMI with context counts smoothed by the power 0.75.
func (l *Learned) cooccurrence(ctx context.Context, texts []string) (*csr, error) {
	o := l.opts
	var (
		stream []int32
		sc     scanner
		buf    []byte
	)
	for d, t := range texts {
		if err := checkCtx(ctx, d); err != nil {
			return nil, err
		}
		if len(stream) >= maxStream {
			break
		}
		sc.reset(t)
		for {
			tok, r := sc.next()
			if tok == tokEnd {
				break
			}
			id := l.lookup(tok, r, &sc, &buf)
			if id < 0 {
				id = streamUnknown
			}
			stream = append(stream, id)
		}
		stream = append(stream, streamBreak)
	}

	V := len(l.units)
	C := min(V, o.MaxContexts)
	W := o.Window
	weights := make([]float32, W+1)
	for d := 1; d <= W; d++ {
		weights[d] = float32(W-d+1) / float32(W)
	}
	// neighbours calls fn for each context within the window of position
	// p, stopping at document boundaries.
	neighbours := func(p int, fn func(c int32, w float32)) {
		for d := 1; d <= W && p-d >= 0; d++ {
			c := stream[p-d]
			if c == streamBreak {
				break
			}
			if c >= 0 && int(c) < C {
				fn(c, weights[d])
			}
		}
		for d := 1; d <= W && p+d < len(stream); d++ {
			c := stream[p+d]
			if c == streamBreak {
				break
			}
			if c >= 0 && int(c) < C {
				fn(c, weights[d])
			}
		}
	}

	// Marginals first, so that each row can become PPMI as it is built
	// and raw counts are never stored.
	rowSum := make([]float64, V)
	colSum := make([]float64, C)
	start := make([]int, V+1)
	for p, t := range stream {
		if t < 0 {
			continue
		}
		start[t+1]++
		neighbours(p, func(c int32, w float32) {
			rowSum[t] += float64(w)
			colSum[c] += float64(w)
		})
	}
	var smooth float64
	for c := range colSum {
		colSum[c] = math.Pow(colSum[c], 0.75)
		smooth += colSum[c]
	}

	// Positions of each unit, grouped by unit (a counting sort).
	for i := range V {
		start[i+1] += start[i]
	}
	pos := make([]int32, start[V])
	fill := slices.Clone(start[:V])
	for p, id := range stream {
		if id >= 0 {
			pos[fill[id]] = int32(p)
			fill[id]++
		}
	}
	fill = nil

	// Blocks of rows with about equal numbers of occurrences; more
	// blocks than workers so that they balance.
	const nblocks = 32
	m := &csr{rows: V, cols: C}
	m.blocks = splitRows(start, nblocks, func(lo, hi int) csrBlock { return csrBlock{lo: lo, hi: hi} })
	run(len(m.blocks), func(bi int) {
		if ctx.Err() != nil {
			return
		}
		b := &m.blocks[bi]
		acc := make([]float32, C)
		type entry struct {
			c int32
			v float32
		}
		var (
			touched []int32
			row     []entry
		)
		add := func(c int32, w float32) {
			if acc[c] == 0 {
				touched = append(touched, c)
			}
			acc[c] += w
		}
		b.ptr = make([]int, 1, b.hi-b.lo+1)
		for r := b.lo; r < b.hi; r++ {
			for _, p := range pos[start[r]:start[r+1]] {
				neighbours(int(p), add)
			}
			row = row[:0]
			for _, c := range touched {
				pmi := math.Log(float64(acc[c]) * smooth / (rowSum[r] * colSum[c]))
				if pmi > 0 {
					row = append(row, entry{c, float32(pmi)})
				}
				acc[c] = 0
			}
			touched = touched[:0]
			if len(row) > rowCap {
				slices.SortFunc(row, func(a, b entry) int {
					if c := cmp.Compare(b.v, a.v); c != 0 {
						return c
					}
					return cmp.Compare(a.c, b.c)
				})
				row = row[:rowCap]
			}
			slices.SortFunc(row, func(a, b entry) int { return cmp.Compare(a.c, b.c) })
			for _, e := range row {
				b.idx = append(b.idx, e.c)
				b.val = append(b.val, e.v)
			}
			b.ptr = append(b.ptr, len(b.idx))
		}
		b.idx, b.val = slices.Clip(b.idx), slices.Clip(b.val)
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return m, nil
}

// commonDirection is the unit direction of the mean learned text vector over
// (a sample of) the training texts.
func (l *Learned) commonDirection(ctx context.Context, texts []string) []float32 {
	const sample = 20000
	step := max(1, len(texts)/sample)
	mean := make([]float32, l.opts.Dim)
	s := new(scratch)
	v := make([]float32, l.opts.Dim)
	for i := 0; i < len(texts); i += step {
		if ctx.Err() != nil {
			return nil
		}
		clear(v)
		if l.addLearned(v, s, texts[i]) {
			Normalize(v)
			for j, x := range v {
				mean[j] += x
			}
		}
	}
	if Normalize(mean) == 0 {
		return nil
	}
	return mean
}

// addLearned adds the idf- and sublinear-tf-weighted unit vectors of text to
// v and reports whether any unit was known.
func (l *Learned) addLearned(v []float32, s *scratch, text string) bool {
	if len(l.vecs) == 0 {
		return false
	}
	s.units = s.units[:0]
	s.sc.reset(text)
	for {
		tok, r := s.sc.next()
		if tok == tokEnd {
			break
		}
		if id := l.lookup(tok, r, &s.sc, &s.buf); id >= 0 {
			s.units = append(s.units, id)
		}
	}
	if len(s.units) == 0 {
		return false
	}
	slices.Sort(s.units)
	d := l.opts.Dim
	for i := 0; i < len(s.units); {
		j := i + 1
		for j < len(s.units) && s.units[j] == s.units[i] {
			j++
		}
		u := s.units[i]
		w := l.uidf[u]
		if j-i > 1 {
			w *= 1 + float32(math.Log(float64(j-i)))
		}
		vec := l.vecs[int(u)*d : int(u+1)*d]
		for k, x := range vec {
			v[k] += w * x
		}
		i = j
	}
	return true
}

// hidf is the idf of a hashed feature from its slot's document frequency.
// The square root tempers idf: hashed into a few hundred buckets, a text's
// many rare n-grams would otherwise drown the ones it shares with a query.
func (l *Learned) hidf(h uint64) float32 {
	return float32(math.Sqrt(float64(idf(l.docs, l.hdf[slotOf(h, uint(l.opts.IDFBits))]))))
}

// Embed implements Embedder.
func (l *Learned) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	err := parallel(ctx, len(texts), func(s *scratch, i int) {
		out[i] = l.embed(s, texts[i])
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (l *Learned) embed(s *scratch, text string) []float32 {
	d, hd := l.opts.Dim, l.opts.HashedDim
	v := make([]float32, d+hd)
	lv, hv := v[:d], v[d:]
	wh := float32(math.Sqrt(l.opts.HashedWeight))
	wl := float32(math.Sqrt(1 - l.opts.HashedWeight))
	if wl > 0 && l.addLearned(lv, s, text) {
		if l.common != nil {
			p := dot(lv, l.common)
			for k, x := range l.common {
				lv[k] -= p * x
			}
		}
		Normalize(lv)
		for k := range lv {
			lv[k] *= wl
		}
	}
	if hd > 0 && wh > 0 {
		s.feats = appendFeatures(s.feats[:0], &s.sc, text)
		addHashed(hv, s.feats, l.hidf)
		Normalize(hv)
		for k := range hv {
			hv[k] *= wh
		}
	}
	Normalize(v)
	return v
}

// seal derives what is not stored and names the version.
func (l *Learned) seal() {
	if l.cjk == nil {
		l.index()
	}
	b, _ := l.MarshalBinary()
	l.version = versionOf(b)
}

// versionOf names a model by its format and encoded content.
func versionOf(encoded []byte) string {
	return fmt.Sprintf("%s-%s", learnedFormat, contentHash(encoded))
}

func (l *Learned) String() string {
	return fmt.Sprintf("learned(%d units, dim %d+%d, hashed weight %.2f)", len(l.units), l.opts.Dim, l.opts.HashedDim, l.opts.HashedWeight)
}
