package qa

import (
	"strings"
	"testing"
)

// Names are hidden one for one, consistently, by pseudonyms that occur
// nowhere in the corpus, the longest name first; revealing gives the text
// back.
func TestPseudonyms(t *testing.T) {
	corpus := []string{"诸葛亮字孔明，琅邪阳都人也。刘备三顾诸葛亮于草庐之中。", "Zhuge Liang served Liu Bei."}
	bigrams, words := CorpusGrams(corpus)
	p := NewPseudonyms([]string{"诸葛亮", "孔明", "刘备", "Zhuge Liang", "Liu Bei", "亮"}, bigrams, words)
	if len(p.Pairs) != 5 {
		t.Fatalf("pairs %v: one-character names are left alone", p.Pairs)
	}
	hidden := make([]string, len(corpus))
	for i, c := range corpus {
		hidden[i] = p.Hide(c)
		if p.Reveal(hidden[i]) != c {
			t.Errorf("round trip: %s → %s → %s", c, hidden[i], p.Reveal(hidden[i]))
		}
	}
	for _, pair := range p.Pairs {
		name, pseudo := pair[0], pair[1]
		if strings.Contains(strings.Join(hidden, "\n"), name) {
			t.Errorf("%s still in the hidden corpus: %v", name, hidden)
		}
		if strings.Contains(strings.Join(corpus, "\n"), pseudo) {
			t.Errorf("pseudonym %s of %s occurs in the corpus", pseudo, name)
		}
		if isHanName(name) && len([]rune(pseudo)) != len([]rune(name)) {
			t.Errorf("%s → %s: not the same length", name, pseudo)
		}
	}
	// Both mentions of 诸葛亮 get one pseudonym.
	if n := strings.Count(hidden[0], p.Hide("诸葛亮")); n != 2 {
		t.Errorf("诸葛亮 hidden %d times as one name in %s", n, hidden[0])
	}
	q := p.HideQuestion(Question{Question: "诸葛亮字什么？", Answer: "孔明", Options: []Option{{Letter: "A", Text: "刘备"}}})
	if strings.Contains(q.Question, "诸葛亮") || q.Options[0].Text == "刘备" || q.Answer != "孔明" {
		t.Errorf("hidden question %+v", q)
	}
}
