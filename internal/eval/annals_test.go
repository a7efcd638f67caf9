package eval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/extract/pattern"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/ner"
)

func TestWithinKeepsWhatIsInsideTheSentence(t *testing.T) {
	ent := func(s, e int) extract.Entity { return extract.Entity{Type: "人物", Span: kg.Span{Start: s, End: e}} }
	r := extract.Result{
		Entities: []extract.Entity{ent(0, 2), ent(10, 12), ent(14, 16), ent(19, 21)},
		Triples: []extract.Triple{
			{Head: ent(10, 12), Relation: "下级", Tail: ent(14, 16)},
			{Head: ent(0, 2), Relation: "下级", Tail: ent(14, 16)},   // a subject carried from before
			{Head: ent(14, 16), Relation: "别称", Tail: ent(14, 16)}, // a title recorded as an alias
		},
	}
	got := within(r, 10, 20)
	if len(got.Entities) != 2 || got.Entities[0].Start != 0 || got.Entities[1].End != 6 {
		t.Errorf("entities %+v, want 10–12 and 14–16 shifted to 0–2 and 4–6", got.Entities)
	}
	if len(got.Triples) != 1 || got.Triples[0].Head.Start != 0 || got.Triples[0].Tail.Start != 4 {
		t.Errorf("triples %+v, want the one inside, shifted", got.Triples)
	}
}

func TestLoadAnnalsSplits(t *testing.T) {
	dir := t.TempDir()
	if _, err := loadAnnals(dir, "test", false); !errors.Is(err, ErrDataAbsent) {
		t.Errorf("no files: %v, want ErrDataAbsent", err)
	}
	// Sentence IDs, some of each split.
	var held, kept int
	body := "# relations: annotated\n"
	for i := range 40 {
		id := fmt.Sprintf("汉书/传/某传:%d", i)
		body += id + "\t[张甲|人物]为[太守|职官]。\n" + id + "\t@ 张甲 任官 太守\n"
		if ner.HeldOut(id) {
			held++
		} else {
			kept++
		}
	}
	if held == 0 || kept == 0 {
		t.Fatalf("40 IDs, %d held out: pick others", held)
	}
	if err := os.WriteFile(filepath.Join(dir, "batch-01.txt"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "batch-02.txt"), []byte("汉书/传/某传:99\t[李乙|人物]至。\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	test, err := loadAnnals(dir, "test", true)
	if err != nil || len(test) != held {
		t.Fatalf("test: %d sentences (%v), want %d", len(test), err, held)
	}
	if test[0].chapter != "汉书/传/某传" || len(test[0].Relations) != 1 {
		t.Errorf("first test sentence %+v", test[0])
	}
	train, err := loadAnnals(dir, "train", false)
	extra := 0
	if !ner.HeldOut("汉书/传/某传:99") {
		extra = 1
	}
	if err != nil || len(train) != kept+extra {
		t.Errorf("train, relations or not: %d sentences (%v), want %d", len(train), err, kept+extra)
	}
	if _, err := loadAnnals(dir, "dev", false); err == nil {
		t.Error("split dev: no error")
	}
}

// The project's held-out annotations, read in their chapters. Figures
// are the ones docs/architecture.md quotes; this guards against a change
// that loses much of them.
func TestAnnalsHeldOut(t *testing.T) {
	if testing.Short() {
		t.Skip("extracts some hundred chapters")
	}
	dir, err := DataDir()
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "first-four-histories"))
	}
	if err != nil {
		t.Skipf("the First Four Histories are absent: %v", err)
	}
	rep, err := RunExtract(context.Background(), pattern.New(), Annals, "test", Options{DataDir: dir, Annotations: filepath.Join("..", "ner", "annotations")})
	if err != nil {
		t.Fatal(err)
	}
	if f := rep.Entities.All.Overall.F1; f < 0.80 {
		t.Errorf("held-out name F1 %.3f, under 0.80", f)
	}
	if f := rep.Triples.All.Overall.F1; f < 0.50 {
		t.Errorf("held-out triple F1 %.3f, under 0.50", f)
	}
}
