package dila

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Era is one row of the generated table. Package eras reads the same JSON.
type Era struct {
	Name      string   `json:"name"`
	Trad      string   `json:"trad"`
	Aliases   []string `json:"aliases,omitempty"`
	Dynasty   string   `json:"dynasty"`
	Emperor   string   `json:"emperor"`
	Start     int      `json:"start"`
	End       int      `json:"end"`
	FirstYear int      `json:"first_year"`
	StartJDN  int      `json:"start_jdn"`
	EndJDN    int      `json:"end_jdn"`
}

// Ruler is one generated ruler.
type Ruler struct {
	Name       string         `json:"name"`
	Aliases    []string       `json:"aliases,omitempty"`
	Dynasty    string         `json:"dynasty"`
	Accession  int            `json:"accession"`
	Reckonings map[string]int `json:"reckonings,omitempty"`
}

// chinese is DILA's language id of Chinese names; other ids (Korean
// readings) are left out.
const chinese = "1"

type month struct {
	year     int // ordinal year of the era
	ganzhi   string
	first    int
	last     int
	standard bool // false for DILA's proleptic months
}

// segment is one t_era row: the part of an era under one emperor.
type segment struct {
	id      string
	names   []string // Chinese names by ranking
	emperor string   // t_emperor id
	months  []month  // by first day
}

func (s *segment) primary() string {
	if len(s.names) == 0 {
		return ""
	}
	return s.names[0]
}

// reckoning reports whether the row is not an era but DILA's marker for a
// count without one: （無年號）, （中元）, （後元）.
func (s *segment) reckoning() bool {
	return len(s.names) > 0 && strings.HasPrefix(s.names[0], "（")
}

func (s *segment) first() month { return s.months[0] }
func (s *segment) last() month  { return s.months[len(s.months)-1] }

// used returns the months that date the era: the standard ones when there
// are any. DILA pads some eras with proleptic months, before the
// proclamation or, for 西晉 建興, decades past the fall of the dynasty.
func used(ms []month) []month {
	var s []month
	for _, m := range ms {
		if m.standard {
			s = append(s, m)
		}
	}
	if len(s) == 0 {
		return ms
	}
	return s
}

// span returns the era's year 1 and last year (CivilYear numbering), the
// ordinal of its first dated year, and its first and last days.
func span(ms []month) (start, end, firstYear, startJDN, endJDN int, err error) {
	u := used(ms)
	a, z := u[0], u[len(u)-1]
	y0, err := LunarYear(a.ganzhi, a.first)
	if err != nil {
		return
	}
	y1, err := LunarYear(z.ganzhi, z.first)
	if err != nil {
		return
	}
	return y0 - (a.year - 1), y1, a.year, a.first, z.last, nil
}

