package latin

import (
	"strings"
	"testing"
)

func lowerKey(s string, _ Kind) string { return strings.ToLower(s) }

// show writes tokens as key/kind, kind one of w, n, p, with a * after
// capitalised words.
func show(ts []Tok) string {
	var out []string
	for _, t := range ts {
		k := "wnp"[t.Kind : t.Kind+1]
		if t.Cap {
			k += "*"
		}
		out = append(out, t.Key+"/"+k)
	}
	return strings.Join(out, " ")
}

func TestTokenizer(t *testing.T) {
	english := &Tokenizer{Key: lowerKey, Quotes: "“”", Thousands: ",", Possessive: true, Suffixed: true}
	plain := &Tokenizer{Key: lowerKey, Quotes: "“”«»", Thousands: ".,"}
	for _, c := range []struct {
		z    *Tokenizer
		text string
		want string
	}{
		{english, "Cao Cao's son", "cao/w* cao/w* 's/p son/w"},
		{english, "Chang'an general-in-chief", "chang'an/w* general-in-chief/w"},
		{english, "Lü’s 100,000 men", "lü/w* 's/p 100,000/n men/w"},
		{english, "the 3rd century, 1.000", "the/w 3rd/w century/w ,/p 1/n ./p 000/n"},
		{english, "“Art” – «x»", `"/p art/w* "/p -/p «/p x/w »/p`},
		{plain, "Cao's 3rd 1.000 1,000", "cao's/w* 3/n rd/w 1.000/n 1,000/n"},
		{plain, "«Hịch» — ‘x’", `"/p hịch/w* "/p -/p '/p x/w '/p`},
		// A number is grouped by three digits only.
		{plain, "1.0000 12,34", "1/n ./p 0000/n 12/n ,/p 34/n"},
	} {
		rs := []rune(c.text)
		ts := c.z.Span(rs, 0, len(rs))
		if got := show(ts); got != c.want {
			t.Errorf("%q: got %s, want %s", c.text, got, c.want)
		}
		for _, tk := range ts {
			if string(rs[tk.Start:tk.End]) != tk.Text {
				t.Errorf("%q: token %+v does not locate its text", c.text, tk)
			}
		}
	}
}

func TestTokenizerSpan(t *testing.T) {
	z := &Tokenizer{Key: lowerKey, Possessive: true}
	rs := []rune("Liu's. Cao's men")
	// Offsets stay those of the whole text; a possessive needs its word
	// inside the span.
	ts := z.Span(rs, 5, len(rs))
	if got := show(ts); got != "./p cao/w* 's/p men/w" || ts[1].Start != 7 {
		t.Fatalf("got %s %+v", got, ts)
	}
	ts = z.Span(rs, 3, 6)
	if got := show(ts); got != "'/p s/w ./p" {
		t.Fatalf("got %s", got)
	}
}

func TestMarkInitial(t *testing.T) {
	z := &Tokenizer{Key: lowerKey}
	rs := []rune(`He said: "The Wei army (Cao Cao) came"; then Liu Bei`)
	ts := z.Span(rs, 0, len(rs))
	// A closing quote counts too: the marks do not say which way they face.
	MarkInitial(ts, `"`, ":", "(")
	var initial []string
	for _, tk := range ts {
		if tk.Initial {
			initial = append(initial, tk.Text)
		}
	}
	if got := strings.Join(initial, " "); got != "He The Cao then" {
		t.Fatalf("initial: %s", got)
	}
}
