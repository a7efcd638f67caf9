package text

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	xunicode "golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// Encoding names Decode returns.
const (
	EncUTF8        = "utf-8"
	EncUTF8BOM     = "utf-8-bom"
	EncUTF16LE     = "utf-16le"
	EncUTF16BE     = "utf-16be"
	EncUTF32LE     = "utf-32le"
	EncUTF32BE     = "utf-32be"
	EncGB18030     = "gb18030"
	EncBig5        = "big5"
	EncWindows1252 = "windows-1252"
)

// sampleSize bounds the bytes looked at when guessing; the winner then
// decodes the whole input.
const sampleSize = 64 << 10

// Decode detects the encoding of data and returns the text and the
// encoding's name (utf-8, utf-8-bom, utf-16le, utf-16be, utf-32le, utf-32be,
// gb18030, big5, windows-1252). Line endings become "\n". Errors wrap
// ErrEmpty, ErrBinary or ErrUndecodable.
func Decode(data []byte) (string, string, error) {
	if len(data) == 0 {
		return "", "", fmt.Errorf("%w: no bytes", ErrEmpty)
	}
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		return decodeUTF8(data[3:], EncUTF8BOM)
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE, 0, 0}):
		return decodeWide(data[4:], utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM), EncUTF32LE)
	case bytes.HasPrefix(data, []byte{0, 0, 0xFE, 0xFF}):
		return decodeWide(data[4:], utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM), EncUTF32BE)
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		return decodeWide(data[2:], xunicode.UTF16(xunicode.LittleEndian, xunicode.IgnoreBOM), EncUTF16LE)
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return decodeWide(data[2:], xunicode.UTF16(xunicode.BigEndian, xunicode.IgnoreBOM), EncUTF16BE)
	}
	if kind := magic(data); kind != "" {
		return "", "", fmt.Errorf("%w: %s", ErrBinary, kind)
	}
	if bytes.IndexByte(data, 0) >= 0 {
		if out, name := guessUTF16(data); out != nil {
			return finish(out, name)
		}
		// Some tools pad text files with NULs; anything else is binary.
		data = bytes.TrimRight(data, "\x00")
		if len(data) == 0 || bytes.IndexByte(data, 0) >= 0 {
			return "", "", fmt.Errorf("%w: NUL bytes", ErrBinary)
		}
	}
	if controlHeavy(data[:min(len(data), sampleSize)]) {
		return "", "", fmt.Errorf("%w: control characters", ErrBinary)
	}
	if utf8.Valid(data) {
		return finish(data, EncUTF8)
	}
	// A file cut in the middle of its last character is still UTF-8.
	if cut := truncatedTail(data); cut > 0 && utf8.Valid(data[:len(data)-cut]) {
		return finish(data[:len(data)-cut], EncUTF8)
	}
	return decodeLegacy(data)
}

func decodeUTF8(data []byte, name string) (string, string, error) {
	if utf8.Valid(data) {
		return finish(data, name)
	}
	if cut := truncatedTail(data); cut > 0 && utf8.Valid(data[:len(data)-cut]) {
		return finish(data[:len(data)-cut], name)
	}
	s := strings.ToValidUTF8(string(data), "\uFFFD")
	if st := measure(s); !st.plausible() {
		return "", "", fmt.Errorf("%w: invalid UTF-8 after a UTF-8 byte order mark", ErrUndecodable)
	}
	return finishString(s, name)
}

// decodeWide decodes UTF-16 or UTF-32 announced by a byte order mark.
func decodeWide(data []byte, enc encoding.Encoding, name string) (string, string, error) {
	if len(data) == 0 {
		return "", "", fmt.Errorf("%w: only a byte order mark", ErrEmpty)
	}
	out, err := enc.NewDecoder().Bytes(data)
	if err != nil {
		return "", "", fmt.Errorf("%w: %s: %v", ErrUndecodable, name, err)
	}
	st := measure(string(out[:min(len(out), 4*sampleSize)]))
	if st.controls*20 > st.runes {
		return "", "", fmt.Errorf("%w: control characters in %s", ErrBinary, name)
	}
	if !st.plausible() {
		return "", "", fmt.Errorf("%w: invalid %s", ErrUndecodable, name)
	}
	return finish(out, name)
}

