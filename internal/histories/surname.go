package histories

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// NativePlace is the whole native place of an X人(也) formula, from a place
// it names on: the characters from the clause's start (or 本) to 人, in the
// source's order (琅邪阳都 from 诸葛亮字孔明，琅邪阳都人也 and 阳都).
func NativePlace(sentence, place string) (string, bool) {
	i := strings.Index(sentence, place)
	if i < 0 || place == "" {
		return "", false
	}
	j := strings.Index(sentence[i:], "人")
	if j < 0 {
		return "", false
	}
	return placeBefore(sentence, i, i+j)
}

// NativePlaceIn is the native place of the first Z人也 formula of a
// sentence, without knowing the place: 济南 from 终军字子云，济南人也.
func NativePlaceIn(sentence string) (string, bool) {
	end := strings.Index(sentence, "人也")
	if end < 0 {
		return "", false
	}
	return placeBefore(sentence, end, end)
}

// placeBefore is the text from the start of the clause that holds offset
// at (or from a 本 in it, or a 故 that opens it) to end, when it is short
// and reads as a place.
func placeBefore(s string, at, end int) (string, bool) {
	start := 0
	if k := strings.LastIndexAny(s[:at], "，。；：、 "); k >= 0 {
		_, size := utf8.DecodeRuneInString(s[k:])
		start = k + size
	}
	if k := strings.LastIndex(s[:at], "本"); k >= start {
		start = k + len("本")
	} else if strings.HasPrefix(s[start:], "故") {
		start += len("故")
	}
	if start > end {
		return "", false
	}
	span := s[start:end]
	if n := utf8.RuneCountInString(span); n < 1 || n > 8 || strings.ContainsAny(placesWithParticles.Replace(span), "，。之为其字") {
		return "", false
	}
	return span, true
}

// placesWithParticles are place names that hold a character that elsewhere
// ends a clause or takes an object (为 of 以为, 其 of 其人): 犍为 is a
// commandery, 不其 a county.
var placesWithParticles = strings.NewReplacer("犍为", "", "不其", "")

// compoundSurnames are the two-character family names of the histories.
var compoundSurnames = []string{"诸葛", "司马", "欧阳", "淳于", "夏侯", "皇甫", "公孙", "上官", "东方", "长孙", "令狐",
	"钟离", "太史", "第五", "申屠", "司徒", "公羊", "尉迟", "宇文", "慕容", "濮阳"}

// IsCompoundSurname says whether name is a two-character family name and
// nothing more (公孙): no person's name on its own.
func IsCompoundSurname(name string) bool { return slices.Contains(compoundSurnames, name) }

// Surname is the family name a personal name begins with: a compound one
// (诸葛 of 诸葛亮) where the name is longer than it, else the first
// character. It says nothing of whether the name is a personal name.
func Surname(name string) string {
	for _, c := range compoundSurnames {
		if strings.HasPrefix(name, c) && utf8.RuneCountInString(name) > 2 {
			return c
		}
	}
	if name == "" {
		return ""
	}
	r, _ := utf8.DecodeRuneInString(name)
	return string(r)
}
