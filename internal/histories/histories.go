// Package histories knows what the standard histories are about: which
// dynasty or state a chapter is written about, which dynasties each book
// spans, and the sovereigns of those dynasties with their personal names
// and the titles the texts call them by (temple and posthumous names,
// titles held before the throne, forms of address). With it a title in a
// chapter names one person: 太祖 in 三国志·魏书 is 曹操, in 汉书 刘邦.
package histories

import (
	"slices"
	"strings"
)

// Book is the history a chapter belongs to ("" when it is none of them),
// read from its path.
func Book(path string) string {
	for _, b := range []string{"三国志", "后汉书", "汉书", "史记"} {
		if strings.Contains(path, b) {
			return b
		}
	}
	return ""
}

// Home guesses the dynasty or state a chapter is written about from its
// path: it settles eras shared by several dynasties (建兴), whose lord a
// bare 景公 is, and whose sovereign a bare 太祖 is.
func Home(path string) string {
	switch Book(path) {
	case "三国志":
		for _, m := range [][2]string{{"蜀书", "蜀汉"}, {"魏书", "曹魏"}, {"吴书", "孙吴"}} {
			if strings.Contains(path, m[0]) {
				return m[1]
			}
		}
	case "后汉书":
		return "东汉"
	case "汉书":
		return "西汉"
	case "史记":
		for _, m := range shijiStates {
			if strings.Contains(path, m[0]) {
				return m[1]
			}
		}
		return ""
	}
	for _, m := range [][2]string{{"蜀", "蜀汉"}, {"魏", "曹魏"}, {"吴", "孙吴"}} {
		if strings.Contains(path, m[0]) {
			return m[1]
		}
	}
	return ""
}

// shijiStates names the state or dynasty of the 史记 chapters that are
// about one.
var shijiStates = [][2]string{
	{"齐太公世家", "齐"}, {"田敬仲完世家", "齐"}, {"鲁周公世家", "鲁"}, {"燕召公世家", "燕"},
	{"管蔡世家", "蔡"}, {"陈杞世家", "陈"}, {"卫康叔世家", "卫"}, {"宋微子世家", "宋"},
	{"晋世家", "晋"}, {"楚世家", "楚"}, {"越王勾践世家", "越"}, {"郑世家", "郑"},
	{"赵世家", "赵"}, {"魏世家", "魏"}, {"韩世家", "韩"}, {"吴太伯世家", "吴"},
	{"周本纪", "周"}, {"秦本纪", "秦"}, {"秦始皇本纪", "秦"}, {"项羽本纪", "楚"},
	{"高祖本纪", "西汉"}, {"吕太后本纪", "西汉"}, {"孝文本纪", "西汉"}, {"孝景本纪", "西汉"},
	{"孝武本纪", "西汉"},
}

// spans lists, for each book, the dynasties whose sovereigns its chapters
// name, after the chapter's own: a history names the dynasty it is about,
// the one before, and (三国志) the rivals. 周 is left out of 史记's list on
// purpose: its chapters on the warring states have kings of their own
// (齐宣王), so a bare 宣王 is 周's only in 周本纪.
var spans = map[string][]string{
	"史记":  {"西汉", "秦", "楚"},
	"汉书":  {"西汉", "新", "楚", "秦"},
	"后汉书": {"东汉", "新", "西汉"},
	"三国志": {"东汉", "曹魏", "蜀汉", "孙吴", "西晋", "西汉"},
}

// Tells says whether a chapter at path may tell, as its own story, what
// happened under dynasty: it is its own dynasty or one its book spans, or
// the chapter is outside the histories and so anything may be told. 巨鹿之战
// fought under 秦 is told in 史记 and 汉书; a 后汉书 chapter that names 钜鹿
// tells of another fight or recalls that one.
func Tells(path, dynasty string) bool {
	return Book(path) == "" || slices.Contains(dynasties(path), dynasty)
}

// dynasties are those a chapter names sovereigns of: its own first, then
// those its book spans, in order.
func dynasties(path string) []string {
	var order []string
	if h := Home(path); h != "" {
		order = append(order, h)
	}
	return append(order, spans[Book(path)]...)
}

// Sovereign is a ruler (or one the histories treat as such: a founder
// honoured after death, a regent) with the titles the texts call him by.
type Sovereign struct {
	Dynasty string
	Person  string   // 姓+名, as a who's-who names him
	Titles  []string // simplified
}

// Called is the person a title stands for, and why.
type Called struct {
	Person  string
	Dynasty string
	// Title is the form matched in the table (文帝 for 孝文皇帝).
	Title string
}

