package en

import (
	"strings"
	"sync"
	"unicode"

	"github.com/jdkato/prose/v3/ner"
	"github.com/jdkato/prose/v3/tag"
	"github.com/jdkato/prose/v3/token"
)

type tokKind uint8

const (
	kWord tokKind = iota
	kNum
	kPunct
)

// tok is a word, number or punctuation mark; offsets are code points into
// the whole input.
type tok struct {
	start, end int
	text       string
	lower      string
	kind       tokKind
	cap        bool   // starts with an upper-case letter
	initial    bool   // first word of a sentence or quotation
	tag, label string // part of speech and entity label from prose
	tagged     bool
	labelled   bool
}

// isApos reports whether r is an apostrophe.
func isApos(r rune) bool { return r == '\'' || r == '’' }

func isHyphen(r rune) bool { return r == '-' || r == '‐' }

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) }

// tokenizeSpan splits rs[from:to] into tokens. Possessive 's is its own
// token; apostrophes and hyphens inside a word (Chang'an, general-in-chief)
// keep it whole.
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
				if (isApos(c) || isHyphen(c)) && j+1 < to && isWordRune(rs[j+1]) {
					// 's closing the word is a possessive, not part of it.
					if isApos(c) && (rs[j+1] == 's' || rs[j+1] == 'S') && (j+2 >= to || !isWordRune(rs[j+2])) {
						break
					}
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
				// 100,000 stays one number.
				if c == ',' && j+3 < to && allDigits(rs[j+1:j+4]) && (j+4 >= to || !unicode.IsDigit(rs[j+4])) {
					j += 4
					continue
				}
				break
			}
			kind := kNum
			// 3rd, 220s
			if j < to && isWordRune(rs[j]) {
				for j < to && isWordRune(rs[j]) {
					j++
				}
				kind = kWord
			}
			out = append(out, newTok(rs, i, j, kind))
			i = j
		case isApos(r) && i+1 < to && (rs[i+1] == 's' || rs[i+1] == 'S') && (i+2 >= to || !isWordRune(rs[i+2])) && i > from && isWordRune(rs[i-1]):
			t := newTok(rs, i, i+2, kPunct)
			t.lower = "'s"
			out = append(out, t)
			i += 2
		default:
			out = append(out, newTok(rs, i, i+1, kPunct))
			i++
		}
	}
	return mergeAbbrev(rs, out)
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
	t := tok{start: i, end: j, text: s, lower: strings.ToLower(s), kind: kind}
	if kind == kWord && unicode.IsUpper(rs[i]) {
		t.cap = true
	}
	if kind == kPunct {
		switch rs[i] {
		case '–', '—', '‐', '‒', '−':
			t.lower = "-"
		case '’', '‘':
			t.lower = "'"
		case '“', '”':
			t.lower = `"`
		}
	}
	return t
}

// mergeAbbrev joins A.D., B.C., c. and the b./d. of life dates into single
// tokens.
func mergeAbbrev(rs []rune, ts []tok) []tok {
	out := ts[:0:0]
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		if t.kind == kWord && t.end-t.start == 1 && i+1 < len(ts) && ts[i+1].text == "." && ts[i+1].start == t.end {
			j := i + 2
			for j+1 < len(ts) && ts[j].kind == kWord && ts[j].end-ts[j].start == 1 && ts[j].start == ts[j-1].end &&
				ts[j+1].text == "." && ts[j+1].start == ts[j].end {
				j += 2
			}
			// c. 155, b. 181, d. 234
			abbr := t.lower == "c" || ((t.lower == "b" || t.lower == "d") && j < len(ts) && ts[j].kind == kNum)
			if j > i+2 || abbr {
				m := newTok(rs, t.start, ts[j-1].end, kWord)
				m.cap = t.cap
				out = append(out, m)
				i = j - 1
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

// The prose tagger and entity model are loaded once per process.
type pipeline struct {
	tg *tag.Tagger
	ex *ner.Extracter
}

var loadPipeline = sync.OnceValues(func() (*pipeline, error) {
	tg, err := tag.New()
	if err != nil {
		return nil, err
	}
	ex, err := ner.New()
	if err != nil {
		return nil, err
	}
	return &pipeline{tg: tg, ex: ex}, nil
})

// maxChunk bounds the number of tokens handed to prose at once.
const maxChunk = 250

// proseTokens converts ts to prose's token type. Start is not used by the
// tagger or the entity model, so it holds the token's index.
func proseTokens(ts []tok) []token.Token {
	out := make([]token.Token, len(ts))
	for i, t := range ts {
		out[i] = token.Token{Text: t.text, Start: i}
	}
	return out
}

// tagWindow tags tokens [a,b) with prose's tagger. Tags matter only for a
// few words (those opening a sentence, and those the entity model sees), so
// they are computed on demand over a small window with some context.
func (p *pipeline) tagWindow(ts []tok, a, b int) {
	a, b = max(a, 0), min(b, len(ts), a+maxChunk)
	if a >= b {
		return
	}
	pts := proseTokens(ts[a:b])
	p.tg.TagTokens(pts)
	for i, pt := range pts {
		if !ts[a+i].tagged {
			ts[a+i].tag, ts[a+i].tagged = pt.Tag, true
		}
	}
}

// labelWindow runs prose's entity model over tokens [a,b) and a little
// context either side, and copies the labels of [a,b) onto ts. The model is
// the slow part of prose, so it only sees words the rules could not place.
func (p *pipeline) labelWindow(ts []tok, a, b int) {
	done := true
	for i := a; i < b; i++ {
		done = done && ts[i].labelled
	}
	if done {
		return
	}
	lo, hi := max(a-3, 0), min(b+2, len(ts))
	if hi-lo > maxChunk {
		hi = lo + maxChunk
	}
	for i := lo; i < hi; i++ {
		if !ts[i].tagged {
			p.tagWindow(ts, lo-2, hi+2)
			break
		}
	}
	pts := proseTokens(ts[lo:hi])
	for i := range pts {
		pts[i].Tag = ts[lo+i].tag
	}
	p.ex.Label(pts)
	for i := a; i < b && i < hi; i++ {
		ts[i].label, ts[i].labelled = pts[i-lo].Label, true
	}
}
