// Package dila reads the DILA Authority Database of Chinese time (a MySQL
// dump) and derives the era and ruler tables that package eras embeds.
package dila

import (
	"errors"
	"fmt"
	"strings"
)

// Table is one table of a dump: its columns, from CREATE TABLE, and the
// rows of all its INSERT statements.
type Table struct {
	Name    string
	Columns []string
	Rows    [][]Value
}

// Value is one field of a row. Null marks SQL NULL; numbers are kept as
// their text, since the callers know which columns are numeric.
type Value struct {
	S    string
	Null bool
}

// Col returns the index of the named column, or -1.
func (t *Table) Col(name string) int {
	for i, c := range t.Columns {
		if c == name {
			return i
		}
	}
	return -1
}

// Parse reads the CREATE TABLE and INSERT statements of a mysqldump file.
// Other statements and comments are skipped. A table may be filled by any
// number of INSERT statements, each with any number of rows.
func Parse(src string) (map[string]*Table, error) {
	tables := map[string]*Table{}
	get := func(name string) *Table {
		t := tables[name]
		if t == nil {
			t = &Table{Name: name}
			tables[name] = t
		}
		return t
	}
	p := 0
	for p < len(src) {
		line := src[p:]
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		switch {
		case strings.HasPrefix(line, "CREATE TABLE "):
			name, cols, n, err := parseCreate(src[p:])
			if err != nil {
				return nil, fmt.Errorf("offset %d: %w", p, err)
			}
			get(name).Columns = cols
			p += n
			continue
		case strings.HasPrefix(line, "INSERT INTO "):
			s := &scanner{src: src, pos: p + len("INSERT INTO ")}
			name, err := s.ident()
			if err != nil {
				return nil, fmt.Errorf("offset %d: %w", p, err)
			}
			t := get(name)
			if err := s.insert(t); err != nil {
				return nil, fmt.Errorf("table %s: %w", name, err)
			}
			p = s.pos
			continue
		}
		p += len(line) + 1
	}
	for _, t := range tables {
		for i, r := range t.Rows {
			if t.Columns != nil && len(r) != len(t.Columns) {
				return nil, fmt.Errorf("table %s row %d: %d values for %d columns", t.Name, i, len(r), len(t.Columns))
			}
		}
	}
	return tables, nil
}

// parseCreate reads the column names of a CREATE TABLE statement: the lines
// that start with a quoted name, up to the closing parenthesis. Key and
// constraint lines start with a keyword, so they are left out.
func parseCreate(src string) (name string, cols []string, n int, err error) {
	end := strings.Index(src, "\n)")
	if end < 0 {
		return "", nil, 0, errors.New("unterminated CREATE TABLE")
	}
	lines := strings.Split(src[:end], "\n")
	s := &scanner{src: lines[0], pos: len("CREATE TABLE ")}
	if name, err = s.ident(); err != nil {
		return "", nil, 0, err
	}
	for _, l := range lines[1:] {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "`") {
			continue
		}
		c := &scanner{src: l}
		col, err := c.ident()
		if err != nil {
			return "", nil, 0, err
		}
		cols = append(cols, col)
	}
	return name, cols, end + 2, nil
}

type scanner struct {
	src string
	pos int
}

func (s *scanner) space() {
	for s.pos < len(s.src) && strings.IndexByte(" \t\r\n", s.src[s.pos]) >= 0 {
		s.pos++
	}
}

func (s *scanner) errorf(format string, a ...any) error {
	return fmt.Errorf("offset %d: %s", s.pos, fmt.Sprintf(format, a...))
}

// ident reads a name, back-quoted or bare.
func (s *scanner) ident() (string, error) {
	s.space()
	if s.pos < len(s.src) && s.src[s.pos] == '`' {
		end := strings.IndexByte(s.src[s.pos+1:], '`')
		if end < 0 {
			return "", s.errorf("unterminated name")
		}
		name := s.src[s.pos+1 : s.pos+1+end]
		s.pos += end + 2
		return name, nil
	}
	start := s.pos
	for s.pos < len(s.src) && isWord(s.src[s.pos]) {
		s.pos++
	}
	if s.pos == start {
		return "", s.errorf("name expected")
	}
	return s.src[start:s.pos], nil
}

