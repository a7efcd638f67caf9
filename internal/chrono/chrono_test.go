package chrono

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNumerals(t *testing.T) {
	for s, want := range map[string]int{"一": 1, "十": 10, "十二": 12, "二十": 20, "二十七": 27, "廿三": 23, "卅": 30, "卌二": 42, "九十九": 99, "一百零二": 102, "一九五〇": 1950, "二〇八": 208} {
		got, end, ok := zhNum([]rune(s), 0)
		if !ok || got != want || end != utf8.RuneCountInString(s) {
			t.Errorf("zhNum(%s) = %d,%d,%v want %d", s, got, end, ok, want)
		}
	}
	if _, _, ok := zhNum([]rune("三四"), 0); ok {
		t.Error("三四 is not a number")
	}
}

func TestGanzhi(t *testing.T) {
	for s, want := range map[string]int{"甲子": 0, "乙丑": 1, "丙子": 12, "庚子": 36, "癸亥": 59} {
		if got, ok := ganzhi([]rune(s), 0); !ok || got != want {
			t.Errorf("ganzhi(%s) = %d want %d", s, got, want)
		}
	}
	if _, ok := ganzhi([]rune("甲丑"), 0); ok {
		t.Error("甲丑 is not a pair")
	}
	if cycleYear(184) != 0 || cycleYear(-2696) != 0 || nearestCycle(0, 200) != 184 {
		t.Error("cycle arithmetic")
	}
}

func TestContextAcrossChunks(t *testing.T) {
	p := NewParser(testTable)
	ctx := &Context{Dynasty: "蜀汉"}
	p.Parse("建兴五年，亮率诸军北驻汉中。", ctx)
	ts := p.Parse("六年春，亮出祁山。冬，复出散关。", ctx)
	if len(ts) != 2 || ts[0].Year != 228 || ts[0].Era != "建兴" || ts[1].Year != 228 || ts[1].Season != "冬" {
		t.Fatalf("got %+v", ts)
	}
	ts = p.Parse("明年，", ctx)
	if len(ts) != 1 || ts[0].Year != 229 || ts[0].Offset != 1 {
		t.Fatalf("got %+v", ts)
	}
}

func TestLeapMonthAndDay(t *testing.T) {
	p := NewParser(testTable)
	ctx := &Context{}
	ts := p.Parse("贞观二年三月，闰月，丙午，", ctx)
	if len(ts) != 3 {
		t.Fatalf("got %+v", ts)
	}
	if !ts[1].Leap || ts[1].Month != 3 || ts[1].Year != 628 {
		t.Errorf("闰月: %+v", ts[1])
	}
	if ts[2].Precision != Day || ts[2].Day != "丙午" || ts[2].Month != 3 || ts[2].Year != 628 {
		t.Errorf("丙午: %+v", ts[2])
	}
}

// A day of the month with its sexagenary name opening a clause counts on
// from the month in force; a count of days in a clause is no date.
func TestDayOfMonthWithItsName(t *testing.T) {
	p := NewParser(testTable)
	ctx := &Context{}
	ts := p.Parse("贞观二年十月，兵入。三日庚戌，晨旦明。莽三日不食。", ctx)
	if len(ts) != 2 {
		t.Fatalf("got %+v", ts)
	}
	if d := ts[1]; d.Precision != Day || d.Day != "庚戌" || d.DayOfMonth != 3 || d.Month != 10 || d.Year != 628 {
		t.Errorf("三日庚戌: %+v", d)
	}
}

func TestAmbiguityKeepsCandidates(t *testing.T) {
	p := NewParser(testTable)
	ts := p.Parse("建兴三年", &Context{})
	if len(ts) != 1 || ts[0].Resolved || len(ts[0].Candidates) != 4 {
		t.Fatalf("got %+v", ts)
	}
	for _, c := range ts[0].Candidates {
		if c.Reason == "" {
			t.Error("candidate without a reason")
		}
	}
	ts = p.Parse("建兴三年", &Context{Dynasties: []string{"成汉"}})
	if !ts[0].Resolved || ts[0].Year != 306 || !strings.Contains(ts[0].Candidates[0].Reason, "chosen") {
		t.Fatalf("got %+v", ts[0])
	}
}

