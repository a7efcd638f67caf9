package chrono

import (
	"strings"

	"github.com/annals-project/annals/internal/chrono/eras"
	"github.com/annals-project/annals/internal/kg"
)

// Parse finds the time expressions in text, in order, resolving them
// against ctx and advancing ctx past each. ctx may be nil.
func (p *Parser) Parse(text string, ctx *Context) []Time {
	if ctx == nil {
		ctx = &Context{}
	}
	rs := []rune(text)
	var out []Time
	if flashback(rs) {
		// 初，青龙三年中…: the histories' 初 tells of earlier days; its
		// dates are read against the count in force but do not move it.
		saved := *ctx
		defer func() { *ctx = saved }()
	}
	for i := 0; i < len(rs); {
		t, end, ok := p.match(rs, i, ctx)
		if !ok || end <= i {
			i++
			continue
		}
		if t.Span.End == 0 {
			t.Span = kg.Span{Start: i, End: end}
		}
		t.Expr = string(rs[t.Span.Start:t.Span.End])
		sanitize(&t)
		explain(&t)
		advance(ctx, &t)
		out = append(out, t)
		i = end
	}
	return out
}

// match tries every pattern at i, most specific first.
func (p *Parser) match(rs []rune, i int, ctx *Context) (Time, int, bool) {
	r := rs[i]
	if isLatin(r) {
		if i > 0 && isLatin(rs[i-1]) {
			return Time{}, i, false
		}
		if t, end, ok := matchEnglish(rs, i); ok {
			return t, end, true
		}
		if t, end, ok := matchVietnamese(rs, i); ok || digitVal(r) < 0 {
			return t, end, ok
		}
	}
	if digitVal(r) >= 0 || isZhNumeral(r) || r == '公' || r == '西' || r == '前' {
		if t, end, ok := matchGregorianZh(rs, i); ok {
			return suffix(rs, end, t, ctx)
		}
	}
	if has(rs, i, "改元") {
		p.eraChange(rs, i+2, ctx)
	}
	if t, end, ok := p.matchEra(rs, i, ctx); ok {
		return suffix(rs, end, t, ctx)
	}
	if t, end, ok := p.matchRuler(rs, i, ctx); ok {
		return suffix(rs, end, t, ctx)
	}
	if p.ownRestart(rs, i, ctx) {
		// 後二年 in 孝文本纪: 文帝's 后元, not "two years later".
		if t, end, ok := p.matchBareYear(rs, i, ctx); ok {
			return suffix(rs, end, t, ctx)
		}
	}
	if t, end, ok := matchRelative(rs, i, ctx); ok {
		return suffix(rs, end, t, ctx)
	}
	if t, end, ok := matchSexagenaryYear(rs, i, ctx); ok {
		return suffix(rs, end, t, ctx)
	}
	if t, end, ok := p.matchBareYear(rs, i, ctx); ok {
		return suffix(rs, end, t, ctx)
	}
	if t, end, ok := matchSeasonMonthDay(rs, i, ctx); ok {
		return t, end, true
	}
	return Time{}, i, false
}

// pastEnd reports whether a count ended before its year n: an era's last
// year, or a ruler's before his successor's accession (孝惠 reigned seven
// years, so 十二年 in his annals is his father's).
func (p *Parser) pastEnd(c Count, n int) bool {
	if !c.Known {
		return false
	}
	y := c.Start + n - 1
	switch c.Calendar {
	case CalEra:
		for _, e := range p.t.Eras(c.Name) {
			if e.Dynasty == c.Dynasty && e.Start == c.Start {
				return y > e.End
			}
		}
	case CalRuler:
		for _, r := range p.t.Rulers(c.Name) {
			if r.Dynasty == c.Dynasty && r.Last != 0 {
				return y > r.Last
			}
		}
	}
	return false
}

