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
