package latin

import (
	"strconv"
	"strings"
)

// Mention is a candidate entity covering tokens [A,B) of a sentence. An
// untyped mention (Type == "") becomes an entity only if a relation rule
// gives it a type, or it has a Soft one.
type Mention struct {
	A, B int
	Type string
	Name string // canonical name when it differs from the text
	// Soft is a guess at the type, used when no rule types the mention: a
	// guess too unsteady to overrule a rule.
	Soft string
	// Hide keeps the mention out of the text rules read, as for a title
	// before a name.
	Hide bool
}

// Direct is a relation read off the shape of the text around a mention,
// such as the office in "Imperial Chancellor Zhuge Liang".
type Direct struct {
	Rel        string
	Head, Tail int // mention indexes
}

// Sent holds one sentence while its entities and relations are read.
type Sent struct {
	Runes    []rune // the whole input
	Toks     []Tok
	Mentions []Mention
	Own      []int // token → mention index, or -1
	Direct   []Direct
	Names    *Names
}

// NewSent starts a sentence of tokens ts over rs.
func NewSent(rs []rune, ts []Tok, names *Names) *Sent {
	s := &Sent{Runes: rs, Toks: ts, Own: make([]int, len(ts)), Names: names}
	for i := range s.Own {
		s.Own[i] = -1
	}
	return s
}

// Free reports whether tokens [a,b) exist and belong to no mention.
func (s *Sent) Free(a, b int) bool {
	if a < 0 || b > len(s.Toks) || a >= b {
		return false
	}
	for i := a; i < b; i++ {
		if s.Own[i] >= 0 {
			return false
		}
	}
	return true
}

// Add claims tokens [a,b) for a new mention; it returns the mention's index,
// or -1 when the tokens are taken.
func (s *Sent) Add(a, b int, typ, name string) int {
	if !s.Free(a, b) {
		return -1
	}
	k := len(s.Mentions)
	s.Mentions = append(s.Mentions, Mention{A: a, B: b, Type: typ, Name: name})
	for i := a; i < b; i++ {
		s.Own[i] = k
	}
	return k
}

// Key is the key of token i, or "" outside the sentence.
func (s *Sent) Key(i int) string {
	if i < 0 || i >= len(s.Toks) {
		return ""
	}
	return s.Toks[i].Key
}

// SpanText is the text of tokens [a,b) with runs of white space collapsed,
// used as a lookup key.
func (s *Sent) SpanText(a, b int) string {
	return strings.Join(strings.Fields(string(s.Runes[s.Toks[a].Start:s.Toks[b-1].End])), " ")
}

// A Reader says how rules read the tokens of a sentence that no mention
// holds.
type Reader interface {
	// Skip reports whether token i is left out of the text rules read.
	Skip(i int) bool
	// Word returns the word rules read at token i and how many tokens it
	// stands for.
	Word(i int) (string, int)
}

// encode writes tokens [from,to) in the form rules match against, and
// returns the set of their words.
func (s *Sent) encode(from, to int, r Reader) (string, map[string]bool) {
	var sb strings.Builder
	words := make(map[string]bool, to-from)
	for i := from; i < to; i++ {
		if k := s.Own[i]; k >= 0 {
			m := s.Mentions[k]
			i = m.B - 1
			if m.Hide {
				continue
			}
			typ := m.Type
			if typ == "" {
				typ = "u"
			}
			sb.WriteString(" @" + typ + "#" + strconv.Itoa(k) + " ")
			continue
		}
		if r.Skip(i) {
			continue
		}
		if t := s.Toks[i]; t.Kind == Punct {
			switch t.Key {
			case `"`, "'", "*", "_":
				continue
			}
		}
		w, n := r.Word(i)
		i += n - 1
		// The encoding's own marks cannot stand in a word.
		if strings.ContainsAny(w, " @#") {
			w = "·"
		}
		sb.WriteString(" " + w + " ")
		words[w] = true
	}
	return sb.String(), words
}

// maxWindow bounds the tokens rules see at once: a run-on "sentence" of
// thousands of words is read in pieces cut at commas.
const maxWindow = 200

// windows cuts the sentence into pieces of at most about maxWindow tokens,
// preferably after a comma, never inside a mention.
func (s *Sent) windows() [][2]int {
	n := len(s.Toks)
	if n <= maxWindow {
		return [][2]int{{0, n}}
	}
	var out [][2]int
	for a := 0; a < n; {
		b := min(a+maxWindow, n)
		if b < n {
			for k := b - 1; k > a+maxWindow/2; k-- {
				if s.Toks[k].Kind == Punct && (s.Toks[k].Text == "," || s.Toks[k].Text == ";") {
					b = k + 1
					break
				}
			}
			for b < n && s.Own[b] >= 0 && s.Own[b] == s.Own[b-1] {
				b++
			}
		}
		out = append(out, [2]int{a, b})
		a = b
	}
	return out
}

// relate runs the rules over the sentence.
func (s *Sent) relate(rules *RuleSet, r Reader) []match {
	have := map[string]int{}
	for _, m := range s.Mentions {
		if m.Type != "" {
			have[m.Type]++
		}
	}
	var found []match
	for _, w := range s.windows() {
		enc, words := s.encode(w[0], w[1], r)
		found = rules.match(enc, words, have, found)
	}
	return found
}