// ownRestart reports whether rs[i] begins a restart of the count of the
// ruler whose annals these are, while his count is in force: there 後二年
// is his 后元二年.
func (p *Parser) ownRestart(rs []rune, i int, ctx *Context) bool {
	r, ok := reckonNames[rs[i]]
	if !ok || ctx.Own.Calendar != CalRuler || ctx.Count.Name != ctx.Own.Name {
		return false
	}
	// No restart of a count ran past its seventh year (孝文's 后元 was
	// the longest): 後十六年 is sixteen years after.
	if n, _, ok := yearOrdinal(rs, i+1); !ok || n > 7 {
		return false
	}
	_, ok = p.restartOf(ctx.Own.Name, ctx.Own.Dynasty, r)
	return ok
}

// restartOf is the ruler of that name and dynasty whose count restarts
// under reckoning r (孝文's 后元), if the table has him.
func (p *Parser) restartOf(name, dynasty, r string) (eras.Ruler, bool) {
	for _, ru := range p.t.Rulers(name) {
		if _, has := ru.Reckonings[r]; has && ru.Dynasty == dynasty {
			return ru, true
		}
	}
	return eras.Ruler{}, false
}

// eraChange notes "改元X" so that following bare years count from X.
func (p *Parser) eraChange(rs []rune, i int, ctx *Context) {
	if i >= len(rs) {
		return
	}
	for _, name := range p.eras.at(rs, i) {
		t := Time{}
		p.resolveEra(&t, name, 1, "", ctx)
		if t.Resolved {
			ctx.Count = Count{Calendar: CalEra, Name: name, Dynasty: t.Dynasty, Emperor: t.Emperor, Start: t.Year, Known: true}
			ctx.SetYear(t.Year)
		} else {
			ctx.Count = Count{Calendar: CalEra, Name: name}
		}
		return
	}
}

// dynastyPrefixes qualify an era or ruler: 蜀汉建兴, 魏正始, 汉建安.
var dynastyPrefixes = newDict([]string{
	"蜀汉", "季汉", "曹魏", "孙吴", "东吴", "西汉", "东汉", "前汉", "后汉", "西晋", "东晋",
	"刘宋", "南齐", "北魏", "东魏", "西魏", "北齐", "北周", "后梁", "后唐", "后晋", "后周",
	"南唐", "前秦", "后秦", "前燕", "后燕", "成汉", "前凉", "后赵", "前赵", "北宋", "南宋",
	"蜀", "魏", "吴", "汉", "晋", "宋", "齐", "梁", "陈", "隋", "唐", "辽", "金", "元", "明", "清", "秦",
})

// yearOrdinal reads "N年" or "元年" at i.
func yearOrdinal(rs []rune, i int) (n, end int, ok bool) {
	// 载 is how 天宝 and 至德 count their years.
	if i+1 < len(rs) && rs[i] == '元' && (rs[i+1] == '年' || rs[i+1] == '载') {
		return 1, i + 2, true
	}
	n, j, ok := zhNum(rs, i)
	if !ok || j >= len(rs) || (rs[j] != '年' && rs[j] != '载') || n < 1 || n > 200 {
		return 0, i, false
	}
	return n, j + 1, true
}

func (p *Parser) matchEra(rs []rune, i int, ctx *Context) (Time, int, bool) {
	try := func(start int, qual string) (Time, int, bool) {
		if start >= len(rs) {
			return Time{}, 0, false
		}
		for _, name := range p.eras.at(rs, start) {
			j := start + len([]rune(name))
			n, end, ok := yearOrdinal(rs, j)
			if !ok {
				continue
			}
			t := Time{Calendar: CalEra, Precision: Year, Ordinal: n}
			p.resolveEra(&t, name, n, qual, ctx)
			return t, end, true
		}
		return Time{}, 0, false
	}
	for _, q := range dynastyPrefixes.at(rs, i) {
		if t, end, ok := try(i+len([]rune(q)), q); ok {
			return t, end, true
		}
	}
	return try(i, "")
}

// reckonings a ruler's count may restart under.
var reckonNames = map[rune]string{'前': "前元", '中': "中元", '后': "后元"}

