package embed

import (
	"bytes"
	"testing"
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
	})
}
