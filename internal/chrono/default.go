package chrono

import (
	"sync"

	"github.com/annals-project/annals/internal/chrono/eras"
)

// erasTable is the Table over the package eras.
type erasTable struct{ eraNames, rulerNames []string }

func (erasTable) Eras(name string) []eras.Era     { return eras.Lookup(name) }
func (erasTable) Rulers(name string) []eras.Ruler { return eras.LookupRuler(name) }
func (t erasTable) EraNames() []string            { return t.eraNames }
func (t erasTable) RulerNames() []string          { return t.rulerNames }

// DefaultTable is the full era and ruler table.
var DefaultTable = sync.OnceValue(func() Table {
	var t erasTable
	for _, e := range eras.All() {
		t.eraNames = append(t.eraNames, e.Name)
		t.eraNames = append(t.eraNames, e.Aliases...)
	}
	for _, r := range eras.Rulers() {
		t.rulerNames = append(t.rulerNames, r.Name)
		t.rulerNames = append(t.rulerNames, r.Aliases...)
	}
	return t
})

var defaultParser = sync.OnceValue(func() *Parser { return NewParser(DefaultTable()) })

// Parse finds and resolves the time expressions in text with the default
// table; see Parser.Parse.
func Parse(text string, ctx *Context) []Time { return defaultParser().Parse(text, ctx) }

// Check reports with the default table whether expr can denote year; see
// Parser.Check.
func Check(expr string, year int, ctx Context) (bool, []Candidate) {
	return defaultParser().Check(expr, year, ctx)
}
