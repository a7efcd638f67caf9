package text

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/kg"
)

// sentenceTexts cuts s at the spans.
func sentenceTexts(s string, spans []kg.Span) []string {
	r := []rune(s)
	var out []string
	for _, sp := range spans {
		out = append(out, string(r[sp.Start:sp.End]))
	}
	return out
}

func TestSentences(t *testing.T) {
	cases := []struct {
		name, lang, in string
		want           []string
	}{
		{"chinese basic", Classical, "亮曰：善。備遂行！何也？", []string{"亮曰：善。", "備遂行！", "何也？"}},
		{"semicolon", Classical, "臣聞之；君行之。", []string{"臣聞之；", "君行之。"}},
		{"closing quote", Classical, "備曰：「善。」於是與亮情好日密。", []string{"備曰：「善。」", "於是與亮情好日密。"}},
		{"closing brackets", Modern, "他说（见上文。）然后走了。", []string{"他说（见上文。）", "然后走了。"}},
		{"nested closers", Modern, "他说：“‘好。’”我们走吧。", []string{"他说：“‘好。’”", "我们走吧。"}},
		{"ellipsis", Modern, "他想了想……然后走了。", []string{"他想了想……", "然后走了。"}},
		{"mixed run", Modern, "真的吗？！不会吧！！", []string{"真的吗？！", "不会吧！！"}},
		{"newlines", Classical, "  第一行\n\n\u3000\u3000第二行無句號\n第三行。", []string{"第一行", "第二行無句號", "第三行。"}},
		{"crlf", Classical, "甲。\r\n乙。", []string{"甲。", "乙。"}},
		{"trailing spaces", Modern, "你好。  \n  再见  ", []string{"你好。", "再见"}},
		{"no terminator", Classical, "漢高祖", []string{"漢高祖"}},
		{"only spaces", Classical, " \n\t\u3000 ", nil},
		{"empty", Classical, "", nil},
		{"terminators only", Classical, "。。\n！", []string{"。。", "！"}},
		{"ascii in chinese", Modern, "这是什么?好吧! http://a.cn/?q=1 的说明。", []string{"这是什么?", "好吧!", "http://a.cn/?q=1 的说明。"}},
		{"ascii period in chinese", Modern, "版本3.5发布了。", []string{"版本3.5发布了。"}},

		{"english", English, "He went north. The army followed! Did it win? Yes.", []string{"He went north.", "The army followed!", "Did it win?", "Yes."}},
		{"english lowercase after period", English, "It was approx. ten li away.", []string{"It was approx. ten li away."}},
		{"abbreviations", English, "Mr. Smith met Dr. Jones at St. Paul. They talked.", []string{"Mr. Smith met Dr. Jones at St. Paul.", "They talked."}},
		{"e.g.", English, "Some states, e.g. Wei, grew. Others i.e. Shu did not.", []string{"Some states, e.g. Wei, grew.", "Others i.e. Shu did not."}},
		{"etc", English, "Wei, Shu, Wu etc. All fought.", []string{"Wei, Shu, Wu etc. All fought."}},
		{"initials", English, "It was written by J. R. Smith. He was a scholar.", []string{"It was written by J. R. Smith.", "He was a scholar."}},
		{"decimal", English, "It cost 3.5 taels. Cheap.", []string{"It cost 3.5 taels.", "Cheap."}},
		{"decimal at end", English, "The ratio was 3.5. Then it fell.", []string{"The ratio was 3.5.", "Then it fell."}},
		{"no as a word", English, "The answer was no. He left.", []string{"The answer was no.", "He left."}},
		{"No. as abbreviation", English, "See No. 5 for details.", []string{"See No. 5 for details."}},
		{"U.S.", English, "He went to the U.S. Army base.", []string{"He went to the U.S. Army base."}},
		{"quote after period", English, "He said \"Go.\" Then he left.", []string{"He said \"Go.\"", "Then he left."}},
		{"open quote before capital", English, "He left. \"Why?\" asked Liu.", []string{"He left.", "\"Why?\" asked Liu."}},
		{"ellipsis english", English, "He waited... Then he left. And so… it ended.", []string{"He waited...", "Then he left.", "And so… it ended."}},
		{"newline english", English, "Chapter One\nThe beginning. end", []string{"Chapter One", "The beginning. end"}},
		{"vietnamese", Vietnamese, "Năm 1010, vua dời đô. Đây là sự kiện lớn. TP. Hồ Chí Minh ở phía nam.", []string{"Năm 1010, vua dời đô.", "Đây là sự kiện lớn.", "TP. Hồ Chí Minh ở phía nam."}},
		{"und uses both", Unknown, "甲。乙. Next one", []string{"甲。", "乙.", "Next one"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spans := Sentences(c.in, c.lang)
			checkSpans(t, c.in, spans)
			got := sentenceTexts(c.in, spans)
			if len(got) != len(c.want) {
				t.Fatalf("Sentences(%q) = %q, want %q", c.in, got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("Sentences(%q) = %q, want %q", c.in, got, c.want)
				}
			}
		})
	}
}

