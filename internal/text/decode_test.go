package text

import (
	"bytes"
	"errors"
	"math/rand"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	xunicode "golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

func encode(t testing.TB, enc encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := enc.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b
}

func TestDecodeEncodings(t *testing.T) {
	le := xunicode.UTF16(xunicode.LittleEndian, xunicode.IgnoreBOM)
	be := xunicode.UTF16(xunicode.BigEndian, xunicode.IgnoreBOM)
	short := "諸葛亮字孔明，琅邪人也。"
	cases := []struct {
		name string
		data func(t testing.TB) []byte
		want string // decoded text
		enc  string
	}{
		{"utf8 trad", func(t testing.TB) []byte { return []byte(classicalTrad) }, classicalTrad, EncUTF8},
		{"utf8 bom", func(t testing.TB) []byte { return append([]byte{0xEF, 0xBB, 0xBF}, classicalSimp...) }, classicalSimp, EncUTF8BOM},
		{"utf8 ascii", func(t testing.TB) []byte { return []byte(english) }, english, EncUTF8},
		{"utf8 vietnamese", func(t testing.TB) []byte { return []byte(vietnamese) }, vietnamese, EncUTF8},
		{"utf16le bom", func(t testing.TB) []byte { return append([]byte{0xFF, 0xFE}, encode(t, le, classicalTrad)...) }, classicalTrad, EncUTF16LE},
		{"utf16be bom", func(t testing.TB) []byte { return append([]byte{0xFE, 0xFF}, encode(t, be, classicalSimp)...) }, classicalSimp, EncUTF16BE},
		{"utf16le no bom", func(t testing.TB) []byte { return encode(t, le, classicalTrad) }, classicalTrad, EncUTF16LE},
		{"utf16be no bom", func(t testing.TB) []byte { return encode(t, be, modernSimp+"\n") }, modernSimp + "\n", EncUTF16BE},
		{"utf16le english no bom", func(t testing.TB) []byte { return encode(t, le, english) }, english, EncUTF16LE},
		{"utf16le no bom no ascii", func(t testing.TB) []byte { return encode(t, le, strings.ReplaceAll(classicalTrad, "\n", "")) }, strings.ReplaceAll(classicalTrad, "\n", ""), EncUTF16LE},
		{"utf32le bom", func(t testing.TB) []byte {
			return encode(t, utf32.UTF32(utf32.LittleEndian, utf32.UseBOM), classicalTrad)
		}, classicalTrad, EncUTF32LE},
		{"gb18030 simplified", func(t testing.TB) []byte { return encode(t, simplifiedchinese.GB18030, classicalSimp) }, classicalSimp, EncGB18030},
		{"gb18030 traditional", func(t testing.TB) []byte { return encode(t, simplifiedchinese.GB18030, classicalTrad) }, classicalTrad, EncGB18030},
		{"gbk simplified", func(t testing.TB) []byte { return encode(t, simplifiedchinese.GBK, classicalSimp) }, classicalSimp, EncGB18030},
		{"gb18030 modern", func(t testing.TB) []byte { return encode(t, simplifiedchinese.GB18030, modernSimp) }, modernSimp, EncGB18030},
		{"gb18030 modern trad", func(t testing.TB) []byte { return encode(t, simplifiedchinese.GB18030, modernTrad) }, modernTrad, EncGB18030},
		{"big5 traditional", func(t testing.TB) []byte { return encode(t, traditionalchinese.Big5, classicalTrad) }, classicalTrad, EncBig5},
		{"big5 modern", func(t testing.TB) []byte { return encode(t, traditionalchinese.Big5, modernTrad) }, modernTrad, EncBig5},
		{"big5 one sentence", func(t testing.TB) []byte { return encode(t, traditionalchinese.Big5, short) }, short, EncBig5},
		{"gb18030 one sentence", func(t testing.TB) []byte {
			return encode(t, simplifiedchinese.GB18030, "诸葛亮字孔明，琅邪人也。")
		}, "诸葛亮字孔明，琅邪人也。", EncGB18030},
		{"big5 crlf", func(t testing.TB) []byte {
			return encode(t, traditionalchinese.Big5, strings.ReplaceAll(classicalTrad, "\n", "\r\n"))
		}, classicalTrad, EncBig5},
		{"windows-1252", func(t testing.TB) []byte {
			return encode(t, charmap.Windows1252, "The café served crème brûlée — “délicieux”, said Zoë.\n")
		}, "The café served crème brûlée — “délicieux”, said Zoë.\n", EncWindows1252},
		{"crlf", func(t testing.TB) []byte { return []byte("a\r\nb\rc\n\r\nd") }, "a\nb\nc\n\nd", EncUTF8},
		{"nul padding", func(t testing.TB) []byte { return append([]byte(classicalSimp), 0, 0, 0) }, classicalSimp, EncUTF8},
		{"truncated utf8", func(t testing.TB) []byte { b := []byte(classicalSimp + "汉"); return b[:len(b)-1] }, classicalSimp, EncUTF8},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, enc, err := Decode(c.data(t))
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if enc != c.enc {
				t.Errorf("encoding = %q, want %q", enc, c.enc)
			}
			if got != c.want {
				t.Errorf("text differs:\n got %.80q\nwant %.80q", got, c.want)
			}
		})
	}
}

