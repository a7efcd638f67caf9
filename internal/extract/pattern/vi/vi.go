// Package vi reads people, places, offices, events and the relations between
// them out of Vietnamese historical prose, offline, for the general schema.
//
// Vietnamese names are runs of capitalised syllables ("Lý Thường Kiệt",
// "Trần Hưng Đạo"); rules type them by the words around them (vua, tướng,
// sông, nhà, trận …), by family names and by word lists. Relations come from
// surface patterns matched within one sentence.
package vi

import (
	"context"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/extract/pattern/latin"
)

// Extractor is the Vietnamese pattern extractor. It is safe for concurrent
// use as long as concurrent calls do not share a DocContext.
type Extractor struct{}

// New returns the Vietnamese pattern extractor.
func New() *Extractor { return &Extractor{} }

// Name identifies the extractor in stored facts.
func (*Extractor) Name() string { return "pattern-vi" }

// Version changes whenever the output would.
func (*Extractor) Version() string { return "vi-1" }

// lang is what Vietnamese brings to the shared reader.
var lang = &latin.Lang{
	Tokenize: tokenizer.Span,
	Names:    latin.NameRules{Shorts: shortNames, Key: phraseKey, MaxShort: 2},
	Rules:    rules,
}

// Extract reads entities and relations out of in.Text.
func (x *Extractor) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	return lang.Extract(ctx, in, func(b *latin.Sent) latin.Reader {
		s := &sent{Sent: b, cue: make([]bool, len(b.Toks))}
		s.build()
		return s
	})
}
