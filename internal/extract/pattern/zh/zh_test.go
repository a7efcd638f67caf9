package zh

import (
	"context"
	"testing"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/schema"
)

func run1(t *testing.T, text string, doc *extract.DocContext) extract.Result {
	t.Helper()
	res, err := New().Extract(context.Background(), extract.Input{Text: text, Lang: "lzh", Schema: schema.MustLoad(schema.ZhHistory), Doc: doc})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, text, res)
	return res
}

// checkResult asserts the invariants every result keeps.
func checkResult(t testing.TB, text string, res extract.Result) {
	t.Helper()
	rs := []rune(text)
	in := func(e extract.Entity) bool {
		return e.Start >= 0 && e.End <= len(rs) && e.Start < e.End && string(rs[e.Start:e.End]) == e.Text
	}
	for _, e := range res.Entities {
		if !in(e) {
			t.Fatalf("bad entity %+v in %q", e, text)
		}
	}
	for _, tr := range res.Triples {
		if !in(tr.Head) || !in(tr.Tail) {
			t.Fatalf("bad triple ends %+v in %q", tr, text)
		}
		ev := tr.Evidence
		if ev.Start < 0 || ev.End > len(rs) || ev.Start > tr.Head.Start || ev.Start > tr.Tail.Start || ev.End < tr.Head.End || ev.End < tr.Tail.End {
			t.Fatalf("evidence %v does not hold %+v in %q", ev, tr, text)
		}
	}
}

func hasEnt(res extract.Result, text, typ string, start int) bool {
	for _, e := range res.Entities {
		if e.Text == text && e.Type == typ && (start < 0 || e.Start == start) {
			return true
		}
	}
	return false
}

func hasTriple(res extract.Result, head, rel, tail string) *extract.Triple {
	for i, tr := range res.Triples {
		if tr.Head.Canonical() == head && tr.Relation == rel && tr.Tail.Canonical() == tail {
			return &res.Triples[i]
		}
	}
	return nil
}

func wantEnt(t *testing.T, res extract.Result, text, typ string, start int) {
	t.Helper()
	if !hasEnt(res, text, typ, start) {
		t.Errorf("missing %s %s at %d; got %+v", typ, text, start, res.Entities)
	}
}

func wantTriple(t *testing.T, res extract.Result, head, rel, tail string) *extract.Triple {
	t.Helper()
	tr := hasTriple(res, head, rel, tail)
	if tr == nil {
		t.Errorf("missing %s -%s-> %s; got %v", head, rel, tail, triples(res))
	}
	return tr
}

func triples(res extract.Result) []string {
	var out []string
	for _, tr := range res.Triples {
		out = append(out, tr.Head.Canonical()+" -"+tr.Relation+"-> "+tr.Tail.Canonical())
	}
	return out
}

func TestOpeningFormula(t *testing.T) {
	res := run1(t, "诸葛亮字孔明，琅邪阳都人也。", nil)
	wantEnt(t, res, "诸葛亮", tPer, 0)
	wantEnt(t, res, "孔明", tPer, 4)
	wantEnt(t, res, "琅邪", tLoc, 7)
	wantEnt(t, res, "阳都", tLoc, 9)
	if tr := wantTriple(t, res, "诸葛亮", "别称", "孔明"); tr != nil && tr.AliasKind != "字" {
		t.Errorf("alias kind %q", tr.AliasKind)
	}
	wantTriple(t, res, "诸葛亮", "籍贯", "琅邪")
	wantTriple(t, res, "诸葛亮", "籍贯", "阳都")
	if tr := hasTriple(res, "诸葛亮", "籍贯", "琅邪"); tr != nil && (tr.Evidence.Start != 0 || tr.Evidence.End != 14) {
		t.Errorf("evidence %v", tr.Evidence)
	}

	res = run1(t, "赵云字子龙，常山真定人也。", nil)
	wantTriple(t, res, "赵云", "别称", "子龙")
	wantTriple(t, res, "赵云", "籍贯", "常山")
	wantTriple(t, res, "赵云", "籍贯", "真定")

	res = run1(t, "曹操，字孟德，小字阿瞒，沛国谯人也。", nil)
	wantTriple(t, res, "曹操", "别称", "孟德")
	if tr := wantTriple(t, res, "曹操", "别称", "阿瞒"); tr != nil && tr.AliasKind != "小字" {
		t.Errorf("alias kind %q", tr.AliasKind)
	}
	wantTriple(t, res, "曹操", "籍贯", "沛国")
	wantTriple(t, res, "曹操", "籍贯", "谯")
}

