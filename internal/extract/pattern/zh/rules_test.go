package zh

import (
	"testing"

	"github.com/annals-project/annals/internal/extract"
)

// Tests for the rule families that read relations across clauses, object
// control, kinship, hierarchy, movement, war, aliases, works and names.
// Every sentence is written for the test about Han and Three Kingdoms
// figures.

func noTriple(t *testing.T, res extract.Result, head, rel, tail string) {
	t.Helper()
	if hasTriple(res, head, rel, tail) != nil {
		t.Errorf("unexpected %s -%s-> %s; got %v", head, rel, tail, triples(res))
	}
}

func noEnt(t *testing.T, res extract.Result, text, typ string) {
	t.Helper()
	if hasEnt(res, text, typ, -1) {
		t.Errorf("unexpected %s %s; got %+v", typ, text, res.Entities)
	}
}

func TestSubjectCarry(t *testing.T) {
	// The subject named once governs the clauses and sentences after it.
	res := run1(t, "诸葛亮字孔明，琅邪阳都人也。初为军师将军，后拜丞相，封武乡侯。", nil)
	wantTriple(t, res, "诸葛亮", "任官", "军师将军")
	wantTriple(t, res, "诸葛亮", "任官", "丞相")
	wantTriple(t, res, "诸葛亮", "封爵", "武乡侯")
	if tr := hasTriple(res, "诸葛亮", "任官", "丞相"); tr != nil && (tr.Evidence.Start != 0 || tr.Evidence.End < tr.Tail.End) {
		t.Errorf("evidence %v should reach back to the subject", tr.Evidence)
	}

	// A new subject takes over.
	res = run1(t, "孙策卒。张昭为长史，辅孙权。", nil)
	wantTriple(t, res, "张昭", "任官", "长史")
	noTriple(t, res, "孙策", "任官", "长史")

	// A sentence that opens with a word that is not read breaks the chain.
	res = run1(t, "刘备卒。群臣为将军。", nil)
	noTriple(t, res, "刘备", "任官", "将军")

	// An edict's clause belongs to the throne, not to the last man named.
	res = run1(t, "马超奔汉中。诏拜将军。", nil)
	noTriple(t, res, "马超", "任官", "将军")

	// Speech does not carry the subject.
	res = run1(t, "刘备谓诸葛亮曰：「拜将军。」", nil)
	noTriple(t, res, "刘备", "任官", "将军")
}

func TestObjectControl(t *testing.T) {
	// 召X，拜Y: the office goes to the man summoned.
	res := run1(t, "孙权召陆逊，拜偏将军。", nil)
	wantTriple(t, res, "陆逊", "任官", "偏将军")
	noTriple(t, res, "孙权", "任官", "偏将军")

	// 以X为Y: X holds it, and the one who appointed him was his superior.
	res = run1(t, "曹公以张辽为中郎将。", nil)
	wantTriple(t, res, "张辽", "任官", "中郎将")
	wantTriple(t, res, "曹公", "下级", "张辽")
	noTriple(t, res, "曹公", "任官", "中郎将")

	// 表X为Y: recommended and appointed.
	res = run1(t, "曹操表刘备为豫州牧。", nil)
	wantTriple(t, res, "刘备", "任官", "牧")
	wantTriple(t, res, "刘备", "辖", "豫州")
	wantTriple(t, res, "曹操", "积极态度倾向", "刘备")

	// 拜X Y: the man between the verb and the office.
	res = run1(t, "拜张辽征东大将军。", nil)
	wantEnt(t, res, "征东大将军", tOff, 3)
	wantTriple(t, res, "张辽", "任官", "征东大将军")

	// A clause of offices only belongs to the man named before it.
	res = run1(t, "子宽，大将军、长乐郡公。宽兄谊，开府、资中郡公。", nil)
	wantTriple(t, res, "宽", "任官", "大将军")
	wantTriple(t, res, "宽", "封爵", "长乐郡公")
	wantTriple(t, res, "谊", "任官", "开府")
	noTriple(t, res, "宽", "任官", "开府")

	// An office and title before a name are his (太师、大冢宰、晋公护).
	res = run1(t, "丞相、武乡侯诸葛亮出屯汉中。", nil)
	wantTriple(t, res, "诸葛亮", "任官", "丞相")
	wantTriple(t, res, "诸葛亮", "封爵", "武乡侯")
}

