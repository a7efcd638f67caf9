package pattern

import (
	"context"
	"testing"

	"github.com/annals-project/annals/internal/extract"
)

// Where the name model reads a name over other characters than the rules
// did (the rules' 讳备, the model's 备), the relations the rules read of
// it stay: 刘备's native place from his chapter's opening.
func TestLearnedNamesKeepTheRulesRelations(t *testing.T) {
	text := "先主姓刘，讳备，字玄德，涿郡涿县人，汉景帝子中山靖王胜之后也。"
	doc := extract.NewDocContext("三国志/蜀书/先主传/text.txt", "先主传", []string{"三国志", "蜀书", "先主传"})
	res, err := New().Extract(context.Background(), extract.Input{Text: text, Lang: "lzh", Doc: doc})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, tr := range res.Triples {
		got[tr.Head.Canonical()+" "+tr.Relation+" "+tr.Tail.Canonical()] = true
	}
	for _, want := range []string{"刘备 籍贯 涿郡", "刘备 籍贯 涿县"} {
		if !got[want] {
			t.Errorf("missing %s in %v", want, got)
		}
	}
}
