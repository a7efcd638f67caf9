package index

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// bm25 scores a chunk as FTS5 would, term by term, the slow way.
func bm25(chunks []string, doc int, terms []string) float64 {
	n := float64(len(chunks))
	var total float64
	toks := make([][]string, len(chunks))
	for i, c := range chunks {
		toks[i] = Terms(c)
		total += float64(len(toks[i]))
	}
	avg := total / n
	s := 0.0
	seen := map[string]bool{}
	for _, t := range terms {
		if seen[t] {
			continue
		}
		seen[t] = true
		df := 0
		for _, ts := range toks {
			if slices.Contains(ts, t) {
				df++
			}
		}
		tf := 0
		for _, x := range toks[doc] {
			if x == t {
				tf++
			}
		}
		if df == 0 || tf == 0 {
			continue
		}
		idf := math.Log((n - float64(df) + 0.5) / (float64(df) + 0.5))
		if idf <= 0 {
			idf = 1e-6
		}
		dl := float64(len(toks[doc]))
		s += idf * float64(tf) * 2.2 / (float64(tf) + 1.2*(0.25+0.75*dl/avg))
	}
	return s
}

func TestMemoryRanksByBM25(t *testing.T) {
	words := []string{"诸葛亮", "出师", "天下", "大乱", "将军", "曹操", "孔明", "Zhuge Liang", "丞相"}
	rng := rand.New(rand.NewPCG(9, 9))
	var chunks []string
	m := NewMemory()
	for i := range 300 {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteString("，")
		}
		chunks = append(chunks, b.String())
		m.Add(int64(1000+i), b.String())
	}
	for _, q := range []string{"诸葛亮出师", "天下将军", "孔明 zhuge", "丞相曹操天下大乱", "无此"} {
		terms := Terms(q)
		hits := m.Search(terms, 15)
		// Every chunk holding a term, scored the slow way.
		var want []Hit
		for i := range chunks {
			if s := bm25(chunks, i, terms); s > 0 {
				want = append(want, Hit{int64(1000 + i), s})
			}
		}
		slices.SortStableFunc(want, func(a, b Hit) int {
			if a.Score > b.Score {
				return -1
			}
			if a.Score < b.Score {
				return 1
			}
			return int(a.ID - b.ID)
		})
		want = want[:min(15, len(want))]
		if len(hits) != len(want) {
			t.Fatalf("%s: %d hits, want %d", q, len(hits), len(want))
		}
		for i := range hits {
			if hits[i].ID != want[i].ID || math.Abs(hits[i].Score-want[i].Score) > 1e-9 {
				t.Fatalf("%s: hit %d is %+v, want %+v", q, i, hits[i], want[i])
			}
		}
	}
	if NewMemory().Search([]string{"x"}, 5) != nil || m.Search(Terms("天下"), 0) != nil {
		t.Fatal("an empty index or no limit found something")
	}
}

func BenchmarkMemorySearch(b *testing.B) {
	m := NewMemory()
	rng := rand.New(rand.NewPCG(1, 1))
	han := []rune("天下将军曹操孔明诸葛亮出师丞相大乱刘备孙权关羽张飞赵云马超黄忠魏蜀吴")
	for i := range 7000 {
		rs := make([]rune, 480)
		for k := range rs {
			rs[k] = han[rng.IntN(len(han))]
		}
		m.Add(int64(i), string(rs))
	}
	q := Terms("诸葛亮出师天下大乱孔明")
	for b.Loop() {
		m.Search(q, 20)
	}
}
