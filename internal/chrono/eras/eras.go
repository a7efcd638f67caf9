// Package eras is the table of Chinese reign eras (年号) and of the rulers
// whose years texts count when there is no era, derived from the DILA
// Authority Database (CC BY-SA 3.0; see NOTICE). Years are astronomical
// (−121 is 122 BCE) and Julian before 1582-10-15, Gregorian after, as
// historians date them.
//
// The table is generated from the DILA dump by ./gen; the rulers before
// the era system (秦, early 西汉) and a few 春秋 dukes are written by hand
// in rulers.go.
package eras

//go:generate go run ./gen -q -in ../../../../shared/data/eras/dila_authority_time_chinese.sql -out table.json

import (
	"cmp"
	_ "embed"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/annals-project/annals/internal/text"
)

// Era is one reign era. An era kept on by the next emperor is one Era,
// credited to the emperor who proclaimed it.
type Era struct {
	Name    string   `json:"name"`              // simplified
	Trad    string   `json:"trad"`              // as DILA writes it (traditional)
	Aliases []string `json:"aliases,omitempty"` // other spellings, both scripts
	Dynasty string   `json:"dynasty"`           // simplified
	Emperor string   `json:"emperor"`           // simplified
	// Start is the year of the era's year 1 (元年), so that year n of the
	// era is Start+n−1; End is its last year. Both number the Chinese year
	// by the Western year in which most of it falls.
	Start int `json:"start"`
	End   int `json:"end"`
	// FirstYear is the first year of the count that the era covers: 1,
	// except for a state that took up another's count midway (前凉 建兴
	// from 43).
	FirstYear int `json:"first_year"`
	StartJDN  int `json:"start_jdn"` // Julian day number of the first day
	EndJDN    int `json:"end_jdn"`   // of the last day
}

// Year returns the year of year n of the era (n = 1 for 元年).
func (e Era) Year(n int) int { return e.Start + n - 1 }

// Ruler is a sovereign whose regnal years a text may count ("孝文十年",
// "秦王政二十六年", "景公二十九年").
type Ruler struct {
	Name      string   `json:"name"`              // as texts name him, simplified: 孝文, 秦王政, 景帝
	Aliases   []string `json:"aliases,omitempty"` // other forms: 文帝, 孝文帝 …
	Dynasty   string   `json:"dynasty"`
	Accession int      `json:"accession"` // year 1 of his reign (astronomical)
	// Reckonings are the restarts of the count (前元, 中元, 后元) by name,
	// each the astronomical year of its year 1.
	Reckonings map[string]int `json:"reckonings,omitempty"`
	// Last is the last year of his count: the year before the next
	// ruler of his dynasty acceded; 0 when the table has none after him.
	Last int `json:"-"`
	// MidYear says he acceded in the year his predecessor died and that
	// year stays the predecessor's (子婴 after 二世 in 207 BCE), where the
	// usual succession waits for the new year (逾年改元).
	MidYear bool `json:"-"`
}

//go:embed table.json
var tableJSON []byte

type table struct {
	Eras   []Era   `json:"eras"`
	Rulers []Ruler `json:"rulers"`
}

type index struct {
	eras      []Era
	rulers    []Ruler
	byName    map[string][]int // era name → indexes into eras
	byDynasty map[string][]int
	rulerBy   map[string][]int
}

var load = sync.OnceValue(func() *index {
	var t table
	if err := json.Unmarshal(tableJSON, &t); err != nil {
		// The table is generated and embedded, so this is a build defect.
		panic("eras: embedded table: " + err.Error())
	}
	for i, e := range t.Eras {
		if a, ok := eraAliases[e.Dynasty+" "+e.Name]; ok {
			t.Eras[i].Aliases = append(t.Eras[i].Aliases, a)
		}
	}
	return newIndex(t.Eras, mergeRulers(t.Rulers, handRulers))
})

// eraAliases are names the histories write for an era that DILA spells
// otherwise: 汉书 writes 成帝's first era 建始, DILA 始建.
var eraAliases = map[string]string{"西汉 始建": "建始"}

