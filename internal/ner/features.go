package ner

import (
	"unicode/utf8"

	"github.com/annals-project/annals/internal/docstats"
	"github.com/annals-project/annals/internal/extract/pattern/zh"
	"github.com/annals-project/annals/internal/featurehash"
)

// Features are hashed (featurehash) from a template number and small
// integers (runes, tag codes): tagging a whole corpus builds some thirty
// features a character, and must stay cheap.

// Feature templates. Their numbers are part of the model: append, never
// renumber.
const (
	fBias uint64 = iota + 1
	fC0
	fCm1
	fC1
	fCm2
	fC2
	fBm1 // c-1 c0
	fB0  // c0 c1
	fBm2 // c-2 c-1
	fB1  // c1 c2
	fSm1 // c-1 c1
	fTm1 // c-1 c0 c1
	fTm2 // c-2 c-1 c0
	fT0  // c0 c1 c2
	fR0  // the rules' tag here
	fRm1 // … before
	fR1  // … after
	fP0  // where the rules' names start and end: here
	fPPP // … before, here, after
	fP0C0
	fLex   // a lexicon entry covering the character: kind and place
	fD0    // a name the chapter knows: full or given, and place
	fD0C1  // … with the next character
	fD0Cm1 // … with the one before
	fD0R0  // … with the rules' tag
	fK0    // the character's class (Clusters)
	fKm1   // … the one before's
	fK1    // … the one after's
	fKm1K0 // the classes of the one before and this one
	fK0K1  // … of this one and the one after
	fKm2   // the class two before
	fK2    // … two after
	fKnown // a name the annotations know covering the character: types and place
	fUse   // how the chapter uses the character (docstats.Stats.Use)
	fUseAt // … with whether a clause opens here
	fUseR0 // … with the rules' tag
	fGram2 // how often the bigrams before and after the character recur in the chapter
	fGram3 // … the three trigrams through it
	fSeen0 // a name found before in the document: its type, how often, and place
	fSeenC1
	fSeenCm1
	fSeenR0 // … with the rules' tag
)

// Runes outside the sentence.
const (
	runeStart uint64 = 1 << 32
	runeEnd   uint64 = 1<<32 + 1
)

// Places in a name, for the rules', lexicon's and chapter's marks.
const (
	posO uint64 = iota
	posB
	posI
	posE
	posS
)

// marksOf puts each span's place (B, I, E, S) and code on the runes it covers.
func markSpan(pos, code []uint64, s, e int, c uint64) {
	if e-s == 1 {
		pos[s], code[s] = posS, c
		return
	}
	pos[s], code[s] = posB, c
	for i := s + 1; i < e-1; i++ {
		pos[i], code[i] = posI, c
	}
	pos[e-1], code[e-1] = posE, c
}

// typeCode numbers an entity type (0 for one the list lacks).
func typeCode(t string) uint64 {
	for i, x := range Types {
		if x == t {
			return uint64(i + 1)
		}
	}
	return 0
}

var lexKinds = map[string]uint64{}

func init() {
	for i, k := range zh.LexiconKinds() {
		lexKinds[k] = uint64(i + 1)
	}
}

// Context is what the tagger knows of a sentence beyond its runes.
type Context struct {
	// Hints are the rules' names in it; nil: read them here, when the
	// tagger uses them.
	Hints []Span
	// Names are the given names its chapter taught the rules.
	Names Names
	// Use is how its whole chapter uses its characters; nil: unknown.
	Use *docstats.Stats
	// Found are the names read in the chapter's sentences before this
	// one, sentence number Sentence; nil: none.
	Found    *docstats.Found
	Sentence int
}

