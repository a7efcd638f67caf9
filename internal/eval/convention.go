package eval

import (
	"strings"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/extract/pattern/zh"
	"github.com/annals-project/annals/internal/kg"
)

// CHisIEC marks the place governed apart from its office (临松/LOC 太守/OFI)
// where annals fuses them into one office (临松太守), as a historian cites
// it (docs/annotation.md). Before scoring against CHisIEC, fused offices are
// split back at their office word, and holding such an office (任官) also
// states governing its place (辖, CHisIEC's 管理), so that the figures
// measure reading, not the difference of conventions.

// splitOffices rewrites results in CHisIEC's convention: each office whose
// text is a place followed by an office becomes the place and the office,
// and a relation to it points at the office; 任官 to it adds 辖 of the
// place.
func splitOffices(res []extract.Result) []extract.Result {
	out := make([]extract.Result, len(res))
	for i, r := range res {
		var ents []extract.Entity
		for _, e := range r.Entities {
			if place, office, ok := splitOffice(e); ok {
				ents = append(ents, place, office)
				continue
			}
			ents = append(ents, e)
		}
		tris := make([]extract.Triple, 0, len(r.Triples))
		for _, t := range r.Triples {
			if place, office, ok := splitOffice(t.Tail); ok {
				t.Tail = office
				if t.Relation == "任官" {
					gov := t
					gov.Relation, gov.Tail = "辖", place
					tris = append(tris, gov)
				}
			}
			if _, office, ok := splitOffice(t.Head); ok {
				t.Head = office
			}
			tris = append(tris, t)
		}
		out[i] = r
		out[i].Entities, out[i].Triples = ents, tris
	}
	return out
}

// localOffices are the offices of a commandery, province, county or
// kingdom that take its name before them.
var localOffices = map[string]bool{
	"太守": true, "刺史": true, "牧": true, "令": true, "长": true, "相": true, "丞": true, "尉": true,
	"都尉": true, "内史": true, "都督": true, "节度使": true, "中正": true, "大中正": true, "观察使": true, "防御使": true, "团练使": true, "经略使": true, "守": true, "长史": true, "司马": true, "从事": true, "别驾": true, "主簿": true, "功曹": true,
}

// splitOffice splits an office mention that starts with a place the
// lexicon knows and ends with a local office (南阳太守, 荆州刺史).
func splitOffice(e extract.Entity) (place, office extract.Entity, ok bool) {
	if e.Type != "职官" {
		return e, e, false
	}
	rs := []rune(e.Text)
	ms := zh.LexiconMatches(rs)
	isPlace := map[int]bool{}  // place entries from the start, by end
	isOffice := map[int]bool{} // office entries to the end, by start
	for _, m := range ms {
		switch m.Kind {
		case "place", "place1", "state", "group":
			if m.Start == 0 {
				isPlace[m.End] = true
			}
		}
	}
	for k := 1; k < len(rs); k++ {
		isOffice[k] = localOffices[string(rs[k:])]
		// A place the lexicon does not know still names itself by its
		// kind: 鄯州, 邠宁道.
		if k >= 2 && strings.ContainsRune("州郡县道", rs[k-1]) {
			isPlace[k] = true
		}
	}
	for k := 1; k < len(rs); k++ {
		if isPlace[k] && isOffice[k] {
			place = extract.Entity{Text: string(rs[:k]), Type: "地点", Span: kg.Span{Start: e.Start, End: e.Start + k}}
			office = extract.Entity{Text: string(rs[k:]), Type: "职官", Span: kg.Span{Start: e.Start + k, End: e.End}}
			return place, office, true
		}
	}
	return e, e, false
}
