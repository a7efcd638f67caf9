package ner

import (
	"github.com/annals-project/annals/internal/extract/pattern/zh"
)

// ruleFeatures are what the offline rules and gazetteers read in a
// sentence, as features of each character: the type of the name the rules
// put it in and its place there (r:B:人物, r:I:人物 …), and the same with
// its neighbours'. The tagger learns when to trust them: a learned model
// needs far fewer labels with them than without.
func ruleFeatures(rs []rune, hints []Span, doc Names) [][]string {
	out := make([][]string, len(rs))
	tag := make([]string, len(rs))
	for _, e := range hints {
		if e.Start < 0 || e.End > len(rs) || e.Start >= e.End {
			continue
		}
		if e.End-e.Start == 1 {
			tag[e.Start] = "S:" + e.Type
			continue
		}
		tag[e.Start] = "B:" + e.Type
		for i := e.Start + 1; i < e.End-1; i++ {
			tag[i] = "I:" + e.Type
		}
		tag[e.End-1] = "E:" + e.Type
	}
	at := func(i int) string {
		if i < 0 || i >= len(tag) || tag[i] == "" {
			return "O"
		}
		return tag[i]
	}
	pos := func(i int) string { return at(i)[:1] } // B, I, E, S or O: where names start and end
	for _, m := range zh.LexiconMatches(rs) {
		if m.End-m.Start == 1 {
			out[m.Start] = append(out[m.Start], "lx:S:"+m.Kind)
			continue
		}
		out[m.Start] = append(out[m.Start], "lx:B:"+m.Kind)
		for i := m.Start + 1; i < m.End-1; i++ {
			out[i] = append(out[i], "lx:I:"+m.Kind)
		}
		out[m.End-1] = append(out[m.End-1], "lx:E:"+m.Kind)
	}
	known := doc.marks(rs)
	kn := func(i int) string {
		if i < 0 || i >= len(known) || known[i] == "" {
			return "O"
		}
		return known[i]
	}
	for i := range rs {
		out[i] = append(out[i], "r0:"+at(i), "r-1:"+at(i-1), "r1:"+at(i+1), "p0:"+pos(i), "p-1p0p1:"+pos(i-1)+pos(i)+pos(i+1),
			"p0c0:"+pos(i)+string(rs[i]))
		if k := kn(i); k != "O" {
			// A name the chapter knows, and what stands around it here.
			out[i] = append(out[i], "d0:"+k, "d0c1:"+k+at1(rs, i+1), "d0c-1:"+k+at1(rs, i-1), "d0r0:"+k+at(i))
		}
	}
	return out
}

// at1 is rune i of rs as a string, ^ and $ outside.
func at1(rs []rune, i int) string {
	if i < 0 {
		return "^"
	}
	if i >= len(rs) {
		return "$"
	}
	return string(rs[i])
}

var rules = zh.New()

// RuleNames are the names the offline rules read in a sentence alone,
// without overlaps (the first found wins), as spans.
func RuleNames(sentence string) []Span { return ruleSpans(sentence, nil) }
