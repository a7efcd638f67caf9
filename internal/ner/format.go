// Package ner is annals's learned name recogniser: the project's
// annotation format and CoNLL (BIOES) reading, and a character tagger
// trained as an averaged structured perceptron and decoded with Viterbi.
package ner

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/docstats"
	"github.com/annals-project/annals/internal/schema"
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

// Sentence is a sentence with its names and the relations it states.
type Sentence struct {
	ID    string // where it is in the corpus: BOOK/…/CHAPTER:N
	Text  string
	Names []Span
	// Relations are between Names, by index. HasRelations says they were
	// annotated: a sentence of a file without "# relations: annotated"
	// says nothing of its relations, even with none.
	Relations    []Relation
	HasRelations bool
	// Hints are the names the offline rules read in the sentence in the
	// context of its document (AddHints); nil when not read.
	Hints []Span
	// Doc are the persons the rules read in the whole document; nil
	// when not read.
	Doc Names
	// Use is how the whole document uses its characters; nil when not
	// read.
	Use *docstats.Stats
	// Found are the names a tagger found in the sentences of its chapter
	// (Tagger.ReadChapters), of which those before sentence Seq are known
	// when reading it; nil when not read.
	Found *docstats.Found
	Seq   int
	// chapter is the chapter it was read in (AddHints).
	chapter *chapterText
}

// Context is what the tagger may know of the sentence beyond its runes.
func (s Sentence) Context() Context {
	return Context{Hints: s.Hints, Names: s.Doc, Use: s.Use, Found: s.Found, Sentence: s.Seq}
}

// Relation is a relation the sentence states between two of its names.
type Relation struct {
	Head, Tail int // indexes into Names
	Type       string
}

// relSchema names the relations annotations may use, and their ends.
var relSchema = schema.MustLoad(schema.ZhHistory)

// Relations names the relations annotations may use: those between the
// annotated types. Events (事件) are read by rules, not annotated, and so
// are their relations.
func Relations() []string {
	var out []string
	for _, name := range relSchema.RelationTypeNames() {
		rt := relSchema.Relation(name)
		if slices.ContainsFunc(rt.Domain, isType) && slices.ContainsFunc(rt.Range, isType) {
			out = append(out, name)
		}
	}
	return out
}

func isType(t string) bool { return slices.Contains(Types, t) }

// relationsHeader marks a file whose relations are annotated.
const relationsHeader = "# relations: annotated"

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

// FormatRelations writes a sentence's relation lines, one a line.
func FormatRelations(s Sentence) []string {
	rs := s.Runes()
	label := func(k int) string {
		n := s.Names[k]
		text := string(rs[n.Start:n.End])
		nth := 0
		for _, m := range s.Names[:k+1] {
			if string(rs[m.Start:m.End]) == text {
				nth++
			}
		}
		if nth > 1 {
			return fmt.Sprintf("%s#%d", text, nth)
		}
		return text
	}
	var out []string
	for _, r := range s.Relations {
		out = append(out, fmt.Sprintf("%s\t@ %s %s %s", s.ID, label(r.Head), r.Type, label(r.Tail)))
	}
	return out
}

// parseRelation reads the part of a relation line after the ID,
// "@ HEAD RELATION TAIL", against the sentence it follows.
func parseRelation(s Sentence, body string) (Relation, error) {
	fs := strings.Fields(strings.TrimPrefix(body, "@"))
	if len(fs) != 3 {
		return Relation{}, fmt.Errorf("relation %q: want @ HEAD RELATION TAIL", body)
	}
	find := func(label string) (int, error) {
		text, nth := label, 1
		if t, k, ok := strings.Cut(label, "#"); ok {
			n, err := strconv.Atoi(k)
			if err != nil || n < 1 {
				return 0, fmt.Errorf("relation %q: %q is not a mark's occurrence", body, label)
			}
			text, nth = t, n
		}
		rs := s.Runes()
		for i, m := range s.Names {
			if string(rs[m.Start:m.End]) == text {
				if nth--; nth == 0 {
					return i, nil
				}
			}
		}
		return 0, fmt.Errorf("relation %q: %q is not marked in the sentence", body, label)
	}
	h, err := find(fs[0])
	if err != nil {
		return Relation{}, err
	}
	t, err := find(fs[2])
	if err != nil {
		return Relation{}, err
	}
	if h == t {
		return Relation{}, fmt.Errorf("relation %q joins a name to itself", body)
	}
	if relSchema.Relation(fs[1]) == nil {
		return Relation{}, fmt.Errorf("relation %q: %q is not one of %s", body, fs[1], strings.Join(relSchema.RelationTypeNames(), " "))
	}
	if ht, tt := s.Names[h].Type, s.Names[t].Type; !relSchema.Allows(ht, fs[1], tt) {
		return Relation{}, fmt.Errorf("relation %q: %s does not go from %s to %s", body, fs[1], ht, tt)
	}
	return Relation{Head: h, Tail: t, Type: fs[1]}, nil
}

// ReadAnnotations reads a file of the annotation format: sentence lines,
// each followed by its relation lines; blank lines and lines starting
// with # are skipped.
func ReadAnnotations(r io.Reader) ([]Sentence, error) {
	var out []Sentence
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	withRelations := false
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == relationsHeader {
			withRelations = true
			continue
		}
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !utf8.ValidString(line) {
			return nil, fmt.Errorf("line %d: not valid UTF-8", n)
		}
		if id, body, ok := strings.Cut(line, "\t"); ok && strings.HasPrefix(body, "@") {
			if len(out) == 0 || out[len(out)-1].ID != id {
				return nil, fmt.Errorf("line %d: relation of %s does not follow its sentence", n, id)
			}
			last := &out[len(out)-1]
			rel, err := parseRelation(*last, body)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
			last.Relations = append(last.Relations, rel)
			continue
		}
		s, err := ParseLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		s.HasRelations = withRelations
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
