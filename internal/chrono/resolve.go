package chrono

import (
	"fmt"

	"github.com/annals-project/annals/internal/chrono/eras"
	"sort"
	"strings"
)

// dynastyMatch scores how well a qualifier names a dynasty: 2 for the same
// or an equivalent name, 1 when one contains the other (魏 in 曹魏).
func dynastyMatch(q, d string) int {
	if q == "" || d == "" {
		return 0
	}
	if canonDynasty(q) == canonDynasty(d) {
		return 2
	}
	if strings.Contains(d, q) || strings.Contains(q, d) {
		return 1
	}
	return 0
}

var dynastyAlias = map[string]string{
	"季汉": "蜀汉", "蜀": "蜀汉", "曹魏": "魏", "孙吴": "吴", "东吴": "吴", "前汉": "西汉",
	"后汉": "东汉", "刘宋": "宋", "南齐": "齐",
}

func canonDynasty(s string) string {
	if a, ok := dynastyAlias[s]; ok {
		return a
	}
	return s
}

// reading is one way to take an expression, scored for disambiguation.
type reading struct {
	c     Candidate
	fits  bool
	score int
	notes []string
}

// choose narrows readings: those that fit, then those of the preferred
// dynasties, then those nearest the context year. It fills t.
func choose(t *Time, rd []reading, qual string, ctx *Context) {
	if len(rd) == 0 {
		return
	}
	sort.SliceStable(rd, func(i, j int) bool { return rd[i].c.Year < rd[j].c.Year })
	for k := range rd {
		r := &rd[k]
		d := r.c.Dynasty
		if s := dynastyMatch(qual, d); s > 0 {
			r.score += 8 * s
			r.notes = append(r.notes, "named dynasty "+qual)
		}
		for _, e := range ctx.Dynasties {
			if s := dynastyMatch(e, d); s > 0 {
				r.score += 2 * s
				r.notes = append(r.notes, "dynasty of a person in the sentence")
				break
			}
		}
		if s := dynastyMatch(ctx.Dynasty, d); s > 0 {
			r.score += 2 * s
			r.notes = append(r.notes, "the text's dynasty")
		}
		if s := dynastyMatch(ctx.Count.Dynasty, d); s > 0 {
			r.score += s
			r.notes = append(r.notes, "dynasty of the era in force")
		}
	}
	live := filter(rd, func(r reading) bool { return r.fits })
	if len(live) == 0 {
		live = rd
	}
	best := 0
	for _, r := range live {
		if r.score > best {
			best = r.score
		}
	}
	live = filter(live, func(r reading) bool { return r.score == best })
	if len(live) > 1 && ctx.HasYear {
		dist := func(r reading) int {
			d := r.c.Year - ctx.Year
			if d < 0 {
				d = -d
			}
			return d
		}
		min := dist(live[0])
		for _, r := range live {
			if dist(r) < min {
				min = dist(r)
			}
		}
		live = filter(live, func(r reading) bool { return dist(r) == min })
		if len(live) == 1 {
			live[0].notes = append(live[0].notes, fmt.Sprintf("nearest to %d", ctx.Year))
		}
	}
	var chosen *reading
	if len(live) == 1 {
		chosen = &live[0]
	}
	if len(rd) > 1 || chosen == nil {
		for _, r := range rd {
			c := r.c
			if !r.fits {
				r.notes = append(r.notes, "past the era's end")
			}
			if len(r.notes) > 0 {
				c.Reason += "; " + strings.Join(r.notes, "; ")
			}
			if chosen != nil && c.Year == chosen.c.Year && c.Dynasty == chosen.c.Dynasty {
				c.Reason += "; chosen"
				t.Candidates = append([]Candidate{c}, t.Candidates...)
			} else {
				t.Candidates = append(t.Candidates, c)
			}
		}
	}
	if chosen != nil {
		c := chosen.c
		t.Year, t.EndYear, t.Resolved = c.Year, c.Year, true
		t.Dynasty, t.Emperor = c.Dynasty, c.Emperor
		if c.Ruler != "" {
			t.Ruler = c.Ruler
		}
	}
}

func filter(rd []reading, keep func(reading) bool) []reading {
	var out []reading
	for _, r := range rd {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

func (p *Parser) resolveEra(t *Time, name string, n int, qual string, ctx *Context) {
	t.Era = name
	var rd []reading
	all := p.t.Eras(name)
	for k, e := range all {
		// An era carried on under a later emperor is listed again with the
		// same start and a later FirstYear: one reading, whose emperor is
		// the one reigning in year n.
		if !ownsYear(all, k, n) {
			continue
		}
		y := e.Start + n - 1
		rd = append(rd, reading{
			c: Candidate{Year: y, Era: name, Dynasty: e.Dynasty, Emperor: e.Emperor,
				Reason: fmt.Sprintf("%s %s %s (%d–%d) year %d", e.Dynasty, e.Emperor, name, e.Start, e.End, n)},
			fits: y <= e.End,
		})
	}
	choose(t, rd, qual, ctx)
	if !t.Resolved && qual != "" {
		t.Dynasty = qual
	}
}

func (p *Parser) resolveRuler(t *Time, name string, n int, reckon, qual string, ctx *Context) {
	var rd []reading
	for _, r := range p.t.Rulers(name) {
		base := r.Accession
		if reckon != "" {
			b, ok := r.Reckonings[reckon]
			if !ok {
				continue
			}
			base = b
		}
		rd = append(rd, reading{
			c: Candidate{Year: base + n - 1, Ruler: r.Name, Dynasty: r.Dynasty,
				Reason: fmt.Sprintf("%s %s%s year %d from %d", r.Dynasty, r.Name, reckon, n, base)},
			fits: true,
		})
	}
	// A bare 桓公 names a lord of whichever state the text is about; when
	// the table has none of that state, another state's lord is no answer.
	if r := []rune(name); qual == "" && len(r) == 2 && (r[1] == '公' || r[1] == '侯') && (ctx.Dynasty != "" || len(ctx.Dynasties) > 0) {
		stateKnown := false
		for _, x := range rd {
			for _, d := range append([]string{ctx.Dynasty}, ctx.Dynasties...) {
				stateKnown = stateKnown || dynastyMatch(d, x.c.Dynasty) > 0
			}
		}
		if !stateKnown {
			for i := range rd {
				rd[i].c.Reason += "; not of the state in context"
				t.Candidates = append(t.Candidates, rd[i].c)
			}
			return
		}
	}
	choose(t, rd, qual, ctx)
	if !t.Resolved && qual != "" {
		t.Dynasty = qual
	}
}

// ownsYear reports whether all[k] is the entry of its era that covers year
// n: among entries of the same dynasty and start, the one with the latest
// first year not after n.
func ownsYear(all []eras.Era, k, n int) bool {
	first := func(e eras.Era) int { return max(e.FirstYear, 1) }
	e := all[k]
	if first(e) > n {
		// Year n precedes this entry; it belongs to an earlier one unless
		// there is none.
		for _, o := range all {
			if o.Dynasty == e.Dynasty && o.Start == e.Start && first(o) <= n {
				return false
			}
		}
		return first(e) == minFirst(all, e)
	}
	for _, o := range all {
		if o.Dynasty == e.Dynasty && o.Start == e.Start && first(o) <= n && first(o) > first(e) {
			return false
		}
	}
	return true
}

func minFirst(all []eras.Era, e eras.Era) int {
	m := 1 << 30
	for _, o := range all {
		if o.Dynasty == e.Dynasty && o.Start == e.Start {
			m = min(m, max(o.FirstYear, 1))
		}
	}
	return m
}
