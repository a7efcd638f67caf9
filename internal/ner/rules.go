package ner

import (
	"context"

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
	rules := zh.New()
	return func(rs []rune) [][]string {
		out := make([][]string, len(rs))
		res, err := rules.Extract(context.Background(), extract.Input{Text: string(rs), Lang: text.Classical})
		if err != nil {
			return out
		}
		tag := make([]string, len(rs))
		for _, e := range res.Entities {
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
		for i := range rs {
			out[i] = []string{"r0:" + at(i), "r-1:" + at(i-1), "r1:" + at(i+1), "p0:" + pos(i), "p-1p0p1:" + pos(i-1) + pos(i) + pos(i+1),
				"p0c0:" + pos(i) + string(rs[i])}
		}
		return out
	}
}