func TestUnknownRuler(t *testing.T) {
	ts := NewParser(testTable).Parse("晋平公十年，", &Context{})
	if len(ts) != 1 || ts[0].Resolved || ts[0].Ruler != "晋平公" || ts[0].Ordinal != 10 {
		t.Fatalf("got %+v", ts)
	}
}

func TestCheck(t *testing.T) {
	p := NewParser(testTable)
	if ok, _ := p.Check("建兴十二年", 234, Context{Dynasty: "蜀汉"}); !ok {
		t.Error("建兴十二年 is 234 in 蜀汉")
	}
	ok, cands := p.Check("建兴三年", 315, Context{})
	if !ok || len(cands) != 4 {
		t.Errorf("建兴三年 can be 315 (西晋): %v %+v", ok, cands)
	}
	if ok, _ := p.Check("建兴十二年", 240, Context{Dynasty: "蜀汉"}); ok {
		t.Error("建兴十二年 is not 240")
	}
	if ok, _ := p.Check("公元前202年", -201, Context{}); !ok {
		t.Error("公元前202年 is −201")
	}
}

func TestSpans(t *testing.T) {
	text := "Năm 1288, 建兴十二年春"
	ts := NewParser(testTable).Parse(text, &Context{Dynasty: "蜀汉"})
	rs := []rune(text)
	for _, x := range ts {
		if string(rs[x.Span.Start:x.Span.End]) != x.Expr {
			t.Errorf("span %v does not give %q", x.Span, x.Expr)
		}
	}
	if len(ts) != 2 || ts[1].Span.Start != 10 {
		t.Errorf("got %+v", ts)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"建兴十二年春，亮卒。明年，", "公元前202年", "in 208 BC", "năm 1288 TCN", "thế kỉ XV", "岁在甲子", "孝景中元年", "the 3rd century", "景公二十九年", "闰月丙午", "公元前9999年", "in 9999 AD"} {
		f.Add(s, 230)
	}
	p := NewParser(testTable)
	f.Fuzz(func(t *testing.T, s string, year int) {
		ctx := &Context{}
		if year > MinYear && year < MaxYear {
			ctx.SetYear(year)
		}
		n := utf8.RuneCountInString(s)
		last := 0
		for _, x := range p.Parse(s, ctx) {
			if x.Span.Start < last || x.Span.End <= x.Span.Start || x.Span.End > n {
				t.Fatalf("bad span %v after %d in %d", x.Span, last, n)
			}
			last = x.Span.End
			for _, y := range []int{x.Year, x.EndYear} {
				if y < MinYear || y > MaxYear {
					t.Fatalf("year %d out of range: %+v", y, x)
				}
			}
			for _, c := range x.Candidates {
				if c.Year < MinYear || c.Year > MaxYear {
					t.Fatalf("candidate year %d out of range", c.Year)
				}
			}
		}
	})
}

const benchText = `建兴元年，封亮武乡侯，开府治事。三年春，亮率众南征，其秋悉平。五年，率诸军北驻汉中。六年春，扬声由斜谷道取郿。冬，亮复出散关，围陈仓。七年，亮遣陈式攻武都、阴平。九年，亮复出祁山，以木牛运，粮尽退军。十二年春，亮悉大众由斜谷出，据武功五丈原，与司马宣王对于渭南。其年八月，亮疾病，卒于军，时年五十四。明年，追谥忠武侯。魏正始五年，曹爽率众伐蜀，至兴势而还。后二年，蒋琬卒。延熙十六年春正月，费祎为魏降人郭循所杀。景耀六年冬，魏将邓艾入蜀，后主降。In 208, Cao Cao was defeated at the Red Cliffs; Liu Bang became emperor in 202 BC. Năm 1288, quân Trần đánh bại quân Nguyên. `

func BenchmarkParse(b *testing.B) {
	p := NewParser(DefaultTable())
	text := strings.Repeat(benchText, 8)
	b.SetBytes(int64(len(text)))
	exprs := 0
	for b.Loop() {
		exprs += len(p.Parse(text, &Context{Dynasty: "蜀汉"}))
	}
	b.ReportMetric(float64(exprs)/b.Elapsed().Seconds(), "exprs/s")
}

