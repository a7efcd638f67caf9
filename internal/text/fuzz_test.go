package text

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	xunicode "golang.org/x/text/encoding/unicode"
)

func FuzzDecode(f *testing.F) {
	f.Add([]byte(classicalTrad))
	f.Add([]byte("\xef\xbb\xbf" + modernSimp))
	f.Add(encode(f, simplifiedchinese.GB18030, classicalSimp))
	f.Add(encode(f, traditionalchinese.Big5, classicalTrad))
	f.Add(encode(f, xunicode.UTF16(xunicode.LittleEndian, xunicode.UseBOM), english))
	f.Add(encode(f, xunicode.UTF16(xunicode.BigEndian, xunicode.IgnoreBOM), vietnamese))
	f.Add([]byte("\x89PNG\r\n\x1a\n\x00\x00"))
	f.Add([]byte(" \r\n"))
	f.Add([]byte{})
	names := map[string]bool{EncUTF8: true, EncUTF8BOM: true, EncUTF16LE: true, EncUTF16BE: true,
		EncUTF32LE: true, EncUTF32BE: true, EncGB18030: true, EncBig5: true, EncWindows1252: true}
	f.Fuzz(func(t *testing.T, data []byte) {
		orig := string(data)
		s, enc, err := Decode(data)
		if string(data) != orig {
			t.Fatal("Decode changed its input")
		}
		if err != nil {
			if !errors.Is(err, ErrEmpty) && !errors.Is(err, ErrBinary) && !errors.Is(err, ErrUndecodable) {
				t.Fatalf("unexpected error %v", err)
			}
			if s != "" || enc != "" {
				t.Fatalf("error %v with text %q or encoding %q", err, s, enc)
			}
			return
		}
		if !names[enc] {
			t.Fatalf("unknown encoding %q", enc)
		}
		if !utf8.ValidString(s) {
			t.Fatalf("invalid UTF-8 from %s", enc)
		}
		if strings.IndexByte(s, '\r') >= 0 {
			t.Fatal("carriage return left in text")
		}
		if strings.IndexFunc(s, notSpace) < 0 {
			t.Fatal("whitespace-only text without ErrEmpty")
		}
		if enc == EncUTF8 && utf8.Valid(data) && !strings.ContainsAny(orig, "\r\x00") && s != orig {
			t.Fatal("valid UTF-8 changed")
		}
	})
}

func FuzzSentences(f *testing.F) {
	for _, s := range []string{classicalTrad, modernSimp, english, vietnamese, "Mr. J. Smith... Yes!「好。」", "。\n。 . ! ?"} {
		f.Add(s, Classical)
		f.Add(s, English)
	}
	f.Fuzz(func(t *testing.T, s, lang string) {
		if !utf8.ValidString(s) {
			// Decoded text is always valid; the invariants below read
			// code points as []rune does.
			s = strings.ToValidUTF8(s, "\uFFFD")
		}
		spans := Sentences(s, lang)
		checkSpans(t, s, spans)
		if want := refSentences(s, lang); !slices.Equal(spans, want) {
			t.Fatalf("Sentences = %v, reference %v", spans, want)
		}
	})
}

func FuzzToSimplified(f *testing.F) {
	for _, s := range []string{classicalTrad, modernTrad, "樊於期乾乾淨淨瞭解", "\u2F08\uF900𠀀", "abc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, m := ToSimplified(s)
		if want := refToSimplified(s); out != want {
			t.Fatalf("ToSimplified(%q) = %q, reference %q", s, out, want)
		}
		if utf8.ValidString(s) && !utf8.ValidString(out) {
			t.Fatal("invalid UTF-8 from valid input")
		}
		checkMap(t, s, out, m)
		if m == nil && utf8.RuneCountInString(out) != utf8.RuneCountInString(s) {
			t.Fatal("length changed without a map")
		}
		if again, _ := ToSimplified(out); again != out && !overlapping(s) {
			t.Fatalf("not idempotent: %q → %q → %q", s, out, again)
		}
	})
}
