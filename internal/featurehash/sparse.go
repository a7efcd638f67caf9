package featurehash

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/annals-project/annals/internal/modelfile"
)

// Weight is one non-zero weight of a feature: the label (tag, relation)
// it counts for, and how much.
type Weight struct {
	Label  uint16
	Weight float32
}

// Sparse maps a feature's hash to its non-zero weights: the frozen form
// of a trained model, which tagging reads. Most features carry weights
// for a few labels only, and a slot holds where its weights lie beside
// the hash, so that a look-up touches two cache lines, not four (the
// hash, its row number, the row): a corpus looks features up some
// hundred million times, and the dense rows of the name model are
// larger than any cache.
type Sparse struct {
	slots   []sparseSlot
	weights []Weight
	n       int
	shift   uint
	// touched keeps what loading read ahead (ReadSparse), so that the
	// reads are not optimised away.
	touched uint32
}

// sparseSlot is a feature's hash and its weights,
// weights[start:end]; end 0 marks a free slot, since a feature without
// a weight is never kept.
type sparseSlot struct {
	hash       uint64
	start, end uint32
}

// NewSparse makes a table sized for capacity features.
func NewSparse(capacity int) *Sparse {
	s := &Sparse{}
	s.resize(capacity)
	return s
}

// maxLoad is how full the table may get, in eighths: a slot holds four
// to a cache line, so the short probe runs of a table five-eighths full
// cost little, and the smaller table misses the caches less than a
// half-empty one.
const maxLoad = 5

func (s *Sparse) resize(capacity int) {
	size := 16
	for size*maxLoad < 8*capacity {
		size <<= 1
	}
	s.slots = make([]sparseSlot, size)
	s.shift = uint(64 - bits.TrailingZeros(uint(size)))
}

func (s *Sparse) slot(h uint64) int { return int((h * 0x9E3779B97F4A7C15) >> s.shift) }

// Add keeps feature h with the non-zero ones of ws (labels in order); a
// feature with none is left out, and a hash added before keeps its
// first weights.
func (s *Sparse) Add(h uint64, ws []Weight) {
	start := len(s.weights)
	for _, w := range ws {
		if w.Weight != 0 {
			s.weights = append(s.weights, w)
		}
	}
	if len(s.weights) == start {
		return
	}
	if 8*(s.n+1) > maxLoad*len(s.slots) {
		s.grow()
	}
	if !s.place(sparseSlot{h, uint32(start), uint32(len(s.weights))}) {
		s.weights = s.weights[:start]
	}
}

// place puts a feature's slot in the table, which has room for it; a
// hash there before keeps its slot, and place says false.
func (s *Sparse) place(sl sparseSlot) bool {
	mask := len(s.slots) - 1
	for i := s.slot(sl.hash); ; i = (i + 1) & mask {
		if s.slots[i].end == 0 {
			s.slots[i] = sl
			s.n++
			return true
		}
		if s.slots[i].hash == sl.hash {
			return false
		}
	}
}

func (s *Sparse) grow() {
	old := s.slots
	s.resize(2 * s.n)
	mask := len(s.slots) - 1
	for _, o := range old {
		if o.end == 0 {
			continue
		}
		i := s.slot(o.hash)
		for s.slots[i].end != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = o
	}
}

// Row is feature h's weights; nil when it has none.
func (s *Sparse) Row(h uint64) []Weight {
	sl := s.probe(h)
	return s.weights[sl.start:sl.end]
}

// probe finds feature h's slot; a free one (end 0) when it has none.
func (s *Sparse) probe(h uint64) sparseSlot {
	mask := len(s.slots) - 1
	for i := s.slot(h); ; i = (i + 1) & mask {
		sl := s.slots[i]
		if sl.end == 0 || sl.hash == h {
			return sl
		}
	}
}

