package retrieve

import (
	"cmp"
	"context"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// A list template makes a whole-corpus question, and its phrase says what
// the group is: the head noun, the kind of entity, how the named entities
// hold the members, the period and the role.
func TestParseGlobal(t *testing.T) {
	for _, tc := range []struct {
		q, phrase  string
		categories []string
		want, link string
		period     string
		role       string
	}{
		{"孙吴的将领有哪些？", "孙吴的将领", []string{"将领"}, WantPerson, LinkSubordinate, "孙吴", RoleGeneral},
		{"曹操的谋士有哪些？", "曹操的谋士", []string{"谋士"}, WantPerson, LinkSubordinate, "", RoleAdviser},
		{"袁绍的部将和谋士有哪些？", "袁绍的部将和谋士", []string{"部将", "谋士"}, WantPerson, LinkSubordinate, "", ""},
		{"秦末起兵反秦的有哪些人？", "秦末起兵反秦", nil, WantPerson, LinkEnemy, "秦末", ""},
		{"战国七雄是哪些国家？", "战国七雄", []string{"战国七雄"}, WantGroup, "", "战国", ""},
		{"刘备入蜀前后据有的州郡有哪些？", "刘备入蜀前后据有的州郡", []string{"州郡"}, WantPlace, "", "", ""},
		{"吕后的亲族中被封王侯的有哪些？", "吕后的亲族中被封王侯", []string{"亲族"}, WantPerson, LinkKin, "", RoleNoble},
		{"讨伐黄巾军的将领有哪些？", "讨伐黄巾军的将领", []string{"将领"}, WantPerson, LinkEnemy, "", RoleGeneral},
		{"东汉时东方、东北方的东夷诸国诸族有哪些？", "东汉时东方、东北方的东夷诸国诸族", []string{"东夷诸国诸族"}, WantGroup, "", "东汉", ""},
		{"项羽分封的诸侯王有哪些？", "项羽分封的诸侯王", []string{"诸侯王"}, WantPerson, "", "", RoleKing},
		{"蜀汉的重臣有哪些？", "蜀汉的重臣", []string{"重臣"}, WantPerson, LinkSubordinate, "蜀汉", RoleMinister},
		{"两汉之际称帝称王、割据一方的有哪些人？", "两汉之际称帝称王、割据一方", nil, WantPerson, "", "两汉之际", ""},
		{"哪些人起兵反秦？", "起兵反秦", []string{"起兵反秦"}, WantPerson, LinkEnemy, "", ""},
		{"东汉有哪些隐士？", "东汉的隐士", []string{"隐士"}, WantPerson, "", "东汉", ""},
		{"曹操有哪些谋士呢？", "曹操的谋士", []string{"谋士"}, WantPerson, LinkSubordinate, "", RoleAdviser},
	} {
		typ, _ := classify(tc.q, "zh")
		if typ != QGlobal {
			t.Errorf("%s: type %q, want global", tc.q, typ)
			continue
		}
		g := parseGlobal(tc.q)
		if g == nil {
			t.Fatalf("%s: no global ask", tc.q)
		}
		if g.Phrase != tc.phrase || !slices.Equal(g.Categories, tc.categories) || g.Want != tc.want || g.Link != tc.link || g.Period != tc.period || g.Role != tc.role {
			t.Errorf("%s: %+v", tc.q, *g)
		}
		if (g.From != nil) != (tc.period != "") || g.From != nil && *g.From > *g.To {
			t.Errorf("%s: years %v–%v", tc.q, g.From, g.To)
		}
	}
}

// A list template right after an entity's relation word keeps the typed
// question (孙权的儿子有哪些 asks for 孙权's sons); one far from it does
// not (被封为 in 汉初被封为诸侯王的异姓功臣有哪些 qualifies the group).
// Questions without a list template are not global.
func TestGlobalOrTyped(t *testing.T) {
	for q, want := range map[string]string{
		"孙权的儿子有哪些？":              QKin,
		"孔子的弟子有哪些？":              QGlobal,
		"汉初被封为诸侯王的异姓功臣有哪些？":      QGlobal,
		"汉元帝皇后王政君的家族中封侯掌权的有哪些人？": QGlobal,
		"诸葛亮的弟弟是谁？":              QKin,
		"诸葛亮担任过哪些官职？":            QOffice,
		"赤壁之战有哪些人参加？":            QFought,
		"诸葛亮是谁？":                 QIdentity,
		"赤壁之战有什么影响？":             QWhat,
	} {
		if typ, _ := classify(q, "zh"); typ != want {
			t.Errorf("%s: %q, want %q", q, typ, want)
		}
	}
}

// Periods: the longest name a question holds wins.
func TestPeriodOf(t *testing.T) {
	for q, want := range map[string]string{"东汉末年割据一方的群雄": "东汉末年", "东汉的宦官": "东汉", "汉宣帝时的功臣": "", "孙吴的将领": "孙吴"} {
		p, ok := periodOf(q)
		if ok != (want != "") || p.name != want {
			t.Errorf("%s: %q %v, want %q", q, p.name, ok, want)
		}
	}
	if p, _ := periodOf("孙吴的将领"); !slices.Contains(p.rulers, "孙权") {
		t.Errorf("孙吴 has no ruler 孙权: %+v", p)
	}
}

// aliasSource gives names for entities by id.
type aliasSource struct {
	noNames
	names map[int64][]kg.Alias
}

func (s aliasSource) Aliases(_ context.Context, id int64) ([]kg.Alias, error) {
	return s.names[id], nil
}

// An emperor by succession is lowered in a group that is not one of
// rulers; a founder, who rose among the others, is not, and neither is
// anyone in a group of rulers.
func TestRulersApart(t *testing.T) {
	src := aliasSource{names: map[int64][]kg.Alias{
		1: {{Name: "中宗", Kind: "庙号"}, {Name: "孝宣", Kind: "称号"}},
		2: {{Name: "高祖", Kind: "庙号"}},
	}}
	r := &Retriever{Src: src}
	members := func() []Member {
		return []Member{
			{Entity: kg.Entity{ID: 1, Name: "刘询", Type: "人物"}, Score: 1},
			{Entity: kg.Entity{ID: 2, Name: "刘邦", Type: "人物"}, Score: 0.9},
			{Entity: kg.Entity{ID: 3, Name: "张汤", Type: "人物"}, Score: 0.8},
		}
	}
	rulers, err := r.rulersAmong(t.Context(), members())
	if err != nil {
		t.Fatal(err)
	}
	if rulers[1] != succeeded || rulers[2] != founded || rulers[3] != notRuler {
		t.Fatalf("rulers %v", rulers)
	}
	ms := rulersApart(&Analysis{Global: &GlobalAsk{Phrase: "西汉以严刑峻法著称的酷吏"}}, members(), rulers)
	if ms[0].Entity.Name != "刘邦" || ms[1].Entity.Name != "张汤" || ms[2].Entity.Name != "刘询" {
		t.Errorf("order %s %s %s: the emperor by succession last", ms[0].Entity.Name, ms[1].Entity.Name, ms[2].Entity.Name)
	}
	ms = rulersApart(&Analysis{Global: &GlobalAsk{Phrase: "两汉之际称帝称王的"}}, members(), rulers)
	if ms[0].Entity.Name != "刘询" || ms[0].Score != 1 {
		t.Errorf("a group of rulers keeps its emperors: %+v", ms[0])
	}
	// The emperor who dates a group, the man who names it and 主要 do
	// not make it one of rulers.
	for _, a := range []*Analysis{
		{Global: &GlobalAsk{Phrase: "汉宣帝时图画于麒麟阁的功臣"}, Entities: []Mention{{Text: "汉宣帝", Entity: kg.Entity{Type: "人物"}}}},
		{Global: &GlobalAsk{Phrase: "曹操手下的主要将领"}, Entities: []Mention{{Text: "曹操", Entity: kg.Entity{Type: "人物"}}}},
	} {
		if ms = rulersApart(a, members(), rulers); ms[2].Entity.Name != "刘询" {
			t.Errorf("%s: the emperor by succession ranks %s last, not %s", a.Global.Phrase, ms[2].Entity.Name, "刘询")
		}
	}
	// No founder is among the empresses' kin.
	ms = rulersApart(&Analysis{Global: &GlobalAsk{Phrase: "西汉的外戚", Link: LinkConsort}}, members(), rulers)
	if ms[0].Entity.Name != "张汤" {
		t.Errorf("外戚 led by %s: a founder is no consort's kin", ms[0].Entity.Name)
	}
	// A minister's posthumous name is no ruler's, though the tables list
	// a duke of that name; an emperor's is.
	if k := rulingOf([]kg.Alias{{Name: "文公", Kind: "谥号"}}); k != notRuler {
		t.Errorf("文公 made a ruler: %v", k)
	}
	if k := rulingOf([]kg.Alias{{Name: "文帝", Kind: "谥号"}}); k != succeeded {
		t.Errorf("文帝 not a ruler: %v", k)
	}
}

// A group of another surname than the ruling house (异姓, 外戚) puts the
// house's kin last, and a group of the house (宗室) puts the others last.
// The house is the period's, or else the surname the rulers among the
// members share.
func TestHouseSplitsTheMembers(t *testing.T) {
	for _, tc := range []struct {
		q, house, name string
	}{
		{"汉初被封为诸侯王的异姓功臣有哪些？", HouseOutside, "刘"},
		{"东汉把持朝政的外戚有哪些？", HouseOutside, "刘"},
		{"外戚有哪些？", HouseOutside, ""},
		{"西汉被封为诸侯王的宗室有哪些？", HouseWithin, "刘"},
		{"汉初被封为诸侯王的功臣有哪些？", "", ""},
	} {
		g := parseGlobal(tc.q)
		if g == nil || g.House != tc.house || g.HouseName != tc.name {
			t.Errorf("%s: %+v, want house %q %q", tc.q, g, tc.house, tc.name)
		}
	}
	members := func() []Member {
		return []Member{
			{Entity: kg.Entity{ID: 1, Name: "刘邦", Type: "人物"}, Score: 1.6},
			{Entity: kg.Entity{ID: 2, Name: "陈平", Type: "人物"}, Score: 1},
			{Entity: kg.Entity{ID: 3, Name: "刘启", Type: "人物"}, Score: 0.4},
			{Entity: kg.Entity{ID: 4, Name: "彭越", Type: "人物"}, Score: 0.3},
			{Entity: kg.Entity{ID: 5, Name: "刘贾", Type: "人物"}, Score: 0.2},
		}
	}
	names := func(ms []Member) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.Entity.Name)
		}
		return out
	}
	rulers := map[int64]ruling{1: founded, 3: succeeded}
	outside := &GlobalAsk{House: HouseOutside}
	house := houseOf(outside, members(), rulers)
	if house != "刘" {
		t.Fatalf("house %q, want 刘 from the rulers", house)
	}
	if got := names(bySurname(house, false, members())); !slices.Equal(got, []string{"陈平", "彭越", "刘邦", "刘启", "刘贾"}) {
		t.Errorf("outside the house: %v", got)
	}
	if got := names(bySurname(house, true, members())); !slices.Equal(got, []string{"刘邦", "刘启", "刘贾", "陈平", "彭越"}) {
		t.Errorf("within the house: %v", got)
	}
	if houseOf(&GlobalAsk{}, members(), rulers) != "" {
		t.Error("a group not drawn by the house has no house")
	}
	if houseOf(outside, members(), map[int64]ruling{1: founded, 2: succeeded}) != "" {
		t.Error("rulers of two surnames, one each: no house leads")
	}
}

