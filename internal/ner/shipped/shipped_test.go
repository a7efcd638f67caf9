package shipped

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/docstats"
	"github.com/annals-project/annals/internal/extract/pattern/zh"
	"github.com/annals-project/annals/internal/ner"
)

// The embedded model is what the trainer writes from the committed
// annotations: anyone can rebuild it, and a change to the annotations or
// the features that is not followed by retraining fails here.
func TestModelIsReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("trains the model")
	}
	corpus := filepath.Join("..", "..", "..", "..", "shared", "data", "first-four-histories")
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("the First Four Histories are not at %s: %v", corpus, err)
	}
	tg, what, err := ner.Recipe{Annotations: filepath.Join("..", "annotations"), Corpus: corpus}.Train()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tg.Save(&buf, what); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), Bytes()) {
		t.Fatalf("the embedded model (%d bytes) is not what the trainer writes (%d bytes): run go run ./internal/ner/train", len(Bytes()), buf.Len())
	}
}

func TestModelLoads(t *testing.T) {
	r, err := Recogniser()
	if err != nil {
		t.Fatal(err)
	}
	if len(Bytes()) > 20<<20 {
		t.Errorf("the embedded model is %d bytes, over 20 MB", len(Bytes()))
	}
	// A sentence the rules alone read wrong: the given name 策 standing
	// alone, known from the chapter's 孙策.
	got := r.Tagger.TagIn([]rune("策自领会稽太守，复以吴景为丹杨太守。"), ner.Context{Names: ner.Names{"策": "孙策"}})
	want := map[string]string{"策": "人物", "会稽太守": "职官", "吴景": "人物", "丹杨太守": "职官"}
	rs := []rune("策自领会稽太守，复以吴景为丹杨太守。")
	for _, s := range got {
		if want[string(rs[s.Start:s.End])] == s.Type {
			delete(want, string(rs[s.Start:s.End]))
		}
	}
	if len(want) > 0 {
		t.Errorf("missed %v in %v", want, got)
	}
}

// A one-character given name the rules never learned is read as a
// person where its chapter uses it as one, opening clauses and speaking,
// and not where nothing says so.
func TestChapterUseReadsGivenNames(t *testing.T) {
	r, err := Recogniser()
	if err != nil {
		t.Fatal(err)
	}
	sentence := []rune("策自领会稽太守，复以吴景为丹杨太守。")
	chapter := []rune(strings.Repeat("策曰：善。", 6) + "策乃渡江，策遂引兵还。策闻之。" + string(sentence))
	isPerson := func(c ner.Context) bool {
		for _, s := range r.Tagger.TagIn(sentence, c) {
			if s.Start == 0 && s.End == 1 && s.Type == "人物" {
				return true
			}
		}
		return false
	}
	if !isPerson(ner.Context{Use: docstats.Of(chapter)}) {
		t.Errorf("策 is not read as a person in a chapter where 策 speaks: %v", r.Tagger.TagIn(sentence, ner.Context{Use: docstats.Of(chapter)}))
	}
	if isPerson(ner.Context{Use: docstats.Of(sentence)}) {
		t.Errorf("策 is read as a person with nothing in the text to say so")
	}
}

func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, _, err := ner.Load(bytes.NewReader(Bytes())); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTagChapter tags a long chapter sentence by sentence, with the
// rules' hints read over the chapter and the names found before, as
// indexing does.
func BenchmarkTagChapter(b *testing.B) {
	path := filepath.Join("..", "..", "..", "..", "shared", "data", "first-four-histories", "三国志", "蜀书", "诸葛亮传", "text.txt")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skipf("no chapter to tag: %v", err)
	}
	r, err := Recogniser()
	if err != nil {
		b.Fatal(err)
	}
	doc := string(data)
	hints, names := ner.DocumentHints(doc, "诸葛亮传")
	pieces := ner.Split(doc)
	rs := []rune(doc)
	use := docstats.Of(rs)
	b.SetBytes(int64(len(rs)))
	for b.Loop() {
		found := docstats.NewFound()
		for _, p := range pieces {
			r.Recognise(rs[p.Start:p.End], mentions(ner.Within(hints, p.Start, p.End)), names, use, found)
		}
	}
}

