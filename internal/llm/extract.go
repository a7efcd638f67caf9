package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Errors of the tolerant parsers.
var (
	// ErrNoJSON means the reply holds no JSON object or array.
	ErrNoJSON = errors.New("no JSON object or array in reply")
	// ErrTruncated means the reply was cut off: the JSON returned with it
	// was closed by repair and may miss its last members.
	ErrTruncated = errors.New("reply cut off")
)

// ExtractJSON finds the JSON object or array in a model reply and returns it
// as valid JSON. It copes with what models wrap around or break in JSON:
// ```json fences, prose before and after, <think>…</think> reasoning
// blocks, trailing commas, single-quoted or unquoted keys and strings,
// Python literals (True, None), comments, missing commas, raw newlines in
// strings. When the reply was cut off it closes open strings and brackets,
// drops the incomplete last member and returns what it recovered together
// with an error wrapping ErrTruncated. Without any JSON it returns an error
// wrapping ErrNoJSON.
//
// Repair is best effort: the result is valid JSON, but callers must
// validate its content like any other model output.
func ExtractJSON(s string) (json.RawMessage, error) {
	body, inThink := stripThink(s)
	if t := strings.TrimSpace(body); t != "" && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
		return json.RawMessage(t), nil
	}
	regions := append(fences(body), body)
	for _, r := range regions {
		out, closed, ok := bestCandidate(r)
		if !ok {
			continue
		}
		if closed > 0 {
			return out, fmt.Errorf("%w: JSON completed by closing %d open brackets", ErrTruncated, closed)
		}
		return out, nil
	}
	if inThink {
		return nil, fmt.Errorf("%w: %w inside a <think> block", ErrNoJSON, ErrTruncated)
	}
	return nil, ErrNoJSON
}

// stripThink removes reasoning blocks. A closing tag without an opening one
// (the opening tag was part of the prompt template) drops everything before
// it; an opening tag that is never closed drops everything after it, and
// inThink reports that.
func stripThink(s string) (out string, inThink bool) {
	for _, tag := range []string{"think", "thinking", "reasoning"} {
		var open bool
		s, open = stripTag(s, "<"+tag+">", "</"+tag+">")
		inThink = inThink || open
	}
	return s, inThink
}

// stripTag is stripThink for one tag, in a single pass.
func stripTag(s, open, close string) (string, bool) {
	if !strings.Contains(s, close) && !strings.Contains(s, open) {
		return s, false
	}
	var b strings.Builder
	// nextOpen and nextClose cache the next occurrences at or after pos
	// (-1: none left), so that the text is scanned once.
	pos, nextOpen, nextClose := 0, -2, -2
	find := func(cached int, tag string) int {
		if cached == -1 || cached >= pos {
			return cached
		}
		if i := strings.Index(s[pos:], tag); i >= 0 {
			return pos + i
		}
		return -1
	}
	for {
		nextOpen, nextClose = find(nextOpen, open), find(nextClose, close)
		switch {
		case nextClose >= 0 && (nextOpen < 0 || nextClose < nextOpen):
			b.Reset()
			pos = nextClose + len(close)
		case nextOpen < 0:
			b.WriteString(s[pos:])
			return b.String(), false
		default:
			b.WriteString(s[pos:nextOpen])
			pos = nextOpen + len(open)
			nextClose = find(nextClose, close)
			if nextClose < 0 {
				return b.String(), true
			}
			pos = nextClose + len(close)
		}
	}
}

// fences returns the contents of ``` code fences, in order; a fence left
// open runs to the end of the text.
func fences(s string) []string {
	var out []string
	for {
		i := strings.Index(s, "```")
		if i < 0 {
			return out
		}
		s = s[i+3:]
		// Skip the info string ("json", "JSON" …) up to the end of line.
		if nl := strings.IndexByte(s, '\n'); nl >= 0 && !strings.ContainsAny(s[:nl], "{[") {
			s = s[nl+1:]
		}
		j := strings.Index(s, "```")
		if j < 0 {
			return append(out, s)
		}
		out = append(out, s[:j])
		s = s[j+3:]
	}
}

// maxCandidates bounds the work on replies full of brackets.
const maxCandidates = 64

// bestCandidate repairs the JSON values starting at each '{' or '[' of s,
// one after the other, and keeps the one that spans most of the text: the
// answer, rather than a "[1]" or "{name}" in the prose around it.
func bestCandidate(s string) (out json.RawMessage, closed int, ok bool) {
	bestSpan := -1
	for i, n := 0, 0; i < len(s) && n < maxCandidates; n++ {
		k := strings.IndexAny(s[i:], "{[")
		if k < 0 {
			break
		}
		start := i + k
		r := repairer{src: s, i: start}
		end, good := r.run()
		if !good {
			i = start + 1
			continue
		}
		if span := end - start; span > bestSpan {
			bestSpan, out, closed, ok = span, r.out, r.closed, true
		}
		i = max(end, start+1)
	}
	return out, closed, ok
}

