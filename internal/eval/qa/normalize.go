package qa

import (
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/annals-project/annals/internal/text"
)

// Tokens normalises s and splits it into tokens: NFKC, lower case,
// punctuation and symbols as separators, English articles (a, an, the)
// dropped. Latin-script words (so Vietnamese syllables) are tokens; each
// Han, Hiragana or Katakana character is a token of its own, because those
// scripts do not separate words, so Chinese F1 is over characters. Han
// characters are folded to their simplified, common form (於 as 于, 幹 as
// 干), so a variant spelling is not a wrong answer.
//
// Like SQuAD's normalisation, an apostrophe, full stop or comma between two
// letters or digits is deleted rather than split on, so that "U.S." and
// "US", "don't" and "dont", "1,000" and "1.000" and "1000" agree.
func Tokens(s string) []string {
	rs := []rune(strings.ToLower(norm.NFKC.String(s)))
	var toks []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			toks = append(toks, string(cur))
			cur = cur[:0]
		}
	}
	for i, r := range rs {
		switch {
		case isCharToken(r):
			flush()
			toks = append(toks, string(text.FoldVariant(r)))
		case unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.M, r):
			cur = append(cur, r)
		case isJoiner(r) && len(cur) > 0 && i+1 < len(rs) && isWordRune(rs[i+1]):
			// Deleted: the word goes on.
		default:
			flush()
		}
	}
	flush()
	// Drop articles, unless nothing else is left: an answer "The" should
	// still match itself, not everything.
	kept := toks[:0:0]
	for _, t := range toks {
		if t != "a" && t != "an" && t != "the" {
			kept = append(kept, t)
		}
	}
	if len(kept) == 0 {
		return toks
	}
	return kept
}

// Normalize is Tokens joined by single spaces, with no space between two
// character tokens: "The U.S.-Army" is "us army", "秦 始皇。" is "秦始皇".
func Normalize(s string) string {
	toks := Tokens(s)
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && !(isCharTokenString(toks[i-1]) && isCharTokenString(t)) {
			b.WriteByte(' ')
		}
		b.WriteString(t)
	}
	return b.String()
}

// isCharToken reports scripts written without spaces between words.
func isCharToken(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)
}

func isCharTokenString(t string) bool {
	rs := []rune(t)
	return len(rs) == 1 && isCharToken(rs[0])
}

func isWordRune(r rune) bool {
	return !isCharToken(r) && (unicode.IsLetter(r) || unicode.IsNumber(r))
}

// isJoiner lists the punctuation deleted inside a word.
func isJoiner(r rune) bool {
	switch r {
	case '\'', '\u2019', '\u02bc', '.', ',':
		return true
	}
	return false
}

// ExactMatch reports whether the normalised prediction equals the
// normalised form of any gold answer.
func ExactMatch(pred string, golds ...string) bool {
	p := Tokens(pred)
	for _, g := range golds {
		if slices.Equal(p, Tokens(g)) {
			return true
		}
	}
	return false
}

// Contains reports whether any gold answer, normalised, occurs in the
// normalised prediction as a run of whole tokens: "no" is in "no, never"
// but not in "Norway", which a plain substring test would accept. A gold
// answer that normalises to nothing is in no prediction.
func Contains(pred string, golds ...string) bool {
	p := Tokens(pred)
	for _, g := range golds {
		gt := Tokens(g)
		if len(gt) > 0 && containsRun(p, gt) {
			return true
		}
	}
	return false
}

// F1 is the best token F1 (SQuAD's: harmonic mean of token precision and
// recall, tokens counted with multiplicity) of the prediction against any
// gold answer. Two answers with no tokens score 1, one alone 0.
func F1(pred string, golds ...string) float64 {
	p := Tokens(pred)
	best := 0.0
	for _, g := range golds {
		best = max(best, tokenF1(p, Tokens(g)))
	}
	return best
}

func tokenF1(pred, gold []string) float64 {
	if len(pred) == 0 || len(gold) == 0 {
		if len(pred) == len(gold) {
			return 1
		}
		return 0
	}
	count := make(map[string]int, len(gold))
	for _, t := range gold {
		count[t]++
	}
	common := 0
	for _, t := range pred {
		if count[t] > 0 {
			count[t]--
			common++
		}
	}
	if common == 0 {
		return 0
	}
	p := float64(common) / float64(len(pred))
	r := float64(common) / float64(len(gold))
	return 2 * p * r / (p + r)
}

func containsRun(hay, needle []string) bool {
	for i := 0; i+len(needle) <= len(hay); i++ {
		if slices.Equal(hay[i:i+len(needle)], needle) {
			return true
		}
	}
	return false
}
