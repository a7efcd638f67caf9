package ner

import (
	"github.com/annals-project/annals/internal/extract/pattern/zh"
)

var rules = zh.Plain()

// RuleNames are the names the offline rules read in a sentence alone,
// without overlaps (the first found wins), as spans.
func RuleNames(sentence string) []Span { return ruleSpans(sentence, nil) }
