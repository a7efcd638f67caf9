package text

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/kg"
)

// Sentences splits s into sentences; spans are code-point offsets into s and
// cover every non-space character. Chinese sentences end at 。！？；… (a run
// of them is one end), Latin-script ones at . ! ? before a capital letter or
// the end of the text, and every sentence ends at a line break. Closing
// quotes and brackets right after the end belong to the sentence; leading
// and trailing spaces do not, and no span is empty.
func Sentences(s string, lang string) []kg.Span {
	latin := !IsChinese(lang)
	out := make([]kg.Span, 0, len(s)/96+1)
	start := -1   // code point where the current sentence starts, or -1
	end := 0      // code point after its last non-space character
	wordByte := 0 // byte offset where the current Latin word starts
	flush := func() {
		if start >= 0 {
			out = append(out, kg.Span{Start: start, End: end})
			start = -1
		}
	}
	n := 0 // code points before i
	for i := 0; i < len(s); {
		// Fast paths for the characters that are neither space, line
		// break nor terminator: most ASCII, and ideographs.
		c := s[i]
		var r rune
		size := 1
		if c < utf8.RuneSelf {
			switch asciiClass[c] {
			case asciiPlain:
				if start < 0 {
					start = n
				}
				end = n + 1
				i++
				n++
				continue
			case asciiSpace:
				wordByte = i + 1
				i++
				n++
				continue
			}
			r = rune(c)
		} else {
			if c >= 0xE0 && c < 0xF0 && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
				r, size = rune(c&0x0F)<<12|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F), 3
			}
			if r < 0x800 || r >= 0xD800 && r <= 0xDFFF {
				// Overlong, surrogate, invalid or not three bytes.
				r, size = utf8.DecodeRuneInString(s[i:])
			}
			if !maybeSpecial(r) {
				if start < 0 {
					start = n
				}
				end = n + 1
				i += size
				n++
				continue
			}
		}
		switch {
		case r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x85 || r == 0x2028 || r == 0x2029:
			flush()
			wordByte = i + size
		case r == ' ' || r == '\t' || r >= 0x80 && unicode.IsSpace(r):
			wordByte = i + size
		default:
			if start < 0 {
				start = n
			}
			end = n + 1
			ends, ascii := terminator(r)
			if !ends {
				break
			}
			if r == '…' || r == '⋯' {
				// Latin text trails off with an ellipsis mid-sentence.
				ascii = latin
			}
			// Take the whole run of terminators and closing marks.
			j, k := i+size, n+1
			for j < len(s) {
				r2, sz := utf8.DecodeRuneInString(s[j:])
				if t, _ := terminator(r2); !t && !closer(r2) {
					break
				}
				j, k = j+sz, k+1
			}
			split := true
			if ascii {
				if latin {
					split = latinEnd(s, wordByte, i, j, r)
				} else {
					// ASCII ! ? ; in Chinese text end a sentence unless
					// they sit inside Latin text, such as a URL.
					split = j == len(s) || !asciiWordByte(s[j])
					if r == '.' {
						split = false
					}
				}
			}
			end = k
			i, n = j, k
			if split {
				flush()
				wordByte = i
			}
			continue
		}
		i += size
		n++
	}
	flush()
	return out
}

const (
	asciiPlain = iota
	asciiSpace
	asciiOther // line break or terminator
)

// asciiClass sorts ASCII for the fast path of Sentences.
var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	t[' '], t['\t'] = asciiSpace, asciiSpace
	for _, c := range "\n\r\v\f.!?;" {
		t[c] = asciiOther
	}
	return t
}()

// maybeSpecial reports whether a non-ASCII r might be a space, line break
// or terminator; false is certain.
func maybeSpecial(r rune) bool {
	return r == 0x85 || r == 0xA0 || r >= 0x1680 && r <= 0x3002 || r >= 0xFE10 && r <= 0xFF61
}

// terminator reports whether r can end a sentence and whether it is ASCII.
func terminator(r rune) (ends, ascii bool) {
	switch r {
	case '。', '！', '？', '；', '…', '⋯', '｡', '‼', '⁇', '⁈', '⁉':
		return true, false
	case '.', '!', '?':
		return true, true
	case ';':
		// Only Chinese text ends sentences at semicolons, and there it is
		// the full-width one; treat the ASCII one like the other ASCII
		// marks so that Chinese typed with ASCII punctuation splits.
		return true, true
	}
	return false, false
}

// closer reports whether r closes a quotation or bracket.
func closer(r rune) bool {
	switch r {
	case '」', '』', '”', '’', '）', '》', '〉', '】', '〕', '〗', '〙', '〛', '﹂', '﹄', '＂', '＇', '］', '｝',
		'"', '\'', ')', ']', '}', '»', '›':
		return true
	}
	return false
}

// opener reports whether r opens a quotation or bracket.
func opener(r rune) bool {
	switch r {
	case '"', '\'', '(', '[', '{', '“', '‘', '«', '‹', '「', '『', '（', '《':
		return true
	}
	return false
}

func asciiWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '=' || c == '/' || c == '&' || c == '_'
}

// latinEnd decides whether the terminator r at byte i, whose run of marks
// ends at byte j, ends a sentence of Latin-script text: it must be followed
// by the end of the text, or by spaces and (after any opening marks) a
// capital letter. A period must not end an abbreviation; the word holding
// it starts at byte w.
func latinEnd(s string, w, i, j int, r rune) bool {
	if r == ';' {
		return false
	}
	if j == len(s) {
		return true
	}
	if c, _ := utf8.DecodeRuneInString(s[j:]); !unicode.IsSpace(c) {
		return false
	}
	for j < len(s) {
		c, sz := utf8.DecodeRuneInString(s[j:])
		if c == '\n' {
			break
		}
		if unicode.IsSpace(c) || opener(c) {
			j += sz
			continue
		}
		if !unicode.IsUpper(c) && !unicode.IsTitle(c) && !isHan(c) {
			return false
		}
		break
	}
	return r != '.' || !abbreviation(s[w:i])
}

// abbreviation reports whether word, the text before a period, is an
// abbreviation rather than the end of a sentence.
func abbreviation(word string) bool {
	word = strings.TrimLeftFunc(word, opener)
	if word == "" {
		return false
	}
	// A single capital: an initial, as in "J. Smith".
	if r, n := utf8.DecodeRuneInString(word); n == len(word) {
		return unicode.IsUpper(r)
	}
	// Dotted abbreviations (e.g, i.e, U.S, Ph.D), not decimals.
	if strings.IndexByte(word, '.') >= 0 {
		for _, part := range strings.Split(word, ".") {
			if part == "" || len(part) > 3 || strings.IndexFunc(part, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
				return false
			}
		}
		return true
	}
	return abbreviations[word]
}

// abbreviations are matched as written: "No. 5" but "the answer was no."
var abbreviations = wordSet("Mr Mrs Ms Dr St Prof Sr Jr Rev Gen Col Lt Capt Sgt Hon Gov Sen Rep Mt Ft Ave " +
	"Inc Ltd Co Corp Dept Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec No Nos Vol Vols Fig Figs " +
	"Ch Chap Sec Ed Eds MR MRS DR ST " +
	"vs etc cf al ca approx viz esp incl ibid fig figs vol vols pp ch chap sec ed eds trans repr " +
	"TP Tp GS TS PGS ThS BS")
