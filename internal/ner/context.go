package ner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/docstats"
	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/text"
)

// Piece is a sentence of a document: its text and where it is, in runes.
type Piece struct {
	Start, End int
	Text       string
}

// Split cuts a document into the sentences annotations are drawn from:
// after 。！？ (kept) and at line ends, without the spaces around them,
// blank pieces dropped. The Nth piece is sentence N of an annotation ID.
func Split(doc string) []Piece {
	var out []Piece
	start, startRune, at := 0, 0, 0 // byte and rune where the piece starts; runes read
	flush := func(end, endRune int) {
		raw := doc[start:end]
		trimmed := strings.TrimLeftFunc(raw, unicode.IsSpace)
		s := startRune + utf8.RuneCountInString(raw[:len(raw)-len(trimmed)])
		trimmed = strings.TrimRightFunc(trimmed, unicode.IsSpace)
		if trimmed != "" {
			out = append(out, Piece{Start: s, End: s + utf8.RuneCountInString(trimmed), Text: trimmed})
		}
	}
	for i, r := range doc {
		switch r {
		case '。', '！', '？':
			flush(i+utf8.RuneLen(r), at+1)
			start, startRune = i+utf8.RuneLen(r), at+1
		case '\n':
			flush(i, at)
			start, startRune = i, at
		}
		at++
	}
	flush(len(doc), at)
	return out
}

// DocumentHints are the names the offline rules read in a whole document
// titled title, without overlaps, in the document's runes, and the given
// names it taught them: what the rules know from the rest of the chapter
// (its subject, full names met before a bare given name) is in them, as it
// is when annals indexes.
func DocumentHints(doc, title string) ([]Span, Names) {
	dc := extract.NewDocContext("", title, nil)
	return ruleSpans(doc, dc), Names(dc.Names)
}

func ruleSpans(s string, dc *extract.DocContext) []Span {
	n := utf8.RuneCountInString(s)
	res, err := rules.Extract(context.Background(), extract.Input{Text: s, Lang: text.Classical, Doc: dc})
	if err != nil {
		return nil
	}
	taken := make([]bool, n)
	var out []Span
	for _, e := range res.Entities {
		if e.Start < 0 || e.End > n || e.Start >= e.End {
			continue
		}
		free := true
		for i := e.Start; i < e.End; i++ {
			free = free && !taken[i]
		}
		if !free {
			continue
		}
		for i := e.Start; i < e.End; i++ {
			taken[i] = true
		}
		out = append(out, Span{e.Start, e.End, e.Type})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// Within are the spans wholly inside [start, end), moved to start at 0;
// spans must be sorted by Start.
func Within(spans []Span, start, end int) []Span {
	k := sort.Search(len(spans), func(i int) bool { return spans[i].Start >= start })
	out := []Span{}
	for ; k < len(spans) && spans[k].Start < end; k++ {
		if spans[k].End <= end {
			out = append(out, Span{spans[k].Start - start, spans[k].End - start, spans[k].Type})
		}
	}
	return out
}

// chapterText is a chapter of the corpus as the tagger reads it: its
// sentences, the rules' names over it, the given names it taught them and
// how it uses its characters.
type chapterText struct {
	runes  []rune
	pieces []Piece
	hints  []Span
	names  Names
	use    *docstats.Stats
}

func readChapter(doc, title string) *chapterText {
	hints, names := DocumentHints(doc, title)
	rs := []rune(doc)
	return &chapterText{rs, Split(doc), hints, names, docstats.OfDocument(rs)}
}

// context is what the tagger knows of the chapter's sentence k.
func (ch *chapterText) context(k int, found *docstats.Found) Context {
	p := ch.pieces[k]
	return Context{Hints: Within(ch.hints, p.Start, p.End), Names: ch.names, Use: ch.use, Found: found, Sentence: k}
}

// AddHints gives each sentence the rules' names read in its whole chapter
// of the corpus at root (BOOK/…/CHAPTER/text.txt, titled by CHAPTER), and
// how that chapter uses its characters, as the tagger sees them when
// annals indexes that chapter. A sentence whose
// chapter is not there, or reads otherwise, keeps no hints; found says
// how many got them.
func AddHints(sentences []Sentence, root string) (found int, err error) {
	chapters := map[string]*chapterText{}
	for i := range sentences {
		s := &sentences[i]
		path, nth, ok := strings.Cut(s.ID, ":")
		if !ok {
			continue
		}
		k, err := strconv.Atoi(nth)
		if err != nil || k < 0 {
			continue
		}
		ch, seen := chapters[path]
		if !seen {
			b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path), "text.txt"))
			if err != nil && !os.IsNotExist(err) {
				return found, fmt.Errorf("read the chapter of %s: %w", s.ID, err)
			}
			if err == nil {
				ch = readChapter(string(b), filepath.Base(path))
			}
			chapters[path] = ch
		}
		if ch == nil || k >= len(ch.pieces) || ch.pieces[k].Text != s.Text {
			continue
		}
		c := ch.context(k, nil)
		s.Hints, s.Doc, s.Use = c.Hints, c.Names, c.Use
		s.Seq, s.chapter = k, ch
		found++
	}
	return found, nil
}

