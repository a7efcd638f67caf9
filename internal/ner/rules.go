package ner

import (
	"context"
	"sort"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/extract/pattern/zh"
	"github.com/annals-project/annals/internal/text"
)

// RuleFeatures gives the tagger what the offline rules and gazetteers read
// in a sentence, as features of each character: the type of the name the
// rules put it in and its place there (r:B:人物, r:I:人物 …), and the same
// with its neighbours'. The tagger learns when to trust them: a learned
// model needs far fewer labels with them than without.
func RuleFeatures() func([]rune) [][]string {
	return func(rs []rune) [][]string {
		out := make([][]string, len(rs))
		tag := make([]string, len(rs))
		for _, e := range RuleNames(string(rs)) {
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
		for i := range rs {
			out[i] = []string{"r0:" + at(i), "r-1:" + at(i-1), "r1:" + at(i+1), "p0:" + pos(i), "p-1p0p1:" + pos(i-1) + pos(i) + pos(i+1),
				"p0c0:" + pos(i) + string(rs[i])}
		}
		return out
	}
}

var rules = zh.New()

// RuleNames are the names the offline rules read in a sentence, without
// overlaps (the first found wins), as spans.
func RuleNames(sentence string) []Span {
	n := len([]rune(sentence))
	res, err := rules.Extract(context.Background(), extract.Input{Text: sentence, Lang: text.Classical})
	if err != nil {
		return nil
	}
	taken := make([]bool, n)
	var out []Span
	for _, e := range res.Entities {
		if e.Start < 0 || e.End > n || e.Start >= e.End {
			continue
		}
		free := true
		for i := e.Start; i < e.End; i++ {
			free = free && !taken[i]
		}
		if !free {
			continue
		}
		for i := e.Start; i < e.End; i++ {
			taken[i] = true
		}
		out = append(out, Span{e.Start, e.End, e.Type})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}