func TestAppointment(t *testing.T) {
	res := run1(t, "曹公表孙权为讨虏将军，领会稽太守。", nil)
	wantEnt(t, res, "讨虏将军", tOff, 6)
	wantTriple(t, res, "孙权", "任官", "讨虏将军")
	wantEnt(t, res, "会稽", tLoc, 12)
	wantEnt(t, res, "太守", tOff, 14)
	wantTriple(t, res, "孙权", "任官", "太守")
	wantTriple(t, res, "孙权", "辖", "会稽")

	res = run1(t, "以周瑜为建威中郎将。", nil)
	wantTriple(t, res, "周瑜", "任官", "建威中郎将")

	res = run1(t, "刘备为豫州牧。", nil)
	wantEnt(t, res, "豫州", tLoc, 3)
	wantEnt(t, res, "牧", tOff, 5)
	wantTriple(t, res, "刘备", "任官", "牧")
	wantTriple(t, res, "刘备", "辖", "豫州")

	res = run1(t, "时丞相诸葛亮出屯汉中。", nil)
	wantTriple(t, res, "诸葛亮", "任官", "丞相")
	wantTriple(t, res, "诸葛亮", "占", "汉中")
}

func TestEnfeoffment(t *testing.T) {
	res := run1(t, "关羽封汉寿亭侯。", nil)
	wantEnt(t, res, "汉寿亭侯", tTitle, 3)
	wantTriple(t, res, "关羽", "封爵", "汉寿亭侯")

	res = run1(t, "诸葛亮封武乡侯，领益州牧。", nil)
	wantTriple(t, res, "诸葛亮", "封爵", "武乡侯")
	wantTriple(t, res, "诸葛亮", "辖", "益州")

	res = run1(t, "曹丕进封魏王。", nil)
	wantEnt(t, res, "魏王", tTitle, 4)
	wantTriple(t, res, "曹丕", "封爵", "魏王")
}

func TestKinship(t *testing.T) {
	res := run1(t, "孙坚子孙策、孙权。", nil)
	wantTriple(t, res, "孙坚", "子女", "孙策")

	res = run1(t, "刘备卒，子刘禅嗣。", nil)
	wantTriple(t, res, "刘备", "子女", "刘禅")
	wantTriple(t, res, "刘备", "更代", "刘禅")

	res = run1(t, "孙策弟孙权。", nil)
	wantTriple(t, res, "孙策", "同胞", "孙权")

	res = run1(t, "诸葛瞻，诸葛亮之子也。", nil)
	wantTriple(t, res, "诸葛亮", "子女", "诸葛瞻")

	// A child counted by birth order, with or without 也.
	res = run1(t, "孙休字子烈，孙权第六子。年十三，从中书郎射慈受学。", nil)
	wantTriple(t, res, "孙权", "子女", "孙休")
	res = run1(t, "孙亮字子明，孙权少子也。", nil)
	wantTriple(t, res, "孙权", "子女", "孙亮")

	res = run1(t, "姜维父冏，为郡功曹。", nil)
	wantEnt(t, res, "冏", tPer, 3)
	wantTriple(t, res, "姜冏", "子女", "姜维")
}

func TestDeathAndTime(t *testing.T) {
	res := run1(t, "建兴十二年八月，诸葛亮卒于五丈原，时年五十四。", nil)
	wantEnt(t, res, "建兴十二年八月", tTime, 0)
	wantTriple(t, res, "诸葛亮", "死亡时间", "建兴十二年八月")
	wantTriple(t, res, "诸葛亮", "卒于", "五丈原")

	res = run1(t, "黄初元年，曹丕即皇帝位。", nil)
	wantEnt(t, res, "黄初元年", tTime, 0)
	wantTriple(t, res, "曹丕", "开始时间", "黄初元年")

	res = run1(t, "是岁，孙策薨。", nil)
	wantTriple(t, res, "孙策", "死亡时间", "是岁")
}

