package bio

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// fakeSource holds a person's facts as the store would give them.
type fakeSource struct {
	aliases []store.AliasEvidence
	rels    []kg.Relation
	own     map[int64]bool
	uses    []store.NameUse
}

func (f fakeSource) NameUses(context.Context, int64, int) ([]store.NameUse, error) {
	return f.uses, nil
}

func (f fakeSource) AliasEvidence(_ context.Context, _ int64, kinds []string) ([]store.AliasEvidence, error) {
	var out []store.AliasEvidence
	for _, a := range f.aliases {
		if len(kinds) == 0 || slices.Contains(kinds, a.Kind) {
			out = append(out, a)
		}
	}
	return out, nil
}

func (f fakeSource) Statements(_ context.Context, _ int64, types []string, _ int) ([]kg.Relation, error) {
	var out []kg.Relation
	for _, r := range f.rels {
		if slices.Contains(types, r.Type) {
			out = append(out, r)
		}
	}
	return out, nil
}

func (f fakeSource) OwnDocuments(context.Context, int64) (map[int64]bool, error) { return f.own, nil }

// chapter is 诸葛亮's own chapter (document 1); other is another (2).
const chapter = "诸葛亮字孔明，琅邪阳都人也。父珪。亮弟均。先主以亮为军师将军。建兴元年，封亮武乡侯。以亮为丞相。亮子瞻。十二年，亮卒于五丈原，时年五十四。"

// ev is the evidence of a sentence of doc that holds the words, with the
// head and tail where the text names them.
func ev(doc int64, text, sentence, head, tail string, year int) kg.Evidence {
	at := strings.Index(text, sentence)
	if at < 0 {
		panic(sentence)
	}
	start := len([]rune(text[:at]))
	span := func(s string) kg.Span {
		i := strings.Index(sentence, s)
		if s == "" || i < 0 {
			return kg.Span{}
		}
		a := start + len([]rune(sentence[:i]))
		return kg.Span{Start: a, End: a + len([]rune(s))}
	}
	e := kg.Evidence{DocID: doc, DocKey: map[int64]string{1: "诸葛亮传", 2: "后主传"}[doc], Cite: "《诸葛亮传》",
		Span: kg.Span{Start: start, End: start + len([]rune(sentence))}, Sentence: sentence, Norm: sentence,
		Head: span(head), Tail: span(tail)}
	if year != 0 {
		e.Year = &year
	}
	return e
}

const self = 1

func rel(typ string, head, tail int64, headName, tailName string, evs ...kg.Evidence) kg.Relation {
	types := map[string]string{"籍贯": "地点", "任官": "职官", "封爵": "爵位", "死亡时间": "时间", "卒于": "地点"}
	tt := types[typ]
	if tt == "" {
		tt = "人物"
	}
	return kg.Relation{Type: typ, HeadID: head, Head: headName, HeadType: "人物", TailID: tail, Tail: tailName, TailType: tt, Evidence: evs}
}

