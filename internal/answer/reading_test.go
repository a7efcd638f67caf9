package answer

import (
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
