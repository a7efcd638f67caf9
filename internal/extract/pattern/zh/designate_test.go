package zh

import (
	"context"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/docstats"
	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/schema"
)

// listed is a recogniser that marks the names it lists wherever they
// occur, longest first, as a model would.
type listed map[string]string

func (listed) Version() string { return "listed" }

func (l listed) Recognise(s []rune, _ []Mention, _ map[string]string, _ *docstats.Stats, _ *docstats.Found) []Mention {
	var out []Mention
	for i := 0; i < len(s); {
		n := 0
		typ := ""
		for name, t := range l {
			r := []rune(name)
			if len(r) > n && i+len(r) <= len(s) && string(s[i:i+len(r)]) == name {
				n, typ = len(r), t
			}
		}
		if n == 0 {
			i++
			continue
		}
		out = append(out, Mention{i, i + n, typ})
		i += n
	}
	return out
}

func runListed(t *testing.T, l listed, text string, doc *extract.DocContext) extract.Result {
	t.Helper()
	res, err := NewWith(l, nil).Extract(context.Background(), extract.Input{Text: text, Lang: "lzh", Schema: schema.MustLoad(schema.ZhHistory), Doc: doc})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, text, res)
	return res
}

// inChapter is a DocContext for a chapter at path (book/section/chapter).
func inChapter(path string) *extract.DocContext {
	parts := strings.Split(path, "/")
	return extract.NewDocContext(path+"/text.txt", parts[len(parts)-1], parts)
}

// named returns the person each mention written as surface stands for.
func named(res extract.Result, surface string) []string {
	var out []string
	for _, e := range res.Entities {
		if e.Text == surface && e.Type == tPer {
			n := e.Name
			if n == "" {
				n = e.Text
			}
			out = append(out, n)
		}
	}
	return out
}

func allAre(t *testing.T, res extract.Result, surface, person string) {
	t.Helper()
	got := named(res, surface)
	if len(got) == 0 {
		t.Fatalf("no person mention %s in %+v", surface, res.Entities)
	}
	for _, g := range got {
		if g != person {
			t.Fatalf("%s stands for %v, want %s every time", surface, got, person)
		}
	}
}

func hasAlias(res extract.Result, person, alias, kind string) bool {
	for _, tr := range res.Triples {
		if tr.Relation == "别称" && tr.AliasKind == kind && tr.Tail.Text == alias && (tr.Head.Name == person || tr.Head.Name == "" && tr.Head.Text == person) {
			return true
		}
	}
	return false
}

func TestOpeningNamesTheSubject(t *testing.T) {
	res := run1(t, "太祖武皇帝，沛国谯人也，姓曹，讳操，字孟德。太祖少机警，有权数。", inChapter("三国志/魏书/武帝纪"))
	allAre(t, res, "太祖", "曹操")
	allAre(t, res, "操", "曹操")
	if named(res, "讳操") != nil {
		t.Fatalf("讳操 is not a person: %+v", res.Entities)
	}
	if !hasAlias(res, "曹操", "太祖", "庙号") {
		t.Fatalf("太祖 is not recorded as 曹操's temple name: %+v", res.Triples)
	}
}

func TestOpeningTakesTheSurnameFromTheFather(t *testing.T) {
	res := run1(t, "后主讳禅，字公嗣，先主子也。后主袭位于成都。", inChapter("三国志/蜀书/后主传"))
	allAre(t, res, "后主", "刘禅")
}

func TestTitlesByBook(t *testing.T) {
	text := "太祖以彧为司马，时年二十九。太祖大悦。"
	allAre(t, run1(t, text, inChapter("三国志/魏书/荀彧攸贾诩传")), "太祖", "曹操")
	allAre(t, run1(t, text, inChapter("汉书/志/郊祀志下")), "太祖", "刘邦")
	if got := named(run1(t, text, nil), "太祖"); len(got) > 0 && got[0] != "太祖" {
		t.Fatalf("outside the histories 太祖 stays as written, got %v", got)
	}
}

