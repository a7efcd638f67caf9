package chrono

import (
	"sort"
	"unicode"
)

// dict finds the longest known name starting at a position.
type dict struct {
	byFirst map[rune][][]rune // longest first
}

func newDict(names []string) *dict {
	d := &dict{byFirst: map[rune][][]rune{}}
	seen := map[string]bool{}
	for _, n := range names {
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		r := []rune(n)
		d.byFirst[r[0]] = append(d.byFirst[r[0]], r)
	}
	for _, l := range d.byFirst {
		sort.SliceStable(l, func(i, j int) bool { return len(l[i]) > len(l[j]) })
	}
	return d
}

// at returns every name starting at i, longest first.
func (d *dict) at(rs []rune, i int) []string {
	var out []string
	for _, n := range d.byFirst[rs[i]] {
		if hasPrefix(rs, i, n) {
			out = append(out, string(n))
		}
	}
	return out
}

func hasPrefix(rs []rune, i int, p []rune) bool {
	if i+len(p) > len(rs) {
		return false
	}
	for k, r := range p {
		if rs[i+k] != r {
			return false
		}
	}
	return true
}

func has(rs []rune, i int, s string) bool {
	for _, r := range s {
		if i >= len(rs) || rs[i] != r {
			return false
		}
		i++
	}
	return true
}

var zhDigit = map[rune]int{'〇': 0, '零': 0, '○': 0, '一': 1, '二': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}

func isZhNumeral(r rune) bool {
	if _, ok := zhDigit[r]; ok {
		return true
	}
	switch r {
	case '十', '廿', '卅', '卌', '百', '千':
		return true
	}
	return false
}

// zhNum reads a Chinese numeral at i: 十二, 二十七, 廿三, 一百零二, or a
// digit string of three or more (一九五〇). Two bare digits (三四) mean
// "three or four", not 34, so they are refused.
func zhNum(rs []rune, i int) (val, end int, ok bool) {
	j := i
	mult := false
	for j < len(rs) && isZhNumeral(rs[j]) {
		if _, d := zhDigit[rs[j]]; !d {
			mult = true
		}
		j++
	}
	if j == i || j-i > 8 {
		return 0, i, false
	}
	if !mult {
		if j-i == 1 {
			return zhDigit[rs[i]], j, true
		}
		if j-i < 3 {
			return 0, i, false
		}
		for k := i; k < j; k++ {
			val = val*10 + zhDigit[rs[k]]
		}
		return val, j, true
	}
	total, cur := 0, 0
	for k := i; k < j; k++ {
		r := rs[k]
		if d, isD := zhDigit[r]; isD {
			cur = d
			continue
		}
		unit := 0
		switch r {
		case '十':
			unit = 10
		case '百':
			unit = 100
		case '千':
			unit = 1000
		case '廿':
			total += 20
			continue
		case '卅':
			total += 30
			continue
		case '卌':
			total += 40
			continue
		}
		if cur == 0 {
			cur = 1
		}
		total += cur * unit
		cur = 0
	}
	return total + cur, j, true
}

// arabic reads ASCII or full-width digits at i, at most 4.
func arabic(rs []rune, i int) (val, end int, ok bool) {
	j := i
	for j < len(rs) && j-i < 5 {
		d := digitVal(rs[j])
		if d < 0 {
			break
		}
		val = val*10 + d
		j++
	}
	if j == i || j-i > 4 || (j < len(rs) && digitVal(rs[j]) >= 0) {
		return 0, i, false
	}
	return val, j, true
}

func digitVal(r rune) int {
	switch {
	case r >= '0' && r <= '9':
		return int(r - '0')
	case r >= '０' && r <= '９':
		return int(r - '０')
	}
	return -1
}

// anyNum reads an Arabic or Chinese numeral.
func anyNum(rs []rune, i int) (int, int, bool) {
	if i >= len(rs) {
		return 0, i, false
	}
	if digitVal(rs[i]) >= 0 {
		return arabic(rs, i)
	}
	return zhNum(rs, i)
}

const stems = "甲乙丙丁戊己庚辛壬癸"
const branches = "子丑寅卯辰巳午未申酉戌亥"

// ganzhi returns the 0-based sexagenary index of the pair at i (甲子 = 0).
func ganzhi(rs []rune, i int) (int, bool) {
	if i+1 >= len(rs) {
		return 0, false
	}
	s, b := -1, -1
	for k, r := range []rune(stems) {
		if rs[i] == r {
			s = k
		}
	}
	for k, r := range []rune(branches) {
		if rs[i+1] == r {
			b = k
		}
	}
	if s < 0 || b < 0 || s%2 != b%2 {
		return 0, false
	}
	// The index n satisfies n ≡ s (mod 10) and n ≡ b (mod 12).
	for n := s; n < 60; n += 10 {
		if n%12 == b {
			return n, true
		}
	}
	return 0, false
}

// cycleYear is the sexagenary index of an astronomical year (4 CE is 甲子).
func cycleYear(y int) int { return ((y-4)%60 + 60) % 60 }

// isBreak reports clause boundaries: punctuation, space, text edges.
func isBreak(rs []rune, i int) bool {
	if i < 0 || i >= len(rs) {
		return true
	}
	r := rs[i]
	return unicode.IsPunct(r) || unicode.IsSpace(r) || unicode.IsSymbol(r)
}

func isLatin(r rune) bool {
	return r < 0x2000 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// Number reads a Chinese numeral that begins s (五十四, 廿三, 一九五〇):
// its value and how many characters it takes.
func Number(s string) (val, n int, ok bool) {
	return zhNum([]rune(s), 0)
}
