package text

import (
	"strings"
	"testing"
)

func TestDetectLanguage(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"classical traditional", classicalTrad, Classical},
		{"classical simplified", classicalSimp, Classical},
		{"modern simplified", modernSimp, Modern},
		{"modern traditional", modernTrad, Modern},
		{"vietnamese", vietnamese, Vietnamese},
		{"english", english, English},
		{"classical sentence", "亮躬耕隴畝，好為梁父吟。", Classical},
		{"classical short", "王曰：善。", Classical},
		{"modern sentence", "我们明天去博物馆看看这些文物吧。", Modern},
		{"modern short", "他说了", Modern},
		{"vietnamese sentence", "Nhà Trần ba lần đánh thắng quân Nguyên.", Vietnamese},
		{"vietnamese decomposed", "Nha\u0300 Tr\u00e2\u0300n đa\u0301nh thă\u0301ng quân Nguyên.", Vietnamese},
		{"english sentence", "The emperor moved the capital to the east.", English},
		{"english with vietnamese names", "Lý Thái Tổ moved the capital to Thăng Long in 1010.", English},
		{"english with chinese names", "Liu Bei (劉備) met Zhuge Liang (諸葛亮) at his cottage, and the two of them talked about the future of the realm.", English},
		{"chinese with english terms", "本文讨论的是Three Kingdoms时期的历史，我们会介绍几个重要的人物。", Modern},
		{"name only", "諸葛亮", Unknown},
		{"empty", "", Unknown},
		{"digits", "1234 5678", Unknown},
		{"french", "Le roi est arrivé à la capitale avec ses soldats fidèles.", Unknown},
		{"german", "Der Kaiser verlegte die Hauptstadt nach Osten.", Unknown},
		{"russian", "Император перенёс столицу на восток.", Unknown},
		{"japanese", "諸葛亮は三国時代の蜀漢の政治家である。", Unknown},
		{"korean", "제갈량은 촉한의 승상이었다.", Unknown},
		{"pinyin only", "Zhuge Liang Liu Bei Guan Yu", Unknown},
		{"long classical without particles", strings.Repeat("太祖武皇帝沛國譙人姓曹諱操字孟德漢相國參之後", 2), Classical},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := DetectLanguage(c.in); got != c.want {
				t.Errorf("DetectLanguage(%.40q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// Only the start of the text counts.
func TestDetectLanguageWindow(t *testing.T) {
	s := strings.Repeat(classicalSimp, 20) + strings.Repeat(modernSimp, 100)
	if got := DetectLanguage(s); got != Classical {
		t.Errorf("got %q, want %q from the first characters", got, Classical)
	}
}

// A question in Chinese characters alone is Chinese however short; a bare
// name as a text says nothing, and a question with kana or Latin words is
// not Chinese alone.
func TestQuestionLanguage(t *testing.T) {
	for q, want := range map[string]string{
		"司马迁是谁？":           Modern,
		"诸葛亮字什么？":          Modern,
		"孔明者，何人也？":         Classical,
		"Who was Cao Cao?": English,
		"曹操とは誰か":           Unknown,
		"曹":                Unknown,
	} {
		if got := QuestionLanguage(q); got != want {
			t.Errorf("QuestionLanguage(%q) = %q, want %q", q, got, want)
		}
	}
	if got := DetectLanguage("司马迁是谁？"); got != Unknown {
		t.Errorf("as a text, a bare short line says nothing: %q", got)
	}
}
