package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/retrieve"
	"github.com/annals-project/annals/internal/store"
)

func TestReadAfter(t *testing.T) {
	mention := func(s, e int, typ string) store.TypedMention {
		return store.TypedMention{Span: kg.Span{Start: s, End: e}, Type: typ}
	}
	attack := readingCues[retrieve.QAttacked]
	for _, tt := range []struct {
		text string
		from int
		ms   []store.TypedMention
		want int
	}{
		// 江西左丞火你赤以兵平富州: the place after a verb of attack.
		{"火你赤以兵平富州、临江", 3, []store.TypedMention{mention(6, 8, "地点"), mention(9, 11, "地点")}, 0},
		// 武皇遣李嗣昭率三千骑攻邢州: 李嗣昭 attacked, not 武皇.
		{"武皇遣李嗣昭率三千骑攻邢州", 2, []store.TypedMention{mention(3, 6, "人物"), mention(11, 13, "地点")}, -1},
		// 击辽都统马哥: the person after the title.
		{"挞懒击辽都统马哥", 2, []store.TypedMention{mention(3, 6, "社会集团"), mention(6, 8, "人物")}, 1},
		// No verb of the relation between: no reading.
		{"火你赤在富州", 3, []store.TypedMention{mention(4, 6, "地点")}, -1},
		// Not across a sentence's end.
		{"火你赤至。攻富州", 3, []store.TypedMention{mention(6, 8, "地点")}, -1},
	} {
		rs := []rune(tt.text)
		if got := readAfter(rs, tt.ms, 0, tt.from, len(rs), attack); got != tt.want {
			t.Errorf("%s: mention %d, want %d", tt.text, got, tt.want)
		}
	}
	// A death is at a place only as 卒于X: 卒定楚 is "at last took 楚".
	death := readingCues[retrieve.QDeathPlace]
	for _, tt := range []struct {
		text      string
		from, got int
	}{{"项籍，追至陈，卒定楚", 2, -1}, {"亮卒於武功", 1, 0}} {
		rs := []rune(tt.text)
		place := []store.TypedMention{mention(len(rs)-2, len(rs), "地点")}
		if got := readAfter(rs, place, 0, tt.from, len(rs), death); got != tt.got {
			t.Errorf("%s: mention %d, want %d", tt.text, got, tt.got)
		}
	}
	if at, n := firstOf("是时，朱宣在濮州", []string{"濮州", "朱宣"}); at != 3 || n != 2 {
		t.Errorf("firstOf: %d %d, want the earliest surface at 3", at, n)
	}
}

// fakeSource serves one passage and its mentions; reading needs no more.
type fakeSource struct {
	retrieve.Source
	p  store.Passage
	ms []store.TypedMention
}

func (f fakeSource) Passages(context.Context, []int64) ([]store.Passage, error) {
	return []store.Passage{f.p}, nil
}

func (f fakeSource) MentionsIn(_ context.Context, _ int64, start, end int) ([]store.TypedMention, error) {
	var out []store.TypedMention
	for _, m := range f.ms {
		if m.Start >= start && m.End <= end {
			out = append(out, m)
		}
	}
	return out, nil
}

func TestReadKinFormulas(t *testing.T) {
	mention := func(s, e int, name string) store.TypedMention {
		return store.TypedMention{Span: kg.Span{Start: 100 + s, End: 100 + e}, Type: "人物", Name: name}
	}
	for _, tt := range []struct {
		text string
		ms   []store.TypedMention
		want string
	}{
		{"霍光字子孟，票骑将军去病弟也。", []store.TypedMention{mention(0, 2, "霍光"), mention(10, 12, "霍去病")}, "霍光"},
		{"而霍去病弟光贵盛，自有传。", []store.TypedMention{mention(1, 4, "霍去病"), mention(5, 6, "霍光")}, "霍光"},
		{"霍去病与弟光俱贵。", []store.TypedMention{mention(0, 3, "霍去病"), mention(5, 6, "霍光")}, ""},
	} {
		src := fakeSource{p: store.Passage{ChunkID: 1, DocID: 1, Start: 100, End: 100 + len([]rune(tt.text)), Text: tt.text, Norm: tt.text, Lang: "lzh"}, ms: tt.ms}
		a := &retrieve.Analysis{Norm: "霍去病的弟弟是谁？", Lang: "lzh", Type: retrieve.QKin,
			Asks:     &retrieve.Ask{Label: "弟", Relations: []string{"同胞"}, Subject: "霍去病"},
			Entities: []retrieve.Mention{{Text: "霍去病", Entity: kg.Entity{ID: 7, Name: "霍去病", Type: "人物"}}}}
		items := []retrieve.Item{{Kind: "chunk", Citation: &kg.Evidence{ChunkID: 1}}}
		got, _, conf, err := read(context.Background(), src, nil, a, items)
		if err != nil {
			t.Fatal(err)
		}
		if tt.want == "" && got != "" || tt.want != "" && (!strings.Contains(got, tt.want) || conf <= 0 || conf >= 0.5) {
			t.Errorf("%s: %q (confidence %.2f), want %q read with low confidence", tt.text, got, conf, tt.want)
		}
	}
}

