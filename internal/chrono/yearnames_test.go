package chrono

import (
	"slices"
	"testing"
)

func TestYearNames(t *testing.T) {
	names := func(year int) []string {
		var out []string
		for _, n := range YearNames(year) {
			out = append(out, n.Name)
		}
		return out
	}
	for _, c := range []struct {
		year int
		want []string
		not  []string
	}{
		{208, []string{"建安十三年"}, []string{"建安十二年"}},
		{220, []string{"建安二十五年", "延康元年", "黄初元年"}, nil},
		{234, []string{"建兴十二年", "青龙二年", "嘉禾三年"}, nil},
		{-160, []string{"孝文后元三年"}, []string{"孝文十九年"}}, // 后元 restarts the count in 163 BCE
		{-170, []string{"孝文九年"}, nil},
	} {
		got := names(c.year)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%d: %v lacks %s", c.year, got, w)
			}
		}
		for _, n := range c.not {
			if slices.Contains(got, n) {
				t.Errorf("%d: %v should not hold %s", c.year, got, n)
			}
		}
	}
}

func TestBareYear(t *testing.T) {
	for in, want := range map[string]int{"208": 208, "-121": -121, "−121": -121, "公元208年": 208, "前122年": -121, "公元前122年": -121, "122 BCE": -121, "208 CE": 208, " 208 ": 208} {
		if got, ok := BareYear(in); !ok || got != want {
			t.Errorf("BareYear(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "建安十三年", "208年春", "前", "-", "0 BCE", "-5 BCE", "123456", "二〇八"} {
		if got, ok := BareYear(in); ok {
			t.Errorf("BareYear(%q) = %d, want no year", in, got)
		}
	}
}
