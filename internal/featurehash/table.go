package featurehash

import "math/bits"

// Table maps a feature's hash to its row of weights. It is an
// open-addressed table: tagging a corpus looks features up millions of
// times, and a Go map spends most of that time finding the group.
type Table struct {
	keys  []uint64
	rows  []int32 // row + 1; 0 marks a free slot
	n     int
	shift uint // 64 − log2(len(keys))
}

func NewTable(capacity int) *Table {
	size := 16
	for size < 2*capacity {
		size <<= 1
	}
	return &Table{keys: make([]uint64, size), rows: make([]int32, size), shift: uint(64 - bits.TrailingZeros(uint(size)))}
}

// slot is where h's probe starts: the top bits of a multiplicative hash,
// so that hashes alike in their low bits spread.
func (t *Table) slot(h uint64) int { return int((h * 0x9E3779B97F4A7C15) >> t.shift) }

// Get returns h's row.
func (t *Table) Get(h uint64) (int32, bool) {
	mask := len(t.keys) - 1
	for i := t.slot(h); ; i = (i + 1) & mask {
		r := t.rows[i]
		if r == 0 {
			return 0, false
		}
		if t.keys[i] == h {
			return r - 1, true
		}
	}
}

// Put sets h's row, growing the table to keep it at most half full.
func (t *Table) Put(h uint64, row int32) {
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	mask := len(t.keys) - 1
	for i := t.slot(h); ; i = (i + 1) & mask {
		if t.rows[i] == 0 {
			t.keys[i], t.rows[i] = h, row+1
			t.n++
			return
		}
		if t.keys[i] == h {
			t.rows[i] = row + 1
			return
		}
	}
}

func (t *Table) grow() {
	old := *t
	*t = *NewTable(2 * len(old.keys))
	for i, r := range old.rows {
		if r != 0 {
			t.Put(old.keys[i], r-1)
		}
	}
}

// Len is the number of features.
func (t *Table) Len() int { return t.n }

// Each calls f with every feature and its row, in no set order.
func (t *Table) Each(f func(h uint64, row int32)) {
	for i, r := range t.rows {
		if r != 0 {
			f(t.keys[i], r-1)
		}
	}
}
