package embed

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
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

var snapshotMagic = []byte("annals-vectors-1\n")

// MarshalBinary packs the snapshot: header, ids as deltas, then the
// matrix's columns as little-endian float32s.
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
	b = append(b, make([]byte, 4*len(m.cols))...)
	out := b[len(b)-4*len(m.cols):]
	for i, x := range m.cols {
		binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(x))
	}
	return b, nil
}

// UnmarshalBinary reads a snapshot written by MarshalBinary.
func (s *Snapshot) UnmarshalBinary(b []byte) error {
	if len(b) < len(snapshotMagic) || string(b[:len(snapshotMagic)]) != string(snapshotMagic) {
		return errors.New("embed: not a vector snapshot")
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
			return err
		}
		if n > uint64(len(b)) {
			return errors.New("embed: vector snapshot: header cut short")
		}
		strs[i], b = string(b[:n]), b[n:]
	}
	n, err := uvarint("count", uint64(len(b)))
	if err != nil {
		return err
	}
	dim, err := uvarint("dimension", maxDim*2)
	if err != nil {
		return err
	}
	ids := make([]int64, n)
	prev := int64(0)
	for i := range ids {
		d, k := binary.Varint(b)
		if k <= 0 {
			return errors.New("embed: vector snapshot: bad id")
		}
		prev += d
		ids[i], b = prev, b[k:]
	}
	if uint64(len(b)) != 4*n*dim {
		return fmt.Errorf("embed: vector snapshot: %d bytes of vectors, want %d", len(b), 4*n*dim)
	}
	cols := make([]float32, n*dim)
	for i := range cols {
		cols[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	*s = Snapshot{Generation: strs[0], Model: strs[1], IDs: ids, Vectors: &Matrix{n: int(n), dim: int(dim), cols: cols}}
	return nil
}