// ReadChapters tags, in order, the sentences of each chapter the given
// sentences were read in (AddHints) up to the last of them, each knowing
// the names found in those before it, as annals does when it indexes the
// chapter; each sentence gets what its chapter found (Sentence.Found).
func (t *Tagger) ReadChapters(sentences []Sentence) {
	last := map[*chapterText]int{}
	var order []*chapterText
	for _, s := range sentences {
		if s.chapter == nil {
			continue
		}
		if _, ok := last[s.chapter]; !ok {
			order = append(order, s.chapter)
		}
		last[s.chapter] = max(last[s.chapter], s.Seq)
	}
	found := make(map[*chapterText]*docstats.Found, len(order))
	for _, ch := range order {
		f := docstats.NewFound()
		for k := 0; k <= last[ch]; k++ {
			p := ch.pieces[k]
			t.TagNext(ch.runes[p.Start:p.End], ch.context(k, f))
		}
		found[ch] = f
	}
	for i := range sentences {
		if f, ok := found[sentences[i].chapter]; ok {
			sentences[i].Found = f
		}
	}
}

// Names are the given names a document has taught the rules, each with
// its full name (策 → 孙策), so that a given name standing alone in one
// sentence is known for the full name met elsewhere in the chapter.
type Names map[string]string

// mark puts on each rune of a sentence the place (B, I, E, S) of the
// longest name the document knows starting there, and whether it is a
// full name (1: a surname of one or two runes, then a given name the
// document knows for that full name) or a given one (2).
func (n Names) mark(rs []rune, pos, kind []uint64) {
	var a, b []byte
	enc := func(buf []byte, w []rune) []byte {
		buf = buf[:0]
		for _, r := range w {
			buf = utf8.AppendRune(buf, r)
		}
		return buf
	}
	for i := 0; i < len(rs); {
		l, k := 0, uint64(0)
		for m := min(4, len(rs)-i); m >= 1 && l == 0; m-- {
			for gl := 1; gl <= 2 && gl < m && l == 0; gl++ {
				if m-gl > 2 {
					continue
				}
				// Map lookups by string(bytes) do not allocate.
				a, b = enc(a, rs[i+m-gl:i+m]), enc(b, rs[i:i+m])
				if full, ok := n[string(a)]; ok && full == string(b) {
					l, k = m, 1
				}
			}
			if l == 0 {
				b = enc(b, rs[i:i+m])
				if _, ok := n[string(b)]; ok {
					l, k = m, 2
				}
			}
		}
		if l == 0 {
			i++
			continue
		}
		markSpan(pos, kind, i, i+l, k)
		i += l
	}
}
