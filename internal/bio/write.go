package bio

import (
	"fmt"
	"strings"
)

// Styles of biography.
const (
	Modern    = "modern"
	Classical = "classical"
)

// Sentence is one sentence of a biography with the sentences of the
// sources it rests on and the checks of every fact it states.
type Sentence struct {
	Text      string     `json:"text"`
	Citations []Citation `json:"citations"`
	Verified  bool       `json:"verified"`
	Checks    []Check    `json:"checks"`
}

// Check is one fact of a sentence checked against its citations.
type Check struct {
	Fact string `json:"fact"` // 字 孔明, 任官 丞相 …
	// Value is what a source must say for the fact (孔明); empty for a
	// year, which is checked by the sentence's date.
	Value  string `json:"value,omitempty"`
	Passed bool   `json:"passed"`
	Why    string `json:"why"`
}

// Most items one sentence of a biography lists.
const (
	maxKinListed     = 6
	maxDatedOffices  = 8
	maxOfficesListed = 6
)

// Write writes the biography of the person named name from the profile,
// in the style (Modern, the default, or Classical): origin, family, career
// in time order, death. It states only what the profile's items state, and
// each sentence cites the sources of its items; each is checked, fact by
// fact, against its citations. With strict, sentences that fail a check
// are left out instead of marked.
func Write(name string, p *Profile, style string, strict bool) []Sentence {
	w := &writer{name: name, classical: style == Classical}
	w.origin(p)
	w.family(p)
	w.career(p)
	w.death(p)
	out := []Sentence{}
	for _, s := range w.out {
		if strict && !s.Verified {
			continue
		}
		out = append(out, s)
	}
	return out
}

type writer struct {
	name      string
	classical bool
	out       []Sentence
	// the sentence being built
	text  strings.Builder
	items []checked
}

// checked is an item a sentence states, with what a check looks for.
type checked struct {
	fact string
	item Item
	// value is what a cited sentence must say; year, when set, the year it
	// must be dated to.
	value string
	year  *int
}

func (w *writer) say(s string) { w.text.WriteString(s) }

// stateAll states up to max items by their names, and returns the names.
func (w *writer) stateAll(fact string, items []Item, max int) []string {
	items = items[:min(len(items), max)]
	names := make([]string, len(items))
	for i, it := range items {
		names[i] = it.Text
		w.state(fact, it, it.Text, nil)
	}
	return names
}

// state adds an item the sentence states.
func (w *writer) state(fact string, it Item, value string, year *int) {
	w.items = append(w.items, checked{fact: fact + " " + value, item: it, value: value, year: year})
}

// end closes the sentence: its citations are its items', once each, and
// each item is checked against them.
func (w *writer) end() {
	if w.text.Len() == 0 {
		return
	}
	s := Sentence{Text: w.text.String(), Citations: []Citation{}, Checks: []Check{}, Verified: true}
	type at struct {
		doc        string
		start, end int
	}
	seen := map[at]bool{}
	for _, c := range w.items {
		s.Checks = append(s.Checks, check(c))
		for i, ct := range c.item.Citations {
			if i == 2 {
				break // two sentences a fact are enough to check it
			}
			if key := (at{ct.Doc, ct.Start, ct.End}); !seen[key] {
				seen[key] = true
				s.Citations = append(s.Citations, ct)
			}
		}
	}
	for _, ch := range s.Checks {
		s.Verified = s.Verified && ch.Passed
	}
	if len(s.Checks) == 0 {
		s.Verified = false
	}
	w.out = append(w.out, s)
	w.text.Reset()
	w.items = nil
}

// check passes a fact when one of its citations says its value (and, for a
// dated fact, is dated to its year).
func check(c checked) Check {
	for _, ct := range c.item.Citations {
		says := strings.Contains(ct.Quote, c.value) || strings.Contains(ct.norm, c.value)
		// Or names it as the index read it there (珪 for 诸葛珪).
		as := ct.says != "" && ct.says != c.value && strings.Contains(ct.Quote, ct.says)
		if !says && !as {
			continue
		}
		if c.year != nil && (ct.Year == nil || *ct.Year != *c.year) {
			continue
		}
		why := fmt.Sprintf("%s %d–%d says %s", ct.Cite, ct.Start, ct.End, c.value)
		if !says {
			why += " (as " + ct.says + ")"
		}
		if c.year != nil {
			why += fmt.Sprintf(", dated %s", yearText(*c.year))
		}
		return Check{Fact: c.fact, Value: c.value, Passed: true, Why: why}
	}
	return Check{Fact: c.fact, Value: c.value, Why: "no cited sentence says " + c.value}
}

// yearText writes a year of the common era, or before it.
func yearText(y int) string {
	if y <= 0 {
		return fmt.Sprintf("公元前%d年", 1-y)
	}
	return fmt.Sprintf("公元%d年", y)
}