func TestMovementAndWar(t *testing.T) {
	res := run1(t, "刘备奔荆州，依刘表。", nil)
	wantTriple(t, res, "刘备", "逃奔", "荆州")
	wantTriple(t, res, "刘备", "积极态度倾向", "刘表")

	res = run1(t, "曹操攻下邳，斩吕布。", nil)
	wantTriple(t, res, "曹操", "攻", "下邳")
	wantTriple(t, res, "曹操", "消极态度倾向", "吕布")

	res = run1(t, "孙权遣吕蒙袭荆州。", nil)
	wantTriple(t, res, "吕蒙", "攻", "荆州")
	wantTriple(t, res, "孙权", "下级", "吕蒙")

	res = run1(t, "赵云从刘备至长安。", nil)
	wantTriple(t, res, "刘备", "下级", "赵云")
	wantTriple(t, res, "赵云", "访", "长安")

	res = run1(t, "马超奔汉中，依张鲁。", nil)
	wantTriple(t, res, "马超", "逃奔", "汉中")

	res = run1(t, "刘表屯襄阳。", nil)
	wantTriple(t, res, "刘表", "占", "襄阳")
	res = run1(t, "刘表守襄阳。", nil)
	wantTriple(t, res, "刘表", "辖", "襄阳")

	res = run1(t, "曹操伐匈奴。", nil)
	wantEnt(t, res, "匈奴", tGrp, 3)
	wantTriple(t, res, "曹操", "攻", "匈奴")
}

func TestWorks(t *testing.T) {
	res := run1(t, "陈寿撰《三国志》六十五篇。", nil)
	wantEnt(t, res, "三国志", tBook, 4)
	wantEnt(t, res, "陈寿", tPer, 0)
}

func TestNoFalsePersons(t *testing.T) {
	for _, s := range []string{
		"于是天下大乱，以为不可。",
		"何以知之？王师至矣。",
		"方今天下，周公之道不行。",
		"陈兵于野，许之。",
		"高祖初起，安定未平。",
	} {
		res := run1(t, s, nil)
		for _, e := range res.Entities {
			if e.Type == tPer && e.Text != "周公" && e.Text != "高祖" {
				t.Errorf("%q: false person %q", s, e.Text)
			}
		}
	}
}

func TestShortNames(t *testing.T) {
	doc := extract.NewDocContext("d", "", nil)
	run1(t, "姜维字伯约，天水冀人也。", doc)
	if doc.Names["维"] != "姜维" {
		t.Fatalf("names: %v", doc.Names)
	}
	res := run1(t, "维率众出陇西。", doc)
	var got *extract.Entity
	for i, e := range res.Entities {
		if e.Text == "维" {
			got = &res.Entities[i]
		}
	}
	if got == nil || got.Name != "姜维" || got.Start != 0 {
		t.Fatalf("short name not resolved: %+v", res.Entities)
	}
	wantTriple(t, res, "姜维", "访", "陇西")
	// Inside a word the given name is left alone.
	res = run1(t, "思维之道。", doc)
	for _, e := range res.Entities {
		if e.Type == tPer {
			t.Errorf("false short name %+v", e)
		}
	}
}