// finish normalises line endings and rejects text that is only whitespace.
// It never writes to b, which may be the caller's buffer.
func finish(b []byte, name string) (string, string, error) {
	var s string
	if bytes.IndexByte(b, '\r') >= 0 {
		s = normaliseNewlines(b)
	} else {
		s = string(b)
	}
	return finishString(s, name)
}

func finishString(s, name string) (string, string, error) {
	if strings.IndexByte(s, '\r') >= 0 {
		s = normaliseNewlines([]byte(s))
	}
	if strings.IndexFunc(s, notSpace) < 0 {
		return "", "", fmt.Errorf("%w: only whitespace", ErrEmpty)
	}
	return s, name, nil
}

func notSpace(r rune) bool { return !unicode.IsSpace(r) && r != '\uFEFF' }

// normaliseNewlines turns CRLF and lone CR into LF.
func normaliseNewlines(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	for {
		i := bytes.IndexByte(b, '\r')
		if i < 0 {
			sb.Write(b)
			return sb.String()
		}
		sb.Write(b[:i])
		sb.WriteByte('\n')
		if i+1 < len(b) && b[i+1] == '\n' {
			i++
		}
		b = b[i+1:]
	}
}

// truncatedTail returns the length of an incomplete UTF-8 sequence at the
// end of b, or 0.
func truncatedTail(b []byte) int {
	for k := 1; k <= 3 && k <= len(b); k++ {
		c := b[len(b)-k]
		if c < 0x80 {
			return 0
		}
		if c >= 0xC0 { // a lead byte
			if !utf8.FullRune(b[len(b)-k:]) {
				return k
			}
			return 0
		}
	}
	return 0
}

// signatures of well-known binary formats. Each includes bytes that a text
// file would not start with.
var signatures = []struct{ sig, name string }{
	{"\x89PNG\r\n\x1a\n", "PNG image"},
	{"\xff\xd8\xff", "JPEG image"},
	{"GIF87a", "GIF image"},
	{"GIF89a", "GIF image"},
	{"\x7fELF", "ELF executable"},
	{"PK\x03\x04", "zip archive"},
	{"PK\x05\x06", "zip archive"},
	{"\x1f\x8b", "gzip data"},
	{"BZh91AY&SY", "bzip2 data"},
	{"\xfd7zXZ\x00", "xz data"},
	{"7z\xbc\xaf\x27\x1c", "7-zip archive"},
	{"Rar!\x1a\x07", "RAR archive"},
	{"%PDF-", "PDF document"},
	{"SQLite format 3\x00", "SQLite database"},
	{"\xca\xfe\xba\xbe", "Mach-O or Java class file"},
	{"\xcf\xfa\xed\xfe", "Mach-O executable"},
	{"\xce\xfa\xed\xfe", "Mach-O executable"},
	{"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "OLE document (old Office format)"},
	{"\x00asm", "WebAssembly module"},
	{"wOFF", "WOFF font"},
	{"wOF2", "WOFF2 font"},
	{"\x1aE\xdf\xa3", "Matroska video"},
	{"OggS\x00", "Ogg media"},
}

// magic names the binary format data starts with, if it is a known one.
func magic(b []byte) string {
	for _, s := range signatures {
		if bytes.HasPrefix(b, []byte(s.sig)) {
			return s.name
		}
	}
	if len(b) >= 12 && string(b[:4]) == "RIFF" {
		switch string(b[8:12]) {
		case "WAVE", "AVI ", "WEBP":
			return "RIFF media"
		}
	}
	if len(b) >= 12 && string(b[4:8]) == "ftyp" {
		return "MP4 or QuickTime media"
	}
	if bytes.HasPrefix(b, []byte("MZ")) && bytes.IndexByte(b[:min(len(b), 64)], 0) >= 0 {
		return "Windows executable"
	}
	return ""
}

// guessUTF16 decodes data, which holds zero bytes, as UTF-16 without a
// byte order mark in the byte order that reads better, or returns nil when
// neither reads as text.
func guessUTF16(data []byte) ([]byte, string) {
	var best encoding.Encoding
	var name string
	bestQ := 0.6 // below this it is binary that happens to decode
	sample := data[:min(len(data), sampleSize)&^1]
	for _, c := range []struct {
		enc  encoding.Encoding
		name string
	}{
		{xunicode.UTF16(xunicode.LittleEndian, xunicode.IgnoreBOM), EncUTF16LE},
		{xunicode.UTF16(xunicode.BigEndian, xunicode.IgnoreBOM), EncUTF16BE},
	} {
		out, err := c.enc.NewDecoder().Bytes(sample)
		if err != nil {
			continue
		}
		st := measure(string(out))
		if !st.plausible() || st.controls*20 > st.runes {
			continue
		}
		if q := st.quality(); q > bestQ {
			best, name, bestQ = c.enc, c.name, q
		}
	}
	if best == nil {
		return nil, ""
	}
	out, err := best.NewDecoder().Bytes(data)
	if err != nil {
		return nil, ""
	}
	return out, name
}

// controlHeavy reports whether more than 5% of the bytes are C0 controls
// that text does not use. Legacy CJK encodings never use bytes below 0x20
// inside a character, so the test holds for every candidate.
func controlHeavy(b []byte) bool {
	n := 0
	for _, c := range b {
		if c < 0x20 && !textControl(rune(c)) || c == 0x7F {
			n++
		}
	}
	return n*20 > len(b)
}

// textControl reports whether a C0 control is ordinary in text files: tab,
// line breaks, form feed, the DOS end-of-file mark and terminal escapes.
func textControl(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x1A, 0x1B:
		return true
	}
	return false
}

