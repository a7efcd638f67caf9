package zh

import (
	"context"
	"math/rand"
	"testing"

	"github.com/annals-project/annals/internal/extract"
)

// mix builds a string of Han characters the rules care about, pauses and
// stray runes from seed.
func mix(seed int64, n int) string {
	const pool = "诸葛亮字孔明琅邪阳都人也刘备曹操孙权子弟父封拜为将军太守刺史州郡县侯王公卒于年月是岁建兴元十二攻伐奔至屯《》〈〉，。、；：「」 \nab1"
	rs := []rune(pool)
	r := rand.New(rand.NewSource(seed))
	out := make([]rune, n)
	for i := range out {
		out[i] = rs[r.Intn(len(rs))]
	}
	return string(out)
}

func FuzzExtract(f *testing.F) {
	for _, s := range []string{"", "诸葛亮字孔明，琅邪阳都人也。", "《", "封", "字，", "子、", "建兴十二年八月，亮卒", "\xff\xfe", mix(1, 40), mix(2, 200)} {
		f.Add(s)
	}
	x := New()
	f.Fuzz(func(t *testing.T, s string) {
		doc := extract.NewDocContext("f", "诸葛亮传", nil)
		for _, text := range []string{s, mix(int64(len(s)), len(s)%300)} {
			res, err := x.Extract(context.Background(), extract.Input{Text: text, Doc: doc})
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, text, res)
		}
	})
}

// TestRandomMixes runs the fuzz body over many seeded mixes in every test run.
func TestRandomMixes(t *testing.T) {
	x := New()
	doc := extract.NewDocContext("r", "诸葛亮传", nil)
	for seed := int64(0); seed < 3000; seed++ {
		text := mix(seed, int(seed%250))
		res, err := x.Extract(context.Background(), extract.Input{Text: text, Doc: doc})
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, text, res)
	}
}