func (p *Parser) matchRuler(rs []rune, i int, ctx *Context) (Time, int, bool) {
	try := func(start int, qual string, names []string) (Time, int, bool) {
		for _, name := range names {
			j := start + len([]rune(name))
			if j < len(rs) && rs[j] == '帝' && !strings.HasSuffix(name, "帝") {
				j++
			}
			rk := ""
			if j < len(rs) {
				if r, ok := reckonNames[rs[j]]; ok {
					if n, end, ok := yearOrdinal(rs, j+1); ok {
						t := Time{Calendar: CalRuler, Precision: Year, Ordinal: n, Ruler: name, Reckoning: r}
						p.resolveRuler(&t, name, n, r, qual, ctx)
						return t, end, true
					}
				}
			}
			if n, end, ok := yearOrdinal(rs, j); ok {
				t := Time{Calendar: CalRuler, Precision: Year, Ordinal: n, Ruler: name, Reckoning: rk}
				p.resolveRuler(&t, name, n, rk, qual, ctx)
				return t, end, true
			}
		}
		return Time{}, 0, false
	}
	for _, q := range dynastyPrefixes.at(rs, i) {
		s := i + len([]rune(q))
		if s < len(rs) {
			if t, end, ok := try(s, q, p.rulers.at(rs, s)); ok {
				return t, end, true
			}
		}
	}
	if t, end, ok := try(i, "", p.rulers.at(rs, i)); ok {
		return t, end, true
	}
	for _, q := range dynastyPrefixes.at(rs, i) {
		// 秦三年 while 二世's count is in force (高帝纪): the dynasty
		// names the count, and its ruler is the one in force.
		c := ctx.Count
		if n, end, ok := yearOrdinal(rs, i+len([]rune(q))); ok && c.Calendar == CalRuler && c.Known &&
			dynastyMatch(q, c.Dynasty) == 2 && !p.pastEnd(c, n) {
			t := Time{Calendar: CalRuler, Precision: Year, Ordinal: n, Ruler: c.Name, Dynasty: c.Dynasty, Emperor: c.Emperor}
			t.Year, t.EndYear, t.Resolved = c.Start+n-1, c.Start+n-1, true
			return t, end, true
		}
	}
	if rs[i] == '汉' {
		// 汉元年 … 汉十二年, 汉之二年: the Han count of 史记 and 汉书
		// before the empire had eras, which is 高祖's from 206 BCE.
		at := i + 1
		if at < len(rs) && rs[at] == '之' {
			at++
		}
		if n, end, ok := yearOrdinal(rs, at); ok && n <= hanCountYears {
			t := Time{Calendar: CalRuler, Precision: Year, Ordinal: n, Ruler: "高祖"}
			p.resolveRuler(&t, "高祖", n, "", "西汉", ctx)
			return t, end, true
		}
	}
	return matchPreImperialRuler(rs, i)
}

// hanCountYears are the years of 高祖's reign, the only ones the texts count
// as 汉N年.
const hanCountYears = 12

// states whose lords are counted by posthumous name: 齐景公, 鲁隐公.
const states = "齐晋鲁宋卫郑楚秦燕赵魏韩吴越陈蔡曹许邾莒"

// matchPreImperialRuler reads a lord the table does not know (景公二十九年,
// 齐桓公元年): the year stays relative to him.
func matchPreImperialRuler(rs []rune, i int) (Time, int, bool) {
	j := i
	if strings.ContainsRune(states, rs[j]) && j+2 < len(rs) && isTitle(rs[j+2]) {
		j++
	}
	if j+1 >= len(rs) || !isTitle(rs[j+1]) || isZhNumeral(rs[j]) || isBreak(rs, j) || rs[j] == '元' {
		return Time{}, i, false
	}
	if j == i && i > 0 && !isBreak(rs, i-1) && !strings.ContainsRune("自至及以于当", rs[i-1]) {
		return Time{}, i, false
	}
	n, end, ok := yearOrdinal(rs, j+2)
	if !ok {
		return Time{}, i, false
	}
	name := string(rs[i : j+2])
	t := Time{Calendar: CalRuler, Precision: Year, Ordinal: n, Ruler: name}
	t.note("%s is not in the table of rulers: his years count from an accession it does not know", name)
	return t, end, true
}

func isTitle(r rune) bool { return r == '公' || r == '王' || r == '侯' }

