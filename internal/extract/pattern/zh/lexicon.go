package zh

import (
	"bufio"
	"embed"
	"strings"
	"sync"
)

//go:embed lexicon/*.txt
var lexFiles embed.FS

// Flags of a lexicon entry; one string may carry several (尚书 is an office
// and a book, 司马 an office and a surname).
const (
	fPer      uint32 = 1 << iota // a person by name or title
	fLoc                         // a place
	fGrp                         // a state, people or group
	fState                       // a one-character state, read only in context
	fOff                         // an office
	fOffCtx                      // a one-character office, read only after a place or an appointment verb
	fGenEnd                      // an office that takes free modifiers before it (将军)
	fTitle                       // a noble title
	fTitleEnd                    // a title ending that takes a place before it (亭侯)
	fBook                        // a work, read only in context
	fStop                        // not a name
	fEra                         // a reign era
	fSur                         // a surname
	fSurRisky                    // a surname that is also a common word
	fPosth                       // a posthumous-name character or pair
	fLocCtx                      // a one-character place, read only in context
	fOffPre                      // a bureau or rank that joins the office after it (兵部, 征东)
)

// trie is a rune trie whose edges live in one map keyed by node and rune,
// which keeps it compact and fast to build.
type trie struct {
	edges map[uint64]int32
	flags []uint32
}

func newTrie() *trie { return &trie{edges: map[uint64]int32{}, flags: []uint32{0}} }

func edgeKey(node int32, r rune) uint64 { return uint64(node)<<32 | uint64(uint32(r)) }

func (t *trie) add(word string, f uint32) {
	n := int32(0)
	for _, r := range word {
		k := edgeKey(n, r)
		c, ok := t.edges[k]
		if !ok {
			c = int32(len(t.flags))
			t.flags = append(t.flags, 0)
			t.edges[k] = c
		}
		n = c
	}
	if n != 0 {
		t.flags[n] |= f
	}
}

// match is one lexicon entry found at a position.
type match struct {
	n     int // length in runes
	flags uint32
}

// walk appends to out every entry that starts at rs[i], shortest first.
func (t *trie) walk(rs []rune, i int, out []match) []match {
	n := int32(0)
	for j := i; j < len(rs) && j-i < 12; j++ {
		c, ok := t.edges[edgeKey(n, rs[j])]
		if !ok {
			break
		}
		n = c
		if f := t.flags[n]; f != 0 {
			out = append(out, match{j - i + 1, f})
		}
	}
	return out
}

// has reports the flags of exactly rs (0 when absent).
func (t *trie) lookup(rs []rune) uint32 {
	n := int32(0)
	for _, r := range rs {
		c, ok := t.edges[edgeKey(n, r)]
		if !ok {
			return 0
		}
		n = c
	}
	return t.flags[n]
}

var (
	lexOnce sync.Once
	lex     *trie
)

