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

// Names that share a surname keep sharing one under their pseudonyms,
// another surname; names of different surnames do not.
func TestPseudonymsKeepSurnamesShared(t *testing.T) {
	corpus := []string{"孙坚生孙策、孙权。曹操子曹丕、曹植。刘备子刘禅。"}
	bigrams, words := CorpusGrams(corpus)
	names := []string{"孙坚", "孙策", "孙权", "曹操", "曹丕", "曹植", "刘备", "刘禅", "周瑜"}
	p := NewPseudonyms(names, bigrams, words)
	first := func(n string) rune { return []rune(p.Hide(n))[0] }
	for _, fam := range [][]string{{"孙坚", "孙策", "孙权"}, {"曹操", "曹丕", "曹植"}, {"刘备", "刘禅"}} {
		for _, n := range fam[1:] {
			if first(n) != first(fam[0]) {
				t.Errorf("%s → %s and %s → %s: kin no longer share a surname", fam[0], p.Hide(fam[0]), n, p.Hide(n))
			}
		}
		if first(fam[0]) == []rune(fam[0])[0] {
			t.Errorf("%s → %s keeps its own surname", fam[0], p.Hide(fam[0]))
		}
	}
	if first("孙坚") == first("曹操") || first("曹操") == first("刘备") || first("孙坚") == first("刘备") {
		t.Errorf("two families share a pseudonymous surname: %s %s %s", p.Hide("孙坚"), p.Hide("曹操"), p.Hide("刘备"))
	}
	for _, n := range names {
		if pseudo := p.Hide(n); pseudo == n || strings.Contains(corpus[0], pseudo) || p.Reveal(pseudo) != n {
			t.Errorf("%s → %s", n, pseudo)
		}
	}
}
