package eval

import (
	"math"
	"testing"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/schema"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func checkScore(t *testing.T, what string, s Score, gold, pred, correct int, p, r, f float64) {
	t.Helper()
	if s.Gold != gold || s.Predicted != pred || s.Correct != correct {
		t.Errorf("%s: counts gold %d pred %d correct %d, want %d %d %d", what, s.Gold, s.Predicted, s.Correct, gold, pred, correct)
	}
	if !near(s.Precision, p) || !near(s.Recall, r) || !near(s.F1, f) {
		t.Errorf("%s: P %.4f R %.4f F1 %.4f, want %.4f %.4f %.4f", what, s.Precision, s.Recall, s.F1, p, r, f)
	}
}

func TestScoreArithmetic(t *testing.T) {
	for _, tc := range []struct {
		gold, pred, correct int
		p, r, f             float64
	}{
		{4, 5, 3, 0.6, 0.75, 2 * 0.6 * 0.75 / 1.35},
		{2, 2, 2, 1, 1, 1},
		{3, 0, 0, 0, 0, 0},
		{0, 3, 0, 0, 0, 0},
		{0, 0, 0, 0, 0, 0},
		{10, 1, 1, 1, 0.1, 2 * 0.1 / 1.1},
	} {
		s := Score{Gold: tc.gold, Predicted: tc.pred, Correct: tc.correct}
		s.finish()
		checkScore(t, "finish", s, tc.gold, tc.pred, tc.correct, tc.p, tc.r, tc.f)
	}
}

func TestMatchOneToOne(t *testing.T) {
	// Gold 0 accepts a or b, gold 1 only a: predictions a, b must both hit
	// (a greedy pairing of a with gold 0 would leave b and gold 1 apart).
	gold := []goldItem{{class: "X", keys: []string{"a", "b"}}, {class: "Y", keys: []string{"a"}}}
	pred := []predItem{{class: "X", key: "a", mapped: true}, {class: "X", key: "b", mapped: true}}
	o := match(gold, pred)
	if o.predGold[0] != 1 || o.predGold[1] != 0 {
		t.Fatalf("matching %v, want [1 0]", o.predGold)
	}
}

func TestMatchDuplicatesAndRestatements(t *testing.T) {
	gold := []goldItem{
		{class: "X", keys: []string{"a", "b"}},
		{class: "X", keys: []string{"a", "b"}}, // the same fact again
		{class: "U"},                           // no counterpart
		{class: "Z", keys: []string{"z"}},
	}
	pred := []predItem{
		{class: "X", key: "a", mapped: true},
		{class: "X", key: "a", mapped: true}, // identical
		{class: "X", key: "b", mapped: true}, // restates the gold a matched
		{class: "Q", key: "q"},               // no counterpart, wrong
		{class: "X", key: "c", mapped: true}, // wrong
	}
	o := match(gold, pred)
	if o.goldMerged != 1 || o.duplicates != 1 || o.predMerged != 1 {
		t.Fatalf("merged gold %d, duplicates %d, merged pred %d; want 1 1 1", o.goldMerged, o.duplicates, o.predMerged)
	}
	tl := newTally()
	tl.add(o)
	ours := func(l string) string {
		if l == "U" {
			return ""
		}
		return "ours"
	}
	b := tl.block("fixture", 1, []string{"X", "Z", "U"}, ours)
	// all: gold X, U, Z = 3; predictions a, q, c = 3; correct 1.
	checkScore(t, "all", b.All.Overall, 3, 3, 1, 1.0/3, 1.0/3, 1.0/3)
	// mapped: gold X, Z = 2; predictions a, c = 2; correct 1.
	checkScore(t, "mapped", b.Mapped.Overall, 2, 2, 1, 0.5, 0.5, 0.5)
	byType := map[string]TypeScore{}
	for _, ts := range b.All.ByType {
		byType[ts.Type] = ts
	}
	checkScore(t, "X", byType["X"].Score, 1, 2, 1, 0.5, 1, 2*0.5/1.5)
	checkScore(t, "Z", byType["Z"].Score, 1, 0, 0, 0, 0, 0)
	checkScore(t, "U", byType["U"].Score, 1, 0, 0, 0, 0, 0)
	if q := byType["Q"]; !q.OurType || q.Mapped || q.Predicted != 1 {
		t.Errorf("Q row %+v", q)
	}
	for _, ts := range b.Mapped.ByType {
		if ts.Type == "U" || ts.Type == "Q" {
			t.Errorf("unmapped type %s in mapped figures", ts.Type)
		}
	}
}

func ent(text, typ string, start, end int) extract.Entity {
	return extract.Entity{Text: text, Type: typ, Span: kg.Span{Start: start, End: end}}
}

func TestScoreEntitiesMapping(t *testing.T) {
	m, _ := MappingFor(CHisIEC)
	ex := Example{Text: "王甲为某侯，守某城", Entities: []GoldEntity{
		{Text: "王甲", Type: "PER", Start: 0, End: 2},
		{Text: "某侯", Type: "OFI", Start: 3, End: 5},
		{Text: "某城", Type: "LOC", Start: 7, End: 9},
	}}
	res := extract.Result{Entities: []extract.Entity{
		ent("王甲", "人物", 0, 2), // correct
		ent("某侯", "爵位", 3, 5), // correct: 爵位 counts as OFI
		ent("某侯", "职官", 3, 5), // the same item again in another accepted type
		ent("某城", "人物", 7, 9), // wrong type
		ent("王", "人物", 0, 1),  // wrong offsets
		ent("某城", "社会集团", 7, 9),
	}}
	b, err := ScoreEntities(m, "fixture", []Example{ex}, []extract.Result{res})
	if err != nil {
		t.Fatal(err)
	}
	checkScore(t, "all", b.All.Overall, 3, 5, 2, 0.4, 2.0/3, 0.5)
	checkScore(t, "mapped", b.Mapped.Overall, 3, 4, 2, 0.5, 2.0/3, 2*0.5*(2.0/3)/(0.5+2.0/3))
	if b.PredMerged != 1 {
		t.Errorf("merged predictions %d, want 1", b.PredMerged)
	}
	rows := map[string]TypeScore{}
	for _, ts := range b.All.ByType {
		rows[ts.Type] = ts
	}
	checkScore(t, "PER", rows["PER"].Score, 1, 3, 1, 1.0/3, 1, 0.5)
	checkScore(t, "OFI", rows["OFI"].Score, 1, 1, 1, 1, 1, 1)
	checkScore(t, "LOC", rows["LOC"].Score, 1, 0, 0, 0, 0, 0)
	checkScore(t, "BOOK", rows["BOOK"].Score, 0, 0, 0, 0, 0, 0)
	if r := rows["社会集团"]; !r.OurType || r.Predicted != 1 {
		t.Errorf("社会集团 row %+v", r)
	}
	if rows["OFI"].Ours != "职官|爵位" {
		t.Errorf("OFI maps to %q", rows["OFI"].Ours)
	}
}

func TestScoreLengthMismatch(t *testing.T) {
	m, _ := MappingFor(CHisIEC)
	if _, err := ScoreEntities(m, "x", []Example{{}}, nil); err == nil {
		t.Error("no error for a missing result")
	}
	if _, err := ScoreTriples(m, schema.MustLoad(schema.ZhHistory), "x", nil, []extract.Result{{}}); err == nil {
		t.Error("no error for an extra result")
	}
}
