package eval

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/schema"
)

func textEnt(text string) extract.Entity {
	return extract.Entity{Text: text, Type: "人物"}
}

// The ROUGE figures of a triple score, worked out by hand.
//
// Example 1 has the gold 刘备 父 刘弘. The extractor gives 刘弘 子女 刘备
// (the gold in another accepted form: written as the gold, 刘备父刘弘) and
// 刘备 任官 太守 (wrong; 任官 is written as its label 任职: 刘备任职太守).
// Sorted (任 U+4EFB before 父 U+7236), the produced string is
// 刘备任职太守；刘备父刘弘: 11 characters once the "；" is dropped; the
// gold string 刘备父刘弘 has 5.
//
//	ROUGE-1: produced 刘3 备2 任 职 太 守 父 弘, gold 刘2 备 父 弘; clipped
//	  overlap 2+1+1+1 = 5; P 5/11, R 5/5; F1 = 2·(5/11)/(5/11+1) = 10/16.
//	ROUGE-2: 10 produced bigrams (刘备 twice, 备任 任职 职太 太守 守刘 备父
//	  父刘 刘弘), 4 gold ones (刘备 备父 父刘 刘弘); overlap 4; P 4/10, R 1;
//	  F1 = 0.8/1.4 = 4/7.
//	ROUGE-L: the gold is the produced string's last five characters, so
//	  LCS = 5; P 5/11, R 1; F1 = 10/16.
//
// Example 2 has the gold 曹操 字 孟德 and nothing produced: 0, 0, 0.
// Example 3 has neither and is left out of the mean.
//
// Means over the 2 examples: R1 = RL = 10/32, R2 = 2/7. Micro F1: 2 gold,
// 2 predictions, 1 correct: 0.5. SCORE = (0.5 + 10/32 + 2/7 + 10/32) / 4.
// Every gold and predicted relation maps, so the mapped view is the same.
func TestScoreTriplesRouge(t *testing.T) {
	m, _ := MappingFor(CCLUE)
	exs := []Example{
		{Text: "刘备，刘弘之子也，为太守", Triples: []GoldTriple{{Head: GoldEntity{Text: "刘备", Type: "PER"}, Relation: "父", Tail: GoldEntity{Text: "刘弘", Type: "PER"}}}},
		{Text: "曹操字孟德", Triples: []GoldTriple{{Head: GoldEntity{Text: "曹操", Type: "PER"}, Relation: "字", Tail: GoldEntity{Text: "孟德", Type: "PER"}}}},
		{Text: "天下大乱"},
	}
	res := []extract.Result{
		{Triples: []extract.Triple{
			{Head: textEnt("刘弘"), Relation: "子女", Tail: textEnt("刘备")},
			{Head: textEnt("刘备"), Relation: "任官", Tail: extract.Entity{Text: "太守", Type: "职官"}},
		}},
		{},
		{},
	}
	b, err := ScoreTriples(m, schema.MustLoad(schema.ZhHistory), "fixture", exs, res)
	if err != nil {
		t.Fatal(err)
	}
	checkScore(t, "all", b.All.Overall, 2, 2, 1, 0.5, 0.5, 0.5)
	r1, r2, rl := 10.0/32, 2.0/7, 10.0/32
	score := (0.5 + r1 + r2 + rl) / 4
	for view, f := range map[string]Figures{"all": b.All, "mapped": b.Mapped} {
		r := f.Rouge
		if r == nil {
			t.Fatalf("%s: no ROUGE figures", view)
		}
		if r.Examples != 2 {
			t.Errorf("%s: %d examples averaged, want 2", view, r.Examples)
		}
		if !near(r.R1, r1) || !near(r.R2, r2) || !near(r.RL, rl) || !near(r.Score, score) {
			t.Errorf("%s: R1 %.9f R2 %.9f RL %.9f SCORE %.9f, want %.9f %.9f %.9f %.9f", view, r.R1, r.R2, r.RL, r.Score, r1, r2, rl, score)
		}
	}
}

// Entities have no string view; the triples' ROUGE figures reach the JSON
// report and the printed table.
func TestReportRougeFields(t *testing.T) {
	dir := writeFixtures(t)
	rep, err := RunExtract(context.Background(), fixtureEcho(t, dir, CHisIEC), CHisIEC, "test", Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Entities.All.Rouge != nil {
		t.Error("entities carry ROUGE figures")
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Triples struct {
			All, Mapped struct {
				Rouge map[string]any `json:"rouge"`
			}
		} `json:"triples"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for view, r := range map[string]map[string]any{"all": doc.Triples.All.Rouge, "mapped": doc.Triples.Mapped.Rouge} {
		for _, k := range []string{"examples", "rouge1", "rouge2", "rougeL", "score"} {
			if _, ok := r[k].(float64); !ok {
				t.Errorf("triples.%s.rouge lacks %s: %s", view, k, b)
			}
		}
	}
	var back Report
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if *back.Triples.All.Rouge != *rep.Triples.All.Rouge || *back.Triples.Mapped.Rouge != *rep.Triples.Mapped.Rouge {
		t.Errorf("JSON round trip lost the ROUGE figures: %s", b)
	}
	// The echo gives half the gold, so something overlaps.
	if rep.Triples.Mapped.Rouge.R1 <= 0 || rep.Triples.Mapped.Rouge.Score <= 0 {
		t.Errorf("mapped ROUGE %+v", *rep.Triples.Mapped.Rouge)
	}
	var buf strings.Builder
	if err := rep.Write(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"R1%", "R2%", "RL%", "SCORE%", "SCORE = mean of F1, R1, R2, RL"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "SCORE%") != 1 {
		t.Errorf("ROUGE table not printed once (triples only):\n%s", out)
	}
}
