package eval

import (
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func approx(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestScoreRelationsCountsByHand(t *testing.T) {
	preds := []RelationPrediction{
		{Gold: []string{"子女"}, Pred: []string{"子女", "子女"}},                 // 子女 right (repeat ignored)
		{Gold: []string{"子女", "同胞"}, Pred: []string{"同胞", "婚恋"}},           // 同胞 right, 子女 missed, 婚恋 never gold
		{Gold: []string{"下级"}, Pred: []string{"上级"}},                       // 上级 is the 下级 it mirrors: right
		{Gold: []string{"任官|封爵"}, Pred: []string{"封爵", "任官"}},              // either alternative: right once
		{Gold: []string{"同胞"}, Pred: []string{"子女", "任官"}},                 // 同胞 missed; 子女 and 任官 wrong
		{Gold: []string{"下级"}},                                             // nothing found: missed
		{Pred: []string{"婚恋", "同僚"}},                                       // no gold: both never gold
		{Gold: []string{"任官|封爵", "下级"}, Pred: []string{"下级", "同僚", "同僚 "}}, // 任官|封爵 missed
	}
	sc := ScoreRelations(preds)
	// gold, predicted, correct per type, counted by hand.
	want := map[string][3]int{
		"子女":    {2, 2, 1}, // pairs 1, 2 gold; 1 right; 5 wrong
		"同胞":    {2, 1, 1}, // pairs 2, 5 gold; 2 right
		"下级":    {3, 2, 2}, // pairs 3, 6, 8 gold; 3, 8 right
		"任官|封爵": {2, 2, 1}, // pairs 4, 8 gold; 4 right; 5 wrong (任官)
	}
	got := map[string][3]int{}
	for _, ts := range sc.ByType {
		got[ts.Type] = [3]int{ts.Gold, ts.Predicted, ts.Correct}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("per type %v, want %v", got, want)
	}
	if sc.ByType[0].Type != "下级" {
		t.Errorf("rows %v: want the most held type first", sc.ByType)
	}
	never := map[string]int{}
	for _, ts := range sc.NeverGold {
		never[ts.Type] = ts.Predicted
		if ts.Gold != 0 || ts.Correct != 0 {
			t.Errorf("never-gold row %+v has gold or correct counts", ts)
		}
	}
	if !reflect.DeepEqual(never, map[string]int{"婚恋": 2, "同僚": 2}) {
		t.Errorf("never gold %v, want 婚恋 2, 同僚 2", never)
	}
	// Micro: gold 2+2+3+2 = 9, correct 1+1+2+1 = 5, predicted 5 right + 2
	// wrong (pair 5) + 4 never gold.
	if m := sc.Micro; m.Gold != 9 || m.Correct != 5 || m.Predicted != 11 ||
		!approx(m.Precision, 5.0/11) || !approx(m.Recall, 5.0/9) || !approx(m.F1, 2*5.0/(11+9)) {
		t.Errorf("micro %+v, want 5 right of 11 found, of 9 gold", m)
	}
	// Macro: P (½ + 1 + 1 + ½)/4, R (½ + ½ + ⅔ + ½)/4, F1 (½ + ⅔ + ⅘ + ½)/4.
	if m := sc.Macro; m.Types != 4 || !approx(m.Precision, 0.75) || !approx(m.Recall, (0.5+0.5+2.0/3+0.5)/4) ||
		!approx(m.F1, (0.5+2.0/3+0.8+0.5)/4) {
		t.Errorf("macro %+v", m)
	}
	if sc.Pairs != len(preds) {
		t.Errorf("pairs %d, want %d", sc.Pairs, len(preds))
	}
}

func TestScoreRelationsOverlappingAlternatives(t *testing.T) {
	// 辖 is an alternative of both 辖 and 辖|居: a wrong 辖 counts against
	// each, once in the micro figures; a right one matches both.
	sc := ScoreRelations([]RelationPrediction{
		{Gold: []string{"辖"}, Pred: []string{"辖"}},
		{Gold: []string{"辖|居"}, Pred: []string{"居"}},
		{Gold: []string{"子女"}, Pred: []string{"辖"}},
	})
	got := map[string][3]int{}
	for _, ts := range sc.ByType {
		got[ts.Type] = [3]int{ts.Gold, ts.Predicted, ts.Correct}
	}
	want := map[string][3]int{"辖": {1, 2, 1}, "辖|居": {1, 2, 1}, "子女": {1, 0, 0}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("per type %v, want %v", got, want)
	}
	if m := sc.Micro; m.Gold != 3 || m.Predicted != 3 || m.Correct != 2 {
		t.Errorf("micro %+v, want 2 right of 3 found, of 3 gold", m)
	}
}

func TestScoreRelationsEmpty(t *testing.T) {
	sc := ScoreRelations(nil)
	if sc.Macro.Types != 0 || sc.Macro.F1 != 0 || sc.Micro.F1 != 0 || len(sc.ByType) != 0 {
		t.Errorf("empty: %+v", sc)
	}
}

func TestGoldClass(t *testing.T) {
	for in, want := range map[string]string{
		"上级":         "下级",
		"下级|上级":      "下级",
		" 任官 |封爵|任官": "任官|封爵",
		"|":          "",
	} {
		if got := GoldClass(in); got != want {
			t.Errorf("GoldClass(%q) = %q, want %q", in, got, want)
		}
	}
}

// fixtureCHisIECRelate: invented sentences in the published format; spans
// traditional, as in the data.
const fixtureCHisIECRelate = `[
{"tokens": "甲乙遣丙丁攻戊城，丙丁之弟丙庚从之。", "entities": [
  {"type": "PER", "start": 0, "end": 2, "span": "甲乙"},
  {"type": "PER", "start": 3, "end": 5, "span": "丙丁"},
  {"type": "LOC", "start": 6, "end": 8, "span": "戊城"},
  {"type": "PER", "start": 13, "end": 15, "span": "丙庚"}],
 "relations": [
  {"type": "上下级", "head": 0, "tail": 1, "head_span": "甲乙", "tail_span": "丙丁"},
  {"type": "敌对攻伐", "head": 1, "tail": 2, "head_span": "丙丁", "tail_span": "戊城"},
  {"type": "兄弟", "head": 1, "tail": 3, "head_span": "丙丁", "tail_span": "丙庚"},
  {"type": "同僚", "head": 3, "tail": 0, "head_span": "丙庚", "tail_span": "甲乙"}],
 "orig_id": 1},
{"tokens": "丙丁為甲乙所重，甲乙，字子乙。", "entities": [
  {"type": "PER", "start": 0, "end": 2, "span": "丙丁"},
  {"type": "PER", "start": 3, "end": 5, "span": "甲乙"},
  {"type": "PER", "start": 8, "end": 10, "span": "甲乙"},
  {"type": "PER", "start": 12, "end": 14, "span": "子乙"}],
 "relations": [
  {"type": "政治奥援", "head": 1, "tail": 0, "head_span": "甲乙", "tail_span": "丙丁"},
  {"type": "上下级", "head": 1, "tail": 0, "head_span": "甲乙", "tail_span": "丙丁"},
  {"type": "别名", "head": 2, "tail": 3, "head_span": "甲乙", "tail_span": "子乙"},
  {"type": "别名", "head": 1, "tail": 2, "head_span": "甲乙", "tail_span": "甲乙"}],
 "orig_id": 2}
]`

func TestCHisIECRelatePairs(t *testing.T) {
	exs, err := ParseCHisIECRE(strings.NewReader(fixtureCHisIECRelate), "fixture")
	if err != nil {
		t.Fatal(err)
	}
	set := CHisIECRelatePairs(exs)
	want := []GoldPair{
		// Both ways round pooled; 上下级 twice counts once.
		{Head: "甲乙", Tail: "丙丁", Gold: []string{"下级", "积极态度倾向"}},
		{Head: "丙丁", Tail: "戊城", Gold: []string{"攻|消极态度倾向"}},
		{Head: "丙丁", Tail: "丙庚", Gold: []string{"同胞"}},
		{Head: "甲乙", Tail: "子乙", Gold: []string{"别称"}},
	}
	if !reflect.DeepEqual(set.Pairs, want) {
		t.Errorf("pairs %v\nwant  %v", set.Pairs, want)
	}
	wantOut := RelateLeftOut{Relations: 8, Unmapped: map[string]int{"同僚": 1}, SameName: 1, NoType: 1}
	if !reflect.DeepEqual(set.LeftOut, wantOut) {
		t.Errorf("left out %+v, want %+v", set.LeftOut, wantOut)
	}
	// Every sentence is a passage, as written (the traditional 為 too).
	if len(set.Texts) != 2 || set.Texts[1] != "丙丁為甲乙所重，甲乙，字子乙。" {
		t.Errorf("texts %q", set.Texts)
	}
}

func TestLoadCHisIECREFileMissing(t *testing.T) {
	_, err := LoadCHisIECREFile(filepath.Join(t.TempDir(), "re_coling_train_dev.json"))
	if !errors.Is(err, ErrDataAbsent) {
		t.Errorf("error %v, want ErrDataAbsent", err)
	}
}

// TestCHisIECRelateDevSet reads the shared development file when it is
// there.
func TestCHisIECRelateDevSet(t *testing.T) {
	dir, err := DataDir()
	if err != nil {
		t.Skip("shared data absent: " + err.Error())
	}
	exs, err := LoadCHisIECREFile(filepath.Join(dir, string(CHisIEC), "re_coling_train_dev.json"))
	if errors.Is(err, ErrDataAbsent) {
		t.Skip("CHisIEC absent from ../shared/data/chisiec: " + err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	set := CHisIECRelatePairs(exs)
	if len(set.Texts) != len(exs) || len(set.Pairs) == 0 || set.LeftOut.Relations == 0 {
		t.Fatalf("%d examples gave %d texts, %d pairs from %d relations", len(exs), len(set.Texts), len(set.Pairs), set.LeftOut.Relations)
	}
	types := map[string]bool{}
	for _, p := range set.Pairs {
		if p.Head == p.Tail || len(p.Gold) == 0 {
			t.Errorf("pair %+v: same names or no type", p)
		}
		for _, g := range p.Gold {
			types[g] = true
		}
	}
	for _, ty := range []string{"任官|封爵", "下级", "子女", "同胞"} {
		if !types[ty] {
			t.Errorf("no pair holds %s (types %v)", ty, types)
		}
	}
	// Only 同僚 has no counterpart.
	for label := range set.LeftOut.Unmapped {
		if label != "同僚" {
			t.Errorf("left out label %s: it has a counterpart", label)
		}
	}
}

func TestRelateReportTextRowPerScoring(t *testing.T) {
	rep := &RelateReport{Pairs: 2, Scoring: "normalised", Rounds: []RelateRoundScore{
		{Scoring: "normalised", Round: 1, Pairs: 2, Connected: 2, Connectivity: 1, Micro: Score{Gold: 2, Predicted: 2, Correct: 2, Precision: 1, Recall: 1, F1: 1}},
		{Scoring: "raw", Round: 1, Pairs: 2, Connected: 1, Connectivity: 0.5, Micro: Score{Gold: 2, Predicted: 1, Correct: 1, Precision: 1, Recall: 0.5, F1: 2.0 / 3}},
	}, ByType: []RelationTypeScore{{Type: "子女", Score: Score{Gold: 2, Predicted: 2, Correct: 2, Precision: 1, Recall: 1, F1: 1}}}}
	var b strings.Builder
	if err := rep.Text(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	var rows []string
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 0 && (f[0] == "scoring" || f[0] == "normalised" || f[0] == "raw") {
			rows = append(rows, strings.Join(f, " "))
		}
	}
	want := []string{
		"scoring round related connected conn% added steps rejected unknown P% R% F1% gold pred ok P% R% F1%",
		"normalised 1 2 2 100.0 0 0 0 0 0.0 0.0 0.0 2 2 2 100.0 100.0 100.0",
		"raw 1 2 1 50.0 0 0 0 0 0.0 0.0 0.0 2 1 1 100.0 50.0 66.7",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s\nin:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"), out)
	}
	if !strings.Contains(out, "Per type, round 1, normalised scoring") {
		t.Errorf("no per-type header naming the scoring:\n%s", out)
	}

	// A report whose rounds name no scoring has no scoring column.
	rep = &RelateReport{Pairs: 1, Rounds: []RelateRoundScore{{Round: 1, Pairs: 1}}}
	b.Reset()
	if err := rep.Text(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "scoring") {
		t.Errorf("a scoring column with no scoring:\n%s", b.String())
	}
}