// relative years: offsets from the year in context.
var relatives = map[string]int{
	"明年": 1, "明岁": 1, "翌年": 1, "次年": 1, "来年": 1, "其明年": 1, "逾年": 1,
	"是岁": 0, "是年": 0, "其年": 0, "其岁": 0, "今年": 0, "本年": 0,
	"去年": -1, "前年": -2, "往岁": -1,
}
var relDict = func() *dict {
	var names []string
	for k := range relatives {
		names = append(names, k)
	}
	return newDict(names)
}()

func matchRelative(rs []rune, i int, ctx *Context) (Time, int, bool) {
	off, end := 0, 0
	if ns := relDict.at(rs, i); len(ns) > 0 {
		off, end = relatives[ns[0]], i+len([]rune(ns[0]))
		// 今年十二 is an age, not a year.
		if _, me, _ := monthAt(rs, end); end < len(rs) && isZhNumeral(rs[end]) && me == end {
			return Time{}, i, false
		}
	} else if (rs[i] == '后' || rs[i] == '越') && i+1 < len(rs) {
		n, j, ok := zhNum(rs, i+1)
		if !ok || j >= len(rs) || (rs[j] != '年' && rs[j] != '岁') || n > 100 {
			return Time{}, i, false
		}
		off, end = n, j+1
	} else {
		return Time{}, i, false
	}
	t := Time{Calendar: CalRelative, Precision: Year, Offset: off}
	if ctx.HasYear {
		t.Year, t.EndYear, t.Resolved = ctx.Year+off, ctx.Year+off, true
		if ctx.Count.Calendar == CalEra {
			t.Era, t.Dynasty, t.Emperor = ctx.Count.Name, ctx.Count.Dynasty, ctx.Count.Emperor
		}
	} else {
		t.Precision = Unresolved
		t.note("%s counts from the year in force, and no year is known before it", string(rs[i:end]))
	}
	return t, end, true
}

// matchSexagenaryYear reads 甲子年, 甲子岁, 岁在甲子, 岁次甲子, 太岁在甲子.
func matchSexagenaryYear(rs []rune, i int, ctx *Context) (Time, int, bool) {
	j := i
	lead := false
	for _, pre := range []string{"太岁在", "岁在", "岁次"} {
		if has(rs, i, pre) {
			j, lead = i+len([]rune(pre)), true
			break
		}
	}
	idx, ok := ganzhi(rs, j)
	if !ok {
		return Time{}, i, false
	}
	end := j + 2
	if !lead {
		if end >= len(rs) || (rs[end] != '年' && rs[end] != '岁') {
			return Time{}, i, false
		}
		end++
	}
	t := Time{Calendar: CalSexagenary, Precision: Year}
	if ctx.HasYear {
		y := nearestCycle(idx, ctx.Year)
		t.Year, t.EndYear, t.Resolved = y, y, true
	} else {
		t.note("a sexagenary year (%s) comes round every 60 years: it is placed only near a known year, and none is known before it", string(rs[j:j+2]))
		if ctx.Count.Known {
			for y := ctx.Count.Start; y < ctx.Count.Start+60; y++ {
				if cycleYear(y) == idx {
					t.Candidates = append(t.Candidates, Candidate{Year: y, Era: ctx.Count.Name, Reason: "first such year of " + ctx.Count.Name})
					break
				}
			}
		}
	}
	return t, end, true
}

// nearestCycle is the year with sexagenary index idx nearest to y.
func nearestCycle(idx, y int) int {
	d := ((idx-cycleYear(y))%60 + 60) % 60
	if d > 30 {
		d -= 60
	}
	return y + d
}

