package pattern

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/extract"
)

// Where the name model reads a name over other characters than the rules
// did (the rules' 讳备, the model's 备), the relations the rules read of
// it stay: 刘备's native place from his chapter's opening.
func TestLearnedNamesKeepTheRulesRelations(t *testing.T) {
	res := extractIn(t, "三国志/蜀书/先主传", "先主姓刘，讳备，字玄德，涿郡涿县人，汉景帝子中山靖王胜之后也。")
	got := map[string]bool{}
	for _, tr := range res.Triples {
		got[tr.Head.Canonical()+" "+tr.Relation+" "+tr.Tail.Canonical()] = true
	}
	for _, want := range []string{"刘备 籍贯 涿郡", "刘备 籍贯 涿县"} {
		if !got[want] {
			t.Errorf("missing %s in %v", want, got)
		}
	}
}

// A one-character name a kinship word introduces stands where the name
// model reads nothing else: 姜维's father 冏.
func TestKinNameTheModelDoesNotReadStands(t *testing.T) {
	res := extractIn(t, "三国志/蜀书/蒋琬费祎姜维传", "姜维字伯约，天水冀人也。少孤，与母居。好郑氏学。仕郡上计掾，州辟为从事。以父冏昔为郡功曹，值羌、戎叛乱，身卫郡将，没於战场，赐维官中郎，参本郡军事。")
	found := false
	for _, tr := range res.Triples {
		if tr.Relation == "子女" && tr.Head.Text == "冏" && tr.Tail.Canonical() == "姜维" {
			found = true
		}
		if tr.Relation == "子女" && tr.Head.Text == "居" {
			t.Errorf("与母居 names no mother: %v", tr)
		}
	}
	if !found {
		t.Errorf("冏 is 姜维's father: %v", res.Triples)
	}
}

// 幼丧父 is "lost his father when young": 幼 is no one, and the 父冏 that
// follows is 姜维's father, not 幼's.
func TestAgeAdverbIsNoOne(t *testing.T) {
	res := extractIn(t, "三国人物/蜀/姜维", "姜维，字伯约，天水冀人也。幼丧父，与母同居，好郑玄之学。父冏，昔为郡功曹，值羌戎作乱，以身捍卫郡守，战没，魏朝以是赐维中郎之职。")
	for _, en := range res.Entities {
		if en.Text == "幼" {
			t.Errorf("幼 read as %s", en.Type)
		}
	}
	found := false
	for _, tr := range res.Triples {
		if tr.Relation == "子女" && tr.Head.Canonical() == "姜冏" && tr.Tail.Canonical() == "姜维" {
			found = true
		}
	}
	if !found {
		t.Errorf("姜冏 is 姜维's father: %v", res.Triples)
	}
}

