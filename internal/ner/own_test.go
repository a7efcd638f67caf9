package ner

import (
	"os"
	"path/filepath"
	"testing"
)

// corpusRoot is the First Four Histories, where the rules read each
// annotated sentence in its chapter.
var corpusRoot = filepath.Join("..", "..", "..", "shared", "data", "first-four-histories")

func readAll(t *testing.T, pattern string) []Sentence {
	t.Helper()
	files, _ := filepath.Glob(pattern)
	var out []Sentence
	for _, p := range files {
		ss, err := ReadAnnotationFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ss...)
	}
	return out
}

// A model trained on the project's own annotations reads the held-out
// ones, and the unseen 史记, better than the rules it takes as features.
func TestOwnAnnotations(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	all := readAll(t, "annotations/batch-*.txt")
	if len(all) < 200 {
		t.Skipf("only %d annotated sentences", len(all))
	}
	shiji := readAll(t, "annotations/test/shiji-*.txt")
	if n, err := AddHints(all, corpusRoot); err != nil {
		t.Fatal(err)
	} else if m, err := AddHints(shiji, corpusRoot); err != nil {
		t.Fatal(err)
	} else {
		t.Logf("the rules read %d of %d sentences in their chapters", n+m, len(all)+len(shiji))
	}
	var train, held []Sentence
	for _, s := range all {
		if HeldOut(s.ID) {
			held = append(held, s)
		} else {
			train = append(train, s)
		}
	}
	tg := Train(train, Types, TrainOptions{Seed: 1, Rules: true})
	for _, c := range []struct {
		name string
		set  []Sentence
	}{{"held out (汉书, 后汉书, 三国志)", held}, {"史记, never trained on", shiji}} {
		if len(c.set) == 0 {
			continue
		}
		model := tg.Evaluate(c.set)
		var rules Score
		for _, s := range c.set {
			rules.Add(s.Names, RuleNames(s.Text))
		}
		t.Logf("%s, %d sentences: model P %.3f R %.3f F1 %.3f; rules F1 %.3f (trained on %d)", c.name, len(c.set),
			model.Precision(), model.Recall(), model.F1(), rules.F1(), len(train))
		for _, ty := range model.TypeNames() {
			x := model.ByType[ty]
			t.Logf("  %s: gold %d, F1 %.3f (rules %.3f)", ty, x.Gold, x.F1(), rules.ByType[ty].F1())
		}
		if model.F1() <= rules.F1() {
			t.Errorf("%s: the model (F1 %.3f) does no better than the rules (%.3f)", c.name, model.F1(), rules.F1())
		}
	}
	// CHisIEC test, mostly later periods, with its four types; a state
	// acting (社会集团) is a place there.
	f, err := os.Open(filepath.Join("..", "..", "..", "shared", "data", "chisiec", "ner_test.txt"))
	if err != nil {
		t.Logf("CHisIEC absent: %v", err)
		return
	}
	defer f.Close()
	test, err := ReadCoNLL(f, CoNLLTypes)
	if err != nil {
		t.Fatal(err)
	}
	keep := map[string]string{"人物": "人物", "地点": "地点", "职官": "职官", "文献": "文献", "社会集团": "地点"}
	var sc Score
	for _, s := range test {
		var found []Span
		for _, n := range tg.Tag(s.Text) {
			if m, ok := keep[n.Type]; ok {
				n.Type = m
				found = append(found, n)
			}
		}
		sc.Add(s.Names, found)
	}
	t.Logf("CHisIEC test, mapped types, %d sentences: P %.3f R %.3f F1 %.3f", len(test), sc.Precision(), sc.Recall(), sc.F1())
}
