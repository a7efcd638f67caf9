// Package coref scores who a designation in a chapter is taken to be: the
// share of a designation's occurrences linked to the right person, and
// whether designations of different people are kept apart.
package coref

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Link says that in a chapter every occurrence of a designation names one
// person (by 姓+名).
type Link struct {
	Doc, Designation, Person string
}

// Apart says that two designations, each in its chapter, name two people.
type Apart struct {
	DocA, A, DocB, B string
}

// Gold is a gold set.
type Gold struct {
	Links []Link
	Apart []Apart
}

// Parse reads a gold set: tab-separated lines CHAPTER DESIGNATION PERSON,
// or apart CHAPTER-A DESIGNATION-A CHAPTER-B DESIGNATION-B; # starts a
// comment.
func Parse(r io.Reader) (*Gold, error) {
	g := &Gold{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		switch {
		case len(f) == 5 && f[0] == "apart" && allSet(f):
			g.Apart = append(g.Apart, Apart{f[1], f[2], f[3], f[4]})
		case len(f) == 3 && allSet(f):
			g.Links = append(g.Links, Link{f[0], f[1], f[2]})
		default:
			return nil, fmt.Errorf("line %d: want CHAPTER, DESIGNATION, PERSON or apart and two chapters with their designations, tab-separated: %q", n, line)
		}
	}
	return g, sc.Err()
}

func allSet(f []string) bool {
	for _, s := range f {
		if s == "" {
			return false
		}
	}
	return true
}

// Mention is a name in a chapter, in characters, with the entity it was
// linked to (0 for none) and that entity's name.
type Mention struct {
	Start, End int
	Entity     int64
	Name       string
}

// Source reads a chapter's text and its mentions.
type Source interface {
	Chapter(ctx context.Context, key string) (text string, mentions []Mention, err error)
}

// PersonScore is one person's occurrences.
type PersonScore struct {
	Person      string `json:"person"`
	Occurrences int    `json:"occurrences"`
	Right       int    `json:"right"`
	// Wrong names what the occurrences were linked to instead, with
	// counts ("" for none).
	Wrong map[string]int `json:"wrong,omitempty"`
}

// Report is what a gold set scored.
type Report struct {
	Occurrences int           `json:"occurrences"`
	Right       int           `json:"right"`
	People      []PersonScore `json:"people"`
	Pairs       int           `json:"pairs"`
	KeptApart   int           `json:"kept_apart"`
	// Merged lists the pairs that were taken for one entity.
	Merged []string `json:"merged,omitempty"`
	// Missing lists chapters or designations the source does not have.
	Missing []string `json:"missing,omitempty"`
}

// Linked is the share of occurrences linked to the right person.
func (r *Report) Linked() float64 {
	if r.Occurrences == 0 {
		return 0
	}
	return float64(r.Right) / float64(r.Occurrences)
}

// Score scores the gold set against what src linked.
func Score(ctx context.Context, src Source, g *Gold) (*Report, error) {
	rep := &Report{}
	people := map[string]*PersonScore{}
	type chapter struct {
		text []rune
		ms   []Mention
	}
	cache := map[string]*chapter{}
	read := func(key string) (*chapter, error) {
		if c, ok := cache[key]; ok {
			return c, nil
		}
		text, ms, err := src.Chapter(ctx, key)
		if err != nil {
			return nil, err
		}
		c := &chapter{text: []rune(text), ms: ms}
		cache[key] = c
		return c, nil
	}
	// entities links each occurrence of a designation in a chapter: to the
	// mention of exactly it, else to the mention it is part of (亮 in
	// 诸葛亮), else to none.
	entities := func(key, des string) ([]Mention, error) {
		c, err := read(key)
		if err != nil {
			return nil, err
		}
		d := []rune(des)
		var out []Mention
		for i := 0; i+len(d) <= len(c.text); i++ {
			if string(c.text[i:i+len(d)]) == des {
				out = append(out, covering(c.ms, i, i+len(d)))
			}
		}
		return out, nil
	}
	for _, l := range g.Links {
		ms, err := entities(l.Doc, l.Designation)
		if err != nil {
			rep.Missing = append(rep.Missing, fmt.Sprintf("%s: %v", l.Doc, err))
			continue
		}
		if len(ms) == 0 {
			rep.Missing = append(rep.Missing, fmt.Sprintf("%s: no %s", l.Doc, l.Designation))
			continue
		}
		p := people[l.Person]
		if p == nil {
			p = &PersonScore{Person: l.Person, Wrong: map[string]int{}}
			people[l.Person] = p
		}
		for _, m := range ms {
			rep.Occurrences++
			p.Occurrences++
			if m.Entity != 0 && m.Name == l.Person {
				rep.Right++
				p.Right++
			} else {
				p.Wrong[m.Name]++
			}
		}
	}
	for _, a := range g.Apart {
		ea, err := entities(a.DocA, a.A)
		if err == nil {
			var eb []Mention
			if eb, err = entities(a.DocB, a.B); err == nil {
				rep.Pairs++
				x, y := mostLinked(ea), mostLinked(eb)
				if x == 0 || y == 0 || x != y {
					rep.KeptApart++
				} else {
					rep.Merged = append(rep.Merged, fmt.Sprintf("%s in %s and %s in %s", a.A, a.DocA, a.B, a.DocB))
				}
				continue
			}
		}
		rep.Missing = append(rep.Missing, fmt.Sprintf("apart %s/%s: %v", a.A, a.B, err))
	}
	for _, p := range people {
		if len(p.Wrong) == 0 {
			p.Wrong = nil
		}
		rep.People = append(rep.People, *p)
	}
	sort.Slice(rep.People, func(i, j int) bool { return rep.People[i].Person < rep.People[j].Person })
	return rep, nil
}

// mostLinked is the entity most occurrences are linked to (0 for none).
func mostLinked(ms []Mention) int64 {
	n := map[int64]int{}
	var best int64
	for _, m := range ms {
		if m.Entity == 0 {
			continue
		}
		n[m.Entity]++
		if best == 0 || n[m.Entity] > n[best] || n[m.Entity] == n[best] && m.Entity < best {
			best = m.Entity
		}
	}
	return best
}

// covering is the mention of exactly [start, end), else the shortest one
// that holds it.
func covering(ms []Mention, start, end int) Mention {
	var best Mention
	found := false
	for _, m := range ms {
		if m.Start > start || m.End < end {
			continue
		}
		if m.Start == start && m.End == end {
			return m
		}
		if !found || m.End-m.Start < best.End-best.Start {
			best, found = m, true
		}
	}
	return best
}
