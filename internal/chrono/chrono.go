// Package chrono finds time expressions in historical text — reign eras
// (建兴十二年), rulers' years (孝文十年), bare and relative years (十二年,
// 明年), sexagenary years and days, seasons and months, and Gregorian dates
// in Chinese, Vietnamese and English — and resolves them to astronomical
// years (−121 is 122 BCE).
package chrono

import (
	"fmt"
	"slices"

	"github.com/annals-project/annals/internal/chrono/eras"
	"github.com/annals-project/annals/internal/kg"
)

// Year bounds; anything outside is treated as noise.
const (
	MinYear = -3000
	MaxYear = 3000
)

// Precisions.
const (
	Day        = "day"
	Month      = "month"
	Season     = "season"
	Year       = "year"
	Decade     = "decade"
	Century    = "century"
	Unresolved = "relative-unresolved"
)

// Calendars.
const (
	CalEra        = "era"
	CalRuler      = "ruler"
	CalSexagenary = "sexagenary"
	CalGregorian  = "gregorian"
	CalRelative   = "relative"
)

// Table is the era and ruler catalogue the parser resolves against.
type Table interface {
	Eras(name string) []eras.Era
	Rulers(name string) []eras.Ruler
	EraNames() []string   // every era name, simplified
	RulerNames() []string // every ruler name and alias, simplified
}

// Candidate is one possible reading of an ambiguous expression.
type Candidate struct {
	Year    int    `json:"year"`
	Era     string `json:"era,omitempty"`
	Ruler   string `json:"ruler,omitempty"`
	Dynasty string `json:"dynasty,omitempty"`
	Emperor string `json:"emperor,omitempty"`
	Reason  string `json:"reason"`
}

// Time is one time expression found in a text.
type Time struct {
	Span       kg.Span     `json:"span"` // code-point offsets into the parsed text
	Expr       string      `json:"expr"` // as written
	Year       int         `json:"year"` // astronomical; meaningful only when Resolved
	EndYear    int         `json:"end_year"`
	Month      int         `json:"month,omitempty"` // 1–12, 0 when none
	Leap       bool        `json:"leap,omitempty"`  // 闰月
	Season     string      `json:"season,omitempty"`
	Day        string      `json:"day,omitempty"`          // sexagenary day name (丙午)
	DayOfMonth int         `json:"day_of_month,omitempty"` // Gregorian or numbered day
	Precision  string      `json:"precision"`
	Calendar   string      `json:"calendar"`
	Era        string      `json:"era,omitempty"`
	Dynasty    string      `json:"dynasty,omitempty"`
	Emperor    string      `json:"emperor,omitempty"`
	Ruler      string      `json:"ruler,omitempty"`
	Reckoning  string      `json:"reckoning,omitempty"` // 前元, 中元, 后元
	Ordinal    int         `json:"ordinal,omitempty"`   // the Nth year of the era or reign as written
	Offset     int         `json:"offset,omitempty"`    // years from the context year, for relative ones
	Candidates []Candidate `json:"candidates,omitempty"`
	Resolved   bool        `json:"resolved"`
	// Notes tell a reader what to know of the reading: that the year lies
	// past the end of its era or reign (建安三十年: 建安 ended in 220), or
	// why the expression stays unresolved.
	Notes []string `json:"notes,omitempty"`
}

// note adds a note to t once.
func (t *Time) note(format string, args ...any) {
	n := fmt.Sprintf(format, args...)
	if !slices.Contains(t.Notes, n) {
		t.Notes = append(t.Notes, n)
	}
}

// yearText writes an astronomical year as a reader would: 234, 122 BCE.
func yearText(y int) string {
	if y <= 0 {
		return fmt.Sprintf("%d BCE", 1-y)
	}
	return fmt.Sprintf("%d", y)
}

// Count is the reckoning in force: the era or reign that a bare "十二年"
// counts from.
type Count struct {
	Calendar string // CalEra or CalRuler; "" when none
	Name     string
	Dynasty  string
	Emperor  string
	Start    int  // astronomical year of year 1
	Known    bool // Start is known
}

// Context is what a section has established so far. The caller sets the
// dynasties; Parse advances Count, Year and Month as it reads, so feeding
// the consecutive chunks of one section with the same *Context carries
// "建兴五年 … 明年 … 六年" across chunk boundaries.
type Context struct {
	Dynasty   string   // the text's own dynasty (三国志·蜀书 → 蜀汉)
	Dynasties []string // dynasties of entities in the current sentence

	Count Count
	// Own is the count of the ruler whose annals the text is (文帝纪:
	// 孝文), if any: a bare 元年 returns to it after the background
	// named others' years (高祖十一年，立为代王).
	Own     Count
	Year    int
	HasYear bool
	Month   int
}

// SetYear makes y the current year, forgetting the month.
func (c *Context) SetYear(y int) {
	c.Year, c.HasYear, c.Month = y, true, 0
}

// Parser finds and resolves time expressions against a Table.
type Parser struct {
	t      Table
	eras   *dict
	rulers *dict
}

// NewParser indexes t's names for scanning.
func NewParser(t Table) *Parser {
	p := &Parser{t: t, eras: newDict(nil), rulers: newDict(nil)}
	if t != nil {
		p.eras = newDict(t.EraNames())
		p.rulers = newDict(t.RulerNames())
	}
	return p
}

// Check reports whether expr, read in ctx, can denote year, with every
// reading considered.
func (p *Parser) Check(expr string, year int, ctx Context) (bool, []Candidate) {
	ts := p.Parse(expr, &ctx)
	var cands []Candidate
	agree := false
	for _, t := range ts {
		if t.Resolved && year >= t.Year && year <= t.EndYear {
			agree = true
		}
		for _, c := range t.Candidates {
			if c.Year == year {
				agree = true
			}
		}
		cands = append(cands, t.Candidates...)
		if len(t.Candidates) == 0 && t.Resolved {
			cands = append(cands, Candidate{Year: t.Year, Era: t.Era, Ruler: t.Ruler, Dynasty: t.Dynasty, Emperor: t.Emperor, Reason: t.Calendar})
		}
	}
	return agree, cands
}
