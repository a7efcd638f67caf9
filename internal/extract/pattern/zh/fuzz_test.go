package zh

import (
	"context"
	"math/rand"
	"testing"

	"github.com/annals-project/annals/internal/docstats"
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

// randomNames is a recogniser that marks names at random (seeded by the
// sentence), of any type: whatever a model says, the rules must not break.
type randomNames struct{}

func (randomNames) Version() string { return "random" }

func (randomNames) Recognise(s []rune, hints []Mention, known map[string]string, _ *docstats.Stats, _ *docstats.Found) []Mention {
	types := []string{tPer, tLoc, tOff, tTitle, tBook, tGrp, tTime}
	r := rand.New(rand.NewSource(int64(len(s)*7919 + len(hints))))
	var out []Mention
	for i := 0; i < len(s); {
		n := 1 + r.Intn(4)
		if i+n > len(s) {
			n = len(s) - i
		}
		if r.Intn(3) == 0 {
			out = append(out, Mention{i, i + n, types[r.Intn(len(types))]})
		} else if r.Intn(2) == 0 && len(hints) > 0 {
			h := hints[r.Intn(len(hints))]
			if h.Start >= i {
				out = append(out, h)
				i = h.End
				continue
			}
		}
		i += n
	}
	return out
}

func FuzzExtract(f *testing.F) {
	for _, s := range []string{"", "诸葛亮字孔明，琅邪阳都人也。", "《", "封", "字，", "子、", "建兴十二年八月，亮卒", "\xff\xfe", mix(1, 40), mix(2, 200)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, x := range []*Extractor{New(), NewWith(randomNames{}, nil)} {
			doc := extract.NewDocContext("f", "诸葛亮传", nil)
			for _, text := range []string{s, mix(int64(len(s)), len(s)%300)} {
				res, err := x.Extract(context.Background(), extract.Input{Text: text, Doc: doc})
				if err != nil {
					t.Fatal(err)
				}
				checkResult(t, text, res)
			}
		}
	})
}

// TestRandomMixes runs the fuzz body over many seeded mixes in every test run.
func TestRandomMixes(t *testing.T) {
	for _, x := range []*Extractor{New(), NewWith(randomNames{}, nil)} {
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
}
