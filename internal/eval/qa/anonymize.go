package qa

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pseudonyms replace person names, in a corpus and its questions, with
// names that occur nowhere in the corpus, one for one, and put them back
// in answers before scoring (Youtu-GraphRAG, Appendix B): the score then
// measures reasoning over what was retrieved, not a model's memory of
// famous history.
type Pseudonyms struct {
	hide, reveal *strings.Replacer
	// Pairs are the names and their pseudonyms, longest name first.
	Pairs [][2]string
}

// NewPseudonyms makes a pseudonym for each name. A Han name gets one of
// the same length built of characters the corpus's own names use (so a
// name recogniser still reads it as a name), whose first two characters
// never stand together in the corpus (so it matches nothing there); any
// other name gets two made-up capitalised words. bigrams are the corpus's
// Han bigrams and words its other words.
func NewPseudonyms(names []string, bigrams, words map[string]bool) *Pseudonyms {
	names = slices.Clone(names)
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(utf8.RuneCountInString(b), utf8.RuneCountInString(a)), strings.Compare(a, b))
	})
	names = slices.Compact(names)
	surnames, given := namePools(names)
	p := &Pseudonyms{}
	used := map[string]bool{}
	var hide, reveal []string
	next := 0
	for _, n := range names {
		if utf8.RuneCountInString(n) < 2 {
			continue
		}
		var pseudo string
		if isHanName(n) {
			pseudo, next = hanPseudonym(utf8.RuneCountInString(n), surnames, given, next, bigrams, used)
		} else {
			pseudo, next = wordPseudonym(next, words, used)
		}
		if pseudo == "" {
			continue
		}
		used[pseudo] = true
		p.Pairs = append(p.Pairs, [2]string{n, pseudo})
		hide = append(hide, n, pseudo)
	}
	// Longest pseudonym first, as for the names.
	back := slices.Clone(p.Pairs)
	slices.SortStableFunc(back, func(a, b [2]string) int {
		return cmp.Compare(utf8.RuneCountInString(b[1]), utf8.RuneCountInString(a[1]))
	})
	for _, pair := range back {
		reveal = append(reveal, pair[1], pair[0])
	}
	p.hide, p.reveal = strings.NewReplacer(hide...), strings.NewReplacer(reveal...)
	return p
}

// Hide replaces the names in s with their pseudonyms, longest first.
func (p *Pseudonyms) Hide(s string) string { return p.hide.Replace(s) }

// Reveal puts the names back.
func (p *Pseudonyms) Reveal(s string) string { return p.reveal.Replace(s) }

// HideQuestion hides the names of a question and its options; the gold
// answer stays as it is, since answers are revealed before scoring.
func (p *Pseudonyms) HideQuestion(q Question) Question {
	q.Question = p.Hide(q.Question)
	q.Options = slices.Clone(q.Options)
	for i := range q.Options {
		q.Options[i].Text = p.Hide(q.Options[i].Text)
	}
	q.Context = nil
	return q
}

// titleRunes end designations rather than names (曹公, 孔子, 留侯, 齐王):
// a pseudonym built of them reads as a title, and a name model treats it
// as one.
const titleRunes = "公子侯王帝君氏后主相将卿伯叔"

// namePools are the characters that begin the names (surnames) and the
// others, most used first.
func namePools(names []string) (surnames, given []rune) {
	first, rest := map[rune]int{}, map[rune]int{}
	for _, n := range names {
		if !isHanName(n) {
			continue
		}
		for i, r := range []rune(n) {
			switch {
			case i == 0:
				first[r]++
			case !strings.ContainsRune(titleRunes, r):
				rest[r]++
			}
		}
	}
	byCount := func(m map[rune]int) []rune {
		out := make([]rune, 0, len(m))
		for r := range m {
			out = append(out, r)
		}
		slices.SortFunc(out, func(a, b rune) int { return cmp.Or(cmp.Compare(m[b], m[a]), cmp.Compare(a, b)) })
		return out
	}
	surnames, given = byCount(first), byCount(rest)
	// A handful of each is plenty of names and keeps them name-like.
	return surnames[:min(len(surnames), 60)], given[:min(len(given), 200)]
}

// hanPseudonym enumerates surname + given characters from position next
// and returns the first unused name whose first bigram is not the
// corpus's, with the position to go on from; "" when the pools run out.
func hanPseudonym(length int, surnames, given []rune, next int, bigrams, used map[string]bool) (string, int) {
	if len(surnames) == 0 || len(given) == 0 {
		return "", next
	}
	total := len(surnames) * len(given) * len(given)
	for ; next < total; next++ {
		s := surnames[next%len(surnames)]
		g1 := given[next/len(surnames)%len(given)]
		g2 := given[next/len(surnames)/len(given)%len(given)]
		name := []rune{s, g1, g2}[:min(length, 3)]
		for len(name) < length {
			name = append(name, g2)
		}
		if bigrams[string(name[:2])] || used[string(name)] {
			continue
		}
		next++
		return string(name), next
	}
	return "", next
}

// syllables make the words of non-Han pseudonyms.
var syllables = []string{"ka", "lo", "mi", "ru", "te", "va", "zo", "ne", "shi", "bo", "da", "fe", "gu", "pi", "xa", "yo"}

// wordPseudonym makes two capitalised made-up words, neither a word of
// the corpus.
func wordPseudonym(next int, words, used map[string]bool) (string, int) {
	n := len(syllables)
	word := func(i int) string {
		w := syllables[i%n] + syllables[i/n%n] + syllables[i/n/n%n]
		return strings.ToUpper(w[:1]) + w[1:]
	}
	for ; next < n*n*n*n; next++ {
		a, b := word(next), word(next*7+3)
		if words[strings.ToLower(a)] || words[strings.ToLower(b)] || used[a+" "+b] {
			continue
		}
		next++
		return a + " " + b, next
	}
	return "", next
}

// isHanName reports a name of Han characters only.
func isHanName(s string) bool {
	for _, r := range s {
		if !unicode.Is(unicode.Han, r) {
			return false
		}
	}
	return s != ""
}

// CorpusGrams are the Han bigrams and the lowercased words of other
// scripts in texts: what a pseudonym must not be.
func CorpusGrams(texts []string) (bigrams, words map[string]bool) {
	bigrams, words = map[string]bool{}, map[string]bool{}
	for _, t := range texts {
		var prev rune
		var word strings.Builder
		for _, r := range t {
			if unicode.Is(unicode.Han, r) {
				if prev != 0 {
					bigrams[string([]rune{prev, r})] = true
				}
				prev = r
			} else {
				prev = 0
			}
			if unicode.IsLetter(r) && !unicode.Is(unicode.Han, r) {
				word.WriteRune(unicode.ToLower(r))
			} else if word.Len() > 0 {
				words[word.String()] = true
				word.Reset()
			}
		}
		if word.Len() > 0 {
			words[word.String()] = true
		}
	}
	return bigrams, words
}
