package text

import "strings"

// variantPairs are characters the simplified texts of the histories still
// write in an older or variant form, each before the form a modern reader
// types: 於 for 于, 馀 for 余, 幹 for 干 in names (刘幹). They are the same
// word for matching a question to the text and an answer to its gold.
const variantPairs = "於于馀余幹干脩修彊强迺乃甯宁閒间緜绵嶽岳讬托弔吊隄堤溼湿邱丘埜野鄴邺"

var variants = func() map[rune]rune {
	m := map[rune]rune{}
	rs := []rune(variantPairs)
	for i := 0; i+1 < len(rs); i += 2 {
		m[rs[i]] = rs[i+1]
	}
	return m
}()

// FoldVariant is the form of a character that matching compares:
// simplified, then its common modern variant.
func FoldVariant(r rune) rune {
	r = SimplifiedRune(r)
	if v, ok := variants[r]; ok {
		return v
	}
	return r
}

// FoldVariants folds every character of s (FoldVariant); it keeps the
// number of characters, so offsets into the result are offsets into s.
func FoldVariants(s string) string {
	return strings.Map(FoldVariant, s)
}
