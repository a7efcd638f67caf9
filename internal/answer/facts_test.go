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
		{"渊众甚精，忠推锋必进，劝率士卒，金鼓振天，欢声动谷，一战斩渊，渊军大败。", "忠", "渊", true},
		{"既至王前，专诸擘鱼，因以匕首刺王僚，王僚立死。", "专诸", "王僚", true},
		{"璋以庞羲为巴西刺史羲。", "庞羲", "羲", false}, // 刺史 is an office
	} {
		if got := tellsKilling(tt.s, tt.head, tt.tail, true); got != tt.want {
			t.Errorf("%s (%s → %s): %v, want %v", tt.s, tt.head, tt.tail, got, tt.want)
		}
	}
}

func TestFleesTo(t *testing.T) {
	for _, tt := range []struct {
		s, who, whom string
		want         bool
	}{
		{"建安五年，曹公东征，先主奔袁绍。", "先主", "袁绍", true},
		{"先主背曹公依袁绍、刘表。", "先主", "刘表", true},
		{"既到，谦以丹杨兵四千益先主，先主遂去楷归谦。", "先主", "谦", true},
		{"先主与刘表相见，表甚重之。", "先主", "刘表", false},
	} {
		if got := fleesTo(tt.s, tt.who, tt.whom); got != tt.want {
			t.Errorf("%s (%s → %s): %v, want %v", tt.s, tt.who, tt.whom, got, tt.want)
		}
	}
}
