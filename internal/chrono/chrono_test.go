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