func zhuge() fakeSource {
	other := "后主立，以丞相亮领益州牧。孙权遣使诣亮。"
	return fakeSource{
		own: map[int64]bool{1: true},
		aliases: []store.AliasEvidence{
			{Alias: "孔明", Kind: "字", Evidence: ev(1, chapter, "诸葛亮字孔明，琅邪阳都人也。", "诸葛亮", "孔明", 0)},
			{Alias: "亮", Kind: "名", Evidence: ev(1, chapter, "亮弟均。", "", "亮", 0)},
		},
		rels: []kg.Relation{
			// Told county first in the store; the sentence's order wins.
			rel("籍贯", self, 10, "诸葛亮", "阳都", ev(1, chapter, "诸葛亮字孔明，琅邪阳都人也。", "诸葛亮", "阳都", 0)),
			rel("籍贯", self, 11, "诸葛亮", "琅邪", ev(1, chapter, "诸葛亮字孔明，琅邪阳都人也。", "诸葛亮", "琅邪", 0)),
			rel("子女", 20, self, "诸葛珪", "诸葛亮", ev(1, chapter, "父珪。", "珪", "", 0)),
			rel("同胞", self, 21, "诸葛亮", "诸葛均", ev(1, chapter, "亮弟均。", "亮", "均", 0)),
			rel("子女", self, 22, "诸葛亮", "诸葛瞻", ev(1, chapter, "亮子瞻。", "亮", "瞻", 234)),
			// A "child" only another chapter names once: a misreading.
			rel("子女", self, 23, "诸葛亮", "孙权", ev(2, other, "孙权遣使诣亮。", "亮", "孙权", 0)),
			rel("任官", self, 30, "诸葛亮", "益州牧", ev(2, other, "后主立，以丞相亮领益州牧。", "亮", "益州牧", 223)),
			rel("任官", self, 31, "诸葛亮", "丞相", ev(1, chapter, "以亮为丞相。", "亮", "丞相", 221)),
			// Dated before his birth by the year in force: kept, undated.
			rel("任官", self, 32, "诸葛亮", "军师将军", ev(1, chapter, "先主以亮为军师将军。", "亮", "军师将军", 100)),
			rel("封爵", self, 40, "诸葛亮", "武乡侯", ev(1, chapter, "建兴元年，封亮武乡侯。", "亮", "武乡侯", 223)),
			rel("死亡时间", self, 50, "诸葛亮", "十二年", ev(1, chapter, "十二年，亮卒于五丈原，时年五十四。", "亮", "十二年", 234)),
			rel("卒于", self, 51, "诸葛亮", "五丈原", ev(1, chapter, "十二年，亮卒于五丈原，时年五十四。", "亮", "五丈原", 234)),
		},
	}
}