// Build derives the eras and rulers from the parsed dump. simplify converts
// traditional characters to simplified ones.
//
// An era kept on by the next emperor is one row per emperor in DILA (貞觀
// 23 under 高宗); such rows, and rows whose count goes on from an era of the
// same name that ends the day before, are merged into one era, credited to
// the emperor who proclaimed it and to the dynasty of its last row (至元 of
// Khubilai starts under 蒙古 and ends under 元). A row that takes up a
// count without following on (前涼 建興 43) is an era of its own, with
// FirstYear its first ordinal.
func Build(tables map[string]*Table, simplify func(string) string) ([]Era, []Ruler, []string, error) {
	var warnings []string
	warn := func(format string, a ...any) { warnings = append(warnings, fmt.Sprintf(format, a...)) }

	dynastyNames, err := names(tables, "t_dynasty_names", "dynasty_id")
	if err != nil {
		return nil, nil, nil, err
	}
	emperorNames, err := names(tables, "t_emperor_names", "emperor_id")
	if err != nil {
		return nil, nil, nil, err
	}
	eraNames, err := names(tables, "t_era_names", "era_id")
	if err != nil {
		return nil, nil, nil, err
	}
	emperorDynasty, err := pairs(tables, "t_emperor", "id", "dynasty_id")
	if err != nil {
		return nil, nil, nil, err
	}
	eraEmperor, err := pairs(tables, "t_era", "id", "emperor_id")
	if err != nil {
		return nil, nil, nil, err
	}
	months, err := readMonths(tables)
	if err != nil {
		return nil, nil, nil, err
	}

	var segs []*segment
	for id, emp := range eraEmperor {
		ms := months[id]
		if len(ms) == 0 {
			warn("era %s %v has no months; left out", id, eraNames[id])
			continue
		}
		slices.SortFunc(ms, func(a, b month) int { return cmp.Compare(a.first, b.first) })
		segs = append(segs, &segment{id: id, names: eraNames[id], emperor: emp, months: ms})
	}
	slices.SortFunc(segs, func(a, b *segment) int {
		return cmp.Or(cmp.Compare(a.first().first, b.first().first), strings.Compare(a.id, b.id))
	})

	dynastyOf := func(s *segment) string { return first(dynastyNames[emperorDynasty[s.emperor]]) }
	emperorOf := func(s *segment) string { return first(emperorNames[s.emperor]) }

	// Merge continuations into the era they carry on.
	type group struct{ segs []*segment }
	var groups []*group
	follows := func(g *group, s *segment) bool {
		p := g.segs[len(g.segs)-1]
		if s.primary() != "" && s.primary() != g.segs[0].primary() {
			return false
		}
		gap := s.first().first - p.last().last - 1
		dy := s.first().year - p.last().year
		return gap >= -60 && gap <= 60 && (dy == 0 || dy == 1)
	}
	for _, s := range segs {
		if s.reckoning() {
			continue
		}
		if s.first().year > 1 || s.primary() == "" {
			var found *group
			for _, g := range slices.Backward(groups) {
				if follows(g, s) {
					found = g
					break
				}
			}
			if found != nil {
				found.segs = append(found.segs, s)
				continue
			}
			if s.primary() == "" {
				warn("era %s (%s, %s) has no name and follows no era; left out", s.id, dynastyOf(s), emperorOf(s))
				continue
			}
		}
		groups = append(groups, &group{segs: []*segment{s}})
	}

	var eras []Era
	for _, g := range groups {
		var ms []month
		for _, s := range g.segs {
			ms = append(ms, s.months...)
		}
		slices.SortFunc(ms, func(a, b month) int { return cmp.Compare(a.first, b.first) })
		start, end, fy, sj, ej, err := span(ms)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("era %s: %w", g.segs[0].id, err)
		}
		head := g.segs[0]
		trad := head.primary()
		e := Era{
			Name:      simplify(trad),
			Trad:      trad,
			Aliases:   aliases(head.names[1:], simplify, trad, simplify(trad)),
			Dynasty:   simplify(dynastyOf(g.segs[len(g.segs)-1])),
			Emperor:   simplify(emperorOf(head)),
			Start:     start,
			End:       end,
			FirstYear: fy,
			StartJDN:  sj,
			EndJDN:    ej,
		}
		if e.Name == "" || e.Dynasty == "" {
			warn("era %s lacks a name or dynasty", head.id)
		}
		eras = append(eras, e)
	}
	slices.SortStableFunc(eras, func(a, b Era) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.StartJDN, b.StartJDN))
	})

	rulers, err := buildRulers(segs, emperorNames, emperorDynasty, dynastyNames, simplify)
	if err != nil {
		return nil, nil, nil, err
	}
	return eras, rulers, warnings, nil
}