// Resolve names the sovereign a title stands for in a chapter: a dynasty
// the title itself names (汉武帝, 魏文帝) first, else the chapter's own
// dynasty, else the dynasties its book spans, in order. Titles the table
// does not hold, or a chapter outside the histories, give false.
func Resolve(title, path string) (Called, bool) {
	t := []rune(title)
	if len(t) < 2 {
		return Called{}, false
	}
	// A dynasty named in the title decides.
	if d, ok := prefixes[t[0]]; ok && len(t) > 2 {
		rest := string(t[1:])
		for _, dyn := range d {
			if c, ok := lookup(rest, dyn); ok {
				return named(c)
			}
		}
	}
	for _, dyn := range dynasties(path) {
		if c, ok := lookup(title, dyn); ok {
			return named(c)
		}
	}
	return Called{}, false
}

// Annals names the sovereign a chapter of annals is about, read from its
// title (武帝纪, 高帝纪下, 显宗孝明帝纪); false for any other chapter and for
// annals of several rulers (孝和孝殇帝纪), which the title cannot settle.
func Annals(title, path string) (Sovereign, bool) {
	t := strings.TrimRight(strings.TrimSpace(title), "上下")
	if !strings.HasSuffix(t, "纪") {
		return Sovereign{}, false
	}
	t = strings.TrimSuffix(strings.TrimSuffix(t, "纪"), "本")
	forms := []string{t}
	if r := []rune(t); len(r) > 3 && (r[1] == '宗' || r[1] == '祖') {
		forms = append(forms, string(r[2:])) // 显宗孝明帝: 孝明帝
	}
	for _, f := range forms {
		if c, ok := Resolve(f, path); ok {
			for _, s := range table().list {
				if s.Person == c.Person && s.Dynasty == c.Dynasty {
					return s, true
				}
			}
		}
	}
	return Sovereign{}, false
}

// ResolveGiven names the sovereign of the chapter's own dynasty that a
// bare one-character given name stands for: 三国志·吴书 writes 孙权 as 权
// and 孙策 as 策 from one chapter to the next. Other dynasties are not
// searched: in 蜀书 a bare 亮 is 诸葛亮, not 吴's 孙亮. Callers ask only
// when the chapter itself knows no one of that name.
func ResolveGiven(given, path string) (Called, bool) {
	h := Home(path)
	if len([]rune(given)) != 1 || h == "" {
		return Called{}, false
	}
	if p, ok := table().byGiven[h+"\x00"+given]; ok {
		return Called{Person: p, Dynasty: h, Title: given}, true
	}
	return Called{}, false
}

// prefixes are the one-character names of dynasties written before a
// title (汉武帝, 魏文帝, 晋宣王), with the dynasties each may mean.
var prefixes = map[rune][]string{
	'汉': {"西汉", "东汉", "蜀汉"},
	'魏': {"曹魏"},
	'吴': {"孙吴"},
	'蜀': {"蜀汉"},
	'晋': {"西晋"},
	'秦': {"秦"},
	'周': {"周"},
	'楚': {"楚"},
}

// IsDynastyPrefix says whether r names a dynasty when it stands before a
// ruler's title (汉 in 汉宣帝, 晋 in 晋宣帝).
func IsDynastyPrefix(r rune) bool {
	_, ok := prefixes[r]
	return ok
}

// shared stands in the tables for the person of a form that names several
// in its dynasty.
const shared = "-"

// named is a title found in a dynasty, unless the dynasty shares it: then
// it names no one, and the search goes no further.
func named(c Called) (Called, bool) {
	if c.Person == shared {
		return Called{}, false
	}
	return c, true
}

// lookup finds a title among a dynasty's sovereigns, also in the forms the
// texts vary it by: 光武皇帝 is 光武帝, and in the two 汉, whose emperors'
// posthumous names all begin with 孝, 孝武皇帝, 孝武帝 and 孝武 are 武帝
// (a 孝武 in 魏书 is still 汉's).
func lookup(title, dynasty string) (Called, bool) {
	for _, form := range forms(title, dynasty == "西汉" || dynasty == "东汉") {
		if p, ok := byTitle()[dynasty+"\x00"+form]; ok {
			return Called{Person: p, Dynasty: dynasty, Title: form}, true
		}
	}
	return Called{}, false
}

func forms(title string, filial bool) []string {
	out := []string{title}
	t := title
	if strings.HasSuffix(t, "皇帝") && len([]rune(t)) > 2 {
		t = strings.TrimSuffix(t, "皇帝") + "帝"
		out = append(out, t)
	}
	if r := []rune(t); filial && len(r) >= 2 && r[0] == '孝' {
		rest := string(r[1:])
		out = append(out, rest)
		if !strings.HasSuffix(rest, "帝") {
			out = append(out, rest+"帝")
		}
	}
	return out
}