func TestEndingAt(t *testing.T) {
	ms := []store.TypedMention{
		{Span: kg.Span{Start: 10, End: 12}, Type: "地点"},
		{Span: kg.Span{Start: 12, End: 14}, Type: "职官"},
		{Span: kg.Span{Start: 14, End: 17}, Type: "人物"},
	}
	// 江西左丞火你赤: the office ends where the name starts.
	if k := endingAt(ms, 10, 4, []string{"职官"}); k != 1 {
		t.Errorf("office before the name: %d, want 1", k)
	}
	if k := endingAt(ms, 10, 2, []string{"职官"}); k != -1 {
		t.Errorf("a place is no office: %d, want -1", k)
	}
}

// fakeReader plays the offline extractor: it notes the names it was given
// and returns the result it holds.
type fakeReader struct {
	names [][]string
	res   extract.Result
}

func (f *fakeReader) Name() string    { return "fake" }
func (f *fakeReader) Version() string { return "1" }
func (f *fakeReader) Extract(_ context.Context, in extract.Input) (extract.Result, error) {
	f.names = append(f.names, in.Names)
	return f.res, nil
}

// A subject the index did not read as a person in a sentence is read
// again with its name given, and the relation found answers; where the
// index did read him, the stored mentions serve.
func TestReadAgainWithTheSubjectsName(t *testing.T) {
	const text = "助挞懒击辽都统马哥。"
	ent := func(s, e int, typ string) extract.Entity {
		return extract.Entity{Text: string([]rune(text)[s:e]), Type: typ, Span: kg.Span{Start: s, End: e}}
	}
	reader := &fakeReader{res: extract.Result{
		Entities: []extract.Entity{ent(1, 3, "人物"), ent(5, 7, "职官"), ent(7, 9, "人物")},
		Triples:  []extract.Triple{{Head: ent(7, 9, "人物"), Relation: "任官", Tail: ent(5, 7, "职官")}},
	}}
	stored := []store.TypedMention{
		{Span: kg.Span{Start: 101, End: 103}, Type: "人物", Name: "挞懒"},
		{Span: kg.Span{Start: 104, End: 107}, Type: "人物", Name: "辽都统"}, // misread
	}
	a := &retrieve.Analysis{Norm: "马哥担任过什么官职？", Lang: "lzh", Type: retrieve.QOffice,
		Asks: &retrieve.Ask{Label: "官职", Relations: []string{"任官", "封爵"}, Subject: "马哥", List: true}}
	items := []retrieve.Item{{Kind: "chunk", Citation: &kg.Evidence{ChunkID: 1}}}
	src := fakeSource{p: store.Passage{ChunkID: 1, DocID: 1, Start: 100, End: 110, Text: text, Norm: text, Lang: "lzh"}, ms: stored}

	got, evs, conf, err := read(context.Background(), src, reader, a, items)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "都统") || conf <= 0 || conf >= 0.5 || len(evs) != 1 {
		t.Errorf("answer %q (confidence %.2f, %d citations), want 都统 read with low confidence and cited", got, conf, len(evs))
	}
	if len(reader.names) != 1 || len(reader.names[0]) != 1 || reader.names[0][0] != "马哥" {
		t.Errorf("the reader was given %v, want [[马哥]]", reader.names)
	}
	if got, _, _, _ := read(context.Background(), src, nil, a, items); got != "" {
		t.Errorf("without a reader the misread sentence answered %q", got)
	}

	// The index read 马哥: no second reading.
	reader.names = nil
	src.ms = append(stored[:1:1], store.TypedMention{Span: kg.Span{Start: 105, End: 107}, Type: "职官", Name: "都统"}, store.TypedMention{Span: kg.Span{Start: 107, End: 109}, Type: "人物", Name: "马哥"})
	got, _, _, err = read(context.Background(), src, reader, a, items)
	if err != nil {
		t.Fatal(err)
	}
	if len(reader.names) != 0 || !strings.Contains(got, "都统") {
		t.Errorf("with 马哥 in the index: answer %q, reader called %v; want 都统 from the stored mentions alone", got, reader.names)
	}
}

