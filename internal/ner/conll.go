package ner

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// CoNLLTypes maps the type labels of CHisIEC's NER files to annals's.
var CoNLLTypes = map[string]string{"PER": "人物", "LOC": "地点", "OFI": "职官", "BOOK": "文献"}

// ReadCoNLL reads one character a line with its BIOES tag (B-PER, I-PER,
// E-PER, S-PER, O), a blank line between sentences, as CHisIEC's NER
// files have it. Labels are mapped through types when it has them; a
// label it lacks is kept as it is. A tag sequence that breaks off keeps
// what closed.
func ReadCoNLL(r io.Reader, types map[string]string) ([]Sentence, error) {
	var out []Sentence
	var chars []rune
	var tags []string
	end := func() {
		if len(chars) > 0 {
			out = append(out, Sentence{ID: fmt.Sprintf("%d", len(out)), Text: string(chars), Names: spansOf(tags, types)})
		}
		chars, tags = chars[:0], tags[:0]
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			end()
			continue
		}
		if len(f) != 2 || len([]rune(f[0])) != 1 {
			return nil, fmt.Errorf("line %d: want a character and its tag, got %q", n, sc.Text())
		}
		chars = append(chars, []rune(f[0])[0])
		tags = append(tags, f[1])
	}
	end()
	return out, sc.Err()
}

// spansOf reads names out of BIOES tags.
func spansOf(tags []string, types map[string]string) []Span {
	var out []Span
	open := -1
	label := func(t string) string {
		if m, ok := types[t]; ok {
			return m
		}
		return t
	}
	for i, t := range tags {
		pos, typ, _ := strings.Cut(t, "-")
		switch pos {
		case "S":
			out = append(out, Span{i, i + 1, label(typ)})
			open = -1
		case "B":
			open = i
		case "I":
			if open >= 0 && !strings.HasSuffix(tags[open], "-"+typ) {
				open = -1
			}
		case "E":
			if open >= 0 && strings.HasSuffix(tags[open], "-"+typ) {
				out = append(out, Span{open, i + 1, label(typ)})
			}
			open = -1
		default:
			open = -1
		}
	}
	return out
}