// A list names each name once, at its best rank: 秦 the place and 秦 the
// power are one answer.
func TestDistinctNames(t *testing.T) {
	ms := []Member{
		{Entity: kg.Entity{ID: 1, Name: "秦", Type: "社会集团"}, Score: 3},
		{Entity: kg.Entity{ID: 2, Name: "楚", Type: "社会集团"}, Score: 2},
		{Entity: kg.Entity{ID: 3, Name: "秦", Type: "地点"}, Score: 1},
	}
	got := distinctNames(ms)
	if len(got) != 2 || got[0].Entity.ID != 1 || got[1].Entity.ID != 2 {
		t.Errorf("got %+v", got)
	}
}

// chapterSource has one chapter, a table of lords, and its names counted.
type chapterSource struct {
	noNames
	counts []store.EntityCount
}

func (chapterSource) DocumentsTitled(_ context.Context, terms []string) ([]int64, error) {
	if slices.Contains(terms, "功臣") {
		return []int64{7}, nil
	}
	return nil, nil
}

func (s chapterSource) EntitiesIn(context.Context, []int64, int) ([]store.EntityCount, error) {
	return s.counts, nil
}

// A chapter whose title holds the group's word speaks for the people it
// names more than once; a name it holds once (a table of a hundred
// lords) and a family name alone are not members.
func TestChapterMembersAreNamedTwice(t *testing.T) {
	src := chapterSource{counts: []store.EntityCount{
		{Entity: kg.Entity{ID: 1, Name: "韩信", Type: "人物", Mentions: 900}, Count: 6},
		{Entity: kg.Entity{ID: 2, Name: "孝景始", Type: "人物", Mentions: 1}, Count: 1},
		{Entity: kg.Entity{ID: 3, Name: "公孙", Type: "人物", Mentions: 21}, Count: 3},
	}}
	r := &Retriever{Src: src}
	a := &Analysis{Norm: "汉初的功臣有哪些？", Global: &GlobalAsk{Phrase: "汉初的功臣", Categories: []string{"功臣"}, Want: WantPerson}}
	cands := candidates{}
	get := cands.getter(func(e kg.Entity) bool { return wants(a.Global.Want, e) })
	kind, err := r.globalChapters(t.Context(), a, get)
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 1 || cands[1] == nil || cands[1].raw["chapter"] <= 0 {
		t.Errorf("want only 韩信 from the chapter, got %v", cands)
	}
	if kind {
		t.Error("功臣 names no chapter of a kind of people, yet the chapter was taken for one")
	}
}

