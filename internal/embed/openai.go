package embed

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/annals-project/annals/internal/llm"
)

// EmbedStep is the pipeline step the OpenAI embedder's calls are counted
// under.
const EmbedStep = "embed"

// OpenAI embeds through the embeddings endpoint of an llm.Client, which
// batches and caches; this type checks the replies and normalises them.
type OpenAI struct {
	c     llm.Client
	model string

	mu  sync.Mutex
	dim int
}

// NewOpenAI returns an embedder over c whose vectors must have dim values.
// With dim ≤ 0 the first reply fixes the dimension.
func NewOpenAI(c llm.Client, dim int) *OpenAI {
	model := c.Model()
	// The embedding model may differ from the chat model; a client that
	// can name it says so.
	if em, ok := c.(interface{ EmbedModel() string }); ok && em.EmbedModel() != "" {
		model = em.EmbedModel()
	}
	return &OpenAI{c: c, model: model, dim: max(dim, 0)}
}

// Name implements Embedder.
func (o *OpenAI) Name() string { return "openai" }

// Version implements Embedder: vectors change with the model and dimension.
func (o *OpenAI) Version() string { return fmt.Sprintf("%s-d%d", o.model, o.Dim()) }

// Dim implements Embedder. It is 0 until known when NewOpenAI got no
// dimension.
func (o *OpenAI) Dim() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.dim
}

// Embed implements Embedder.
func (o *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	vecs, _, err := o.c.Embed(ctx, EmbedStep, texts)
	if err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("embed: endpoint returned %d vectors for %d texts", len(vecs), len(texts))
	}
	o.mu.Lock()
	if o.dim == 0 {
		o.dim = len(vecs[0])
	}
	dim := o.dim
	o.mu.Unlock()
	out := make([][]float32, len(vecs))
	for i, v := range vecs {
		if len(v) != dim || dim == 0 {
			return nil, fmt.Errorf("embed: endpoint returned a vector of %d values, want %d", len(v), dim)
		}
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, fmt.Errorf("embed: endpoint returned a vector with %v", x)
			}
		}
		// A copy: the client may hand out slices it also keeps.
		w := append([]float32(nil), v...)
		Normalize(w)
		out[i] = w
	}
	return out, nil
}
