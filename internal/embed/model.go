package embed

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
)

// learnedFormat is the serialisation format and embedding-algorithm
// version; it leads every Learned version string.
const learnedFormat = "L1"

var learnedMagic = []byte("annals-embed-learned\x00")

func contentHash(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:8])
}

// MarshalBinary serialises the model so that a workspace can store it.
func (l *Learned) MarshalBinary() ([]byte, error) {
	o := l.opts
	b := append([]byte(nil), learnedMagic...)
	b = binary.AppendUvarint(b, uint64(o.Dim))
	b = binary.AppendUvarint(b, uint64(o.HashedDim))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(o.HashedWeight))
	b = binary.AppendUvarint(b, uint64(o.Window))
	b = binary.AppendUvarint(b, uint64(o.MinCount))
	b = binary.AppendUvarint(b, uint64(o.MaxVocab))
	b = binary.AppendUvarint(b, uint64(o.MaxContexts))
	b = binary.AppendUvarint(b, uint64(o.PowerIters))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(o.EigPower))
	b = binary.AppendUvarint(b, uint64(o.IDFBits))
	b = binary.AppendUvarint(b, o.Seed)
	b = binary.AppendUvarint(b, uint64(l.docs))
	b = binary.AppendUvarint(b, uint64(len(l.units)))
	for i, u := range l.units {
		b = binary.AppendUvarint(b, uint64(len(u)))
		b = append(b, u...)
		b = binary.AppendUvarint(b, uint64(l.df[i]))
	}
	b = binary.AppendUvarint(b, uint64(len(l.vecs)))
	for _, x := range l.vecs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	b = binary.AppendUvarint(b, uint64(len(l.common)))
	for _, x := range l.common {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	// Most slots are empty: store the others as (gap, count) pairs.
	b = binary.AppendUvarint(b, uint64(len(l.hdf)))
	nz := 0
	for _, n := range l.hdf {
		if n != 0 {
			nz++
		}
	}
	b = binary.AppendUvarint(b, uint64(nz))
	last := -1
	for i, n := range l.hdf {
		if n != 0 {
			b = binary.AppendUvarint(b, uint64(i-last-1))
			b = binary.AppendUvarint(b, uint64(n))
			last = i
		}
	}
	return b, nil
}

// decoder reads what MarshalBinary wrote, remembering the first error.
type decoder struct {
	b   []byte
	err error
}

var errTruncated = errors.New("embed: model data truncated")

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errTruncated
		return 0
	}
	d.b = d.b[n:]
	return v
}

// count reads a length and checks it against the bytes left, each element
// taking at least size bytes, so corrupt data cannot ask for a huge
// allocation.
func (d *decoder) count(size int) int {
	v := d.uvarint()
	if d.err == nil && v > uint64(len(d.b)/size) {
		d.err = errTruncated
		return 0
	}
	return int(v)
}

func (d *decoder) small(limit uint64, what string) int {
	v := d.uvarint()
	if d.err == nil && v > limit {
		d.err = fmt.Errorf("embed: model %s %d out of range", what, v)
		return 0
	}
	return int(v)
}

func (d *decoder) float64() float64 {
	if d.err != nil || len(d.b) < 8 {
		d.err = cmpErr(d.err, errTruncated)
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}

func (d *decoder) floats(n int) []float32 {
	if d.err != nil || n == 0 {
		return nil
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(d.b[4*i:]))
	}
	d.b = d.b[4*n:]
	return v
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// UnmarshalBinary loads a model written by MarshalBinary.
func (l *Learned) UnmarshalBinary(data []byte) error {
	if len(data) < len(learnedMagic) || string(data[:len(learnedMagic)]) != string(learnedMagic) {
		return errors.New("embed: not a learned embedding model")
	}
	d := &decoder{b: data[len(learnedMagic):]}
	var o Options
	o.Dim = d.small(maxDim, "dimension")
	o.HashedDim = d.small(maxDim, "hashed dimension")
	o.HashedWeight = d.float64()
	o.Window = d.small(maxSmall, "window")
	o.MinCount = d.small(math.MaxInt32, "minimum count")
	o.MaxVocab = d.small(math.MaxInt32, "vocabulary limit")
	o.MaxContexts = d.small(math.MaxInt32, "context limit")
	o.PowerIters = d.small(maxSmall, "power iterations")
	o.EigPower = d.float64()
	o.IDFBits = d.small(maxIDFBits, "idf bits")
	o.Seed = d.uvarint()
	docs := d.small(math.MaxInt32, "document count")
	n := d.count(2)
	units := make([]string, n)
	df := make([]uint32, n)
	for i := range n {
		k := d.count(1)
		if d.err != nil {
			break
		}
		units[i] = string(d.b[:k])
		d.b = d.b[k:]
		df[i] = uint32(d.small(math.MaxUint32, "document frequency"))
	}
	vecs := d.floats(d.count(4))
	common := d.floats(d.count(4))
	nh := d.small(1<<maxIDFBits, "idf table size")
	if d.err == nil && nh != 1<<o.IDFBits {
		return fmt.Errorf("embed: %d idf slots, want %d", nh, 1<<o.IDFBits)
	}
	nz := d.count(2)
	var hdf []uint32
	if d.err == nil && nz <= nh {
		hdf = make([]uint32, nh)
		at := -1
		for range nz {
			gap := d.small(uint64(nh), "idf slot gap")
			n := d.small(math.MaxUint32, "document frequency")
			at += gap + 1
			if d.err != nil || at >= nh || n == 0 {
				d.err = cmpErr(d.err, errors.New("embed: idf table corrupt"))
				break
			}
			hdf[at] = uint32(n)
		}
	} else if d.err == nil {
		d.err = errors.New("embed: idf table corrupt")
	}
	if d.err != nil {
		return d.err
	}
	switch {
	case len(d.b) != 0:
		return fmt.Errorf("embed: %d bytes after the model", len(d.b))
	case o.Dim == 0:
		return errors.New("embed: model has no dimension")
	case len(vecs) != 0 && len(vecs) != n*o.Dim:
		return fmt.Errorf("embed: %d vector values for %d units of %d dimensions", len(vecs), n, o.Dim)
	case len(common) != 0 && len(common) != o.Dim:
		return fmt.Errorf("embed: common direction of %d values, want %d", len(common), o.Dim)
	case !(o.HashedWeight >= 0 && o.HashedWeight <= 1) || !(o.EigPower >= 0) || math.IsInf(o.EigPower, 0):
		return errors.New("embed: model weights out of range")
	case o.HashedDim == 0 && o.HashedWeight != 0:
		return errors.New("embed: hashed weight without hashed part")
	}
	for _, v := range [][]float32{vecs, common} {
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return errors.New("embed: model vector not finite")
			}
		}
	}
	seen := make(map[string]bool, n)
	for _, u := range units {
		if u == "" || seen[u] {
			return fmt.Errorf("embed: model unit %q empty or repeated", u)
		}
		seen[u] = true
	}
	*l = Learned{opts: o, docs: docs, units: units, df: df, vecs: vecs, common: common, hdf: hdf}
	l.index()
	// The encoding is canonical, so the bytes read name the version as
	// the bytes written did, without encoding the model again.
	l.version = versionOf(data)
	return nil
}