// matchBareYear reads "十二年" or "元年" standing alone at a clause start:
// the year of the count in force. Durations (三年之丧, 居三年, 三年不鸣) are
// refused by requiring a boundary before and a date-like word after.
func (p *Parser) matchBareYear(rs []rune, i int, ctx *Context) (Time, int, bool) {
	if i > 0 && !isBreak(rs, i-1) && !strings.ContainsRune("至迄讫自及以到于逮明", rs[i-1]) {
		return Time{}, i, false
	}
	// 后元年, 中二年: a restart of the reign count in force.
	reckon := ""
	if r, isR := reckonNames[rs[i]]; isR && ctx.Count.Calendar == CalRuler {
		reckon = r
	}
	start := i
	if reckon != "" {
		start++
	}
	n, end, ok := yearOrdinal(rs, start)
	if !ok {
		if t, end, ok := p.eraRestart(rs, i, ctx); ok {
			return t, end, true
		}
		return Time{}, i, false
	}
	if !isBreak(rs, end) && !strings.ContainsRune("春夏秋冬正闰", rs[end]) {
		if _, e, _ := monthAt(rs, end); e == end {
			if _, ok := ganzhi(rs, end); !ok {
				return Time{}, i, false
			}
		}
	}
	if reckon == "" && ctx.Own.Name != "" && ctx.Count.Name != ctx.Own.Name && (n == 1 || p.pastEnd(ctx.Count, n)) {
		// The annals' ruler's reign begins (元年), or the era a
		// retrospect named (元寿二年 in 平帝纪) ended before year n: the
		// annals go on in their own count.
		ctx.Count = ctx.Own
	}
	if reckon == "" && p.pastEnd(ctx.Count, n) {
		return Time{}, i, false // 五十年 while 黄初 is in force: a span of years
	}
	t := Time{Calendar: CalEra, Precision: Year, Ordinal: n}
	c := ctx.Count
	if c.Calendar == CalRuler {
		t.Calendar, t.Ruler, t.Reckoning = CalRuler, c.Name, reckon
		if reckon != "" {
			p.resolveRuler(&t, c.Name, n, reckon, c.Dynasty, ctx)
			return t, end, true
		}
	} else {
		t.Era = c.Name
	}
	t.Dynasty, t.Emperor = c.Dynasty, c.Emperor
	switch {
	case c.Known:
		t.Year, t.EndYear, t.Resolved = c.Start+n-1, c.Start+n-1, true
	case c.Name == "":
		t.note("%s counts from the era or reign in force, and none is named before it", string(rs[i:end]))
	default:
		t.note("%s counts from %s, whose first year is not known", string(rs[i:end]), c.Name)
	}
	return t, end, true
}

// eraRestart reads a restart written by its reckoning's name alone while
// an era is in force (后元元年 in 武帝纪, after 征和; 中元二年 in 光武帝纪,
// after 建武): the era that continues the one in force under that name
// (建武中元), else the reckoning of the era's emperor (武帝's 后元, which
// has no era name of its own).
func (p *Parser) eraRestart(rs []rune, i int, ctx *Context) (Time, int, bool) {
	c := ctx.Count
	r, isR := reckonNames[rs[i]]
	if !isR || c.Calendar != CalEra || c.Name == "" || i+1 >= len(rs) || rs[i+1] != '元' {
		return Time{}, i, false
	}
	n, end, ok := yearOrdinal(rs, i+2)
	if !ok {
		return Time{}, i, false
	}
	if es := p.t.Eras(c.Name + r); len(es) > 0 {
		t := Time{Calendar: CalEra, Precision: Year, Ordinal: n}
		p.resolveEra(&t, c.Name+r, n, c.Dynasty, ctx)
		return t, end, t.Resolved
	}
	ru, ok := p.restartOf(c.Emperor, c.Dynasty, r)
	if c.Emperor == "" || !ok {
		return Time{}, i, false
	}
	t := Time{Calendar: CalRuler, Precision: Year, Ordinal: n, Ruler: ru.Name, Reckoning: r}
	p.resolveRuler(&t, ru.Name, n, r, c.Dynasty, ctx)
	return t, end, t.Resolved
}

// monthAt reads 正月, 闰月, 闰三月, 腊月, 十一月.
func monthAt(rs []rune, i int) (m int, end int, leap bool) {
	if i >= len(rs) {
		return 0, i, false
	}
	j := i
	if rs[j] == '闰' {
		leap = true
		j++
		if j < len(rs) && rs[j] == '月' {
			return -1, j + 1, true // the month after the current one's leap
		}
	}
	if j+1 < len(rs) && rs[j+1] == '月' {
		switch rs[j] {
		case '正', '端':
			return 1, j + 2, leap
		case '腊':
			return 12, j + 2, leap
		}
	}
	n, k, ok := anyNum(rs, j)
	if !ok || k >= len(rs) || rs[k] != '月' || n < 1 || n > 12 {
		return 0, i, false
	}
	return n, k + 1, leap
}