func TestGluedVerbIsCutOff(t *testing.T) {
	doc := inChapter("史记/十二本纪/项羽本纪")
	l := listed{"谢项王": tPer, "项王": tPer, "项伯": tPer, "沛公": tPer}
	res := runListed(t, l, "项王曰：善。项王乃召诸将。项王怒。项伯谓沛公曰：旦日不可不蚤自来谢项王。", doc)
	if named(res, "谢项王") != nil {
		t.Fatalf("谢项王 is 谢 and 项王: %+v", res.Entities)
	}
	allAre(t, res, "项王", "项羽")
}

func TestEnfeoffedTitleNamesItsHolder(t *testing.T) {
	l := listed{"周亚夫": tPer, "条侯": tTitle}
	res := runListed(t, l, "乃封周亚夫为条侯。条侯曰：臣请击之。", inChapter("史记/三十世家/绛侯周勃世家"))
	allAre(t, res, "条侯", "周亚夫")
}

func TestCourtesyNameBelongsToWhoTheFormulaSays(t *testing.T) {
	res := run1(t, "时钜鹿张臶，字子明，颍川胡昭，字孔明，亦养志不仕。", inChapter("三国志/魏书/袁张凉国田王邴管传"))
	allAre(t, res, "孔明", "胡昭")
}

func TestKingKnownByStateAndGivenName(t *testing.T) {
	res := run1(t, "韩王信者，故韩襄王孽孙也，长八尺五寸。信曰：善。韩信乃降。", inChapter("史记/七十列传/韩信卢绾列传"))
	allAre(t, res, "信", "韩王信")
	allAre(t, res, "韩信", "韩王信")
}

func TestOfficeBetweenSurnameAndGivenName(t *testing.T) {
	res := run1(t, "张廷尉释之者，堵阳人也，字季。释之曰：善。", inChapter("史记/七十列传/张释之冯唐列传"))
	allAre(t, res, "释之", "张释之")
}

// 是为X names the one who acceded just before it; a title there (代王)
// is that one, not the person named earlier.
func TestReignNameGoesToTheTitleNotAnEarlierPerson(t *testing.T) {
	names := listed{"项籍": tPer, "代王": tTitle, "孝文皇帝": tPer, "子辛": tPer, "帝辛": tPer}
	text := "项籍死，诸侯议之，遂迎立代王，是为孝文皇帝。其后子辛立，是为帝辛。"
	res := runListed(t, names, text, nil)
	got := map[string]bool{}
	for _, tr := range res.Triples {
		got[tr.Head.Text+" "+tr.Relation+" "+tr.Tail.Text] = true
	}
	if got["项籍 别称 孝文皇帝"] {
		t.Errorf("孝文皇帝 given to 项籍: %v", got)
	}
	if !got["子辛 别称 帝辛"] {
		t.Errorf("子辛立，是为帝辛 not read: %v", got)
	}
}

// A full name the rules read and the recogniser confirms nowhere teaches
// the chapter nothing: 顾 of 顾丁公曰 is "turned to", not a surname, and
// 丁公 stays 丁公. A full name a formula gave a 字 stands even where the
// recogniser reads less of it.
func TestUnconfirmedFullNamesTeachNothing(t *testing.T) {
	text := "季布母弟丁公，为楚将。丁公为项羽逐窘高祖彭城西，高祖急，顾丁公曰：两贤岂相戹哉！於是丁公引兵而还。"
	res := runListed(t, listed{"季布": tPer, "丁公": tPer, "项羽": tPer, "高祖": tPer, "彭城": tLoc}, text, inChapter("史记/七十列传/季布栾布列传"))
	allAre(t, res, "丁公", "丁公")

	text = "盖宽饶字次公，魏郡人也。宽饶坐举奏大臣非是，左迁为卫司马。"
	res = runListed(t, listed{"宽饶": tPer, "次公": tPer, "魏郡": tLoc}, text, inChapter("汉书/传/盖诸葛刘郑孙毋将何传"))
	allAre(t, res, "宽饶", "盖宽饶")
}