// Both encodings of each passage, tried line by line, so that short inputs
// are covered too.
func TestDecodeGBvsBig5Lines(t *testing.T) {
	for _, src := range []string{classicalTrad, modernTrad} {
		for _, line := range strings.Split(src, "。") {
			if len([]rune(line)) < 8 {
				continue
			}
			for _, enc := range []struct {
				e    encoding.Encoding
				name string
			}{{traditionalchinese.Big5, EncBig5}, {simplifiedchinese.GB18030, EncGB18030}} {
				got, name, err := Decode(encode(t, enc.e, line))
				if err != nil || name != enc.name || got != line {
					t.Errorf("%s %q: got %q %q %v", enc.name, line, name, got, err)
				}
			}
		}
	}
	for _, line := range strings.Split(classicalSimp+modernSimp, "。") {
		if len([]rune(line)) < 8 {
			continue
		}
		got, name, err := Decode(encode(t, simplifiedchinese.GB18030, line))
		if err != nil || name != EncGB18030 || got != line {
			t.Errorf("gb18030 %q: got %q %q %v", line, name, got, err)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	random := make([]byte, 4096)
	rng.Read(random)
	random[100], random[2001] = 0, 0
	noNUL := make([]byte, 4096)
	for i := range noNUL {
		noNUL[i] = byte(rng.Intn(255) + 1)
	}
	high := make([]byte, 4096)
	for i := range high {
		high[i] = byte(0x80 + rng.Intn(0x80))
	}
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"nil", nil, ErrEmpty},
		{"empty", []byte{}, ErrEmpty},
		{"spaces", []byte(" \t\r\n\n  "), ErrEmpty},
		{"ideographic spaces", []byte("\u3000\u3000\n"), ErrEmpty},
		{"bom only", []byte{0xEF, 0xBB, 0xBF}, ErrEmpty},
		{"utf16 bom only", []byte{0xFF, 0xFE}, ErrEmpty},
		{"utf16 spaces", append([]byte{0xFF, 0xFE}, encode(t, xunicode.UTF16(xunicode.LittleEndian, xunicode.IgnoreBOM), "  \n")...), ErrEmpty},
		{"png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00"), ErrBinary},
		{"elf", []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00>\x00"), ErrBinary},
		{"zip", []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00"), ErrBinary},
		{"pdf", []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"), ErrBinary},
		{"random with NULs", random, ErrBinary},
		{"random without NULs", noNUL, ErrBinary},
		{"nul in text", []byte("hello\x00world, this is not text"), ErrBinary},
		{"only NULs", make([]byte, 64), ErrBinary},
		{"controls", bytes.Repeat([]byte("ab\x01\x02\x03\x04"), 50), ErrBinary},
		{"random high bytes", high, ErrUndecodable},
		{"high bytes among ASCII", bytes.Repeat([]byte("abc \xff\xfe\xfd\x80 "), 200), ErrUndecodable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, enc, err := Decode(c.data)
			if !errors.Is(err, c.want) {
				t.Fatalf("Decode = %.40q, %q, %v; want %v", s, enc, err, c.want)
			}
		})
	}
}

func TestDecodeLargeUTF8(t *testing.T) {
	src := strings.Repeat(classicalTrad, 2000)
	got, enc, err := Decode([]byte(src))
	if err != nil || enc != EncUTF8 || got != src {
		t.Fatalf("Decode: %q %v", enc, err)
	}
}

// Real files carry a few damaged bytes; they must not flip the guess. A
// damaged lead byte garbles the rest of its line in a double-byte encoding,
// so the texts are a few lines long.
func TestDecodeDamaged(t *testing.T) {
	gb := encode(t, simplifiedchinese.GB18030, strings.Repeat(classicalSimp, 10))
	gb[40] = 0xFF
	if _, enc, err := Decode(gb); err != nil || enc != EncGB18030 {
		t.Errorf("damaged GB18030: %q %v", enc, err)
	}
	b5 := encode(t, traditionalchinese.Big5, strings.Repeat(classicalTrad, 10))
	b5 = append(b5[:101], b5[102:]...) // drop one byte: one character goes wrong
	if _, enc, err := Decode(b5); err != nil || enc != EncBig5 {
		t.Errorf("damaged Big5: %q %v", enc, err)
	}
	u := []byte(classicalTrad)
	u = append(u[:30:30], append([]byte{0xE9, 0x20}, u[30:]...)...) // a Latin-1 é inside UTF-8
	s, enc, err := Decode(u)
	if err != nil || enc != EncUTF8 || !strings.Contains(s, "\uFFFD") {
		t.Errorf("damaged UTF-8: %q %v", enc, err)
	}
	mixed := encode(t, simplifiedchinese.GB18030, "Liu Bei (刘备) met Zhuge Liang (诸葛亮) in the year 207.\n")
	if s, enc, err := Decode(mixed); err != nil || enc != EncGB18030 || !strings.Contains(s, "诸葛亮") {
		t.Errorf("English with GB names: %q %q %v", s, enc, err)
	}
}

func TestDecodeKeepsInput(t *testing.T) {
	data := []byte("甲\r\n乙\r丙")
	orig := string(data)
	if s, _, err := Decode(data); err != nil || s != "甲\n乙\n丙" {
		t.Fatalf("Decode = %q, %v", s, err)
	}
	if string(data) != orig {
		t.Fatalf("input changed to %q", data)
	}
}

// Guards against accidental quadratic behaviour; the benchmarks measure.
func TestSpeed(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	big := []byte(strings.Repeat(classicalTrad+english+"\r\n", 11<<20/(len(classicalTrad)+len(english)+2)))
	start := time.Now()
	s, _, err := Decode(big)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Decode of %d MB took %v", len(big)>>20, d)
	}
	trad := []rune(strings.Repeat(classicalTrad, 2_800_000/utf8.RuneCountInString(classicalTrad)))
	tradS := string(trad)
	start = time.Now()
	ToSimplified(tradS)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("ToSimplified of %d characters took %v", len(trad), d)
	}
	start = time.Now()
	Sentences(tradS, Classical)
	Sentences(s, English)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Sentences took %v", d)
	}
}