// The shipped model reads the held-out annotations and the unseen 史记
// better than the rules it takes as features; the figures are logged.
func TestShippedModelScores(t *testing.T) {
	corpus := filepath.Join("..", "..", "..", "..", "shared", "data", "first-four-histories")
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("the First Four Histories are not at %s: %v", corpus, err)
	}
	r, err := Recogniser()
	if err != nil {
		t.Fatal(err)
	}
	_, held, err := ner.Recipe{Annotations: filepath.Join("..", "annotations"), Corpus: corpus}.Read()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join("..", "annotations", "test", "shiji-*.txt"))
	var shiji []ner.Sentence
	for _, p := range files {
		ss, err := ner.ReadAnnotationFile(p)
		if err != nil {
			t.Fatal(err)
		}
		shiji = append(shiji, ss...)
	}
	if _, err := ner.AddHints(shiji, corpus); err != nil {
		t.Fatal(err)
	}
	r.Tagger.ReadChapters(held)
	r.Tagger.ReadChapters(shiji)
	for _, c := range []struct {
		name string
		set  []ner.Sentence
	}{{"held out (汉书, 后汉书, 三国志)", held}, {"史记, never trained on", shiji}} {
		model := r.Tagger.Evaluate(c.set)
		var rules ner.Score
		for _, s := range c.set {
			rules.Add(s.Names, s.Hints)
		}
		t.Logf("%s, %d sentences: model P %.3f R %.3f F1 %.3f; rules F1 %.3f", c.name, len(c.set),
			model.Precision(), model.Recall(), model.F1(), rules.F1())
		for _, ty := range model.TypeNames() {
			t.Logf("  %s: gold %d, F1 %.3f (rules %.3f)", ty, model.ByType[ty].Gold, model.ByType[ty].F1(), rules.ByType[ty].F1())
		}
		if len(c.set) == 0 || model.F1() <= rules.F1() {
			t.Errorf("%s: the model (F1 %.3f) does no better than the rules (%.3f)", c.name, model.F1(), rules.F1())
		}
	}
	// CHisIEC test, mostly later periods, scored by its conventions.
	test, _, err := ner.ReadFileFormat(filepath.Join("..", "..", "..", "..", "shared", "data", "chisiec", "ner_test.txt"))
	if err != nil {
		t.Logf("CHisIEC absent: %v", err)
		return
	}
	sc := r.Tagger.EvaluateAs(test, ner.AsCHisIEC)
	t.Logf("CHisIEC test, mapped types, %d sentences: P %.3f R %.3f F1 %.3f", len(test), sc.Precision(), sc.Recall(), sc.F1())
}

// A one-character given name the sentence alone does not show to be one
// is read as a person once the chapter has found it as one before, and
// the recogniser that indexing calls records what it finds for the
// sentences after.
func TestNamesFoundBeforeAreKnown(t *testing.T) {
	r, err := Recogniser()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ sentence, name string }{
		{"盛建计从建业筑围。", "盛"},
		{"授以为不可。", "授"},
	} {
		rs := []rune(c.sentence)
		isPerson := func(ctx ner.Context) bool {
			for _, s := range r.Tagger.TagIn(rs, ctx) {
				if string(rs[s.Start:s.End]) == c.name && s.Type == "人物" {
					return true
				}
			}
			return false
		}
		if isPerson(ner.Context{Found: docstats.NewFound()}) {
			t.Errorf("%s: %s is read as a person with nothing found before", c.sentence, c.name)
		}
		found := docstats.NewFound()
		for k := range 3 {
			found.Add(k, c.name, "人物")
		}
		if !isPerson(ner.Context{Found: found, Sentence: 3}) {
			t.Errorf("%s: %s is not read as a person after three sentences found it as one", c.sentence, c.name)
		}
	}

	found := docstats.NewFound()
	r.Recognise([]rune("策自领会稽太守，复以吴景为丹杨太守。"), nil, nil, nil, found)
	r.Recognise([]rune("景卒。"), nil, nil, nil, found)
	if found.Read != 2 {
		t.Errorf("the recogniser read %d sentences, want 2", found.Read)
	}
	if typ, n := found.Before([]byte("吴景"), 1); typ != "人物" || n != 1 {
		t.Errorf("吴景 found before the second sentence: %q × %d, want 人物 × 1", typ, n)
	}
	if _, n := found.Before([]byte("吴景"), 0); n != 0 {
		t.Errorf("吴景 found before the first sentence that names him")
	}
}

func mentions(spans []ner.Span) []zh.Mention {
	out := make([]zh.Mention, len(spans))
	for i, s := range spans {
		out[i] = zh.Mention{Start: s.Start, End: s.End, Type: s.Type}
	}
	return out
}