func newIndex(eras []Era, rulers []Ruler) *index {
	x := &index{
		eras:      eras,
		rulers:    rulers,
		byName:    map[string][]int{},
		byDynasty: map[string][]int{},
		rulerBy:   map[string][]int{},
	}
	for i, e := range eras {
		for _, k := range keys(append([]string{e.Name, e.Trad}, e.Aliases...)) {
			x.byName[k] = append(x.byName[k], i)
		}
		x.byDynasty[e.Dynasty] = append(x.byDynasty[e.Dynasty], i)
	}
	for i, r := range rulers {
		for _, o := range rulers {
			last := o.Accession - 1
			if o.MidYear {
				last = o.Accession
			}
			if o.Dynasty == r.Dynasty && o.Accession > r.Accession && (rulers[i].Last == 0 || last < rulers[i].Last) {
				rulers[i].Last = last
			}
		}
		for _, k := range keys(append([]string{r.Name}, r.Aliases...)) {
			x.rulerBy[k] = append(x.rulerBy[k], i)
		}
	}
	for _, m := range []map[string][]int{x.byName, x.byDynasty} {
		for k, ids := range m {
			slices.SortStableFunc(ids, func(a, b int) int {
				return cmp.Or(cmp.Compare(eras[a].Start, eras[b].Start), cmp.Compare(eras[a].StartJDN, eras[b].StartJDN))
			})
			m[k] = slices.Compact(ids)
		}
	}
	for k, ids := range x.rulerBy {
		slices.SortStableFunc(ids, func(a, b int) int { return cmp.Compare(rulers[a].Accession, rulers[b].Accession) })
		x.rulerBy[k] = slices.Compact(ids)
	}
	return x
}

// keys lists the index keys of a set of names: each name as given and,
// where it has 乾, with 干, the spelling other converters give it (乾封 →
// 干封, 乾隆 → 干隆).
func keys(names []string) []string {
	var out []string
	for _, n := range names {
		if n == "" {
			continue
		}
		out = append(out, n)
		if strings.Contains(n, "乾") {
			out = append(out, strings.ReplaceAll(n, "乾", "干"))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// find looks name up as given, then simplified.
func find(m map[string][]int, name string) []int {
	name = strings.TrimSpace(name)
	if ids, ok := m[name]; ok {
		return ids
	}
	s, _ := text.ToSimplified(name)
	return m[s]
}

// Lookup returns the eras of that name, written simplified, traditional or
// with 干 for 乾, sorted by start year. Names are shared: 建兴 was used by
// 蜀汉, 孙吴, 成汉, 西晋, 前凉 and 后燕.
func Lookup(name string) []Era {
	x := load()
	return pick(x.eras, find(x.byName, name))
}

// All returns every era, sorted by start year.
func All() []Era { return slices.Clone(load().eras) }

// ByDynasty returns the eras of a dynasty (DILA's name, such as 东汉,
// 蜀汉, 唐, 北宋), sorted by start year.
func ByDynasty(dynasty string) []Era {
	x := load()
	return pick(x.eras, find(x.byDynasty, dynasty))
}

// LookupRuler returns the rulers of that name or alias, sorted by
// accession. Many are shared (文帝 of 西汉, 曹魏, 刘宋, 陈, 隋 …).
func LookupRuler(name string) []Ruler {
	x := load()
	return pick(x.rulers, find(x.rulerBy, name))
}

// Rulers returns every ruler, sorted by accession.
func Rulers() []Ruler { return slices.Clone(load().rulers) }

// pick copies, so that callers cannot change the shared table.
func pick[T any](all []T, ids []int) []T {
	if len(ids) == 0 {
		return nil
	}
	out := make([]T, len(ids))
	for i, id := range ids {
		out[i] = all[id]
	}
	return out
}

// mergeRulers adds the hand-written rulers to DILA's. Where DILA has the
// same ruler (same dynasty, a shared name) the hand entry replaces it,
// taking over its names.
func mergeRulers(dila, hand []Ruler) []Ruler {
	out := slices.Clone(dila)
	for _, h := range hand {
		h.Aliases = slices.Clone(h.Aliases)
		out = slices.DeleteFunc(out, func(d Ruler) bool {
			if d.Dynasty != h.Dynasty || !sharesName(d, h) {
				return false
			}
			for _, n := range append([]string{d.Name}, d.Aliases...) {
				if n != h.Name && !slices.Contains(h.Aliases, n) {
					h.Aliases = append(h.Aliases, n)
				}
			}
			return true
		})
		out = append(out, h)
	}
	slices.SortStableFunc(out, func(a, b Ruler) int { return cmp.Compare(a.Accession, b.Accession) })
	return out
}

func sharesName(a, b Ruler) bool {
	an := append([]string{a.Name}, a.Aliases...)
	for _, n := range append([]string{b.Name}, b.Aliases...) {
		if slices.Contains(an, n) {
			return true
		}
	}
	return false
}
