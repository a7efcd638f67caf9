package qa

import (
	"context"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/eval"
)

func TestShortAndConfidentlyWrong(t *testing.T) {
	qs := []Question{
		{ID: "s1", Question: "诸葛亮是哪里人？", Answer: "琅邪阳都"},
		{ID: "s2", Question: "诸葛亮字什么？", Answer: "孔明"},
		{ID: "s3", Question: "诸葛亮的父亲是谁？", Answer: "诸葛珪"},
		{ID: "s4", Question: "诸葛亮卒于何处？", Answer: "五丈原"},
	}
	answers := map[string]Prediction{
		"s1": {Answer: "诸葛亮是琅邪阳都人。", Confidence: 0.9},                                        // short and right
		"s2": {Answer: "诸葛亮字孔明，琅邪阳都人也。汉司隶校尉诸葛丰后也。父珪，字君贡，汉末为太山郡丞。" + "亮早孤。", Confidence: 0.9}, // a passage: right but not short
		"s3": {Answer: "诸葛亮的父亲是刘表。", Confidence: 0.8},                                        // sure and wrong
		"s4": {Answer: "卒於五丈原", Confidence: 0.2},                                             // a variant spelling, unsure
	}
	rep, err := Run(context.Background(), qs, func(_ context.Context, q Question) (Prediction, error) {
		return answers[q.ID], nil
	}, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]bool{"s1": {true, false}, "s2": {false, true}, "s3": {false, true}, "s4": {true, false}}
	for _, r := range rep.Results {
		if got := [2]bool{r.Short, r.ConfidentlyWrong}; got != want[r.ID] {
			t.Errorf("%s: short, confidently wrong = %v, want %v", r.ID, got, want[r.ID])
		}
	}
	if rep.Short != 0.5 || rep.ConfidentlyWrong != 0.5 || rep.Contains != 0.75 {
		t.Errorf("short %v, confidently wrong %v, contains %v; want 0.5, 0.5, 0.75", rep.Short, rep.ConfidentlyWrong, rep.Contains)
	}
	var b strings.Builder
	if err := rep.Text(&b); err != nil || !strings.Contains(b.String(), "short%") || !strings.Contains(b.String(), "sure&wrong%") {
		t.Errorf("the table lacks the short and sure-and-wrong columns:\n%s", b.String())
	}
}

func TestRelationQuestions(t *testing.T) {
	text := "蔡珍，彰德安阳人。父兴，幼隶军籍。珍为千户，攻襄阳。王对拜太尉。"
	ent := func(s, typ string) eval.GoldEntity {
		i := strings.Index(text, s)
		start := len([]rune(text[:i]))
		return eval.GoldEntity{Text: s, Type: typ, Start: start, End: start + len([]rune(s))}
	}
	ex := eval.Example{ID: "x[0]", Text: text, Triples: []eval.GoldTriple{
		{Head: ent("蔡珍", "PER"), Relation: "出生于某地", Tail: ent("彰德", "LOC")},
		{Head: ent("蔡珍", "PER"), Relation: "出生于某地", Tail: ent("安阳", "LOC")},
		{Head: ent("兴", "PER"), Relation: "父母", Tail: ent("蔡珍", "PER")},
		{Head: ent("珍", "PER"), Relation: "任职", Tail: ent("千户", "OFI")}, // one-character subject: too ambiguous
		{Head: ent("蔡珍", "PER"), Relation: "敌对攻伐", Tail: ent("襄阳", "LOC")},
		{Head: ent("王对", "PER"), Relation: "同僚", Tail: ent("蔡珍", "PER")}, // not asked
	}}
	got := RelationQuestions([]eval.Example{ex})
	want := []Question{
		{Question: "蔡珍是哪里人？", Answer: "彰德", Aliases: []string{"安阳"}, Type: "籍贯"},
		{Question: "蔡珍的父亲是谁？", Answer: "兴", Type: "父"},
		{Question: "蔡珍攻打过哪里？", Answer: "襄阳", Type: "攻"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d questions, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Question != w.Question || g.Answer != w.Answer || strings.Join(g.Aliases, "|") != strings.Join(w.Aliases, "|") || g.Type != w.Type {
			t.Errorf("question %d = %q → %q %v (%s), want %q → %q %v (%s)", i, g.Question, g.Answer, g.Aliases, g.Type, w.Question, w.Answer, w.Aliases, w.Type)
		}
		if len(g.Context) != 1 || g.Context[0].Text != text {
			t.Errorf("question %d: context %+v, want the sentence", i, g.Context)
		}
	}

	// Asked of the pooled passages, one question has every passage's
	// answers, and those passages as its context.
	other := "蔡珍攻宿州。"
	ex2 := eval.Example{ID: "x[1]", Text: other, Triples: []eval.GoldTriple{
		{Head: eval.GoldEntity{Text: "蔡珍", Type: "PER", Start: 0, End: 2}, Relation: "敌对攻伐", Tail: eval.GoldEntity{Text: "宿州", Type: "LOC", Start: 3, End: 5}},
	}}
	got = RelationQuestions([]eval.Example{ex, ex2})
	if len(got) != len(want) {
		t.Fatalf("pooled: got %d questions, want %d: %+v", len(got), len(want), got)
	}
	attack := got[2]
	if attack.Answer != "襄阳" || strings.Join(attack.Aliases, "|") != "宿州" || len(attack.Context) != 2 || attack.Context[1].Text != other {
		t.Errorf("pooled 蔡珍攻打过哪里: %q %v, %d passages; want 襄阳 or 宿州 from both", attack.Answer, attack.Aliases, len(attack.Context))
	}
}
