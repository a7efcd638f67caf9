package index

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pattern is a string to find in normalised text, as the concordance finds
// it: Han characters anywhere (Chinese has no word boundaries), words of
// other scripts only whole (Han does not match inside Khan), letters
// without regard to case, diacritics kept. Every occurrence is found,
// overlapping ones included.
type Pattern struct {
	key       string // what is searched for: lowercased when fold
	fold      bool
	wordStart bool // the pattern begins with a word, which must begin there
	wordEnd   bool // the pattern ends with a word, which must end there
	runes     int
	overlap   bool // an occurrence can begin inside the previous one
	terms     []string
	query     string
}

// NewPattern prepares q (already normalised, not empty) for searching.
func NewPattern(q string) *Pattern {
	p := &Pattern{key: q}
	rs := []rune(q)
	p.runes = len(rs)
	for _, r := range rs {
		if unicode.SimpleFold(r) != r {
			p.fold = true
			p.key = strings.ToLower(q)
			break
		}
	}
	if len(rs) > 0 {
		p.wordStart, p.wordEnd = isWord(rs[0]), isWord(rs[len(rs)-1])
	}
	for k := 1; k < len(rs) && !p.overlap; k++ {
		p.overlap = string(rs[:k]) == string(rs[len(rs)-k:])
	}
	p.terms = phraseTerms(rs)
	if len(p.terms) > 0 {
		p.query = Quote(strings.Join(p.terms, " "))
	}
	return p
}

// phraseTerms are the terms that every chunk holding q holds, in order:
// q's terms, less a lone Han character at either end, which in the text
// may be part of a longer run and so of bigrams instead. Words need no
// such care since they only match whole.
func phraseTerms(rs []rune) []string {
	terms := Terms(string(rs))
	if len(terms) > 0 && len(rs) > 0 && isHan(rs[0]) && (len(rs) == 1 || !isHan(rs[1])) {
		terms = terms[1:]
	}
	n := len(rs)
	if len(terms) > 0 && n > 0 && isHan(rs[n-1]) && (n == 1 || !isHan(rs[n-2])) {
		terms = terms[:len(terms)-1]
	}
	return terms
}

// Len is the pattern's length in code points, which is that of every
// occurrence.
func (p *Pattern) Len() int { return p.runes }

// Query is the FTS5 query that finds every chunk holding an occurrence; ""
// when the pattern has no term sure to be in such a chunk (one Han
// character, punctuation), and the text must be scanned.
func (p *Pattern) Query() string { return p.query }

// Terms are the terms every chunk holding an occurrence holds (what
// Query asks for in order); none when the text must be scanned.
func (p *Pattern) Terms() []string { return p.terms }

// Edges reports whether an occurrence must have no word character just
// before it (start) and just after it (end): what a search inside a piece of
// a text must check beyond the piece.
func (p *Pattern) Edges() (start, end bool) { return p.wordStart, p.wordEnd }

// InWord reports whether r belongs to a word of a script other than Han,
// next to which no word can begin or end.
func InWord(r rune) bool { return isWord(r) }

// Find calls fn with the code-point offset of each occurrence in text, in
// order, until fn returns false.
func (p *Pattern) Find(text string, fn func(start int) bool) {
	if p.key == "" {
		return
	}
	s := text
	if p.fold {
		s = strings.ToLower(text)
	}
	pos, count := 0, 0 // a byte offset of s and the code points before it
	for i := 0; i <= len(s)-len(p.key); {
		j := strings.Index(s[i:], p.key)
		if j < 0 {
			return
		}
		at := i + j
		if p.bounded(s, at, at+len(p.key)) {
			count += utf8.RuneCountInString(s[pos:at])
			pos = at
			if !fn(count) {
				return
			}
		}
		_, n := utf8.DecodeRuneInString(s[at:])
		i = at + n
	}
}

// Count is the number of occurrences in text.
func (p *Pattern) Count(text string) int {
	if p.key == "" {
		return 0
	}
	if !p.overlap && !p.wordStart && !p.wordEnd {
		if p.fold {
			text = strings.ToLower(text)
		}
		return strings.Count(text, p.key)
	}
	n := 0
	p.Find(text, func(int) bool { n++; return true })
	return n
}

// bounded reports whether s[start:end] begins and ends a word where the
// pattern begins or ends with one.
func (p *Pattern) bounded(s string, start, end int) bool {
	if p.wordStart && start > 0 {
		if r, _ := utf8.DecodeLastRuneInString(s[:start]); isWord(r) {
			return false
		}
	}
	if p.wordEnd && end < len(s) {
		if r, _ := utf8.DecodeRuneInString(s[end:]); isWord(r) {
			return false
		}
	}
	return true
}
