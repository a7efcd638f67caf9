package chrono

import (
	"strings"
	"unicode"
)

// word reads a run of letters or of digits at i, lower-cased.
func word(rs []rune, i int) (string, int) {
	if i >= len(rs) {
		return "", i
	}
	j := i
	digits := unicode.IsDigit(rs[i])
	for j < len(rs) && isLatin(rs[j]) && unicode.IsDigit(rs[j]) == digits {
		j++
	}
	return strings.ToLower(string(rs[i:j])), j
}

// spaces skips blanks, returning i unchanged when there are none.
func spaces(rs []rune, i int) int {
	for i < len(rs) && (rs[i] == ' ' || rs[i] == '\u00a0') {
		i++
	}
	return i
}

// nextWord skips at least one blank and reads a word.
func nextWord(rs []rune, i int) (string, int, int) {
	j := spaces(rs, i)
	if j == i {
		return "", i, i
	}
	w, e := word(rs, j)
	return w, j, e
}

func boundary(rs []rune, i int) bool { return i >= len(rs) || !isLatin(rs[i]) }

// eraMarker reads AD, A.D., CE, C.E., BC, B.C., BCE, B.C.E. at i; bce is
// -1 for before the era, +1 after.
func eraMarker(rs []rune, i int) (bce, end int) {
	var b strings.Builder
	j := i
	for j < len(rs) && (unicode.IsLetter(rs[j]) || rs[j] == '.') && j-i < 8 {
		if rs[j] != '.' {
			b.WriteRune(unicode.ToUpper(rs[j]))
		}
		j++
	}
	// A sentence-final period belongs to the sentence unless the marker is dotted.
	for j > i && rs[j-1] == '.' && !strings.ContainsRune(string(rs[i:j-1]), '.') {
		j--
	}
	if !boundary(rs, j) {
		return 0, i
	}
	switch b.String() {
	case "BC", "BCE":
		return -1, j
	case "AD", "CE":
		return 1, j
	}
	return 0, i
}

var monthNames = map[string]int{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
	"august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
	"oct": 10, "nov": 11, "dec": 12,
}

var ordinalWords = map[string]int{
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
	"eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
	"fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
	"nineteenth": 19, "twentieth": 20, "twenty-first": 21,
}

// century spans century n (negative for BCE) in astronomical years.
func century(n int, bce bool) (int, int) {
	if bce {
		return 1 - n*100, 1 - (n-1)*100 - 1
	}
	return (n-1)*100 + 1, n * 100
}

func gregorian(y int, bce bool) int {
	if bce {
		return 1 - y
	}
	return y
}

// yearWithMarker reads "208", "208 AD", "122 BC" at i; plain needs the
// caller's cue ("in") for a bare number.
func yearWithMarker(rs []rune, i int, plain bool) (Time, int, bool) {
	w, e := word(rs, i)
	if w == "" || !unicode.IsDigit(rs[i]) || len(w) > 4 {
		return Time{}, i, false
	}
	n := atoi(w)
	if n == 0 {
		return Time{}, i, false // there is no year 0 AD or 0 BC
	}
	j := spaces(rs, e)
	if bce, me := eraMarker(rs, j); bce != 0 {
		y := gregorian(n, bce < 0)
		return Time{Calendar: CalGregorian, Precision: Year, Year: y, EndYear: y, Resolved: true}, me, true
	}
	if plain && len(w) >= 3 && boundary(rs, e) && !countedNoun(rs, e) && !(e < len(rs) && (rs[e] == '%' || rs[e] == ',' && e+1 < len(rs) && unicode.IsDigit(rs[e+1]))) {
		return Time{Calendar: CalGregorian, Precision: Year, Year: n, EndYear: n, Resolved: true}, e, true
	}
	return Time{}, i, false
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + digitVal(r)
	}
	return n
}

