package text

import (
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// benchText repeats the passages to about 1 MB.
func benchText(s string) string {
	return strings.Repeat(s, (1<<20)/len(s)+1)
}

func BenchmarkDecode(b *testing.B) {
	src := benchText(classicalTrad + modernSimp + english)
	inputs := []struct {
		name string
		data []byte
	}{
		{"utf-8", []byte(src)},
		{"utf-8-crlf", []byte(strings.ReplaceAll(src, "\n", "\r\n"))},
		{"gb18030", encode(b, simplifiedchinese.GB18030, benchText(classicalSimp))},
		{"big5", encode(b, traditionalchinese.Big5, benchText(classicalTrad))},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.data)))
			for b.Loop() {
				if _, _, err := Decode(in.data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkToSimplified(b *testing.B) {
	for _, in := range []struct{ name, text string }{
		{"traditional", benchText(classicalTrad)},
		{"simplified", benchText(classicalSimp)},
		{"english", benchText(english)},
	} {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.text)))
			for b.Loop() {
				ToSimplified(in.text)
			}
		})
	}
}

func BenchmarkSentences(b *testing.B) {
	for _, in := range []struct{ name, text, lang string }{
		{"classical", benchText(classicalSimp), Classical},
		{"english", benchText(english), English},
	} {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.text)))
			for b.Loop() {
				Sentences(in.text, in.lang)
			}
		})
	}
}

func BenchmarkDetectLanguage(b *testing.B) {
	s := benchText(modernSimp)
	for b.Loop() {
		DetectLanguage(s)
	}
}

func BenchmarkDetectLanguageEnglish(b *testing.B) {
	s := benchText(english)
	for b.Loop() {
		DetectLanguage(s)
	}
}
