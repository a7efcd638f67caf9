package chrono

import (
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/chrono/eras"
)

// bookDynasties are the dynasties whose eras a book counts years in, in
// the order tried: 蜀书 counts in 蜀汉's eras once there are some, and in
// 东汉's before (关羽 died in 建安二十四年).
var bookDynasties = []struct {
	book      string
	dynasties []string
}{
	{"三国志·蜀书", []string{"蜀汉", "东汉"}},
	{"三国志·吴书", []string{"孙吴", "东汉"}},
	{"三国志", []string{"曹魏", "东汉"}},
	{"后汉书", []string{"东汉", "新"}},
	{"汉书", []string{"西汉", "新"}},
	{"史记", []string{"西汉"}},
}

var erasByStart = sync.OnceValue(func() []eras.Era {
	all := eras.All()
	sort.Slice(all, func(i, j int) bool { return all[i].Start < all[j].Start })
	return all
})

// EraYear names the year as its era counts it (建安二十四年): the era the
// statement's own time expression (expr, "" when unknown) or its sentence
// names (EraNamed), else the era of the dynasties of the book it is cited
// from (cite, 《三国志·蜀书·…》) in force that year whose count agrees with
// the expression's number (EraOfBook). Empty when none fits.
func EraYear(year int, expr, sentence, cite string) string {
	if era := EraNamed(year, expr, sentence); era != "" {
		return era
	}
	return EraOfBook(year, expr, cite)
}

// erasIn are the eras in force in a year, by start.
func erasIn(year int) []eras.Era {
	var in []eras.Era
	for _, e := range erasByStart() {
		if e.Start > year {
			break
		}
		if e.End >= year {
			in = append(in, e)
		}
	}
	return in
}

// EraNamed names the year by the era its time expression opens with, or
// by the era and year its sentence writes out (建兴十二年春，亮悉大众由斜谷出).
func EraNamed(year int, expr, sentence string) string {
	in := erasIn(year)
	n := leadingYear(expr)
	for _, e := range in {
		if strings.HasPrefix(expr, e.Name) && (n == 0 || e.Year(n) == year) {
			return e.Name + yearNumeral(year-e.Start+1)
		}
	}
	for _, e := range in {
		if name := e.Name + yearNumeral(year-e.Start+1); strings.Contains(sentence, name) {
			return name
		}
	}
	return ""
}

// EraOfBook names the year by the latest era, of the dynasties the cited
// book counts in, whose count agrees with the expression's number: a year
// an era began in is counted by it (196 is 建安元年, not 兴平三年).
func EraOfBook(year int, expr, cite string) string {
	in := erasIn(year)
	n := leadingYear(expr)
	for _, b := range bookDynasties {
		if !strings.HasPrefix(strings.TrimPrefix(cite, "《"), b.book) {
			continue
		}
		for _, d := range b.dynasties {
			for i := len(in) - 1; i >= 0; i-- {
				if e := in[i]; e.Dynasty == d && (n == 0 || e.Year(n) == year) {
					return e.Name + yearNumeral(year-e.Start+1)
				}
			}
		}
		break
	}
	return ""
}

// EraInForce names the year as a reader of the text before a statement
// counts it: by the last year the text counted (三年春二月 …), read in the
// era that gives that count the year, the one named last where several
// do; without a count, by the era named last with a year. In 先主传 the
// year 223 is 章武三年, though 建兴 began that year too. Empty when the
// text says nothing that fits.
func EraInForce(year int, before string) string {
	in := erasIn(year)
	if len(in) == 0 {
		return ""
	}
	named := func(e eras.Era) int { // where the text last names the era with a year
		at := -1
		for i := 0; ; {
			j := strings.Index(before[i:], e.Name)
			if j < 0 {
				return at
			}
			k := i + j + len(e.Name)
			if r, _ := utf8.DecodeRuneInString(before[k:]); strings.ContainsRune(eraDigits+"十元", r) {
				at = i + j
			}
			i = k
		}
	}
	best, bestAt, fit := "", -1, 0
	n := lastYearCount(before)
	for _, e := range in {
		if n > 0 && e.Year(n) != year {
			continue
		}
		fit++
		if at := named(e); at > bestAt || best == "" {
			best, bestAt = e.Name+yearNumeral(year-e.Start+1), max(at, bestAt)
		}
	}
	// Without a count, or with one several eras give, the era must be
	// named.
	if bestAt < 0 && (n == 0 || fit > 1) {
		return ""
	}
	return best
}