// 汉元年 is 高祖's count, so the bare years after it are his, not those of
// the 秦 ruler named before.
func TestHanCountSetsTheReign(t *testing.T) {
	ctx := &Context{}
	Parse("秦二世元年秋，陈胜等起蕲。", ctx)
	ts := Parse("汉元年十月，沛公兵遂先诸侯至霸上。", ctx)
	if len(ts) == 0 || ts[0].Year != -205 || !ts[0].Resolved {
		t.Fatalf("汉元年 is 206 BCE (-205): %+v", ts)
	}
	ts = Parse("十二年，十月，高祖已击布军会甀。", ctx)
	if len(ts) == 0 || ts[0].Year != -194 {
		t.Fatalf("高祖十二年 is 195 BCE (-194): %+v", ts)
	}
}

// The years of the fall of 秦 and the Han count: 秦三年 while 二世's
// count is in force is his third year, which 子婴's accession within it
// leaves his; 汉之二年 is the Han count as 史记 writes it.
func TestQinAndHanCounts(t *testing.T) {
	ctx := &Context{}
	Parse("秦二世元年秋七月，陈涉起蕲。", ctx)
	for _, c := range []struct {
		text string
		year int
	}{
		{"秦二年十月，沛公攻胡陵、方与，还守丰。", -207},
		{"秦三年十月，齐将田都畔田荣。", -206},
		{"汉之二年冬，项羽遂北至城阳。", -204},
	} {
		ts := Parse(c.text, ctx)
		if len(ts) == 0 || !ts[0].Resolved || ts[0].Year != c.year {
			t.Errorf("%s: want %d, got %+v", c.text, c.year, ts)
		}
	}
	// In 秦始皇本纪 the bare 三年 after 二世's accession is his, not 始皇's.
	ctx = &Context{}
	if c, ok := ReignCount("秦", []string{"始皇"}); ok {
		ctx.Count, ctx.Own = c, c
	}
	Parse("二世皇帝元年，年二十一。", ctx)
	if ts := Parse("三年，章邯等将其卒围钜鹿。", ctx); len(ts) == 0 || ts[0].Year != -206 {
		t.Errorf("三年 under 二世 is 207 BCE (-206): %+v", ts)
	}
}

// A restart written by its reckoning's name alone while an era is in force
// is the era that continues it (建武 → 建武中元) or the emperor's own
// restart of his count (武帝's 后元), and the bare years after it count
// from there, not from the era before.
func TestRestartUnderAnEra(t *testing.T) {
	ctx := &Context{Dynasty: "西汉"}
	Parse("征和二年，春。", ctx)
	ts := Parse("后元元年春正月，行幸甘泉。", ctx)
	if len(ts) == 0 || ts[0].Year != -87 || !ts[0].Resolved {
		t.Fatalf("后元元年 after 征和 is 88 BCE (-87): %+v", ts)
	}
	ts = Parse("二年春正月，朝诸侯王于甘泉宫。二月丁卯，帝崩。", ctx)
	if len(ts) < 2 || ts[0].Year != -86 || ts[1].Year != -86 {
		t.Fatalf("二年 of 后元 is 87 BCE (-86): %+v", ts)
	}
	ctx = &Context{Dynasty: "东汉"}
	Parse("建武三十年，", ctx)
	ts = Parse("中元元年春正月，东海王彊来朝。二年二月戊戌，帝崩于南宫前殿。", ctx)
	if len(ts) < 2 || ts[0].Year != 56 || ts[0].Era != "建武中元" || ts[1].Year != 57 {
		t.Fatalf("中元 after 建武 is 建武中元 (56), its 二年 57: %+v", ts)
	}
	// With no era in force, 中元年 is no date (孝景's restarts need him named).
	if ts := Parse("中元年，", &Context{}); len(ts) != 0 && ts[0].Resolved {
		t.Fatalf("中元年 with no count in force: %+v", ts)
	}
}