// checkSpans asserts the invariants of a sentence split: spans in range,
// ordered, disjoint, non-empty, trimmed, free of line breaks, and covering
// every non-space character.
func checkSpans(t testing.TB, s string, spans []kg.Span) {
	t.Helper()
	r := []rune(s)
	covered := make([]bool, len(r))
	prev := 0
	for _, sp := range spans {
		if sp.Start < prev || sp.End <= sp.Start || sp.End > len(r) {
			t.Fatalf("bad span %v after %d in %d code points (%q)", sp, prev, len(r), s)
		}
		if unicode.IsSpace(r[sp.Start]) || unicode.IsSpace(r[sp.End-1]) {
			t.Fatalf("span %v starts or ends with space: %q", sp, string(r[sp.Start:sp.End]))
		}
		for i := sp.Start; i < sp.End; i++ {
			if r[i] == '\n' || r[i] == '\r' {
				t.Fatalf("span %v holds a line break: %q", sp, string(r[sp.Start:sp.End]))
			}
			covered[i] = true
		}
		prev = sp.End
	}
	for i, c := range r {
		if !covered[i] && !unicode.IsSpace(c) {
			t.Fatalf("code point %d (%q) of %q is in no sentence", i, c, s)
		}
	}
}

// refSentences is Sentences without its fast paths, decoding every rune
// and asking unicode.IsSpace.
func refSentences(s string, lang string) []kg.Span {
	latin := !IsChinese(lang)
	var out []kg.Span
	start, end, wordByte, n := -1, 0, 0, 0
	flush := func() {
		if start >= 0 {
			out = append(out, kg.Span{Start: start, End: end})
			start = -1
		}
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x85 || r == 0x2028 || r == 0x2029:
			flush()
			wordByte = i + size
		case unicode.IsSpace(r):
			wordByte = i + size
		default:
			if start < 0 {
				start = n
			}
			end = n + 1
			ends, ascii := terminator(r)
			if !ends {
				break
			}
			if r == '…' || r == '⋯' {
				ascii = latin
			}
			j, k := i+size, n+1
			for j < len(s) {
				r2, sz := utf8.DecodeRuneInString(s[j:])
				if t, _ := terminator(r2); !t && !closer(r2) {
					break
				}
				j, k = j+sz, k+1
			}
			split := true
			if ascii {
				if latin {
					split = latinEnd(s, wordByte, i, j, r)
				} else {
					split = r != '.' && (j == len(s) || !asciiWordByte(s[j]))
				}
			}
			end, i, n = k, j, k
			if split {
				flush()
				wordByte = i
			}
			continue
		}
		i += size
		n++
	}
	flush()
	return out
}

func TestSentencesMatchesReference(t *testing.T) {
	pool := []string{"a", "Mr", "Dr.", "J.", "e.g.", " ", "\t", "\n", "\r", "\u3000", "\u00a0", "\u2028", "\u0085",
		".", "!", "?", ";", "...", "…", "⋯", "。", "！", "？", "；", "」", "』", "”", "）", "\"", "'", ")", "「", "“", "(",
		"The", "he", "Đây", "國", "之", "x1", "3.5", "http://a/?q", "\xe4", "\xe4\xb8", "\xed\xa0\x80", "\xe0\x80\x80", "\xff", "\U00020000", "‼"}
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 100000; i++ {
		var b strings.Builder
		for j := rng.Intn(12); j >= 0; j-- {
			b.WriteString(pool[rng.Intn(len(pool))])
		}
		s := b.String()
		lang := []string{Classical, English, Unknown}[i%3]
		got, want := Sentences(s, lang), refSentences(s, lang)
		if !slices.Equal(got, want) {
			t.Fatalf("Sentences(%q, %s) = %v, reference %v", s, lang, got, want)
		}
	}
}