// Parser states within a container.
const (
	stKey   = iota // object: a key or '}' comes next
	stColon        // object: after a key
	stValue        // a value comes next (array: or ']')
	stAfter        // after a value: ',' or the closing bracket
)

// maxDepth matches encoding/json's nesting limit.
const maxDepth = 10000

type frame struct {
	obj   bool
	state int
	// member is the length of out before the current member (its comma
	// included), to drop a member left incomplete.
	member int
}

// repairer rewrites one tolerant JSON value from src[i:] as strict JSON.
type repairer struct {
	src   string
	i     int
	out   []byte
	stack []frame
	// closed counts the containers left open when the text ended.
	closed int
}

// run parses the value starting at r.i ('{' or '['). It returns the end of
// the value in src, and false when nothing valid came out.
func (r *repairer) run() (end int, ok bool) {
	r.open(r.src[r.i] == '{')
	r.i++
	for len(r.stack) > 0 {
		if len(r.stack) > maxDepth {
			return r.i, false
		}
		r.skipSpace()
		if r.i >= len(r.src) {
			r.closed = len(r.stack)
			for len(r.stack) > 0 {
				r.closeTop()
			}
			break
		}
		r.step()
	}
	return r.i, json.Valid(r.out)
}

func (r *repairer) top() *frame { return &r.stack[len(r.stack)-1] }

func (r *repairer) open(obj bool) {
	if obj {
		r.out = append(r.out, '{')
		r.stack = append(r.stack, frame{obj: true, state: stKey, member: len(r.out)})
	} else {
		r.out = append(r.out, '[')
		r.stack = append(r.stack, frame{state: stValue, member: len(r.out)})
	}
}

// closeTop closes the innermost container, dropping a dangling comma or an
// incomplete member first.
func (r *repairer) closeTop() {
	f := r.top()
	if f.state != stAfter {
		r.out = r.out[:f.member]
	}
	if f.obj {
		r.out = append(r.out, '}')
	} else {
		r.out = append(r.out, ']')
	}
	r.stack = r.stack[:len(r.stack)-1]
}

// closeWith handles a closing bracket: it closes containers up to the one
// it matches, or is ignored when it matches none.
func (r *repairer) closeWith(c byte) {
	r.i++
	wantObj := c == '}'
	j := len(r.stack) - 1
	for j >= 0 && r.stack[j].obj != wantObj {
		j--
	}
	if j < 0 {
		return
	}
	for len(r.stack) > j {
		r.closeTop()
	}
}

// valueDone moves the innermost container past a value.
func (r *repairer) valueDone() {
	if len(r.stack) > 0 {
		r.top().state = stAfter
	}
}

func (r *repairer) step() {
	c := r.src[r.i]
	f := r.top()
	switch f.state {
	case stKey:
		switch c {
		case '}', ']':
			r.closeWith(c)
		case ',', ':', '{', '[':
			r.i++ // stray punctuation where a key belongs
		case '"', '\'':
			s, closed := r.lexString(c)
			if !closed {
				return // cut off inside a key: run drops the member
			}
			r.out = appendString(r.out, s)
			f.state = stColon
		default:
			w := r.lexBare(true)
			if w == "" {
				r.i++
				return
			}
			r.out = appendString(r.out, w)
			f.state = stColon
		}
	case stColon:
		switch c {
		case ':', '=':
			r.i++
			r.out = append(r.out, ':')
			f.state = stValue
		case '}', ']':
			r.closeWith(c)
		case ',':
			// A key without a value: drop it, and carry on as if after the
			// previous member.
			r.out = r.out[:f.member]
			if r.out[len(r.out)-1] == '{' {
				r.i++
				f.state = stKey
			} else {
				f.state = stAfter
			}
		default:
			r.out = append(r.out, ':') // missing colon
			f.state = stValue
		}
	case stValue:
		switch c {
		case '}', ']':
			r.closeWith(c)
		case ',', ':':
			r.i++ // an empty element ([1,,2]) or stray colon
		case '{', '[':
			r.i++
			f.state = stAfter
			r.open(c == '{')
		case '"', '\'':
			s, _ := r.lexString(c)
			r.out = appendString(r.out, s)
			r.valueDone()
		default:
			w := r.lexBare(false)
			if w == "" {
				r.i++
				return
			}
			r.out = appendScalar(r.out, w)
			r.valueDone()
		}
	case stAfter:
		switch c {
		case '}', ']':
			r.closeWith(c)
			return
		case ',':
			r.i++
		}
		// A comma, or a missing one before the next member.
		f.member = len(r.out)
		r.out = append(r.out, ',')
		if f.obj {
			f.state = stKey
		} else {
			f.state = stValue
		}
	}
}