func matchEnglish(rs []rune, i int) (Time, int, bool) {
	w, e := word(rs, i)
	switch {
	case w == "in":
		w2, s, _ := nextWord(rs, e)
		if w2 == "the" {
			if w3, s3, e3 := nextWord(rs, s+3); w3 == "year" {
				_, s, _ = nextWord(rs, e3)
			} else {
				_ = s3
				return Time{}, i, false
			}
		}
		if s < len(rs) && unicode.IsDigit(rs[s]) {
			if t, end, ok := yearWithMarker(rs, s, true); ok {
				t.Span.Start, t.Span.End = s, end
				return t, end, true
			}
		}
	case w == "ad" || w == "a":
		if bce, me := eraMarker(rs, i); bce > 0 {
			if n, s, ne := nextWord(rs, me); n != "" && unicode.IsDigit(rs[s]) && len(n) <= 4 && boundary(rs, ne) {
				y := atoi(n)
				return Time{Calendar: CalGregorian, Precision: Year, Year: y, EndYear: y, Resolved: true}, ne, true
			}
		}
	case monthNames[w] > 0 && (w != "may" && w != "mar" || unicode.IsUpper(rs[i])):
		m := monthNames[w]
		j := e
		if j < len(rs) && rs[j] == '.' {
			j++
		}
		t := Time{Calendar: CalGregorian, Precision: Month, Month: m}
		n, s, ne := nextWord(rs, j)
		if n != "" && unicode.IsDigit(rs[s]) && len(n) <= 2 && ne < len(rs) && rs[ne] == ',' {
			t.DayOfMonth, t.Precision = atoi(n), Day
			n, s, ne = nextWord(rs, ne+1)
		}
		if n != "" && unicode.IsDigit(rs[s]) && len(n) >= 3 {
			yt, end, ok := yearWithMarker(rs, s, true)
			if ok {
				t.Year, t.EndYear, t.Resolved = yt.Year, yt.Year, true
				return t, end, true
			}
		}
	case ordinalWords[w] > 0:
		if w2, _, e2 := nextWord(rs, e); w2 == "century" {
			return centuryEn(rs, ordinalWords[w], e2)
		}
	case unicode.IsDigit(rs[i]):
		n := atoi(w)
		if suf, se := word(rs, e); (suf == "st" || suf == "nd" || suf == "rd" || suf == "th") && len(w) <= 2 {
			if w2, _, e2 := nextWord(rs, se); w2 == "century" {
				return centuryEn(rs, n, e2)
			}
			return Time{}, i, false
		}
		if e < len(rs) && rs[e] == 's' && boundary(rs, e+1) && len(w) >= 3 && n%10 == 0 {
			return Time{Calendar: CalGregorian, Precision: Decade, Year: n, EndYear: n + 9, Resolved: true}, e + 1, true
		}
		if len(w) <= 2 {
			if mw, _, me := nextWord(rs, e); monthNames[mw] > 0 {
				if yw, ys, _ := nextWord(rs, me); len(yw) >= 3 && unicode.IsDigit(rs[ys]) {
					if yt, end, ok := yearWithMarker(rs, ys, true); ok {
						return Time{Calendar: CalGregorian, Precision: Day, Year: yt.Year, EndYear: yt.Year, Month: monthNames[mw], DayOfMonth: n, Resolved: true}, end, true
					}
				}
			}
		}
		return yearWithMarker(rs, i, false)
	}
	return Time{}, i, false
}

func centuryEn(rs []rune, n, e int) (Time, int, bool) {
	if n < 1 || n > 30 {
		return Time{}, e, false
	}
	j := spaces(rs, e)
	bce, me := eraMarker(rs, j)
	end := e
	if bce != 0 {
		end = me
	}
	a, b := century(n, bce < 0)
	return Time{Calendar: CalGregorian, Precision: Century, Year: a, EndYear: b, Resolved: true}, end, true
}

// vnBCE reads TCN or "trước Công nguyên" (before the common era).
func vnBCE(rs []rune, i int) (bool, int) {
	j := spaces(rs, i)
	if j == i {
		return false, i
	}
	w, e := word(rs, j)
	if w == "tcn" {
		return true, e
	}
	if w == "trước" {
		if w2, _, e2 := nextWord(rs, e); w2 == "công" {
			if w3, _, e3 := nextWord(rs, e2); w3 == "nguyên" {
				return true, e3
			}
		}
	}
	return false, i
}

var roman = map[rune]int{'I': 1, 'V': 5, 'X': 10, 'L': 50, 'C': 100}

func romanAt(rs []rune, i int) (int, int) {
	j, total := i, 0
	for j < len(rs) && roman[rs[j]] > 0 {
		v := roman[rs[j]]
		if j+1 < len(rs) && roman[rs[j+1]] > v {
			total -= v
		} else {
			total += v
		}
		j++
	}
	if j == i || !boundary(rs, j) {
		return 0, i
	}
	return total, j
}

