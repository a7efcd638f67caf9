package chrono

import (
	"sort"
	"strings"
	"sync"

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
// names, else the era of the dynasties of the book it is cited from (cite,
// 《三国志·蜀书·…》) in force that year whose count agrees with the
// expression's number. Empty when none fits.
func EraYear(year int, expr, sentence, cite string) string {
	var in []eras.Era
	for _, e := range erasByStart() {
		if e.Start > year {
			break
		}
		if e.End >= year {
			in = append(in, e)
		}
	}
	n := leadingYear(expr)
	fits := func(e eras.Era) bool { return n == 0 || e.Year(n) == year }
	for _, e := range in {
		if strings.HasPrefix(expr, e.Name) && fits(e) {
			return e.Name + yearNumeral(year-e.Start+1)
		}
	}
	// The sentence names the era (建兴十二年春，亮悉大众由斜谷出).
	for _, e := range in {
		if name := e.Name + yearNumeral(year-e.Start+1); strings.Contains(sentence, name) {
			return name
		}
	}
	for _, b := range bookDynasties {
		if !strings.HasPrefix(strings.TrimPrefix(cite, "《"), b.book) {
			continue
		}
		// The latest era of the dynasty that fits: a year an era began in
		// is counted by it (196 is 建安元年, not 兴平三年).
		for _, d := range b.dynasties {
			for i := len(in) - 1; i >= 0; i-- {
				if e := in[i]; e.Dynasty == d && fits(e) {
					return e.Name + yearNumeral(year-e.Start+1)
				}
			}
		}
		break
	}
	return ""
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
