package annals_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annals-project/annals"
)

// relateCorpus: cue sentences the pattern extractor and relation
// reasoning read (之子, 之弟, 字, 遣…击, 与…战, 以…为).
var relateCorpus = []annals.CorpusPassage{
	{Title: "孙氏", Text: "孙坚之子孙策，勇而有谋。孙策之弟孙权，字仲谋。"},
	{Title: "合肥", Text: "曹操遣张辽击孙权于合肥。曹操与孙权战于濡须。"},
	{Text: "刘备以关羽为将。"},
	{Text: "刘备以关羽为将。"}, // a repeat, pooled away
}

func TestEvaluateRelateScoresRounds(t *testing.T) {
	ctx := context.Background()
	pairs := []annals.RelatePair{
		{Head: "孙坚", Tail: "孙策", Gold: []string{"子女"}},
		{Head: "孙权", Tail: "孙策", Gold: []string{"同胞"}}, // the other way round
		{Head: "曹操", Tail: "孙权", Gold: []string{"消极态度倾向"}},
		{Head: "张辽", Tail: "曹操", Gold: []string{"上级"}},      // found as 下级
		{Head: "司马懿", Tail: "孙权", Gold: []string{"消极态度倾向"}}, // unknown name: missed
		{Head: "刘备", Tail: "关羽", Gold: []string{"同胞"}},      // found 下级: both wrong
		{Head: "仲谋", Tail: "孙权", Gold: []string{"别称"}},      // one entity: 别称
	}
	dir := t.TempDir()
	rep, err := annals.EvaluateRelate(ctx, dir, pairs, relateCorpus, 2, annals.RelateOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Passages != 3 || rep.Documents != 3 || rep.Entities == 0 || rep.Facts == 0 {
		t.Fatalf("indexed %d passages, %d documents, %d entities, %d facts; want 3 passages in 3 documents with a graph",
			rep.Passages, rep.Documents, rep.Entities, rep.Facts)
	}
	if _, err := os.Stat(filepath.Join(dir, ".annals")); err != nil {
		t.Errorf("no workspace under dir: %v", err)
	}
	// Two rounds under each scoring, the default's first.
	if rep.Pairs != 7 || rep.SameEntity != 1 || len(rep.Rounds) != 4 || rep.Scoring != "normalised" {
		t.Fatalf("pairs %d, same entity %d, rounds %d, scoring %q; want 7, 1, 4, normalised", rep.Pairs, rep.SameEntity, len(rep.Rounds), rep.Scoring)
	}
	for i, want := range []struct {
		scoring string
		round   int
	}{{"normalised", 1}, {"normalised", 2}, {"raw", 1}, {"raw", 2}} {
		if rd := rep.Rounds[i]; rd.Scoring != want.scoring || rd.Round != want.round {
			t.Errorf("row %d: %s round %d, want %s round %d", i, rd.Scoring, rd.Round, want.scoring, want.round)
		}
	}

	rows := map[string][3]int{}
	for _, ts := range rep.ByType {
		rows[ts.Type] = [3]int{ts.Gold, ts.Predicted, ts.Correct}
	}
	// Hand-checked: gold, predicted, correct per type.
	want := map[string][3]int{
		"子女":     {1, 1, 1},
		"同胞":     {2, 1, 1},
		"消极态度倾向": {2, 1, 1},
		"下级":     {1, 2, 1},
		"别称":     {1, 1, 1},
	}
	for typ, w := range want {
		if rows[typ] != w {
			t.Errorf("%s: gold, pred, ok = %v, want %v (rows %v)", typ, rows[typ], w, rows)
		}
	}
	if len(rep.ByType) != len(want) || len(rep.NeverGold) != 0 {
		t.Errorf("rows %v, never gold %v; want exactly %v", rows, rep.NeverGold, want)
	}
	for _, rd := range rep.Rounds {
		if rd.Pairs != 6 || rd.Unknown != 1 || rd.Connected != 5 {
			t.Errorf("round %d: related %d, unknown %d, connected %d; want 6, 1, 5", rd.Round, rd.Pairs, rd.Unknown, rd.Connected)
		}
		// Macro over 5 types: P (1+1+1+½+1)/5, R (1+½+½+1+1)/5, F1
		// (1+⅔+⅔+⅔+1)/5. Micro: 5 right of 6 found, of 7 gold.
		m := rd.Macro
		if m.Types != 5 || !near(m.Precision, 0.9) || !near(m.Recall, 0.8) || !near(m.F1, 0.8) {
			t.Errorf("round %d: macro %+v, want P 0.9 R 0.8 F1 0.8", rd.Round, m)
		}
		mi := rd.Micro
		if mi.Gold != 7 || mi.Predicted != 6 || mi.Correct != 5 || !near(mi.Precision, 5.0/6) || !near(mi.Recall, 5.0/7) || !near(mi.F1, 10.0/13) {
			t.Errorf("round %d: micro %+v, want 5 of 6 of 7", rd.Round, mi)
		}
	}

	var b strings.Builder
	if err := rep.Text(&b); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"7 pairs", "消极态度倾向", "direction ignored", "scoring", "normalised", "raw", "round 2, normalised scoring"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("report text lacks %q:\n%s", s, b.String())
		}
	}

	// The folder now holds a workspace: a second evaluation would count
	// what the first fed back.
	if _, err := annals.EvaluateRelate(ctx, dir, pairs, relateCorpus, 1, annals.RelateOptions{Offline: true}); err == nil {
		t.Error("a second evaluation into the same folder: want an error")
	}
}

