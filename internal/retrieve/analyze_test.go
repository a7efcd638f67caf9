package retrieve

import (
	"context"
	"reflect"
	"testing"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

func TestClassifyTypesQuestions(t *testing.T) {
	for _, c := range []struct {
		q, typ   string
		rel      string
		fromTail bool
	}{
		{"诸葛亮字什么", QCourtesy, "别称", false},
		{"孔明的父亲是谁？", QKin, "子女", true},
		{"曹操的儿子有哪些", QKin, "子女", false},
		{"诸葛亮卒于何年", QDeath, "死亡时间", false},
		{"诸葛亮是哪里人", QNative, "籍贯", false},
		{"诸葛亮担任过什么官职", QOffice, "任官", false},
		{"赵云效力于哪一方", QAllegiance, "所属团体", false},
		{"为什么诸葛亮北伐", QWhy, "", false},
		{"赤壁之战发生在何时", QEventTime, "发生时间", false},
		{"何时发生了变法", QWhen, "", false},
		{"Who was the father of Cao Pi?", QKin, "parent_of", true},
		{"What was the courtesy name of Zhuge Liang?", QCourtesy, "alias_of", false},
		{"Where did the battle take place?", QWhere, "", false},
		{"Tại sao Pháp rút khỏi Cao Bằng?", QWhy, "", false},
		{"Was Zhou Yu a general of Wu?", QYesNo, "", false},
	} {
		typ, ask := Classify(c.q)
		if typ != c.typ {
			t.Errorf("%s: type %s, want %s", c.q, typ, c.typ)
			continue
		}
		if c.rel == "" {
			if ask != nil {
				t.Errorf("%s: untyped question asks %+v", c.q, ask)
			}
			continue
		}
		if ask == nil || !hasRel(ask.Relations, c.rel) || ask.FromTail != c.fromTail {
			t.Errorf("%s: asks %+v, want %s fromTail=%v", c.q, ask, c.rel, c.fromTail)
		}
	}
}

func hasRel(rs []string, r string) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

func TestPickMentionsPrefersLongestNames(t *testing.T) {
	q := "诸葛亮与司马懿谁先卒"
	cands := nameCandidates(q)
	matches := []store.NameMatch{
		{Text: "诸葛亮", Entity: kg.Entity{ID: 1, Name: "诸葛亮", Type: "人物", Mentions: 50}, ByName: true},
		{Text: "诸葛", Entity: kg.Entity{ID: 2, Name: "诸葛", Type: "人物", Mentions: 90}, ByName: true},
		{Text: "司马懿", Entity: kg.Entity{ID: 3, Name: "司马懿", Type: "人物", Mentions: 40}, ByName: true},
		{Text: "司马", Entity: kg.Entity{ID: 4, Name: "司马", Type: "职官", Mentions: 400}, ByName: true},
		{Text: "谁先", Entity: kg.Entity{ID: 5, Name: "谁先", Type: "时间", Mentions: 1}, ByName: true},
	}
	got := pickMentions(cands, matches)
	var ids []int64
	for _, m := range got {
		ids = append(ids, m.Entity.ID)
	}
	if !reflect.DeepEqual(ids, []int64{1, 3}) {
		t.Fatalf("want 诸葛亮 and 司马懿, in order, and no shorter overlapping names: %+v", got)
	}
	if got[1].Span != (kg.Span{Start: 4, End: 7}) {
		t.Fatalf("司马懿 stands at [4,7): %+v", got[1].Span)
	}
}

func TestNameCandidatesOfLatinText(t *testing.T) {
	c := nameCandidates("Who was the first president of the American Psychological Association?")
	if _, ok := c["American Psychological Association"]; !ok {
		t.Fatalf("a capitalised run of words is a candidate: %v", keys(c))
	}
	if _, ok := c["first president"]; ok {
		t.Fatal("lower-case runs are not candidates")
	}
}

func TestContentTermsLeaveOutQuestionWords(t *testing.T) {
	terms := contentTerms("诸葛亮是哪里人")
	for _, x := range terms {
		if x == "哪里" || x == "是哪" {
			t.Fatalf("question words are not content: %v", terms)
		}
	}
	if len(terms) == 0 || terms[0] != "诸葛" {
		t.Fatalf("content terms: %v", terms)
	}
}

func TestRenderTriple(t *testing.T) {
	r := kg.Relation{Head: "曹操", Type: "子女", Tail: "曹丕"}
	if got := RenderTriple(r, "zh"); got != "曹操的子女是曹丕" {
		t.Fatalf("got %q", got)
	}
	r = kg.Relation{Head: "Cao Cao", Type: "parent_of", Tail: "Cao Pi"}
	if got := RenderTriple(r, "en"); got != "Cao Cao parent of Cao Pi" {
		t.Fatalf("got %q", got)
	}
}

func FuzzQuestionParsing(f *testing.F) {
	for _, s := range []string{"诸葛亮字什么？", "Who was the father of Cao Pi?", "Tại sao Pháp rút khỏi Cao Bằng?", "", "\xff\xfe", "A-", "O'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		rs := []rune(q)
		for name, spans := range nameCandidates(q) {
			for _, sp := range spans {
				if sp.start < 0 || sp.end > len(rs) || sp.start >= sp.end || string(rs[sp.start:sp.end]) != name {
					t.Fatalf("candidate %q at [%d,%d) of %q", name, sp.start, sp.end, q)
				}
			}
		}
		Classify(q)
		contentTerms(q)
		if n := FirstAsk(q); n < 0 || n > len(rs) {
			t.Fatalf("FirstAsk(%q) = %d", q, n)
		}
	})
}

