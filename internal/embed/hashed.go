package embed

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
)

// hashedVersion changes whenever the features, hashing or weights change.
const hashedVersion = "1"

// kindWeight scales each feature kind. Trigrams are many per word, so each
// weighs less than the word itself.
var kindWeight = [4]float32{kindUni: 1, kindBi: 1, kindWord: 1, kindTri: 0.4}

// Hashed embeds text by feature hashing: CJK character unigrams and bigrams,
// words and word trigrams of alphabetic scripts, each hashed to a signed
// bucket with a sublinear term frequency. It needs no training and no
// corpus, and is safe for concurrent use.
type Hashed struct {
	dim int
}

// NewHashed returns a hashed embedder of dim dimensions (256 if dim ≤ 0).
func NewHashed(dim int) *Hashed {
	if dim <= 0 {
		dim = 256
	}
	return &Hashed{dim: dim}
}

// Name implements Embedder.
func (h *Hashed) Name() string { return "hashed" }

// Version implements Embedder.
func (h *Hashed) Version() string { return fmt.Sprintf("%s-d%d", hashedVersion, h.dim) }

// Dim implements Embedder.
func (h *Hashed) Dim() int { return h.dim }

// Embed implements Embedder.
func (h *Hashed) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	err := parallel(ctx, len(texts), func(s *scratch, i int) {
		v := make([]float32, h.dim)
		s.feats = appendFeatures(s.feats[:0], &s.sc, texts[i])
		addHashed(v, s.feats, nil)
		Normalize(v)
		out[i] = v
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// scratch is the per-goroutine working memory of an embedding.
type scratch struct {
	sc    scanner
	feats []uint64
	units []int32
	buf   []byte
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// parallel runs fn for every index, on a few goroutines for large batches.
// Each text's vector depends on that text alone, so the split does not
// change results.
func parallel(ctx context.Context, n int, fn func(s *scratch, i int)) error {
	if n < 256 {
		// Small batches stay on the caller's goroutine.
		s := scratchPool.Get().(*scratch)
		defer scratchPool.Put(s)
		for i := range n {
			if err := checkCtx(ctx, i); err != nil {
				return err
			}
			fn(s, i)
		}
		return nil
	}
	workers := maxWorkers()
	var (
		wg   sync.WaitGroup
		errs = make([]error, workers)
	)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := scratchPool.Get().(*scratch)
			defer scratchPool.Put(s)
			for i := w; i < n; i += workers {
				if err := checkCtx(ctx, i/workers); err != nil {
					errs[w] = err
					return
				}
				fn(s, i)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Where each part of a feature hash goes: bit 0 is the sign, bits 1–32 pick
// the bucket, bits 33–60 the idf slot, bits 62–63 the kind.
func bucketOf(h uint64, dim int) int { return int(((h >> 1) & 0xffffffff) * uint64(dim) >> 32) }

func signOf(h uint64) float32 {
	if h&1 != 0 {
		return -1
	}
	return 1
}

func slotOf(h uint64, bits uint) uint64 { return (h >> 33) & (1<<bits - 1) }

// addHashed adds the hashed features to v with weight (1 + ln tf) per
// distinct feature, times its kind's weight and, when idf is given, its
// inverse document frequency. feats is sorted in place.
func addHashed(v []float32, feats []uint64, idf func(uint64) float32) {
	slices.Sort(feats)
	for i := 0; i < len(feats); {
		h := feats[i]
		j := i + 1
		for j < len(feats) && feats[j] == h {
			j++
		}
		w := kindWeight[featureKind(h)]
		if j-i > 1 {
			w *= 1 + float32(math.Log(float64(j-i)))
		}
		if idf != nil {
			w *= idf(h)
		}
		v[bucketOf(h, len(v))] += signOf(h) * w
		i = j
	}
}
