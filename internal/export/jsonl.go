package export

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/kg"
)

// Fact is one record of the JSON Lines export: a relation with its full
// provenance, as `annals import` reads it back.
type Fact struct {
	Head      string     `json:"head"`
	HeadType  string     `json:"head_type"`
	Relation  string     `json:"relation"`
	Tail      string     `json:"tail"`
	TailType  string     `json:"tail_type"`
	Status    string     `json:"status"`
	Score     *float64   `json:"score,omitempty"`
	Extractor string     `json:"extractor"`
	Year      *int       `json:"year,omitempty"` // the earliest year its evidence gives
	Evidence  []Citation `json:"evidence"`
}

// Citation is one sentence that states a fact: the document, the
// sentence's offsets in it (code points of the original text), those of
// the head and tail, and the sentence as written.
type Citation struct {
	Doc       string  `json:"doc"` // the document's key
	Cite      string  `json:"cite"`
	Start     int     `json:"start"`
	End       int     `json:"end"`
	Head      kg.Span `json:"head"`
	Tail      kg.Span `json:"tail"`
	Quote     string  `json:"quote"`
	Year      *int    `json:"year,omitempty"`
	Precision string  `json:"year_precision,omitempty"`
	Reign     string  `json:"reign,omitempty"`
	ReignYear int     `json:"reign_year,omitempty"`
}

// FactOf is a relation as a record.
func FactOf(r *kg.Relation) Fact {
	f := Fact{Head: r.Head, HeadType: r.HeadType, Relation: r.Type, Tail: r.Tail, TailType: r.TailType,
		Status: r.Status, Score: r.Score, Extractor: r.Extractor, Year: relationYear(r)}
	for _, ev := range r.Evidence {
		f.Evidence = append(f.Evidence, Citation{Doc: ev.DocKey, Cite: ev.Cite, Start: ev.Start, End: ev.End,
			Head: ev.Head, Tail: ev.Tail, Quote: ev.Sentence, Year: ev.Year, Precision: ev.Precision,
			Reign: ev.Reign, ReignYear: ev.ReignYear})
	}
	slices.SortFunc(f.Evidence, compareCitations)
	return f
}

func compareCitations(a, b Citation) int {
	return cmp.Or(strings.Compare(a.Doc, b.Doc), cmp.Compare(a.Start, b.Start),
		cmp.Compare(a.Head.Start, b.Head.Start), cmp.Compare(a.Tail.Start, b.Tail.Start))
}

// compareFacts orders records by what they state, not by the ids of the
// workspace they came from, so two workspaces with the same facts write
// the same file.
func compareFacts(a, b *Fact) int {
	return cmp.Or(strings.Compare(a.Head, b.Head), strings.Compare(a.HeadType, b.HeadType),
		strings.Compare(a.Relation, b.Relation), strings.Compare(a.Tail, b.Tail),
		strings.Compare(a.TailType, b.TailType), strings.Compare(a.Status, b.Status))
}

// WriteJSONL writes one fact per line, in the order of what they state.
func WriteJSONL(w io.Writer, g *Graph) error {
	facts := make([]Fact, len(g.Relations))
	for i := range g.Relations {
		facts[i] = FactOf(&g.Relations[i])
	}
	slices.SortFunc(facts, func(a, b Fact) int { return compareFacts(&a, &b) })
	b := bufio.NewWriterSize(w, 1<<16)
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	for i := range facts {
		if err := enc.Encode(&facts[i]); err != nil {
			return err
		}
	}
	return b.Flush()
}

// MaxFactLine is the longest record ReadFacts accepts.
const MaxFactLine = 4 << 20

// ReadFacts reads a JSON Lines file of facts. Blank lines are skipped; a
// line that is not a valid fact is an error that names it, and nothing is
// returned, so that an import writes all of a file or none of it.
func ReadFacts(r io.Reader) ([]Fact, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxFactLine)
	var out []Fact
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if !utf8.Valid(text) {
			return nil, fmt.Errorf("line %d: not UTF-8 text", line)
		}
		var f Fact
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			return nil, fmt.Errorf("line %d: not a fact record: %w", line, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("line %d: more than one record on the line", line)
		}
		if err := f.check(); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		out = append(out, f)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("a line longer than %d bytes: not a fact record", MaxFactLine)
		}
		return nil, fmt.Errorf("read facts: %w", err)
	}
	return out, nil
}

// statuses a record may carry.
var statuses = []string{kg.StatusExtracted, kg.StatusInferred, kg.StatusVerified, kg.StatusUser}

// check refuses a record that could not be a fact with its provenance.
func (f *Fact) check() error {
	for _, field := range []struct{ name, value string }{
		{"head", f.Head}, {"head_type", f.HeadType}, {"relation", f.Relation}, {"tail", f.Tail}, {"tail_type", f.TailType},
	} {
		if strings.TrimSpace(field.value) == "" {
			return fmt.Errorf("%s is empty", field.name)
		}
	}
	if !slices.Contains(statuses, f.Status) {
		return fmt.Errorf("status %q: want one of %s", f.Status, strings.Join(statuses, ", "))
	}
	if f.Score != nil && (*f.Score < 0 || *f.Score > 10) {
		return fmt.Errorf("score %v: want 0 to 10", *f.Score)
	}
	if len(f.Evidence) == 0 {
		return errors.New("no evidence: every fact cites the sentence that states it")
	}
	for i, c := range f.Evidence {
		switch {
		case c.Doc == "":
			return fmt.Errorf("evidence %d: no document", i+1)
		case c.Start < 0 || c.End <= c.Start:
			return fmt.Errorf("evidence %d: offsets %d–%d are not a sentence", i+1, c.Start, c.End)
		case utf8.RuneCountInString(c.Quote) != c.End-c.Start:
			return fmt.Errorf("evidence %d: the quote is %d characters, its offsets span %d", i+1, utf8.RuneCountInString(c.Quote), c.End-c.Start)
		case !inside(c.Head, c.Start, c.End) || !inside(c.Tail, c.Start, c.End):
			return fmt.Errorf("evidence %d: head or tail outside the sentence", i+1)
		}
	}
	return nil
}

// inside says whether a head or tail lies in its sentence; a zero span
// marks none (a fact reasoned over a path may not).
func inside(s kg.Span, start, end int) bool {
	return s == kg.Span{} || s.Start >= start && s.End <= end && s.Start <= s.End
}