func TestTitleSeed(t *testing.T) {
	doc := extract.NewDocContext("d", "诸葛亮传", nil)
	res := run1(t, "亮躬耕陇亩。亮曰：不可。", doc)
	n := 0
	for _, e := range res.Entities {
		if e.Text == "亮" && e.Name == "诸葛亮" {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("want 2 resolved 亮, got %+v", res.Entities)
	}
	doc = extract.NewDocContext("d", "先主传", nil)
	run1(t, "先主曰：善。", doc)
	if doc.Names["先主"] != "刘备" {
		t.Errorf("先主 not seeded: %v", doc.Names)
	}
}

func TestSchemaFiltering(t *testing.T) {
	sc, err := schema.Parse([]byte("name: tiny\nentity_types: [{name: 人物}, {name: 职官}, {name: 地点}]\nrelation_types:\n  - {name: 任官, domain: [人物], range: [职官]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	text := "诸葛亮字孔明，琅邪阳都人也。刘备以诸葛亮为丞相。"
	res, err := New().Extract(context.Background(), extract.Input{Text: text, Schema: sc})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, text, res)
	if len(res.Triples) == 0 {
		t.Fatal("no triples")
	}
	for _, tr := range res.Triples {
		if tr.Relation != "任官" {
			t.Errorf("schema let through %s", tr.Relation)
		}
	}
}

func TestDeduplicated(t *testing.T) {
	res := run1(t, "孙权为讨虏将军。孙权为讨虏将军。", nil)
	seen := map[[3]int]bool{}
	for _, tr := range res.Triples {
		k := [3]int{tr.Head.Start, tr.Tail.Start, len(tr.Relation)}
		if seen[k] {
			t.Errorf("duplicate %v", tr)
		}
		seen[k] = true
	}
	if len(res.Triples) != 2 {
		t.Errorf("want a triple per sentence, got %v", triples(res))
	}
}

// 卒 is also a soldier (其卒, 楚卒) and "in the end" before a verb (卒亡其国):
// neither is a death.
func TestSoldiersAndInTheEndAreNotDeaths(t *testing.T) {
	res := run1(t, "三年，章邯等将其卒围钜鹿，楚上将军项羽将楚卒往救钜鹿。", nil)
	noTriple(t, res, "章邯", "死亡时间", "三年")
	noTriple(t, res, "项羽", "死亡时间", "三年")
	res = run1(t, "项羽自矜功伐，欲以力征经营天下，五年卒亡其国。", nil)
	noTriple(t, res, "项羽", "死亡时间", "五年")
	res = run1(t, "建安二十五年，曹操卒，谥曰武王。", nil)
	wantTriple(t, res, "曹操", "死亡时间", "建安二十五年")
	res = run1(t, "延熙元年，蒋琬卒官。", nil)
	wantTriple(t, res, "蒋琬", "死亡时间", "延熙元年")
}

// 谓之X gives X to the one 之 stands for, never to the caller.
func TestCalledIsNotTheCaller(t *testing.T) {
	res := run1(t, "故衡山王吴芮从百粤之兵，以佐诸侯，诛暴秦，有大功，诸侯立以为王。项羽侵夺之地，谓之番君。其以长沙立番君芮为长沙王。", nil)
	noTriple(t, res, "项羽", "别称", "番君")
	res = run1(t, "马超勇冠三军，时人谓之马孟起。", nil)
	wantTriple(t, res, "马超", "别称", "马孟起")
}

// A short form that ends the full name is his given name; one that does
// not is a title on his surname.
func TestShortFormKinds(t *testing.T) {
	res := run1(t, "孙晟攻寿春。晟遂还。", nil)
	if tr := wantTriple(t, res, "孙晟", "别称", "晟"); tr != nil && tr.AliasKind != "名" {
		t.Errorf("晟: alias kind %q, want 名", tr.AliasKind)
	}
}

// A posthumous name after a second death in the chain is not the first
// dead man's.
func TestPosthumousNameOfTheSecondDeath(t *testing.T) {
	res := run1(t, "项籍死，上以鋗有功，故德芮，徙为长沙王，都临湘，一年薨，谥曰文王。", nil)
	noTriple(t, res, "项籍", "别称", "文王")
	res = run1(t, "建安二十五年，曹操薨，谥曰武王。", nil)
	wantTriple(t, res, "曹操", "别称", "武王")
}

// A death after a name and a kinship word is the kin's.
func TestKinDies(t *testing.T) {
	res := run1(t, "孙权，字仲谋。七年，权母吴氏薨。", nil)
	noTriple(t, res, "孙权", "死亡时间", "七年")
	wantTriple(t, res, "吴氏", "死亡时间", "七年")
	res = run1(t, "九月，王莽母功显君死。", nil)
	noTriple(t, res, "王莽", "死亡时间", "九月")
	res = run1(t, "五年，孙策薨。", nil)
	wantTriple(t, res, "孙策", "死亡时间", "五年")
}

// A ruler's accession opening a sentence dates what follows; it does not
// make the ruler its subject.
func TestAccessionDatesTheClausesAfter(t *testing.T) {
	res := run1(t, "刘俊，字子长，南阳人也。世祖即位，以俊为侍中。七年，卒。", nil)
	noTriple(t, res, "世祖", "死亡时间", "七年")
	res = run1(t, "刘廙，字恭嗣，南阳安众人也。文帝即王位，为侍中，赐爵关内侯。黄初二年卒。", nil)
	noTriple(t, res, "文帝", "死亡时间", "黄初二年")
	noTriple(t, res, "文帝", "任官", "侍中")
	wantTriple(t, res, "刘廙", "任官", "侍中")
}

// A genealogy names an ancestor, not a new subject: the father named next
// is the subject's.
func TestAncestorIsNotTheSubject(t *testing.T) {
	res := run1(t, "诸葛亮字孔明，琅邪阳都人也。汉司隶校尉诸葛丰后也。父珪，字君贡，汉末为太山郡丞。", nil)
	wantTriple(t, res, "诸葛珪", "子女", "诸葛亮")
	noTriple(t, res, "诸葛珪", "子女", "诸葛丰")
}

func TestDeathInCampTakesTheCamp(t *testing.T) {
	res := run1(t, "诸葛亮字孔明，琅邪阳都人也。十二年春，亮悉大众由斜谷出，以流马运，据武功五丈原，与司马宣王对於渭南。相持百馀日。其年八月，亮疾病，卒于军，时年五十四。", inChapter("三国志/蜀书/诸葛亮传"))
	wantTriple(t, res, "诸葛亮", "卒于", "五丈原")
	noTriple(t, res, "诸葛亮", "卒于", "斜谷")
}

func TestBattlesAreEvents(t *testing.T) {
	res := run1(t, "建安五年，太祖与袁绍相拒於官渡。", inChapter("三国志/魏书/武帝纪"))
	wantTriple(t, res, "官渡之战", "发生地点", "官渡")
	wantTriple(t, res, "官渡之战", "发生时间", "建安五年")
	wantTriple(t, res, "袁绍", "参与", "官渡之战")
	res = run1(t, "权遣周瑜、程普等水军数万，与先主并力，与曹公战於赤壁，大破之。", inChapter("三国志/蜀书/先主传"))
	wantTriple(t, res, "赤壁之战", "发生地点", "赤壁")
	wantTriple(t, res, "曹操", "败", "赤壁之战")
	res = run1(t, "瑜、普为左右督，各领万人，与备俱进，遇於赤壁，大破曹公军。", inChapter("三国志/吴书/周瑜鲁肃吕蒙传"))
	wantTriple(t, res, "曹操", "败", "赤壁之战")
	res = run1(t, "武皇帝克袁绍於官渡。", nil)
	wantTriple(t, res, "武皇帝", "胜", "官渡之战")
	wantTriple(t, res, "袁绍", "败", "官渡之战")
	res = run1(t, "袁绍不听，遂败于官渡。", nil)
	wantTriple(t, res, "袁绍", "败", "官渡之战")
	res = run1(t, "十三年，公至赤壁，与刘备战，不利。", inChapter("三国志/魏书/武帝纪"))
	wantTriple(t, res, "赤壁之战", "发生时间", "十三年")
	wantTriple(t, res, "刘备", "参与", "赤壁之战")
	res = run1(t, "建安中，随周瑜拒曹公於赤壁，建策火攻。", nil)
	noTriple(t, res, "赤壁之战", "发生时间", "建安")
	res = run1(t, "五年，曹操与袁绍相持于官渡，奇袭乌巢，焚其辎重，大破绍军。", nil)
	wantTriple(t, res, "曹操", "胜", "官渡之战")
	wantTriple(t, res, "袁绍", "败", "官渡之战")
	// A rout with the place after its object, no 於 before it.
	res = run1(t, "项羽大破秦军巨鹿下，虏王离，走章邯。", inChapter("汉书/纪/高帝纪上"))
	wantTriple(t, res, "项羽", "胜", "巨鹿之战")
	wantTriple(t, res, "秦军", "败", "巨鹿之战")
	res = run1(t, "章邯引兵击赵，大破之邯郸城下。", nil)
	wantTriple(t, res, "章邯", "胜", "邯郸之战")
	noEvent(t, run1(t, "项羽引兵西屠咸阳，还军霸上。", nil), "no rout, no battle")
	res = run1(t, "官渡之役，绣力战有功。", nil)
	wantTriple(t, res, "官渡之战", "发生地点", "官渡")
	noEvent(t, run1(t, "遣使者迎之於洛阳。", nil), "a meeting is not a battle")
}

// noEvent fails the test for every statement of res about an event.
func noEvent(t *testing.T, res extract.Result, why string) {
	t.Helper()
	for _, tr := range res.Triples {
		if tr.Tail.Type == "事件" || tr.Head.Type == "事件" {
			t.Errorf("%s: %v", why, tr)
		}
	}
}

func TestNamedEventsFromTheirPhrases(t *testing.T) {
	res := run1(t, "项羽至鸿门，欲击沛公。", nil)
	wantTriple(t, res, "项羽", "参与", "鸿门宴")
	wantTriple(t, res, "鸿门宴", "发生地点", "鸿门")
	res = run1(t, "樊宏谓刘縯曰：昔鸿门之会，范增举玦以示项羽。", nil)
	noTriple(t, res, "樊宏", "参与", "鸿门宴")
	res = run1(t, "文帝曰：吾居代时，吾尚食监高袪数为我言赵将李齐之贤，战於钜鹿下。", nil)
	noTriple(t, res, "文帝", "参与", "巨鹿之战")
	// A speaker's words date the speech, not the event; so does its end.
	for _, text := range []string{"中平元年，黄巾贼起，中常侍吕强言于帝曰：党锢久积，人情多怨。", "中平元年，黄巾起，解党锢。"} {
		res = run1(t, text, inChapter("后汉书/列传/宦者列传"))
		noTriple(t, res, "党锢之祸", "发生时间", "中平元年")
	}
	res = run1(t, "灵帝初，复遭党锢十余岁。", nil)
	found := false
	for _, e := range res.Entities {
		if e.Type == "事件" && e.Canonical() == "党锢之祸" && e.Text == "遭党锢" {
			found = true
		}
	}
	if !found {
		t.Errorf("遭党锢 is a mention of 党锢之祸: %+v", res.Entities)
	}
	res = run1(t, "章邯围赵於钜鹿，项羽战於钜鹿下，大破之。", nil)
	for _, e := range res.Entities {
		if e.Type == "事件" && e.Canonical() != "巨鹿之战" {
			t.Errorf("a battle at 钜鹿 read as %s", e.Canonical())
		}
	}
}

// A named event belongs to its time: 后汉书's 救钜鹿 is 王郎's men relieving
// the city in 23, not 巨鹿之战, though 史记 tells that one in the same words.
func TestNamedEventsKeepToTheirTime(t *testing.T) {
	const fight = "郎遣将倪宏、刘奉率数万人救钜鹿，光武逆战于南䜌。"
	for path, want := range map[string]bool{
		"后汉书/本纪/光武帝纪上": false,
		"史记/十二本纪/项羽本纪": true,
		"汉书/传/陈胜项籍传":   true,
	} {
		res := run1(t, fight, inChapter(path))
		found := false
		for _, e := range res.Entities {
			found = found || e.Type == "事件" && e.Canonical() == "巨鹿之战"
		}
		if found != want {
			t.Errorf("%s: 巨鹿之战 read %v, want %v", path, found, want)
		}
	}
}

func TestKinNameBeforeAnAdverb(t *testing.T) {
	res := run1(t, "姜维字伯约，天水冀人也。少孤，与母居。好郑氏学。仕郡上计掾，州辟为从事。以父冏昔为郡功曹，值羌、戎叛乱，身卫郡将，没于战场，赐维官中郎。", inChapter("三国志/蜀书/姜维传"))
	wantTriple(t, res, "姜冏", "子女", "姜维")
}

func TestFathersStandingIsNoName(t *testing.T) {
	res := run1(t, "宋均字叔庠，南阳安众人也。父伯，建武初为五官中郎将。均以父任为郎，时年十五。", inChapter("后汉书/列传/宋均传"))
	noTriple(t, res, "任", "子女", "宋均")
}

func TestUnnamedDeathInOwnChapter(t *testing.T) {
	res := run1(t, "张衡字平子，南阳西鄂人也。衡少善属文。年六十二，永和四年卒。", inChapter("后汉书/列传/张衡列传"))
	wantTriple(t, res, "张衡", "死亡时间", "永和四年")
}

// Those a killing puts to death at a place died there; they did not visit it.
func TestKilledAtAPlaceDiedThere(t *testing.T) {
	res := run1(t, "关羽字云长，河东解人也。权遣将逆击羽，斩羽及子平于临沮。", inChapter("三国志/蜀书/关张马黄赵传"))
	wantTriple(t, res, "关羽", "卒于", "临沮")
	noTriple(t, res, "关羽", "访", "临沮")
}

// A ruler's name before his consort's title says whose she is: the
// consort is the subject, and her father, named in 某之长女也, is not.
func TestConsortIsTheSubjectAfterHerRulersName(t *testing.T) {
	res := run1(t, "后主敬哀皇后，车骑将军张飞长女也。章武元年，纳为太子妃。建兴元年，立为皇后。十五年薨，葬南陵。", inChapter("三国志/蜀书/二主妃子传"))
	wantTriple(t, res, "张飞", "子女", "敬哀皇后")
	wantTriple(t, res, "敬哀皇后", "死亡时间", "十五年")
	noTriple(t, res, "张飞", "死亡时间", "十五年")
	noTriple(t, res, "后主", "死亡时间", "十五年")
}

// An heir named at the opening of a paragraph, after the subject's death,
// is the subject's son, not that of the one the sentence before names.
func TestHeirOpeningAParagraphIsTheSubjects(t *testing.T) {
	doc := inChapter("三国志/魏书/荀彧荀攸贾诩传")
	doc.Life = "荀彧"
	res := run1(t, "荀彧字文若，颍川颍阴人也。彧疾留寿春，以忧薨，时年五十。谥曰敬侯。明年，太祖遂为魏公矣。\n子恽，嗣侯，官至虎贲中郎将。", doc)
	noTriple(t, res, "曹操", "子女", "荀恽")
	wantTriple(t, res, "荀彧", "子女", "荀恽")
}

// A paragraph of sons after the subject's posthumous title is his, even
// where a digression has told another man's life before.
func TestSonsAfterTheSubjectsTitleAreHis(t *testing.T) {
	res := run1(t, "马援字文渊，扶风茂陵人也。建初三年，肃宗使五官中郎将持节追策，谥援曰忠成侯。\n四子：廖、防、光、客卿。", inChapter("后汉书/列传/马援列传"))
	for _, son := range []string{"马廖", "马防", "马光", "马客卿"} {
		wantTriple(t, res, "马援", "子女", son)
	}
	noTriple(t, res, "刘炟", "子女", "马廖")
}

// An heir or a son named after a ruler whom the text calls by his title is
// the chapter subject's, where the ruler is not the subject: the sentence
// opens on him, or he inherits after a bare 薨.
func TestHeirsAfterARulersTitleAreTheSubjects(t *testing.T) {
	res := run1(t, "任峻字伯达，河南中牟人也。建安九年薨，太祖流涕者久之。子先嗣。", inChapter("三国志/魏书/任苏杜郑仓传"))
	wantTriple(t, res, "任峻", "子女", "任先")
	noTriple(t, res, "曹操", "子女", "先")
	res = run1(t, "庞淯字子异，酒泉表氏人也。太祖闻之，辟为掾属。文帝践阼，拜驸马都尉，迁西海太守。薨，子曾嗣。", inChapter("三国志/魏书/二李臧文吕许典二庞阎传"))
	wantTriple(t, res, "庞淯", "子女", "庞曾")
	noTriple(t, res, "曹操", "子女", "曾")
	noTriple(t, res, "曹丕", "子女", "曾")
	res = run1(t, "夏侯渊字妙才，惇族弟也。渊妻，太祖内妹。长子衡，尚太祖弟海阳哀侯女，恩宠特隆。", inChapter("三国志/魏书/诸夏侯曹传"))
	wantTriple(t, res, "夏侯渊", "子女", "夏侯衡")
	noTriple(t, res, "曹操", "子女", "衡")
	// A ruler's own son after his death (崩) stays his.
	res = run1(t, "太祖崩，子丕嗣。", inChapter("三国志/魏书/武帝纪"))
	wantTriple(t, res, "曹操", "子女", "曹丕")
}

// A father named by one character bears his son's surname, though the
// chapter knows that character as another man's name.
func TestFatherTakesTheFamilysSurname(t *testing.T) {
	res := run1(t, "曹操征荆州，操军败。\n凌统字公绩，吴郡馀杭人也。父操，轻侠有胆气。", inChapter("三国志/吴书/程黄韩蒋周陈董甘凌徐潘丁传"))
	wantTriple(t, res, "凌操", "子女", "凌统")
	noTriple(t, res, "曹操", "子女", "凌统")
}

// Words after a kin word that are no name: 子妇 (a daughter-in-law), 世子仍
// (the heir still …), 与世子居守 (stayed to guard with the heir).
func TestKinWordsBeforeVerbsNameNoOne(t *testing.T) {
	for _, text := range []string{
		"权从兄豫章太守贲，女为曹公子妇，及曹公破荆州，威震南土。",
		"太祖征并州，留琰傅文帝於邺。世子仍出田猎，变易服乘。",
		"太祖征伐，常令范及邴原留，与世子居守。",
	} {
		res := run1(t, text, inChapter("三国志/魏书/崔毛徐何邢鲍司马传"))
		for _, tr := range res.Triples {
			if tr.Relation == "子女" {
				if n := []rune(tr.Tail.Canonical()); len(n) == 1 {
					t.Errorf("%s: a son %s", text, tr.Tail.Canonical())
				}
			}
		}
	}
}

// 今 after a kin word is "now", not a kinsman's name: 祖今年老 says 黄祖 is
// old now, and gives 甘宁 no grandfather called 今.
func TestNowAfterAKinWordIsNoName(t *testing.T) {
	doc := extract.NewDocContext("d", "甘宁传", nil)
	run1(t, "甘宁字兴霸，巴郡临江人也。", doc)
	res := run1(t, "图之之计，宜先取黄祖。祖今年老，昏耄已甚。弟今议自赦。", doc)
	for _, e := range res.Entities {
		if e.Text == "今" {
			t.Fatalf("今 read as a name: %+v", res.Entities)
		}
	}
}

// 为 before an office is "became" unless the words after it make it "by"
// or "for": 为太守所杀, 为义帝发丧.
func TestForOrByAnOfficeIsNoOffice(t *testing.T) {
	res := run1(t, "周瑜为太守所杀。", nil)
	noTriple(t, res, "周瑜", "任官", "太守")
	res = run1(t, "周瑜为太守，封侯。", nil)
	wantTriple(t, res, "周瑜", "任官", "太守")
}

// 聘 marries only a woman or one made a wife; sending an envoy to a man
// is no marriage.
func TestBetrothalIsNotAnEmbassy(t *testing.T) {
	res := run1(t, "十二月，孙权使太中大夫郑泉聘刘备于白帝，始复通也。", nil)
	noTriple(t, res, "郑泉", "婚恋", "刘备")
	noTriple(t, res, "孙权", "婚恋", "刘备")
	res = run1(t, "孙坚娶吴氏。", nil)
	wantTriple(t, res, "孙坚", "婚恋", "吴氏")
}
