package main

import (
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"
)

// Text from the corpus (file names, titles, sections, names, sentences)
// and from models is data: printed raw, an escape sequence in it could
// recolour, clear or retitle the user's terminal, and a newline in a name
// could forge a line of output. So a.printf and a.warnf write every string
// argument with its control characters escaped (plain), and the program's
// own line breaks belong in the format.

// escapeControl writes the C0 and C1 control characters and DEL in s as Go
// escapes (ESC → \x1b, newline → \n, U+009B → \u009b), and bytes that are
// not UTF-8 as \xNN; everything else, CJK included, stays as it is. With
// keepLines, newlines and tabs stay too: for text whose lines are meant,
// such as a model's answer.
func escapeControl(s string, keepLines bool) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case keepLines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// plain is a printf argument whose text is written with its control
// characters escaped, whatever the verb's width and flags. %q quotes as
// Go does, which escapes them too; verbs for numbers get the value as it
// is.
type plain struct{ v any }

func (p plain) Format(f fmt.State, verb rune) {
	if verb != 's' && verb != 'v' && verb != 'q' {
		fmt.Fprintf(f, fmt.FormatString(f, verb), p.v)
		return
	}
	var v any
	switch x := p.v.(type) {
	case error:
		v = x.Error()
	case fmt.Stringer:
		v = x.String()
	case []string:
		out := make([]string, len(x))
		for i, s := range x {
			out[i] = escapeControl(s, false)
		}
		fmt.Fprintf(f, fmt.FormatString(f, verb), out)
		return
	default:
		v = reflect.ValueOf(x).String()
	}
	s := v.(string)
	if verb == 'q' {
		fmt.Fprintf(f, fmt.FormatString(f, verb), s)
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), escapeControl(s, false))
}

// lines is text whose line breaks are meant (a model's answer): printed
// with its other control characters escaped.
type lines string

func (l lines) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, fmt.FormatString(f, verb), escapeControl(string(l), true))
}

// plainArgs wraps the printf arguments that carry text in plain.
func plainArgs(args []any) []any {
	out := make([]any, len(args))
	for i, arg := range args {
		switch arg.(type) {
		case nil, fmt.Formatter:
			out[i] = arg
		case string, error, fmt.Stringer, []string:
			out[i] = plain{arg}
		default:
			if reflect.ValueOf(arg).Kind() == reflect.String {
				out[i] = plain{arg}
			} else {
				out[i] = arg
			}
		}
	}
	return out
}