func TestKinshipFamilies(t *testing.T) {
	// The son of the man whose death the clause before tells bears his
	// surname.
	res := run1(t, "孙坚卒，子策嗣。", nil)
	wantTriple(t, res, "孙坚", "子女", "孙策")
	wantTriple(t, res, "孙坚", "更代", "孙策")
	// A title takes no surname: 愍公, not 丁愍公.
	res = run1(t, "丁公申卒，子愍公嗣。", nil)
	if tr := hasTriple(res, "丁公申", "子女", "丁愍公"); tr != nil {
		t.Errorf("a title given a surname: %v", triples(res))
	}

	res = run1(t, "刘表二子：琦、琮。", nil)
	wantTriple(t, res, "刘表", "子女", "刘琦")
	wantTriple(t, res, "刘表", "子女", "刘琮")
	wantTriple(t, res, "刘琦", "同胞", "刘琮")

	res = run1(t, "曹操生曹丕、曹植。", nil)
	wantTriple(t, res, "曹操", "子女", "曹丕")
	wantTriple(t, res, "曹操", "子女", "曹植")

	// Every son of the list belongs to the father, not to his brother.
	res = run1(t, "袁绍长子谭，次子熙，少子尚。", nil)
	wantTriple(t, res, "袁绍", "子女", "袁谭")
	wantTriple(t, res, "袁绍", "子女", "袁熙")
	wantTriple(t, res, "袁绍", "子女", "袁尚")
	noTriple(t, res, "袁熙", "子女", "袁尚")

	res = run1(t, "刘禅，字公嗣，刘备子也。", nil)
	wantTriple(t, res, "刘备", "子女", "刘禅")

	// X父Y: Y is the father.
	res = run1(t, "关羽，字云长。父道，为功曹。子平，从羽征伐。", nil)
	// The father an opening names by given name bears the surname.
	wantTriple(t, res, "关道", "子女", "关羽")
	wantTriple(t, res, "关羽", "子女", "平")
	noTriple(t, res, "关道", "子女", "平")
	wantTriple(t, res, "关道", "任官", "功曹")

	res = run1(t, "孙权兄策。", nil)
	wantTriple(t, res, "孙权", "同胞", "孙策")

	res = run1(t, "马超与弟马岱奔汉中。", nil)
	wantTriple(t, res, "马超", "同胞", "马岱")

	res = run1(t, "刘备从弟刘德然。", nil)
	wantTriple(t, res, "刘备", "同族", "刘德然")
	noTriple(t, res, "刘德然", "下级", "刘备")

	res = run1(t, "孙权纳步氏为夫人。曹操娶卞氏。", nil)
	wantTriple(t, res, "孙权", "婚恋", "步氏")
	wantTriple(t, res, "曹操", "婚恋", "卞氏")

	// 生 in other senses is not a birth.
	res = run1(t, "曹操生擒吕布。", nil)
	noTriple(t, res, "曹操", "子女", "吕布")
}

func TestHierarchy(t *testing.T) {
	res := run1(t, "曹操遣其将夏侯渊击马超。", nil)
	wantTriple(t, res, "曹操", "下级", "夏侯渊")
	wantTriple(t, res, "夏侯渊", "消极态度倾向", "马超")

	// 屯X holds the place with troops (占), as the annotations read it.
	res = run1(t, "曹操部将张辽屯合肥。", nil)
	wantTriple(t, res, "曹操", "下级", "张辽")
	wantTriple(t, res, "张辽", "占", "合肥")
	noTriple(t, res, "张辽", "辖", "合肥")

	// The son named right before the verb is the one who surrendered.
	res = run1(t, "刘表子琮降曹公。", nil)
	wantTriple(t, res, "曹公", "下级", "刘琮")
	noTriple(t, res, "曹公", "下级", "刘表")

	res = run1(t, "关羽事刘备，甚见亲待。", nil)
	wantTriple(t, res, "刘备", "下级", "关羽")

	res = run1(t, "先主谓诸葛亮曰：「善。」", nil)
	wantTriple(t, res, "先主", "下级", "诸葛亮")

	// 从X攻Y: the leader attacked too, and the follower served him.
	res = run1(t, "张辽从曹操攻吕布。", nil)
	wantTriple(t, res, "曹操", "下级", "张辽")
	wantTriple(t, res, "张辽", "消极态度倾向", "吕布")
	wantTriple(t, res, "曹操", "消极态度倾向", "吕布")

	// A ruler's reign names the one the text is about as his man.
	res = run1(t, "张辽，雁门马邑人也。太祖时，为中郎将。", nil)
	wantTriple(t, res, "太祖", "下级", "张辽")
	wantTriple(t, res, "张辽", "任官", "中郎将")
	noTriple(t, res, "太祖", "任官", "中郎将")
}

