package embed

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unsafe"
)

// A Snapshot is a set of stored vectors packed as one blob, so that a
// process answering one question reads them in one piece instead of row
// by row. Generation names the state of the rows it was made from; a
// reader compares it with the rows' current generation and rebuilds the
// snapshot when they differ.
type Snapshot struct {
	Generation string
	Model      string
	IDs        []int64
	Vectors    *Matrix
}

var snapshotMagic = []byte("annals-vectors-2\n")

// MarshalBinary packs the snapshot: header, ids as deltas, a pad that
// puts what follows at a multiple of four bytes, then the matrix's
// columns as little-endian float32s, which ViewSnapshot reads in place.
func (s *Snapshot) MarshalBinary() ([]byte, error) {
	if s.Vectors == nil || s.Vectors.n != len(s.IDs) {
		return nil, errors.New("embed: snapshot ids and vectors differ in number")
	}
	m := s.Vectors
	b := append([]byte(nil), snapshotMagic...)
	for _, str := range []string{s.Generation, s.Model} {
		b = binary.AppendUvarint(b, uint64(len(str)))
		b = append(b, str...)
	}
	b = binary.AppendUvarint(b, uint64(m.n))
	b = binary.AppendUvarint(b, uint64(m.dim))
	prev := int64(0)
	for _, id := range s.IDs {
		b = binary.AppendVarint(b, id-prev)
		prev = id
	}
	pad := (4 - (len(b)+1)%4) % 4
	b = append(b, byte(pad))
	b = append(b, make([]byte, pad)...)
	b = append(b, make([]byte, 4*len(m.cols))...)
	out := b[len(b)-4*len(m.cols):]
	for i, x := range m.cols {
		binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(x))
	}
	return b, nil
}

// UnmarshalBinary reads a snapshot written by MarshalBinary, copying what
// it keeps.
func (s *Snapshot) UnmarshalBinary(b []byte) error {
	v, err := ViewSnapshot(b)
	if err != nil {
		return err
	}
	if v.Vectors != nil {
		v.Vectors = &Matrix{n: v.Vectors.n, dim: v.Vectors.dim, cols: append([]float32(nil), v.Vectors.cols...)}
	}
	*s = v
	return nil
}

// littleEndian says whether float32s lie in memory as the snapshot
// stores them.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// ViewSnapshot reads a snapshot written by MarshalBinary without copying
// the vectors where it can (a little-endian machine, the vectors at a
// multiple of four bytes in memory): they are b itself, which the
// caller must then leave unchanged. A process answering one question
// reads the chunk vectors of the whole corpus, and copying and decoding
// them took longer than the question.
func ViewSnapshot(b []byte) (Snapshot, error) {
	var s Snapshot
	if len(b) < len(snapshotMagic) || string(b[:len(snapshotMagic)]) != string(snapshotMagic) {
		return s, errors.New("embed: not a vector snapshot")
	}
	b = b[len(snapshotMagic):]
	uvarint := func(what string, limit uint64) (uint64, error) {
		v, k := binary.Uvarint(b)
		if k <= 0 || v > limit {
			return 0, fmt.Errorf("embed: vector snapshot: bad %s", what)
		}
		b = b[k:]
		return v, nil
	}
	var strs [2]string
	for i := range strs {
		n, err := uvarint("header", uint64(len(b)))
		if err != nil {
			return s, err
		}
		if n > uint64(len(b)) {
			return s, errors.New("embed: vector snapshot: header cut short")
		}
		strs[i], b = string(b[:n]), b[n:]
	}
	n, err := uvarint("count", uint64(len(b)))
	if err != nil {
		return s, err
	}
	dim, err := uvarint("dimension", maxDim*2)
	if err != nil {
		return s, err
	}
	ids := make([]int64, n)
	prev := int64(0)
	for i := range ids {
		d, k := binary.Varint(b)
		if k <= 0 {
			return s, errors.New("embed: vector snapshot: bad id")
		}
		prev += d
		ids[i], b = prev, b[k:]
	}
	if len(b) == 0 || int(b[0]) > 3 || len(b) < 1+int(b[0]) {
		return s, errors.New("embed: vector snapshot: bad pad")
	}
	b = b[1+int(b[0]):]
	if uint64(len(b)) != 4*n*dim {
		return s, fmt.Errorf("embed: vector snapshot: %d bytes of vectors, want %d", len(b), 4*n*dim)
	}
	var cols []float32
	switch {
	case n*dim == 0:
	case littleEndian && uintptr(unsafe.Pointer(&b[0]))%4 == 0:
		cols = unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), n*dim)
	default:
		cols = make([]float32, n*dim)
		for i := range cols {
			cols[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
	}
	return Snapshot{Generation: strs[0], Model: strs[1], IDs: ids, Vectors: &Matrix{n: int(n), dim: int(dim), cols: cols}}, nil
}