// kindSource holds two chapters of eunuchs: 后汉书's 宦者列传 (9), the
// eunuchs it tells of, and an emperor and an enemy of theirs it names as
// well, who are named far more elsewhere; and one of 汉书 (10), of 西汉's
// eunuchs.
type kindSource struct{ noNames }

func (kindSource) DocumentsTitled(_ context.Context, terms []string) ([]int64, error) {
	if slices.Contains(terms, "宦者") {
		return []int64{9, 10}, nil
	}
	return nil, nil
}

var kindChapters = map[int64][]store.EntityCount{
	9: {
		{Entity: kg.Entity{ID: 1, Name: "孙程", Type: "人物", Mentions: 47}, Count: 26},
		{Entity: kg.Entity{ID: 2, Name: "张让", Type: "人物", Mentions: 51}, Count: 18},
		{Entity: kg.Entity{ID: 3, Name: "曹节", Type: "人物", Mentions: 74}, Count: 18},
		{Entity: kg.Entity{ID: 4, Name: "刘志", Type: "人物", Mentions: 187}, Count: 8},
		{Entity: kg.Entity{ID: 5, Name: "窦武", Type: "人物", Mentions: 60}, Count: 3},
	},
	10: {
		{Entity: kg.Entity{ID: 7, Name: "石显", Type: "人物", Mentions: 40}, Count: 35},
		{Entity: kg.Entity{ID: 8, Name: "弘恭", Type: "人物", Mentions: 12}, Count: 10},
	},
}