// AddTo adds the weights of every feature in hs to scores, indexed by
// label, in the order of hs. Most of a look-up's cost is waiting for the
// feature's slot to come from memory, so it reads the first slot of a run
// of features before it follows any: reads that do not wait on one
// another let the processor overlap their cache misses (a quarter off
// tagging a chapter).
func (s *Sparse) AddTo(hs []uint64, scores []float32) {
	var first [32]sparseSlot
	for len(hs) > 0 {
		k := min(len(hs), len(first))
		for j, h := range hs[:k] {
			first[j] = s.slots[s.slot(h)]
		}
		for j, h := range hs[:k] {
			sl := first[j]
			if sl.end != 0 && sl.hash != h {
				sl = s.probe(h) // the first slot holds another feature
			}
			for _, w := range s.weights[sl.start:sl.end] {
				scores[w.Label] += w.Weight
			}
		}
		hs = hs[k:]
	}
}

// Len is the number of features.
func (s *Sparse) Len() int { return s.n }

// Hashes are the features' hashes in ascending order, the order model
// files keep them in so that the same weights give the same bytes.
func (s *Sparse) Hashes() []uint64 {
	out := make([]uint64, 0, s.n)
	for _, sl := range s.slots {
		if sl.end != 0 {
			out = append(out, sl.hash)
		}
	}
	slices.Sort(out)
	return out
}

// Freeze keeps the non-zero weights of dense rows of width labels, one
// row per feature of t, as a Sparse table.
func Freeze(t *Table, dense []float32, labels int) *Sparse {
	s := NewSparse(t.Len())
	hashes := make([]uint64, 0, t.Len())
	t.Each(func(h uint64, _ int32) { hashes = append(hashes, h) })
	slices.Sort(hashes) // the weights lie in hash order: the same model, the same memory
	row := make([]Weight, labels)
	for _, h := range hashes {
		r, _ := t.Get(h)
		for k, x := range dense[int(r)*labels : int(r)*labels+labels] {
			row[k] = Weight{uint16(k), x}
		}
		s.Add(h, row)
	}
	return s
}

// Write puts the features in a model file in ascending order of hash,
// each as its hash, the number of its weights and each weight as (label,
// weight): the layout both learned models share.
func (s *Sparse) Write(mw *modelfile.Writer) {
	for _, h := range s.Hashes() {
		mw.Uint64(h)
		ws := s.Row(h)
		mw.Uvarint(uint64(len(ws)))
		for _, w := range ws {
			mw.Uvarint(uint64(w.Label))
			mw.Float32(w.Weight)
		}
	}
}

// ReadSparse reads n features that Write wrote, refusing a label at or
// past labels.
//
// The features come in order of hash, and their slots lie anywhere in a
// table larger than the caches: it places them a run at a time, reading
// the first slot of each before it writes any, so that the misses overlap
// (loading the name model: 27 ms of 254 where placing each as read took
// 94).
func ReadSparse(br *modelfile.Reader, n, labels int) (*Sparse, error) {
	s := NewSparse(n)
	s.weights = make([]Weight, 0, 3*n) // most features weigh two or three labels
	var run [32]sparseSlot
	pending := run[:0]
	var touched uint32
	flush := func() {
		for _, sl := range pending {
			touched |= s.slots[s.slot(sl.hash)].end
		}
		for _, sl := range pending {
			s.place(sl)
		}
		pending = pending[:0]
	}
	for i := range n {
		h, err := br.Uint64()
		if err != nil {
			return nil, fmt.Errorf("model feature %d: %w", i, err)
		}
		k, err := br.Uvarint()
		if err != nil || k > uint64(labels) {
			return nil, fmt.Errorf("model feature %d: bad weight count", i)
		}
		start := len(s.weights)
		for range k {
			l, err := br.Uvarint()
			if err != nil || l >= uint64(labels) {
				return nil, fmt.Errorf("model feature %d: bad label", i)
			}
			x, err := br.Float32()
			if err != nil {
				return nil, fmt.Errorf("model feature %d: %w", i, err)
			}
			if x != 0 {
				s.weights = append(s.weights, Weight{uint16(l), x})
			}
		}
		if len(s.weights) > start {
			pending = append(pending, sparseSlot{h, uint32(start), uint32(len(s.weights))})
			if len(pending) == len(run) {
				flush()
			}
		}
	}
	flush()
	s.touched = touched
	return s, nil
}