const seasons = "春夏秋冬"

// suffix extends a year with a season, month and day: 建兴十二年春二月丁巳.
func suffix(rs []rune, i int, t Time, ctx *Context) (Time, int, bool) {
	end := i
	if end < len(rs) && strings.ContainsRune(seasons, rs[end]) {
		t.Season = string(rs[end])
		t.Precision = precisionAtLeast(t.Precision, Season)
		end++
		// 春王正月: the Chunqiu names the king's calendar.
		if end < len(rs) && rs[end] == '王' {
			if _, e, _ := monthAt(rs, end+1); e > end+1 {
				end++
			}
		}
	}
	if m, e, leap := monthAt(rs, end); e > end {
		if m == -1 {
			m = ctx.Month
		}
		t.Month, t.Leap = m, leap
		t.Precision = precisionAtLeast(t.Precision, Month)
		end = e
		if d, e2, ok := dayAt(rs, end); ok {
			t.Day, t.DayOfMonth = d.name, d.num
			t.Precision = Day
			end = e2
		}
	}
	return t, end, true
}

func precisionAtLeast(cur, p string) string {
	if cur == Unresolved {
		return cur
	}
	return p
}

type dayName struct {
	name string
	num  int
}

// dayAt reads a day after a month: 丙午, 甲子朔, 十五日, 15日.
func dayAt(rs []rune, i int) (dayName, int, bool) {
	if _, ok := ganzhi(rs, i); ok {
		end := i + 2
		if end < len(rs) && strings.ContainsRune("朔晦日", rs[end]) {
			end++
		}
		return dayName{name: string(rs[i : i+2])}, end, true
	}
	n, j, ok := anyNum(rs, i)
	if ok && j < len(rs) && (rs[j] == '日' || rs[j] == '号') && n >= 1 && n <= 31 {
		return dayName{num: n}, j + 1, true
	}
	return dayName{}, i, false
}

// matchSeasonMonthDay reads a season, month or day standing alone: it falls
// in the current year.
func matchSeasonMonthDay(rs []rune, i int, ctx *Context) (Time, int, bool) {
	t := Time{Calendar: CalRelative}
	if ctx.HasYear {
		t.Year, t.EndYear, t.Resolved = ctx.Year, ctx.Year, true
	}
	atStart := isBreak(rs, i-1)
	if has(rs, i, "是月") {
		t.Month, t.Precision = ctx.Month, Month
		return t, i + 2, ctx.Month > 0
	}
	if strings.ContainsRune(seasons, rs[i]) && atStart {
		e := i + 1
		if _, me, _ := monthAt(rs, e); me > e || isBreak(rs, e) {
			t.Season, t.Precision = string(rs[i]), Season
			t2, end, _ := suffix(rs, e, t, ctx)
			return t2, end, true
		}
		return Time{}, i, false
	}
	if i > 0 && (isZhNumeral(rs[i-1]) || digitVal(rs[i-1]) >= 0) {
		return Time{}, i, false
	}
	if m, e, leap := monthAt(rs, i); e > i {
		if m == -1 {
			m = ctx.Month
		}
		// 三月不知肉味: a count of months, not a month.
		if e < len(rs) && strings.ContainsRune("不而之余有矣间内中为", rs[e]) {
			return Time{}, i, false
		}
		t.Month, t.Leap, t.Precision = m, leap, Month
		if d, e2, ok := dayAt(rs, e); ok {
			t.Day, t.DayOfMonth, t.Precision = d.name, d.num, Day
			e = e2
		}
		return t, e, true
	}
	// A day of the month and its sexagenary name open a clause: "三日庚戌，"
	// counts on from the month in force.
	if n, j, ok := anyNum(rs, i); ok && atStart && n >= 1 && n <= 30 && j < len(rs) && rs[j] == '日' {
		if _, ok := ganzhi(rs, j+1); ok && isBreak(rs, j+3) {
			t.Day, t.DayOfMonth, t.Month, t.Precision = string(rs[j+1:j+3]), n, ctx.Month, Day
			return t, j + 3, true
		}
	}
	// A sexagenary day alone opens a clause: "丙午，".
	if _, ok := ganzhi(rs, i); ok && atStart {
		e := i + 2
		if e < len(rs) && strings.ContainsRune("朔晦日", rs[e]) {
			e++
		}
		if !isBreak(rs, e) {
			return Time{}, i, false
		}
		t.Day, t.Month, t.Precision = string(rs[i:i+2]), ctx.Month, Day
		return t, e, true
	}
	return Time{}, i, false
}