var kindYears = map[int64][]int{1: {125}, 2: {185, 189}, 3: {168}, 4: {150}, 5: {168}, 7: {-40, -33}, 8: {-47}}

func (kindSource) EntitiesIn(_ context.Context, docs []int64, _ int) ([]store.EntityCount, error) {
	var out []store.EntityCount
	for _, d := range docs {
		out = append(out, kindChapters[d]...)
	}
	return out, nil
}

func (kindSource) EntityYears(_ context.Context, ids []int64) (map[int64][]int, error) {
	out := map[int64][]int{}
	for _, id := range ids {
		if ys, ok := kindYears[id]; ok {
			out[id] = slices.Clone(ys)
		}
	}
	return out, nil
}

// A group word that names chapters of its kind (宦官: 宦者列传) makes
// those chapters the list: their chief subjects first, and whoever other
// evidence alone names (窦武, the eunuchs' enemy, all over the passages)
// after them; a chapter of another period (西汉's eunuchs, for 东汉's)
// lends none.
func TestKindChapterListsItsSubjects(t *testing.T) {
	typ, _ := classify("东汉有哪些宦官？", "zh")
	g := parseGlobal("东汉有哪些宦官？")
	if typ != QGlobal || g == nil || g.Phrase != "东汉的宦官" || !slices.Equal(g.Categories, []string{"宦官"}) {
		t.Fatalf("东汉有哪些宦官: %s %+v", typ, g)
	}
	r := &Retriever{Src: kindSource{}}
	a := &Analysis{Norm: "东汉的宦官有哪些？", Global: g}
	cands := candidates{}
	get := cands.getter(func(kg.Entity) bool { return true })
	get(kg.Entity{ID: 6, Name: "陈蕃", Type: "人物", Mentions: 80}).raw["passage"] = 3 // named by passages only
	cands[5] = &candidate{e: kg.Entity{ID: 5, Name: "窦武", Type: "人物", Mentions: 60}, raw: map[string]float64{"passage": 2, "relation": 2}}
	kind, err := r.globalChapters(t.Context(), a, get)
	if err != nil || !kind {
		t.Fatalf("宦官 does not name 宦者列传 as its chapter: %v %v", kind, err)
	}
	var names []string
	for _, m := range rankMembers(g, nil, cands, nil, kind) {
		names = append(names, m.Entity.Name)
	}
	if len(names) < 4 || !slices.Equal(names[:3], []string{"孙程", "张让", "曹节"}) || slices.Index(names, "陈蕃") < 4 {
		t.Errorf("members in order %v: want 孙程, 张让, 曹节 first, the chapter's chief subjects, and 陈蕃 after all of them", names)
	}
	if slices.Contains(names, "石显") || slices.Contains(names, "弘恭") {
		t.Errorf("members %v: 西汉's eunuchs listed among 东汉's", names)
	}
}

// listSource is a chapter's end: the sentence that says what the list
// is, an aside naming four more, a remark, and the list itself, name
// after name with their offices; then a narrative sentence naming others.
type listSource struct {
	noNames
	text string
	ms   []store.TypedMention
}

func newListSource(doc string, names map[string]string) listSource {
	s := listSource{text: doc}
	rs := []rune(doc)
	id := int64(0)
	ids := map[string]int64{}
	for i := 0; i < len(rs); i++ {
		for _, n := range []int{3, 2} {
			if i+n > len(rs) {
				continue
			}
			w := string(rs[i : i+n])
			if typ, ok := names[w]; ok {
				if ids[w] == 0 {
					id++
					ids[w] = id
				}
				s.ms = append(s.ms, store.TypedMention{Span: kg.Span{Start: i, End: i + n}, Surface: w, Type: typ, Name: w, EntityID: ids[w]})
				i += n - 1
				break
			}
		}
	}
	return s
}