// A title the subject once held, written before another man's given name
// (齐王广: 田广, not 韩信, who had been 齐王), is not read as the subject.
func TestATitleBeforeAnothersNameIsHis(t *testing.T) {
	const text = "齐王广奔彭越。"
	ent := func(s, e int, typ string) extract.Entity {
		return extract.Entity{Text: string([]rune(text)[s:e]), Type: typ, Span: kg.Span{Start: s, End: e}}
	}
	reader := &fakeReader{res: extract.Result{
		Entities: []extract.Entity{ent(0, 2, "人物"), ent(4, 6, "人物")},
		Triples:  []extract.Triple{{Head: ent(0, 2, "人物"), Relation: "逃奔", Tail: ent(4, 6, "人物")}},
	}}
	stored := []store.TypedMention{
		{Span: kg.Span{Start: 100, End: 102}, Type: "爵位", Name: "齐王"},
		{Span: kg.Span{Start: 102, End: 103}, Type: "人物", Name: "田广"},
		{Span: kg.Span{Start: 104, End: 106}, Type: "人物", Name: "彭越"},
	}
	a := &retrieve.Analysis{Norm: "齐王投奔过谁？", Lang: "lzh", Type: retrieve.QFled,
		Asks: &retrieve.Ask{Label: "投奔", Relations: []string{"逃奔", "积极态度倾向"}, Subject: "齐王", List: true}}
	items := []retrieve.Item{{Kind: "chunk", Citation: &kg.Evidence{ChunkID: 1}}}
	src := fakeSource{p: store.Passage{ChunkID: 1, DocID: 1, Start: 100, End: 107, Text: text, Norm: text, Lang: "lzh"}, ms: stored}
	got, _, _, err := read(context.Background(), src, reader, a, items)
	if err != nil {
		t.Fatal(err)
	}
	if got != "" {
		t.Errorf("齐王广奔彭越 answered %q for another 齐王", got)
	}
	if !titleOfAnother(stored, 100, 102) || titleOfAnother(stored, 104, 106) {
		t.Error("齐王 before 广 is his title; 彭越 stands alone")
	}
}

// A subject written as the object of an attack (从击项籍) does not do
// what the clauses after tell: 追至陈 is his pursuers'.
func TestTheAttackedDoesNotGo(t *testing.T) {
	for text, want := range map[string]string{"从击项籍，追至陈。": "", "项籍引兵，追至陈。": "陈"} {
		at := 100 + len([]rune(text[:strings.Index(text, "项籍")]))
		stored := []store.TypedMention{
			{Span: kg.Span{Start: at, End: at + 2}, Type: "人物", Name: "项籍"},
			{Span: kg.Span{Start: 107, End: 108}, Type: "地点", Name: "陈"},
		}
		a := &retrieve.Analysis{Norm: "项籍到过哪些地方？", Lang: "lzh", Type: retrieve.QVisit,
			Asks: &retrieve.Ask{Label: "到过", Relations: []string{"访"}, Subject: "项籍", List: true}}
		items := []retrieve.Item{{Kind: "chunk", Citation: &kg.Evidence{ChunkID: 1}}}
		src := fakeSource{p: store.Passage{ChunkID: 1, DocID: 1, Start: 100, End: 109, Text: text, Norm: text, Lang: "lzh"}, ms: stored}
		got, _, _, err := read(context.Background(), src, nil, a, items)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got, want) || want == "" && got != "" {
			t.Errorf("%s: answered %q, want %q", text, got, want)
		}
	}
}

// An untyped who-question in Chinese is answered with the one person the
// best sentence adds to the question, and with none when it adds two.
func TestSpanIn(t *testing.T) {
	person := func(s, e int, surface, name string, id int64) store.TypedMention {
		return store.TypedMention{Span: kg.Span{Start: s, End: e}, Type: "人物", Surface: surface, Name: name, EntityID: id}
	}
	ev := &kg.Evidence{DocID: 1, Span: kg.Span{Start: 0, End: 30}, Sentence: "由是先主遂诣亮，凡三往，乃见。"}
	a := &retrieve.Analysis{Norm: "刘备三顾茅庐是去见谁？", Entities: []retrieve.Mention{{Text: "刘备", Entity: kg.Entity{ID: 7, Name: "刘备"}}}}
	src := fakeSource{ms: []store.TypedMention{person(2, 4, "先主", "刘备", 7), person(6, 7, "亮", "诸葛亮", 9)}}
	if got, err := spanIn(context.Background(), src, a, nil, ev, "人物"); err != nil || got != "诸葛亮" {
		t.Errorf("got %q, %v; want 诸葛亮", got, err)
	}
	src.ms = append(src.ms, person(10, 12, "徐庶", "徐庶", 11))
	if got, _ := spanIn(context.Background(), src, a, nil, ev, "人物"); got != "" {
		t.Errorf("two people the question does not name: %q, want none", got)
	}
	// Of the two, the one a fact of the sentence ties to 刘备.
	items := []retrieve.Item{{Relation: &kg.Relation{HeadID: 7, TailID: 9, Type: "访", Evidence: []kg.Evidence{{DocID: 1, Span: kg.Span{Start: 0, End: 15}}}}}}
	if got, _ := spanIn(context.Background(), src, a, items, ev, "人物"); got != "诸葛亮" {
		t.Errorf("got %q, want 诸葛亮, whom a fact of the sentence ties to 刘备", got)
	}
}

// A name is read from a sentence only when the sentence holds what the
// question says besides its names.
func TestRestHeld(t *testing.T) {
	a := &retrieve.Analysis{Norm: "诸葛亮的岳父是谁？", Entities: []retrieve.Mention{{Text: "诸葛亮"}}}
	if got := restHeld(a, "诸葛亮虽外接待羕，而内不能善。"); got != 0 {
		t.Errorf("岳父 is not in the sentence: %.2f", got)
	}
	if got := restHeld(a, "黄承彦者，诸葛亮之岳父也。"); got != 1 {
		t.Errorf("岳父 is: %.2f", got)
	}
}
