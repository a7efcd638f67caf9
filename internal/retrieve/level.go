package retrieve

import (
	"slices"
	"strings"

	"github.com/annals-project/annals/internal/text"
)

// Levels of the knowledge tree a sub-question is answered at, as typed
// decomposition routes it (Youtu-GraphRAG §3.3).
const (
	// LevelNode asks about one entity and its attributes: X是谁, X字什么.
	LevelNode = "node"
	// LevelTriple asks for a relation between entities: X的父亲是谁.
	LevelTriple = "triple"
	// LevelCommunity asks for a group gathered over the whole corpus:
	// 孙吴的将领有哪些.
	LevelCommunity = "community"
)

// Levels lists the levels, for a prompt or a check.
var Levels = []string{LevelNode, LevelTriple, LevelCommunity}

// LevelOf is the level an analysed question asks at: a list over the
// corpus is a community question; an identity, a courtesy name, or an open
// question about at most one entity, a node question; a relation between
// entities (typed, or an open question naming two or more), a triple
// question.
func LevelOf(a *Analysis) string {
	switch a.Type {
	case QGlobal:
		return LevelCommunity
	case QIdentity, QWhoseName, QCourtesy:
		return LevelNode
	case QWho, QWhat, QWhy, QYesNo, "":
		if len(a.Entities) <= 1 {
			return LevelNode
		}
	}
	return LevelTriple
}

// atLevel makes an analysis ask at level: a community question becomes a
// whole-corpus one even without a list template (孙吴的将领), read as its
// list form would be. Other levels leave it as it is; they order the items
// (byLevel).
func atLevel(a *Analysis, level string) {
	if level != LevelCommunity || a.Global != nil {
		return
	}
	list := strings.TrimRight(a.Norm, "？?。. ") + "有哪些"
	if !text.IsChinese(a.Lang) && a.Lang != text.Unknown {
		list = "list the " + strings.TrimRight(a.Norm, "?. ")
	}
	if g := parseGlobal(list); g != nil {
		a.Type, a.Global = QGlobal, g
	}
}

// byLevel puts the kinds of item a level answers from first, keeping the
// fused order within each: entities for a node question, triples and
// paths for a triple question, communities for a community question.
func byLevel(items []Item, level string) {
	var first []string
	switch level {
	case LevelNode:
		first = []string{KindEntity}
	case LevelTriple:
		first = []string{KindTriple, KindPath}
	case LevelCommunity:
		first = []string{KindCommunity}
	default:
		return
	}
	slices.SortStableFunc(items, func(x, y Item) int {
		a, b := slices.Contains(first, x.Kind), slices.Contains(first, y.Kind)
		switch {
		case a && !b:
			return -1
		case b && !a:
			return 1
		}
		return 0
	})
}
