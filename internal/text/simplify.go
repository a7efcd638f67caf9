package text

import (
	"encoding/binary"
	"strings"
	"sync"
	"unicode/utf8"
)

//go:generate go run ./gen_t2s -o t2s_table.go

// slowMark in the BMP table sends a lookup to t2sTable.slow.
const slowMark = 0xFFFF

// firstConvertible is below every code point the table changes (the CJK
// radicals), so everything under it is copied without a lookup.
const firstConvertible = 0x2E80

type t2sPhrase struct {
	src, dst       string
	srcLen, dstLen int // in code points
}

// t2sTable is the run-time form of the generated data: a direct-indexed
// table for the BMP, which is where nearly every character lives, and maps
// for the rest.
type t2sTable struct {
	bmp         [0x10000]uint16 // 0: unchanged; slowMark: see slow
	phraseStart [0x10000 / 64]uint64
	slow        map[rune]string      // supplementary planes, multi-rune results
	phrases     map[rune][]t2sPhrase // by first rune, longest first
	foldBits    [0x10000 / 64]uint64
	folds       map[rune]rune // compatibility and variant characters
}

var t2s = sync.OnceValue(func() *t2sTable {
	return newT2STable(t2sChars, t2sMulti, t2sPhrases, t2sFold)
})

func newT2STable(pairs string, multi map[rune]string, phrases [][2]string, folds string) *t2sTable {
	t := &t2sTable{slow: map[rune]string{}, phrases: map[rune][]t2sPhrase{}, folds: map[rune]rune{}}
	for len(folds) > 0 {
		src, n := utf8.DecodeRuneInString(folds)
		dst, m := utf8.DecodeRuneInString(folds[n:])
		folds = folds[n+m:]
		t.folds[src] = dst
		if src <= 0xFFFF {
			t.foldBits[src>>6] |= 1 << (src & 63)
		}
	}
	set := func(src rune, dst string) {
		d, n := utf8.DecodeRuneInString(dst)
		if src <= 0xFFFF && n > 0 && n == len(dst) && d <= 0xFFFF && d != slowMark && d != 0 && d != utf8.RuneError {
			t.bmp[src] = uint16(d)
			return
		}
		if src <= 0xFFFF {
			t.bmp[src] = slowMark
		}
		t.slow[src] = dst
	}
	for len(pairs) > 0 {
		src, n := utf8.DecodeRuneInString(pairs)
		dst, m := utf8.DecodeRuneInString(pairs[n:])
		pairs = pairs[n+m:]
		set(src, string(dst))
	}
	for src, dst := range multi {
		set(src, dst)
	}
	for _, p := range phrases {
		first, _ := utf8.DecodeRuneInString(p[0])
		ph := t2sPhrase{src: p[0], dst: p[1], srcLen: utf8.RuneCountInString(p[0]), dstLen: utf8.RuneCountInString(p[1])}
		list := append(t.phrases[first], ph)
		// Longest first, so that matching is greedy like OpenCC's.
		for i := len(list) - 1; i > 0 && len(list[i].src) > len(list[i-1].src); i-- {
			list[i], list[i-1] = list[i-1], list[i]
		}
		t.phrases[first] = list
		if first <= 0xFFFF {
			t.phraseStart[first>>6] |= 1 << (first & 63)
		}
	}
	return t
}

func (t *t2sTable) folded(r rune) bool {
	if r <= 0xFFFF {
		return t.foldBits[r>>6]&(1<<(r&63)) != 0
	}
	_, ok := t.folds[r]
	return ok
}

// match returns the phrase starting at s (whose first rune is r), if any.
// Callers check phraseStart first for BMP runes, which saves the map lookup
// for nearly every character.
func (t *t2sTable) match(s string, r rune) *t2sPhrase {
	list := t.phrases[r]
	for i := range list {
		if strings.HasPrefix(s, list[i].src) {
			return &list[i]
		}
	}
	return nil
}

// ToSimplified converts traditional characters to simplified ones. The map,
// when not nil, has one entry per code point of the result plus one, giving
// the original offset of each; nil means every offset is unchanged.
//
// Conversion is character by character, with a short list of words taken
// from OpenCC where a character converts differently (瞭解 → 了解, 樊於期
// keeps 於). 乾 is kept, since it is qián in era names and 乾坤; words in
// which it means "dry" (乾燥, 餅乾) become 干. Every mapping keeps the number
// of code points, so the map is nil in practice.
func ToSimplified(s string) (string, []int32) { return t2s().convert(s) }

func (t *t2sTable) convert(s string) (string, []int32) {
	out, m, folds := t.pass(s)
	if !folds {
		return out, m
	}
	// Words are listed in ordinary characters, so a compatibility or
	// variant character inside one (a compatibility 着 after 藉) hides it.
	// Folding such characters first, one for one, lets the word match;
	// otherwise converting the result again would change it.
	out, m, _ = t.pass(t.fold(s))
	return out, m
}

