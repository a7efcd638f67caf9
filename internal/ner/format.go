// Package ner is annals's learned name recogniser: the project's
// annotation format and CoNLL (BIOES) reading, and a character tagger
// trained as an averaged structured perceptron and decoded with Viterbi.
package ner

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// Types are the entity types the annotations use (docs/annotation.md).
var Types = []string{"人物", "地点", "职官", "爵位", "文献", "社会集团", "时间"}

func knownType(t string) bool {
	for _, x := range Types {
		if x == t {
			return true
		}
	}
	return false
}

// Span is a name in a sentence, in characters (code points), end exclusive.
type Span struct {
	Start, End int
	Type       string
}

// Sentence is a sentence with its names.
type Sentence struct {
	ID    string // where it is in the corpus: BOOK/…/CHAPTER:N
	Text  string
	Names []Span
}

// Runes is the sentence's characters.
func (s Sentence) Runes() []rune { return []rune(s.Text) }

// ParseLine reads one line of the annotation format: ID, a tab, and the
// sentence with its names marked [TEXT|TYPE].
func ParseLine(line string) (Sentence, error) {
	id, marked, ok := strings.Cut(line, "\t")
	if !ok {
		return Sentence{}, fmt.Errorf("no tab between the ID and the sentence")
	}
	s := Sentence{ID: id}
	var text []rune
	rs := []rune(marked)
	for i := 0; i < len(rs); i++ {
		switch rs[i] {
		case '[':
			end := -1
			for j := i + 1; j < len(rs); j++ {
				if rs[j] == '[' {
					break
				}
				if rs[j] == ']' {
					end = j
					break
				}
			}
			if end < 0 {
				return Sentence{}, fmt.Errorf("a mark opened at character %d is not closed", i)
			}
			name, typ, ok := strings.Cut(string(rs[i+1:end]), "|")
			if !ok || name == "" {
				return Sentence{}, fmt.Errorf("mark %q: want [TEXT|TYPE]", string(rs[i:end+1]))
			}
			if !knownType(typ) {
				return Sentence{}, fmt.Errorf("mark %q: type %q is not one of %s", string(rs[i:end+1]), typ, strings.Join(Types, " "))
			}
			if strings.ContainsAny(name, "|[]") {
				return Sentence{}, fmt.Errorf("mark %q holds a mark's own characters", string(rs[i:end+1]))
			}
			start := len(text)
			text = append(text, []rune(name)...)
			s.Names = append(s.Names, Span{Start: start, End: len(text), Type: typ})
			i = end
		case ']', '|':
			return Sentence{}, fmt.Errorf("%q at character %d outside a mark", rs[i], i)
		default:
			text = append(text, rs[i])
		}
	}
	s.Text = string(text)
	return s, nil
}

// Format writes a sentence back in the annotation format.
func Format(s Sentence) string {
	rs := s.Runes()
	var b strings.Builder
	b.WriteString(s.ID)
	b.WriteByte('\t')
	at := 0
	for _, n := range s.Names {
		b.WriteString(string(rs[at:n.Start]))
		fmt.Fprintf(&b, "[%s|%s]", string(rs[n.Start:n.End]), n.Type)
		at = n.End
	}
	b.WriteString(string(rs[at:]))
	return b.String()
}

// ReadAnnotations reads a file of the annotation format; blank lines and
// lines starting with # are skipped.
func ReadAnnotations(r io.Reader) ([]Sentence, error) {
	var out []Sentence
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !utf8.ValidString(line) {
			return nil, fmt.Errorf("line %d: not valid UTF-8", n)
		}
		s, err := ParseLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, s)
	}
	return out, sc.Err()
}

// ReadAnnotationFile reads one file of the annotation format.
func ReadAnnotationFile(path string) ([]Sentence, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := ReadAnnotations(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}