func (s listSource) MentionsIn(_ context.Context, _ int64, start, end int) ([]store.TypedMention, error) {
	var out []store.TypedMention
	for _, m := range s.ms {
		if m.Start >= start && m.End <= end {
			out = append(out, m)
		}
	}
	return out, nil
}

// The histories' own list of a group follows the sentence that says what
// it is: its members are scored in its order, and the names of an aside
// inside that sentence, or of a story around it, are not the list.
func TestListsAfterTheirFramingSentence(t *testing.T) {
	doc := "永平中，显宗追感前世功臣，乃图画二十八将于南宫云台，其外又有王常、李通、窦融、卓茂，合三十二人。故依其本弟系之篇末，以志功臣之次云尔。\n" +
		"太傅高密侯邓禹中山太守全椒侯马成\n大司马广平侯吴汉河南尹阜成侯王梁\n左将军胶东侯贾复琅邪太守祝阿侯陈俊\n" +
		"后数年，耿国与窦固、耿秉、马防俱击匈奴，窦宪留屯。"
	src := newListSource(doc, map[string]string{
		"显宗": "人物", "南宫": "地点", "云台": "地点", "王常": "人物", "李通": "人物", "窦融": "人物", "卓茂": "人物",
		"太傅": "职官", "高密侯": "爵位", "邓禹": "人物", "中山太守": "职官", "全椒侯": "爵位", "马成": "人物",
		"大司马": "职官", "广平侯": "爵位", "吴汉": "人物", "河南尹": "职官", "阜成侯": "爵位", "王梁": "人物",
		"左将军": "职官", "胶东侯": "爵位", "贾复": "人物", "琅邪太守": "职官", "祝阿侯": "爵位", "陈俊": "人物",
		"耿国": "人物", "窦固": "人物", "耿秉": "人物", "马防": "人物", "匈奴": "社会集团", "窦宪": "人物",
	})
	r := &Retriever{Src: src}
	p := &store.Passage{DocID: 1, Start: 0, End: utf8.RuneCountInString(doc), Text: doc, Norm: doc, Lang: "lzh"}
	cands := candidates{}
	get := cands.getter(func(e kg.Entity) bool { return wants(WantPerson, e) })
	terms := []string{"云台", "二十", "十八", "八将"}
	if _, err := r.globalLists(t.Context(), p, origSentences(p), terms, nil, 1, get); err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, c := range cands {
		if c.raw["list"] > 0 {
			listed = append(listed, c.e.Name)
		}
	}
	slices.SortFunc(listed, func(a, b string) int {
		return cmp.Compare(cands[src.id(b)].raw["list"], cands[src.id(a)].raw["list"])
	})
	if want := []string{"邓禹", "马成", "吴汉", "王梁", "贾复", "陈俊"}; !slices.Equal(listed, want) {
		t.Errorf("listed %v, want %v in the list's order", listed, want)
	}

	// A sentence that holds one of the phrase's terms and none of the
	// entities the question names frames no list of theirs.
	clear(cands)
	if _, err := r.globalLists(t.Context(), p, origSentences(p), []string{"云台"}, []kg.Entity{{ID: 99, Name: "孔子"}}, 1, get); err != nil {
		t.Fatal(err)
	}
	if len(cands) != 0 {
		t.Errorf("a sentence without 孔子 framed a list of his: %v", cands)
	}
}

// passageSource holds one passage, the one every search finds.
type passageSource struct {
	listSource
	p store.Passage
}

func (s passageSource) Passages(context.Context, []int64) ([]store.Passage, error) {
	return []store.Passage{s.p}, nil
}

