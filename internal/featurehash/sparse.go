package featurehash

import (
	"fmt"
	"math"
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
// of a trained model, which tagging reads. A corpus looks features up
// some hundred million times in a table larger than any cache, so what
// counts is how many cache lines a look-up touches.
//
// A perceptron raises one label and lowers another by the same amount at
// each update, so most features end with two weights, x and −x: seven in
// ten of the name model's. Their slot holds both labels and x beside the
// hash, and a look-up touches one cache line, where the weights kept
// apart took a second miss (a tenth off the look-ups of tagging 三国志,
// and 6 MB less memory). Other features keep where their (label, weight)
// pairs lie. The ones a corpus meets most (single characters, the rules'
// tags) weigh most labels, though: those keep a dense row of every
// label's weight, which adds up without reading a label per weight.
// Adding a zero changes no sum, and x − y is x + (−y) exactly, so every
// form scores alike.
type Sparse struct {
	slots   []sparseSlot
	weights []Weight
	// dense holds the dense rows, stride apart; labels is their width.
	dense          []float32
	labels, stride int
	n              int
	shift          uint
	// touched keeps what loading read ahead (ReadSparse), so that the
	// reads are not optimised away.
	touched uint32
}

// sparseSlot is a feature's hash and where its weights are, by the kind
// in the top bits of b:
//   - a list: weights[a:b];
//   - a pair (slotPair): x = a's bits for label b>>12&0xfff, −x for
//     label b&0xfff;
//   - a dense row (slotDense): dense row b&^slotDense.
//
// b is 0 in a free slot only, since a feature without a weight is never
// kept.
type sparseSlot struct {
	hash uint64
	a, b uint32
}

const (
	slotPair  = 1 << 31
	slotDense = 1 << 30
	// pairLabels bounds the labels a pair slot can name.
	pairLabels = 1 << 12
)

// NewSparse makes a table sized for capacity features of labels labels.
func NewSparse(capacity, labels int) *Sparse {
	s := &Sparse{labels: labels, stride: (labels + 15) &^ 15} // rows begin on a cache line
	s.resize(capacity)
	return s
}

// keep stores a feature's weights, which lie at s.weights[start:], and
// says where they lie: in the slot when they are x and −x, dense when
// they weigh half the labels or more, else where they are.
func (s *Sparse) keep(h uint64, start int) sparseSlot {
	ws := s.weights[start:]
	if len(ws) == 2 && ws[1].Weight == -ws[0].Weight && s.labels <= pairLabels {
		s.weights = s.weights[:start]
		return sparseSlot{h, math.Float32bits(ws[0].Weight), slotPair | uint32(ws[0].Label)<<12 | uint32(ws[1].Label)}
	}
	if 2*len(ws) < s.labels {
		return sparseSlot{h, uint32(start), uint32(len(s.weights))}
	}
	at := len(s.dense)
	s.dense = append(s.dense, make([]float32, s.stride)...)
	for _, w := range ws {
		s.dense[at+int(w.Label)] = w.Weight
	}
	s.weights = s.weights[:start]
	return sparseSlot{h, 0, slotDense | uint32(at/s.stride)}
}

// row is the dense row of a slot that has one.
func (s *Sparse) row(sl sparseSlot) []float32 {
	at := int(sl.b&^slotDense) * s.stride
	return s.dense[at : at+s.labels : at+s.labels]
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
	dense := len(s.dense)
	if !s.place(s.keep(h, start)) {
		s.weights, s.dense = s.weights[:start], s.dense[:dense]
	}
}

// place puts a feature's slot in the table, which has room for it; a
// hash there before keeps its slot, and place says false.
func (s *Sparse) place(sl sparseSlot) bool {
	mask := len(s.slots) - 1
	for i := s.slot(sl.hash); ; i = (i + 1) & mask {
		if s.slots[i].b == 0 {
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
		if o.b == 0 {
			continue
		}
		i := s.slot(o.hash)
		for s.slots[i].b != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = o
	}
}

// Row is feature h's non-zero weights, in order of label; nil when it
// has none.
func (s *Sparse) Row(h uint64) []Weight {
	sl := s.probe(h)
	switch {
	case sl.b == 0:
		return nil
	case sl.b&slotPair != 0:
		x := math.Float32frombits(sl.a)
		return []Weight{{uint16(sl.b >> 12 & 0xfff), x}, {uint16(sl.b & 0xfff), -x}}
	case sl.b&slotDense != 0:
		var out []Weight
		for k, x := range s.row(sl) {
			if x != 0 {
				out = append(out, Weight{uint16(k), x})
			}
		}
		return out
	}
	return s.weights[sl.a:sl.b]
}

// probe finds feature h's slot; a free one (b 0) when it has none.
func (s *Sparse) probe(h uint64) sparseSlot {
	mask := len(s.slots) - 1
	for i := s.slot(h); ; i = (i + 1) & mask {
		sl := s.slots[i]
		if sl.b == 0 || sl.hash == h {
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
			if sl.b != 0 && sl.hash != h {
				sl = s.probe(h) // the first slot holds another feature
			}
			switch {
			case sl.b == 0:
			case sl.b&slotPair != 0:
				x := math.Float32frombits(sl.a)
				scores[sl.b>>12&0xfff] += x
				scores[sl.b&0xfff] -= x
			case sl.b&slotDense != 0:
				addRow(scores, s.row(sl))
			default:
				for _, w := range s.weights[sl.a:sl.b] {
					scores[w.Label] += w.Weight
				}
			}
		}
		hs = hs[k:]
	}
}

// addRow adds a dense row to scores, four at a time (a twentieth off tagging
// against a plain loop).
func addRow(scores, row []float32) {
	scores = scores[:len(row)]
	for len(row) >= 4 {
		scores[0] += row[0]
		scores[1] += row[1]
		scores[2] += row[2]
		scores[3] += row[3]
		scores, row = scores[4:], row[4:]
	}
	for k, x := range row {
		scores[k] += x
	}
}

// Len is the number of features.
func (s *Sparse) Len() int { return s.n }

// Hashes are the features' hashes in ascending order, the order model
// files keep them in so that the same weights give the same bytes.
func (s *Sparse) Hashes() []uint64 {
	out := make([]uint64, 0, s.n)
	for _, sl := range s.slots {
		if sl.b != 0 {
			out = append(out, sl.hash)
		}
	}
	slices.Sort(out)
	return out
}

// Freeze keeps the non-zero weights of dense rows of width labels, one
// row per feature of t, as a Sparse table.
func Freeze(t *Table, dense []float32, labels int) *Sparse {
	s := NewSparse(t.Len(), labels)
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
	s := NewSparse(n, labels)
	s.weights = make([]Weight, 0, 3*n) // most features weigh two or three labels
	var run [32]sparseSlot
	pending := run[:0]
	var touched uint32
	flush := func() {
		for _, sl := range pending {
			touched |= s.slots[s.slot(sl.hash)].b
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
			pending = append(pending, s.keep(h, start))
			if len(pending) == len(run) {
				flush()
			}
		}
	}
	flush()
	s.touched = touched
	return s, nil
}