func TestMovementAndPlaces(t *testing.T) {
	res := run1(t, "诸葛亮至成都，还汉中。", nil)
	wantTriple(t, res, "诸葛亮", "访", "成都")
	wantTriple(t, res, "诸葛亮", "访", "汉中")

	// 于 and a place after a verb phrase says where it happened, not
	// that anyone went there; the battle event keeps the place.
	res = run1(t, "曹操败袁绍于官渡。", nil)
	wantTriple(t, res, "曹操", "消极态度倾向", "袁绍")
	wantTriple(t, res, "官渡之战", "发生地点", "官渡")
	noTriple(t, res, "曹操", "访", "官渡")
	noTriple(t, res, "袁绍", "访", "官渡")

	// Death and burial places are not visits.
	res = run1(t, "诸葛亮卒于五丈原。", nil)
	noTriple(t, res, "诸葛亮", "访", "五丈原")

	res = run1(t, "关羽守下邳。", nil)
	wantTriple(t, res, "关羽", "辖", "下邳")
	noTriple(t, res, "关羽", "攻", "下邳")
}

func TestWar(t *testing.T) {
	res := run1(t, "曹操攻陷下邳。", nil)
	wantTriple(t, res, "曹操", "攻", "下邳")

	res = run1(t, "吕蒙拔江陵。", nil)
	wantTriple(t, res, "吕蒙", "攻", "江陵")
	wantTriple(t, res, "吕蒙", "占", "江陵")

	// 为X所擒: X did it to the subject.
	res = run1(t, "关羽为吕蒙所擒。", nil)
	wantTriple(t, res, "吕蒙", "消极态度倾向", "关羽")
	noTriple(t, res, "关羽", "消极态度倾向", "吕蒙")

	res = run1(t, "曹操与袁绍战于官渡。", nil)
	wantTriple(t, res, "曹操", "消极态度倾向", "袁绍")

	// 与X谋: allies.
	res = run1(t, "刘备与董承谋诛曹操。", nil)
	wantTriple(t, res, "刘备", "积极态度倾向", "董承")
	noTriple(t, res, "刘备", "消极态度倾向", "董承")
}

func TestAliasFormulas(t *testing.T) {
	res := run1(t, "关羽卒，谥曰壮缪侯。", nil)
	if tr := wantTriple(t, res, "关羽", "别称", "壮缪侯"); tr != nil && tr.AliasKind != "谥号" {
		t.Errorf("alias kind %q", tr.AliasKind)
	}

	// A bare given name that takes a courtesy name is a person.
	res = run1(t, "觊字伯儒，以文章显。", nil)
	wantEnt(t, res, "觊", tPer, 0)
	wantTriple(t, res, "觊", "别称", "伯儒")
	noEnt(t, res, "文章显", tPer)

	// 以字行 is no courtesy name.
	res = run1(t, "张飞字益德，以字行。", nil)
	noTriple(t, res, "张飞", "别称", "行")

	res = run1(t, "刘禅小字阿斗。", nil)
	if tr := wantTriple(t, res, "刘禅", "别称", "阿斗"); tr != nil && tr.AliasKind != "小字" {
		t.Errorf("alias kind %q", tr.AliasKind)
	}
}

// A biography's opening names its person even where the name alone reads
// as something else (终军: 军, an army; 于定国: 于, a preposition), and the
// 字 is his.
func TestOpeningsNameTheirPerson(t *testing.T) {
	for _, c := range []struct{ text, person, zi, place string }{
		{"终军字子云，济南人也。", "终军", "子云", "济南"},
		{"灌夫字仲孺，颍阴人也。", "灌夫", "仲孺", "颍阴"},
		{"于定国字曼倩，东海郯人也。", "于定国", "曼倩", "东海"},
	} {
		res := run1(t, c.text, nil)
		wantEnt(t, res, c.person, tPer, 0)
		if tr := wantTriple(t, res, c.person, "别称", c.zi); tr != nil && tr.AliasKind != "字" {
			t.Errorf("%s: alias kind %q", c.text, tr.AliasKind)
		}
		wantTriple(t, res, c.person, "籍贯", c.place)
	}
	// Not an opening: no 人也 after it, so nothing is read before 字.
	res := run1(t, "至是字之。", nil)
	noEnt(t, res, "至是", tPer)
}