// extractIn reads text as the chapter at path (book/section/chapter) is
// read when indexed, with the embedded models.
func extractIn(t *testing.T, path, text string) extract.Result {
	t.Helper()
	parts := strings.Split(path, "/")
	doc := extract.NewDocContext(path+"/text.txt", parts[len(parts)-1], parts)
	res, err := New().Extract(context.Background(), extract.Input{Text: text, Lang: "lzh", Doc: doc})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A ruler named in a date by his reign's years (孝文元年, 孝文后七年) dates
// what follows; he is not its doer, and his own annals' bare 帝崩 is his.
func TestReignDatesAndTheAnnalsRuler(t *testing.T) {
	for _, text := range []string{"孝文元年薨，谥曰懿侯。", "勃复就国，孝文十一年薨，谥曰武侯。", "独置孝惠皇后，废处北宫，孝文后元年薨，葬安陵，不起坟。"} {
		res := extractIn(t, "汉书/传/张周赵任申屠传", text)
		for _, tr := range res.Triples {
			if tr.Relation == "死亡时间" && tr.Head.Canonical() == "刘恒" {
				t.Errorf("%s: 孝文 dates another's death: %v", text, tr)
			}
		}
	}
	res := extractIn(t, "汉书/纪/文帝纪", "七年夏，六月己亥，帝崩于未央宫。")
	found := false
	for _, tr := range res.Triples {
		found = found || tr.Relation == "死亡时间" && tr.Head.Canonical() == "刘恒"
	}
	if !found {
		t.Errorf("文帝纪's 帝崩 is 刘恒's death: %v", res.Triples)
	}
	// The model reads the bare 帝 as a name; in 明帝纪 it is 曹叡, and 即日
	// dates his death.
	res = extractIn(t, "三国志/魏书/明帝纪", "宣王顿首流涕。即日，帝崩于嘉福殿，时年三十六。")
	found = false
	for _, tr := range res.Triples {
		found = found || tr.Relation == "死亡时间" && tr.Head.Canonical() == "曹叡" && tr.Tail.Text == "即日"
	}
	if !found {
		t.Errorf("明帝纪's 即日，帝崩 is 曹叡's death: %v", res.Triples)
	}
}

// The kin a chapter's opening names by given name alone share the
// subject's surname: 去病 in 霍光传 is 霍去病, 彪 in 班超's is 班彪.
func TestOpeningKinTakeTheSubjectsSurname(t *testing.T) {
	has := func(res extract.Result, head, rel, tail string) bool {
		for _, tr := range res.Triples {
			if tr.Head.Canonical() == head && tr.Relation == rel && tr.Tail.Canonical() == tail {
				return true
			}
		}
		return false
	}
	res := extractIn(t, "汉书/传/霍光金日磾传", "霍光字子孟，票骑将军去病弟也。父中孺，河东平阳人也。")
	if !has(res, "霍去病", "同胞", "霍光") || !has(res, "霍中孺", "籍贯", "河东") {
		t.Errorf("霍去病 is 霍光's brother, 霍中孺 their father: %v", res.Triples)
	}
	res = extractIn(t, "后汉书/列传/班梁列传", "班超字仲升，扶风平陵人，徐令彪之少子也。为人有大志。")
	if !has(res, "班彪", "子女", "班超") {
		t.Errorf("班彪 is 班超's father: %v", res.Triples)
	}
	// Past the opening, a bare given name is left to the chapter.
	res = extractIn(t, "后汉书/列传/班梁列传", "班超字仲升，扶风平陵人。为人有大志。久之，彪之子也。")
	for _, tr := range res.Triples {
		if tr.Head.Canonical() == "班彪" {
			t.Errorf("a 彪 outside the opening: %v", tr)
		}
	}
}

// A ruler's time (武帝时, 武帝立二十二岁) dates the clause; the offices in it
// are someone else's.
func TestReignTimeIsNotTheSubject(t *testing.T) {
	for _, text := range []string{"八世祖建，武帝时为右将军。", "武帝立二十二岁，以主爵为右将军，从大将军出定襄。", "武帝立十七岁，为前将军，与单于战，败，降匈奴。"} {
		res := extractIn(t, "汉书/传/卫青霍去病传", text)
		for _, tr := range res.Triples {
			if tr.Head.Canonical() == "刘彻" && tr.Relation == "任官" {
				t.Errorf("%s: 武帝 holds no office here: %v", text, tr)
			}
		}
	}
}

// 立武帝曾孙，是为孝宣帝: the great-grandson acceded, and 孝宣帝 is his name,
// not 武帝's.
func TestReignNameOfAnUnnamedDescendant(t *testing.T) {
	res := extractIn(t, "汉书/传/武五子传", "大将军光更尊立武帝曾孙，是为孝宣帝。")
	for _, tr := range res.Triples {
		if tr.Relation == "别称" && tr.Head.Canonical() == "刘彻" && tr.Tail.Text == "孝宣帝" {
			t.Errorf("孝宣帝 is not 武帝: %v", tr)
		}
	}
	res = extractIn(t, "史记/十二本纪/孝景本纪", "太子即位，是为孝武皇帝。")
	found := false
	for _, tr := range res.Triples {
		found = found || tr.Relation == "别称" && tr.Tail.Text == "孝武皇帝"
	}
	if !found {
		t.Errorf("太子即位，是为孝武皇帝 still names him: %v", res.Triples)
	}
}

// In a chapter that joins several lives, an unnamed death belongs to the
// life the text has reached, chunks later: 黄忠's, not 关羽's named in it.
func TestUnnamedDeathInAJoinedLife(t *testing.T) {
	path := "三国志/蜀书/关张马黄赵传"
	parts := strings.Split(path, "/")
	doc := extract.NewDocContext(path+"/text.txt", parts[len(parts)-1], parts)
	var last extract.Result
	for _, chunk := range []string{
		"关羽字云长，本字长生，河东解人也。亡命奔涿郡。",
		"黄忠字汉升，南阳人也。荆州牧刘表以为中郎将。",
		"是岁，先主为汉中王，欲用忠为后将军，诸葛亮说先主曰： 忠之名望，素非关、马之伦也。而今便令同列。马、张在近，亲见其功，尚可喻指；关遥闻之，恐必不悦，得无不可乎！ 先主曰： 吾自当解之。 遂与羽等齐位，赐爵关内侯。明年卒，追谥刚侯。",
	} {
		res, err := New().Extract(context.Background(), extract.Input{Text: chunk, Lang: "lzh", Doc: doc})
		if err != nil {
			t.Fatal(err)
		}
		last = res
	}
	found := false
	for _, tr := range last.Triples {
		if tr.Relation != "死亡时间" {
			continue
		}
		if tr.Head.Canonical() == "关羽" {
			t.Errorf("关羽 dies in 黄忠's life: %v", tr)
		}
		found = found || tr.Head.Canonical() == "黄忠"
	}
	if !found {
		t.Errorf("黄忠's death: %v", last.Triples)
	}
}

// A name the caller gives (a question's subject the recogniser misses) is
// read as a person wherever it occurs, and the office the model had read
// into a "person" before it becomes his: 辽都统 马哥 is 马哥, 都统.
func TestGivenNamesAreReadAsPersons(t *testing.T) {
	sentence := "都统杲使蒲家奴以兵一千助挞懒击辽都统马哥，与挞懒不相及。"
	read := func(names ...string) (persons map[string]bool, offices map[string]string) {
		res, err := New().Extract(context.Background(), extract.Input{Text: sentence, Lang: "lzh", Names: names})
		if err != nil {
			t.Fatal(err)
		}
		persons, offices = map[string]bool{}, map[string]string{}
		for _, en := range res.Entities {
			if en.Type == "人物" {
				persons[en.Text] = true
			}
		}
		for _, tr := range res.Triples {
			if tr.Relation == "任官" {
				offices[tr.Head.Text] = tr.Tail.Text
			}
		}
		return persons, offices
	}
	persons, offices := read("马哥", "蒲家奴")
	for _, want := range []string{"马哥", "蒲家奴"} {
		if !persons[want] {
			t.Errorf("%s given as a name is not read as a person: %v", want, persons)
		}
	}
	if persons["辽都统"] {
		t.Errorf("辽都统 before the given name is still a person: %v", persons)
	}
	if offices["马哥"] != "都统" {
		t.Errorf("马哥's office = %q, want 都统 (%v)", offices["马哥"], offices)
	}
}

// A name before its 字 is a whole name, even where the chapter knows its
// given name as another man's: 王章字仲卿 introduces 王章, not 杨章.
func TestANameBeforeItsCourtesyNameStaysWhole(t *testing.T) {
	res := extractIn(t, "汉书/传/赵尹韩张两王传", "城西萭章、杜陵杨章等皆通邪结党。\n王章字仲卿，泰山巨平人也。")
	got := map[string]bool{}
	for _, tr := range res.Triples {
		got[tr.Head.Canonical()+" "+tr.Relation+" "+tr.Tail.Canonical()] = true
	}
	for _, want := range []string{"王章 别称 仲卿", "王章 籍贯 泰山"} {
		if !got[want] {
			t.Errorf("missing %s in %v", want, got)
		}
	}
	if got["杨章 别称 仲卿"] {
		t.Errorf("杨章 given 王章's 字: %v", got)
	}
}

// An opening joins the persons read over its name into one (云 of 云敞
// read as the chapter's 朱云, then 敞), and the given name is his for the
// rest of the chapter.
func TestAnOpeningJoinsItsNameAndTeachesTheGivenName(t *testing.T) {
	res := extractIn(t, "汉书/传/杨胡朱梅云传", "朱云字游，鲁人也。云数上书。\n云敞字幼孺，平陵人也。敞时为大司徒掾。")
	got := map[string]bool{}
	for _, tr := range res.Triples {
		got[tr.Head.Canonical()+" "+tr.Relation+" "+tr.Tail.Canonical()] = true
	}
	for _, want := range []string{"云敞 别称 幼孺", "云敞 籍贯 平陵", "云敞 任官 大司徒掾"} {
		if !got[want] {
			t.Errorf("missing %s in %v", want, got)
		}
	}
	if got["朱云 籍贯 平陵"] {
		t.Errorf("朱云 given 云敞's native place: %v", got)
	}
}

// A kin word names the one kinsman right after it: the relation model
// adds no second child further along the sentence (刘表长子琦，亦深器亮
// makes 琦, that is 刘琦, 刘表's son, not 诸葛亮).
func TestRelationModelAddsNoSecondKinsman(t *testing.T) {
	res := extractIn(t, "三国志/蜀书/诸葛亮传", "诸葛亮字孔明，琅邪阳都人也。\n刘表长子琦，亦深器亮。")
	var kids []string
	for _, tr := range res.Triples {
		if tr.Relation == "子女" && tr.Head.Canonical() == "刘表" {
			kids = append(kids, tr.Tail.Canonical())
		}
	}
	if len(kids) != 1 || kids[0] != "刘琦" {
		t.Fatalf("刘表's children: %v; want 刘琦 alone", kids)
	}
}

// 太祖以女妻彧长子恽: 恽 is 荀彧's son, whom 曹操's daughter married. The
// relation model gives him no second father, and 曹操 and 荀彧 are not
// husband and wife.
func TestAMarriageGivenIsNoKinOfTheGiver(t *testing.T) {
	res := extractIn(t, "三国志/魏书/荀彧攸贾诩传", "荀彧字文若，颍川颍阴人也。\n太祖以女妻彧长子恽，后称安阳公主。")
	got := map[string]bool{}
	for _, tr := range res.Triples {
		got[tr.Head.Canonical()+" "+tr.Relation+" "+tr.Tail.Canonical()] = true
	}
	if !got["荀彧 子女 荀恽"] {
		t.Errorf("荀彧's son missing: %v", got)
	}
	for k := range got {
		if strings.HasPrefix(k, "太祖 子女") || strings.HasPrefix(k, "曹操 子女") || strings.Contains(k, "婚恋") {
			t.Errorf("%s read from a daughter given in marriage: %v", k, got)
		}
	}
}

// Another man's death dates what follows in a life: the dead take no
// office, and what follows goes on with the man whose life it is (邓芝, not
// 诸葛亮, is made 前将军 after 亮卒). A posthumous title stays the dead
// man's.
func TestTheDeadTakeNoOffice(t *testing.T) {
	got := func(res extract.Result) map[string]bool {
		m := map[string]bool{}
		for _, tr := range res.Triples {
			m[tr.Head.Canonical()+" "+tr.Relation+" "+tr.Tail.Canonical()] = true
		}
		return m
	}
	res := got(extractIn(t, "三国志/蜀书/邓张宗杨传", "邓芝字伯苗，义阳新野人，汉司空禹之后也。\n及亮北住汉中，以芝为中监军、扬武将军。亮卒，迁前军师前将军，领衮州刺史，封阳武亭侯，顷之为督江州。"))
	for _, no := range []string{"亮 任官 前将军", "亮 任官 衮州刺史", "亮 封爵 阳武亭侯"} {
		if res[no] {
			t.Errorf("a dead man's office: %s in %v", no, res)
		}
	}
	for _, want := range []string{"邓芝 任官 前将军", "邓芝 任官 衮州刺史", "邓芝 封爵 阳武亭侯"} {
		if !res[want] {
			t.Errorf("missing %s in %v", want, res)
		}
	}
	res = got(extractIn(t, "三国志/蜀书/蒋琬费祎姜维传", "亮出武功，以翼为前军都督，领扶风太守。亮卒，拜前领军，赐爵关内侯。"))
	if res["亮 封爵 关内侯"] || res["亮 任官 前领军"] {
		t.Errorf("a dead man's office or title: %v", res)
	}
	res = got(extractIn(t, "三国志/魏书/诸夏侯曹传", "夏侯渊字妙才，惇族弟也。\n渊卒，追封渊为博昌亭侯。"))
	if !res["夏侯渊 封爵 博昌亭侯"] {
		t.Errorf("a posthumous title is the dead man's: %v", res)
	}
}

// An adverb after a kin word is no kinsman, whatever read it as a name:
// 与父俱 is "with his father".
func TestTogetherWithAKinsmanIsNoName(t *testing.T) {
	res := extractIn(t, "汉书/传/窦田灌韩传", "灌夫字仲孺，颍阴人也。父张孟，尝为颍阴侯婴舍人。吴楚反时，颍阴侯灌何为将军，属太尉，请孟为校尉。夫以千人与父俱。")
	for _, e := range res.Entities {
		if e.Text == "俱" && e.Type == "人物" {
			t.Errorf("与父俱 names no one: %+v", e)
		}
	}
	fathers := 0
	for _, tr := range res.Triples {
		if tr.Relation == "子女" && tr.Tail.Canonical() == "灌夫" {
			fathers++
			if tr.Head.Text == "俱" {
				t.Errorf("与父俱 names no father: %v", tr)
			}
		}
	}
	if fathers == 0 {
		t.Errorf("张孟 is 灌夫's father: %v", res.Triples)
	}
}

// A ruler's sons listed by their mothers, each with his title before his
// name, are the ruler's (武皇帝 is 曹操 in 魏书) and their mother's, and bear
// his surname (任城威王彰 is 曹彰); a title ending in 王 gives no
// one the surname 王 (相殇王铄 is no 王铄).
func TestSonsListedByMother(t *testing.T) {
	text := "武皇帝二十五男：卞皇后生文皇帝、任城威王彰、陈思王植、萧怀王熊，刘夫人生丰愍王昂、相殇王铄，环夫人生邓哀王冲、彭城王据、燕王宇。"
	res := extractIn(t, "三国志/魏书/武文世王公传", text)
	has := func(h, r, tl string) bool {
		for _, tr := range res.Triples {
			if tr.Head.Canonical() == h && tr.Relation == r && tr.Tail.Canonical() == tl {
				return true
			}
		}
		return false
	}
	for _, son := range []string{"曹彰", "曹植", "曹熊", "曹昂", "曹铄", "曹冲", "曹据", "曹宇"} {
		if !has("曹操", "子女", son) {
			t.Errorf("%s is 武皇帝's (曹操's) son", son)
		}
	}
	// 卞皇后 in 魏书 is the consort whose chapter opens 武宣卞皇后.
	for _, c := range [][2]string{{"武宣卞皇后", "曹彰"}, {"刘夫人", "曹铄"}, {"环夫人", "曹宇"}} {
		if !has(c[0], "子女", c[1]) {
			t.Errorf("%s is %s's son", c[1], c[0])
		}
	}
	if !has("曹操", "婚恋", "刘夫人") {
		t.Errorf("刘夫人 is 武皇帝's consort")
	}
	if has("刘夫人", "子女", "曹冲") || has("武宣卞皇后", "子女", "曹昂") {
		t.Errorf("each mother has her own sons only")
	}
	for _, e := range res.Entities {
		if e.Canonical() == "王铄" {
			t.Errorf("铄 read as 王铄: %+v", e)
		}
	}
}

// A dynasty named right before a ruler's title decides who he is: in a
// chapter of 魏书, 宣帝 alone may be 晋's (司马懿), 汉宣帝 is 刘询, read
// with its dynasty (as the annotations mark 汉武帝) or without.
func TestDynastyBeforeATitleDecides(t *testing.T) {
	res := extractIn(t, "三国志/魏书/二公孙陶四张传", "或谓度曰：此汉宣帝冠石之祥，而里名与先君同。")
	found := false
	for _, e := range res.Entities {
		if e.Text == "宣帝" || e.Text == "汉宣帝" {
			found = true
			if e.Canonical() != "刘询" {
				t.Errorf("汉宣帝 read as %s", e.Canonical())
			}
		}
	}
	if !found {
		t.Errorf("宣帝 not read: %+v", res.Entities)
	}
}

// Who gives an office does not hold it: 汉王 appoints in 汉王以为治粟都尉
// and 汉王以苍为代相, while each man of a list (东郭咸阳、孔仅为大农丞)
// holds the office after it; nor does the enemy fought get the reward of
// the one who fought him (从击项籍，待怀，赐爵通德侯).
func TestTheAppointerHoldsNoOffice(t *testing.T) {
	for _, c := range []struct {
		text, holder, office, not string
	}{
		{"汉王以为治粟都尉，上未奇之也。", "", "治粟都尉", "汉王"},
		{"赵地已平，汉王以苍为代相，备边寇。", "苍", "代相", "汉王"},
		{"於是高祖召其姊为美人，以奋为中涓。", "", "美人", "高祖"},
		{"于是以东郭咸阳、孔仅为大农丞，领盐铁事。", "东郭咸阳", "大农丞", ""},
		{"高帝悉以为郎。", "", "郎", "高帝"},
		{"汉王赐婴爵列侯，号昭平侯。", "婴", "列侯", "汉王"},
		{"以高祖六年赐爵列侯，与诸侯剖符。", "", "列侯", "高祖"},
		{"孝惠皇帝，高祖太子也，母曰吕皇后。", "", "太子", "高祖"},
		{"权立登为太子。", "登", "太子", "权"},
		{"从击项籍，待怀，赐爵通德侯。", "", "通德侯", "项籍"},
		{"从高帝击项籍，迁为队率。", "", "队率", "项籍"},
		{"汤前亲诛郅支单于，威行外国。", "郅支", "单于", ""},
		{"走至戚，沛公左司马得泗川守壮，杀之。", "", "左司马", "沛公"},
		{"项王使者来，为太牢具。", "", "使者", "项王"},
		{"平原君美人居楼上，临见，大笑之。", "", "美人", "平原君"},
	} {
		res := extractIn(t, "汉书/传/韩彭英卢吴传", c.text)
		holds := map[string]bool{}
		for _, tr := range res.Triples {
			if (tr.Relation == "任官" || tr.Relation == "封爵") && tr.Tail.Text == c.office {
				holds[tr.Head.Text] = true
			}
		}
		if c.holder != "" && !holds[c.holder] {
			t.Errorf("%s: %s holds %s: %v", c.text, c.holder, c.office, holds)
		}
		if c.not != "" && holds[c.not] {
			t.Errorf("%s: %s gave %s, not held it", c.text, c.not, c.office)
		}
	}
}

// 聘 marries a woman the name model reads after it (曹操聘卞氏), and no man
// an envoy is sent to (郑泉聘刘备于白帝).
func TestBetrothalWithTheModel(t *testing.T) {
	res := extractIn(t, "三国志/吴书/吴主传", "曹操聘卞氏。十二月，权使太中大夫郑泉聘刘备于白帝，始复通也。")
	wed := map[string]bool{}
	for _, tr := range res.Triples {
		if tr.Relation == "婚恋" {
			wed[tr.Head.Text+"-"+tr.Tail.Text] = true
		}
	}
	if !wed["曹操-卞氏"] || wed["郑泉-刘备"] {
		t.Errorf("marriages %v: want 曹操-卞氏 and no 郑泉-刘备", wed)
	}
}

// In a ruler's chapter, 立子亮为太子 with no one named before it is the
// ruler raising his own son: 孙亮, 孙权's son and heir, not 诸葛亮.
func TestHeirRaisedInTheRulersChapter(t *testing.T) {
	res := extractIn(t, "三国志/吴书/吴主传", "孙权字仲谋。赤乌十三年，废太子和，处故鄣。十一月，立子亮为太子。")
	var son, heir bool
	for _, tr := range res.Triples {
		switch {
		case tr.Relation == "子女" && tr.Head.Canonical() == "孙权" && tr.Tail.Canonical() == "孙亮":
			son = true
		case tr.Relation == "任官" && tr.Tail.Text == "太子" && tr.Head.Text == "亮":
			heir = tr.Head.Canonical() == "孙亮"
		}
	}
	if !son || !heir {
		t.Errorf("孙亮 is 孙权's son (%v) and heir (%v): %v", son, heir, res.Triples)
	}
}

// A kin character that repeats the given name of a man just named is his
// name, not a kinship word: in 征黄祖，祖先遣舟兵, 先 is no grandfather.
func TestAGivenNameRepeatedIsNoKinWord(t *testing.T) {
	res := extractIn(t, "三国志/吴书/吴主传", "孙权字仲谋。十三年春，权复征黄祖，祖先遣舟兵拒军，都尉吕蒙破其前锋。")
	for _, tr := range res.Triples {
		if kinRelation(tr.Relation) && (tr.Head.Text == "先" || tr.Tail.Text == "先") {
			t.Errorf("先 made kin: %s %s %s", tr.Head.Text, tr.Relation, tr.Tail.Text)
		}
	}
}

func kinRelation(r string) bool {
	switch r {
	case "子女", "孙", "同胞", "婚恋", "同族":
		return true
	}
	return false
}

// In 后主传, 立子琮为西河王 after 吴王孙权薨 is 后主's son, not 孙权's: the
// ruler whose chapter it is raises him, whoever the sentence before named;
// in a minister's life an unnamed 立子X is no one's son there.
func TestSonRaisedByTheChaptersRuler(t *testing.T) {
	text := "后主讳禅，字公嗣，先主子也。\n十四年夏，大将军费祎还成都。冬，复北驻汉寿。大赦。\n十五年，吴王孙权薨。立子琮为西河王。"
	father := func(path string) string {
		for _, tr := range extractIn(t, path, text).Triples {
			if tr.Relation == "子女" && tr.Tail.Text == "琮" {
				return tr.Head.Canonical()
			}
		}
		return ""
	}
	if got := father("三国志/蜀书/后主传"); got != "刘禅" {
		t.Errorf("in 后主传 琮's father is %q, want 刘禅", got)
	}
	if got := father("三国志/蜀书/诸葛亮传"); got == "孙权" {
		t.Errorf("in a minister's life 琮 was made 孙权's son")
	}
	// A part of the chapter that does not name its ruler names no father.
	text = "十五年，吴王孙权薨。立子琮为西河王。"
	if got := father("三国志/蜀书/后主传"); got == "孙权" {
		t.Errorf("琮 was made 孙权's son")
	}
}

// The opening formula with a comma before 字 (诸葛亮，字孔明) says who its
// subject is as the one without does, even a name no one has read
// before: the whole of it is the person, with his 字 and native place.
func TestOpeningWithACommaBefore字(t *testing.T) {
	res := extractIn(t, "三国人物/蜀/文军德", "文军德，字小达，琅邪阳都人也，汉司隶校尉马军德之后。")
	var zi, native bool
	for _, tr := range res.Triples {
		if tr.Head.Text != "文军德" {
			continue
		}
		zi = zi || tr.Relation == "别称" && tr.Tail.Text == "小达"
		native = native || tr.Relation == "籍贯" && tr.Tail.Text == "琅邪"
	}
	if !zi || !native {
		t.Errorf("文军德's 字 and native place not read: %v", res.Triples)
	}
}

// An adverb after a kin word or a title, and a bare title, are no one:
// the graph would gather every 尝 and every 公子 of the corpus into one
// "person". A one-character name before 嗣 or in a list stays.
func TestAdverbsAndTitlesAreNoOne(t *testing.T) {
	for _, c := range []struct {
		text   string
		junk   string
		person string
	}{
		{"其妻尝谓曰：君何为也。", "尝", ""},
		{"武安侯田蚡者，孝景后同母弟也。魏其子尝杀人，蚡活之。", "尝", "蚡"},
		{"四年，晋平公初立。", "初", ""},
		{"王后饮，太子前为寿，因据王后股。", "前", ""},
		{"商君者，卫之诸庶孽公子也，名鞅。", "公子也", "商君"},
		{"单于遂独身与壮骑数百溃汉围西北遁走。", "遂", ""},
		{"及长，其母因兄弟而见其子文。", "因", ""},
		{"汤上书言：父早死，独不封。", "早", ""},
		{"泰薨，子初嗣。", "", "初"},
		{"今乃与楚王戊、赵王遂、胶西王卬约从反。", "", "遂"},
	} {
		res := extractIn(t, "史记/七十列传/某列传", c.text)
		found := false
		for _, en := range res.Entities {
			if en.Text == c.junk && en.Type == "人物" {
				t.Errorf("%s: %s read as a person", c.text, c.junk)
			}
			found = found || en.Text == c.person && en.Type == "人物"
		}
		if c.person != "" && !found {
			t.Errorf("%s: %s not read as a person: %v", c.text, c.person, res.Entities)
		}
		for _, tr := range res.Triples {
			if tr.Head.Text == c.junk || tr.Tail.Text == c.junk {
				t.Errorf("%s: a relation of %s: %v", c.text, c.junk, tr)
			}
		}
	}
}

// A posthumous name goes to the man its formula names (谥羽曰), to the dead
// man an edict addresses (谥君为, 谥之曰), else to the man the clause is
// about, unless he is the ruler who gives it; a death no one is named in
// is the man's whose life is told. The name model never confirms these
// names, and they stand.
func TestPosthumousNames(t *testing.T) {
	cases := []struct{ path, text, owner, name string }{
		{"三国志/蜀书/关张马黄赵传", "关羽字云长，本字长生，河东解人也。权遣将逆击羽，斩羽及子平于临沮。\n追谥羽曰壮缪侯。子兴嗣。", "关羽", "壮缪侯"},
		{"三国志/蜀书/诸葛亮传", "诸葛亮字孔明，琅邪阳都人也。亮疾病，卒于军，时年五十四。诏策曰： 惟君体资文武，明叡笃诚，受遗讬孤，匡辅朕躬。今使使持节左中郎将杜琼，赠君丞相武乡侯印绶，谥君为忠武侯。魂而有灵，嘉兹宠荣。", "诸葛亮", "忠武侯"},
		{"三国志/蜀书/蒋琬费祎姜维传", "蒋琬字公琰，零陵湘乡人也。由是琬遂还住涪。疾转增剧，至九年卒，谥曰恭。\n子斌嗣。", "蒋琬", "恭"},
		{"三国志/吴书/张顾诸葛步传", "张昭字子布，彭城人也。年八十一，嘉禾五年卒。遗令幅巾素棺，敛以时服。权素服临吊，谥曰文侯。长子承已自封侯。", "张昭", "文侯"},
		{"三国志/魏书/二公孙陶四张传", "张鲁字公祺，沛国丰人也。太祖逆拜鲁镇南将军，待以客礼，封阆中侯，邑万户。为子彭祖取鲁女。鲁薨，谥之曰原侯。子富嗣。", "张鲁", "原侯"},
		{"三国志/蜀书/庞统法正传", "法正字孝直，扶风郿人也。先主立为汉中王，以正为尚书令、护军将军。明年卒，时年四十五。先主为之流涕者累日。谥曰翼侯。", "法正", "翼侯"},
		{"后汉书/列传/宣张二王杜郭吴承郑赵", "赵典字仲经，蜀郡成都人也。会病卒，使者吊祠。窦太后复遣使兼赠，谥曰献侯。", "赵典", "献侯"},
		{"三国志/吴书/孙破虏讨逆传", "孙坚字文台，吴郡富春人。坚四子：策、权、翊、匡。权既称尊号，谥坚曰武烈皇帝。", "孙坚", "武烈皇帝"},
		// A chapter joining two lives: the second's opening begins his,
		// though the list of surnames lacks 法.
		{"三国志/蜀书/庞统法正传", "庞统字士元，襄阳人也。进围雒县，统率众攻城，为流矢所中，卒，时年三十六。追赐统爵关内侯，谥曰靖侯。\n法正字孝直，扶风郿人也。先主立为汉中王，以正为尚书令、护军将军。明年卒，时年四十五。先主为之流涕者累日。谥曰翼侯。", "法正", "翼侯"},
		// 孝文 dates the death by his reign; 参 goes on as the subject.
		{"史记/三十世家/梁孝王世家", "而以太原王参为代王。代王参立十七年，孝文後二年卒，谥为孝王。", "参", "孝王"},
	}
	for _, c := range cases {
		res := extractIn(t, c.path, c.text)
		found := false
		for _, tr := range res.Triples {
			if tr.Relation != "别称" || tr.Tail.Text != c.name {
				continue
			}
			if tr.Head.Canonical() != c.owner {
				t.Errorf("%s: %s given to %s, want %s", c.path, c.name, tr.Head.Canonical(), c.owner)
			}
			if tr.AliasKind != "谥号" {
				t.Errorf("%s: %s read as %s", c.path, c.name, tr.AliasKind)
			}
			found = true
		}
		if !found {
			t.Errorf("%s: no posthumous name %s for %s", c.path, c.name, c.owner)
		}
	}
	// 谥法曰 quotes the rules of naming; it names no one.
	res := extractIn(t, "后汉书/列传/test", "谥法曰：慈惠爱民曰文。")
	for _, tr := range res.Triples {
		if tr.Relation == "别称" {
			t.Errorf("谥法 gave a name: %v", tr)
		}
	}
}

// 媪 after a surname says "old woman" (吕媪): it teaches no given name, so
// 母媪 in 高帝纪, his mother, is not 吕媪, the mother of his wife.
func TestOldWomanIsNoGivenName(t *testing.T) {
	res := extractIn(t, "汉书/纪/高帝纪上", "高祖，沛丰邑中阳里人也，姓刘氏。母媪尝息大泽之陂，梦与神遇。单父人吕公善沛令，辟仇，从之客。吕公女乃吕后也。吕媪怒吕公曰：公始常欲奇此女。")
	for _, tr := range res.Triples {
		if tr.Relation == "子女" && tr.Head.Canonical() == "吕媪" {
			t.Errorf("吕媪 is not 高祖's mother: %v", tr)
		}
	}
}

// A place before a name is his native place (琅邪贡禹), but 亡新 in 及亡新
// 王莽 is the fallen dynasty, not where 王莽 came from.
func TestNoNativePlaceWithout人(t *testing.T) {
	res := extractIn(t, "后汉书/列传/郑范陈贾张列传", "及亡新王莽，遭汉中衰，专操国柄，以偷天下，况已自喻，不信群臣。")
	for _, tr := range res.Triples {
		if tr.Relation == "籍贯" {
			t.Errorf("a native place without 人: %v", tr)
		}
	}
	res = extractIn(t, "三国志/魏书/后妃传", "武宣卞皇后，琅邪开阳人，文帝母也。")
	if !anyTriple(res, func(tr extract.Triple) bool {
		return tr.Relation == "籍贯" && tr.Head.Canonical() == "武宣卞皇后"
	}) {
		t.Errorf("琅邪开阳人 is a native place: %v", res.Triples)
	}
}

// A place of death is read after 卒于 though the recogniser takes 武功 for
// "merit"; a home or a post is no place.
func TestDeathPlaceAfter卒于(t *testing.T) {
	res := extractIn(t, "三国志/蜀书/杨仪传", "建兴五年，随丞相诸葛亮出屯汉中。十二年，亮卒于武功，军退还。")
	if !anyTriple(res, func(tr extract.Triple) bool { return tr.Relation == "卒于" && tr.Tail.Canonical() == "武功" }) {
		t.Errorf("亮卒于武功: %v", res.Triples)
	}
	res = extractIn(t, "三国志/蜀书/杨仪传", "杨仪字威公，襄阳人也。后卒于家，时年六十。")
	for _, en := range res.Entities {
		if en.Text == "家" || en.Type == "地点" && en.Text != "襄阳" {
			t.Errorf("a home is no place: %v", en)
		}
	}
}

// anyTriple says whether one of res's triples is as wanted.
func anyTriple(res extract.Result, want func(extract.Triple) bool) bool {
	for _, tr := range res.Triples {
		if want(tr) {
			return true
		}
	}
	return false
}

// A kin named by given name alone right after the one whose kin he is,
// written by his personal name, bears that one's surname in any chapter;
// after a title (梁孝王) no surname is guessed from the title.
func TestKinAfterANamedPersonTakesHisSurname(t *testing.T) {
	names := func(res extract.Result, surface string) []string {
		var out []string
		for _, en := range res.Entities {
			if en.Text == surface && en.Type == "人物" {
				out = append(out, en.Canonical())
			}
		}
		return out
	}
	res := extractIn(t, "三国志/吴书/吴主传", "刘表死，曹公已临其境，表子琮举众以降。")
	if !anyTriple(res, func(tr extract.Triple) bool {
		return tr.Head.Canonical() == "刘表" && tr.Relation == "子女" && tr.Tail.Canonical() == "刘琮"
	}) {
		t.Errorf("表子琮 is 刘琮, 刘表's son: %v", res.Triples)
	}
	for _, c := range []struct{ path, text, given, want string }{
		{"汉书/传/外戚传上", "卫氏遂灭。而霍去病弟光贵盛。", "光", "霍光"},
		{"三国志/魏书/武帝纪", "太祖武皇帝，沛国谯人也，姓曹，讳操，字孟德。太祖所乘马被创，从弟洪以马与太祖。", "洪", "曹洪"},
	} {
		if got := names(extractIn(t, c.path, c.text), c.given); !slices.Contains(got, c.want) {
			t.Errorf("%s: %s named %v, want %s", c.text, c.given, got, c.want)
		}
	}
	if got := names(extractIn(t, "史记/三十世家/梁孝王世家", "梁孝王子定为山阳王。"), "定"); slices.Contains(got, "梁定") {
		t.Errorf("定 after 梁孝王子 named 梁定: a fief is no surname")
	}
}

// 有三子：…，中子武最知名: the middle son is the father's, though another son
// was named just before, and bears his surname; 以父任 is his father's
// standing, not a father named 任.
func TestCountedSonsBelongToTheirFather(t *testing.T) {
	res := extractIn(t, "汉书/传/李广苏建传", "苏建，杜陵人也。其后为代郡太守，卒官。有三子：嘉为奉车都尉，贤为骑都尉，中子武最知名。武少以父任，兄弟并为郎。")
	if !anyTriple(res, func(tr extract.Triple) bool {
		return tr.Head.Canonical() == "苏建" && tr.Relation == "子女" && tr.Tail.Canonical() == "苏武"
	}) {
		t.Errorf("苏武 is 苏建's middle son: %v", res.Triples)
	}
	for _, tr := range res.Triples {
		if tr.Relation == "子女" && tr.Head.Canonical() == "贤" {
			t.Errorf("a brother made a father: %v", tr)
		}
	}
	for _, en := range res.Entities {
		if en.Text == "任" {
			t.Errorf("任 of 以父任 read as %s", en.Type)
		}
	}
	res = extractIn(t, "后汉书/列传/郑范陈贾张列传", "陈元字长孙，苍梧广信人也。父钦，习《左氏春秋》。元少传父业，为之训诂。")
	for _, tr := range res.Triples {
		if tr.Relation == "子女" && tr.Tail.Canonical() == "陈元" && tr.Head.Canonical() != "陈钦" {
			t.Errorf("陈元's father is 陈钦 alone: %v", tr)
		}
	}
}

// A bare given name in a life the chapter has begun is that life's man's,
// though the given name is also a word (仁) or the surname one the list
// lacks (爰); a title in the opening's kin (太祖从弟也) stays its holder's.
func TestAGivenNameInALifeIsItsMans(t *testing.T) {
	for _, c := range []struct{ path, text, given, want string }{
		{"汉书/传/爰盎晁错传", "爰盎字丝。其父楚人也，故为群盗，徙安陵。高后时，盎为吕禄舍人。", "盎", "爰盎"},
		{"三国志/魏书/诸夏侯曹传", "夏侯惇字元让，沛国谯人。\n曹仁字子孝，太祖从弟也。少好弓马弋猎。后豪杰并起，仁亦阴结少年。", "仁", "曹仁"},
		{"三国志/魏书/诸夏侯曹传", "曹仁字子孝，太祖从弟也。", "太祖", "曹操"},
	} {
		res := extractIn(t, c.path, c.text)
		for _, en := range res.Entities {
			if en.Text == c.given && en.Type == "人物" && en.Canonical() != c.want {
				t.Errorf("%s: %s named %s, want %s", c.text, c.given, en.Canonical(), c.want)
			}
		}
	}
}

// The man a verb of leaving takes as its object is not the doer of the
// next verb: in 彧去绍从太祖 荀彧 follows 曹操, and 袁绍, whom he left, does not.
func TestWhomOneLeavesIsNoSubject(t *testing.T) {
	res := extractIn(t, "三国志/魏书/荀彧传", "荀彧字文若，颍川颍阴人也。初平二年，彧去绍从太祖。")
	var follows bool
	for _, tr := range res.Triples {
		if tr.Relation != "下级" {
			continue
		}
		if tr.Tail.Text == "绍" {
			t.Errorf("袁绍, whom 荀彧 left, read as following 曹操: %v", tr)
		}
		follows = follows || tr.Tail.Text == "彧"
	}
	if !follows {
		t.Errorf("荀彧 follows 曹操: %v", res.Triples)
	}
}

// The son named after a man's death is that man's, by his surname, though
// the sentence is about someone else and the rules cut the name longer
// than the model does (琮代).
func TestSonAfterADeathIsTheDeadMans(t *testing.T) {
	for _, c := range [][2]string{
		{"三国志/魏书/武帝纪", "十三年秋七月，公南征刘表。八月，表卒，其子琮代，屯襄阳，刘备屯樊。"},
		{"三国志/蜀书/先主传", "刘表自郊迎，以上宾礼待之。曹公南征表，会表卒，子琮代立，遣使请降。"},
	} {
		res := extractIn(t, c[0], c[1])
		var son, heir bool
		for _, tr := range res.Triples {
			if tr.Head.Canonical() != "刘表" || tr.Tail.Canonical() != "刘琮" {
				if tr.Relation == "子女" {
					t.Errorf("%s: a wrong son or father: %v", c[0], tr)
				}
				continue
			}
			son = son || tr.Relation == "子女"
			heir = heir || tr.Relation == "更代"
		}
		if !son || !heir {
			t.Errorf("%s: 刘琮 is 刘表's son and heir: %v", c[0], res.Triples)
		}
	}
	// A royal line's names carry no surname to pass on: 相土, not 昭相土.
	res := extractIn(t, "史记/本纪/殷本纪", "契卒，子昭明立。昭明卒，子相土立。")
	for _, tr := range res.Triples {
		if tr.Relation == "子女" && tr.Tail.Canonical() != tr.Tail.Text {
			t.Errorf("a king's son given a surname: %v", tr)
		}
	}
}

// An office followed by 府 is its seat, where another works (署左将军府事:
// 诸葛亮 ran 刘备's office as 左将军), not an office held.
func TestAnOfficesSeatIsNotHeld(t *testing.T) {
	res := extractIn(t, "三国志/蜀书/诸葛亮传", "诸葛亮字孔明。成都平，以亮为军师将军，署左将军府事。")
	var held bool
	for _, tr := range res.Triples {
		if tr.Relation != "任官" || tr.Head.Canonical() != "诸葛亮" {
			continue
		}
		if tr.Tail.Text == "左将军" {
			t.Errorf("诸葛亮 read as 左将军: %v", tr)
		}
		held = held || tr.Tail.Text == "军师将军"
	}
	if !held {
		t.Errorf("诸葛亮 was made 军师将军: %v", res.Triples)
	}
}

// A grandfather named by given name bears the family's surname (先主祖雄:
// 刘雄), and 以兄事之 treats a man as an elder brother: it names no brother.
func TestGrandfatherAndTreatedAsBrother(t *testing.T) {
	res := extractIn(t, "三国志/蜀书/先主传", "先主姓刘，讳备，字玄德，涿郡涿县人。先主祖雄，父弘，世仕州郡。瓒年长，先主以兄事之。")
	var grandfather bool
	for _, tr := range res.Triples {
		grandfather = grandfather || tr.Relation == "孙" && tr.Head.Canonical() == "刘雄" && tr.Tail.Canonical() == "刘备"
		if tr.Relation == "同胞" {
			t.Errorf("以兄事之 read as a brother: %v", tr)
		}
	}
	if !grandfather {
		t.Errorf("刘雄 is 刘备's grandfather: %v", res.Triples)
	}
}

// A state is the nearest man's: written before one man's office and name,
// it is his, not that of a man named after him in another clause of the
// sentence; a state that sends men is theirs, not the man they pursue.
func TestAStateIsTheNearestMans(t *testing.T) {
	for _, c := range []struct{ chapter, text, not string }{
		{"三国志/蜀书/董刘马陈董吕传", "卒后，魏尚书仆射陈群与丞相诸葛亮书，问巴消息，称曰刘君子初，甚敬重焉。", "诸葛亮"},
		{"三国志/蜀书/先主传", "吴遣将军李异、刘阿等踵蹑先主军，屯驻南山。", "刘备"},
	} {
		res := extractIn(t, c.chapter, c.text)
		if anyTriple(res, func(tr extract.Triple) bool {
			return tr.Relation == "所属团体" && tr.Head.Canonical() == c.not
		}) {
			t.Errorf("%s: %s made a man of another's state: %v", c.text, c.not, res.Triples)
		}
	}
}

// When the sovereign turns to the man whose life is told (帝思陶言), the
// reward in the next clause is his, not that of the subject of the clauses
// before (张角反乱); one the sovereign fights is rewarded nothing.
func TestTheSovereignRewardsTheLifesMan(t *testing.T) {
	res := extractIn(t, "后汉书/列传/杜栾刘李刘谢列传", "刘陶字子奇，一名伟，颍川颍阴人。帝殊不悟，方诏陶次第《春秋》条例。明年，张角反乱，海内鼎沸，帝思陶言，封中陵乡侯，三迁尚书令。以所举将为尚书，难与齐列，乞从冗散，拜侍中。")
	for _, want := range []string{"中陵乡侯", "侍中"} {
		if !anyTriple(res, func(tr extract.Triple) bool {
			return tr.Head.Canonical() == "刘陶" && tr.Tail.Canonical() == want
		}) {
			t.Errorf("刘陶 lacks %s: %v", want, res.Triples)
		}
	}
	if anyTriple(res, func(tr extract.Triple) bool {
		return tr.Head.Canonical() == "张角" && (tr.Relation == "封爵" || tr.Relation == "任官")
	}) {
		t.Errorf("张角 given 刘陶's rewards: %v", res.Triples)
	}
	res = extractIn(t, "三国志/魏书/诸夏侯曹传", "曹休字文烈，太祖族子也。帝征孙权，以休为征东大将军，假黄钺。")
	if anyTriple(res, func(tr extract.Triple) bool { return tr.Head.Canonical() == "孙权" && tr.Relation != "别称" }) {
		t.Errorf("孙权, whom the sovereign fights, is given something: %v", res.Triples)
	}
}

// A man who appoints someone the clause leaves unnamed (亮…，请为军祭酒)
// does not take the office himself: the man whose life is told does.
func TestTheElidedAppointeeIsTheLifesMan(t *testing.T) {
	laiMin := "来敏字敬达，义阳新野人，来歙之后也。敏随姊夫奔荆州，先主定益州，署敏典学校尉。丞相亮住汉中，请为军祭酒、辅军将军，坐事去职。"
	checkHolders(t, []holderCase{
		{"三国志/蜀书/杜周杜许孟来尹李谯郤传", laiMin, "来敏", "军祭酒", "亮"},
		{"三国志/蜀书/杜周杜许孟来尹李谯郤传", laiMin, "来敏", "辅军将军", "亮"},
	})
	// Nor an office he declined (not held, docs/annotation.md), nor 以为
	// that means "thought" (the heir would reign).
	for path, text := range map[string]string{
		"后汉书/列传/张曹郑列传":   "郑玄字康成，北海高密人也。绍乃举玄茂才，表为左中郎将，皆不就。",
		"三国志/魏书/桓二陈徐卫卢传": "陈矫字季弼，广陵东阳人也。行前未到邺，太祖崩洛阳，群臣拘常，以为太子即位，当须诏命。",
	} {
		res := extractIn(t, path, text)
		if anyTriple(res, func(tr extract.Triple) bool { return tr.Relation == "任官" }) {
			t.Errorf("%s: an office given: %v", text, res.Triples)
		}
	}
	// The life's man who appoints keeps nothing: 辟为 says he gave it.
	res := extractIn(t, "三国志/蜀书/蒋琬费祎姜维传", "蒋琬字公琰，零陵湘乡人也。琬以大将军开府，又辟为东曹掾。")
	if anyTriple(res, func(tr extract.Triple) bool { return tr.Tail.Canonical() == "东曹掾" }) {
		t.Errorf("东曹掾 given to someone: %v", res.Triples)
	}
}

// The bare given name of the man whose life is told, right after an
// appointing verb (选宓迎为别驾), is he: he takes the office, not the man
// who chose him.
func TestTheLifesGivenNameAfterAnAppointingVerb(t *testing.T) {
	res := extractIn(t, "三国志/蜀书/许麋孙简伊秦传", "秦宓字子敕，广汉绵竹人也。建兴二年，丞相亮领益州牧，选宓迎为别驾，寻拜左中郎将、长水校尉。")
	if !anyTriple(res, func(tr extract.Triple) bool {
		return tr.Head.Canonical() == "秦宓" && tr.Head.Text == "宓" && tr.Tail.Canonical() == "别驾"
	}) {
		t.Errorf("秦宓 lacks 别驾: %v", res.Triples)
	}
	if anyTriple(res, func(tr extract.Triple) bool {
		return tr.Head.Text == "亮" && tr.Relation == "任官" && tr.Tail.Canonical() != "丞相" && tr.Tail.Canonical() != "益州牧"
	}) {
		t.Errorf("亮 holds what he gave: %v", res.Triples)
	}
}

// holderCase is a passage of a chapter, the man who holds an office or
// title there and one who must not.
type holderCase struct{ path, text, holder, office, not string }

// checkHolders extracts each case's passage and checks who holds its office;
// a man is named by his full name or as the text writes him.
func checkHolders(t *testing.T, cases []holderCase) {
	t.Helper()
	named := func(e extract.Entity, name string) bool { return e.Canonical() == name || e.Text == name }
	for _, c := range cases {
		res := extractIn(t, c.path, c.text)
		if !anyTriple(res, func(tr extract.Triple) bool { return named(tr.Head, c.holder) && tr.Tail.Canonical() == c.office }) {
			t.Errorf("%s: %s lacks %s: %v", c.text, c.holder, c.office, res.Triples)
		}
		if anyTriple(res, func(tr extract.Triple) bool { return named(tr.Head, c.not) && tr.Tail.Canonical() == c.office }) {
			t.Errorf("%s: %s holds %s: %v", c.text, c.not, c.office, res.Triples)
		}
	}
}

// A sentence that names no one is told of the man whose life it is, not
// of another man the last sentence left: one who withdrew there (羽遂退),
// after whom the life's man was named (维…，皆如淮计), or who only did
// something to him (亮恨之). One still acting
// when it ended keeps it (后腾…求还京畿。於是徵为卫尉 is 马腾's).
func TestASubjectlessSentenceIsTheLifesMans(t *testing.T) {
	checkHolders(t, []holderCase{
		{"三国志/魏书/满田牵郭传", "满宠字伯宁，山阳昌邑人也。关羽围襄阳，宠助征南将军曹仁屯樊城，羽遂退。迁扬武将军。", "满宠", "扬武将军", "关羽"},
		{"三国志/魏书/满田牵郭传", "郭淮字伯济，太原阳曲人也。维果驰还救化，皆如淮计。进封都乡侯。嘉平元年，迁征西将军，都督雍、凉诸军事。", "郭淮", "征西将军", "维"},
		{"后汉书/列传/吴盖陈臧列传", "臧宫字君翁，颍川郏人也。光武察宫勤力少言，甚亲纳之。及至河北，以为偏将军，从破群贼。", "臧宫", "偏将军", "刘秀"},
		{"三国志/蜀书/霍王向张杨费传", "向朗字巨达，襄阳宜城人也。朗素与马谡善，谡逃亡，朗知情不举，亮恨之，免官还成都。数年，为光禄勋。", "向朗", "光禄勋", "亮"},
	})
	res := extractIn(t, "三国志/蜀书/关张马黄赵传", "马超字孟起，右扶风茂陵人也。父腾，灵帝末与边章、韩遂等俱起事於西州。后腾与韩遂不和，求还京畿。於是徵为卫尉，以超为偏将军。")
	if anyTriple(res, func(tr extract.Triple) bool {
		return tr.Head.Canonical() == "马超" && tr.Tail.Canonical() == "卫尉"
	}) {
		t.Errorf("马超 given his father's 卫尉: %v", res.Triples)
	}
}

// A sovereign's accession (权称尊号), his reign (孙权时除…, 先主时为…) and
// his favour (孙权嘉其功) date or explain an appointment; the man whose
// life is told, or the man named, takes it. A man at the time holding an
// office keeps it (曹操时为司空).
func TestTheSovereignDatesTheLifesOffices(t *testing.T) {
	checkHolders(t, []holderCase{
		{"三国志/吴书/刘繇太史慈士燮传", "刘基字敬舆，东莱牟平人也。孙权为吴王，迁基大农。孙权称尊号，改为光禄勋，分平尚书事。", "刘基", "光禄勋", "孙权"},
		{"三国志/吴书/张顾诸葛步传", "步骘字子山，临淮淮阴人也。孙权称尊号，拜骠骑将军，领冀州牧。", "步骘", "冀州牧", "孙权"},
		{"三国志/吴书/诸葛滕二孙濮阳传", "孙兴字某，吴郡人也。兴少有士名，孙权时除上虞令，稍迁至尚书左曹。", "孙兴", "上虞令", "孙权"},
		{"三国志/蜀书/霍王向张杨费传", "向朗字巨达，襄阳宜城人也。朗兄子宠，先主时为牙门将。", "宠", "牙门将", "刘备"},
		{"三国志/吴书/贺全吕周钟离传", "吕岱字定公，广陵海陵人也。孙权嘉其功，进拜镇南将军。", "吕岱", "镇南将军", "孙权"},
		{"三国志/吴书/程黄韩蒋周陈董甘淩徐", "韩当字义公，辽西令支人也。奉遵法令，孙权善之。黄武二年，封石城侯，迁昭武将军。", "韩当", "昭武将军", "孙权"},
		{"后汉书/列传/吴延史卢赵列传", "赵岐字邠卿，京兆长陵人也。岐以老病，遂留荆州。曹操时为司空，举以自代。", "曹操", "司空", "赵岐"},
	})
	res := extractIn(t, "三国志/魏书/满田牵郭传", "牵招字子经，安平观津人也。会亮时在祁山，果遣使连结比能。")
	if !anyTriple(res, func(tr extract.Triple) bool { return tr.Head.Text == "亮" && tr.Relation == "居" }) {
		t.Errorf("亮时在祁山 is where 亮 was: %v", res.Triples)
	}
}

// A patron named with his office (为丞相曹操主簿, 辟镇东将军曹操府), a
// sovereign who summons (驿徵大将军恪), petitions (太祖表封), favours
// (太祖益壮之, 孙权嘉桓功), accedes (文帝即王位), dates by his reign's
// years (昭帝末年) or by his office when a younger man is named after
// (孙权为将军，逊年二十一), or recommends a man (推璋行镇西大将军) gives
// the office or title; he does not take it, nor does the man a sovereign
// marches on (太祖征孙权，徙为留府长史). Installing a sovereign (立宣帝)
// gives no one an office.
func TestThePatronGivesTheOffice(t *testing.T) {
	checkHolders(t, []holderCase{
		{"后汉书/列传/杨震列传", "杨震字伯起，弘农华阴人也。脩字德祖，好学，有俊才，为丞相曹操主簿，用事曹氏。", "脩", "主簿", "曹操"},
		{"后汉书/列传/荀韩钟陈列传", "荀悦字仲豫，俭之子也。初辟镇东将军曹操府，迁黄门侍郎。", "荀悦", "黄门侍郎", "曹操"},
		{"三国志/吴书/吴主传", "孙权字仲谋。权祭南郊还，寝疾。十二月，驿徵大将军恪，拜为太子太傅。", "恪", "太子太傅", "孙权"},
		{"三国志/魏书/程郭董刘蒋刘传", "董昭字公仁，济阴定陶人也。太祖表封千秋亭侯，转拜司空军祭酒。", "董昭", "千秋亭侯", "曹操"},
		{"三国志/魏书/诸夏侯曹传", "曹仁字子孝，太祖从弟也。仁力战有功，太祖益壮之，转封安平亭侯。", "曹仁", "安平亭侯", "曹操"},
		{"三国志/魏书/二李臧文吕许典二庞阎", "臧霸字宣高，泰山华人也。后权乞降，太祖还，留霸与夏侯惇等屯居巢。文帝即王位，迁镇东将军，进爵武安乡侯。", "臧霸", "武安乡侯", "曹操"},
		{"汉书/传/匡张孔马传", "孔霸字次儒。霸亦治《尚书》，事太傅夏侯胜，昭帝末年为博士，宣帝时为太中大夫。", "孔霸", "博士", "刘弗陵"},
		{"三国志/吴书/陆逊传", "陆逊字伯言，吴郡吴人也。孙权为将军，逊年二十一，始仕幕府，历东西曹令史，出为海昌屯田都尉。", "陆逊", "东西曹令史", "孙权"},
		{"三国志/吴书/朱治朱然吕范朱桓传", "朱桓字休穆，吴郡吴人也。桓将兵拒之。孙权嘉桓功，封嘉兴侯，迁奋武将军，领彭城相。", "朱桓", "奋武将军", "孙权"},
		{"三国志/蜀书/刘彭廖李刘魏杨传", "杨仪字威公，襄阳人也。初，仪为先主尚书，琬为尚书郎。", "杨仪", "尚书", "刘备"},
		{"后汉书/列传/郑孔荀列传", "孔融字文举，鲁国人。在郡六年，刘备表领青州刺史。", "孔融", "青州刺史", "刘备"},
		{"三国志/吴书/朱治朱然吕范朱桓传", "朱然字义封，治姊子也。然别攻破备前锋，断其后道，备遂破走。拜征北将军，封永安侯。", "朱然", "征北将军", "刘备"},
		{"三国志/魏书/二李臧文吕许典二庞阎", "李典字曼成，山阳钜野人也。典往救，刘备望见救至，乃散退。从围邺，邺定，迁捕虏将军，封都亭侯。", "李典", "捕虏将军", "刘备"},
		{"三国志/蜀书/先主传", "先主姓刘，讳备，字玄德，涿郡涿县人。璋推先主行大司马，领司隶校尉；先主亦推璋行镇西大将军，领益州牧。", "璋", "镇西大将军", "刘备"},
		{"汉书/传/李广苏建传", "苏武字子卿，少以父任。数年，昭帝崩，武以故二千石与计谋立宣帝，赐爵关内侯，食邑三百户。", "苏武", "关内侯", "刘询"},
	})
	res := extractIn(t, "三国志/魏书/崔毛徐何邢鲍司马传", "徐奕字季才，东莞人也。太祖征孙权，徙为留府长史。")
	if anyTriple(res, func(tr extract.Triple) bool { return tr.Head.Canonical() == "孙权" && tr.Relation == "任官" }) {
		t.Errorf("孙权, marched on, is given an office: %v", res.Triples)
	}
	// A clause that names an empress and an heir names people, not the
	// offices of the man before (皇后太子，鸩杀见害).
	res = extractIn(t, "三国志/蜀书/先主传", "先主姓刘，讳备，字玄德，涿郡涿县人。董卓首难，荡覆京畿，曹操阶祸，窃执天衡；皇后太子，鸩杀见害，剥乱天下。")
	if anyTriple(res, func(tr extract.Triple) bool { return tr.Head.Canonical() == "曹操" && tr.Relation == "任官" }) {
		t.Errorf("曹操 holds the empress's or the heir's rank: %v", res.Triples)
	}
}

// Speech the texts set between spaces (亮答曰： 君不见…乎？ 琦意感悟) is no
// narrative: the clause after it names its own subject, and a third man's
// death that only dates what follows (会黄祖死) leaves him the subject; the
// offices told after a man's speech are not his (亮…书曰： …。 后迁中监军).
// The 琦 of 刘表长子琦 is 刘琦 wherever the passage names him after.
func TestSpeechBetweenSpacesIsNotNarrative(t *testing.T) {
	checkHolders(t, []holderCase{{"三国志/蜀书/诸葛亮传",
		"诸葛亮字孔明，琅邪阳都人也。刘表长子琦，亦深器亮。琦乃将亮游观后园，因谓亮曰： 今日上不至天，下不至地，可以言未？ 亮答曰： 君不见申生在内而危，重耳在外而安乎？ 琦意感悟，阴规出计。会黄祖死，得出，遂为江夏太守。",
		"刘琦", "江夏太守", "诸葛亮"}, {"三国志/蜀书/蒋琬费祎姜维传",
		"姜维字伯约，天水冀人也。亮与留府长史张裔、参军蒋琬书曰： 姜伯约忠勤时事，思虑精密，考其所有，永南、季常诸人不如也。其人，凉州上士也。 又曰： 须先教中虎步兵五六千人。 后迁中监军征西将军。",
		"姜维", "征西将军", "亮"}})
	// Nor is the posthumous name given after a man's speech his.
	res := extractIn(t, "三国志/蜀书/先主传", "先主姓刘，讳备，字玄德，涿郡涿县人。三年春二月，丞相亮自成都到永安。先主病笃，讬孤於丞相亮，尚书令李严为副。夏四月癸巳，先主殂于永安宫，时年六十三。亮上言於后主曰： 伏惟大行皇帝迈仁树德，覆焘无疆，昊天不吊，寝疾弥留，今月二十四日奄忽升遐，臣妾号咷，若丧考妣。臣请宣下奉行。 五月，梓宫自永安还成都，谥曰昭烈皇帝。")
	if anyTriple(res, func(tr extract.Triple) bool { return tr.Head.Text == "亮" && tr.Tail.Canonical() == "昭烈皇帝" }) {
		t.Errorf("亮, who spoke, is given 刘备's posthumous name: %v", res.Triples)
	}
	// Unless the speaker is the man who dies after it.
	res = extractIn(t, "汉书/传/张周赵任申屠传", "申屠嘉，梁人也。罢朝，嘉谓长史曰： 吾悔不先斩错乃请之，为错所卖！ 至舍，因呕血而死。谥曰节侯。")
	if !anyTriple(res, func(tr extract.Triple) bool {
		return tr.Head.Canonical() == "申屠嘉" && tr.Tail.Canonical() == "节侯"
	}) {
		t.Errorf("申屠嘉 lacks 节侯: %v", res.Triples)
	}
}
