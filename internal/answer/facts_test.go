package answer

import (
	"context"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/retrieve"
	"github.com/annals-project/annals/internal/store"
)

func TestTellsKilling(t *testing.T) {
	for _, tt := range []struct {
		s, head, tail string
		want          bool
	}{
		{"布曰有诏，遂杀卓，夷三族。", "布", "卓", true},
		{"夏四月，司徒王允与吕布共杀卓。", "吕布", "卓", true},
		{"董卓为吕布所杀。", "吕布", "董卓", true},
		{"时允与仆射士孙瑞密谋诛卓。", "士孙瑞", "卓", false}, // a plot, not the deed
		{"绍欲杀之，不果。", "绍", "之", false},
		{"布由是阴怨于卓。", "布", "卓", false},
		{"渊众甚精，忠推锋必进，劝率士卒，金鼓振天，欢声动谷，一战斩渊，渊军大败。", "忠", "渊", true},
		{"既至王前，专诸擘鱼，因以匕首刺王僚，王僚立死。", "专诸", "王僚", true},
		{"璋以庞羲为巴西刺史羲。", "庞羲", "羲", false}, // 刺史 is an office
		// The one killed named twice: the second is the killing.
		{"先主命黄忠乘高鼓噪攻之，大破渊军，斩渊及曹公所署益州刺史赵颙等。", "黄忠", "渊", true},
		{"先主命黄忠乘高鼓噪攻之，大破渊军，渊等授首。", "黄忠", "渊", false},
		// Killed another, then attacked him: 布 lived.
		{"卓将李傕、郭汜等杀允攻布，布败，东出武关。", "李傕", "布", false},
		{"权遣将逆击羽，斩羽及子平于临沮。", "权", "羽", true},
		{"绍恐还为己害，遣壮士夜掩杀布，不获。", "绍", "布", false}, // an attempt that failed
		// Killed by a pronoun in the clause after the fight.
		{"十二月癸酉，曹操击吕布于徐州，斩之。", "曹操", "吕布", true},
		{"曹操击吕布于徐州，欲斩之。", "曹操", "吕布", false},
		// Killed another for him.
		{"布自以杀卓为术报雠，欲以德之。", "布", "术", false},
	} {
		if got := tellsKilling(tt.s, tt.head, tt.tail, true); got != tt.want {
			t.Errorf("%s (%s → %s): %v, want %v", tt.s, tt.head, tt.tail, got, tt.want)
		}
	}
}

