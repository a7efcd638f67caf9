package chrono

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/annals-project/annals/internal/chrono/eras"
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
	// past, when set, says the year lies past the end of its era or reign;
	// it becomes a note on the Time if this reading is chosen.
	past string
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
	if len(live) > 1 && sameYear(live) {
		// An era whose last year a successor kept (黄龙 of 宣帝 and of
		// 元帝): one year, the era of the one who proclaimed it.
		live = live[:1]
	}
	var chosen *reading
	if len(live) == 1 {
		chosen = &live[0]
	}
	if len(rd) > 1 || chosen == nil {
		marked := false
		for _, r := range rd {
			c := r.c
			if !r.fits {
				r.notes = append(r.notes, "past the era's end")
			}
			if len(r.notes) > 0 {
				c.Reason += "; " + strings.Join(r.notes, "; ")
			}
			if chosen != nil && !marked && c.Year == chosen.c.Year && c.Dynasty == chosen.c.Dynasty && c.Emperor == chosen.c.Emperor {
				marked = true
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
		if chosen.past != "" {
			t.note("%s", chosen.past)
		}
		return
	}
	t.note("%d readings fit equally well (see the candidates): naming the dynasty, or a dated text before it, would choose one", len(live))
}

// sameYear reports whether the readings agree on the year and dynasty.
func sameYear(rd []reading) bool {
	for _, r := range rd[1:] {
		if r.c.Year != rd[0].c.Year || r.c.Dynasty != rd[0].c.Dynasty {
			return false
		}
	}
	return true
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
			past: pastEra(e, name, n),
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
			past: pastReign(r, reckon, n, base+n-1),
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
			t.note("the table has no lord called %s of the state the text is about: the candidates are other states' lords", name)
			return
		}
	}
	choose(t, rd, qual, ctx)
	if !t.Resolved && qual != "" {
		t.Dynasty = qual
	}
}

// pastEra is the note for year n of era e when it lies past the era's
// end, else "".
func pastEra(e eras.Era, name string, n int) string {
	if e.Start+n-1 <= e.End {
		return ""
	}
	return fmt.Sprintf("%s ended in %s (%s–%s, %d years): year %d lies past its end",
		strings.TrimSpace(e.Dynasty+" "+name), yearText(e.End), yearText(e.Start), yearText(e.End), e.End-e.Start+1, n)
}

// pastReign is the note for year n of ruler r's count (under reckoning
// reckon), the year y, when it lies past his reign, else "".
func pastReign(r eras.Ruler, reckon string, n, y int) string {
	if r.Last == 0 || y <= r.Last {
		return ""
	}
	return fmt.Sprintf("%s reigned until %s (the next ruler of %s acceded in %s): year %d of %s%s lies past his reign",
		r.Name, yearText(r.Last), r.Dynasty, yearText(r.Last+1), n, r.Name, reckon)
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

// ReignCount is the count a sovereign's annals keep before they name an era
// or a ruler (光武帝纪下 opens with 六年春正月, 文帝纪 with 元年): his first
// era (光武帝: 建武), else his own years where texts count them (孝文).
// titles are the names he is known by (文帝, 光武帝).
func (p *Parser) ReignCount(dynasty string, titles []string) (Count, bool) {
	var first eras.Era
	for _, name := range p.t.EraNames() {
		for _, e := range p.t.Eras(name) {
			if e.Dynasty == dynasty && slices.Contains(titles, e.Emperor) && (first.Name == "" || e.Start < first.Start) {
				first = e
			}
		}
	}
	if first.Name != "" {
		return Count{Calendar: CalEra, Name: first.Name, Dynasty: dynasty, Emperor: first.Emperor, Start: first.Start, Known: true}, true
	}
	for _, title := range titles {
		for _, r := range p.t.Rulers(title) {
			if r.Dynasty == dynasty {
				return Count{Calendar: CalRuler, Name: r.Name, Dynasty: dynasty, Start: r.Accession, Known: true}, true
			}
		}
	}
	return Count{}, false
}

// ReignCount is Parser.ReignCount with the built-in table.
func ReignCount(dynasty string, titles []string) (Count, bool) {
	return defaultParser().ReignCount(dynasty, titles)
}
