package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"unicode"
)

// ParseTuples reads the tuples in a model reply, in order. It accepts
//
//	(诸葛亮, 任官, 丞相)                     one or more per line, ASCII or full-width
//	诸葛亮 | 任官 | 丞相                      also as a Markdown table
//	[["诸葛亮", "任官", "丞相"], …]           JSON arrays of arrays (or of objects,
//	                                         whose values are taken in order)
//	["诸葛亮", "任官", "丞相"]                one JSON array per line
//
// with list markers, quotes around fields, Markdown header rows and <think>
// blocks ignored. The short last row of a cut-off JSON reply is dropped; a
// cut-off "(a, b, c" line is kept as far as it goes. Tuples of fewer than
// two fields are dropped. Fields are trimmed but otherwise
// unchecked: callers validate them.
func ParseTuples(s string) [][]string {
	body, _ := stripThink(s)
	if out := jsonTuples(body); len(out) > 0 {
		return out
	}
	var (
		out  [][]string
		prev int // tuples read from the previous line
	)
	for _, line := range strings.Split(body, "\n") {
		ts, rule := lineTuples(line)
		if rule && prev == 1 {
			// The row above a Markdown header rule is the header.
			out = out[:len(out)-1]
		}
		out = append(out, ts...)
		prev = len(ts)
	}
	return out
}

// jsonTuples reads a JSON array of arrays or objects, possibly wrapped in
// an object such as {"triples": [...]}.
func jsonTuples(s string) [][]string {
	raw, err := ExtractJSON(s)
	if raw == nil || (err != nil && !errors.Is(err, ErrTruncated)) {
		return nil
	}
	var out [][]string
	if firstByte(raw) == '{' {
		for _, v := range orderedValues(raw) {
			if firstByte(v) == '[' {
				if out = arrayTuples(v); len(out) > 0 {
					break
				}
			}
		}
	} else {
		out = arrayTuples(raw)
	}
	// A cut-off reply leaves its last row short: drop it.
	if err != nil && len(out) > 1 && len(out[len(out)-1]) < len(out[0]) {
		out = out[:len(out)-1]
	}
	return out
}

// arrayTuples reads the rows of a JSON array: arrays, or objects whose
// values are taken in order.
func arrayTuples(raw json.RawMessage) [][]string {
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil
	}
	var out [][]string
	for _, it := range items {
		var fields []string
		switch firstByte(it) {
		case '[':
			var elems []json.RawMessage
			if json.Unmarshal(it, &elems) != nil {
				continue
			}
			for _, e := range elems {
				fields = append(fields, scalarText(e))
			}
		case '{':
			for _, v := range orderedValues(it) {
				fields = append(fields, scalarText(v))
			}
		default:
			continue
		}
		if t := cleanTuple(fields); t != nil {
			out = append(out, t)
		}
	}
	return out
}

func firstByte(b []byte) byte {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// orderedValues returns the member values of a JSON object in source order
// (a Go map would lose it).
func orderedValues(obj []byte) []json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out []json.RawMessage
	for dec.More() {
		if _, err := dec.Token(); err != nil { // the key
			return out
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return out
		}
		out = append(out, v)
	}
	return out
}

// scalarText is the text of a JSON value: strings unquoted, null empty,
// anything else as written.
func scalarText(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	t := string(bytes.TrimSpace(v))
	if t == "null" {
		return ""
	}
	return t
}

// lineTuples reads the tuples on one line; rule reports a Markdown table
// header rule.
func lineTuples(line string) (tuples [][]string, rule bool) {
	line = stripMarker(strings.TrimSpace(line))
	if line == "" {
		return nil, false
	}
	// One JSON array per line (JSON Lines, or the rows of a pretty-printed
	// array of arrays).
	if j := strings.TrimSuffix(line, ","); strings.HasPrefix(j, "[") {
		var elems []json.RawMessage
		if json.Unmarshal([]byte(j), &elems) == nil {
			fields := make([]string, len(elems))
			for i, e := range elems {
				fields[i] = scalarText(e)
			}
			if t := cleanTuple(fields); t != nil {
				return [][]string{t}, false
			}
			return nil, false
		}
	}
	// Pipes first: a field such as 魏王（216, 建安二十一年） must not be
	// taken for a tuple of its own.
	if strings.ContainsAny(line, "|｜") {
		return pipeTuple(line)
	}
	if strings.ContainsAny(line, "(（") {
		var out [][]string
		for _, g := range parenGroups(line) {
			if t := cleanTuple(splitFields(g)); t != nil {
				out = append(out, t)
			}
		}
		return out, false
	}
	if strings.Contains(line, "\t") {
		if t := cleanTuple(strings.Split(line, "\t")); t != nil {
			return [][]string{t}, false
		}
	}
	return nil, false
}

