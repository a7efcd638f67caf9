// Package pattern is the offline extractor: rules and gazetteers, one set
// per language, chosen by each text's language.
package pattern

import (
	"context"
	"sort"
	"strings"

	"github.com/annals-project/annals/internal/extract"
)

// Extractor hands each text to the rules for its language.
type Extractor struct {
	byLang   map[string]extract.Extractor
	fallback extract.Extractor
	version  string
}

// NewWith builds a dispatcher from extractors by language code; fallback
// handles languages without rules of their own.
func NewWith(byLang map[string]extract.Extractor, fallback extract.Extractor) *Extractor {
	var parts []string
	seen := map[string]bool{}
	for lang, ex := range byLang {
		if !seen[ex.Version()] {
			seen[ex.Version()] = true
			parts = append(parts, ex.Version())
		}
		_ = lang
	}
	if fallback != nil && !seen[fallback.Version()] {
		parts = append(parts, fallback.Version())
	}
	sort.Strings(parts)
	return &Extractor{byLang: byLang, fallback: fallback, version: strings.Join(parts, "+")}
}

// Name is the extractor's name in stored facts.
func (e *Extractor) Name() string { return "pattern" }

// Version combines the versions of the per-language rules.
func (e *Extractor) Version() string { return e.version }

// Extract runs the rules for in.Lang.
func (e *Extractor) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	ex := e.byLang[in.Lang]
	if ex == nil {
		ex = e.fallback
	}
	if ex == nil {
		return extract.Result{}, nil
	}
	return ex.Extract(ctx, in)
}

// VersionFor is the version of the rules that handle lang, so that a change
// to one language's rules re-runs extraction only on that language.
func (e *Extractor) VersionFor(lang string) string {
	ex := e.byLang[lang]
	if ex == nil {
		ex = e.fallback
	}
	if ex == nil {
		return "none"
	}
	return ex.Version()
}