// stats describes a decoded candidate.
type stats struct {
	runes    int
	nonASCII int // includes bad
	bad      int // replacement characters, private use, stray controls
	controls int // C0 and C1 controls other than textControl
	han      int
	common   int // runes of commonHan
	ascii    int // printable ASCII and text controls
	letters  int // other letters
}

func measure(s string) stats {
	var st stats
	for _, r := range s {
		st.runes++
		if r < 0x80 {
			if r < 0x20 && !textControl(r) || r == 0x7F {
				st.controls++
				st.bad++
			} else {
				st.ascii++
			}
			continue
		}
		st.nonASCII++
		switch {
		case r == utf8.RuneError, r >= 0xE000 && r <= 0xF8FF, r == 0xFFFE, r == 0xFFFF:
			st.bad++
		case r < 0xA0:
			st.controls++
			st.bad++
		case isCommon(r):
			st.common++
			st.han++
		case isHan(r):
			st.han++
		case unicode.IsLetter(r):
			st.letters++
		}
	}
	return st
}

// plausible allows a few broken characters, as in a file with a damaged
// sector or a cut final character.
func (st stats) plausible() bool { return st.bad <= 1+st.nonASCII/50 }

// quality scores how much a decoding reads like text, per character:
// ASCII and common Chinese characters score high, rare ideographs and other
// letters (what a wrong byte order yields) low.
func (st stats) quality() float64 {
	if st.runes == 0 {
		return 0
	}
	return (float64(st.ascii) + 4*float64(st.common) + 0.25*float64(st.han-st.common) + 0.75*float64(st.letters)) / float64(st.runes)
}

// isHan reports whether r is a CJK ideograph.
func isHan(r rune) bool {
	switch {
	case r < 0x3400:
		return false
	case r <= 0x4DBF, r >= 0x4E00 && r <= 0x9FFF, r >= 0xF900 && r <= 0xFAFF:
		return true
	case r >= 0x20000 && r <= 0x323AF:
		return true
	}
	return false
}