func TestProfileReadsWhatAHistorianLooksFor(t *testing.T) {
	p, err := Read(context.Background(), zhuge(), kg.Entity{ID: self, Name: "诸葛亮", Type: "人物"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Zi != "孔明" || p.Surname != "诸葛" || p.Given != "亮" {
		t.Errorf("names: 字 %q, 姓 %q, 名 %q", p.Zi, p.Surname, p.Given)
	}
	if p.NativePlace == nil || p.NativePlace.Text != "琅邪阳都" || len(p.NativePlace.Citations) == 0 {
		t.Errorf("native place: %+v", p.NativePlace)
	}
	if p.Died == nil || *p.Died.Year != 234 {
		t.Fatalf("died: %+v", p.Died)
	}
	if p.Born == nil || *p.Born.Year != 181 || p.Born.Basis != "时年五十四" {
		t.Errorf("born, from the age at death: %+v", p.Born)
	}
	var kin []string
	for _, k := range p.Kin {
		kin = append(kin, k.Kind+" "+k.Text)
	}
	if got := strings.Join(kin, "、"); got != "父 诸葛珪、兄弟姊妹 诸葛均、子 诸葛瞻" {
		t.Errorf("kin: %s", got)
	}
	var career []string
	for _, o := range p.Offices {
		y := "?"
		if o.Year != nil {
			y = yearText(*o.Year)
		}
		career = append(career, o.Text+" "+y)
	}
	if got := strings.Join(career, "、"); got != "丞相 公元221年、益州牧 公元223年、军师将军 ?" {
		t.Errorf("offices in time order: %s", got)
	}
	for _, items := range [][]Item{p.Names, p.Kin, p.Offices, p.Titles, p.Places} {
		for _, it := range items {
			if len(it.Citations) == 0 {
				t.Errorf("%s %s has no citation", it.Kind, it.Text)
			}
		}
	}
}

func TestBiographyCitesAndChecksEverySentence(t *testing.T) {
	p, err := Read(context.Background(), zhuge(), kg.Entity{ID: self, Name: "诸葛亮", Type: "人物"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	bio := Write("诸葛亮", p, Modern, false)
	var text strings.Builder
	for _, s := range bio {
		text.WriteString(s.Text)
		if len(s.Citations) == 0 || len(s.Checks) == 0 {
			t.Errorf("%q: %d citations, %d checks", s.Text, len(s.Citations), len(s.Checks))
		}
		if !s.Verified {
			t.Errorf("%q is not verified: %+v", s.Text, s.Checks)
		}
		for _, c := range s.Citations {
			if c.Quote == "" || c.End <= c.Start {
				t.Errorf("%q cites %+v", s.Text, c)
			}
		}
	}
	for _, want := range []string{"诸葛亮，字孔明，琅邪阳都人，生于公元181年", "父亲是诸葛珪", "公元221年，任丞相。", "公元223年，任益州牧，封武乡侯。", "曾任军师将军。", "公元234年，卒于五丈原。"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("biography lacks %q:\n%s", want, text.String())
		}
	}
	if strings.Contains(text.String(), "孙权") {
		t.Errorf("the misread relative is in the biography:\n%s", text.String())
	}
	classical := Write("诸葛亮", p, Classical, false)
	if !strings.HasPrefix(classical[0].Text, "诸葛亮，字孔明，琅邪阳都人也") {
		t.Errorf("classical: %q", classical[0].Text)
	}
}

// A fact whose citations do not say it fails its check: the sentence is
// marked, and left out when strict.
func TestUnsupportedSentencesAreMarkedOrDropped(t *testing.T) {
	p, err := Read(context.Background(), zhuge(), kg.Entity{ID: self, Name: "诸葛亮", Type: "人物"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.Titles[0].Citations[0].Quote, p.Titles[0].Citations[0].norm, p.Titles[0].Citations[0].says = "以亮为丞相。", "以亮为丞相。", ""
	find := func(bio []Sentence) *Sentence {
		for i := range bio {
			if strings.Contains(bio[i].Text, "武乡侯") {
				return &bio[i]
			}
		}
		return nil
	}
	s := find(Write("诸葛亮", p, Modern, false))
	if s == nil || s.Verified {
		t.Fatalf("the sentence should be kept, marked unverified: %+v", s)
	}
	if find(Write("诸葛亮", p, Modern, true)) != nil {
		t.Fatal("strict should leave the sentence out")
	}
}

func TestExcludedChaptersAreNotRestedOn(t *testing.T) {
	p, err := Read(context.Background(), zhuge(), kg.Entity{ID: self, Name: "诸葛亮", Type: "人物"}, Options{Exclude: []string{"诸葛亮传"}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Zi != "" || p.NativePlace != nil || p.Died != nil || len(p.Kin) != 0 {
		t.Errorf("facts of the excluded chapter: 字 %q, native place %+v, died %+v, kin %+v", p.Zi, p.NativePlace, p.Died, p.Kin)
	}
	if len(p.Offices) != 1 || p.Offices[0].Text != "益州牧" {
		t.Errorf("the other chapter's office should stay: %+v", p.Offices)
	}
}

// A career names its years as the texts count them: by the era a dated
// sentence or its book counts in, and, where only a reign dates a fact
// (秦昭王四十年), by the year of that reign.
func TestCareerYearsAsTheTextsCountThem(t *testing.T) {
	src := zhuge()
	reigned := ev(2, "其四十年，以不韦为相。", "其四十年，以不韦为相。", "不韦", "相", 0)
	reigned.Reign, reigned.ReignYear = "秦昭王", 40
	src.rels = append(src.rels, rel("任官", self, 33, "诸葛亮", "相", reigned))
	p, err := Read(context.Background(), src, kg.Entity{ID: self, Name: "诸葛亮", Type: "人物"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]string{}
	for _, it := range append(p.Offices, p.Titles...) {
		got[it.Text] = [2]string{it.Era, it.Reign}
	}
	for name, want := range map[string][2]string{
		"武乡侯":  {"建兴元年", ""}, // the sentence names the era
		"丞相":   {"", ""},     // dated, but no era of a known book fits
		"相":    {"", "秦昭王四十年"},
		"军师将军": {"", ""}, // its year, before his birth, was dropped: no era
	} {
		if got[name] != want {
			t.Errorf("%s: era and reign %q, want %q", name, got[name], want)
		}
	}
}

// The names the texts call a person by are listed with where they do,
// most used first, each part cited by its first mention; his own name, and
// a name used once, are not.
func TestDesignationsWithTheirScope(t *testing.T) {
	src := zhuge()
	first := func(doc string, start int, context string) kg.Mention {
		return kg.Mention{DocKey: doc, Cite: "《" + doc + "》", Span: kg.Span{Start: start, End: start + 1}, Context: context}
	}
	src.uses = []store.NameUse{
		{Name: "亮", Part: "三国志/蜀书", Mentions: 300, First: first("诸葛亮传", 40, "亮躬耕陇亩")},
		{Name: "诸葛亮", Part: "三国志/蜀书", Mentions: 90, First: first("先主传", 5, "诸葛亮")},
		{Name: "孔明", Part: "三国志/蜀书", Mentions: 12, First: first("诸葛亮传", 80, "孔明")},
		{Name: "亮", Part: "三国志/魏书", Mentions: 20, First: first("明帝纪", 7, "诸葛亮寇天水")},
		{Name: "卧龙", Part: "三国志/蜀书", Mentions: 1, First: first("诸葛亮传", 200, "卧龙也")},
	}
	p, err := Read(context.Background(), src, kg.Entity{ID: self, Name: "诸葛亮", Type: "人物"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range p.Designations {
		var parts []string
		for _, u := range d.Scope {
			parts = append(parts, fmt.Sprintf("%s %d @%s:%d", u.Part, u.Mentions, u.Citation.Doc, u.Citation.Start))
		}
		got = append(got, fmt.Sprintf("%s %s %d [%s]", d.Name, d.Kind, d.Mentions, strings.Join(parts, "; ")))
	}
	want := []string{
		"亮 名 320 [三国志·蜀书 300 @诸葛亮传:40; 三国志·魏书 20 @明帝纪:7]",
		"孔明 字 12 [三国志·蜀书 12 @诸葛亮传:80]",
	}
	if !slices.Equal(got, want) {
		t.Errorf("designations\n got %q\nwant %q", got, want)
	}
}

// A post another chapter gives a person once, far from his name, is most
// often the next man's (亮卒，迁前军师 in 邓芝's life); one it states of
// him by name (以丞相亮领益州牧) is his. Written without his own chapter,
// a biography keeps both kinds.
func TestCareerLeavesOutPassingPosts(t *testing.T) {
	src := zhuge()
	s := "亮卒，迁前军师前将军，领衮州刺史。"
	src.rels = append(src.rels, rel("任官", self, 34, "诸葛亮", "衮州刺史", ev(2, s, s, "亮", "衮州刺史", 234)))
	offices := func(opts Options) []string {
		p, err := Read(context.Background(), src, kg.Entity{ID: self, Name: "诸葛亮", Type: "人物"}, opts)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, it := range p.Offices {
			out = append(out, it.Text)
		}
		return out
	}
	if got := strings.Join(offices(Options{}), "、"); got != "丞相、益州牧、军师将军" {
		t.Errorf("offices: %s", got)
	}
	if got := offices(Options{Exclude: []string{"诸葛亮传"}}); !slices.Contains(got, "衮州刺史") {
		t.Errorf("without the own chapter, the passing post is all there is: %v", got)
	}
}

// A child's sex comes from whichever sentence says it: the word before the
// name, a courtesy name after it, or sons or daughters counted before a
// list; a sentence that says nothing leaves 子女.
func TestKinOfReadsTheSexWhereASentenceSaysIt(t *testing.T) {
	cite := func(s, says string) Citation { return Citation{norm: s, says: says} }
	for _, c := range []struct {
		cs   []Citation
		want string
	}{
		{[]Citation{cite("环夫人生邓哀王冲、彭城王据", "冲"), cite("时太祖爱子仓舒亦没", "仓舒")}, "子"},
		{[]Citation{cite("邓哀王冲字仓舒。", "冲")}, "子"},
		{[]Citation{cite("武皇帝二十五男：卞皇后生文皇帝、任城威王彰", "彰")}, "子"},
		{[]Citation{cite("生三女：长曰宪", "宪")}, "女"},
		{[]Citation{cite("生二男二女：长曰宪", "宪")}, "子女"}, // both counted: no telling
		{[]Citation{cite("环夫人生邓哀王冲", "冲")}, "子女"},
	} {
		if got := kinOf("子女", true, c.cs); got != c.want {
			t.Errorf("%v: %s, want %s", c.cs, got, c.want)
		}
	}
}
