package qa

import (
	"math"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		in, want string
		tokens   int
	}{
		// English
		{"  Hello,   World!  ", "hello world", 2},
		{"The U.S.-Army", "us army", 2},
		{"A Tale of Two Cities", "tale of two cities", 4},
		{"an apple", "apple", 1},
		{"The", "the", 1}, // articles alone are kept
		{"don't", "dont", 1},
		{"Chang'an", "changan", 1},
		{"1,000 men", "1000 men", 2},
		{"rock-and-roll", "rock and roll", 3},
		{"“Quoted” — text…", "quoted text", 2},
		{"ＡＢＣ１２３", "abc123", 1}, // fullwidth, folded by NFKC
		{"", "", 0},
		{"?!", "", 0},
		// Chinese: one token a character, no spaces between them
		{"秦始皇。", "秦始皇", 3},
		{"《史记》作者：司马迁", "史记作者司马迁", 7},
		{"秦 始皇", "秦始皇", 3},
		{"汉武帝元狩2年", "汉武帝元狩 2 年", 7},
		// Vietnamese: syllables are words, diacritics kept
		{"Trần Hưng Đạo", "trần hưng đạo", 3},
		{"ĐẠI VIỆT", "đại việt", 2},
		{"Tra\u0302\u0300n Hu\u031bng Đa\u0323o", "trần hưng đạo", 3}, // decomposed, composed by NFKC
		{"Năm 1288 (元朝)", "năm 1288 元朝", 4},
		{"Chiến dịch Biên giới thu-đông (1950)", "chiến dịch biên giới thu đông 1950", 7},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := Tokens(tt.in); len(got) != tt.tokens {
			t.Errorf("Tokens(%q) = %q, want %d tokens", tt.in, got, tt.tokens)
		}
	}
}

func TestMetrics(t *testing.T) {
	tests := []struct {
		name     string
		pred     string
		golds    []string
		em       bool
		contains bool
		f1       float64
	}{
		{"en exact but article", "The Wei River", []string{"Wei River"}, true, true, 1},
		{"en longer answer", "It was the Wei River, in the north", []string{"Wei River"}, false, true, 0.5},
		{"en whole tokens only", "Norway", []string{"no"}, false, false, 0},
		{"en yes/no", "No, they are not.", []string{"no"}, false, true, 0.4},
		{"en best alias", "Hung Dao", []string{"Trần Hưng Đạo", "Hung Dao"}, true, true, 1},
		{"en empty prediction", "", []string{"1453"}, false, false, 0},
		{"en abbreviation", "the US", []string{"U.S."}, true, true, 1},
		{"zh exact", "司马迁", []string{"司马迁"}, true, true, 1},
		{"zh inside", "是司马迁写的", []string{"司马迁"}, false, true, 2.0 / 3},
		{"zh partial", "司马光", []string{"司马迁"}, false, false, 2.0 / 3},
		{"zh punctuation", "「司马迁」。", []string{"司马迁"}, true, true, 1},
		{"vi exact", "Trần Hưng Đạo", []string{"Trần Quốc Tuấn", "Trần Hưng Đạo"}, true, true, 1},
		{"vi diacritics matter", "Tran Hung Dao", []string{"Trần Hưng Đạo"}, false, false, 0},
		{"vi inside", "Tướng Trần Hưng Đạo chỉ huy.", []string{"Trần Hưng Đạo"}, false, true, 2.0 / 3},
		{"vi partial", "Hưng Đạo Vương", []string{"Trần Hưng Đạo"}, false, false, 2.0 / 3},
		{"gold of punctuation only", "anything", []string{"?"}, false, false, 0},
		{"no golds", "anything", nil, false, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ExactMatch(tt.pred, tt.golds...); got != tt.em {
				t.Errorf("ExactMatch = %v, want %v", got, tt.em)
			}
			if got := Contains(tt.pred, tt.golds...); got != tt.contains {
				t.Errorf("Contains = %v, want %v", got, tt.contains)
			}
			if got := F1(tt.pred, tt.golds...); math.Abs(got-tt.f1) > 1e-9 {
				t.Errorf("F1 = %v, want %v", got, tt.f1)
			}
		})
	}
}

func TestTokenF1Multiplicity(t *testing.T) {
	// "the" is dropped; "river river" shares one "river" with the gold.
	if got := F1("river river", "Wei River"); math.Abs(got-0.5) > 1e-9 {
		t.Errorf("F1 = %v, want 0.5", got)
	}
	if got := F1("", ""); got != 1 {
		t.Errorf("F1 of two empty answers = %v, want 1", got)
	}
	// Traditional and variant characters are their common forms.
	if got := strings.Join(Tokens("汉 Han 漢 劉幹"), "|"); got != "汉|han|汉|刘|干" {
		t.Errorf("Tokens = %q", got)
	}
	if !Contains("卒於五丈原", "卒于五丈原") {
		t.Error("a variant spelling does not contain its gold")
	}
}
