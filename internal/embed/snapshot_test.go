package embed

import (
	"bytes"
	"testing"
	"unsafe"
)

func testSnapshot(t testing.TB) *Snapshot {
	m, err := NewMatrix([][]float32{{1, 0, 0.5}, {0, 1, -0.25}, {0.5, 0.5, 0}}, 3)
	if err != nil {
		t.Fatal(err)
	}
	return &Snapshot{Generation: "7/120/3", Model: "learned@x", IDs: []int64{3, 9, 120}, Vectors: m}
}

func TestSnapshotRoundTrip(t *testing.T) {
	s := testSnapshot(t)
	b, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got Snapshot
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if got.Generation != s.Generation || got.Model != s.Model || len(got.IDs) != 3 || got.IDs[2] != 120 {
		t.Fatalf("header or ids lost: %+v", got)
	}
	q := []float32{0, 1, 0}
	want, have := s.Vectors.TopK(q, 3), got.Vectors.TopK(q, 3)
	for i := range want {
		if want[i] != have[i] {
			t.Fatalf("search differs after the round trip: %v, want %v", have, want)
		}
	}
	again, _ := got.MarshalBinary()
	if !bytes.Equal(again, b) {
		t.Fatal("a snapshot does not marshal to the same bytes twice")
	}
}

func TestSnapshotRejectsDamage(t *testing.T) {
	b, _ := testSnapshot(t).MarshalBinary()
	for name, bad := range map[string][]byte{
		"empty":     nil,
		"not one":   []byte("hello"),
		"truncated": b[:len(b)-3],
		"extended":  append(append([]byte(nil), b...), 0),
	} {
		var s Snapshot
		if err := s.UnmarshalBinary(bad); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := (&Snapshot{IDs: []int64{1}}).MarshalBinary(); err == nil {
		t.Error("a snapshot whose ids and vectors differ in number was written")
	}
}

func FuzzSnapshot(f *testing.F) {
	b, _ := testSnapshot(f).MarshalBinary()
	f.Add(b)
	f.Add(b[:len(snapshotMagic)+4])
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Snapshot
		if s.UnmarshalBinary(data) != nil {
			return
		}
		again, err := s.MarshalBinary()
		if err != nil || s.Vectors.Len() != len(s.IDs) {
			t.Fatalf("a snapshot that reads does not write back: %v", err)
		}
		var s2 Snapshot
		if err := s2.UnmarshalBinary(again); err != nil {
			t.Fatal(err)
		}
		if _, err := ViewSnapshot(data); err != nil {
			t.Fatalf("a snapshot that unmarshals does not view: %v", err)
		}
	})
}

// A view reads the vectors where they lie when it can, and copies them
// when they are not at a multiple of four bytes; both search alike.
func TestViewSnapshotReadsInPlace(t *testing.T) {
	s := testSnapshot(t)
	b, _ := s.MarshalBinary()
	if (len(b)-4*len(s.Vectors.cols))%4 != 0 {
		t.Fatalf("the vectors start at byte %d, not a multiple of four", len(b)-4*len(s.Vectors.cols))
	}
	shifted := make([]byte, len(b)+1)[1:] // the same bytes, one off alignment
	copy(shifted, b)
	q := []float32{0.5, 1, 0}
	want := s.Vectors.TopK(q, 3)
	for name, buf := range map[string][]byte{"aligned": b, "shifted": shifted} {
		v, err := ViewSnapshot(buf)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := v.Vectors.TopK(q, 3)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: search %v, want %v", name, got, want)
			}
		}
		first := &v.Vectors.cols[0]
		inPlace := uintptr(unsafe.Pointer(first)) == uintptr(unsafe.Pointer(&buf[len(buf)-4*len(v.Vectors.cols)]))
		if want := name == "aligned" && littleEndian; inPlace != want {
			t.Errorf("%s: read in place %v, want %v", name, inPlace, want)
		}
	}
}
