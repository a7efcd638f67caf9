// Package en reads people, places, offices, events and the relations between
// them out of English historical prose, offline, for the general schema.
//
// Entities come from rules over capitalisation, titles, head words ("Langya
// Commandery", "Battle of Red Cliffs") and word lists, with prose's
// named-entity labels as a fallback for names the rules do not know.
// Relations come from surface patterns matched within one sentence.
package en

import (
	"context"
	"strings"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/extract/pattern/latin"
)

// Extractor is the English pattern extractor. It is safe for concurrent use
// as long as concurrent calls do not share a DocContext.
type Extractor struct{}

// New returns the English pattern extractor.
func New() *Extractor { return &Extractor{} }

// Name identifies the extractor in stored facts.
func (*Extractor) Name() string { return "pattern-en" }

// Version changes whenever the output would.
func (*Extractor) Version() string { return "en-1" }

// lang is what English brings to the shared reader.
var lang = &latin.Lang{
	Tokenize: tokenizeSpan,
	Names:    latin.NameRules{Shorts: shortNames, MaxShort: 1},
	Rules:    rules,
}

// Extract reads entities and relations out of in.Text.
func (x *Extractor) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	// Blank text needs no model.
	if strings.TrimSpace(in.Text) == "" {
		return extract.Result{}, nil
	}
	p, err := loadPipeline()
	if err != nil {
		return extract.Result{}, err
	}
	guesses := map[string]string{}
	return lang.Extract(ctx, in, func(b *latin.Sent) latin.Reader {
		s := &sent{Sent: b, pt: make([]proseTok, len(b.Toks)), nlp: p, guesses: guesses}
		s.build()
		return s
	})
}