// stripMarker removes a list marker: "- ", "* ", "• ", "1. ", "1) ", "1、".
func stripMarker(line string) string {
	for _, m := range []string{"- ", "* ", "+ ", "• ", "· "} {
		if strings.HasPrefix(line, m) {
			return strings.TrimSpace(line[len(m):])
		}
	}
	i := 0
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i > 0 && i < len(line) {
		for _, sep := range []string{". ", ") ", "、"} {
			if strings.HasPrefix(line[i:], sep) {
				return strings.TrimSpace(line[i+len(sep):])
			}
		}
	}
	return line
}

func pipeTuple(line string) (tuples [][]string, rule bool) {
	line = strings.ReplaceAll(line, "｜", "|")
	if w := strings.TrimSpace(line); len(w) >= 2 && (w[0] == '(' && w[len(w)-1] == ')' || w[0] == '[' && w[len(w)-1] == ']') {
		line = w[1 : len(w)-1]
	}
	cells := strings.Split(line, "|")
	// A Markdown table row starts and ends with a pipe.
	if len(cells) > 0 && strings.TrimSpace(cells[0]) == "" {
		cells = cells[1:]
	}
	if len(cells) > 0 && strings.TrimSpace(cells[len(cells)-1]) == "" {
		cells = cells[:len(cells)-1]
	}
	if isTableRule(cells) {
		return nil, true
	}
	if t := cleanTuple(cells); t != nil {
		return [][]string{t}, false
	}
	return nil, false
}

// isTableRule tells a Markdown header rule (|---|:--:|) from a row.
func isTableRule(cells []string) bool {
	if len(cells) == 0 {
		return false
	}
	for _, c := range cells {
		c = strings.Trim(strings.TrimSpace(c), ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return false
		}
	}
	return true
}

// parenGroups returns the text inside each top-level pair of parentheses
// (ASCII or full-width, nesting counted). A group left open at the end of
// the line (a cut-off reply) runs to the end.
func parenGroups(line string) []string {
	var (
		out   []string
		depth int
		start int
	)
	for i, r := range line {
		switch r {
		case '(', '（':
			if depth == 0 {
				start = i + len(string(r))
			}
			depth++
		case ')', '）':
			if depth == 0 {
				continue
			}
			depth--
			if depth == 0 {
				out = append(out, line[start:i])
			}
		}
	}
	if depth > 0 && start <= len(line) {
		out = append(out, line[start:])
	}
	return out
}

// splitFields splits a tuple's text on commas (ASCII or full-width) outside
// nested parentheses and quotes.
func splitFields(s string) []string {
	var (
		out    []string
		depth  int
		quote  rune
		fstart int
	)
	for i, r := range s {
		switch {
		case quote != 0:
			if r == quote || (quote == '“' && r == '”') {
				quote = 0
			}
		case r == '"':
			quote = '"'
		case r == '“':
			quote = '“'
		case r == '(' || r == '（' || r == '[':
			depth++
		case (r == ')' || r == '）' || r == ']') && depth > 0:
			depth--
		case (r == ',' || r == '，') && depth == 0:
			out = append(out, s[fstart:i])
			fstart = i + len(string(r))
		}
	}
	return append(out, s[fstart:])
}

// cleanTuple trims the fields and strips quotes around them; it returns nil
// for fewer than two non-empty fields.
func cleanTuple(fields []string) []string {
	out := make([]string, 0, len(fields))
	nonEmpty := 0
	for _, f := range fields {
		f = unquoteField(f)
		if f != "" {
			nonEmpty++
		}
		out = append(out, f)
	}
	// Drop empty trailing fields left by a trailing separator.
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	if nonEmpty < 2 {
		return nil
	}
	return out
}

var quotePairs = [][2]string{
	{`"`, `"`}, {"'", "'"}, {"`", "`"}, {"“", "”"}, {"‘", "’"}, {"「", "」"}, {"『", "』"}, {"**", "**"},
}

func unquoteField(f string) string {
	f = strings.TrimFunc(f, unicode.IsSpace)
	for changed := true; changed; {
		changed = false
		for _, q := range quotePairs {
			if len(f) >= len(q[0])+len(q[1]) && strings.HasPrefix(f, q[0]) && strings.HasSuffix(f, q[1]) {
				f = strings.TrimFunc(f[len(q[0]):len(f)-len(q[1])], unicode.IsSpace)
				changed = true
			}
		}
	}
	return f
}
