package answer

import "testing"

func TestTellsKilling(t *testing.T) {
	for _, tt := range []struct {
		s, head, tail string
		want          bool
	}{
		{"布曰有诏，遂杀卓，夷三族。", "布", "卓", true},
		{"夏四月，司徒王允与吕布共杀卓。", "吕布", "卓", true},
		{"董卓为吕布所杀。", "吕布", "董卓", true},
		{"时允与仆射士孙瑞密谋诛卓。", "士孙瑞", "卓", false}, // a plot, not the deed
		{"绍欲杀之，不果。", "绍", "之", false},
		{"布由是阴怨于卓。", "布", "卓", false},
	} {
		if got := tellsKilling(tt.s, tt.head, tt.tail); got != tt.want {
			t.Errorf("%s (%s → %s): %v, want %v", tt.s, tt.head, tt.tail, got, tt.want)
		}
	}
}