func lines(name string) []string {
	data, err := lexFiles.ReadFile("lexicon/" + name)
	if err != nil {
		panic("zh: missing lexicon " + name)
	}
	var out []string
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// Suffixes that turn a posthumous name into a ruler's title.
var rulerSuffixes = []string{"帝", "宗", "祖", "皇"}

func loadLexicon() *trie {
	t := newTrie()
	for _, w := range lines("surname_stop.txt") {
		t.add(w, fStop)
	}
	for _, w := range lines("surnames.txt") {
		if strings.HasSuffix(w, "!") {
			t.add(strings.TrimSuffix(w, "!"), fSur|fSurRisky)
		} else {
			t.add(w, fSur)
		}
	}
	for _, w := range lines("places.txt") {
		if len([]rune(w)) == 1 {
			// 许, 宛, 陇 are words too: read in context only.
			t.add(w, fLocCtx)
		} else {
			t.add(w, fLoc)
		}
	}
	for _, w := range lines("groups.txt") {
		if len([]rune(w)) == 1 {
			t.add(w, fState)
		} else {
			t.add(w, fGrp)
		}
	}
	for _, w := range lines("states.txt") {
		if len([]rune(w)) == 1 {
			t.add(w, fState)
		} else {
			t.add(w, fGrp)
		}
	}
	for _, w := range lines("offices.txt") {
		if strings.HasPrefix(w, "+") {
			t.add(strings.TrimPrefix(w, "+"), fOffPre)
			continue
		}
		f := fOff
		if len([]rune(w)) == 1 {
			f = fOffCtx
		}
		for _, end := range []string{"将军", "中郎将", "校尉", "都尉"} {
			if strings.HasSuffix(w, end) {
				f |= fGenEnd
			}
		}
		t.add(w, f)
	}
	for _, w := range lines("titles.txt") {
		if strings.HasPrefix(w, "~") {
			t.add(strings.TrimPrefix(w, "~"), fTitleEnd)
		} else {
			t.add(w, fTitle)
		}
	}
	for _, w := range lines("books.txt") {
		t.add(w, fBook)
	}
	for _, w := range lines("eras.txt") {
		t.add(w, fEra)
	}
	for _, w := range lines("persons.txt") {
		t.add(w, fPer)
	}
	for _, w := range lines("posthumous.txt") {
		t.add(w, fPosth)
		for _, s := range rulerSuffixes {
			t.add(w+s, fPer)
		}
	}
	return t
}

func lexicon() *trie {
	lexOnce.Do(func() { lex = loadLexicon() })
	return lex
}

// runeSet is a set of runes: a bitset over the runes of the Basic
// Multilingual Plane, where the rules test characters millions of times
// per corpus, and a map for the rest.
type runeSet struct {
	bits  []uint64
	other map[rune]bool
}

// set is the set of the runes of s.
func set(s string) runeSet {
	var m runeSet
	for _, r := range s {
		m.add(r)
	}
	return m
}

func (s *runeSet) add(r rune) {
	if r < 0 || r > 0xFFFF {
		if s.other == nil {
			s.other = map[rune]bool{}
		}
		s.other[r] = true
		return
	}
	w := int(r >> 6)
	if w >= len(s.bits) {
		s.bits = append(s.bits, make([]uint64, w+1-len(s.bits))...)
	}
	s.bits[w] |= 1 << (uint(r) & 63)
}

func (s runeSet) has(r rune) bool {
	if r >= 0 && r <= 0xFFFF {
		w := int(r >> 6)
		return w < len(s.bits) && s.bits[w]&(1<<(uint(r)&63)) != 0
	}
	return s.other[r]
}

// LexMatch is a lexicon entry found in a text: runes [Start, End) and what
// the lexicon says it is (person, place, office, era, surname …).
type LexMatch struct {
	Start, End int
	Kind       string
}

var flagKinds = []struct {
	f    uint32
	kind string
}{
	{fPer, "person"}, {fLoc, "place"}, {fLocCtx, "place1"}, {fGrp, "group"}, {fState, "state"},
	{fOff, "office"}, {fOffCtx, "office1"}, {fOffPre, "bureau"}, {fTitle, "title"}, {fTitleEnd, "titleEnd"},
	{fBook, "book"}, {fEra, "era"}, {fSur, "surname"}, {fStop, "stop"}, {fPosth, "posthumous"},
}

// LexiconKinds are the kinds LexiconMatches reports, in a fixed order.
func LexiconKinds() []string {
	out := make([]string, len(flagKinds))
	for i, fk := range flagKinds {
		out[i] = fk.kind
	}
	return out
}

// LexiconMatches are the lexicon's entries in a text, the longest of each
// kind starting at each rune, whatever the context: what a learned tagger
// may weigh where the rules need context to decide.
func LexiconMatches(rs []rune) []LexMatch {
	t := lexicon()
	var out []LexMatch
	var buf []match
	for i := range rs {
		buf = t.walk(rs, i, buf[:0])
		for _, fk := range flagKinds {
			n := 0
			for _, m := range buf {
				if m.flags&fk.f != 0 && m.n > n {
					n = m.n
				}
			}
			if n > 0 {
				out = append(out, LexMatch{i, i + n, fk.kind})
			}
		}
	}
	return out
}
