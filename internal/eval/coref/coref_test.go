package coref

import (
	"context"
	"errors"
	"strings"
	"testing"
)

type fakeSource map[string]struct {
	text string
	ms   []Mention
}

func (f fakeSource) Chapter(ctx context.Context, key string) (string, []Mention, error) {
	c, ok := f[key]
	if !ok {
		return "", nil, errors.New("no such chapter")
	}
	return c.text, c.ms, nil
}

func TestScore(t *testing.T) {
	g, err := Parse(strings.NewReader(`# who is who
魏书/武帝纪	太祖	曹操
蜀书/诸葛亮传	亮	诸葛亮
吴书/三嗣主传	亮	孙亮
apart	蜀书/诸葛亮传	亮	吴书/三嗣主传	亮
apart	魏书/武帝纪	太祖	蜀书/诸葛亮传	亮
无此	X	某
`))
	if err != nil {
		t.Fatal(err)
	}
	src := fakeSource{
		// 太祖 twice: once linked to 曹操, once to no one.
		"魏书/武帝纪": {"太祖征吕布。太祖还。", []Mention{{0, 2, 1, "曹操"}}},
		// 亮 twice, both linked to 诸葛亮.
		"蜀书/诸葛亮传": {"诸葛亮躬耕。亮卒。", []Mention{{0, 3, 2, "诸葛亮"}, {6, 7, 2, "诸葛亮"}}},
		// 亮 in 孙亮's chapter wrongly linked to 诸葛亮.
		"吴书/三嗣主传": {"立亮为太子。", []Mention{{1, 2, 2, "诸葛亮"}}},
	}
	rep, err := Score(context.Background(), src, g)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Occurrences != 5 || rep.Right != 3 || rep.Linked() != 0.6 {
		t.Errorf("occurrences %d, right %d", rep.Occurrences, rep.Right)
	}
	if rep.Pairs != 2 || rep.KeptApart != 1 || len(rep.Merged) != 1 || !strings.Contains(rep.Merged[0], "三嗣主传") {
		t.Errorf("pairs %d, apart %d, merged %v", rep.Pairs, rep.KeptApart, rep.Merged)
	}
	if len(rep.Missing) != 1 || !strings.Contains(rep.Missing[0], "无此") {
		t.Errorf("missing %v", rep.Missing)
	}
	for _, p := range rep.People {
		if p.Person == "孙亮" && (p.Right != 0 || p.Wrong["诸葛亮"] != 1) {
			t.Errorf("孙亮: %+v", p)
		}
	}
	if _, err := Parse(strings.NewReader("only two\tfields\n")); err == nil {
		t.Error("a line of two fields parsed")
	}
}
