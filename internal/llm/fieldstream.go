package llm

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// FieldStream follows one string field of a JSON object while the object
// is still being streamed, and tells emit the field's text, unescaped, as
// it arrives: a reader sees an answer being written although the model
// writes JSON. Text before the field, and everything after its closing
// quote, is ignored.
type FieldStream struct {
	key  *regexp.Regexp
	emit func(string)
	buf  []byte
	pos  int // next byte of the value to decode; -1 until the value starts
	done bool
}

// NewFieldStream follows field.
func NewFieldStream(field string, emit func(string)) *FieldStream {
	return &FieldStream{key: regexp.MustCompile(`"` + regexp.QuoteMeta(field) + `"\s*:\s*"`), emit: emit, pos: -1}
}

// Write takes the next piece of the reply.
func (f *FieldStream) Write(delta string) {
	if f.done {
		return
	}
	f.buf = append(f.buf, delta...)
	if f.pos < 0 {
		loc := f.key.FindIndex(f.buf)
		if loc == nil {
			return
		}
		f.pos = loc[1]
	}
	var out strings.Builder
	i := f.pos
decode:
	for i < len(f.buf) {
		c := f.buf[i]
		switch {
		case c == '"':
			f.done = true
			break decode
		case c == '\\':
			r, n := unescape(f.buf[i:])
			if n == 0 {
				break decode // the escape is not all here yet
			}
			out.WriteRune(r)
			i += n
		default:
			if !utf8.FullRune(f.buf[i:]) {
				break decode
			}
			r, n := utf8.DecodeRune(f.buf[i:])
			out.WriteRune(r) // a stray byte becomes U+FFFD, as JSON decoding has it
			i += n
		}
	}
	f.pos = i
	if out.Len() > 0 {
		f.emit(out.String())
	}
}

// unescape decodes the JSON escape at the start of b; n is 0 when b does
// not hold all of it yet.
func unescape(b []byte) (r rune, n int) {
	if len(b) < 2 {
		return 0, 0
	}
	switch b[1] {
	case 'n':
		return '\n', 2
	case 't':
		return '\t', 2
	case 'r':
		return '\r', 2
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'u':
		r, ok := hex4(b[2:])
		if !ok {
			if len(b) < 6 {
				return 0, 0
			}
			return unicode.ReplacementChar, 2
		}
		if !utf16.IsSurrogate(r) {
			return r, 6
		}
		if len(b) < 12 {
			return 0, 0
		}
		if b[6] == '\\' && b[7] == 'u' {
			if lo, ok := hex4(b[8:]); ok {
				return utf16.DecodeRune(r, lo), 12
			}
		}
		return unicode.ReplacementChar, 6
	}
	return rune(b[1]), 2 // \" \\ \/ and anything a sloppy model writes
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(v), err == nil
}
