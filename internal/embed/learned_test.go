package embed

import (
	"bytes"
	"context"
	"io/fs"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/annals-project/annals/internal/demo"
)

// demoTexts are the paragraphs of the demo corpus: classical-Chinese
// biographies with a little English and Vietnamese.
var demoTexts = sync.OnceValue(func() []string {
	var out []string
	err := fs.WalkDir(demo.Corpus(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".txt") || strings.HasSuffix(p, ".md")) {
			return err
		}
		b, err := fs.ReadFile(demo.Corpus(), p)
		for _, line := range strings.Split(string(b), "\n") {
			if line = strings.TrimSpace(line); line != "" {
				out = append(out, line)
			}
		}
		return err
	})
	if err != nil {
		panic(err)
	}
	return out
})

// demoModel is trained once and shared by the tests that only read it.
var demoModel = sync.OnceValues(func() (*Learned, error) {
	return Train(context.Background(), demoTexts(), Options{MinCount: 2})
})

func trainedDemo(t testing.TB) *Learned {
	t.Helper()
	l, err := demoModel()
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestTrainDemo(t *testing.T) {
	l := trainedDemo(t)
	o := DefaultOptions()
	if l.Dim() != o.Dim+o.HashedDim || l.Name() != "learned" || !strings.HasPrefix(l.Version(), learnedFormat+"-") {
		t.Errorf("dim %d name %s version %s", l.Dim(), l.Name(), l.Version())
	}
	if l.VocabSize() < 500 {
		t.Errorf("only %d units learned", l.VocabSize())
	}
	// Both characters and words get vectors.
	if _, ok := l.cjk['曹']; !ok {
		t.Error("no vector for 曹")
	}
	if _, ok := l.words["the"]; !ok {
		t.Error("no vector for the word 'the'")
	}
	t.Log(l)
}

func TestTrainDeterministic(t *testing.T) {
	a := trainedDemo(t)
	// Another run, on one thread: blocks and sums must not depend on the
	// number of CPUs.
	prev := runtime.GOMAXPROCS(1)
	b, err := Train(context.Background(), demoTexts(), Options{MinCount: 2})
	runtime.GOMAXPROCS(prev)
	if err != nil {
		t.Fatal(err)
	}
	ab, _ := a.MarshalBinary()
	bb, _ := b.MarshalBinary()
	if !bytes.Equal(ab, bb) || a.Version() != b.Version() {
		t.Errorf("two trainings differ: versions %s and %s", a.Version(), b.Version())
	}
	c, err := Train(context.Background(), demoTexts()[1:], Options{MinCount: 2})
	if err != nil {
		t.Fatal(err)
	}
	if c.Version() == a.Version() {
		t.Error("a different corpus gave the same version")
	}
}

func TestLearnedNormalisedAndOOV(t *testing.T) {
	l := trainedDemo(t)
	for _, s := range []string{"周瑜", "孙权遣周瑜拒曹操于赤壁。", "𠮷𠮷", "quantum chromodynamics", "ひらがな", "Lý Thường Kiệt"} {
		if n := norm(embedOne(t, l, s)); math.Abs(n-1) > 1e-5 {
			t.Errorf("%q: norm %v", s, n)
		}
	}
	for _, s := range []string{"", "，。、 ！"} {
		if n := norm(embedOne(t, l, s)); n != 0 {
			t.Errorf("%q: norm %v, want 0", s, n)
		}
	}
	// Without the hashed part, text made only of unseen units has nothing
	// to embed.
	lo := variant(l, 0, 0)
	if lo.Dim() != l.opts.Dim {
		t.Errorf("learned-only dim %d", lo.Dim())
	}
	if n := norm(embedOne(t, lo, "𠮷𠮷")); n != 0 {
		t.Errorf("unseen text, learned part only: norm %v", n)
	}
	if n := norm(embedOne(t, lo, "孙权")); math.Abs(n-1) > 1e-5 {
		t.Errorf("known text, learned part only: norm %v", n)
	}
}

func TestLearnedSimilarity(t *testing.T) {
	checkSimilarity(t, trainedDemo(t))
	checkSimilarity(t, variant(trainedDemo(t), 0, 0))
}

// TestLearnedUnitNeighbours checks that the vectors learned something:
// surnames of the demo's rulers sit nearer each other than a surname and a
// grammatical particle.
func TestLearnedUnitNeighbours(t *testing.T) {
	l := trainedDemo(t)
	vec := func(r rune) []float32 {
		id, ok := l.cjk[r]
		if !ok {
			t.Fatalf("no vector for %c", r)
		}
		return l.vecs[int(id)*l.opts.Dim : int(id+1)*l.opts.Dim]
	}
	if near, far := Dot(vec('孙'), vec('刘')), Dot(vec('孙'), vec('之')); near <= far {
		t.Errorf("cos(孙,刘) %.3f ≤ cos(孙,之) %.3f", near, far)
	}
}

func TestLearnedMarshalRoundTrip(t *testing.T) {
	l := trainedDemo(t)
	b, err := l.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	m, err := Load(b)
	if err != nil {
		t.Fatal(err)
	}
	if m.Version() != l.Version() || m.Dim() != l.Dim() || m.Options() != l.Options() {
		t.Fatalf("reloaded %v (%s), was %v (%s)", m, m.Version(), l, l.Version())
	}
	// Enough texts for the parallel path, each also embedded alone.
	texts := []string{"𠮷", "", "Red Cliffs"}
	for len(texts) < 400 {
		texts = append(texts, demoTexts()...)
	}
	a, _ := l.Embed(context.Background(), texts)
	c, _ := m.Embed(context.Background(), texts)
	for i := range texts {
		if !slices.Equal(a[i], c[i]) {
			t.Fatalf("text %d embeds differently after reloading", i)
		}
		if i%37 == 0 && !slices.Equal(a[i], embedOne(t, l, texts[i])) {
			t.Fatalf("text %d embeds differently alone than in a batch", i)
		}
	}
	t.Logf("model of %d units: %d bytes", l.VocabSize(), len(b))
}

func TestLearnedUnmarshalRejects(t *testing.T) {
	b, err := trainedDemo(t).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	bad := map[string][]byte{
		"empty":    nil,
		"magic":    append([]byte("not a model"), b[20:]...),
		"trailing": append(slices.Clone(b), 0),
	}
	for _, n := range []int{len(learnedMagic), len(learnedMagic) + 3, len(b) / 3, len(b) / 2, len(b) - 1} {
		bad["truncated"+string(rune('0'+n%10))] = b[:n]
	}
	for name, data := range bad {
		if _, err := Load(data); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
}

func TestTrainEmptyCorpus(t *testing.T) {
	for _, corpus := range [][]string{nil, {""}, {"，。"}} {
		l, err := Train(context.Background(), corpus, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if l.VocabSize() != 0 {
			t.Errorf("%q: %d units", corpus, l.VocabSize())
		}
		checkSimilarity(t, l)
		b, _ := l.MarshalBinary()
		if m, err := Load(b); err != nil || m.Version() != l.Version() {
			t.Errorf("%q: reload: %v", corpus, err)
		}
	}
}

func TestTrainCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Train(ctx, demoTexts(), Options{}); err == nil {
		t.Error("cancelled training gave no error")
	}
	if _, err := trainedDemo(t).Embed(ctx, []string{"甲"}); err == nil {
		t.Error("cancelled embedding gave no error")
	}
}

func TestDefault(t *testing.T) {
	l, err := Default(context.Background(), demoTexts()[:40])
	if err != nil {
		t.Fatal(err)
	}
	if l.Options() != DefaultOptions() {
		t.Errorf("options %+v", l.Options())
	}
}
