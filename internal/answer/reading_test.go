package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/retrieve"
	"github.com/annals-project/annals/internal/store"
)

func TestReadAfter(t *testing.T) {
	mention := func(s, e int, typ string) store.TypedMention {
		return store.TypedMention{Span: kg.Span{Start: s, End: e}, Type: typ}
	}
	attack := readingCues[retrieve.QAttacked]
	for _, tt := range []struct {
		text string
		from int
		ms   []store.TypedMention
		want int
	}{
		// 江西左丞火你赤以兵平富州: the place after a verb of attack.
		{"火你赤以兵平富州、临江", 3, []store.TypedMention{mention(6, 8, "地点"), mention(9, 11, "地点")}, 0},
		// 武皇遣李嗣昭率三千骑攻邢州: 李嗣昭 attacked, not 武皇.
		{"武皇遣李嗣昭率三千骑攻邢州", 2, []store.TypedMention{mention(3, 6, "人物"), mention(11, 13, "地点")}, -1},
		// 击辽都统马哥: the person after the title.
		{"挞懒击辽都统马哥", 2, []store.TypedMention{mention(3, 6, "社会集团"), mention(6, 8, "人物")}, 1},
		// No verb of the relation between: no reading.
		{"火你赤在富州", 3, []store.TypedMention{mention(4, 6, "地点")}, -1},
		// Not across a sentence's end.
		{"火你赤至。攻富州", 3, []store.TypedMention{mention(6, 8, "地点")}, -1},
	} {
		rs := []rune(tt.text)
		if got := readAfter(rs, tt.ms, 0, tt.from, len(rs), attack); got != tt.want {
			t.Errorf("%s: mention %d, want %d", tt.text, got, tt.want)
		}
	}
	if at, n := firstOf("是时，朱宣在濮州", []string{"濮州", "朱宣"}); at != 3 || n != 2 {
		t.Errorf("firstOf: %d %d, want the earliest surface at 3", at, n)
	}
}

// fakeSource serves one passage and its mentions; reading needs no more.
type fakeSource struct {
	retrieve.Source
	p  store.Passage
	ms []store.TypedMention
}

func (f fakeSource) Passages(context.Context, []int64) ([]store.Passage, error) {
	return []store.Passage{f.p}, nil
}

func (f fakeSource) MentionsIn(_ context.Context, _ int64, start, end int) ([]store.TypedMention, error) {
	var out []store.TypedMention
	for _, m := range f.ms {
		if m.Start >= start && m.End <= end {
			out = append(out, m)
		}
	}
	return out, nil
}

func TestReadKinFormulas(t *testing.T) {
	mention := func(s, e int, name string) store.TypedMention {
		return store.TypedMention{Span: kg.Span{Start: 100 + s, End: 100 + e}, Type: "人物", Name: name}
	}
	for _, tt := range []struct {
		text string
		ms   []store.TypedMention
		want string
	}{
		{"霍光字子孟，票骑将军去病弟也。", []store.TypedMention{mention(0, 2, "霍光"), mention(10, 12, "霍去病")}, "霍光"},
		{"而霍去病弟光贵盛，自有传。", []store.TypedMention{mention(1, 4, "霍去病"), mention(5, 6, "霍光")}, "霍光"},
		{"霍去病与弟光俱贵。", []store.TypedMention{mention(0, 3, "霍去病"), mention(5, 6, "霍光")}, ""},
	} {
		src := fakeSource{p: store.Passage{ChunkID: 1, DocID: 1, Start: 100, End: 100 + len([]rune(tt.text)), Text: tt.text, Norm: tt.text, Lang: "lzh"}, ms: tt.ms}
		a := &retrieve.Analysis{Norm: "霍去病的弟弟是谁？", Lang: "lzh", Type: retrieve.QKin,
			Asks:     &retrieve.Ask{Label: "弟", Relations: []string{"同胞"}, Subject: "霍去病"},
			Entities: []retrieve.Mention{{Text: "霍去病", Entity: kg.Entity{ID: 7, Name: "霍去病", Type: "人物"}}}}
		items := []retrieve.Item{{Kind: "chunk", Citation: &kg.Evidence{ChunkID: 1}}}
		got, _, conf, err := read(context.Background(), src, a, items)
		if err != nil {
			t.Fatal(err)
		}
		if tt.want == "" && got != "" || tt.want != "" && (!strings.Contains(got, tt.want) || conf <= 0 || conf >= 0.5) {
			t.Errorf("%s: %q (confidence %.2f), want %q read with low confidence", tt.text, got, conf, tt.want)
		}
	}
}

func TestEndingAt(t *testing.T) {
	ms := []store.TypedMention{
		{Span: kg.Span{Start: 10, End: 12}, Type: "地点"},
		{Span: kg.Span{Start: 12, End: 14}, Type: "职官"},
		{Span: kg.Span{Start: 14, End: 17}, Type: "人物"},
	}
	// 江西左丞火你赤: the office ends where the name starts.
	if k := endingAt(ms, 10, 4, []string{"职官"}); k != 1 {
		t.Errorf("office before the name: %d, want 1", k)
	}
	if k := endingAt(ms, 10, 2, []string{"职官"}); k != -1 {
		t.Errorf("a place is no office: %d, want -1", k)
	}
}
