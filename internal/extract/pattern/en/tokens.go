package en

import (
	"strings"
	"sync"

	"github.com/jdkato/prose/v3/ner"
	"github.com/jdkato/prose/v3/tag"
	"github.com/jdkato/prose/v3/token"

	"github.com/annals-project/annals/internal/extract/pattern/latin"
)

// tokenizer keeps a possessive 's apart from its word and reads 3rd and
// 220s as words.
var tokenizer = &latin.Tokenizer{
	Key:        func(text string, _ latin.Kind) string { return strings.ToLower(text) },
	Quotes:     "“”",
	Thousands:  ",",
	Possessive: true,
	Suffixed:   true,
}

// tokenizeSpan splits rs[from:to] into tokens.
func tokenizeSpan(rs []rune, from, to int) []latin.Tok {
	return mergeAbbrev(rs, tokenizer.Span(rs, from, to))
}

// proseTok is what prose said about a token.
type proseTok struct {
	tag, label       string // part of speech and entity label
	tagged, labelled bool
}

// mergeAbbrev joins A.D., B.C., c. and the b./d. of life dates into single
// tokens.
func mergeAbbrev(rs []rune, ts []latin.Tok) []latin.Tok {
	out := ts[:0:0]
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		if t.Kind == latin.Word && t.End-t.Start == 1 && i+1 < len(ts) && ts[i+1].Text == "." && ts[i+1].Start == t.End {
			j := i + 2
			for j+1 < len(ts) && ts[j].Kind == latin.Word && ts[j].End-ts[j].Start == 1 && ts[j].Start == ts[j-1].End &&
				ts[j+1].Text == "." && ts[j+1].Start == ts[j].End {
				j += 2
			}
			// c. 155, b. 181, d. 234
			abbr := t.Key == "c" || ((t.Key == "b" || t.Key == "d") && j < len(ts) && ts[j].Kind == latin.Num)
			if j > i+2 || abbr {
				m := tokenizer.Tok(rs, t.Start, ts[j-1].End, latin.Word)
				m.Cap = t.Cap
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
func proseTokens(ts []latin.Tok) []token.Token {
	out := make([]token.Token, len(ts))
	for i, t := range ts {
		out[i] = token.Token{Text: t.Text, Start: i}
	}
	return out
}

// tagWindow tags tokens [a,b) with prose's tagger, into pt. Tags matter only
// for a few words (those opening a sentence, and those the entity model
// sees), so they are computed on demand over a small window with some
// context.
func (p *pipeline) tagWindow(ts []latin.Tok, pt []proseTok, a, b int) {
	a, b = max(a, 0), min(b, len(ts), a+maxChunk)
	if a >= b {
		return
	}
	pts := proseTokens(ts[a:b])
	p.tg.TagTokens(pts)
	for i, t := range pts {
		if !pt[a+i].tagged {
			pt[a+i].tag, pt[a+i].tagged = t.Tag, true
		}
	}
}

// labelWindow runs prose's entity model over tokens [a,b) and a little
// context either side, and copies the labels of [a,b) into pt. The model is
// the slow part of prose, so it only sees words the rules could not place.
func (p *pipeline) labelWindow(ts []latin.Tok, pt []proseTok, a, b int) {
	done := true
	for i := a; i < b; i++ {
		done = done && pt[i].labelled
	}
	if done {
		return
	}
	lo, hi := max(a-3, 0), min(b+2, len(ts))
	if hi-lo > maxChunk {
		hi = lo + maxChunk
	}
	for i := lo; i < hi; i++ {
		if !pt[i].tagged {
			p.tagWindow(ts, pt, lo-2, hi+2)
			break
		}
	}
	pts := proseTokens(ts[lo:hi])
	for i := range pts {
		pts[i].Tag = pt[lo+i].tag
	}
	p.ex.Label(pts)
	for i := a; i < b && i < hi; i++ {
		pt[i].label, pt[i].labelled = pts[i-lo].Label, true
	}
}