// An era a successor kept to its end is listed for both emperors; it is
// still one year, credited to the one who proclaimed it.
func TestSharedEraIsOneYear(t *testing.T) {
	ts := Parse("元平元年四月，昭帝崩，毋嗣。", &Context{Dynasty: "西汉"})
	if len(ts) == 0 || !ts[0].Resolved || ts[0].Year != -73 || ts[0].Emperor != "昭帝" {
		t.Fatalf("元平元年 is 74 BCE (-73), 昭帝's: %+v", ts)
	}
	if ts := Parse("黄龙元年，", &Context{}); len(ts) == 0 || ts[0].Resolved {
		t.Fatalf("黄龙 of 西汉 or of 孙吴, with nothing to choose by: %+v", ts)
	}
}

// Annals that open with the background in another ruler's years return
// to their own ruler's count at his 元年.
func TestAnnalsReturnToTheirOwnCount(t *testing.T) {
	own, _ := ReignCount("西汉", []string{"文帝"})
	ctx := &Context{Dynasty: "西汉", Count: own, Own: own}
	Parse("孝文皇帝，高祖中子也。高祖十一年，立为代王。十七年秋，高后崩。", ctx)
	ts := Parse("元年冬十月辛亥，皇帝见于高庙。", ctx)
	if len(ts) == 0 || ts[0].Year != -178 {
		t.Fatalf("孝文元年 is 179 BCE (-178): %+v", ts)
	}
	Parse("后元年冬十月，新垣平诈觉。", ctx)
	if ts := Parse("七年夏，六月己亥，帝崩于未央宫。", ctx); len(ts) == 0 || ts[0].Year != -156 {
		t.Fatalf("后七年 is 157 BCE (-156): %+v", ts)
	}
}

// In a ruler's annals, while his count is in force, 後二年 is his 后元's
// second year; elsewhere it is two years after.
func TestOwnRestartInAnnals(t *testing.T) {
	own, _ := ReignCount("西汉", []string{"文帝"})
	ctx := &Context{Dynasty: "西汉", Count: own, Own: own}
	Parse("十七年，得玉杯。", ctx)
	ts := Parse("后二年，上曰：朕既不明。后七年六月己亥，帝崩于未央宫。", ctx)
	if len(ts) < 2 || ts[0].Year != -161 || ts[1].Year != -156 {
		t.Fatalf("文帝后二年 and 后七年 are 162 and 157 BCE: %+v", ts)
	}
	if ts := Parse("后十六年，追尊淮南王。", ctx); len(ts) == 0 || ts[0].Calendar != CalRelative {
		t.Fatalf("no restart ran sixteen years: 后十六年 is sixteen years after: %+v", ts)
	}
	ctx = &Context{Dynasty: "西汉", Count: own}
	Parse("十七年，得玉杯。", ctx)
	if ts := Parse("后二年，卒。", ctx); len(ts) == 0 || ts[0].Calendar != CalRelative {
		t.Fatalf("outside his annals 后二年 is two years after: %+v", ts)
	}
}

// Annals run forward: a year named in a look back (汉元年 in a speech, or
// the era before the reign's) leaves the annals' count in force.
func TestAnnalsLookBackKeepsTheCount(t *testing.T) {
	own, _ := ReignCount("曹魏", []string{"明帝"})
	ctx := &Context{Dynasty: "曹魏", Count: own, Own: own}
	Parse("景初元年春正月壬辰，山茌县言黄龙见。", ctx)
	Parse("诏曰：昔汉元年，高祖入关。", ctx)
	if ts := Parse("二年春正月，诏太尉司马宣王帅众讨辽东。", ctx); len(ts) == 0 || ts[0].Year != 238 {
		t.Fatalf("景初二年 is 238: %+v", ts)
	}
	Parse("初，青龙三年中，寿春农民妻自言为天神所下。", ctx)
	if ts := Parse("三年春正月丁亥，太尉宣王还至河内。", ctx); len(ts) == 0 || ts[0].Year != 239 {
		t.Fatalf("景初三年 is 239, 青龙三年 was recalled: %+v", ts)
	}
	own, _ = ReignCount("西汉", []string{"平帝"})
	ctx = &Context{Dynasty: "西汉", Count: own, Own: own}
	Parse("元始元年春正月，越裳氏重译献白雉。", ctx)
	Parse("追尊元寿二年所立者。", ctx)
	if ts := Parse("三年春，诏有司为皇帝纳采。", ctx); len(ts) == 0 || ts[0].Year != 3 {
		t.Fatalf("元始三年 is 3: %+v", ts)
	}
}

