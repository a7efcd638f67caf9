package embed

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

func randomUnit(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	Normalize(v)
	return v
}

func TestNormalize(t *testing.T) {
	v := []float32{3, 4}
	if n := Normalize(v); math.Abs(n-5) > 1e-9 || math.Abs(float64(v[0])-0.6) > 1e-6 || math.Abs(float64(v[1])-0.8) > 1e-6 {
		t.Errorf("Normalize(3,4) = %v, length %v", v, n)
	}
	z := []float32{0, 0, 0}
	if n := Normalize(z); n != 0 || !slices.Equal(z, []float32{0, 0, 0}) {
		t.Errorf("zero vector changed: %v", z)
	}
}

func TestEncodeDecode(t *testing.T) {
	v := []float32{0, 1, -1, 0.5, float32(math.Inf(1)), math.SmallestNonzeroFloat32, math.MaxFloat32}
	b := Encode(v)
	if len(b) != 4*len(v) {
		t.Fatalf("%d bytes for %d values", len(b), len(v))
	}
	// Little-endian float32: 1.0 is 00 00 80 3f.
	if !bytes.Equal(b[4:8], []byte{0, 0, 0x80, 0x3f}) {
		t.Errorf("1.0 encoded as % x", b[4:8])
	}
	w, err := Decode(b)
	if err != nil || !slices.Equal(v, w) {
		t.Errorf("round trip: %v, %v", w, err)
	}
	if _, err := Decode([]byte{1, 2, 3}); err == nil {
		t.Error("three bytes decoded")
	}
	if w, err := Decode(nil); err != nil || len(w) != 0 {
		t.Errorf("empty: %v, %v", w, err)
	}
}

// bruteTopK sorts every score: the reference TopK must match.
func bruteTopK(q []float32, vs [][]float32, k int) []Hit {
	var hs []Hit
	for i, v := range vs {
		if len(v) == len(q) {
			hs = append(hs, Hit{i, dot(q, v)})
		}
	}
	sort.SliceStable(hs, func(a, b int) bool { return hs[a].Score > hs[b].Score })
	return hs[:min(k, len(hs))]
}

func TestTopKMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 50 {
		dim := 1 + rng.IntN(40)
		n := rng.IntN(300)
		vs := make([][]float32, n)
		for i := range vs {
			vs[i] = randomUnit(rng, dim)
			// Some duplicates so that ties are tested.
			if i > 0 && rng.IntN(5) == 0 {
				vs[i] = vs[rng.IntN(i)]
			}
		}
		q := randomUnit(rng, dim)
		for _, k := range []int{0, 1, 5, 10, n, n + 3} {
			got, want := TopK(q, vs, k), bruteTopK(q, vs, k)
			if k == 0 {
				want = nil
			}
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d (n=%d dim=%d k=%d):\n got %v\nwant %v", trial, n, dim, k, got, want)
			}
		}
	}
}

func TestTopKSkipsMismatchedAndNaN(t *testing.T) {
	vs := [][]float32{{1, 0}, {1, 0, 0}, {float32(math.NaN()), 0}, {0, 1}, nil}
	got := TopK([]float32{1, 0}, vs, 10)
	want := []Hit{{0, 1}, {3, 0}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if TopK(nil, vs, 3) != nil {
		t.Error("empty query gave hits")
	}
}

func TestTopKAllocations(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	vs := make([][]float32, 5000)
	for i := range vs {
		vs[i] = randomUnit(rng, 64)
	}
	q := randomUnit(rng, 64)
	// The result slice alone, whatever the corpus size.
	if a := testing.AllocsPerRun(10, func() { TopK(q, vs, 10) }); a > 1 {
		t.Errorf("%v allocations per search", a)
	}
}

func TestDotPanicsOnLengths(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	Dot([]float32{1}, []float32{1, 2})
}

// A query with mostly zeros is scored through its non-zero entries: the
// ranking and scores must be those of the full dot product.
func TestTopKSparseQuery(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	vs := make([][]float32, 300)
	for i := range vs {
		vs[i] = randomUnit(rng, 48)
	}
	q := make([]float32, 48)
	for _, k := range []int{1, 7, 8, 20, 33} {
		q[k] = rng.Float32() - 0.5
	}
	got := TopK(q, vs, 10)
	if len(got) != 10 {
		t.Fatalf("%d hits", len(got))
	}
	for i, h := range got {
		want := Dot(q, vs[h.Index])
		if math.Abs(float64(h.Score-want)) > 1e-5 {
			t.Errorf("hit %d: score %v, dot %v", i, h.Score, want)
		}
		for j := range vs {
			if d := Dot(q, vs[j]); d > got[len(got)-1].Score+1e-5 && !slices.ContainsFunc(got, func(h Hit) bool { return h.Index == j }) {
				t.Fatalf("vector %d (dot %v) missing from the top 10", j, d)
			}
		}
	}
}

// A Matrix finds what TopK finds, for dense and mostly-zero queries.
func TestMatrixTopKMatchesTopK(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	vs := make([][]float32, 500)
	for i := range vs {
		vs[i] = randomUnit(rng, 40)
	}
	m, err := NewMatrix(vs, 40)
	if err != nil {
		t.Fatal(err)
	}
	sparse := make([]float32, 40)
	sparse[3], sparse[4], sparse[17] = 0.6, -0.2, 0.7
	for _, q := range [][]float32{randomUnit(rng, 40), sparse} {
		got, want := m.TopK(q, 12), TopK(q, vs, 12)
		if len(got) != len(want) {
			t.Fatalf("%d hits, want %d", len(got), len(want))
		}
		for i := range got {
			if got[i].Index != want[i].Index || math.Abs(float64(got[i].Score-want[i].Score)) > 1e-5 {
				t.Fatalf("hit %d: %+v, want %+v", i, got[i], want[i])
			}
		}
	}
	if m.TopK(make([]float32, 39), 3) != nil {
		t.Error("a query of the wrong length found hits")
	}
	if _, err := NewMatrix([][]float32{make([]float32, 3)}, 4); err == nil {
		t.Error("a vector of the wrong length was taken")
	}
}
