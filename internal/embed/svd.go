package embed

import (
	"math"
	"runtime"
	"slices"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
)

// lapackImpl is gonum's LAPACK, called directly: through lapack64's
// interface value every routine would stay in the binary (nearly 1 MB).
var lapackImpl lapackgonum.Implementation

func maxWorkers() int { return max(1, min(runtime.GOMAXPROCS(0), 16)) }

// run calls fn(i) for i in [0, n) on up to maxWorkers goroutines, handing
// out indices one at a time so that uneven pieces balance.
func run(n int, fn func(i int)) {
	workers := min(maxWorkers(), n)
	var (
		mu   sync.Mutex
		next int
		wg   sync.WaitGroup
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// csr is a sparse matrix stored as blocks of consecutive rows. The number of
// blocks is fixed rather than tied to the CPU count, and partial results are
// always summed in block order, so results do not depend on the machine.
type csr struct {
	rows, cols int
	blocks     []csrBlock
}

type csrBlock struct {
	lo, hi int     // rows [lo, hi)
	ptr    []int   // row r's entries are idx/val[ptr[r-lo]:ptr[r-lo+1]]
	idx    []int32 // column of each entry
	val    []float32
}

func (m *csr) nnz() int {
	n := 0
	for _, b := range m.blocks {
		n += len(b.idx)
	}
	return n
}

// dense is a row-major matrix.
type dense struct {
	r, c int
	a    []float64
}

func newDense(r, c int) *dense { return &dense{r, c, make([]float64, r*c)} }

func (d *dense) row(i int) []float64 { return d.a[i*d.c : (i+1)*d.c] }

// axpy adds a·x to y.
func axpy[T float32 | float64](a T, x, y []T) {
	y = y[:len(x)]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		y[i] += a * x[i]
		y[i+1] += a * x[i+1]
		y[i+2] += a * x[i+2]
		y[i+3] += a * x[i+3]
	}
	for ; i < len(x); i++ {
		y[i] += a * x[i]
	}
}

// mul returns M·X for X of m.cols rows.
func (m *csr) mul(x *dense) *dense {
	out := newDense(m.rows, x.c)
	run(len(m.blocks), func(bi int) {
		b := &m.blocks[bi]
		for r := b.lo; r < b.hi; r++ {
			o := out.row(r)
			for e := b.ptr[r-b.lo]; e < b.ptr[r-b.lo+1]; e++ {
				axpy(float64(b.val[e]), x.row(int(b.idx[e])), o)
			}
		}
	})
	return out
}

// transpose returns Mᵀ in nblocks blocks of about equal entries. Products
// with Mᵀ then run row by row like those with M, with no partial sums to
// merge and no order that depends on scheduling.
func (m *csr) transpose(nblocks int) *csr {
	start := make([]int, m.cols+1)
	for _, b := range m.blocks {
		for _, c := range b.idx {
			start[c+1]++
		}
	}
	for c := range m.cols {
		start[c+1] += start[c]
	}
	nnz := start[m.cols]
	idx := make([]int32, nnz)
	val := make([]float32, nnz)
	next := slices.Clone(start[:m.cols])
	for _, b := range m.blocks {
		for r := b.lo; r < b.hi; r++ {
			for e := b.ptr[r-b.lo]; e < b.ptr[r-b.lo+1]; e++ {
				c := b.idx[e]
				idx[next[c]], val[next[c]] = int32(r), b.val[e]
				next[c]++
			}
		}
	}
	t := &csr{rows: m.cols, cols: m.rows}
	t.blocks = splitRows(start, nblocks, func(lo, hi int) csrBlock {
		ptr := make([]int, hi-lo+1)
		for i := range ptr {
			ptr[i] = start[lo+i] - start[lo]
		}
		return csrBlock{lo: lo, hi: hi, ptr: ptr, idx: idx[start[lo]:start[hi]], val: val[start[lo]:start[hi]]}
	})
	return t
}

// splitRows cuts rows into about nblocks runs of about equal weight, where
// row r weighs cum[r+1]-cum[r].
func splitRows(cum []int, nblocks int, mk func(lo, hi int) csrBlock) []csrBlock {
	rows := len(cum) - 1
	per := max(1, (cum[rows]+nblocks-1)/nblocks)
	var blocks []csrBlock
	for lo := 0; lo < rows; {
		hi := lo + 1
		for hi < rows && cum[hi+1]-cum[lo] <= per {
			hi++
		}
		blocks = append(blocks, mk(lo, hi))
		lo = hi
	}
	return blocks
}

// general views d as a BLAS matrix; both are row-major, so no copy.
func general(d *dense) blas64.General {
	return blas64.General{Rows: d.r, Cols: d.c, Stride: max(d.c, 1), Data: d.a}
}

// gram returns AᵀA (gonum's Syrk, on one goroutine).
func gram(a *dense) *dense {
	n := a.c
	g := newDense(n, n)
	blas64.Syrk(blas.Trans, 1, general(a), 0, blas64.Symmetric{Uplo: blas.Upper, N: n, Stride: max(n, 1), Data: g.a})
	for i := range n {
		for j := range i {
			g.a[i*n+j] = g.a[j*n+i]
		}
	}
	return g
}

// mulSmall returns A·B for a tall A and a small B. gonum's Gemm computes
// each block of the product on one goroutine, in a fixed order, so the
// result does not depend on the number of CPUs.
func mulSmall(a, b *dense) *dense {
	out := newDense(a.r, b.c)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, general(a), general(b), 0, general(out))
	return out
}