func TestWorksWithoutBrackets(t *testing.T) {
	res := run1(t, "陈寿撰三国志。", nil)
	wantEnt(t, res, "三国志", tBook, 3)

	res = run1(t, "王粲作登楼赋。", nil)
	wantEnt(t, res, "登楼赋", tBook, 3)

	res = run1(t, "易曰：「谦谦君子。」", nil)
	wantEnt(t, res, "易", tBook, 0)

	// A one-character classic needs its formula.
	res = run1(t, "诸葛亮与刘备书。", nil)
	noEnt(t, res, "书", tBook)
}

func TestNameFormulas(t *testing.T) {
	// 以X为Y with a bare given name.
	res := run1(t, "以翊为中郎将。", nil)
	wantEnt(t, res, "翊", tPer, 1)
	wantTriple(t, res, "翊", "任官", "中郎将")

	// A dynasty before a ruler's title is part of it.
	res = run1(t, "晋武帝即位。", nil)
	wantEnt(t, res, "晋武帝", tPer, 0)

	// A posthumous name and 皇后 name a consort.
	res = run1(t, "武宣皇后崩。", nil)
	wantEnt(t, res, "武宣皇后", tPer, 0)

	// The members of a list beside a known person.
	res = run1(t, "张辽、李典、乐进屯合肥。", nil)
	wantEnt(t, res, "李典", tPer, 3)
	wantEnt(t, res, "乐进", tPer, 6)

	// A full name whose given name recurs.
	res = run1(t, "王重荣镇河中，重荣亦遣使来。", nil)
	wantEnt(t, res, "王重荣", tPer, 0)

	// Days of the cycle and titles are not names.
	res = run1(t, "丁亥，晋公护入朝。", nil)
	noEnt(t, res, "丁亥", tPer)
	wantEnt(t, res, "晋公", tTitle, 3)
	wantEnt(t, res, "护", tPer, 5)
	wantTriple(t, res, "护", "封爵", "晋公")

	// A name does not swallow the verb after it.
	res = run1(t, "子刘禅立。", nil)
	wantEnt(t, res, "刘禅", tPer, 1)
}

func TestOfficePrefixes(t *testing.T) {
	res := run1(t, "迁兵部郎中，加金紫光禄大夫。", nil)
	wantEnt(t, res, "兵部郎中", tOff, 1)
	wantEnt(t, res, "金紫光禄大夫", tOff, 7)
	// A bureau alone is not an office.
	res = run1(t, "兵部奏事。", nil)
	noEnt(t, res, "兵部", tOff)
}

// A clause that inherits a sovereign named by his title and tells a
// noble's death (薨, 卒) tells the death of the man whose life is told: a
// sovereign's is 崩.
func TestCarriedRulerDoesNotDie(t *testing.T) {
	res := run1(t, "崔林字德儒，清河东武城人也。明帝又分林邑，封一子列侯。正始五年薨，谥曰孝侯。子述嗣。", inChapter("三国志/魏书/韩崔高孙王传"))
	wantTriple(t, res, "崔林", "死亡时间", "正始五年")
	wantTriple(t, res, "崔林", "别称", "孝侯")
	noTriple(t, res, "明帝", "死亡时间", "正始五年")
	noTriple(t, res, "明帝", "别称", "孝侯")
}

// 执X手 takes a man's hand in trust; 执X alone seizes him.
func TestTakingTheHandIsNoArrest(t *testing.T) {
	res := run1(t, "曹操执刘备手曰：天下英雄，唯使君与操耳。", nil)
	noTriple(t, res, "曹操", "消极态度倾向", "刘备")
	res = run1(t, "吕蒙执关羽。", nil)
	wantTriple(t, res, "吕蒙", "消极态度倾向", "关羽")
}

// A ruler whose years date the clause (孝文後二年卒) is no doer of it,
// whether or not a time was read after him.
func TestAReignDateWithoutItsTimeMention(t *testing.T) {
	for text, want := range map[string]bool{"孝文後二年卒": true, "孝文元年薨": true, "孝文怒": false, "孝文三人": false} {
		x := newRun(text, nil)
		k := x.add(0, 2, tPer, "刘恒")
		if got := x.datesByReign(k); got != want {
			t.Errorf("%s: datesByReign %v, want %v", text, got, want)
		}
	}
}

// 专事 is to deal with a man, not to serve him.
func TestDealingWithIsNoService(t *testing.T) {
	res := run1(t, "时太祖方与袁绍相拒，而臧霸数以精兵入青州，故太祖得专事袁绍。", inChapter("三国志/魏书/臧霸传"))
	if hasTriple(res, "袁绍", "下级", "曹操") != nil {
		t.Errorf("专事袁绍 read as serving him: %v", triples(res))
	}
}