// A title after a surname (项王, 丁公) is not a surname and a given name:
// 王 alone later in the chapter is not 项王.
func TestTitleIsNotAGivenName(t *testing.T) {
	text := "项王大怒，欲击之。及诸吕既诛，迎立代王，王至长安。"
	res := runListed(t, listed{"项王": tPer, "王": tPer, "长安": tLoc}, text, inChapter("汉书/传/张陈王周传"))
	for _, n := range named(res, "王") {
		if n == "项王" {
			t.Fatalf("王 stands for 项王: %+v", res.Entities)
		}
	}
}

// A folder indexed on its own (三国志/蜀书 given as the corpus) leaves the
// book out of the chapter's path; 后主 in its own chapter is still 刘禅.
func TestTitledOpeningWithoutTheBook(t *testing.T) {
	res := run1(t, "后主讳禅，字公嗣，先主子也。", inChapter("后主传"))
	wantTriple(t, res, "刘禅", "别称", "后主")
}

// In a sovereign's annals the bare 帝 (王) of 帝崩 is the sovereign the
// title names, in whatever chunk it stands; other rulers' deaths there are
// named, and annals of several rulers are left alone.
func TestAnnalsRulerDies(t *testing.T) {
	doc := inChapter("汉书/纪/武帝纪")
	doc.Chunks = 3 // far from the opening
	res := run1(t, "二月，行幸盩厔五柞宫。二年二月，帝崩于五柞宫，入殡于未央宫前殿。", doc)
	wantTriple(t, res, "刘彻", "死亡时间", "二年二月")
	res = run1(t, "建元二年，景帝崩。", inChapter("汉书/纪/武帝纪"))
	wantTriple(t, res, "刘启", "死亡时间", "建元二年")
	noTriple(t, res, "刘彻", "死亡时间", "建元二年")
	res = run1(t, "二月戊戌，帝崩于南宫前殿，年六十二。", inChapter("后汉书/本纪/光武帝纪下"))
	wantTriple(t, res, "刘秀", "死亡时间", "二月戊戌")
	res = run1(t, "二十五年春正月，王崩于洛阳，年六十六。", inChapter("三国志/魏书/武帝纪"))
	wantTriple(t, res, "曹操", "死亡时间", "二十五年春正月")
	res = run1(t, "八月辛亥，帝崩。", inChapter("后汉书/本纪/孝和孝殇帝纪"))
	if got := named(res, "帝"); len(got) != 0 {
		t.Errorf("annals of two rulers: 帝 stands for %v", got)
	}
	res = run1(t, "秋七月，未及定而帝崩。", inChapter("后汉书/本纪/光武帝纪下"))
	if got := named(res, "帝"); len(got) != 0 {
		t.Errorf("而帝崩 is not the annals' own telling: 帝 stands for %v", got)
	}
}

// A sovereign's death is 崩: the 卒 of a sentence whose last-named person
// is an emperor by title belongs to someone else.
func TestSovereignDoesNotDieWith卒(t *testing.T) {
	res := run1(t, "世祖使将颍川兵，常从征伐。世祖即位，以俊为侍中。建武二年，封昆阳侯。三年，拜俊积弩将军，与征南大将军岑彭击破秦丰，因将兵徇江东，扬州悉定。七年，卒，谥曰威侯。", inChapter("后汉书/列传/朱景王杜马刘傅坚马列"))
	noTriple(t, res, "刘秀", "死亡时间", "七年")
}