// noNames is a source that knows no names.
type noNames struct{ Source }

func (noNames) MatchNames(context.Context, []string) ([]store.NameMatch, error) { return nil, nil }

func TestAddsToTellsTitlesFromAnswers(t *testing.T) {
	a, err := Analyze(t.Context(), noNames{}, "What is the name of the waterfall in the country where the Bubye River is found?", false)
	if err != nil {
		t.Fatal(err)
	}
	if a.AddsTo("Bubye River") || a.AddsTo("the Bubye River.") {
		t.Error("a title that repeats the question adds to it")
	}
	if !a.AddsTo("The Bubye River is a tributary of the Limpopo River in Zimbabwe.") {
		t.Error("a sentence with new words adds nothing")
	}
	zh, err := Analyze(t.Context(), noNames{}, "诸葛亮字什么？", false)
	if err != nil {
		t.Fatal(err)
	}
	if zh.AddsTo("诸葛亮") || !zh.AddsTo("诸葛亮字孔明。") {
		t.Error("Chinese: a bare name adds nothing, a sentence that gives the name does")
	}
}

func TestJoinSubjectTakesTheEntityEveryPartNames(t *testing.T) {
	q := "太祖武皇帝是谁"
	matches := []store.NameMatch{
		{Text: "太祖", Entity: kg.Entity{ID: 1, Name: "刘邦", Type: "人物", Mentions: 2222}},
		{Text: "太祖", Entity: kg.Entity{ID: 2, Name: "曹操", Type: "人物", Mentions: 1693}},
		{Text: "武皇帝", Entity: kg.Entity{ID: 2, Name: "曹操", Type: "人物", Mentions: 1693}},
	}
	a := &Analysis{Norm: q}
	a.Entities = pickMentions(nameCandidates(q), matches)
	joinSubject(a, "太祖武皇帝", matches)
	if len(a.Entities) != 1 || a.Entities[0].Entity.ID != 2 || a.Entities[0].Text != "太祖武皇帝" || a.Entities[0].Span != (kg.Span{Start: 0, End: 5}) {
		t.Fatalf("太祖武皇帝 is 曹操, as one mention: %+v", a.Entities)
	}
}
