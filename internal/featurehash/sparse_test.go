package featurehash

import (
	"bytes"
	"slices"
	"testing"

	"github.com/annals-project/annals/internal/modelfile"
)

// A frozen table scores exactly as the dense rows it was frozen from,
// collisions in the first slot included, whether it keeps a feature's
// weights as a list, as a pair x, −x in the slot or as a dense row, and
// keeps no all-zero feature.
func TestSparseScoresAsTheDenseRows(t *testing.T) {
	const labels = 5
	tab := NewTable(0)
	var dense []float32
	var hashes []uint64
	for i := range 3000 {
		h := uint64(i) << 40 // alike in their low bits: many share a first slot
		if i%7 == 0 {
			h = uint64(i) * 0xff51afd7ed558ccd
		}
		tab.Put(h, int32(i))
		hashes = append(hashes, h)
		for k := range labels {
			w := float32(0)
			// Every 11th feature has no weight; every 5th weighs every
			// label, and is kept as a dense row.
			if ((i+k)%3 == 0 || i%5 == 0) && i%11 != 0 {
				w = float32(i%17) - 8 + float32(k)/4
			}
			// Every 13th weighs labels 1 and 4 alike but for the sign,
			// as a perceptron's update leaves them; every 26th has them
			// swapped.
			if i%13 == 0 && i%5 != 0 {
				w = 0
				if x := float32(i%9) + 0.5; k == 1 {
					w = x
				} else if k == 4 {
					w = -x
				}
				if i%26 == 0 {
					w = -w
				}
			}
			dense = append(dense, w)
		}
	}
	s := Freeze(tab, dense, labels)
	kept := 0
	for i, h := range hashes {
		nz := slices.ContainsFunc(dense[i*labels:(i+1)*labels], func(x float32) bool { return x != 0 })
		if nz {
			kept++
		}
		if got := s.Row(h); (len(got) > 0) != nz {
			t.Fatalf("feature %d: row %v, non-zero weights %v", i, got, nz)
		}
	}
	if s.Len() != kept {
		t.Errorf("%d features kept, want %d", s.Len(), kept)
	}
	pairs := 0
	for _, sl := range s.slots {
		if sl.b&slotPair != 0 {
			pairs++
		}
	}
	if len(s.dense) == 0 || len(s.weights) == 0 || pairs == 0 {
		t.Fatalf("%d dense weights, %d listed and %d pairs: every form should be in use", len(s.dense), len(s.weights), pairs)
	}
	// Runs longer than AddTo's batch, with absent hashes among them.
	for start := 0; start < len(hashes); start += 97 {
		hs := append([]uint64{12345}, hashes[start:min(start+70, len(hashes))]...)
		got := make([]float32, labels)
		s.AddTo(hs, got)
		want := make([]float32, labels)
		for _, h := range hs {
			if r, ok := tab.Get(h); ok {
				for k := range labels {
					want[k] += dense[int(r)*labels+k]
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("features from %d: %v, want %v", start, got, want)
		}
	}

	// The model file keeps them as they are.
	var buf bytes.Buffer
	mw, err := modelfile.Create(&buf, "test 1\n", struct{}{})
	if err != nil {
		t.Fatal(err)
	}
	s.Write(mw)
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	br, err := modelfile.Open(bytes.NewReader(buf.Bytes()), "test 1\n", "test model", &struct{}{})
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadSparse(br, s.Len(), labels)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Hashes(), s.Hashes()) {
		t.Fatal("the features read back differ")
	}
	for _, h := range s.Hashes() {
		if !slices.Equal(back.Row(h), s.Row(h)) {
			t.Fatalf("%#x: %v read back as %v", h, s.Row(h), back.Row(h))
		}
	}
	if _, err := ReadSparse(br, 1, labels); err == nil {
		t.Error("a feature past the end was read")
	}
}
