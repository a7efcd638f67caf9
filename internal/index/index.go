// Package index defines the terms of the lexical index: what BM25 ranks
// chunks by and what the concordance looks candidates up with. Chinese has
// no spaces, so a run of Han characters gives its character bigrams (a run
// of one gives that character); other scripts give their lowercased words,
// diacritics kept (Vietnamese Đông and dong are different words).
//
// The store writes a chunk's terms space-separated into an FTS5 table whose
// tokenizer (unicode61, remove_diacritics 0) then sees each term as one
// token.
package index

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Version changes whenever Terms would give other terms for some text, so
// that the pipeline re-indexes every chunk.
const Version = "1"

// Character classes. Classifying a rune takes a few table searches, so the
// classes of the BMP are worked out once and looked up.
const (
	other  uint8 = iota
	han          // a Chinese character that is a letter or number
	letter       // starts a word: a letter or number of another script
	mark         // continues a word: a combining mark (decomposed Vietnamese)
)

var bmpClasses = sync.OnceValue(func() *[0x10000]uint8 {
	var t [0x10000]uint8
	for r := range rune(0x10000) {
		t[r] = classify(r)
	}
	return &t
})

func classify(r rune) uint8 {
	switch {
	case r >= 0x4E00 && r <= 0x9FFF:
		return han
	case unicode.IsLetter(r) || unicode.IsNumber(r):
		// CJK radicals and strokes are symbols, which FTS5 drops too.
		if r >= 0x2E80 && unicode.Is(unicode.Han, r) {
			return han
		}
		return letter
	case unicode.IsMark(r):
		return mark
	}
	return other
}

func classOf(t *[0x10000]uint8, r rune) uint8 {
	if r < 0x10000 {
		return t[r]
	}
	return classify(r)
}

// isHan reports whether r is a Chinese character that is a letter or number.
func isHan(r rune) bool { return classOf(bmpClasses(), r) == han }

// isWord reports whether r belongs to a word of a script other than Han.
func isWord(r rune) bool {
	c := classOf(bmpClasses(), r)
	return c == letter || c == mark
}

// startsWord reports whether a word can begin with r: a combining mark
// only continues one.
func startsWord(r rune) bool { return classOf(bmpClasses(), r) == letter }

func decode(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

// scanner yields the terms of a text one at a time. Han terms are slices
// of the text; words are too unless they need lowercasing.
type scanner struct {
	s   string
	t   *[0x10000]uint8
	i   int
	han int // start of the previous character of the Han run, -1 outside one
	one bool
}

func newScanner(s string) scanner { return scanner{s: s, t: bmpClasses(), han: -1} }

func (sc *scanner) next() (string, bool) {
	s := sc.s
	for sc.i < len(s) {
		r, n := decode(s, sc.i)
		c := classOf(sc.t, r)
		if sc.han >= 0 {
			if c == han {
				t := s[sc.han : sc.i+n]
				sc.han, sc.one = sc.i, false
				sc.i += n
				return t, true
			}
			// The run ended: a run of one character is its own term.
			h, one := sc.han, sc.one
			sc.han = -1
			if one {
				return s[h:sc.i], true
			}
			continue
		}
		switch c {
		case han:
			sc.han, sc.one = sc.i, true
			sc.i += n
		case letter:
			start, lower := sc.i, false
			for sc.i < len(s) {
				r, n := decode(s, sc.i)
				if c := classOf(sc.t, r); c != letter && c != mark {
					break
				}
				lower = lower || 'A' <= r && r <= 'Z' || r >= utf8.RuneSelf && unicode.ToLower(r) != r
				sc.i += n
			}
			if lower {
				return strings.ToLower(s[start:sc.i]), true
			}
			return s[start:sc.i], true
		default:
			sc.i += n
		}
	}
	if sc.han >= 0 {
		h, one := sc.han, sc.one
		sc.han = -1
		if one {
			return s[h:], true
		}
	}
	return "", false
}

// Terms lists the terms of text in order, repeats included.
func Terms(text string) []string {
	// Chinese gives about one term per character, three bytes each.
	return AppendTerms(make([]string, 0, len(text)/3+1), text)
}

// AppendTerms appends the terms of text to dst.
func AppendTerms(dst []string, text string) []string {
	sc := newScanner(text)
	for {
		t, ok := sc.next()
		if !ok {
			return dst
		}
		dst = append(dst, t)
	}
}

// AppendText appends the terms of text to dst separated by spaces: what
// the FTS table stores for a chunk.
func AppendText(dst []byte, text string) []byte {
	sc := newScanner(text)
	first := true
	for {
		t, ok := sc.next()
		if !ok {
			return dst
		}
		if !first {
			dst = append(dst, ' ')
		}
		dst = append(dst, t...)
		first = false
	}
}

// OneToken reports whether FTS5's unicode61 tokenizer reads term as one
// token: letters, numbers and non-spacing marks only.
func OneToken(term string) bool {
	for _, r := range term {
		if !unicode.IsLetter(r) && !unicode.IsNumber(r) && !unicode.Is(unicode.Mn, r) {
			return false
		}
	}
	return term != ""
}

// Quote makes a term an FTS5 string, so that no term is read as syntax.
func Quote(term string) string {
	return `"` + strings.ReplaceAll(term, `"`, `""`) + `"`
}

// MatchAny is the FTS5 query for chunks holding any of the terms (each
// once, in the order given); "" when there are none.
func MatchAny(terms []string) string {
	var b strings.Builder
	seen := make(map[string]bool, len(terms))
	for _, t := range terms {
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		if b.Len() > 0 {
			b.WriteString(" OR ")
		}
		b.WriteString(Quote(t))
	}
	return b.String()
}