// lastYearCount is the number of the last year a text counts (…三年春 →
// 3), 0 when it counts none.
func lastYearCount(text string) int {
	for i := len(text); i > 0; {
		j := strings.LastIndex(text[:i], "年")
		if j < 0 {
			return 0
		}
		start := j
		for start > 0 {
			r, size := utf8.DecodeLastRuneInString(text[:start])
			if !strings.ContainsRune(eraDigits+"十元", r) {
				break
			}
			start -= size
		}
		if start < j {
			if n := leadingYear(text[start : j+len("年")]); n > 0 {
				return n
			}
		}
		i = j
	}
	return 0
}

const eraDigits = "〇一二三四五六七八九"

// YearNumeral writes the year of an era or a reign: 元年, 十二年, 二十四年.
func YearNumeral(n int) string { return yearNumeral(n) }

func yearNumeral(n int) string {
	if n == 1 {
		return "元年"
	}
	d := []rune(eraDigits)
	var b strings.Builder
	if n >= 20 {
		b.WriteRune(d[n/10%10])
	}
	if n >= 10 {
		b.WriteString("十")
	}
	if n%10 != 0 || n < 10 {
		b.WriteRune(d[n%10])
	}
	b.WriteString("年")
	return b.String()
}

// leadingYear reads the number of the year an expression opens with
// (二十四年 → 24, 元年 → 1), after an era name if any; 0 when none.
func leadingYear(expr string) int {
	rs := []rune(expr)
	i := strings.IndexRune(expr, '年')
	if i < 0 {
		return 0
	}
	end := len([]rune(expr[:i]))
	start := end
	for start > 0 && (strings.ContainsRune(eraDigits, rs[start-1]) || rs[start-1] == '十' || rs[start-1] == '元') {
		start--
	}
	num := rs[start:end]
	if len(num) == 0 {
		return 0
	}
	if string(num) == "元" {
		return 1
	}
	n, cur := 0, 0
	for _, r := range num {
		switch {
		case r == '十':
			if cur == 0 {
				cur = 1
			}
			n += cur * 10
			cur = 0
		case r == '元':
			return 0
		default:
			cur = strings.IndexRune(eraDigits, r) / len("一")
		}
	}
	return n + cur
}

// YearName is one way the histories count a year: an era's year or a
// sovereign's regnal year.
type YearName struct {
	Name    string `json:"name"` // 建安十三年, 孝文后元三年
	Dynasty string `json:"dynasty"`
	Emperor string `json:"emperor,omitempty"`
}

// YearNames lists how the table's eras and sovereigns count a year
// (astronomical): 208 is 东汉 献帝's 建安十三年. Eras come first, by the
// year they began; then the sovereigns whose count is known to reach it.
func YearNames(year int) []YearName {
	var out []YearName
	for _, e := range erasIn(year) {
		if n := year - e.Start + 1; n >= 1 {
			out = append(out, YearName{Name: e.Name + yearNumeral(n), Dynasty: e.Dynasty, Emperor: e.Emperor})
		}
	}
	for _, r := range eras.Rulers() {
		// A count without a known end (the last of a line in the table)
		// would run on for ever: it names no year.
		if r.Accession > year || r.Last == 0 || r.Last < year {
			continue
		}
		name, start := r.Name, r.Accession
		for k, s := range r.Reckonings { // the latest restart before the year
			if s <= year && s > start {
				name, start = r.Name+k, s
			}
		}
		out = append(out, YearName{Name: name + yearNumeral(year-start+1), Dynasty: r.Dynasty})
	}
	return out
}

// BareYear reads an expression that is nothing but a year: Arabic
// numerals, astronomical (208, -121), or a year the parser reads in the
// Gregorian calendar with its marker (公元208年, 公元前122年, 122 BCE); ok
// is false for anything else.
func BareYear(expr string) (year int, ok bool) {
	s := strings.TrimSpace(expr)
	digits := strings.TrimLeft(s, "-−")
	if digits != "" && len(digits) <= 5 && strings.Trim(digits, "0123456789") == "" {
		n, err := strconv.Atoi(digits)
		if err != nil || n == 0 && digits != s {
			return 0, false
		}
		if digits != s {
			n = -n
		}
		return n, true
	}
	ts := Parse(s, &Context{})
	if len(ts) != 1 || ts[0].Calendar != CalGregorian || ts[0].Precision != Year || !ts[0].Resolved || ts[0].Span.Start != 0 || ts[0].Span.End != utf8.RuneCountInString(s) {
		return 0, false
	}
	return ts[0].Year, true
}
