package relclass

import (
	"bytes"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/ner"
	"github.com/annals-project/annals/internal/schema"
)

func sentences(t *testing.T, text string) []Example {
	t.Helper()
	ss, err := ner.ReadAnnotations(strings.NewReader("# relations: annotated\n" + text))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]Example, len(ss))
	for i, s := range ss {
		out[i] = FromSentence(s)
	}
	return out
}

// Enough sentences of two wordings that the classifier must tell apart
// by the runes between the names: 为 makes an office held, 封 … 为 a
// title given, and a name after 使 serves the first.
var training = `a:1	以[张甲|人物]为[太守|职官]。
a:1	@ 张甲 任官 太守
a:2	以[李乙|人物]为[丞相|职官]。
a:2	@ 李乙 任官 丞相
a:3	以[王丙|人物]为[太尉|职官]，[王丙|人物]辞。
a:3	@ 王丙 任官 太尉
a:4	封[赵丁|人物]为[列侯|爵位]。
a:4	@ 赵丁 封爵 列侯
a:5	封[钱戊|人物]为[关内侯|爵位]。
a:5	@ 钱戊 封爵 关内侯
a:6	[孙己|人物]使[周庚|人物]守城。
a:6	@ 孙己 下级 周庚
a:7	[吴辛|人物]使[郑壬|人物]守城。
a:7	@ 吴辛 下级 郑壬
a:8	[冯癸|人物]见[陈子|人物]于市。
a:9	[褚丑|人物]见[卫寅|人物]于市。
a:10	[蒋卯|人物]望[太守|职官]而去。
a:11	[沈辰|人物]望[丞相|职官]而去。
`

func TestClassifierLearnsWordings(t *testing.T) {
	sch := schema.MustLoad(schema.ZhHistory)
	c := Train(sentences(t, training), ner.Types, sch, TrainOptions{Seed: 1})
	test := sentences(t, `b:1	以[韩午|人物]为[廷尉|职官]。
b:1	@ 韩午 任官 廷尉
b:2	封[杨未|人物]为[亭侯|爵位]。
b:2	@ 杨未 封爵 亭侯
b:3	[朱申|人物]使[秦酉|人物]守城。
b:3	@ 朱申 下级 秦酉
b:4	[许戌|人物]见[何亥|人物]于市。
b:5	[吕甲|人物]望[廷尉|职官]而去。
`)
	want := [][]Link{
		{{Head: 0, Tail: 1, Type: "任官"}},
		{{Head: 0, Tail: 1, Type: "封爵"}},
		{{Head: 0, Tail: 1, Type: "下级"}},
		nil,
		nil,
	}
	for i, ex := range test {
		got := c.Relate(ex.Text, ex.Names)
		if len(got) != len(want[i]) || len(got) > 0 && got[0] != want[i][0] {
			t.Errorf("%s: got %v, want %v", string(ex.Text), got, want[i])
		}
	}
	if s := Evaluate(c, test, sch); s.Gold != 3 || s.Right != 3 || s.Found != 3 {
		t.Errorf("score %+v, want 3 of 3 found and right", s)
	}
}

// The direction is the annotation's, whichever name comes first.
func TestClassifierKeepsDirection(t *testing.T) {
	sch := schema.MustLoad(schema.ZhHistory)
	data := sentences(t, `a:1	[丞相|职官][张甲|人物]至。
a:1	@ 张甲 任官 丞相
a:2	[太尉|职官][李乙|人物]至。
a:2	@ 李乙 任官 太尉
a:3	[王丙|人物]子[王丁|人物]。
a:3	@ 王丙 子女 王丁
a:4	[赵戊|人物]子[赵己|人物]。
a:4	@ 赵戊 子女 赵己
`)
	c := Train(data, ner.Types, sch, TrainOptions{Seed: 1})
	test := sentences(t, `b:1	[太守|职官][钱庚|人物]至。
b:2	[孙辛|人物]子[孙壬|人物]。
`)
	if got := c.Relate(test[0].Text, test[0].Names); len(got) != 1 || got[0] != (Link{Head: 1, Tail: 0, Type: "任官"}) {
		t.Errorf("office before the name: %v, want 钱庚 任官 太守", got)
	}
	if got := c.Relate(test[1].Text, test[1].Names); len(got) != 1 || got[0] != (Link{Head: 0, Tail: 1, Type: "子女"}) {
		t.Errorf("father before the son: %v, want 孙辛 子女 孙壬", got)
	}
}

func TestModelRoundTrip(t *testing.T) {
	sch := schema.MustLoad(schema.ZhHistory)
	c := Train(sentences(t, training), ner.Types, sch, TrainOptions{Seed: 1})
	var buf bytes.Buffer
	if err := c.Save(&buf, "test"); err != nil {
		t.Fatal(err)
	}
	first := buf.Bytes()
	back, info, err := Load(bytes.NewReader(first), sch)
	if err != nil {
		t.Fatal(err)
	}
	if info.Trained != "test" || info.Features != c.Features() {
		t.Errorf("info %+v", info)
	}
	var again bytes.Buffer
	if err := back.Save(&again, "test"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, again.Bytes()) {
		t.Error("a loaded model saves to other bytes")
	}
	ex := sentences(t, "b:1	以[韩午|人物]为[廷尉|职官]。\n")[0]
	if a, b := c.Relate(ex.Text, ex.Names), back.Relate(ex.Text, ex.Names); len(a) != 1 || len(b) != 1 || a[0] != b[0] {
		t.Errorf("before saving %v, after loading %v", a, b)
	}
	// Training twice gives the same bytes.
	var twice bytes.Buffer
	if err := Train(sentences(t, training), ner.Types, sch, TrainOptions{Seed: 1}).Save(&twice, "test"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, twice.Bytes()) {
		t.Error("the same data trained twice gives two models")
	}
}

func TestLoadRejectsOtherFiles(t *testing.T) {
	sch := schema.MustLoad(schema.ZhHistory)
	c := Train(sentences(t, training), ner.Types, sch, TrainOptions{Seed: 1})
	var buf bytes.Buffer
	if err := c.Save(&buf, "test"); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	for name, data := range map[string][]byte{
		"empty":     nil,
		"plain":     []byte("not a model"),
		"truncated": good[:len(good)/2],
	} {
		if _, _, err := Load(bytes.NewReader(data), sch); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
}

// Names further apart than MaxGap are not read as a pair.
func TestFarNamesAreNoPair(t *testing.T) {
	sch := schema.MustLoad(schema.ZhHistory)
	c := Train(sentences(t, training), ner.Types, sch, TrainOptions{Seed: 1})
	far := "以[韩午|人物]" + strings.Repeat("之", MaxGap+1) + "为[廷尉|职官]。"
	ex := sentences(t, "b:1\t"+far+"\n")[0]
	if ps := c.pairs(ex.Text, ex.Names); len(ps) != 0 {
		t.Errorf("%d pairs of names %d runes apart", len(ps), MaxGap+1)
	}
}
