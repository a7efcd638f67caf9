// Package latin is what the pattern extractors for languages written in the
// Latin alphabet (English, Vietnamese) have in common: tokens, name
// resolution within a document, the notation relation rules are written in,
// and the step that turns a sentence's mentions and matches into entities
// and triples. Each language brings its word lists, its rules and the code
// that finds mentions in a sentence.
package latin

import (
	"slices"
	"strings"
	"unicode"
)

// Kind is the kind of a token.
type Kind uint8

// Kinds of token.
const (
	Word Kind = iota
	Num
	Punct
)

// Tok is a word, number or punctuation mark; offsets are code points into
// the whole input.
type Tok struct {
	Start, End int
	Text       string
	// Key is the form rules and word lists compare: the language's folding
	// of a word, and one mark for every kind of dash and quote.
	Key     string
	Kind    Kind
	Cap     bool // a word starting with an upper-case letter
	Initial bool // first word of a sentence, quotation or clause
}

// IsWordRune reports whether r is a letter or a combining mark.
func IsWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) }

// IsHyphen reports whether r joins the parts of a hyphenated word.
func IsHyphen(r rune) bool { return r == '-' || r == '‐' }

func isApos(r rune) bool { return r == '\'' || r == '’' }

// AllDigits reports whether rs is a non-empty run of digits.
func AllDigits(rs []rune) bool {
	for _, r := range rs {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return len(rs) > 0
}

// Tokenizer splits text into tokens the way a language wants.
type Tokenizer struct {
	// Key gives a token's Key from its text.
	Key func(text string, kind Kind) string
	// Quotes are the marks read as a plain double quote.
	Quotes string
	// Thousands are the marks that may group a number's digits: 100,000.
	Thousands string
	// Possessive makes a closing 's a token of its own, so that a name
	// keeps its form in "Cao Cao's son".
	Possessive bool
	// Suffixed reads a number with letters after it (3rd, 220s) as a word.
	Suffixed bool
}

// closingS reports whether the apostrophe at rs[i] starts an 's that ends a
// word.
func closingS(rs []rune, i, to int) bool {
	return i+1 < to && (rs[i+1] == 's' || rs[i+1] == 'S') && (i+2 >= to || !IsWordRune(rs[i+2]))
}

// Span splits rs[from:to] into tokens. Apostrophes and hyphens inside a
// word (Chang'an, general-in-chief) keep it whole.
func (z *Tokenizer) Span(rs []rune, from, to int) []Tok {
	var out []Tok
	i := from
	for i < to {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case IsWordRune(r):
			j := i + 1
			for j < to {
				c := rs[j]
				if IsWordRune(c) || unicode.IsDigit(c) {
					j++
					continue
				}
				if (isApos(c) || IsHyphen(c)) && j+1 < to && IsWordRune(rs[j+1]) {
					if z.Possessive && isApos(c) && closingS(rs, j, to) {
						break
					}
					j += 2
					continue
				}
				break
			}
			out = append(out, z.Tok(rs, i, j, Word))
			i = j
		case unicode.IsDigit(r):
			j := i + 1
			for j < to {
				c := rs[j]
				if unicode.IsDigit(c) {
					j++
					continue
				}
				if strings.ContainsRune(z.Thousands, c) && j+3 < to && AllDigits(rs[j+1:j+4]) && (j+4 >= to || !unicode.IsDigit(rs[j+4])) {
					j += 4
					continue
				}
				break
			}
			kind := Num
			if z.Suffixed && j < to && IsWordRune(rs[j]) {
				for j < to && IsWordRune(rs[j]) {
					j++
				}
				kind = Word
			}
			out = append(out, z.Tok(rs, i, j, kind))
			i = j
		case z.Possessive && isApos(r) && closingS(rs, i, to) && i > from && IsWordRune(rs[i-1]):
			t := z.Tok(rs, i, i+2, Punct)
			t.Key = "'s"
			out = append(out, t)
			i += 2
		default:
			out = append(out, z.Tok(rs, i, i+1, Punct))
			i++
		}
	}
	return out
}

// Tok makes the token rs[i:j].
func (z *Tokenizer) Tok(rs []rune, i, j int, kind Kind) Tok {
	s := string(rs[i:j])
	t := Tok{Start: i, End: j, Text: s, Key: z.Key(s, kind), Kind: kind}
	if kind == Word && unicode.IsUpper(rs[i]) {
		t.Cap = true
	}
	if kind == Punct {
		switch r := rs[i]; {
		case r == '–' || r == '—' || r == '‐' || r == '‒' || r == '−':
			t.Key = "-"
		case r == '’' || r == '‘':
			t.Key = "'"
		case strings.ContainsRune(z.Quotes, r):
			t.Key = `"`
		}
	}
	return t
}

// MarkInitial flags words that open a sentence or follow one of the marks in
// opens, where capitals say nothing about names.
func MarkInitial(ts []Tok, opens ...string) {
	open := true
	for i := range ts {
		t := &ts[i]
		if t.Kind == Punct {
			if slices.Contains(opens, t.Key) {
				open = true
			}
			continue
		}
		if open {
			t.Initial = true
		}
		open = false
	}
}
