package index

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

const classical = "亮躬耕陇亩，好为梁父吟。身长八尺，每自比于管仲、乐毅，时人莫之许也。" +
	"惟博陵崔州平、颍川徐庶元直与亮友善，谓为信然。\n建兴十二年春，亮悉大众由斜谷出。"

func TestTerms(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"，。！ \n", nil},
		{"亮", []string{"亮"}},
		{"诸葛亮，字孔明", []string{"诸葛", "葛亮", "字孔", "孔明"}},
		{"曰：善。", []string{"曰", "善"}},
		{"Zhuge Liang's", []string{"zhuge", "liang", "s"}},
		{"Đông Hán", []string{"đông", "hán"}},
		{"Han诸葛亮", []string{"han", "诸葛", "葛亮"}},
		{"公元234年", []string{"公元", "234", "年"}},
		{"ＡＢＣ", []string{"ａｂｃ"}},
		{"\u0301ab", []string{"ab"}},                 // a mark only continues a word
		{"a\u0301b", []string{"a\u0301b"}},           // decomposed Vietnamese stays one word
		{"⺮竹", []string{"竹"}},                        // a radical is a symbol
		{"𠀀𠀁", []string{"𠀀𠀁"}},                       // beyond the BMP
		{"二〇〇八", []string{"二〇", "〇〇", "〇八"}},         // 〇 is a Han number
		{"bad\xffbyte", []string{"bad", "byte"}},     // an invalid byte separates
		{"老子、庄子", []string{"老子", "庄子"}},              // punctuation ends a run
		{"漢書 Hán thư", []string{"漢書", "hán", "thư"}}, // no conversion here
	} {
		got := Terms(c.in)
		if !slices.Equal(got, c.want) {
			t.Errorf("Terms(%q) = %q, want %q", c.in, got, c.want)
		}
		if text := string(AppendText(nil, c.in)); text != strings.Join(c.want, " ") {
			t.Errorf("AppendText(%q) = %q", c.in, text)
		}
	}
	if slices.Equal(Terms("Đông"), Terms("dong")) {
		t.Error("diacritics must be kept")
	}
}

func TestMatchAny(t *testing.T) {
	if got := MatchAny([]string{"诸葛", "葛亮", "诸葛", "", `a"b`}); got != `"诸葛" OR "葛亮" OR "a""b"` {
		t.Fatalf("MatchAny = %s", got)
	}
	if got := MatchAny(nil); got != "" {
		t.Fatalf("no terms: %q", got)
	}
}

func find(p *Pattern, text string) []int {
	var out []int
	p.Find(text, func(s int) bool { out = append(out, s); return true })
	return out
}

func TestPattern(t *testing.T) {
	for _, c := range []struct {
		q, text string
		want    []int
		query   string
	}{
		{"诸葛亮", "诸葛亮，字孔明。诸葛亮躬耕。", []int{0, 8}, `"诸葛 葛亮"`},
		{"亮", "诸葛亮，亮躬耕", []int{2, 4}, ""},
		{"哈哈", "哈哈哈", []int{0, 1}, `"哈哈"`},   // overlapping occurrences
		{"，亮，", "曰，亮，善", []int{1}, `"亮"`},    // an inner lone character is its own term
		{"亮，诸葛", "葛亮，诸葛亮", []int{1}, `"诸葛"`}, // a lone one at an end is not
		{"Han", "Khan Han, han HAN Hanoi 汉Han汉", []int{5, 10, 14, 25}, `"han"`},
		{"zhuge liang", "Zhuge Liang and ZHUGE LIANG", []int{0, 16}, `"zhuge liang"`},
		{"Đông", "Đông dong Dông đông", []int{0, 15}, `"đông"`},
		{"，", "甲，乙，", []int{1, 3}, ""},
		{"Liang 亮", "Liang 亮 Liang亮", []int{0}, `"liang"`},
	} {
		p := NewPattern(c.q)
		if got := find(p, c.text); !slices.Equal(got, c.want) {
			t.Errorf("%q in %q: %v, want %v", c.q, c.text, got, c.want)
		}
		if n := p.Count(c.text); n != len(c.want) {
			t.Errorf("Count(%q in %q) = %d, want %d", c.q, c.text, n, len(c.want))
		}
		if p.Query() != c.query {
			t.Errorf("Query(%q) = %s, want %s", c.q, p.Query(), c.query)
		}
		if p.Len() != utf8.RuneCountInString(c.q) {
			t.Errorf("Len(%q) = %d", c.q, p.Len())
		}
	}
	p := NewPattern("亮")
	var first []int
	p.Find(classical, func(s int) bool { first = append(first, s); return len(first) < 2 })
	if len(first) != 2 {
		t.Fatalf("Find should stop when told: %v", first)
	}
}

