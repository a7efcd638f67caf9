package embed

import (
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
)

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

// gram returns AᵀA, summed over fixed row chunks.
func gram(a *dense) *dense {
	const chunk = 1024
	n := (a.r + chunk - 1) / chunk
	parts := make([]*dense, n)
	run(n, func(ci int) {
		g := newDense(a.c, a.c)
		for r := ci * chunk; r < min(a.r, (ci+1)*chunk); r++ {
			ar := a.row(r)
			for i, x := range ar {
				if x != 0 {
					axpy(x, ar, g.row(i))
				}
			}
		}
		parts[ci] = g
	})
	g := newDense(a.c, a.c)
	for _, p := range parts {
		axpy(1, p.a, g.a)
	}
	return g
}

// mulSmall returns A·B for a tall A and a small B.
func mulSmall(a, b *dense) *dense {
	out := newDense(a.r, b.c)
	const chunk = 1024
	run((a.r+chunk-1)/chunk, func(ci int) {
		for r := ci * chunk; r < min(a.r, (ci+1)*chunk); r++ {
			o := out.row(r)
			for k, x := range a.row(r) {
				if x != 0 {
					axpy(x, b.row(k), o)
				}
			}
		}
	})
	return out
}

// eigSym returns the eigenvalues of the symmetric matrix a, largest first,
// and the matching eigenvectors as the columns of the second result. It
// uses cyclic Jacobi rotations: slow for big matrices but exact and simple
// for the few hundred columns a randomized SVD works with.
func eigSym(a *dense) ([]float64, *dense) {
	n := a.r
	m := newDense(n, n)
	copy(m.a, a.a)
	v := newDense(n, n)
	for i := range n {
		v.a[i*n+i] = 1
	}
	for sweep := 0; sweep < 100; sweep++ {
		var off, diag float64
		for i := range n {
			diag += m.a[i*n+i] * m.a[i*n+i]
			for j := i + 1; j < n; j++ {
				off += m.a[i*n+j] * m.a[i*n+j]
			}
		}
		if off <= 1e-30*diag || off == 0 {
			break
		}
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				apq := m.a[p*n+q]
				if apq == 0 {
					continue
				}
				app, aqq := m.a[p*n+p], m.a[q*n+q]
				theta := (aqq - app) / (2 * apq)
				t := 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				if theta < 0 {
					t = -t
				}
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				// Rotate rows and columns p and q of m.
				for k := range n {
					mkp, mkq := m.a[k*n+p], m.a[k*n+q]
					m.a[k*n+p] = c*mkp - s*mkq
					m.a[k*n+q] = s*mkp + c*mkq
				}
				for k := range n {
					mpk, mqk := m.a[p*n+k], m.a[q*n+k]
					m.a[p*n+k] = c*mpk - s*mqk
					m.a[q*n+k] = s*mpk + c*mqk
				}
				for k := range n {
					vkp, vkq := v.a[k*n+p], v.a[k*n+q]
					v.a[k*n+p] = c*vkp - s*vkq
					v.a[k*n+q] = s*vkp + c*vkq
				}
			}
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return m.a[order[i]*n+order[i]] > m.a[order[j]*n+order[j]] })
	vals := make([]float64, n)
	vecs := newDense(n, n)
	for j, o := range order {
		vals[j] = m.a[o*n+o]
		for k := range n {
			vecs.a[k*n+j] = v.a[k*n+o]
		}
	}
	return vals, vecs
}

// orth returns an orthonormal basis of the column space of y by classical
// Gram–Schmidt applied twice ("twice is enough" for orthogonality to working
// precision), dropping columns that are dependent on earlier ones.
func orth(y *dense) *dense {
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