// An opening may put the office between surname and given name (萧相国何
// 者: 萧何), but an office that opens the text is no surname (大将军卫青
// 者: 卫青, not 大卫青).
func TestOfficeInTheOpening(t *testing.T) {
	res := run1(t, "萧相国何者，沛丰人也。", inChapter("史记/三十世家/萧相国世家"))
	wantTriple(t, res, "萧何", "任官", "相国")
	res = run1(t, "大将军卫青者，平阳人也。", inChapter("史记/七十列传/卫将军骠骑列传"))
	wantTriple(t, res, "卫青", "籍贯", "平阳")
	noTriple(t, res, "大卫青", "籍贯", "平阳")
}

// A 字 after 字 is whole even where its last character is a name the
// chapter knows, written on its own more often than with the rest: 遂 is
// an adverb, but 何进字遂高 names 遂高, not 赵高's 高.
func TestCourtesyNameIsNotTrimmedToAKnownName(t *testing.T) {
	doc := extract.NewDocContext("d", "窦武何进", nil)
	run1(t, "赵高之变，不朝则夕。", doc)
	res := run1(t, "何进字遂高，南阳宛人也。坛中起大华盖，高十丈，复建九重华盖，高九丈，列步兵数万人。", doc)
	wantTriple(t, res, "何进", "别称", "遂高")
	if hasTriple(res, "何进", "别称", "高") != nil {
		t.Fatalf("the 字 cut to the known name: %v", triples(res))
	}
}

// A consort written by surname and rank is the consort of that surname in
// the chapter's dynasty (卞太后 in 魏书, 邓太后 in 后汉书); a form that
// dynasty gives two women (窦太后 in 后汉书) is left as written, and is not
// taken for 西汉's 窦太后.
func TestConsortsByTheirForms(t *testing.T) {
	for _, c := range []struct{ path, text, surface, want string }{
		{"三国志/魏书/明帝纪", "秋七月，卞太后葬高陵。", "卞太后", "武宣卞皇后"},
		{"三国志/魏书/后妃传", "帝即位，太皇卞太后慰勉焉。", "太皇卞太后", "武宣卞皇后"},
		{"后汉书/本纪/孝安帝纪", "邓太后临朝。", "邓太后", "邓绥"},
		{"汉书/传/窦田灌韩传", "窦太后好黄老言。", "窦太后", "孝文窦皇后"},
		{"后汉书/列传/窦融列传", "窦太后临朝。", "窦太后", "窦太后"},
	} {
		l := listed{c.surface: tPer}
		res := runListed(t, l, c.text, inChapter(c.path))
		if got := named(res, c.surface); len(got) != 1 || got[0] != c.want {
			t.Errorf("%s in %s: %v, want %s", c.surface, c.path, got, c.want)
		}
	}
}

// One who issues an edict is no subject of the offices after it: 太后又诏
// 珍…，迁侍中 promotes 刘珍, whose life this is, not the regent.
func TestTheEdictsIssuerTakesNoOffice(t *testing.T) {
	text := "刘珍字秋孙，南阳蔡阳人也。邓太后诏，使与校书刘騊駼、马融校定东观。永宁元年，太后又诏珍与騊駼作建武已来名臣传，迁侍中、越骑校尉。"
	l := listed{"刘珍": tPer, "秋孙": tPer, "南阳": tLoc, "蔡阳": tLoc, "邓太后": tPer, "太后": tPer, "刘騊駼": tPer, "騊駼": tPer, "马融": tPer, "珍": tPer, "东观": tLoc, "永宁元年": tTime, "侍中": tOff, "越骑校尉": tOff}
	res := runListed(t, l, text, inChapter("后汉书/列传/文苑列传上"))
	wantTriple(t, res, "刘珍", "任官", "侍中")
	noTriple(t, res, "邓绥", "任官", "侍中")
	noTriple(t, res, "太后", "任官", "侍中")
	// The bare 太后 after 邓太后 is she, by her own name.
	if got := named(res, "太后"); len(got) != 1 || got[0] != "邓绥" {
		t.Errorf("太后 is %v, want 邓绥", got)
	}
}