// FuzzTerms checks what the index relies on: terms are well formed, the
// stored text is the terms joined, terms of joined texts are joined terms,
// and every occurrence a pattern finds lies where its FTS phrase matches.
func FuzzTerms(f *testing.F) {
	f.Add(classical, 0, 3)
	f.Add("Zhuge Liang, Đông Hán, KHAN han", 6, 11)
	f.Add("诸葛亮，字孔明", 2, 5)
	f.Add("哈哈哈 a\u0301b", 0, 2)
	f.Add("bad\xffbyte", 0, 3)
	f.Fuzz(func(t *testing.T, text string, from, n int) {
		terms := Terms(text)
		for _, term := range terms {
			if term == "" || !utf8.ValidString(term) || strings.ContainsAny(term, " \"") {
				t.Fatalf("bad term %q", term)
			}
			rs := []rune(term)
			if isHan(rs[0]) {
				if len(rs) > 2 || !isHan(rs[len(rs)-1]) {
					t.Fatalf("Han term %q is not a bigram", term)
				}
			} else if !startsWord(rs[0]) || strings.ToLower(term) != term {
				t.Fatalf("word term %q", term)
			}
		}
		if got := string(AppendText(nil, text)); got != strings.Join(terms, " ") {
			t.Fatalf("AppendText %q != joined terms %q", got, terms)
		}
		if got := Terms(text + " " + text); !slices.Equal(got, append(slices.Clone(terms), terms...)) {
			t.Fatalf("terms of a doubled text: %q", got)
		}
		if !utf8.ValidString(text) {
			return
		}
		rs := []rune(text)
		if len(rs) == 0 {
			return
		}
		from = abs(from) % len(rs)
		n = 1 + abs(n)%min(len(rs)-from, 12)
		q := string(rs[from : from+n])
		p := NewPattern(q)
		starts := find(p, text)
		if p.Count(text) != len(starts) {
			t.Fatalf("Count %d, Find %v", p.Count(text), starts)
		}
		lower := []rune(strings.ToLower(text))
		key := strings.ToLower(q)
		for _, s := range starts {
			if string(lower[s:s+n]) != key {
				t.Fatalf("%q at %d is %q", q, s, string(rs[s:s+n]))
			}
		}
		phraseTerms := strings.Fields(strings.Trim(p.Query(), `"`))
		if len(starts) > 0 && len(phraseTerms) > 0 && !containsRun(terms, phraseTerms) {
			t.Fatalf("%q occurs in %q but its phrase %s is not among its terms %q", q, text, p.Query(), terms)
		}
	})
}

func abs(x int) int {
	if x < 0 {
		if x == -x {
			return 0
		}
		return -x
	}
	return x
}

func containsRun(terms, run []string) bool {
	for i := 0; i+len(run) <= len(terms); i++ {
		if slices.Equal(terms[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

func benchText() string {
	return strings.Repeat(classical+"Zhuge Liang, Thừa tướng nhà Thục Hán. ", (1<<20)/len(classical))
}

func BenchmarkTerms(b *testing.B) {
	s := benchText()
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		Terms(s)
	}
}

func BenchmarkAppendText(b *testing.B) {
	s := benchText()
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		buf = AppendText(buf[:0], s)
	}
}

func BenchmarkPatternCount(b *testing.B) {
	s := benchText()
	b.SetBytes(int64(len(s)))
	for _, q := range []string{"亮", "诸葛亮", "Liang"} {
		p := NewPattern(q)
		b.Run(q, func(b *testing.B) {
			for b.Loop() {
				p.Count(s)
			}
		})
	}
}