// A bare year past the end of the count in force is no date of it: 孝惠
// reigned seven years, 黄初 seven.
func TestBareYearPastTheCountsEnd(t *testing.T) {
	own, _ := ReignCount("西汉", []string{"惠帝"})
	ctx := &Context{Dynasty: "西汉", Count: own, Own: own}
	if ts := Parse("十二年四月，高祖崩。", ctx); len(ts) > 0 && ts[0].Resolved && ts[0].Year == -182 {
		t.Fatalf("孝惠 had no twelfth year: %+v", ts)
	}
	if ts := Parse("七年秋八月戊寅，帝崩于未央宫。", ctx); len(ts) == 0 || ts[0].Year != -187 {
		t.Fatalf("孝惠七年 is 188 BCE (-187): %+v", ts)
	}
	own, _ = ReignCount("曹魏", []string{"文帝"})
	ctx = &Context{Dynasty: "曹魏", Count: own, Own: own}
	if ts := Parse("后五十年，当有帝王兴于此。", ctx); len(ts) > 0 && ts[0].Resolved && ts[0].Year > 226 {
		t.Fatalf("黄初 ended in 226: %+v", ts)
	}
}

// A year past its era's end keeps the arithmetic but says the era had
// ended; one within the era says nothing.
func TestNotesPastTheEnd(t *testing.T) {
	ts := Parse("建安三十年", nil)
	if len(ts) != 1 || !ts[0].Resolved || ts[0].Year != 225 {
		t.Fatalf("建安三十年 counts on to 225: %+v", ts)
	}
	if len(ts[0].Notes) != 1 || !strings.Contains(ts[0].Notes[0], "ended in 220") || !strings.Contains(ts[0].Notes[0], "25 years") {
		t.Fatalf("建安三十年 should say 建安 ended in 220 after 25 years: %q", ts[0].Notes)
	}
	if ts := Parse("建安十三年", nil); len(ts) != 1 || ts[0].Year != 208 || len(ts[0].Notes) != 0 {
		t.Fatalf("建安十三年 is 208 with no note: %+v", ts)
	}
	ts = Parse("孝惠十二年", nil)
	if len(ts) != 1 || !ts[0].Resolved || len(ts[0].Notes) != 1 || !strings.Contains(ts[0].Notes[0], "188 BCE") {
		t.Fatalf("孝惠十二年 should say his reign ended in 188 BCE: %+v", ts)
	}
	if ts := Parse("孝惠七年", nil); len(ts) != 1 || len(ts[0].Notes) != 0 {
		t.Fatalf("孝惠七年 is within his reign: %+v", ts)
	}
}

// An expression that stays unresolved says why.
func TestNotesWhyUnresolved(t *testing.T) {
	for expr, want := range map[string]string{
		"甲子":    "sexagenary day",
		"甲子年":   "every 60 years",
		"明年":    "no year is known",
		"十二年":   "none is named before it",
		"三月":    "falls in the year in force",
		"建兴十二年": "readings fit equally well",
	} {
		ts := Parse(expr, nil)
		if len(ts) != 1 || ts[0].Resolved {
			t.Errorf("%s should stay unresolved: %+v", expr, ts)
			continue
		}
		if len(ts[0].Notes) == 0 || !strings.Contains(strings.Join(ts[0].Notes, " "), want) {
			t.Errorf("%s: notes %q lack %q", expr, ts[0].Notes, want)
		}
	}
	// With the year in force, the same expressions resolve and need no note.
	ctx := &Context{Dynasty: "蜀汉"}
	ts := Parse("建兴十二年春，明年，三月甲子，", ctx)
	if len(ts) != 3 || !ts[2].Resolved || ts[2].Year != 235 {
		t.Fatalf("in 蜀汉 the three resolve: %+v", ts)
	}
	for _, x := range ts {
		if len(x.Notes) != 0 {
			t.Errorf("%s is placed by the context and needs no note: %q", x.Expr, x.Notes)
		}
	}
}
