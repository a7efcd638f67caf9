package pattern

import (
	"context"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/extract"
)

// Where the name model reads a name over other characters than the rules
// did (the rules' 讳备, the model's 备), the relations the rules read of
// it stay: 刘备's native place from his chapter's opening.
func TestLearnedNamesKeepTheRulesRelations(t *testing.T) {
	res := extractIn(t, "三国志/蜀书/先主传", "先主姓刘，讳备，字玄德，涿郡涿县人，汉景帝子中山靖王胜之后也。")
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

// A one-character name a kinship word introduces stands where the name
// model reads nothing else: 姜维's father 冏.
func TestKinNameTheModelDoesNotReadStands(t *testing.T) {
	res := extractIn(t, "三国志/蜀书/蒋琬费祎姜维传", "姜维字伯约，天水冀人也。少孤，与母居。好郑氏学。仕郡上计掾，州辟为从事。以父冏昔为郡功曹，值羌、戎叛乱，身卫郡将，没於战场，赐维官中郎，参本郡军事。")
	found := false
	for _, tr := range res.Triples {
		if tr.Relation == "子女" && tr.Head.Text == "冏" && tr.Tail.Canonical() == "姜维" {
			found = true
		}
		if tr.Relation == "子女" && tr.Head.Text == "居" {
			t.Errorf("与母居 names no mother: %v", tr)
		}
	}
	if !found {
		t.Errorf("冏 is 姜维's father: %v", res.Triples)
	}
}

// extractIn reads text as the chapter at path (book/section/chapter) is
// read when indexed, with the embedded models.
func extractIn(t *testing.T, path, text string) extract.Result {
	t.Helper()
	parts := strings.Split(path, "/")
	doc := extract.NewDocContext(path+"/text.txt", parts[len(parts)-1], parts)
	res, err := New().Extract(context.Background(), extract.Input{Text: text, Lang: "lzh", Doc: doc})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
