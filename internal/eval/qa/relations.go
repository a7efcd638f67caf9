package qa

import (
	"fmt"
	"slices"
	"strings"

	"github.com/annals-project/annals/internal/eval"
)

// relationAsk words a question for a CHisIEC relation: whom it asks about,
// what it asks (appended to the subject), the answer, and the kind it is
// reported under; an empty ask for a relation a reader does not ask of a
// person this way.
func relationAsk(ex eval.Example, t eval.GoldTriple) (subject, ask, answer, kind string) {
	h, tail := t.Head.Text, t.Tail.Text
	switch t.Relation {
	case "任职":
		return h, "担任过什么官职？", tail, "官职"
	case "出生于某地":
		return h, "是哪里人？", tail, "籍贯"
	case "别名":
		return h, "又称什么？", tail, "别称"
	case "兄弟":
		return h, "的兄弟是谁？", tail, "兄弟"
	case "到达":
		return h, "到过哪里？", tail, "访"
	case "敌对攻伐":
		if t.Tail.Type == "LOC" {
			return h, "攻打过哪里？", tail, "攻"
		}
		return h, "攻打过谁？", tail, "攻"
	case "父母":
		// The head is the parent: ask the child, by the word the
		// sentence calls the parent with.
		before := ""
		if r := []rune(ex.Text); t.Head.Start > 0 {
			before = string(r[t.Head.Start-1])
		}
		switch before {
		case "父":
			return tail, "的父亲是谁？", h, "父"
		case "母":
			return tail, "的母亲是谁？", h, "母"
		}
	}
	return "", "", "", ""
}

// RelationQuestions turns annotated relation sentences (CHisIEC) into
// questions over the pooled passages: for every subject and kind of
// question, one question whose answers are the relation's tails in every
// passage that states them, with those passages as its context. A
// question whose answer is already in it, or whose subject is one
// character, is left out: the first answers itself, the second is too
// ambiguous to ask of a pooled corpus.
func RelationQuestions(exs []eval.Example) []Question {
	byQ := map[string]*Question{}
	var order []string
	for i, ex := range exs {
		passage := Passage{Title: fmt.Sprintf("chisiec-%04d", i), Text: ex.Text}
		for _, t := range ex.Triples {
			subject, ask, answer, kind := relationAsk(ex, t)
			if ask == "" {
				continue
			}
			q := subject + ask
			if len([]rune(subject)) < 2 || strings.Contains(subject, answer) || strings.Contains(answer, subject) {
				continue
			}
			have := byQ[q]
			if have == nil {
				byQ[q] = &Question{ID: fmt.Sprintf("%s#%d", ex.ID, len(order)), Question: q, Answer: answer, Type: kind, Context: []Passage{passage}}
				order = append(order, q)
				continue
			}
			if have.Answer != answer && !contains(have.Aliases, answer) {
				have.Aliases = append(have.Aliases, answer)
			}
			if !slices.ContainsFunc(have.Context, func(p Passage) bool { return p.Title == passage.Title }) {
				have.Context = append(have.Context, passage)
			}
		}
	}
	out := make([]Question, len(order))
	for i, q := range order {
		out[i] = *byQ[q]
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
