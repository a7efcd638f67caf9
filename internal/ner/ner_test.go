package ner

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/docstats"
)

func TestParseLineAndFormat(t *testing.T) {
	line := "三国志/蜀书/诸葛亮传:0\t[诸葛亮|人物]，字[孔明|人物]，[琅邪|地点][阳都|地点]人也。"
	s, err := ParseLine(line)
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != "三国志/蜀书/诸葛亮传:0" || s.Text != "诸葛亮，字孔明，琅邪阳都人也。" {
		t.Fatalf("%+v", s)
	}
	want := []Span{{0, 3, "人物"}, {5, 7, "人物"}, {8, 10, "地点"}, {10, 12, "地点"}}
	if fmt.Sprint(s.Names) != fmt.Sprint(want) {
		t.Fatalf("names %v, want %v", s.Names, want)
	}
	if got := Format(s); got != line {
		t.Fatalf("formatted back as %q", got)
	}
	for _, bad := range []string{
		"no tab [曹操|人物]",
		"x\t[曹操|人物",
		"x\t[曹操]",
		"x\t[曹操|皇帝]",
		"x\t曹操]",
		"x\t[|人物]",
		"x\t[曹[操|人物]",
		"x\t曹|操",
	} {
		if _, err := ParseLine(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func FuzzParseLine(f *testing.F) {
	f.Add("a\t[诸葛亮|人物]，字[孔明|人物]。")
	f.Add("a\t[[|]]")
	f.Fuzz(func(t *testing.T, line string) {
		s, err := ParseLine(line)
		if err != nil {
			return
		}
		n := len([]rune(s.Text))
		for _, sp := range s.Names {
			if sp.Start < 0 || sp.End > n || sp.Start >= sp.End || !knownType(sp.Type) {
				t.Fatalf("%q: bad span %+v in %q", line, sp, s.Text)
			}
		}
		// What parses formats back to something that parses the same.
		again, err := ParseLine(Format(s))
		if err != nil || again.Text != s.Text || fmt.Sprint(again.Names) != fmt.Sprint(s.Names) {
			t.Fatalf("%q: %+v, formatted and parsed again %+v, %v", line, s, again, err)
		}
	})
}

func TestReadCoNLL(t *testing.T) {
	in := "子\tO\n璋\tS-PER\n本\tO\n名\tO\n胡\tB-PER\n麻\tI-PER\n愈\tE-PER\n，\tO\n\n左\tB-OFI\n副\tE-OFI\n元\tB-XYZ\n"
	got, err := ReadCoNLL(strings.NewReader(in), CoNLLTypes)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Text != "子璋本名胡麻愈，" || fmt.Sprint(got[0].Names) != "[{1 2 人物} {4 7 人物}]" ||
		fmt.Sprint(got[1].Names) != "[{0 2 职官}]" {
		t.Fatalf("%+v", got)
	}
	if _, err := ReadCoNLL(strings.NewReader("子 O extra\n"), nil); err == nil {
		t.Fatal("a line of three fields was read")
	}
}

// Names read by annals's conventions are rewritten as CHisIEC marks them:
// four types, no dates, an office held at a place cut into the two.
func TestAsCHisIEC(t *testing.T) {
	text := []rune("乃除华州刺史，封万年县伯。三年，魏人伐宛，拜车骑大将军。")
	found := []Span{{2, 6, "职官"}, {8, 12, "爵位"}, {13, 15, "时间"}, {16, 17, "社会集团"}, {19, 20, "地点"}, {22, 27, "职官"}}
	var got []string
	for _, s := range AsCHisIEC(text, found) {
		got = append(got, string(text[s.Start:s.End])+"/"+s.Type)
	}
	// 车骑 is no place: 车骑大将军 stays one office.
	want := "华州/地点 刺史/职官 万年县伯/职官 魏/地点 宛/地点 车骑大将军/职官"
	if strings.Join(got, " ") != want {
		t.Errorf("got %s, want %s", strings.Join(got, " "), want)
	}
	if !(&Tagger{Types: Types}).ReadsBeyondCHisIEC() || (&Tagger{Types: []string{"人物", "地点", "职官", "文献"}}).ReadsBeyondCHisIEC() {
		t.Error("a tagger of annals's types and one of CHisIEC's are told apart wrongly")
	}
}

// A tagger trained on sentences written with one set of names finds
// names it never saw in the same frames, and leaves the rest alone.
func TestTaggerLearnsTheFrames(t *testing.T) {
	people := []string{"曹操", "刘备", "孙权", "袁绍", "吕布", "张辽", "关羽", "马超", "黄忠", "魏延", "董卓", "袁术"}
	places := []string{"南阳", "许", "洛阳", "长安", "成都", "建业", "下邳", "宛", "襄阳", "江陵", "合肥", "汉中"}
	frames := []string{"%s击%s，破之。", "%s屯%s。", "%s还%s。", "遣%s守%s。"}
	var train []Sentence
	for i, p := range people[:8] {
		for j, f := range frames {
			q := places[(i+j)%8]
			text := fmt.Sprintf(f, p, q)
			ps := strings.Index(text, p)
			qs := strings.Index(text, q)
			rs := func(byteOff int) int { return len([]rune(text[:byteOff])) }
			train = append(train, Sentence{Text: text, Names: []Span{
				{rs(ps), rs(ps) + len([]rune(p)), "人物"}, {rs(qs), rs(qs) + len([]rune(q)), "地点"}}})
		}
	}
	tg := Train(train, []string{"人物", "地点"}, TrainOptions{Epochs: 8, Seed: 1})
	// Unseen names in the frames.
	got := tg.Tag("魏延屯汉中。")
	if fmt.Sprint(got) != "[{0 2 人物} {3 5 地点}]" {
		t.Errorf("魏延屯汉中。: %v", got)
	}
	if got := tg.Tag("遣袁术守江陵。"); fmt.Sprint(got) != "[{1 3 人物} {4 6 地点}]" {
		t.Errorf("遣袁术守江陵。: %v", got)
	}
	// Deterministic: the same data and seed give the same weights.
	again := Train(train, []string{"人物", "地点"}, TrainOptions{Epochs: 8, Seed: 1})
	var a, b bytes.Buffer
	if err := tg.Save(&a, "test"); err != nil {
		t.Fatal(err)
	}
	if err := again.Save(&b, "test"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two trainings on the same data differ")
	}
}

func TestScore(t *testing.T) {
	var s Score
	s.Add([]Span{{0, 2, "人物"}, {3, 5, "地点"}}, []Span{{0, 2, "人物"}, {3, 5, "人物"}})
	if s.Gold != 2 || s.Found != 2 || s.Right != 1 || s.F1() != 0.5 || s.ByType["地点"].Recall() != 0 {
		t.Fatalf("%+v", s)
	}
}

// Every annotation file parses, and each sentence is, mark for mark,
// the sentence of the corpus drawn for it.
func TestAnnotationFiles(t *testing.T) {
	drawn := map[string]string{}
	todo, _ := filepath.Glob("annotations/todo*/*.txt")
	for _, p := range todo {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			id, text, _ := strings.Cut(line, "\t")
			drawn[id] = text
		}
	}
	var files []string
	for _, pat := range []string{"annotations/*.txt", "annotations/agreement/*.txt", "annotations/test/*.txt"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	total := 0
	for _, p := range files {
		ss, err := ReadAnnotationFile(p)
		if err != nil {
			t.Error(err)
			continue
		}
		seen := map[string]bool{}
		for _, s := range ss {
			if seen[s.ID] {
				t.Errorf("%s: %s twice", p, s.ID)
			}
			seen[s.ID] = true
			if want, ok := drawn[s.ID]; !ok {
				t.Errorf("%s: %s was never drawn", p, s.ID)
			} else if want != s.Text {
				t.Errorf("%s: %s reads\n%q\nbut the corpus has\n%q", p, s.ID, s.Text, want)
			}
			if strings.HasPrefix(s.ID, "史记/") && !strings.Contains(p, "test") {
				t.Errorf("%s: %s is from 史记, which is kept out of training", p, s.ID)
			}
		}
		total += len(ss)
	}
	t.Logf("%d annotated sentences in %d files", total, len(files))
}

// CHisIEC: train on its training split, score on its test split. The
// data is not ours to ship, so this only measures the trainer.
func TestCHisIEC(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "data", "chisiec")
	read := func(name string) []Sentence {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Skipf("CHisIEC absent (%v): see ../shared/data/README.md", err)
		}
		defer f.Close()
		s, err := ReadCoNLL(f, CoNLLTypes)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if testing.Short() {
		t.Skip("trains a model")
	}
	train, dev, test := read("ner_train.txt"), read("ner_dev.txt"), read("ner_test.txt")
	types := []string{"人物", "地点", "职官", "文献"}
	for _, c := range []struct {
		name  string
		data  []Sentence
		rules bool
		min   float64
	}{
		{"characters alone", train, false, 0.77},
		{"with the rules as features", train, true, 0.79},
		{"with the rules as features, train and dev", append(append([]Sentence(nil), train...), dev...), true, 0.80},
	} {
		tg := Train(c.data, types, TrainOptions{Seed: 1, Rules: c.rules})
		sc := tg.Evaluate(test)
		t.Logf("CHisIEC test, %s (%d sentences, %d features): P %.3f R %.3f F1 %.3f", c.name, len(c.data), tg.Features(), sc.Precision(), sc.Recall(), sc.F1())
		for _, ty := range sc.TypeNames() {
			x := sc.ByType[ty]
			t.Logf("  %s: gold %d, F1 %.3f", ty, x.Gold, x.F1())
		}
		if sc.F1() < c.min {
			t.Errorf("%s: F1 %.3f under %.2f", c.name, sc.F1(), c.min)
		}
	}
}

func TestModelRoundTrip(t *testing.T) {
	train := []Sentence{
		{Text: "曹操击袁绍。", Names: []Span{{0, 2, "人物"}, {3, 5, "人物"}}},
		{Text: "刘备屯新野。", Names: []Span{{0, 2, "人物"}, {3, 5, "地点"}}},
		{Text: "孙权还建业。", Names: []Span{{0, 2, "人物"}, {3, 5, "地点"}}},
		{Text: "曹操击刘备。", Names: []Span{{0, 2, "人物"}, {3, 5, "人物"}}},
	}
	for i := range train {
		train[i].Use = docstats.Of([]rune("曹操击袁绍。刘备屯新野。孙权还建业。曹操击刘备。"))
	}
	t.Run("known names and chapter use", func(t *testing.T) {
		tg := Train(train, []string{"人物", "地点"}, TrainOptions{Seed: 1, Known: true, DocUse: true})
		if len(tg.Known) != 2 || !tg.DocUse {
			t.Fatalf("known %d names (want 曹操 and 刘备, each marked twice), doc use %v", len(tg.Known), tg.DocUse)
		}
		roundTrip(t, tg)
	})
	for _, withClasses := range []bool{false, true} {
		var classes Clusters
		if withClasses {
			classes = LearnClusters([]string{"曹操击袁绍。刘备屯新野。孙权还建业。"}, ClusterOptions{K: 3, MinCount: 1})
		}
		t.Run(fmt.Sprintf("classes=%v", withClasses), func(t *testing.T) {
			roundTrip(t, Train(train, []string{"人物", "地点"}, TrainOptions{Seed: 1, Clusters: classes}))
		})
	}
}

func roundTrip(t *testing.T, tg *Tagger) {
	var buf bytes.Buffer
	if err := tg.Save(&buf, "four sentences"); err != nil {
		t.Fatal(err)
	}
	saved := buf.Bytes()
	back, info, err := Load(bytes.NewReader(saved))
	if err != nil {
		t.Fatal(err)
	}
	if info.Trained != "four sentences" || info.Rules || fmt.Sprint(info.Types) != "[人物 地点]" || info.Clusters != len(tg.Clusters) {
		t.Fatalf("info %+v", info)
	}
	if !maps.Equal(back.Known, tg.Known) || back.DocUse != tg.DocUse || info.Known != len(tg.Known) {
		t.Fatalf("known names %v and doc use %v saved, %v and %v loaded", tg.Known, tg.DocUse, back.Known, back.DocUse)
	}
	if !maps.Equal(back.Clusters, tg.Clusters) {
		t.Fatalf("classes %v saved, %v loaded", tg.Clusters, back.Clusters)
	}
	for _, s := range []string{"曹操击袁绍。", "刘备还建业。", "孙权屯新野。"} {
		if a, b := fmt.Sprint(tg.Tag(s)), fmt.Sprint(back.Tag(s)); a != b {
			t.Errorf("%s: %s before saving, %s after", s, a, b)
		}
	}
	var again bytes.Buffer
	back.Save(&again, "four sentences")
	if !bytes.Equal(again.Bytes(), saved) {
		t.Error("a model loaded and saved again is not the same bytes")
	}
	for _, cut := range []int{0, 10, len(saved) / 2, len(saved) - 1} {
		if _, _, err := Load(bytes.NewReader(saved[:cut])); err == nil {
			t.Errorf("a model cut at %d bytes loaded", cut)
		}
	}
	if _, _, err := Load(strings.NewReader("not a model")); err == nil {
		t.Error("text loaded as a model")
	}
}

// Relation lines attach to the sentence before them, name marks by text and
// occurrence, and are checked against the schema's relations and types.
func TestRelationLines(t *testing.T) {
	file := "# relations: annotated\n" +
		"a:0\t[备|人物]子[禅|人物]，[备|人物]卒，[禅|人物]立。\n" +
		"a:0\t@ 备 子女 禅\n" +
		"a:0\t@ 备#2 更代 禅#2\n" +
		"a:1\t[亮|人物]为[丞相|职官]。\n" +
		"a:1\t@ 亮 任官 丞相\n" +
		"a:2\t[亮|人物]卒。\n"
	ss, err := ReadAnnotations(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 3 || len(ss[0].Relations) != 2 || len(ss[1].Relations) != 1 || len(ss[2].Relations) != 0 || !ss[2].HasRelations {
		t.Fatalf("read %+v", ss)
	}
	if r := ss[0].Relations[1]; r.Head != 2 || r.Tail != 3 || r.Type != "更代" {
		t.Errorf("second relation: %+v, want names 2 → 3", r)
	}
	var back strings.Builder
	back.WriteString("# relations: annotated\n")
	for _, s := range ss {
		back.WriteString(Format(s) + "\n")
		for _, l := range FormatRelations(s) {
			back.WriteString(l + "\n")
		}
	}
	if back.String() != file {
		t.Errorf("written back:\n%s\nwant:\n%s", back.String(), file)
	}
	plain, err := ReadAnnotations(strings.NewReader("a:2\t[亮|人物]卒。\n"))
	if err != nil || plain[0].HasRelations {
		t.Errorf("a file without the header says it has relations: %+v %v", plain, err)
	}
	for _, bad := range []string{
		"a:0\t@ 备 子女 禅\n",                        // no sentence before
		"a:0\t[备|人物]子[禅|人物]。\nb:0\t@ 备 子女 禅\n",   // another sentence's ID
		"a:0\t[备|人物]子[禅|人物]。\na:0\t@ 备 子女 亮\n",   // not marked
		"a:0\t[备|人物]子[禅|人物]。\na:0\t@ 备#3 子女 禅\n", // no third 备
		"a:0\t[备|人物]子[禅|人物]。\na:0\t@ 备 父亲 禅\n",   // not a relation of the schema
		"a:0\t[亮|人物]为[丞相|职官]。\na:0\t@ 丞相 任官 亮\n", // wrong direction for the types
		"a:0\t[备|人物]子[禅|人物]。\na:0\t@ 备 子女\n",     // a missing end
		"a:0\t[备|人物]子[禅|人物]。\na:0\t@ 备 子女 备\n",   // a name to itself
	} {
		if _, err := ReadAnnotations(strings.NewReader(bad)); err == nil {
			t.Errorf("read without error:\n%s", bad)
		}
	}
}

// Whatever a file holds, reading it either fails or gives relations that
// point at names of their own sentence, and writing those back reads the same.
func FuzzReadAnnotations(f *testing.F) {
	f.Add("# relations: annotated\na:0\t[备|人物]子[禅|人物]。\na:0\t@ 备 子女 禅\n")
	f.Add("a:0\t[亮|人物]为[丞相|职官]。\na:0\t@ 亮#1 任官 丞相\n")
	f.Fuzz(func(t *testing.T, file string) {
		ss, err := ReadAnnotations(strings.NewReader(file))
		if err != nil {
			return
		}
		var back strings.Builder
		for _, s := range ss {
			for _, r := range s.Relations {
				if r.Head < 0 || r.Tail < 0 || r.Head >= len(s.Names) || r.Tail >= len(s.Names) || r.Head == r.Tail {
					t.Fatalf("relation %+v outside the names of %+v", r, s)
				}
			}
			back.WriteString(Format(s) + "\n")
			for _, l := range FormatRelations(s) {
				back.WriteString(l + "\n")
			}
		}
		again, err := ReadAnnotations(strings.NewReader(back.String()))
		if err != nil || len(again) != len(ss) {
			t.Fatalf("written back %q: %v", back.String(), err)
		}
		for i := range ss {
			if fmt.Sprint(again[i].Relations) != fmt.Sprint(ss[i].Relations) {
				t.Fatalf("relations %+v read back as %+v", ss[i].Relations, again[i].Relations)
			}
		}
	})
}

// Characters met between the same neighbours share a class; the classes
// are the same on every run.
func TestLearnClusters(t *testing.T) {
	texts := []string{
		"王曰甲至。王曰乙至。王曰丙至。王曰甲至。王曰乙至。王曰丙至。",
		"我入城。我入山。我入河。我入城。我入山。我入河。吾",
	}
	c := LearnClusters(texts, ClusterOptions{K: 8, MinCount: 2})
	if c['甲'] == 0 || c['甲'] != c['乙'] || c['乙'] != c['丙'] {
		t.Errorf("甲, 乙, 丙 (all between 曰 and 至) in classes %d, %d, %d", c['甲'], c['乙'], c['丙'])
	}
	if c['城'] == 0 || c['城'] != c['山'] || c['山'] != c['河'] {
		t.Errorf("城, 山, 河 (all between 入 and 。) in classes %d, %d, %d", c['城'], c['山'], c['河'])
	}
	if c['甲'] == c['城'] {
		t.Errorf("甲 and 城 share class %d", c['甲'])
	}
	if _, ok := c['吾']; ok {
		t.Error("吾, seen once, has a class though MinCount is 2")
	}
	if again := LearnClusters(texts, ClusterOptions{K: 8, MinCount: 2}); !maps.Equal(c, again) {
		t.Error("two runs learned different classes")
	}
}

// Known names need two marks, and in training a sentence sees only those
// marked in the other folds.
func TestKnownNames(t *testing.T) {
	var ss []Sentence
	for _, text := range []string{"曹操至。", "曹操去。", "刘备至。", "袁绍至。", "袁绍去。"} {
		ss = append(ss, Sentence{Text: text, Names: []Span{{0, 2, "人物"}}})
	}
	k := NewKnown(ss)
	marked := func(k Known, text string) bool {
		m := k.marks([]rune(text))
		return len(m[0]) == 1 && len(m[1]) == 1 && m[0][0]>>32 == posB && m[1][0]>>32 == posE
	}
	if len(k) != 2 || !marked(k, "曹操") || !marked(k, "袁绍") || marked(k, "刘备") {
		t.Fatalf("known %v: want 曹操 and 袁绍 (twice each), not 刘备 (once)", k)
	}
	folds := knownFolds(ss, 5)
	// Sentence 0 (曹操至) is fold 0: the others mark 曹操 once, 袁绍 twice.
	if marked(folds[0], "曹操") || !marked(folds[0], "袁绍") {
		t.Errorf("fold 0 knows %v", folds[0])
	}
}