// fold replaces compatibility and variant characters by the ordinary ones
// they stand for. Every replacement is one code point.
func (t *t2sTable) fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for i, r := range s {
		if f, ok := t.folds[r]; ok {
			b.WriteString(s[last:i])
			b.WriteRune(f)
			last = i + utf8.RuneLen(r)
		}
	}
	b.WriteString(s[last:])
	return b.String()
}

// pass converts s. folds reports that s holds characters that fold would
// change.
func (t *t2sTable) pass(s string) (out string, m []int32, folds bool) {
	var (
		b     strings.Builder
		last  int // bytes of s before last are in b
		lastN int // code points of s before last, counted once m exists
	)
	for i := 0; i < len(s); {
		// Decode by hand: ideographs are three bytes, and everything below
		// them (ASCII, two-byte letters, stray continuation bytes) is
		// skipped a byte at a time, which never skips the start of a rune.
		c := s[i]
		var r rune
		size := 3
		switch {
		case c < 0x80:
			// Skip ASCII eight bytes at a time.
			i++
			for i+8 <= len(s) && binary.LittleEndian.Uint64([]byte(s[i:i+8]))&0x8080808080808080 == 0 {
				i += 8
			}
			continue
		case c < 0xE0:
			i++
			continue
		case c < 0xF0:
			if i+2 >= len(s) || s[i+1]&0xC0 != 0x80 || s[i+2]&0xC0 != 0x80 {
				i++
				continue
			}
			r = rune(c&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
		default:
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if r < firstConvertible {
			i += size
			continue
		}
		var (
			rep      string
			srcBytes = size
			one      rune // the replacement when it is one BMP rune
		)
		var p *t2sPhrase
		if r > 0xFFFF || t.phraseStart[r>>6]&(1<<(r&63)) != 0 {
			p = t.match(s[i:], r)
		}
		if p != nil {
			if p.src == p.dst {
				i += len(p.src)
				continue
			}
			rep, srcBytes = p.dst, len(p.src)
		} else if r <= 0xFFFF {
			switch v := t.bmp[r]; v {
			case 0:
				i += size
				continue
			case slowMark:
				rep = t.slow[r]
			default:
				one = rune(v)
			}
		} else {
			var ok bool
			if rep, ok = t.slow[r]; !ok {
				i += size
				continue
			}
		}

		if p == nil && !folds {
			folds = t.folded(r)
		}
		if b.Cap() == 0 {
			b.Grow(len(s) + 16)
		}
		b.WriteString(s[last:i])
		if one == 0 {
			srcN, repN := 1, 0
			if p != nil {
				srcN, repN = p.srcLen, p.dstLen
			} else {
				repN = utf8.RuneCountInString(rep)
			}
			if m == nil && repN != srcN {
				// Every earlier replacement kept the length: the map
				// is the identity so far.
				lastN = utf8.RuneCountInString(s[:last])
				m = make([]int32, 0, lastN+(len(s)-last)+repN+1)
				for k := 0; k < lastN; k++ {
					m = append(m, int32(k))
				}
			}
			if m != nil {
				n := lastN + utf8.RuneCountInString(s[last:i])
				for k := lastN; k < n; k++ {
					m = append(m, int32(k))
				}
				// Spread the result over the source so that the map
				// stays monotone.
				for k := 0; k < repN; k++ {
					m = append(m, int32(n+k*srcN/repN))
				}
				lastN = n + srcN
			}
			b.WriteString(rep)
		} else {
			if m != nil {
				n := lastN + utf8.RuneCountInString(s[last:i])
				for k := lastN; k <= n; k++ {
					m = append(m, int32(k))
				}
				lastN = n + 1
			}
			b.WriteRune(one)
		}
		i += srcBytes
		last = i
	}
	if b.Cap() == 0 {
		return s, nil, false
	}
	b.WriteString(s[last:])
	if m != nil {
		n := lastN + utf8.RuneCountInString(s[last:])
		for k := lastN; k <= n; k++ {
			m = append(m, int32(k))
		}
	}
	return b.String(), m, folds
}

// OrigOffset maps an offset in normalised text back to the original text,
// given the map ToSimplified returned. Offsets past the end of the map keep
// their distance from the end, so the function is monotone.
func OrigOffset(m []int32, off int) int {
	if len(m) == 0 || off < 0 {
		return off
	}
	if off >= len(m) {
		return int(m[len(m)-1]) + off - (len(m) - 1)
	}
	return int(m[off])
}

// SimplifiedRune returns the simplified form of a single character, or r
// itself when it has none or its simplified form is not one character.
// Words (瞭解) are not considered.
func SimplifiedRune(r rune) rune {
	t := t2s()
	if r < firstConvertible {
		return r
	}
	if r <= 0xFFFF {
		switch v := t.bmp[r]; v {
		case 0:
			return r
		case slowMark:
		default:
			return rune(v)
		}
	}
	if s, ok := t.slow[r]; ok {
		if d, n := utf8.DecodeRuneInString(s); n == len(s) && d != utf8.RuneError {
			return d
		}
	}
	return r
}
