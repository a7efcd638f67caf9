package export

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/annals-project/annals/internal/kg"
)

// table writes one CSV file of a set.
type table struct {
	f   io.WriteCloser
	buf *bufio.Writer
	w   *csv.Writer
}

// newTable makes the file name in sink, with its header. A byte-order
// mark first lets spreadsheets (Excel above all) read the file as UTF-8.
func newTable(sink Sink, name string, bom bool, header ...string) (*table, error) {
	f, err := sink.Create(name)
	if err != nil {
		return nil, err
	}
	t := &table{f: f, buf: bufio.NewWriterSize(f, 1<<16)}
	if bom {
		t.buf.WriteString("\uFEFF")
	}
	t.w = csv.NewWriter(t.buf)
	return t, t.w.Write(header)
}

func (t *table) row(fields ...string) error { return t.w.Write(fields) }

// close flushes and closes the file, reporting the first error.
func (t *table) close() error {
	t.w.Flush()
	err := t.w.Error()
	if ferr := t.buf.Flush(); err == nil {
		err = ferr
	}
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeTable writes one whole file: rows calls add once per row.
func writeTable(sink Sink, name string, bom bool, header []string, rows func(add func(...string) error) error) error {
	t, err := newTable(sink, name, bom, header...)
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	err = rows(t.row)
	if cerr := t.close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

func itoa(n int) string   { return strconv.Itoa(n) }
func id64(n int64) string { return strconv.FormatInt(n, 10) }

// optInt and optFloat write a missing value as an empty field.
func optInt(p *int) string {
	if p == nil {
		return ""
	}
	return strconv.Itoa(*p)
}

func optFloat(p *float64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p, 'g', -1, 64)
}

// WriteCSV writes four files for spreadsheets: entities.csv,
// relations.csv (each with its first citation), evidence.csv (every
// sentence of every relation) and aliases.csv.
func WriteCSV(sink Sink, g *Graph) error {
	err := writeTable(sink, "entities.csv", true,
		[]string{"id", "name", "type", "aliases", "mentions", "first_year", "last_year"},
		func(add func(...string) error) error {
			for _, n := range g.Nodes {
				if err := add(id64(n.ID), n.Name, n.Type, strings.Join(aliasNames(n.Aliases), "; "), itoa(n.Mentions),
					optInt(n.FirstYear), optInt(n.LastYear)); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return err
	}
	err = writeTable(sink, "relations.csv", true,
		[]string{"id", "head_id", "head", "relation", "tail_id", "tail", "status", "score", "extractor", "support", "year",
			"cite", "doc", "start", "end", "quote"},
		func(add func(...string) error) error {
			for i := range g.Relations {
				r := &g.Relations[i]
				row := []string{id64(r.ID), id64(r.HeadID), r.Head, r.Type, id64(r.TailID), r.Tail, r.Status, optFloat(r.Score),
					r.Extractor, itoa(len(r.Evidence)), optInt(relationYear(r))}
				if err := add(append(row, firstCitation(r)...)...); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return err
	}
	err = writeTable(sink, "evidence.csv", true,
		[]string{"relation_id", "head", "relation", "tail", "cite", "doc", "start", "end",
			"head_start", "head_end", "tail_start", "tail_end", "year", "quote"},
		func(add func(...string) error) error {
			for _, r := range g.Relations {
				for _, ev := range r.Evidence {
					if err := add(id64(r.ID), r.Head, r.Type, r.Tail, ev.Cite, ev.DocKey, itoa(ev.Start), itoa(ev.End),
						itoa(ev.Head.Start), itoa(ev.Head.End), itoa(ev.Tail.Start), itoa(ev.Tail.End), optInt(ev.Year),
						ev.Sentence); err != nil {
						return err
					}
				}
			}
			return nil
		})
	if err != nil {
		return err
	}
	return writeTable(sink, "aliases.csv", true, []string{"entity_id", "entity", "alias", "kind", "source"},
		func(add func(...string) error) error {
			for _, n := range g.Nodes {
				for _, a := range n.Aliases {
					if err := add(id64(n.ID), n.Name, a.Name, a.Kind, a.Source); err != nil {
						return err
					}
				}
			}
			return nil
		})
}

// firstCitation is a relation's first sentence as fields: its citation,
// document, offsets and quote; empty fields when it has none.
func firstCitation(r *kg.Relation) []string {
	if len(r.Evidence) == 0 {
		return make([]string, 5)
	}
	ev := r.Evidence[0]
	return []string{ev.Cite, ev.DocKey, itoa(ev.Start), itoa(ev.End), ev.Sentence}
}