func (w *writer) origin(p *Profile) {
	if p.Zi == "" && p.NativePlace == nil && p.Born == nil {
		return
	}
	w.say(w.name)
	if p.Zi != "" {
		for _, n := range p.Names {
			if n.Kind == "字" && n.Text == p.Zi {
				w.say("，字" + p.Zi)
				w.state("字", n, p.Zi, nil)
				break
			}
		}
	}
	if p.NativePlace != nil {
		if w.classical {
			w.say("，" + p.NativePlace.Text + "人也")
		} else {
			w.say("，" + p.NativePlace.Text + "人")
		}
		w.state("籍贯", *p.NativePlace, p.NativePlace.Text, nil)
	}
	if b := p.Born; b != nil && b.Basis != "" {
		// Worked out from the age at death: say so, and check the age.
		if w.classical {
			w.say("，生于" + yearText(*b.Year) + "（以卒" + b.Basis + "推之）")
		} else {
			w.say("，生于" + yearText(*b.Year) + "（据卒年与" + b.Basis + "推算）")
		}
		w.state("享年", *b, b.Basis, nil)
	} else if b != nil {
		w.say("，生于" + yearText(*b.Year))
		w.state("出生", *b, "", b.Year)
	}
	w.say("。")
	w.end()
}

// family writes the person's kin, a sentence for each kind.
func (w *writer) family(p *Profile) {
	modern := map[string]string{"祖": "祖父", "父": "父亲", "母": "母亲", "父母": "父母", "配偶": "配偶",
		"兄弟姊妹": "兄弟姊妹", "子": "儿子", "女": "女儿", "子女": "子女", "孙": "孙", "族人": "族人"}
	var kinds []string
	by := map[string][]Item{}
	for _, k := range p.Kin {
		if _, seen := by[k.Kind]; !seen {
			kinds = append(kinds, k.Kind)
		}
		by[k.Kind] = append(by[k.Kind], k)
	}
	for _, kind := range kinds {
		names := w.stateAll(kind, by[kind], maxKinListed)
		if w.classical {
			w.say(kind + strings.Join(names, "、") + "。")
		} else {
			verb := "有"
			if len(names) == 1 {
				verb = "是"
			}
			w.say(w.name + "的" + modern[kind] + verb + strings.Join(names, "、") + "。")
		}
		w.end()
	}
}

// career writes the dated offices and titles in time order, a sentence a
// year, then the undated ones in one sentence each.
func (w *writer) career(p *Profile) {
	type post struct {
		it    Item
		title bool
	}
	var dated, undated []post
	for _, it := range p.Offices {
		if it.Year != nil {
			dated = append(dated, post{it, false})
		} else {
			undated = append(undated, post{it, false})
		}
	}
	var titles []Item
	for _, it := range p.Titles {
		if it.Year != nil {
			dated = append(dated, post{it, true})
		} else {
			titles = append(titles, it)
		}
	}
	// In time order; offices before titles in a year, as stated.
	for i := 1; i < len(dated); i++ {
		for j := i; j > 0 && *dated[j].it.Year < *dated[j-1].it.Year; j-- {
			dated[j], dated[j-1] = dated[j-1], dated[j]
		}
	}
	if len(dated) > maxDatedOffices {
		dated = dated[:maxDatedOffices]
	}
	for i := 0; i < len(dated); {
		y := *dated[i].it.Year
		var offices, fiefs []string
		for ; i < len(dated) && *dated[i].it.Year == y; i++ {
			d := dated[i]
			if d.title {
				fiefs = append(fiefs, d.it.Text)
				w.state("封爵", d.it, d.it.Text, d.it.Year)
			} else {
				offices = append(offices, d.it.Text)
				w.state("任官", d.it, d.it.Text, d.it.Year)
			}
		}
		w.say(yearText(y) + "，")
		var parts []string
		if len(offices) > 0 {
			parts = append(parts, w.verb("任")+strings.Join(offices, "、"))
		}
		if len(fiefs) > 0 {
			parts = append(parts, w.verb("封")+strings.Join(fiefs, "、"))
		}
		w.say(strings.Join(parts, "，") + "。")
		w.end()
	}
	var offices []Item
	for _, u := range undated {
		offices = append(offices, u.it)
	}
	w.list("任官", w.verb("曾任"), offices)
	w.list("封爵", w.verb("曾封"), titles)
}

// verb is how each style says took office or was enfeoffed.
func (w *writer) verb(v string) string {
	if !w.classical {
		return v
	}
	return map[string]string{"任": "为", "封": "封", "曾任": "历", "曾封": "封"}[v]
}

// list writes one sentence listing undated posts.
func (w *writer) list(fact, verb string, posts []Item) {
	if len(posts) == 0 {
		return
	}
	w.say(verb + strings.Join(w.stateAll(fact, posts, maxOfficesListed), "、") + "。")
	w.end()
}

// death writes when and where the person died.
func (w *writer) death(p *Profile) {
	var place *Item
	for i := range p.Places {
		if p.Places[i].Kind == "卒于" {
			place = &p.Places[i]
			break
		}
	}
	if p.Died == nil && place == nil {
		return
	}
	if p.Died != nil {
		w.say(yearText(*p.Died.Year) + "，")
		w.state("死亡", *p.Died, "", p.Died.Year)
	}
	w.say("卒")
	if place != nil {
		w.say("于" + place.Text)
		w.state("卒于", *place, place.Text, nil)
	}
	w.say("。")
	w.end()
}
