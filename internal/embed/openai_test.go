package embed

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/llm/llmtest"
)

// fakeClient answers embedding calls from a function and records them.
type fakeClient struct {
	embed func(texts []string) ([][]float32, error)
	steps []string
	calls int
}

func (f *fakeClient) Chat(context.Context, llm.Request) (*llm.Response, error) {
	return nil, errors.New("no chat here")
}

func (f *fakeClient) Embed(_ context.Context, step string, texts []string) ([][]float32, llm.Usage, error) {
	f.calls++
	f.steps = append(f.steps, step)
	v, err := f.embed(texts)
	return v, llm.Usage{}, err
}

func (f *fakeClient) Model() string { return "fake-model" }

func constantVectors(v ...float32) func([]string) ([][]float32, error) {
	return func(texts []string) ([][]float32, error) {
		out := make([][]float32, len(texts))
		for i := range out {
			out[i] = v
		}
		return out, nil
	}
}

func TestOpenAINormalisesAndCopies(t *testing.T) {
	// The same slice for both texts, as a client's cache may hand out.
	shared := []float32{3, 4, 0}
	f := &fakeClient{embed: func([]string) ([][]float32, error) { return [][]float32{shared, shared}, nil }}
	e := NewOpenAI(f, 3)
	vs, err := e.Embed(context.Background(), []string{"甲", "乙"})
	if err != nil {
		t.Fatal(err)
	}
	want := []float32{0.6, 0.8, 0}
	for _, v := range vs {
		for i := range v {
			if math.Abs(float64(v[i]-want[i])) > 1e-6 {
				t.Fatalf("got %v, want %v", v, want)
			}
		}
	}
	if !slices.Equal(shared, []float32{3, 4, 0}) {
		t.Errorf("client's vector changed to %v", shared)
	}
	vs[0][0] = 9
	if vs[1][0] == 9 {
		t.Error("two texts share one vector")
	}
	if !slices.Equal(f.steps, []string{EmbedStep}) {
		t.Errorf("steps %v", f.steps)
	}
	if e.Name() != "openai" || e.Dim() != 3 || e.Version() != "fake-model-d3" {
		t.Errorf("name %s dim %d version %s", e.Name(), e.Dim(), e.Version())
	}
}

func TestOpenAIChecksReplies(t *testing.T) {
	boom := errors.New("boom")
	for name, c := range map[string]struct {
		dim   int
		embed func([]string) ([][]float32, error)
	}{
		"error":      {3, func([]string) ([][]float32, error) { return nil, boom }},
		"too few":    {3, func([]string) ([][]float32, error) { return [][]float32{{1, 0, 0}}, nil }},
		"wrong dim":  {4, constantVectors(1, 0, 0)},
		"NaN":        {3, constantVectors(1, float32(math.NaN()), 0)},
		"infinite":   {3, constantVectors(float32(math.Inf(-1)), 0, 0)},
		"empty":      {0, constantVectors()},
		"ragged dim": {0, func(t []string) ([][]float32, error) { return [][]float32{{1, 0}, {1}}, nil }},
	} {
		_, err := NewOpenAI(&fakeClient{embed: c.embed}, c.dim).Embed(context.Background(), []string{"a", "b"})
		if err == nil {
			t.Errorf("%s: no error", name)
		}
		if name == "error" && !errors.Is(err, boom) {
			t.Errorf("error not wrapped: %v", err)
		}
	}
}

func TestOpenAILearnsDim(t *testing.T) {
	f := &fakeClient{embed: constantVectors(0, 2)}
	e := NewOpenAI(f, 0)
	if e.Dim() != 0 {
		t.Errorf("dim %d before any call", e.Dim())
	}
	if _, err := e.Embed(context.Background(), []string{"x"}); err != nil {
		t.Fatal(err)
	}
	if e.Dim() != 2 {
		t.Errorf("dim %d after a call", e.Dim())
	}
	f.embed = constantVectors(1, 2, 3)
	if _, err := e.Embed(context.Background(), []string{"y"}); err == nil {
		t.Error("a later reply of another dimension was accepted")
	}
	if vs, err := e.Embed(context.Background(), nil); err != nil || vs != nil || f.calls != 2 {
		t.Errorf("no texts: %v, %v, %d calls", vs, err, f.calls)
	}
}

// TestOpenAIServer goes through the real client to a fake OpenAI-compatible
// server whose vectors are deterministic hashes.
func TestOpenAIServer(t *testing.T) {
	srv := llmtest.New(t)
	c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "m"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := NewOpenAI(c, 16)
	texts := []string{"子曰：学而时习之", "周瑜", "子曰：学而时习之", "Red Cliffs"}
	vs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		if len(v) != 16 || math.Abs(norm(v)-1) > 1e-5 {
			t.Errorf("text %d: %d values, norm %v", i, len(v), norm(v))
		}
	}
	if !slices.Equal(vs[0], vs[2]) || slices.Equal(vs[0], vs[1]) {
		t.Error("equal texts embed differently or different ones alike")
	}
	if srv.EmbedCalls() == 0 {
		t.Error("no call reached the server")
	}
	if _, err := NewOpenAI(c, 32).Embed(context.Background(), texts); err == nil {
		t.Error("16-value vectors accepted as 32")
	}
}