// TestEvaluateRelateScoringsStartFromTheIndexedGraph: each scoring
// relates over the graph as indexed. The raw one runs first, and what it
// fed back is reverted, so the normalised one writes the same facts back
// again in its first round, and none in its second.
func TestEvaluateRelateScoringsStartFromTheIndexedGraph(t *testing.T) {
	// Brothers through their father: a sure composition of two facts,
	// verified and written back.
	pairs := []annals.RelatePair{{Head: "孙策", Tail: "孙权", Gold: []string{"同胞"}}}
	corpus := []annals.CorpusPassage{{Key: "孙氏.txt", Text: "孙坚之子孙策，勇而有谋。孙坚次子孙权，字仲谋。"}}
	dir := t.TempDir()
	rep, err := annals.EvaluateRelate(context.Background(), dir, pairs, corpus, 2, annals.RelateOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rounds) != 4 {
		t.Fatalf("rounds %+v; want 2 per scoring", rep.Rounds)
	}
	n1, n2, r1, r2 := rep.Rounds[0], rep.Rounds[1], rep.Rounds[2], rep.Rounds[3]
	if n1.Added == 0 || n1.Added != r1.Added || n1.Steps != r1.Steps || n2.Added != 0 || r2.Added != 0 {
		t.Errorf("added (steps): normalised %d (%d) then %d, raw %d (%d) then %d; want the same first rounds, not none, and none after",
			n1.Added, n1.Steps, n2.Added, r1.Added, r1.Steps, r2.Added)
	}
	// The workspace keeps the default scoring's feedback only.
	ws, err := annals.Open(context.Background(), filepath.Join(dir, ".annals"))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	fbs, err := ws.FeedbackList(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(fbs) != n1.Added {
		t.Errorf("%d facts fed back in force, want the %d the normalised scoring added", len(fbs), n1.Added)
	}
}

func TestEvaluateRelateUnderOneScoring(t *testing.T) {
	ctx := context.Background()
	pairs := []annals.RelatePair{{Head: "孙坚", Tail: "孙策", Gold: []string{"子女"}}}
	rep, err := annals.EvaluateRelate(ctx, t.TempDir(), pairs, relateCorpus, 2, annals.RelateOptions{Offline: true, Scoring: "raw"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rounds) != 2 || rep.Scoring != "raw" || rep.Rounds[0].Scoring != "raw" || rep.Rounds[1].Scoring != "raw" {
		t.Fatalf("scoring %q, rounds %+v; want two raw rounds", rep.Scoring, rep.Rounds)
	}
	if _, err := annals.EvaluateRelate(ctx, t.TempDir(), pairs, relateCorpus, 1, annals.RelateOptions{Offline: true, Scoring: "idf"}); err == nil {
		t.Error("scoring idf: want an error")
	}
}

func TestEvaluateRelateFindsTheChild(t *testing.T) {
	rep, err := annals.EvaluateRelate(context.Background(), t.TempDir(),
		[]annals.RelatePair{{Head: "孙策", Tail: "孙坚", Gold: []string{"子女"}}},
		[]annals.CorpusPassage{{Text: "孙坚之子孙策，勇而有谋。"}}, 1, annals.RelateOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.ByType) != 1 || rep.ByType[0].Type != "子女" || rep.ByType[0].Correct != 1 || rep.Rounds[0].Micro.F1 != 1 {
		t.Fatalf("want 子女 found between 孙坚 and 孙策: %+v %+v", rep.ByType, rep.Rounds)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
