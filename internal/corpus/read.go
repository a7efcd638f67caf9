package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/annals-project/annals/internal/text"
)

// readText reads and decodes a file; the error says which step failed and
// keeps the text package's reason (ErrBinary, ErrEmpty, ErrUndecodable).
func readText(path string) (string, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", "", fmt.Errorf("read: %w", err)
	}
	s, enc, err := text.Decode(data)
	if err != nil {
		return "", "", fmt.Errorf("decode: %w", err)
	}
	return s, enc, nil
}

// record is one entry of a JSON corpus file.
type record struct {
	N                            int // 1-based position in the file
	Text, Source, Title, Chapter string
}

// section is the record's own section path: its non-empty source, title
// and chapter.
func (r record) section() []string {
	var s []string
	for _, v := range [...]string{r.Source, r.Title, r.Chapter} {
		if v = strings.TrimSpace(v); v != "" {
			s = append(s, v)
		}
	}
	return s
}

// recordError is a problem with record N, or with the whole file when N is 0.
type recordError struct {
	N   int
	Err error
}

// parseRecords reads the records of a JSON corpus file: one object, an array
// of objects, or a sequence of objects (JSON lines or concatenated). A
// record that cannot be used is reported and the others are still returned;
// in JSON lines a malformed line is reported on its own.
func parseRecords(s string) ([]record, []recordError) {
	s = strings.TrimPrefix(s, "\uFEFF")
	t := strings.TrimLeft(s, " \t\r\n")
	if t == "" {
		return nil, []recordError{{Err: fmt.Errorf("%w: no records", ErrMalformed)}}
	}
	if t[0] == '[' {
		return parseArray(t)
	}
	recs, errs, err := parseStream(t)
	if err == nil {
		return recs, errs
	}
	// One bad line must not cost the rest of a JSON lines file; but text that
	// is not JSON lines at all (pretty-printed JSON with an error, prose) gets
	// a single warning, not one per line.
	valid, lines := 0, 0
	for line := range strings.Lines(t) {
		if line = strings.TrimSpace(line); line != "" {
			lines++
			if json.Valid([]byte(line)) {
				valid++
			}
		}
	}
	if valid*2 < lines {
		return nil, []recordError{{Err: fmt.Errorf("%w: %v", ErrMalformed, err)}}
	}
	return parseLines(t)
}

func parseArray(t string) ([]record, []recordError) {
	dec := json.NewDecoder(strings.NewReader(t))
	if _, err := dec.Token(); err != nil { // the '['
		return nil, []recordError{{Err: fmt.Errorf("%w: %v", ErrMalformed, err)}}
	}
	var recs []record
	var errs []recordError
	n := 0
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return recs, append(errs, recordError{Err: fmt.Errorf("%w: after record %d: %v", ErrMalformed, n, err)})
		}
		n++
		recs, errs = addRecord(recs, errs, n, raw)
	}
	if _, err := dec.Token(); err != nil { // the ']'
		return recs, append(errs, recordError{Err: fmt.Errorf("%w: after record %d: %v", ErrMalformed, n, err)})
	}
	if _, err := dec.Token(); err != io.EOF {
		return recs, append(errs, recordError{Err: fmt.Errorf("%w: data after the array", ErrMalformed)})
	}
	return recs, errs
}

// parseStream reads a sequence of JSON values; it fails as a whole on the
// first syntax error.
func parseStream(t string) ([]record, []recordError, error) {
	dec := json.NewDecoder(strings.NewReader(t))
	var recs []record
	var errs []recordError
	for n := 1; ; n++ {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			return recs, errs, nil
		}
		if err != nil {
			return nil, nil, err
		}
		recs, errs = addRecord(recs, errs, n, raw)
	}
}

// parseLines reads JSON lines one by one; N counts non-blank lines, so a
// record keeps its number when a line before it is fixed.
func parseLines(t string) ([]record, []recordError) {
	var recs []record
	var errs []recordError
	n := 0
	for line := range strings.Lines(t) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		n++
		if !json.Valid([]byte(line)) {
			var v any
			err := json.Unmarshal([]byte(line), &v)
			errs = append(errs, recordError{N: n, Err: fmt.Errorf("%w: %v", ErrMalformed, err)})
			continue
		}
		recs, errs = addRecord(recs, errs, n, json.RawMessage(line))
	}
	return recs, errs
}

// addRecord turns one valid JSON value into a record, or reports why not.
func addRecord(recs []record, errs []recordError, n int, raw json.RawMessage) ([]record, []recordError) {
	r, err := toRecord(raw)
	if err != nil {
		return recs, append(errs, recordError{N: n, Err: err})
	}
	r.N = n
	return append(recs, r), errs
}

func toRecord(raw json.RawMessage) (record, error) {
	var m map[string]json.RawMessage
	if !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) || json.Unmarshal(raw, &m) != nil {
		return record{}, ErrNotAnObject
	}
	var r record
	t, ok := m["text"]
	if !ok || bytes.Equal(bytes.TrimSpace(t), []byte("null")) {
		return r, ErrNoText
	}
	if json.Unmarshal(t, &r.Text) != nil {
		return r, ErrTextNotString
	}
	if strings.TrimSpace(r.Text) == "" {
		return r, fmt.Errorf("%w: empty", ErrNoText)
	}
	// Optional labels of another type are ignored rather than failing the
	// record: the text is what matters.
	r.Source = optString(m["source"])
	r.Title = optString(m["title"])
	r.Chapter = optString(m["chapter"])
	return r, nil
}

func optString(raw json.RawMessage) string {
	var s string
	if raw == nil || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}
