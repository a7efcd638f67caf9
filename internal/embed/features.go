package embed

import (
	"unicode"
	"unicode/utf8"
)

// Feature kinds, kept in the top two bits of a feature hash so that kinds
// can be weighted after hashing and never collide with each other.
const (
	kindUni  = 0 // one CJK character
	kindBi   = 1 // two adjacent CJK characters
	kindWord = 2 // a whole word of an alphabetic script
	kindTri  = 3 // three characters of a word, with boundary marks
)

const kindShift = 62

func featureKind(h uint64) int { return int(h >> kindShift) }

// isCJK says whether r is written without spaces between words, so that
// characters rather than words are the units.
func isCJK(r rune) bool {
	if r >= 0x4E00 && r <= 0x9FFF {
		return true
	}
	if r < 0x2E80 {
		return false
	}
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)
}

// isWordRune says whether r belongs inside a word of a spaced script.
// Combining marks count so that decomposed Vietnamese stays one word.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// fold maps full-width ASCII to ASCII and lowers case, so that ＡＢＣ, ABC
// and abc are one word.
func fold(r rune) rune {
	if r >= 0xFF01 && r <= 0xFF5E {
		r -= 0xFEE0
	}
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	return unicode.ToLower(r)
}

// Token kinds returned by the scanner.
const (
	tokEnd = iota
	tokCJK
	tokWord
)

// scanner splits text into units: single CJK characters and folded words.
// It allocates nothing once its word buffer has grown.
type scanner struct {
	s    string
	i    int
	word []rune // the current word, folded
	// adjacent is set on a CJK token that directly follows another CJK
	// character, so that bigrams never bridge punctuation or spaces.
	adjacent bool
	prev     rune // the previous CJK character when adjacent
	last     rune // the last CJK character returned, 0 after a break
}

func (sc *scanner) reset(s string) {
	sc.s, sc.i, sc.word, sc.adjacent, sc.prev, sc.last = s, 0, sc.word[:0], false, 0, 0
}

// next returns the next token: tokCJK with its character, tokWord with the
// word in sc.word, or tokEnd.
func (sc *scanner) next() (int, rune) {
	for sc.i < len(sc.s) {
		r, n := utf8.DecodeRuneInString(sc.s[sc.i:])
		if isCJK(r) {
			sc.i += n
			sc.adjacent, sc.prev = sc.last != 0, sc.last
			sc.last = r
			return tokCJK, r
		}
		sc.last = 0
		if !isWordRune(fold(r)) {
			sc.i += n
			continue
		}
		sc.word = sc.word[:0]
		for sc.i < len(sc.s) {
			r, n = utf8.DecodeRuneInString(sc.s[sc.i:])
			f := fold(r)
			if isCJK(r) || !isWordRune(f) {
				break
			}
			sc.word = append(sc.word, f)
			sc.i += n
		}
		return tokWord, 0
	}
	return tokEnd, 0
}

// FNV-1a over code points, then a final mix so that every bit of the
// result is usable for bucket, sign and idf slot.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func hashStart(kind int) uint64 { return (fnvOffset ^ uint64(kind+1)) * fnvPrime }

func hashRune(h uint64, r rune) uint64 { return (h ^ uint64(uint32(r))) * fnvPrime }

func hashFinish(h uint64, kind int) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h&^(3<<kindShift) | uint64(kind)<<kindShift
}

// boundary marks the start and end of a word for its trigrams.
const boundary = rune(0x02)

// appendFeatures appends the hashed features of text to dst: CJK unigrams
// and bigrams, words, and character trigrams of words. Words of one or two
// characters get no trigrams beyond the padded word itself.
func appendFeatures(dst []uint64, sc *scanner, text string) []uint64 {
	sc.reset(text)
	for {
		tok, r := sc.next()
		switch tok {
		case tokEnd:
			return dst
		case tokCJK:
			dst = append(dst, hashFinish(hashRune(hashStart(kindUni), r), kindUni))
			if sc.adjacent {
				h := hashRune(hashRune(hashStart(kindBi), sc.prev), r)
				dst = append(dst, hashFinish(h, kindBi))
			}
		case tokWord:
			h := hashStart(kindWord)
			for _, c := range sc.word {
				h = hashRune(h, c)
			}
			dst = append(dst, hashFinish(h, kindWord))
			w := sc.word
			n := len(w)
			// Trigrams over boundary+word+boundary: n of them for a
			// word of n ≥ 2 runes, none for a single rune.
			if n < 2 {
				continue
			}
			at := func(i int) rune {
				if i == 0 || i == n+1 {
					return boundary
				}
				return w[i-1]
			}
			for i := 0; i+3 <= n+2; i++ {
				h := hashStart(kindTri)
				h = hashRune(hashRune(hashRune(h, at(i)), at(i+1)), at(i+2))
				dst = append(dst, hashFinish(h, kindTri))
			}
		}
	}
}
