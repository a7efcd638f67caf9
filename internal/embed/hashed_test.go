package embed

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"slices"
	"strings"
	"testing"
)

func embedOne(t testing.TB, e Embedder, text string) []float32 {
	t.Helper()
	vs, err := e.Embed(context.Background(), []string{text})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 || len(vs[0]) != e.Dim() {
		t.Fatalf("%s: got %d vectors of %d values, want 1 of %d", e.Name(), len(vs), len(vs[0]), e.Dim())
	}
	return vs[0]
}

func norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func featureCount(text string) int {
	var sc scanner
	return len(appendFeatures(nil, &sc, text))
}

func TestFeatures(t *testing.T) {
	for _, c := range []struct {
		text string
		n    int
	}{
		{"", 0},
		{"，。！？  ", 0},
		{"曹", 1},
		{"曹操", 3},           // 2 unigrams + 1 bigram
		{"曹，操", 2},          // no bigram across punctuation
		{"曹 操", 2},          // nor across a space
		{"a", 1},            // a one-letter word has no trigrams
		{"ab", 3},           // word + <ab + ab>
		{"cao cao", 8},      // each word: word + 3 trigrams
		{"Cao曹操", 7},        // the script change ends the word
		{"zhuge-liang", 12}, // the hyphen splits: 1+5 twice
	} {
		if n := featureCount(c.text); n != c.n {
			t.Errorf("%q: %d features, want %d", c.text, n, c.n)
		}
	}
}

func TestHashedFoldsCaseAndWidth(t *testing.T) {
	h := NewHashed(64)
	a := embedOne(t, h, "Cao Cao")
	for _, s := range []string{"cao cao", "CAO CAO", "ＣＡＯ ＣＡＯ", "Cao, Cao!"} {
		if !slices.Equal(a, embedOne(t, h, s)) {
			t.Errorf("%q embeds differently from %q", s, "Cao Cao")
		}
	}
}

// TestHashedGolden pins the vectors: if it fails, the features or hashing
// changed and hashedVersion must change with them.
func TestHashedGolden(t *testing.T) {
	h := NewHashed(256)
	var all []byte
	for _, s := range []string{"子曰：学而时习之，不亦说乎？", "Cao Cao crossed the Yangtze.", "Trần Hưng Đạo"} {
		all = append(all, Encode(embedOne(t, h, s))...)
	}
	sum := sha256.Sum256(all)
	const want = "785e44151423d2fc"
	if got := hex.EncodeToString(sum[:8]); got != want || h.Version() != "1-d256" {
		t.Errorf("vectors hash to %s, version %s: bump hashedVersion if the change is meant", got, h.Version())
	}
}

func TestHashedDeterministicAndNormalised(t *testing.T) {
	ctx := context.Background()
	texts := make([]string, 600) // enough to take the parallel path
	for i := range texts {
		texts[i] = strings.Repeat("太祖破袁绍于官渡。", i%7+1) + string(rune('a'+i%26))
	}
	texts[5] = ""
	texts[6] = "……  ，。"
	a, err := NewHashed(128).Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewHashed(128).Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range texts {
		if !slices.Equal(a[i], b[i]) {
			t.Fatalf("text %d embeds differently on a second run", i)
		}
		one := embedOne(t, NewHashed(128), texts[i])
		if !slices.Equal(a[i], one) {
			t.Fatalf("text %d embeds differently alone than in a batch", i)
		}
		n := norm(a[i])
		if i == 5 || i == 6 {
			if n != 0 {
				t.Errorf("text %q: norm %v, want the zero vector", texts[i], n)
			}
		} else if math.Abs(n-1) > 1e-5 {
			t.Errorf("text %d: norm %v", i, n)
		}
	}
}

// Classical-Chinese sentences written for these tests: each probe must be
// closer to the sentence on the same subject than to the unrelated one.
var similarityCases = []struct {
	probe, near, far string
}{
	{
		"曹操率大军南下，与孙权、刘备战于赤壁，为火所败。",
		"赤壁之役，孙权遣周瑜与刘备并力，纵火烧曹操船。",
		"春正月，天子亲耕藉田，祀先农于东郊。",
	},
	{
		"诸葛亮出祁山伐魏，司马懿拒之，相持于渭南。",
		"亮复出祁山，与司马懿对垒渭水之南，病卒于军。",
		"是岁大旱，蝗虫起，民多饥死，诏开仓廪以赈之。",
	},
	{
		"关羽守荆州，吕蒙白衣渡江袭取之，羽败走麦城。",
		"吕蒙袭荆州，关羽还救不及，为吴人所擒。",
		"太学博士议立五经，诸儒讲论于白虎观。",
	},
	{
		"Cao Cao was defeated at Red Cliffs by the allied fleets of Sun Quan and Liu Bei.",
		"At the battle of Red Cliffs, fire ships of Sun Quan and Liu Bei burnt Cao Cao's fleet.",
		"The emperor performed the spring ploughing rite and sacrificed to the god of agriculture.",
	},
}

func checkSimilarity(t *testing.T, e Embedder) {
	t.Helper()
	for _, c := range similarityCases {
		vs, err := e.Embed(context.Background(), []string{c.probe, c.near, c.far})
		if err != nil {
			t.Fatal(err)
		}
		near, far := Dot(vs[0], vs[1]), Dot(vs[0], vs[2])
		if near <= far {
			t.Errorf("%s: %q is no closer to %q (%.3f) than to %q (%.3f)", e.Name(), c.probe, c.near, near, c.far, far)
		}
	}
}

func TestHashedSimilarity(t *testing.T) { checkSimilarity(t, NewHashed(256)) }

func TestHashedUnseenScripts(t *testing.T) {
	h := NewHashed(256)
	for _, s := range []string{"𠮷野家", "ひらがなとカタカナ", "Lý Thường Kiệt đánh Tống", "Ἀλέξανδρος", "123 456", "\xff\xfe broken utf-8 \xc3"} {
		if n := norm(embedOne(t, h, s)); math.Abs(n-1) > 1e-5 {
			t.Errorf("%q: norm %v", s, n)
		}
	}
}

func TestHashedCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewHashed(32).Embed(ctx, []string{"甲", "乙"}); err == nil {
		t.Error("cancelled context gave no error")
	}
}

func TestHashedDefaults(t *testing.T) {
	h := NewHashed(0)
	if h.Dim() != 256 || h.Name() != "hashed" || NewHashed(128).Version() == h.Version() {
		t.Errorf("dim %d name %s version %s", h.Dim(), h.Name(), h.Version())
	}
}
