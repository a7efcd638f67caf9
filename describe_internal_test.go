package annals

import (
	"testing"

	"github.com/annals-project/annals/internal/kg"
)

func TestDescribe(t *testing.T) {
	y := func(n int) *int { return &n }
	fact := func(head int64, h, rel string, tail int64, tl string, year *int) Relation {
		return Relation{HeadID: head, Head: h, Type: rel, TailID: tail, Tail: tl, Evidence: []kg.Evidence{{Year: year}}}
	}
	zhuge := &EntityView{Entity: kg.Entity{ID: 1, Name: "诸葛亮", Type: "人物"}, Born: y(181), Died: y(234),
		Attributes: map[string][]string{"字": {"孔明"}},
		Relations: []Relation{
			fact(1, "诸葛亮", "任官", 10, "丞相", y(221)),
			fact(1, "诸葛亮", "任官", 11, "军师中郎将", y(208)),
			fact(1, "诸葛亮", "籍贯", 12, "琅邪阳都", nil),
			fact(1, "诸葛亮", "封爵", 13, "武乡侯", y(223)),
			fact(2, "刘备", "下级", 1, "诸葛亮", nil),
		}}
	// Offices in the order held, whatever order the facts come in.
	if got, want := describe(zhuge), "诸葛亮（181—234），字孔明，琅邪阳都人。历任军师中郎将、丞相，封武乡侯。"; got != want {
		t.Errorf("person:\n got %s\nwant %s", got, want)
	}
	liubang := &EntityView{Entity: kg.Entity{ID: 3, Name: "刘邦", Type: "人物"}, Died: y(-194)}
	if got, want := describe(liubang), "刘邦（？—前195）。"; got != want {
		t.Errorf("a BCE death and no birth: got %s, want %s", got, want)
	}
	if got := describe(&EntityView{Entity: kg.Entity{ID: 4, Name: "某", Type: "人物"}}); got != "" {
		t.Errorf("a person with no facts: %q", got)
	}
	office := &EntityView{Entity: kg.Entity{ID: 10, Name: "丞相", Type: "职官"}, Relations: []Relation{
		fact(1, "诸葛亮", "任官", 10, "丞相", nil), fact(5, "曹操", "任官", 10, "丞相", nil), fact(6, "萧何", "任官", 10, "丞相", nil),
		fact(7, "曹参", "任官", 10, "丞相", nil), fact(8, "陈平", "任官", 10, "丞相", nil), fact(1, "诸葛亮", "任官", 10, "丞相", nil),
	}}
	if got, want := describe(office), "职官。诸葛亮、曹操、萧何、曹参等任此职。"; got != want {
		t.Errorf("office: got %s, want %s", got, want)
	}
	battle := &EntityView{Entity: kg.Entity{ID: 20, Name: "官渡之战", Type: "事件"}, Relations: []Relation{
		fact(20, "官渡之战", "发生时间", 21, "建安五年", nil), fact(20, "官渡之战", "发生地点", 22, "官渡", nil),
		fact(5, "曹操", "胜", 20, "官渡之战", nil), fact(9, "袁绍", "败", 20, "官渡之战", nil),
	}}
	if got, want := describe(battle), "事件，时在建安五年，地在官渡，参与者有曹操、袁绍。"; got != want {
		t.Errorf("event: got %s, want %s", got, want)
	}
	general := &EntityView{Entity: kg.Entity{ID: 30, Name: "Zhuge Liang", Type: "person"}, Relations: []Relation{
		fact(30, "Zhuge Liang", "born_in", 31, "Yangdu", nil), fact(32, "Liu Bei", "ally_of", 30, "Zhuge Liang", nil),
	}}
	if got, want := describe(general), "person; born_in Yangdu; ally_of Liu Bei."; got != want {
		t.Errorf("general schema: got %s, want %s", got, want)
	}
}

// A person's own chapters outweigh a passing mention: the 字 his own
// chapter states, and no post another chapter gives him once without
// naming him at it (亮卒，…封阳武亭侯 in 邓芝's life). A throne is no post.
func TestDescribeTrustsTheOwnChapter(t *testing.T) {
	ev := func(doc int64, head, tail kg.Span) kg.Evidence {
		return kg.Evidence{DocID: doc, Head: head, Tail: tail}
	}
	post := func(tail int64, name string, evs ...kg.Evidence) Relation {
		return Relation{HeadID: 1, Head: "诸葛亮", Type: "任官", TailID: tail, Tail: name, Evidence: evs}
	}
	v := &EntityView{Entity: kg.Entity{ID: 1, Name: "诸葛亮", Type: "人物"},
		Attributes: map[string][]string{"字": {"仲异", "孔明"}},
		Stated: []kg.Attribute{
			{Kind: "字", Value: "仲异", Support: 3, Evidence: &kg.Evidence{DocID: 2}},
			{Kind: "字", Value: "孔明", Support: 1, Evidence: &kg.Evidence{DocID: 1}},
		},
		own: map[int64]bool{1: true},
		Relations: []Relation{
			post(10, "丞相", ev(1, kg.Span{Start: 5, End: 6}, kg.Span{Start: 7, End: 9})),
			// Another chapter, once, far from the name: another man's.
			post(11, "衮州刺史", ev(2, kg.Span{Start: 0, End: 1}, kg.Span{Start: 12, End: 16})),
			// Another chapter, once, right after the name: his (以亮为…).
			post(12, "益州牧", ev(3, kg.Span{Start: 4, End: 5}, kg.Span{Start: 6, End: 9})),
			post(13, "帝", ev(1, kg.Span{Start: 0, End: 1}, kg.Span{Start: 3, End: 4})),
		}}
	if got, want := describe(v), "诸葛亮，字孔明。历任丞相、益州牧。"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	v.own = nil // no own chapter known: every post counts, the best-stated 字
	if got, want := describe(v), "诸葛亮，字仲异。历任丞相、衮州刺史、益州牧。"; got != want {
		t.Errorf("without own chapters: got %s, want %s", got, want)
	}
}
