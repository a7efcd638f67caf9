package bio

import "testing"

// A relative read both ways (孙权 同胞 孙策, 孙策 同胞 孙权) is listed once,
// with the citations of both and none twice.
func TestMergeSameKin(t *testing.T) {
	c := func(doc string, at int) Citation { return Citation{Doc: doc, Start: at} }
	items := []Item{
		{Text: "孙策", Kind: "兄弟姊妹", EntityID: 7, Citations: []Citation{c("吴主传", 10)}},
		{Text: "孙坚", Kind: "父", EntityID: 3, Citations: []Citation{c("吴主传", 5)}},
		{Text: "孙策", Kind: "兄弟姊妹", EntityID: 7, Citations: []Citation{c("吴主传", 10), c("孙破虏讨逆传", 40)}},
	}
	got := mergeSameKin(items)
	if len(got) != 2 || got[0].Text != "孙策" || len(got[0].Citations) != 2 {
		t.Errorf("%+v", got)
	}
}