func matchVietnamese(rs []rune, i int) (Time, int, bool) {
	w, e := word(rs, i)
	num := func(j int, max int) (int, int, bool) {
		n, s, ne := nextWord(rs, j)
		if n == "" || !unicode.IsDigit(rs[s]) || len(n) > max {
			return 0, j, false
		}
		return atoi(n), ne, true
	}
	t := Time{Calendar: CalGregorian, Resolved: true}
	switch w {
	case "ngày":
		d, j, ok := num(e, 2)
		if !ok {
			break
		}
		if w2, _, e2 := nextWord(rs, j); w2 == "tháng" {
			if m, j2, ok := num(e2, 2); ok && m >= 1 && m <= 12 {
				if w3, _, e3 := nextWord(rs, j2); w3 == "năm" {
					if y, j3, ok := num(e3, 4); ok {
						bce, j4 := vnBCE(rs, j3)
						t.Year, t.Month, t.DayOfMonth, t.Precision = gregorian(y, bce), m, d, Day
						t.EndYear = t.Year
						return t, j4, true
					}
				}
			}
		}
	case "tháng":
		m, j, ok := num(e, 2)
		if !ok || m < 1 || m > 12 {
			break
		}
		if w2, _, e2 := nextWord(rs, j); w2 == "năm" {
			if y, j2, ok := num(e2, 4); ok {
				bce, j3 := vnBCE(rs, j2)
				t.Year, t.Month, t.Precision = gregorian(y, bce), m, Month
				t.EndYear = t.Year
				return t, j3, true
			}
		}
	case "năm":
		if y, j, ok := num(e, 4); ok {
			bce, j2 := vnBCE(rs, j)
			t.Year, t.Precision = gregorian(y, bce), Year
			t.EndYear = t.Year
			return t, j2, true
		}
	case "thập":
		if w2, _, e2 := nextWord(rs, e); w2 == "niên" {
			if y, j, ok := num(e2, 4); ok && y%10 == 0 && y >= 100 {
				t.Year, t.EndYear, t.Precision = y, y+9, Decade
				return t, j, true
			}
		}
	case "thế":
		w2, _, e2 := nextWord(rs, e)
		if w2 != "kỉ" && w2 != "kỷ" {
			break
		}
		s := spaces(rs, e2)
		if s == e2 {
			break
		}
		n, j := romanAt(rs, s)
		if n == 0 {
			var ok bool
			n, j, ok = num(e2, 2)
			if !ok {
				break
			}
		}
		if n < 1 || n > 30 {
			break
		}
		bce, j2 := vnBCE(rs, j)
		t.Year, t.EndYear = century(n, bce)
		t.Precision = Century
		return t, j2, true
	}
	return Time{}, i, false
}

// matchGregorianZh reads 公元前202年, 公元208年, 前202年, 1950年, 一九五〇年,
// 1950年代, 3世纪, 公元前3世纪.
func matchGregorianZh(rs []rune, i int) (Time, int, bool) {
	j := i
	bce, prefixed := false, false
	switch {
	case has(rs, i, "公元前"), has(rs, i, "西元前"):
		j, bce, prefixed = i+3, true, true
	case has(rs, i, "公元"), has(rs, i, "西元"):
		j, prefixed = i+2, true
	case rs[i] == '前':
		if i+1 >= len(rs) || digitVal(rs[i+1]) < 0 {
			return Time{}, i, false
		}
		j, bce, prefixed = i+1, true, true
	}
	if j < len(rs) && rs[j] == ' ' {
		j++
	}
	n, k, ok := anyNum(rs, j)
	if !ok || k >= len(rs) {
		return Time{}, i, false
	}
	arabicDigits := digitVal(rs[j]) >= 0
	if has(rs, k, "世纪") {
		if n < 1 || n > 30 {
			return Time{}, i, false
		}
		a, b := century(n, bce)
		return Time{Calendar: CalGregorian, Precision: Century, Year: a, EndYear: b, Resolved: true}, k + 2, true
	}
	if rs[k] != '年' {
		return Time{}, i, false
	}
	if !prefixed && (k-j < 3 || (!arabicDigits && n < 100)) {
		return Time{}, i, false
	}
	if !prefixed && i > 0 && (isZhNumeral(rs[i-1]) || digitVal(rs[i-1]) >= 0) {
		return Time{}, i, false
	}
	end := k + 1
	if end < len(rs) && strings.ContainsRune("前来间多余", rs[end]) {
		return Time{}, i, false
	}
	y := gregorian(n, bce)
	if end < len(rs) && rs[end] == '代' && !bce && n%10 == 0 {
		return Time{Calendar: CalGregorian, Precision: Decade, Year: y, EndYear: y + 9, Resolved: true}, end + 1, true
	}
	return Time{Calendar: CalGregorian, Precision: Year, Year: y, EndYear: y, Resolved: true}, end, true
}

// countedNoun reports a plural noun after a number ("in 300 ships"), which
// makes it a count rather than a year.
func countedNoun(rs []rune, i int) bool {
	w, s, _ := nextWord(rs, i)
	return len(w) > 2 && unicode.IsLower(rs[s]) && strings.HasSuffix(w, "s") && w != "was" && w != "his" && w != "as"
}