func TestLastSentence(t *testing.T) {
	for in, want := range map[string]string{
		"术怒，击昕走之。初平三年，术遣孙坚击刘表于襄阳，坚战死。": "初平三年，术遣孙坚击刘表于襄阳，坚战死。",
		"夏四月，司徒王允与吕布共杀卓。":              "夏四月，司徒王允与吕布共杀卓。",
		"  斩之  ": "斩之",
	} {
		if got := lastSentence(in); got != want {
			t.Errorf("lastSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFleesTo(t *testing.T) {
	for _, tt := range []struct {
		s, who, whom string
		want         bool
	}{
		{"建安五年，曹公东征，先主奔袁绍。", "先主", "袁绍", true},
		{"先主背曹公依袁绍、刘表。", "先主", "刘表", true},
		{"既到，谦以丹杨兵四千益先主，先主遂去楷归谦。", "先主", "谦", true},
		{"先主与刘表相见，表甚重之。", "先主", "刘表", false},
	} {
		if got := fleesTo(tt.s, tt.who, tt.whom); got != tt.want {
			t.Errorf("%s (%s → %s): %v, want %v", tt.s, tt.who, tt.whom, got, tt.want)
		}
	}
}

// aliasSource serves alias sentences by entity.
type aliasSource struct {
	retrieve.Source
	aliases map[int64][]store.AliasEvidence
}

func (s aliasSource) AliasEvidence(_ context.Context, id int64, kinds []string) ([]store.AliasEvidence, error) {
	var out []store.AliasEvidence
	for _, a := range s.aliases[id] {
		if len(kinds) == 0 || slices.Contains(kinds, a.Kind) {
			out = append(out, a)
		}
	}
	return out, nil
}

// An entity named only by the title asked is no answer to who it is; the
// person the title is recorded for is.
func TestIdentityOfATitleEntity(t *testing.T) {
	ev := kg.Evidence{Sentence: "后主讳禅，字公嗣，先主子也。"}
	src := aliasSource{aliases: map[int64][]store.AliasEvidence{
		2: {{Alias: "公嗣", Kind: "字", Evidence: ev}, {Alias: "后主", Kind: "称号", Evidence: ev}},
	}}
	title := kg.Entity{ID: 1, Name: "后主", Type: "人物", Mentions: 55}
	person := kg.Entity{ID: 2, Name: "刘禅", Type: "人物", Mentions: 13}
	a := &retrieve.Analysis{Norm: "后主是谁？", Type: retrieve.QIdentity, Asks: &retrieve.Ask{Label: "身份", Subject: "后主"},
		Entities: []retrieve.Mention{{Text: "后主", Entity: title}}, Others: []kg.Entity{person}}
	f := &factual{src: src, a: a, subject: title}
	got, evs, conf, err := f.identity(context.Background())
	if err != nil || got != "后主即刘禅，字公嗣。" || len(evs) == 0 || conf < 0.5 || len(a.Others) != 0 {
		t.Fatalf("%q %d %.2f %v, others %v", got, len(evs), conf, err, a.Others)
	}
}

// 又称 asks for the other names: the given name cut from the one asked
// about is no answer while the texts give any other, and is one when
// they give none.
func TestOtherNamesLeaveTheGivenName(t *testing.T) {
	ev := kg.Evidence{Norm: "诸葛亮字孔明，琅邪阳都人也。"}
	liang := kg.Entity{ID: 1, Name: "诸葛亮", Type: "人物"}
	ask := func() *retrieve.Analysis {
		return &retrieve.Analysis{Norm: "诸葛亮又称什么？", Type: retrieve.QCourtesy, Asks: &retrieve.Ask{Label: "别称", List: true}}
	}
	given := []store.AliasEvidence{{Alias: "亮", Kind: "名", Evidence: ev}, {Alias: "亮", Kind: "名", Evidence: ev}, {Alias: "亮", Kind: "名", Evidence: ev}}
	for _, tc := range []struct {
		als  []store.AliasEvidence
		want string
	}{
		{append(slices.Clone(given), store.AliasEvidence{Alias: "孔明", Kind: "字", Evidence: ev}), "孔明"},
		{given, "亮"},
	} {
		f := &factual{src: aliasSource{aliases: map[int64][]store.AliasEvidence{1: tc.als}}, a: ask(), subject: liang}
		cands, err := f.names(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range cands {
			got = append(got, c.value)
		}
		if strings.Join(got, "、") != tc.want {
			t.Errorf("other names %v, want %s", got, tc.want)
		}
	}
	// 名 is asked for by name elsewhere, and keeps it.
	a := ask()
	a.Asks.Label = "名"
	f := &factual{src: aliasSource{aliases: map[int64][]store.AliasEvidence{1: given}}, a: a, subject: liang}
	if cands, err := f.names(context.Background()); err != nil || len(cands) != 1 || cands[0].value != "亮" {
		t.Errorf("given name asked for: %v %v", cands, err)
	}
}

// A child is stated where the kin word joins the parent to him, not
// where a 子 follows some other name in the parent's sentence.
func TestStatesChild(t *testing.T) {
	for _, c := range []struct {
		s, parent, child string
		want             bool
	}{
		{"操子丕，载其凶逆。", "操", "丕", true},
		{"孙亮字子明，权少子也。", "权", "孙亮", true},
		{"孙休字子烈，权第六子。", "权", "孙休", true},
		{"侍中诸葛瞻，丞相亮之子，恪从弟也。", "亮", "诸葛瞻", true},
		{"瞻，亮子也。", "亮", "瞻", true},
		{"权遣将逆击羽，斩羽及子平于临沮。", "权", "平", false},
		{"孙策破勋，术女入孙权宫，子曜仕吴为郎中。", "孙权", "曜", false},
		{"随亮至汉中。年二十五卒。子攀，官至行护军。", "亮", "攀", false},
		{"武皇帝二十五男：卞皇后生文皇帝、任城威王彰、陈思王植。", "武皇帝", "彰", true},
		{"文帝九男：甄氏皇后生明帝。", "文帝", "明帝", true},
		{"武皇帝崩，卞皇后生二男：彰、植。", "武皇帝", "彰", false},
	} {
		if got := statesChild(c.s, c.parent, c.child); got != c.want {
			t.Errorf("statesChild(%q, %q, %q) = %v", c.s, c.parent, c.child, got)
		}
	}
}

// A list keeps every value a formula states, however far the best one
// leads, and the others only within a third of the best.
func TestListedKeepsStatedValues(t *testing.T) {
	cands := []candidate{{value: "孙登", score: 9}, {value: "孙曜", score: 1}, {value: "孙亮", score: 1, stated: true}, {value: "孙和", score: 3}}
	var got []string
	for _, c := range listed(cands, false) {
		got = append(got, c.value)
	}
	if strings.Join(got, "、") != "孙登、孙亮、孙和" {
		t.Fatalf("%v", got)
	}
	// Kin lists keep the best and what a formula states.
	cands = []candidate{{value: "孙登", score: 11.5, stated: true}, {value: "孙曜", score: 4}, {value: "孙亮", score: 1, stated: true}}
	got = nil
	for _, c := range listed(cands, true) {
		got = append(got, c.value)
	}
	if strings.Join(got, "、") != "孙登、孙亮" {
		t.Fatalf("stated only: %v", got)
	}
}

// holdingSource adds statements to aliasSource.
type holdingSource struct {
	aliasSource
	rels []kg.Relation
}

func (s holdingSource) Statements(_ context.Context, id int64, types []string, _ int) ([]kg.Relation, error) {
	var out []kg.Relation
	for _, r := range s.rels {
		if (r.HeadID == id || r.TailID == id) && slices.Contains(types, r.Type) {
			out = append(out, r)
		}
	}
	return out, nil
}

// A title the name model read as an office names the one man who holds
// it; an office several hold names no one.
func TestIdentityOfATitleOneManHolds(t *testing.T) {
	ev := func(s string) kg.Evidence { return kg.Evidence{Sentence: s} }
	zi := kg.Evidence{Sentence: "孙权字仲谋。"}
	title := kg.Entity{ID: 1, Name: "吴主", Type: "职官"}
	office := kg.Entity{ID: 3, Name: "丞相", Type: "职官"}
	src := holdingSource{
		aliasSource: aliasSource{aliases: map[int64][]store.AliasEvidence{2: {{Alias: "仲谋", Kind: "字", Evidence: zi}}}},
		rels: []kg.Relation{
			{HeadID: 2, Head: "孙权", HeadType: "人物", Type: "任官", TailID: 1, Tail: "吴主", Evidence: []kg.Evidence{ev("吴主孙权遣使。"), ev("吴主权称尊号。")}},
			{HeadID: 2, Head: "孙权", HeadType: "人物", Type: "任官", TailID: 3, Tail: "丞相", Evidence: []kg.Evidence{ev("以权为丞相。")}},
			{HeadID: 4, Head: "诸葛亮", HeadType: "人物", Type: "任官", TailID: 3, Tail: "丞相", Evidence: []kg.Evidence{ev("以亮为丞相。"), ev("丞相亮。")}},
		},
	}
	ask := func(e kg.Entity) string {
		a := &retrieve.Analysis{Norm: e.Name + "是谁？", Type: retrieve.QIdentity, Asks: &retrieve.Ask{Label: "身份", Subject: e.Name},
			Entities: []retrieve.Mention{{Text: e.Name, Entity: e}}}
		f := &factual{src: src, a: a, subject: e}
		got, _, _, err := f.identity(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := ask(title); got != "吴主即孙权，字仲谋。" {
		t.Errorf("吴主: %q", got)
	}
	if got := ask(office); got != "" {
		t.Errorf("丞相: %q, want no answer", got)
	}
}

// A person with no other name to give is said to be who he was by the
// office the texts give him most often.
func TestIdentityByTheOfficeMostGiven(t *testing.T) {
	ev := func(s string) kg.Evidence { return kg.Evidence{Sentence: s} }
	qian := kg.Entity{ID: 5, Name: "司马迁", Type: "人物"}
	src := holdingSource{rels: []kg.Relation{
		{HeadID: 5, Head: "司马迁", HeadType: "人物", Type: "任官", TailID: 6, Tail: "中书令", Evidence: []kg.Evidence{ev("迁既被刑之后，为中书令。")}},
		{HeadID: 5, Head: "司马迁", HeadType: "人物", Type: "任官", TailID: 8, Tail: "使者", Evidence: []kg.Evidence{ev("迁为使者。"), ev("使者迁。"), ev("迁以使者。")}},
		{HeadID: 5, Head: "司马迁", HeadType: "人物", Type: "任官", TailID: 7, Tail: "太史令", Evidence: []kg.Evidence{ev("太史令司马迁采《左氏》。"), ev("诏太史令司马迁。")}},
	}}
	a := &retrieve.Analysis{Norm: "司马迁是谁？", Type: retrieve.QIdentity, Asks: &retrieve.Ask{Label: "身份", Subject: "司马迁"},
		Entities: []retrieve.Mention{{Text: "司马迁", Entity: qian}}}
	f := &factual{src: src, a: a, subject: qian}
	got, evs, _, err := f.identity(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got != "司马迁，曾任太史令。" || len(evs) != 1 {
		t.Errorf("got %q with %d citations", got, len(evs))
	}
	f.subject = kg.Entity{ID: 8, Name: "无名", Type: "人物"}
	f.a.Asks.Subject = "无名"
	if got, _, _, _ := f.identity(context.Background()); got != "" {
		t.Errorf("a person with nothing said of him: %q, want no answer", got)
	}
}

// 谁刺杀了X asks who stabbed him: the killer whose sentence stabs comes
// before the one who had him killed.
func TestKillersByTheWayAsked(t *testing.T) {
	liao := kg.Entity{ID: 1, Name: "王僚", Type: "人物"}
	ev := func(s, head, tail string) kg.Evidence {
		h := strings.Index(s, head)
		tl := strings.Index(s, tail)
		return kg.Evidence{Sentence: s, Norm: s, Head: kg.Span{Start: len([]rune(s[:h])), End: len([]rune(s[:h])) + len([]rune(head))}, Tail: kg.Span{Start: len([]rune(s[:tl])), End: len([]rune(s[:tl])) + len([]rune(tail))}}
	}
	src := holdingSource{rels: []kg.Relation{
		{HeadID: 2, Head: "公子光", HeadType: "人物", Type: "消极态度倾向", TailID: 1, Tail: "王僚", Evidence: []kg.Evidence{ev("公子光弑王僚。", "公子光", "王僚"), ev("公子光遂杀王僚。", "公子光", "王僚")}},
		{HeadID: 3, Head: "专诸", HeadType: "人物", Type: "消极态度倾向", TailID: 1, Tail: "王僚", Evidence: []kg.Evidence{ev("专诸擘鱼，因以匕首刺王僚。", "专诸", "王僚")}},
	}}
	for q, want := range map[string]string{"谁刺杀了王僚？": "专诸", "谁杀了王僚？": "公子光"} {
		a := &retrieve.Analysis{Norm: q, Type: retrieve.QKiller, Asks: &retrieve.Ask{Label: "杀", Subject: "王僚", FromTail: true, Relations: []string{"消极态度倾向"}}}
		f := &factual{src: src, a: a, subject: liao, own: map[int64]bool{}}
		cands, err := f.killers(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
		if len(cands) == 0 || cands[0].value != want {
			t.Errorf("%s: %+v, want %s first", q, cands, want)
		}
	}
}

// mentionSource counts entities' mentions.
type mentionSource struct {
	retrieve.Source
	mentions map[int64]int
}

func (s mentionSource) EntitiesByID(_ context.Context, ids []int64) ([]kg.Entity, error) {
	var out []kg.Entity
	for _, id := range ids {
		out = append(out, kg.Entity{ID: id, Mentions: s.mentions[id]})
	}
	return out, nil
}

// Values equally supported are listed by how much the texts name them.
func TestByProminence(t *testing.T) {
	f := &factual{src: mentionSource{mentions: map[int64]int{1: 3, 2: 200, 3: 50}}}
	cands := []candidate{{value: "曹丕", score: 9}, {value: "曹均", id: 1, score: 1}, {value: "曹植", id: 2, score: 1}, {value: "曹彰", id: 3, score: 1}}
	if err := f.byProminence(context.Background(), cands); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cands {
		got = append(got, c.value)
	}
	if strings.Join(got, "、") != "曹丕、曹植、曹彰、曹均" {
		t.Errorf("%v", got)
	}
}