// An appointing verb that opens a clause with its object left out (辟为,
// 以为, 辟署) tells what the subject gave, not what he held.
func TestAppointerOfAnElidedAppointee(t *testing.T) {
	res := run1(t, "满宠字伯宁，山阳昌邑人也。太祖临兖州，辟为从事。", inChapter("三国志/魏书/满田牵郭传"))
	noTriple(t, res, "曹操", "任官", "从事")
	res = run1(t, "太祖在兖州，闻虔有胆策，以为从事。", inChapter("三国志/魏书/二李臧文吕许典二庞阎传"))
	noTriple(t, res, "曹操", "任官", "从事")
	res = run1(t, "太祖辟为司空掾属，除东缗、发干令。", inChapter("三国志/魏书/桓二陈徐卫卢传"))
	noTriple(t, res, "曹操", "任官", "司空掾属")
	// A ruler named by his title in another man's life is not the subject
	// of the clauses after him that leave theirs out.
	res = run1(t, "杜畿字伯侯，京兆杜陵人也。太祖益嘉之，复入为丞相掾。文帝即位，为侍御史，加驸马都尉。", inChapter("三国志/魏书/任苏杜郑仓传"))
	for _, o := range []string{"丞相掾", "侍御史", "驸马都尉"} {
		noTriple(t, res, "曹操", "任官", o)
		noTriple(t, res, "曹丕", "任官", o)
	}
	// A clause of 为 alone is still the subject's own office.
	res = run1(t, "张辽，雁门马邑人也。太祖时，为中郎将。", nil)
	wantTriple(t, res, "张辽", "任官", "中郎将")
}

// A commandery or county written right before a name is the man's native
// place; a province so written is the one he held, and a place a verb
// governs is the verb's.
func TestPlaceBeforeAName(t *testing.T) {
	res := run1(t, "时琅邪诸葛瑾、彭城严畯俱为宾客。", nil)
	wantTriple(t, res, "诸葛瑾", "籍贯", "琅邪")
	wantTriple(t, res, "严畯", "籍贯", "彭城")
	res = run1(t, "荆州刘表遣使迎之。", nil)
	noTriple(t, res, "刘表", "籍贯", "荆州")
	res = run1(t, "曹操攻下邳吕布。", nil)
	noTriple(t, res, "吕布", "籍贯", "下邳")
}

// 皆为, 并为 after a list, and an appointing verb before one, give the
// office to every name of the list.
func TestAListTakesTheOffice(t *testing.T) {
	res := run1(t, "关羽、张飞皆为中郎将。", nil)
	wantTriple(t, res, "关羽", "任官", "中郎将")
	wantTriple(t, res, "张飞", "任官", "中郎将")
	res = run1(t, "先主以关羽、张飞为中郎将。", nil)
	wantTriple(t, res, "关羽", "任官", "中郎将")
	wantTriple(t, res, "张飞", "任官", "中郎将")
	// A list with its own verb after it shares nothing.
	res = run1(t, "关羽、张飞从之，赵云为主骑。", nil)
	noTriple(t, res, "张飞", "任官", "主骑")
}

// 与X相善, 与X素厚: the two were friends; what one heard of another's
// friendships (闻与X厚) is not the hearer's.
func TestFriendsAfterYu(t *testing.T) {
	res := run1(t, "鲁肃与周瑜相善。", nil)
	wantTriple(t, res, "鲁肃", "积极态度倾向", "周瑜")
	res = run1(t, "袁绍既怨张邈，且闻与吕布厚，乃欲杀之。", nil)
	noTriple(t, res, "袁绍", "积极态度倾向", "吕布")
	res = run1(t, "曹操与袁绍交战于官渡。", nil)
	noTriple(t, res, "曹操", "积极态度倾向", "袁绍")
}

// 略X raids a place: an attack, not a hold.
func TestRaidIsAnAttack(t *testing.T) {
	res := run1(t, "李傕、郭汜略陈留、颍川。", nil)
	wantTriple(t, res, "李傕", "攻", "陈留")
	wantTriple(t, res, "郭汜", "攻", "颍川")
	noTriple(t, res, "李傕", "占", "陈留")
}

// 从X请: asked X for something, which is no service.
func TestAskingFromIsNoService(t *testing.T) {
	res := run1(t, "诸葛亮令邓芝从孙权请张裔。", nil)
	noTriple(t, res, "孙权", "下级", "邓芝")
	noTriple(t, res, "孙权", "下级", "诸葛亮")
	res = run1(t, "赵云从刘备征荆州。", nil)
	wantTriple(t, res, "刘备", "下级", "赵云")
}