func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (s *scanner) expect(c byte) error {
	s.space()
	if s.pos >= len(s.src) || s.src[s.pos] != c {
		return s.errorf("%q expected", c)
	}
	s.pos++
	return nil
}

// insert reads "[(cols)] VALUES (…),(…);" after the table name.
func (s *scanner) insert(t *Table) error {
	s.space()
	var order []int
	if s.pos < len(s.src) && s.src[s.pos] == '(' {
		// With a column list, values are moved to the table's column
		// order; columns left out stay NULL.
		s.pos++
		for {
			c, err := s.ident()
			if err != nil {
				return err
			}
			j := t.Col(c)
			if j < 0 {
				return s.errorf("unknown column %q", c)
			}
			order = append(order, j)
			s.space()
			if s.pos < len(s.src) && s.src[s.pos] == ',' {
				s.pos++
				continue
			}
			if err := s.expect(')'); err != nil {
				return err
			}
			break
		}
	}
	kw, err := s.ident()
	if err != nil {
		return err
	}
	if !strings.EqualFold(kw, "VALUES") {
		return s.errorf("VALUES expected, got %q", kw)
	}
	for {
		row, err := s.tuple()
		if err != nil {
			return err
		}
		if order != nil {
			if len(row) != len(order) {
				return s.errorf("%d values for %d columns", len(row), len(order))
			}
			full := make([]Value, len(t.Columns))
			for i := range full {
				full[i].Null = true
			}
			for i, j := range order {
				full[j] = row[i]
			}
			row = full
		}
		t.Rows = append(t.Rows, row)
		s.space()
		if s.pos >= len(s.src) {
			return s.errorf("unterminated INSERT")
		}
		switch s.src[s.pos] {
		case ',':
			s.pos++
		case ';':
			s.pos++
			return nil
		default:
			return s.errorf("',' or ';' expected")
		}
	}
}

func (s *scanner) tuple() ([]Value, error) {
	if err := s.expect('('); err != nil {
		return nil, err
	}
	var row []Value
	for {
		v, err := s.value()
		if err != nil {
			return nil, err
		}
		row = append(row, v)
		s.space()
		if s.pos >= len(s.src) {
			return nil, s.errorf("unterminated row")
		}
		c := s.src[s.pos]
		s.pos++
		if c == ')' {
			return row, nil
		}
		if c != ',' {
			return nil, s.errorf("',' or ')' expected")
		}
	}
}

func (s *scanner) value() (Value, error) {
	s.space()
	if s.pos < len(s.src) && s.src[s.pos] == '\'' {
		str, err := s.quoted()
		return Value{S: str}, err
	}
	start := s.pos
	for s.pos < len(s.src) && strings.IndexByte(",) \t\r\n", s.src[s.pos]) < 0 {
		s.pos++
	}
	word := s.src[start:s.pos]
	if word == "" {
		return Value{}, s.errorf("value expected")
	}
	if strings.EqualFold(word, "NULL") {
		return Value{Null: true}, nil
	}
	return Value{S: word}, nil
}

// quoted reads a single-quoted string with MySQL's escapes: a backslash
// sequence or a doubled quote.
func (s *scanner) quoted() (string, error) {
	s.pos++ // opening quote
	var b strings.Builder
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch c {
		case '\'':
			if s.pos+1 < len(s.src) && s.src[s.pos+1] == '\'' {
				b.WriteByte('\'')
				s.pos += 2
				continue
			}
			s.pos++
			return b.String(), nil
		case '\\':
			if s.pos+1 >= len(s.src) {
				return "", s.errorf("unterminated string")
			}
			e := s.src[s.pos+1]
			switch e {
			case '0':
				b.WriteByte(0)
			case 'b':
				b.WriteByte('\b')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'Z':
				b.WriteByte(0x1a)
			case '%', '_':
				// MySQL keeps the backslash before the LIKE wildcards.
				b.WriteByte('\\')
				b.WriteByte(e)
			default:
				b.WriteByte(e)
			}
			s.pos += 2
		default:
			b.WriteByte(c)
			s.pos++
		}
	}
	return "", s.errorf("unterminated string")
}
