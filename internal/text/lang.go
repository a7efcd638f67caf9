package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// detectWindow is how many code points DetectLanguage reads.
const detectWindow = 4000

// Characters that mark classical or modern Chinese. Both lists leave out
// characters frequent in both registers (是 在 所以 可以 都 說); the weak
// classical ones are common in modern prose too, only less so.
const (
	classicalMarks     = "之乎者也曰焉矣兮哉歟欤耶弗吾汝爾尔遂乃蓋盖莫夫皆"
	weakClassicalMarks = "為为以於于其而亦則则"
	modernMarks        = "的了们們这這个個吗嗎呢吧啊没沒很她它咱您么麼着就把"
)

const (
	strongClassical = iota + 1
	weakClassical
	modernMark
)

// markWeights gives the kind of each marker character.
var markWeights = func() map[rune]uint8 {
	m := map[rune]uint8{}
	for kind, list := range map[uint8]string{strongClassical: classicalMarks, weakClassical: weakClassicalMarks, modernMark: modernMarks} {
		for _, r := range list {
			m[r] = kind
		}
	}
	return m
}()

// Words that mark English or Vietnamese. The English list avoids words that
// are also Vietnamese syllables (an, to, in, ha).
var (
	englishWords = wordSet("the of and is was that for with as by he it at from his were are which be " +
		"this had not but have they their its she her who been has also after when there would into them than " +
		"or these those what where will can all one our we you my your him")
	vietnameseWords = wordSet("của và là năm người không có được những các một cho với trong đã này để khi từ " +
		"ông vua nhà đến theo về sau lại ra thì mà cũng như nhưng rằng đó nước bị làm vào họ tôi chúng " +
		"đời triều quân thành sông núi vùng nhiều hơn đều nên phải việc đi cùng tại")
)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// DetectLanguage guesses the language of s from its first few thousand
// characters: Classical or Modern Chinese by function words, Vietnamese by
// its diacritics and common words, English by common words. It returns
// Unknown when nothing is clear (a bare name, another language).
func DetectLanguage(s string) string {
	var (
		han, kana, hangul     int
		classical, modern     int
		latinWords, otherWord int
		enWords, viWords      int
		viMarked, viAccented  int // lower-case words with Vietnamese-only or shared diacritics
	)
	var word []byte // lower-cased UTF-8 of the current word
	var marked, accented, latin, capital bool
	endWord := func() {
		if len(word) == 0 {
			return
		}
		if latin {
			latinWords++
			switch {
			case englishWords[string(word)]:
				enWords++
			case vietnameseWords[string(word)]:
				viWords++
			}
			// Capitalised words are mostly names, which English text
			// about Vietnam spells with diacritics too.
			switch {
			case capital:
			case marked:
				viMarked++
			case accented:
				viAccented++
			}
		} else {
			otherWord++
		}
		word, marked, accented, latin, capital = word[:0], false, false, false, false
	}
	n := 0
	for _, r := range s {
		if n++; n > detectWindow {
			break
		}
		switch {
		case r < 0x80:
			if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
				if len(word) == 0 {
					capital = r <= 'Z'
				}
				word = append(word, byte(r)|0x20)
				latin = true
				continue
			}
		case isHan(r):
			han++
			switch markWeights[r] {
			case strongClassical:
				classical += 2
			case weakClassical:
				classical++
			case modernMark:
				modern += 2
			}
		case r >= 0x3040 && r <= 0x30FF:
			kana++
		case r >= 0xAC00 && r <= 0xD7A3 || r >= 0x1100 && r <= 0x11FF:
			hangul++
		case unicode.IsLetter(r) || unicode.Is(unicode.Mn, r):
			if len(word) > 0 || unicode.IsLetter(r) {
				lr := unicode.ToLower(r)
				if len(word) == 0 {
					capital = lr != r
				}
				word = utf8.AppendRune(word, lr)
				switch {
				case vietnameseOnly(lr):
					marked, latin = true, true
				case unicode.Is(unicode.Latin, lr):
					accented, latin = true, true
				case unicode.Is(unicode.Mn, lr):
				default:
					latin = false
				}
				continue
			}
		}
		endWord()
	}
	endWord()

	switch {
	case kana > 0 && kana*4 >= han:
		return Unknown // Japanese
	case hangul > han:
		return Unknown // Korean
	case han > 0 && han >= latinWords && han >= otherWord:
		return chineseRegister(han, classical, modern)
	case latinWords == 0 || otherWord > latinWords:
		return Unknown
	}

	vi := 2*viWords + viMarked
	if viMarked > 0 || viWords > 0 {
		vi += viAccented / 2
	}
	en := 2 * enWords
	switch {
	case vi == 0 && en == 0:
		return Unknown
	case vi > en:
		// Vietnamese words are one syllable each, so a real text has many.
		if (viWords+viMarked)*5 >= latinWords {
			return Vietnamese
		}
	default:
		// About one English word in three is on the list; a stray "the" in
		// another language is not enough.
		if enWords*10 >= latinWords {
			return English
		}
	}
	return Unknown
}

// QuestionLanguage is DetectLanguage for a question: a short question in
// Chinese characters alone with no marker of either register (司马迁是谁？)
// is still Chinese, asked in the modern language; a text would say
// nothing so short.
func QuestionLanguage(q string) string {
	lang := DetectLanguage(q)
	if lang != Unknown {
		return lang
	}
	han := 0
	for _, r := range q {
		switch {
		case isHan(r):
			han++
		case r >= 0x3040 && r <= 0x30FF, r >= 0xAC00 && r <= 0xD7A3, unicode.IsLetter(r):
			return Unknown // kana, hangul or a Latin word: not Chinese alone
		}
	}
	if han >= 2 {
		return Modern
	}
	return Unknown
}

// chineseRegister tells classical from modern Chinese from weighted marker
// counts: modern text is full of 的 了 们 这 个, which classical text almost
// never uses, while classical particles (之 也 曰 矣) also turn up in modern
// prose.
func chineseRegister(han, classical, modern int) string {
	switch {
	case classical == 0 && modern == 0:
		// Thirty characters of modern prose without a single marker are
		// rare; a shorter run (a name, a title) says nothing.
		if han >= 30 {
			return Classical
		}
		return Unknown
	case modern*4 > classical:
		return Modern
	}
	return Classical
}

// vietnameseOnly reports whether a lower-case letter or combining mark is
// used by Vietnamese and hardly by other Latin-script languages.
func vietnameseOnly(r rune) bool {
	switch r {
	case 'ă', 'đ', 'ơ', 'ư', 'ĩ', 'ũ',
		'\u0309', // combining hook above
		'\u0323', // combining dot below
		'\u031B': // combining horn
		return true
	}
	return r >= 0x1EA0 && r <= 0x1EF9
}
