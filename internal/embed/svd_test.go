package embed

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func randomDense(rng *rand.Rand, r, c int) *dense {
	d := newDense(r, c)
	for i := range d.a {
		d.a[i] = rng.NormFloat64()
	}
	return d
}

func TestEigSym(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 2, 7, 30} {
		a := gram(randomDense(rng, n+3, n))
		vals, vecs := eigSym(a)
		if !slices.IsSortedFunc(vals, func(x, y float64) int { return -cmpf(x, y) }) {
			t.Errorf("n=%d: eigenvalues not in decreasing order: %v", n, vals)
		}
		// Each eigenvector's largest-magnitude component is positive.
		for j := range n {
			big := 0
			for k := range n {
				if math.Abs(vecs.a[k*n+j]) > math.Abs(vecs.a[big*n+j]) {
					big = k
				}
			}
			if vecs.a[big*n+j] <= 0 {
				t.Errorf("n=%d: eigenvector %d has its largest component %g negative", n, j, vecs.a[big*n+j])
			}
		}
		if vals2, vecs2 := eigSym(a); !slices.Equal(vals, vals2) || !slices.Equal(vecs.a, vecs2.a) {
			t.Errorf("n=%d: two solutions differ", n)
		}
		// A·v = λ·v and VᵀV = I.
		for j := range n {
			for i := range n {
				var av, vv float64
				for k := range n {
					av += a.a[i*n+k] * vecs.a[k*n+j]
					vv += vecs.a[k*n+i] * vecs.a[k*n+j]
				}
				if d := av - vals[j]*vecs.a[i*n+j]; math.Abs(d) > 1e-8*(1+math.Abs(vals[0])) {
					t.Fatalf("n=%d: residual %g", n, d)
				}
				if want := b2f(i == j); math.Abs(vv-want) > 1e-10 {
					t.Fatalf("n=%d: VᵀV[%d,%d] = %g", n, i, j, vv)
				}
			}
		}
	}
}

func cmpf(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestOrth checks that orth's columns are orthonormal and span y's, and
// that it drops dependent and zero columns, also where there are more
// columns than rows.
func TestOrth(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	dep := randomDense(rng, 50, 6)
	// Column 4 = column 0 + column 1; column 5 is zero.
	for r := range 50 {
		dep.a[r*6+4] = dep.a[r*6] + dep.a[r*6+1]
		dep.a[r*6+5] = 0
	}
	for _, c := range []struct {
		y    *dense
		want int
	}{
		{randomDense(rng, 50, 6), 6},
		{dep, 4},
		{randomDense(rng, 5, 8), 5},
	} {
		y := c.y
		q := orth(y)
		if q.r != y.r || q.c != c.want {
			t.Fatalf("%d×%d from %d×%d, want %d columns", q.r, q.c, y.r, y.c, c.want)
		}
		g := gram(q)
		for i := range q.c {
			for j := range q.c {
				if math.Abs(g.a[i*q.c+j]-b2f(i == j)) > 1e-12 {
					t.Fatalf("%d×%d: QᵀQ[%d,%d] = %g", y.r, y.c, i, j, g.a[i*q.c+j])
				}
			}
		}
		// y − QQᵀy = 0.
		for j := range y.c {
			res := make([]float64, y.r)
			var norm float64
			for r := range y.r {
				res[r] = y.a[r*y.c+j]
				norm += res[r] * res[r]
			}
			for i := range q.c {
				var c float64
				for r := range y.r {
					c += q.a[r*q.c+i] * y.a[r*y.c+j]
				}
				for r := range y.r {
					res[r] -= c * q.a[r*q.c+i]
				}
			}
			if d := math.Sqrt(dot(res, res)); d > 1e-12*(1+math.Sqrt(norm)) {
				t.Fatalf("%d×%d: column %d is %g outside Q's span", y.r, y.c, j, d)
			}
		}
	}
}

// sparseFrom stores a dense matrix as csr with a few blocks.
func sparseFrom(d *dense, nblocks int) *csr {
	m := &csr{rows: d.r, cols: d.c}
	cum := make([]int, d.r+1)
	for r := range d.r {
		cum[r+1] = cum[r] + d.c
	}
	m.blocks = splitRows(cum, nblocks, func(lo, hi int) csrBlock {
		b := csrBlock{lo: lo, hi: hi, ptr: []int{0}}
		for r := lo; r < hi; r++ {
			for c := range d.c {
				if x := d.a[r*d.c+c]; x != 0 {
					b.idx = append(b.idx, int32(c))
					b.val = append(b.val, float32(x))
				}
			}
			b.ptr = append(b.ptr, len(b.idx))
		}
		return b
	})
	return m
}

func TestTransposeAndMul(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	d := randomDense(rng, 37, 23)
	for i := range d.a {
		if rng.IntN(3) > 0 {
			d.a[i] = 0
		}
		d.a[i] = float64(float32(d.a[i]))
	}
	m := sparseFrom(d, 5)
	x := randomDense(rng, 23, 4)
	got := m.mul(x)
	y := randomDense(rng, 37, 4)
	gotT := m.transpose(3).mul(y)
	for r := range 37 {
		for k := range 4 {
			var want float64
			for c := range 23 {
				want += d.a[r*23+c] * x.a[c*4+k]
			}
			if math.Abs(got.a[r*4+k]-want) > 1e-9 {
				t.Fatalf("M·X[%d,%d] = %g, want %g", r, k, got.a[r*4+k], want)
			}
		}
	}
	for c := range 23 {
		for k := range 4 {
			var want float64
			for r := range 37 {
				want += d.a[r*23+c] * y.a[r*4+k]
			}
			if math.Abs(gotT.a[c*4+k]-want) > 1e-9 {
				t.Fatalf("Mᵀ·Y[%d,%d] = %g, want %g", c, k, gotT.a[c*4+k], want)
			}
		}
	}
}

// TestTruncatedSVD recovers the singular values of a matrix built with
// known ones.
func TestTruncatedSVD(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	rows, cols := 300, 120
	sigma := []float64{50, 30, 20, 10, 5, 2, 1, 0.5}
	u := orth(randomDense(rng, rows, len(sigma)))
	v := orth(randomDense(rng, cols, len(sigma)))
	d := newDense(rows, cols)
	for r := range rows {
		for c := range cols {
			for k, s := range sigma {
				d.a[r*cols+c] += u.a[r*u.c+k] * s * v.a[c*v.c+k]
			}
		}
	}
	m := sparseFrom(d, 4)
	const k = 5
	out := truncatedSVD(m, k, 8, 2, 1, 42)
	for j := range k {
		var n2, overlap float64
		for r := range rows {
			n2 += out.a[r*k+j] * out.a[r*k+j]
			overlap += out.a[r*k+j] * u.a[r*u.c+j]
		}
		// σ^1 scaling makes each column's norm its singular value; the
		// column is ± the true singular vector.
		if got := math.Sqrt(n2); math.Abs(got-sigma[j]) > 1e-3*sigma[j] {
			t.Errorf("σ%d = %g, want %g", j, got, sigma[j])
		}
		if c := math.Abs(overlap) / math.Sqrt(n2); c < 0.999 {
			t.Errorf("singular vector %d: |cos| %g", j, c)
		}
	}
	// Rank lower than asked: the extra columns are zero, not noise.
	small := sparseFrom(newDense(10, 3), 1)
	if z := truncatedSVD(small, 4, 2, 1, 0, 1); len(z.a) != 40 || slices.ContainsFunc(z.a, func(x float64) bool { return x != 0 }) {
		t.Errorf("zero matrix gave %v", z.a)
	}
}