// skipSpace skips whitespace and // or /* */ comments.
func (r *repairer) skipSpace() {
	for r.i < len(r.src) {
		switch c := r.src[r.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			r.i++
		case c == '/' && strings.HasPrefix(r.src[r.i:], "//"):
			nl := strings.IndexByte(r.src[r.i:], '\n')
			if nl < 0 {
				r.i = len(r.src)
			} else {
				r.i += nl + 1
			}
		case c == '/' && strings.HasPrefix(r.src[r.i:], "/*"):
			e := strings.Index(r.src[r.i+2:], "*/")
			if e < 0 {
				r.i = len(r.src)
			} else {
				r.i += 2 + e + 2
			}
		default:
			return
		}
	}
}

// lexString reads a string quoted with q (the opening quote is at r.i) and
// returns its decoded text; closed is false when the text ends first.
func (r *repairer) lexString(q byte) (s string, closed bool) {
	r.i++
	var b strings.Builder
	for r.i < len(r.src) {
		c := r.src[r.i]
		switch {
		case c == q:
			r.i++
			return b.String(), true
		case c == '\\':
			if r.i+1 >= len(r.src) {
				r.i++
				return b.String(), false
			}
			r.i += 2
			switch e := r.src[r.i-1]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'u':
				rn, ok := readHex4(r.src[r.i:])
				if !ok {
					b.WriteString(`\u`)
					break
				}
				r.i += 4
				if utf16.IsSurrogate(rn) && strings.HasPrefix(r.src[r.i:], `\u`) {
					if lo, ok := readHex4(r.src[r.i+2:]); ok {
						if pair := utf16.DecodeRune(rn, lo); pair != utf8.RuneError {
							rn = pair
							r.i += 6
						}
					}
				}
				b.WriteRune(rn) // a lone surrogate becomes U+FFFD
			default:
				// \" \' \\ \/ and unknown escapes stand for the character.
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
			r.i++
		}
	}
	return b.String(), false
}

// readHex4 decodes four hex digits.
func readHex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var v rune
	for i := 0; i < 4; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// lexBare reads an unquoted key or value up to the next delimiter.
func (r *repairer) lexBare(key bool) string {
	stop := ",{}[]\"\n"
	if key {
		stop = ",{}[]\"\n:="
	}
	start := r.i
	for r.i < len(r.src) && !strings.ContainsRune(stop, rune(r.src[r.i])) {
		if !key && strings.HasPrefix(r.src[r.i:], "//") && r.i > start && r.src[r.i-1] == ' ' {
			break // a comment after an unquoted value
		}
		r.i++
	}
	return strings.TrimSpace(r.src[start:r.i])
}

// appendScalar writes an unquoted value: a number, a literal, or else the
// text as a string.
func appendScalar(out []byte, w string) []byte {
	switch strings.ToLower(w) {
	case "true":
		return append(out, "true"...)
	case "false":
		return append(out, "false"...)
	case "null", "none", "nil", "undefined", "nan", "infinity", "+infinity", "-infinity":
		return append(out, "null"...)
	}
	if n, ok := fixNumber(w); ok {
		return append(out, n...)
	}
	return appendString(out, w)
}

// fixNumber accepts JSON numbers and the near misses models write: +1, 1.,
// .5, 007.
func fixNumber(w string) (string, bool) {
	if isJSONNumber(w) {
		return w, true
	}
	neg := ""
	switch {
	case strings.HasPrefix(w, "+"):
		w = w[1:]
	case strings.HasPrefix(w, "-"):
		neg, w = "-", w[1:]
	}
	w = strings.TrimSuffix(w, ".")
	if strings.HasPrefix(w, ".") {
		w = "0" + w
	}
	for len(w) > 1 && w[0] == '0' && w[1] >= '0' && w[1] <= '9' {
		w = w[1:]
	}
	if isJSONNumber(w) {
		return neg + w, true
	}
	return "", false
}

func isJSONNumber(w string) bool {
	if w == "" || !strings.ContainsAny(w[:1], "-0123456789") {
		return false
	}
	var v json.Number
	return json.Unmarshal([]byte(w), &v) == nil && string(v) == w
}

// appendString writes s as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendString(out []byte, s string) []byte {
	const hex = "0123456789abcdef"
	out = append(out, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				out = append(out, '\\', c)
			case c == '\n':
				out = append(out, '\\', 'n')
			case c == '\r':
				out = append(out, '\\', 'r')
			case c == '\t':
				out = append(out, '\\', 't')
			case c < 0x20:
				out = append(out, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				out = append(out, c)
			}
			i++
			continue
		}
		rn, n := utf8.DecodeRuneInString(s[i:])
		if rn == utf8.RuneError && n == 1 {
			out = append(out, `\ufffd`...)
		} else {
			out = append(out, s[i:i+n]...)
		}
		i += n
	}
	return append(out, '"')
}