// buildRulers gives each emperor with a count of his own (a row starting at
// year 1) the year 1 of his first such row. For an emperor who kept his
// predecessor's era that is the year after his accession, the year texts
// call his 元年. DILA's （中元）/（後元） rows become reckonings.
func buildRulers(segs []*segment, emperorNames map[string][]string, emperorDynasty map[string]string, dynastyNames map[string][]string, simplify func(string) string) ([]Ruler, error) {
	type acc struct {
		accession  int
		plain      int // year 1 of a row without era (（無年號）), or 0
		hasPlain   bool
		reckonings map[string]int
	}
	byEmp := map[string]*acc{}
	var order []string
	for _, s := range segs {
		// A row may open with the last year of the predecessor's count
		// (秦 二世 starts in 始皇 37); his own count starts at its year 1.
		i := slices.IndexFunc(s.months, func(m month) bool { return m.year == 1 })
		if i < 0 {
			continue
		}
		start, _, _, _, _, err := span(s.months[i:])
		if err != nil {
			return nil, fmt.Errorf("era %s: %w", s.id, err)
		}
		a := byEmp[s.emperor]
		if a == nil {
			a = &acc{accession: start}
			byEmp[s.emperor] = a
			order = append(order, s.emperor)
		}
		a.accession = min(a.accession, start)
		if s.reckoning() {
			name := strings.Trim(s.primary(), "（）")
			switch name {
			case "無年號", "失年號":
				if !a.hasPlain || start < a.plain {
					a.plain, a.hasPlain = start, true
				}
			default:
				if a.reckonings == nil {
					a.reckonings = map[string]int{}
				}
				a.reckonings[simplify(name)] = start
			}
		}
	}
	var rulers []Ruler
	for _, id := range order {
		a := byEmp[id]
		ns := emperorNames[id]
		if len(ns) == 0 {
			continue
		}
		// "高祖（漢王）": the name, and in brackets another he went by.
		var extra []string
		main := ns[0]
		if i := strings.Index(main, "（"); i > 0 {
			extra = append(extra, strings.TrimSuffix(main[i+len("（"):], "）"))
			main = main[:i]
		}
		r := Ruler{
			Name:      simplify(main),
			Aliases:   aliases(append([]string{main}, append(extra, ns[1:]...)...), simplify, simplify(main)),
			Dynasty:   simplify(first(dynastyNames[emperorDynasty[id]])),
			Accession: a.accession,
		}
		if a.reckonings != nil {
			r.Reckonings = a.reckonings
			if a.hasPlain {
				r.Reckonings["前元"] = a.plain
			}
		}
		rulers = append(rulers, r)
	}
	slices.SortStableFunc(rulers, func(a, b Ruler) int { return cmp.Compare(a.Accession, b.Accession) })
	return rulers, nil
}

// aliases lists the other names in both scripts, each once, leaving out
// those in skip.
func aliases(ns []string, simplify func(string) string, skip ...string) []string {
	var out []string
	add := func(s string) {
		if s != "" && !slices.Contains(skip, s) && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, n := range ns {
		add(n)
		add(simplify(n))
	}
	return out
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func columns(tables map[string]*Table, table string, cols ...string) (*Table, []int, error) {
	t := tables[table]
	if t == nil {
		return nil, nil, fmt.Errorf("table %s missing", table)
	}
	idx := make([]int, len(cols))
	for i, c := range cols {
		if idx[i] = t.Col(c); idx[i] < 0 {
			return nil, nil, fmt.Errorf("table %s: column %s missing", table, c)
		}
	}
	return t, idx, nil
}

// names reads a *_names table: the Chinese names of each id by ranking.
func names(tables map[string]*Table, table, idCol string) (map[string][]string, error) {
	t, c, err := columns(tables, table, idCol, "name", "ranking", "language_id")
	if err != nil {
		return nil, err
	}
	type ranked struct {
		rank int
		name string
	}
	tmp := map[string][]ranked{}
	for _, r := range t.Rows {
		if r[c[3]].S != chinese || r[c[1]].Null {
			continue
		}
		rank, err := strconv.Atoi(r[c[2]].S)
		if err != nil {
			return nil, fmt.Errorf("table %s: ranking %q", table, r[c[2]].S)
		}
		tmp[r[c[0]].S] = append(tmp[r[c[0]].S], ranked{rank, strings.TrimSpace(r[c[1]].S)})
	}
	out := map[string][]string{}
	for id, rs := range tmp {
		slices.SortFunc(rs, func(a, b ranked) int { return cmp.Compare(a.rank, b.rank) })
		for _, r := range rs {
			out[id] = append(out[id], r.name)
		}
	}
	return out, nil
}

func pairs(tables map[string]*Table, table, keyCol, valCol string) (map[string]string, error) {
	t, c, err := columns(tables, table, keyCol, valCol)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, r := range t.Rows {
		out[r[c[0]].S] = r[c[1]].S
	}
	return out, nil
}

func readMonths(tables map[string]*Table) (map[string][]month, error) {
	t, c, err := columns(tables, "t_month", "era_id", "year", "ganzhi", "first", "last", "status")
	if err != nil {
		return nil, err
	}
	out := map[string][]month{}
	for i, r := range t.Rows {
		var m month
		var err error
		if m.year, err = strconv.Atoi(r[c[1]].S); err == nil {
			if m.first, err = strconv.Atoi(r[c[3]].S); err == nil {
				m.last, err = strconv.Atoi(r[c[4]].S)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("t_month row %d: %w", i, err)
		}
		m.ganzhi = r[c[2]].S
		m.standard = r[c[5]].S != "P"
		out[r[c[0]].S] = append(out[r[c[0]].S], m)
	}
	return out, nil
}