// eigSym returns the eigenvalues of the symmetric matrix a, largest first,
// and the matching eigenvectors as the columns of the second result, each
// signed so that its largest-magnitude component (the first of equals) is
// positive. An eigenvector's sign is arbitrary and solvers differ on it;
// fixing it keeps the trained vectors, and so the index, reproducible.
// The solver is LAPACK's (gonum's Dsyev: tridiagonal reduction, then
// implicit QR). Should it not converge, in practice only on NaNs or
// infinities, every eigenvalue is zero, so that truncatedSVD keeps no
// direction.
func eigSym(a *dense) ([]float64, *dense) {
	n := a.r
	vals := make([]float64, n)
	vecs := newDense(n, n)
	if n == 0 {
		return vals, vecs
	}
	// Dsyev overwrites its copy of a with the eigenvectors, as columns,
	// in the order of asc, the eigenvalues ascending.
	v := slices.Clone(a.a)
	asc := make([]float64, n)
	work := []float64{0}
	lapackImpl.Dsyev(lapack.EVCompute, blas.Upper, n, v, n, asc, work, -1)
	work = make([]float64, int(work[0]))
	if !lapackImpl.Dsyev(lapack.EVCompute, blas.Upper, n, v, n, asc, work, len(work)) {
		for i := range n {
			vecs.a[i*n+i] = 1
		}
		return vals, vecs
	}
	for j := range n {
		o := n - 1 - j
		vals[j] = asc[o]
		big, sign := 0.0, 1.0
		for k := range n {
			if x := v[k*n+o]; math.Abs(x) > big {
				big, sign = math.Abs(x), math.Copysign(1, x)
			}
		}
		for k := range n {
			vecs.a[k*n+j] = sign * v[k*n+o]
		}
	}
	return vals, vecs
}

// orth returns an orthonormal basis of the column space of y, dropping
// columns that are dependent on earlier ones: those whose part outside the
// span of the earlier ones is under 1e-10 of their norm. It takes the Q of
// y's Householder QR, where |R[j,j]| is column j's part outside the span of
// the columns before it. Where a column is dependent, which only a small
// corpus gives, Q would span more than y's columns, so Gram–Schmidt finds
// the basis instead.
func orth(y *dense) *dense {
	if y.c == 0 || y.r < y.c {
		return orthGS(y)
	}
	norm := make([]float64, y.c)
	for r := range y.r {
		for j, x := range y.row(r) {
			norm[j] += x * x
		}
	}
	q := &dense{y.r, y.c, slices.Clone(y.a)}
	tau := make([]float64, y.c)
	work := []float64{0}
	lapackImpl.Dgeqrf(y.r, y.c, q.a, y.c, tau, work, -1)
	lwork := int(work[0])
	lapackImpl.Dorgqr(y.r, y.c, y.c, q.a, y.c, tau, work, -1)
	lwork = max(lwork, int(work[0]))
	work = make([]float64, lwork)
	lapackImpl.Dgeqrf(y.r, y.c, q.a, y.c, tau, work, lwork)
	for j := range y.c {
		if !(math.Abs(q.a[j*y.c+j]) > 1e-10*math.Sqrt(norm[j])) {
			return orthGS(y)
		}
	}
	lapackImpl.Dorgqr(y.r, y.c, y.c, q.a, y.c, tau, work, lwork)
	return q
}

// orthGS is orth by classical Gram–Schmidt applied twice ("twice is
// enough" for orthogonality to working precision).
func orthGS(y *dense) *dense {
	n := y.r
	var q [][]float64
	for j := range y.c {
		v := make([]float64, n)
		for r := range n {
			v[r] = y.a[r*y.c+j]
		}
		orig := math.Sqrt(dot(v, v))
		if orig == 0 {
			continue
		}
		c := make([]float64, len(q))
		for range 2 {
			for i, qi := range q {
				c[i] = dot(qi, v)
			}
			for i, qi := range q {
				axpy(-c[i], qi, v)
			}
		}
		nv := math.Sqrt(dot(v, v))
		if nv <= 1e-10*orig {
			continue
		}
		for r := range v {
			v[r] /= nv
		}
		q = append(q, v)
	}
	out := newDense(n, len(q))
	for j, qj := range q {
		for r, x := range qj {
			out.a[r*out.c+j] = x
		}
	}
	return out
}

// splitmix64 is a tiny deterministic generator whose output never changes
// between Go releases.
type splitmix64 uint64

func (s *splitmix64) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// truncatedSVD approximates the k leading singular triplets of m by the
// randomized range finder of Halko, Martinsson and Tropp with power
// iterations, and returns the left singular vectors scaled by σ^power, one
// row per row of m, with k columns (fewer when m has lower rank, padded
// with zeros).
func truncatedSVD(m *csr, k, oversample, iters int, power float64, seed uint64) *dense {
	l := min(k+oversample, m.rows, m.cols)
	out := newDense(m.rows, k)
	if l <= 0 || m.nnz() == 0 {
		return out
	}
	// A random sign matrix is as good a test matrix as a Gaussian one here.
	omega := newDense(m.cols, l)
	rng := splitmix64(seed)
	for i := range omega.a {
		if rng.next()&1 == 0 {
			omega.a[i] = 1
		} else {
			omega.a[i] = -1
		}
	}
	mt := m.transpose(len(m.blocks))
	q := orth(m.mul(omega))
	for range iters {
		q = orth(m.mul(orth(mt.mul(q))))
	}
	bt := mt.mul(q) // (QᵀM)ᵀ
	vals, w := eigSym(gram(bt))
	u := mulSmall(q, w)
	for j := 0; j < min(k, u.c); j++ {
		// Directions with no real weight are rounding noise; with a low
		// power they would otherwise count as much as the leading ones.
		if !(vals[j] > 1e-18*vals[0]) {
			break
		}
		s := math.Pow(math.Sqrt(vals[j]), power)
		for r := range m.rows {
			out.a[r*k+j] = u.a[r*u.c+j] * s
		}
	}
	return out
}