// The sentence that frames a list counts for the list's members once,
// through the list and in its order: 王常 and 李通, named in it as an
// aside and again at the list's end, come after the twenty-eight, not
// before them for standing in the sentence that best fits the question.
func TestFramingSentenceCountsForItsListOnce(t *testing.T) {
	doc := "永平中，显宗追感前世功臣，乃图画二十八将于南宫云台，其外又有王常、李通，合三十人。故依其本弟系之篇末，以志功臣之次云尔。\n" +
		"太傅高密侯邓禹中山太守全椒侯马成\n大司马广平侯吴汉河南尹阜成侯王梁\n左将军胶东侯贾复琅邪太守祝阿侯陈俊\n" +
		"卫尉安成侯李通右将军槐里侯王常"
	src := newListSource(doc, map[string]string{
		"显宗": "人物", "南宫": "地点", "云台": "地点", "王常": "人物", "李通": "人物",
		"太傅": "职官", "高密侯": "爵位", "邓禹": "人物", "中山太守": "职官", "全椒侯": "爵位", "马成": "人物",
		"大司马": "职官", "广平侯": "爵位", "吴汉": "人物", "河南尹": "职官", "阜成侯": "爵位", "王梁": "人物",
		"左将军": "职官", "胶东侯": "爵位", "贾复": "人物", "琅邪太守": "职官", "祝阿侯": "爵位", "陈俊": "人物",
		"卫尉": "职官", "安成侯": "爵位", "右将军": "职官", "槐里侯": "爵位",
	})
	p := store.Passage{ChunkID: 1, DocID: 1, Start: 0, End: utf8.RuneCountInString(doc), Text: doc, Norm: doc, Lang: "lzh"}
	r := &Retriever{Src: passageSource{src, p}, Lexical: func(context.Context, string, int) ([]Scored, error) {
		return []Scored{{ID: 1, Score: 1}}, nil
	}}
	a := &Analysis{Global: parseGlobal("云台二十八将有哪些人？")}
	cands := candidates{}
	get := cands.getter(func(e kg.Entity) bool { return wants(WantPerson, e) })
	if err := r.globalPassages(t.Context(), a, nil, get); err != nil {
		t.Fatal(err)
	}
	deng, wang := cands[src.id("邓禹")], cands[src.id("王常")]
	if deng == nil || wang == nil {
		t.Fatalf("邓禹 or 王常 not found: %v", cands)
	}
	if wang.raw["passage"] > deng.raw["passage"] {
		t.Errorf("王常 scored %.3f for his passage, 邓禹 %.3f: the framing sentence counted besides the list", wang.raw["passage"], deng.raw["passage"])
	}
	if !(deng.raw["list"] > wang.raw["list"]) || wang.raw["list"] == 0 {
		t.Errorf("list scores: 邓禹 %.4f, 王常 %.4f; want 邓禹 first and 王常 listed", deng.raw["list"], wang.raw["list"])
	}
}

func (s listSource) id(name string) int64 {
	for _, m := range s.ms {
		if m.Name == name {
			return m.EntityID
		}
	}
	return 0
}

// A member may stand well after the period a question names (a rebel of
// 王莽末年 who reigned after it) but only a little before it: 丁姬, dated
// by 哀帝's reign, is no 东汉 consort's kin.
func TestPeriodLeadIn(t *testing.T) {
	g := parseGlobal("东汉把持朝政的外戚有哪些？")
	if g == nil || g.From == nil {
		t.Fatal("东汉 is not read as a period")
	}
	for y, want := range map[int]bool{-5: false, 10: true, 30: true, 240: true, 260: false} {
		if g.near(y) != want {
			t.Errorf("东汉 (%d–%d): near(%d) = %v", *g.From, *g.To, y, !want)
		}
	}
	g = parseGlobal("王莽末年起兵的有哪些人？")
	if g.Link != LinkEnemy || g.near(5) || !g.near(12) || !g.near(40) {
		t.Errorf("王莽末年起兵: link %q, near 5/12/40 = %v/%v/%v", g.Link, g.near(5), g.near(12), g.near(40))
	}
}