type candidate struct {
	name string
	enc  encoding.Encoding // nil for lenient UTF-8
	st   stats
}

// decodeLegacy picks among UTF-8 with errors, GB18030, Big5, BOM-less
// UTF-16 and Windows-1252 by decoding a sample with each.
func decodeLegacy(data []byte) (string, string, error) {
	sample := data[:min(len(data), sampleSize)]
	cands := []candidate{
		{name: EncUTF8},
		{name: EncGB18030, enc: simplifiedchinese.GB18030},
		{name: EncBig5, enc: traditionalchinese.Big5},
	}
	if len(data)%2 == 0 {
		cands = append(cands,
			candidate{name: EncUTF16LE, enc: xunicode.UTF16(xunicode.LittleEndian, xunicode.IgnoreBOM)},
			candidate{name: EncUTF16BE, enc: xunicode.UTF16(xunicode.BigEndian, xunicode.IgnoreBOM)})
	}
	var best *candidate
	for i := range cands {
		c := &cands[i]
		var s string
		if c.enc == nil {
			s = strings.ToValidUTF8(string(sample), "\uFFFD")
		} else {
			out, err := c.enc.NewDecoder().Bytes(sample)
			if err != nil {
				continue
			}
			s = string(out)
		}
		c.st = measure(s)
		if !c.st.plausible() || c.st.nonASCII == 0 {
			continue
		}
		// UTF-16 without zero bytes has no ASCII at all, so it must be
		// thick with common characters to be believed.
		if (c.name == EncUTF16LE || c.name == EncUTF16BE) && c.st.common*4 < c.st.nonASCII {
			continue
		}
		if best == nil || c.better(best) {
			best = c
		}
	}
	// Latin text in a Windows code page decodes as a few odd Chinese
	// characters among ASCII; prefer Windows-1252 unless it looks Chinese.
	if (best == nil || best.st.common*5 < best.st.nonASCII) && latinLegacy(sample) {
		return finish(mustDecode(charmap.Windows1252, data), EncWindows1252)
	}
	// Valid UTF-8 sequences are evidence of their own; any other decoding
	// must yield some common characters.
	if best == nil || best.enc != nil && best.st.common*12 < best.st.nonASCII {
		return "", "", fmt.Errorf("%w: not UTF-8, UTF-16, GB18030, Big5 or Windows-1252", ErrUndecodable)
	}
	if best.enc == nil {
		return finishString(strings.ToValidUTF8(string(data), "\uFFFD"), best.name)
	}
	return finish(mustDecode(best.enc, data), best.name)
}

// better ranks candidates by the share of common characters, then of Han
// characters, then by fewer broken ones. UTF-8 wins ties: random bytes
// seldom form valid multi-byte sequences.
func (c *candidate) better(o *candidate) bool {
	a, b := c.st, o.st
	if x, y := a.common*b.nonASCII, b.common*a.nonASCII; x != y {
		return x > y
	}
	if x, y := a.han*b.nonASCII, b.han*a.nonASCII; x != y {
		return x > y
	}
	return a.bad < b.bad
}

// mustDecode decodes with a legacy decoder, which replaces bad input with
// U+FFFD instead of failing.
func mustDecode(enc encoding.Encoding, data []byte) []byte {
	out, _ := enc.NewDecoder().Bytes(data)
	return out
}

// latinLegacy reports whether data looks like Latin text in a single-byte
// code page: high bytes are few, mostly stand alone between ASCII bytes,
// and are all defined in Windows-1252.
func latinLegacy(b []byte) bool {
	high, alone := 0, 0
	for i, c := range b {
		if c < 0x80 {
			continue
		}
		switch c {
		case 0x81, 0x8D, 0x8F, 0x90, 0x9D:
			return false
		}
		high++
		if (i == 0 || b[i-1] < 0x80) && (i+1 == len(b) || b[i+1] < 0x80) {
			alone++
		}
	}
	return high > 0 && high*10 <= len(b)*3 && alone*2 >= high
}
