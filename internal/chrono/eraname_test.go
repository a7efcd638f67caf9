package chrono

import "testing"

func TestEraYear(t *testing.T) {
	for _, tt := range []struct {
		year       int
		expr, cite string
		sentence   string
		want       string
	}{
		{219, "二十四年", "《三国志·蜀书·关张马黄赵传》", "", "建安二十四年"}, // no 蜀汉 era yet: 东汉's
		{234, "十二年", "《三国志·蜀书·诸葛亮传》", "", "建兴十二年"},
		{220, "二十五年春正月", "《三国志·魏书·武帝纪》", "", "建安二十五年"}, // 黄初元年 too, but the count says 25
		{234, "八月", "《三国人物·蜀·诸葛亮》", "建兴十二年春，亮悉大众出。", "建兴十二年"},
		{234, "八月", "《某书》", "", ""},
		{196, "", "《三国志·魏书·武帝纪》", "", "建安元年"}, // 兴平三年 too, but 建安 began that year
	} {
		if got := EraYear(tt.year, tt.expr, tt.sentence, tt.cite); got != tt.want {
			t.Errorf("EraYear(%d, %q, %s) = %q, want %q", tt.year, tt.expr, tt.cite, got, tt.want)
		}
	}
	for n, want := range map[int]string{1: "元年", 5: "五年", 10: "十年", 12: "十二年", 20: "二十年", 24: "二十四年"} {
		if got := yearNumeral(n); got != want {
			t.Errorf("yearNumeral(%d) = %q, want %q", n, got, want)
		}
		if got := leadingYear(want + "春正月"); got != n {
			t.Errorf("leadingYear(%q) = %d, want %d", want, got, n)
		}
	}
}

func TestEraInForce(t *testing.T) {
	for _, tt := range []struct {
		year   int
		before string
		want   string
	}{
		// 223 began 建兴 in the fifth month; 先主传 still counts 章武.
		{223, "章武元年夏四月，大赦，改年。……三年春二月，丞相亮自成都到永安。", "章武三年"},
		// 220 is 建安二十五年 in 武帝纪, though 延康 and 黄初 began in it.
		{220, "二十四年秋七月……二十五年春正月，至洛阳。", "建安二十五年"},
		// No count: the era named last with a year.
		{234, "建兴十二年春，亮悉大众由斜谷出。", "建兴十二年"},
		// 章武 as a commandery, with no year after it, names no era.
		{223, "徙章武郡人。", ""},
		{219, "", ""},
	} {
		if got := EraInForce(tt.year, tt.before); got != tt.want {
			t.Errorf("EraInForce(%d, %q) = %q, want %q", tt.year, tt.before, got, tt.want)
		}
	}
}