// A question of a person's clan asks for those of its family name, the
// name the question writes in full where the graph knows a shorter one;
// the person is the one named before 的 and the group word, not one who
// qualifies her (汉元帝) nor a title after (王侯).
func TestClanOfTheNamedPerson(t *testing.T) {
	for _, tc := range []struct {
		q        string
		entities []Mention
		clan     string
	}{
		{"吕后的亲族中被封王侯的有哪些？", []Mention{
			{Text: "吕后", Span: kg.Span{Start: 0, End: 2}, Entity: kg.Entity{ID: 1, Name: "吕雉", Type: "人物"}},
			{Text: "王侯", Span: kg.Span{Start: 8, End: 10}, Entity: kg.Entity{ID: 2, Name: "王侯", Type: "人物"}},
		}, "吕"},
		{"汉元帝皇后王政君的家族中封侯掌权的有哪些人？", []Mention{
			{Text: "汉元帝", Span: kg.Span{Start: 0, End: 3}, Entity: kg.Entity{ID: 3, Name: "刘奭", Type: "人物"}},
			{Text: "皇后", Span: kg.Span{Start: 3, End: 5}, Entity: kg.Entity{ID: 4, Name: "皇后", Type: "职官"}},
			{Text: "政君", Span: kg.Span{Start: 6, End: 8}, Entity: kg.Entity{ID: 5, Name: "政君", Type: "人物"}},
		}, "王"},
		{"孙权的儿子有哪些？", []Mention{{Text: "孙权", Span: kg.Span{Start: 0, End: 2}, Entity: kg.Entity{ID: 6, Name: "孙权", Type: "人物"}}}, ""},
	} {
		a := &Analysis{Norm: tc.q, Entities: tc.entities, Global: parseGlobal(tc.q)}
		if a.Global == nil {
			t.Fatalf("%s: no global ask", tc.q)
		}
		if got := clanOf(a); got != tc.clan {
			t.Errorf("%s: clan %q, want %q", tc.q, got, tc.clan)
		}
	}
	ms := bySurname("吕", true, []Member{
		{Entity: kg.Entity{ID: 1, Name: "刘盈"}, Score: 1},
		{Entity: kg.Entity{ID: 2, Name: "吕台"}, Score: 0.3},
		{Entity: kg.Entity{ID: 3, Name: "张耳"}, Score: 0.8},
		{Entity: kg.Entity{ID: 4, Name: "吕产"}, Score: 0.2},
	})
	var names []string
	for _, m := range ms {
		names = append(names, m.Entity.Name)
	}
	if !slices.Equal(names, []string{"吕台", "吕产", "刘盈", "张耳"}) {
		t.Errorf("clan first: %v", names)
	}

	// The anchors are the person before the group word, not the emperor
	// who qualifies her nor the office between.
	g := parseGlobal("汉元帝皇后王政君的家族中封侯掌权的有哪些人？")
	a := &Analysis{Norm: "汉元帝皇后王政君的家族中封侯掌权的有哪些人？", Global: g, Entities: []Mention{
		{Text: "汉元帝", Span: kg.Span{Start: 0, End: 3}, Entity: kg.Entity{ID: 3, Name: "刘奭", Type: "人物"}},
		{Text: "皇后", Span: kg.Span{Start: 3, End: 5}, Entity: kg.Entity{ID: 4, Name: "皇后", Type: "职官"}},
		{Text: "政君", Span: kg.Span{Start: 6, End: 8}, Entity: kg.Entity{ID: 5, Name: "政君", Type: "人物"}},
	}}
	anchors, err := (&Retriever{Src: noNames{}}).anchors(t.Context(), a)
	if err != nil || len(anchors) != 1 || anchors[0].Name != "政君" {
		t.Errorf("anchors %v (%v), want 政君 alone", anchors, err)
	}
}

// The group word is no member of its group.
func TestGroupWordIsNoMember(t *testing.T) {
	g := parseGlobal("东汉时东方、东北方的东夷诸国诸族有哪些？")
	if g.admits(kg.Entity{Name: "东夷", Type: "社会集团"}) || !g.admits(kg.Entity{Name: "挹娄", Type: "社会集团"}) {
		t.Errorf("东夷诸国诸族 admits 东夷 %v, 挹娄 %v", g.admits(kg.Entity{Name: "东夷", Type: "社会集团"}), g.admits(kg.Entity{Name: "挹娄", Type: "社会集团"}))
	}
	if g.admits(kg.Entity{Name: "张骞", Type: "人物"}) {
		t.Error("a list of peoples admits a person")
	}
}

// rankSource knows the ranks of three men: 刘邦 was made 汉王 in many
// sentences and a marquis in one, 陈平 only marquis, 叔孙通 nothing.
type rankSource struct{ noNames }

func (rankSource) Statements(_ context.Context, id int64, types []string, _ int) ([]kg.Relation, error) {
	if !slices.Equal(types, rankTypes) {
		return nil, nil
	}
	switch id {
	case 1:
		return []kg.Relation{{Tail: "汉王", Support: 34}, {Tail: "武安侯", Support: 4}, {Tail: "沛公", Support: 12}}, nil
	case 2:
		return []kg.Relation{{Tail: "曲逆侯", Support: 2}, {Tail: "赵王后", Support: 1}}, nil
	}
	return nil, nil
}

// A group of kings keeps those made kings in most of what the texts say
// of their ranks, and lowers those of other ranks and of none; a group of
// kings and marquises keeps the marquis too.
func TestRanksNarrowTheMembers(t *testing.T) {
	members := func() []Member {
		return []Member{
			{Entity: kg.Entity{ID: 3, Name: "叔孙通", Type: "人物"}, Score: 1},
			{Entity: kg.Entity{ID: 2, Name: "陈平", Type: "人物"}, Score: 0.9},
			{Entity: kg.Entity{ID: 1, Name: "刘邦", Type: "人物"}, Score: 0.8},
		}
	}
	r := &Retriever{Src: rankSource{}}
	for _, tc := range []struct {
		role string
		want []string
	}{
		{RoleKing, []string{"刘邦", "叔孙通", "陈平"}},
		{RoleNoble, []string{"陈平", "刘邦", "叔孙通"}},
		{"", []string{"叔孙通", "陈平", "刘邦"}},
	} {
		ms, err := r.byRole(t.Context(), tc.role, members())
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range ms {
			got = append(got, m.Entity.Name)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("role %q: %v, want %v", tc.role, got, tc.want)
		}
	}
}

