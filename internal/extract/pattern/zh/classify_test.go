package zh

import (
	"context"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/schema"
)

// pairwise is a relation classifier that relates the first two names of
// every sentence by each of its relations, in order.
type pairwise []string

func (pairwise) Version() string { return "rel-pairwise" }

func (p pairwise) Relate(_ []rune, names []Mention) []Link {
	var out []Link
	for _, r := range p {
		out = append(out, Link{Head: 0, Tail: 1, Type: r})
	}
	return out
}

func TestClassifierAddsToTheRules(t *testing.T) {
	names := listed{"韩午": tPer, "廷尉": "职官", "杨未": tPer, "何亥": tPer}
	text := "韩午望廷尉而去。杨未见何亥于市。"
	x := NewWith(names, pairwise{"任官", "别称", "积极态度倾向"})
	if v := x.Version(); !strings.HasSuffix(v, "+listed+rel-pairwise") || v == Plain().Version() {
		t.Errorf("version %q does not name the classifier", v)
	}
	res, err := x.Extract(context.Background(), extract.Input{Text: text, Lang: "lzh", Schema: schema.MustLoad(schema.ZhHistory)})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, text, res)
	got := map[string]bool{}
	for _, tr := range res.Triples {
		got[tr.Head.Text+" "+tr.Relation+" "+tr.Tail.Text] = true
	}
	for _, want := range []string{"韩午 任官 廷尉", "杨未 积极态度倾向 何亥"} {
		if !got[want] {
			t.Errorf("missing %s in %v", want, got)
		}
	}
	// The schema bounds what the classifier adds, and aliases stay the
	// rules' alone.
	for _, no := range []string{"韩午 积极态度倾向 廷尉", "杨未 任官 何亥", "杨未 别称 何亥", "韩午 别称 廷尉"} {
		if got[no] {
			t.Errorf("the classifier added %s", no)
		}
	}
	plain, err := NewWith(names, nil).Extract(context.Background(), extract.Input{Text: text, Lang: "lzh", Schema: schema.MustLoad(schema.ZhHistory)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range plain.Triples {
		if tr.Head.Text == "杨未" && tr.Tail.Text == "何亥" {
			t.Errorf("without the classifier the rules read %v: the test shows nothing", tr)
		}
	}
}

// The classifier dates a death only in a sentence that tells of one.
func TestClassifierDatesOnlyStatedDeaths(t *testing.T) {
	names := listed{"韩午": tPer, "四年": tTime}
	rel := func(x *Extractor, text string) bool {
		res, err := x.Extract(context.Background(), extract.Input{Text: text, Lang: "lzh", Schema: schema.MustLoad(schema.ZhHistory)})
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range res.Triples {
			if tr.Head.Text == "韩午" && tr.Relation == "死亡时间" && tr.Tail.Text == "四年" {
				return true
			}
		}
		return false
	}
	classifier := NewWith(names, pairwise{"死亡时间"})
	if rel(classifier, "韩午四年入朝。") {
		t.Error("a death dated in a sentence that tells of none")
	}
	if !rel(classifier, "韩午四年见杀于市。") {
		t.Error("a killing not dated")
	}
	if rel(NewWith(names, nil), "韩午四年见杀于市。") {
		t.Error("the rules date the killing themselves: the test shows nothing")
	}
}
