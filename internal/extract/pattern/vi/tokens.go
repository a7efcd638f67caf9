package vi

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

type tokKind uint8

const (
	kWord tokKind = iota
	kNum
	kPunct
)

// tok is a syllable, number or punctuation mark; offsets are code points
// into the whole input.
type tok struct {
	start, end int
	text       string
	key        string // see key
	kind       tokKind
	cap        bool // starts with an upper-case letter
	initial    bool // first word of a sentence, quotation or bracket
}

// Tone marks on open syllables are placed two ways (hoà / hòa, thuý / thúy);
// keys use the newer placement.
var toneEnds = map[string]string{
	"oà": "òa", "oá": "óa", "oả": "ỏa", "oã": "õa", "oạ": "ọa",
	"oè": "òe", "oé": "óe", "oẻ": "ỏe", "oẽ": "õe", "oẹ": "ọe",
	"uỳ": "ùy", "uý": "úy", "uỷ": "ủy", "uỹ": "ũy", "uỵ": "ụy",
}

// key is the form a word is compared in: lower case, composed (NFC), with
// tone marks placed one way.
func key(w string) string {
	k := strings.ToLower(norm.NFC.String(w))
	rs := []rune(k)
	if n := len(rs); n >= 2 {
		end := string(rs[n-2:])
		if to, ok := toneEnds[end]; ok && !(rs[n-2] == 'u' && n >= 3 && rs[n-3] == 'q') {
			k = string(rs[:n-2]) + to
		}
	}
	return k
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) }

func isHyphen(r rune) bool { return r == '-' || r == '‐' }

// tokenizeSpan splits rs[from:to] into tokens.
func tokenizeSpan(rs []rune, from, to int) []tok {
	var out []tok
	i := from
	for i < to {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case isWordRune(r):
			j := i + 1
			for j < to {
				c := rs[j]
				if isWordRune(c) || unicode.IsDigit(c) {
					j++
					continue
				}
				if (isHyphen(c) || c == '\'' || c == '’') && j+1 < to && isWordRune(rs[j+1]) {
					j += 2
					continue
				}
				break
			}
			out = append(out, newTok(rs, i, j, kWord))
			i = j
		case unicode.IsDigit(r):
			j := i + 1
			for j < to {
				c := rs[j]
				if unicode.IsDigit(c) {
					j++
					continue
				}
				// 1.000 and 1,000 are one number.
				if (c == '.' || c == ',') && j+3 < to && allDigits(rs[j+1:j+4]) && (j+4 >= to || !unicode.IsDigit(rs[j+4])) {
					j += 4
					continue
				}
				break
			}
			out = append(out, newTok(rs, i, j, kNum))
			i = j
		default:
			out = append(out, newTok(rs, i, i+1, kPunct))
			i++
		}
	}
	return out
}

func allDigits(rs []rune) bool {
	for _, r := range rs {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return len(rs) > 0
}

func newTok(rs []rune, i, j int, kind tokKind) tok {
	s := string(rs[i:j])
	t := tok{start: i, end: j, text: s, kind: kind}
	switch kind {
	case kWord:
		t.key = key(s)
		t.cap = unicode.IsUpper(rs[i])
	case kNum:
		t.key = s
	default:
		t.key = s
		switch rs[i] {
		case '–', '—', '‐', '‒', '−':
			t.key = "-"
		case '“', '”', '«', '»', '„':
			t.key = `"`
		case '‘', '’':
			t.key = "'"
		}
	}
	return t
}

// markInitial flags words that open a sentence, a quotation, a bracket or a
// clause after a colon, where capitals say nothing about names.
func markInitial(ts []tok) {
	open := true
	for i := range ts {
		t := &ts[i]
		if t.kind == kPunct {
			switch t.key {
			case `"`, "'", ":", "(", "[", "-", ";":
				open = true
			}
			continue
		}
		if open {
			t.initial = true
		}
		open = false
	}
}