// features are the hashed features of each position of text, read in
// context c; known are the names the annotations know (Tagger.Known,
// or in training those of the other sentences).
func (t *Tagger) features(text []rune, c Context, known Known) [][]uint64 {
	hints, doc := c.Hints, c.Names
	n := len(text)
	ch := func(i int) uint64 {
		if i < 0 {
			return runeStart
		}
		if i >= n {
			return runeEnd
		}
		return uint64(text[i])
	}
	per := 14
	if t.Clusters != nil {
		per += 7
	}
	var rPos, rTyp, dPos, dKind []uint64
	var lex [][]uint64
	if t.Rules {
		if hints == nil {
			hints = RuleNames(string(text))
		}
		per += 12
		rPos, rTyp = make([]uint64, n), make([]uint64, n)
		for _, h := range hints {
			if h.Start >= 0 && h.End <= n && h.Start < h.End {
				markSpan(rPos, rTyp, h.Start, h.End, typeCode(h.Type))
			}
		}
		lex = make([][]uint64, n)
		for _, m := range zh.LexiconMatches(text) {
			k := lexKinds[m.Kind]
			if m.End-m.Start == 1 {
				lex[m.Start] = append(lex[m.Start], posS<<8|k)
				continue
			}
			lex[m.Start] = append(lex[m.Start], posB<<8|k)
			for i := m.Start + 1; i < m.End-1; i++ {
				lex[i] = append(lex[i], posI<<8|k)
			}
			lex[m.End-1] = append(lex[m.End-1], posE<<8|k)
		}
		if len(doc) > 0 {
			dPos, dKind = make([]uint64, n), make([]uint64, n)
			doc.mark(text, dPos, dKind)
		}
	}
	rTag := func(i int) uint64 {
		if i < 0 || i >= n {
			return 0
		}
		return rPos[i]<<8 | rTyp[i]
	}
	rP := func(i int) uint64 {
		if i < 0 || i >= n {
			return posO
		}
		return rPos[i]
	}
	// Each rune's class, looked up once: its window reads it five times.
	var class []uint64
	if t.Clusters != nil {
		class = make([]uint64, n)
		for i, r := range text {
			class[i] = uint64(t.Clusters[r])
		}
	}
	k := func(i int) uint64 {
		if i < 0 || i >= n {
			return 1 << 16 // beyond the sentence: no class has this code
		}
		return class[i]
	}
	var knownAt [][]uint64
	if known != nil {
		knownAt = known.marks(text)
	}
	use := c.Use
	if !t.DocUse {
		use = nil
	}
	// How often the bigram and the trigram starting at each rune recur.
	var bigrams, trigrams []uint64
	if use != nil {
		per += 5
		bigrams, trigrams = make([]uint64, n), make([]uint64, n)
		for i := range n {
			if i+1 < n {
				bigrams[i] = use.Bigram(text[i], text[i+1])
			}
			if i+2 < n {
				trigrams[i] = use.Trigram(text[i], text[i+1], text[i+2])
			}
		}
	}
	var seenPos, seenCode []uint64
	if t.Found && c.Found != nil {
		seenPos, seenCode = make([]uint64, n), make([]uint64, n)
		markFound(text, c.Found, c.Sentence, seenPos, seenCode)
		per += 4
	}
	gram := func(counts []uint64, i int) uint64 {
		if i < 0 {
			return 0
		}
		return counts[i]
	}
	all := make([]uint64, 0, n*per)
	out := make([][]uint64, n)
	for i := range text {
		start := len(all)
		cm2, cm1, c0, c1, c2 := ch(i-2), ch(i-1), ch(i), ch(i+1), ch(i+2)
		all = append(all,
			featurehash.Of1(fBias, 0),
			featurehash.Of1(fC0, c0), featurehash.Of1(fCm1, cm1), featurehash.Of1(fC1, c1), featurehash.Of1(fCm2, cm2), featurehash.Of1(fC2, c2),
			featurehash.Of2(fBm1, cm1, c0), featurehash.Of2(fB0, c0, c1), featurehash.Of2(fBm2, cm2, cm1), featurehash.Of2(fB1, c1, c2),
			featurehash.Of2(fSm1, cm1, c1),
			featurehash.Of3(fTm1, cm1, c0, c1), featurehash.Of3(fTm2, cm2, cm1, c0), featurehash.Of3(fT0, c0, c1, c2))
		if t.Clusters != nil {
			km1, k0, k1 := k(i-1), k(i), k(i+1)
			all = append(all,
				featurehash.Of1(fK0, k0), featurehash.Of1(fKm1, km1), featurehash.Of1(fK1, k1),
				featurehash.Of2(fKm1K0, km1, k0), featurehash.Of2(fK0K1, k0, k1),
				featurehash.Of1(fKm2, k(i-2)), featurehash.Of1(fK2, k(i+2)))
		}
		if knownAt != nil {
			for _, m := range knownAt[i] {
				all = append(all, featurehash.Of1(fKnown, m))
			}
		}
		if use != nil {
			u := use.Use(text[i])
			at := uint64(0)
			if i == 0 || docstats.ClauseStart(text[i-1]) {
				at = 1
			}
			all = append(all, featurehash.Of1(fUse, u), featurehash.Of2(fUseAt, u, at),
				featurehash.Of2(fGram2, gram(bigrams, i-1), gram(bigrams, i)),
				featurehash.Of3(fGram3, gram(trigrams, i-2), gram(trigrams, i-1), gram(trigrams, i)))
			if t.Rules {
				all = append(all, featurehash.Of2(fUseR0, u, rTag(i)))
			}
		}
		if t.Rules {
			all = append(all,
				featurehash.Of1(fR0, rTag(i)), featurehash.Of1(fRm1, rTag(i-1)), featurehash.Of1(fR1, rTag(i+1)),
				featurehash.Of1(fP0, rP(i)), featurehash.Of3(fPPP, rP(i-1), rP(i), rP(i+1)), featurehash.Of2(fP0C0, rP(i), c0))
			for _, l := range lex[i] {
				all = append(all, featurehash.Of1(fLex, l))
			}
			if dPos != nil && dPos[i] != posO {
				k := dPos[i]<<8 | dKind[i]
				all = append(all, featurehash.Of1(fD0, k), featurehash.Of2(fD0C1, k, c1), featurehash.Of2(fD0Cm1, k, cm1), featurehash.Of2(fD0R0, k, rTag(i)))
			}
		}
		if seenPos != nil && seenPos[i] != posO {
			k := seenPos[i]<<16 | seenCode[i]
			all = append(all, featurehash.Of1(fSeen0, k), featurehash.Of2(fSeenC1, k, c1), featurehash.Of2(fSeenCm1, k, cm1))
			if t.Rules {
				all = append(all, featurehash.Of2(fSeenR0, k, rTag(i)))
			}
		}
		out[i] = all[start:len(all):len(all)]
	}
	return out
}

// markFound puts on each rune of a sentence the place (B, I, E, S) of the
// longest name of up to four runes starting there that the document found
// before sentence k, with its type and how often (1, 2, 3–5, 6 or more).
func markFound(rs []rune, f *docstats.Found, k int, pos, code []uint64) {
	var b []byte
	for i := 0; i < len(rs); {
		l := 0
		lengths := f.Lengths(rs[i])
		for m := min(4, len(rs)-i); m >= 1 && l == 0; m-- {
			if lengths&(1<<(m-1)) == 0 {
				continue
			}
			b = b[:0]
			for _, r := range rs[i : i+m] {
				b = utf8.AppendRune(b, r)
			}
			if typ, n := f.Before(b, k); n > 0 {
				l = m
				markSpan(pos, code, i, i+m, typeCode(typ)<<4|often(n))
			}
		}
		i += max(l, 1)
	}
}

// often buckets a count: 1, 2, 3–5, 6 or more.
func often(n int) uint64 {
	switch {
	case n <= 2:
		return uint64(n)
	case n <= 5:
		return 3
	}
	return 4
}