// advance records what t establishes for the text that follows.
func advance(ctx *Context, t *Time) {
	if ctx.Own.Known && ctx.HasYear && ctx.Year >= ctx.Own.Start && t.Resolved && t.Ordinal > 0 && (t.Era != "" || t.Ruler != "") && t.Year < ctx.Own.Start {
		// Once the annals' reign has begun, a named year before it
		// (汉元年 in a speech in 明帝纪) looks back, and the annals'
		// count goes on after it.
		return
	}
	switch t.Calendar {
	case CalEra, CalRuler:
		if t.Ordinal > 0 && (t.Era != "" || t.Ruler != "") {
			c := Count{Calendar: t.Calendar, Name: t.Era, Dynasty: t.Dynasty, Emperor: t.Emperor}
			if t.Calendar == CalRuler {
				c.Name = t.Ruler
			}
			if t.Resolved {
				c.Start, c.Known = t.Year-t.Ordinal+1, true
			}
			if c.Name != ctx.Count.Name || c.Known || t.Reckoning != "" {
				ctx.Count = c
			}
		}
	}
	if t.Resolved && t.Precision != Century && t.Precision != Decade {
		if !ctx.HasYear || ctx.Year != t.Year {
			ctx.SetYear(t.Year)
		}
	} else if !t.Resolved && t.Calendar != CalRelative {
		ctx.HasYear = false
	}
	if t.Month > 0 {
		ctx.Month = t.Month
	}
}

// explain says why t stays unresolved where the pattern that read it has
// not said so already.
func explain(t *Time) {
	if t.Resolved || len(t.Notes) > 0 {
		return
	}
	switch {
	case t.Day != "" && t.DayOfMonth == 0 && t.Month == 0 && t.Season == "":
		t.note("%s alone is a sexagenary day, one of a cycle of 60 days: it is placed only within a year and month in force, and none is known before it (a sexagenary year is written %s年 or 岁在%s, and is placed near a known year)",
			t.Day, t.Day, t.Day)
	case t.Calendar == CalRelative && (t.Day != "" || t.DayOfMonth > 0 || t.Month > 0 || t.Season != "" || t.Precision == Month):
		t.note("%s falls in the year in force, and no year is known before it", t.Expr)
	default:
		t.note("nothing before %s sets the year it counts from", t.Expr)
	}
}

// flashback reports whether a text opens with 初, which in the histories
// goes back to tell what came before.
func flashback(rs []rune) bool {
	for i, r := range rs {
		if r == ' ' || r == '\n' || r == '　' {
			continue
		}
		return r == '初' && i+1 < len(rs) && (rs[i+1] == '，' || rs[i+1] == ',')
	}
	return false
}

// sanitize drops years outside the supported range.
func sanitize(t *Time) {
	if t.EndYear < t.Year {
		t.EndYear = t.Year
	}
	if t.Year < MinYear || t.Year > MaxYear || t.EndYear < MinYear || t.EndYear > MaxYear {
		if t.Resolved {
			t.note("the year %s lies outside the years read (%s to %s)", yearText(t.Year), yearText(MinYear), yearText(MaxYear))
		}
		t.Year, t.EndYear, t.Resolved = 0, 0, false
	}
	var keep []Candidate
	for _, c := range t.Candidates {
		if c.Year >= MinYear && c.Year <= MaxYear {
			keep = append(keep, c)
		}
	}
	t.Candidates = keep
}