// consortSource holds an empress, her brother and her son.
type consortSource struct{ noNames }

func (consortSource) EntitiesNamedEnding(_ context.Context, typ string, suffixes []string, _ int) ([]kg.Entity, error) {
	if typ != "人物" || !slices.Contains(suffixes, "太后") {
		return nil, nil
	}
	return []kg.Entity{{ID: 1, Name: "窦太后", Type: "人物"}}, nil
}

func (consortSource) Edges(context.Context, int64, int) ([]store.Edge, error) {
	return []store.Edge{{RelationID: 1, Support: 2}, {RelationID: 2, Support: 2}, {RelationID: 3, Support: 1}}, nil
}

func (consortSource) Statements(_ context.Context, id int64, _ []string, _ int) ([]kg.Relation, error) {
	if id != 1 {
		return nil, nil
	}
	return []kg.Relation{
		{ID: 1, HeadID: 1, Head: "窦太后", HeadType: "人物", Type: "同胞", TailID: 2, Tail: "窦宪", TailType: "人物"},
		{ID: 2, HeadID: 1, Head: "窦太后", HeadType: "人物", Type: "子女", TailID: 3, Tail: "刘肇", TailType: "人物"},
		{ID: 3, HeadID: 4, Head: "窦勋", HeadType: "人物", Type: "子女", TailID: 1, Tail: "窦太后", TailType: "人物"},
	}, nil
}

// 外戚 are the kin of the empresses, whom the question does not name:
// their brothers and fathers, not their sons.
func TestConsortKinAreTheEmpressesKin(t *testing.T) {
	g := parseGlobal("东汉把持朝政的外戚有哪些？")
	if g == nil || g.Link != LinkConsort || g.Want != WantPerson {
		t.Fatalf("外戚 read as %+v", g)
	}
	r := &Retriever{Src: consortSource{}}
	a := &Analysis{Global: g}
	anchors, err := r.anchors(t.Context(), a)
	if err != nil {
		t.Fatal(err)
	}
	if len(anchors) != 1 || anchors[0].Name != "窦太后" {
		t.Fatalf("anchors %v, want the empress", anchors)
	}
	cands := candidates{}
	get := cands.getter(func(e kg.Entity) bool { return e.ID != 1 && g.admits(e) })
	if err := r.globalRelations(t.Context(), g, anchors, get); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[int64]bool{2: true, 3: false, 4: true} {
		if got := cands[id] != nil && cands[id].raw["relation"] > 0; got != want {
			t.Errorf("entity %d counted as 外戚: %v, want %v", id, got, want)
		}
	}
}

// favourSource holds a lord, an adviser he favoured three times and
// clashed with once, and a rival he fought.
type favourSource struct{ noNames }

func (favourSource) Edges(context.Context, int64, int) ([]store.Edge, error) {
	return []store.Edge{{RelationID: 1, Support: 3}, {RelationID: 2, Support: 1}, {RelationID: 3, Support: 2}}, nil
}

func (favourSource) Statements(_ context.Context, id int64, types []string, _ int) ([]kg.Relation, error) {
	if id != 1 {
		return nil, nil
	}
	all := []kg.Relation{
		{ID: 1, HeadID: 1, Head: "曹操", HeadType: "人物", Type: "积极态度倾向", TailID: 2, Tail: "荀彧", TailType: "人物"},
		{ID: 2, HeadID: 1, Head: "曹操", HeadType: "人物", Type: "消极态度倾向", TailID: 2, Tail: "荀彧", TailType: "人物"},
		{ID: 3, HeadID: 1, Head: "曹操", HeadType: "人物", Type: "攻", TailID: 3, Tail: "吕布", TailType: "人物"},
	}
	var out []kg.Relation
	for _, rel := range all {
		if slices.Contains(types, rel.Type) {
			out = append(out, rel)
		}
	}
	return out, nil
}

// Under any link, favour counts as friendship: an adviser favoured three
// times and opposed once is no enemy, a rival fought is.
func TestFavourOutweighsOpposition(t *testing.T) {
	g := &GlobalAsk{Phrase: "曹操的谋士", Link: LinkSubordinate}
	r := &Retriever{Src: favourSource{}}
	cands := candidates{}
	get := cands.getter(func(e kg.Entity) bool { return e.ID != 1 })
	if err := r.globalRelations(t.Context(), g, []kg.Entity{{ID: 1, Name: "曹操", Type: "人物"}}, get); err != nil {
		t.Fatal(err)
	}
	if c := cands[2]; c == nil || c.friend <= c.enemy {
		t.Errorf("荀彧 counted as an enemy: %+v", c)
	}
	if c := cands[3]; c == nil || c.enemy <= c.friend {
		t.Errorf("吕布 not counted as an enemy: %+v", c)
	}
}
