package answer

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/histories"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/retrieve"
	"github.com/annals-project/annals/internal/store"
)

// A reading answers a typed question that no statement of the graph
// answers by reading the passages retrieval found, as BEKO defers
// relations to the question: in a sentence that names the subject, the
// nearest name of the asked kind that follows it with a verb of the asked
// relation between (X…攻Y, X…拜Y), and no other person between to be the
// doer. It is weaker than a statement, and says so: its confidence stays
// under the bar of a sure answer.

// readingCue is what a reading looks for after the subject: a verb of the
// relation between, and the types of the answer.
type readingCue struct {
	verbs string
	types []string
	// viaYu, when set, wants the verb right before 于 or 於 and the
	// answer: a death is at a place only as 卒于X (卒定楚 is "at last
	// took 楚").
	viaYu bool
}

var readingCues = map[string]readingCue{
	retrieve.QOffice:     {"为拜迁授除领任守加行转补擢征", []string{"职官"}, false},
	retrieve.QTitle:      {"封爵袭", []string{"爵位"}, false},
	retrieve.QAttacked:   {"攻伐击讨围破征袭寇拔平取下克陷屠", []string{"地点", "社会集团", "人物"}, false},
	retrieve.QVisit:      {"至到入还诣如幸次屯往适在驻抵趋", []string{"地点"}, false},
	retrieve.QFled:       {"奔投归依亡走", []string{"地点", "社会集团", "人物"}, false},
	retrieve.QResided:    {"居家住寓", []string{"地点"}, false},
	retrieve.QDeathPlace: {"卒薨死殁崩终", []string{"地点"}, true},
}

// takesObject are verbs that make the name after them their object: in
// 从击项籍，追至陈 the subject is attacked and pursued, and does nothing
// the clauses after tell.
const takesObject = "击攻伐讨杀斩诛破败擒执获虏追逐拒围袭"

// Readings count for less than statements: their confidence is scaled by
// readingWeight, so that none reaches Confident.
const (
	readingWeight  = 0.35
	readingPassage = 8  // passages read, best ranked first
	readingGap     = 12 // characters at most between the subject and the answer
)

// read answers a typed Chinese question from the passages behind the
// retrieved items; it returns no text when no sentence reads so.
//
// Where the index did not read the subject as a person in a sentence (a
// name its recogniser missed: 马哥), reader, when set, reads that
// sentence again with the subject's name given, and the relations it
// finds answer first.
func read(ctx context.Context, src retrieve.Source, reader extract.Extractor, a *retrieve.Analysis, items []retrieve.Item) (string, []kg.Evidence, float64, error) {
	if a.Asks == nil || !chineseQuestion(a) {
		return "", nil, 0, nil
	}
	cue, ok := readingCues[a.Type]
	kin := ""
	if a.Type == retrieve.QKin {
		kin = kinOfLabel[a.Asks.Label]
		ok = kin != ""
	}
	if !ok && reader == nil {
		return "", nil, 0, nil
	}
	f := &factual{src: src, a: a}
	if len(a.Entities) > 0 {
		f.subject = a.Entities[0].Entity
	}
	surfaces := subjectSurfaces(a)
	if len(surfaces) == 0 {
		return "", nil, 0, nil
	}
	var ids []int64
	for _, it := range items {
		if it.Citation != nil && it.Citation.ChunkID > 0 && !slices.Contains(ids, it.Citation.ChunkID) && len(ids) < readingPassage {
			ids = append(ids, it.Citation.ChunkID)
		}
	}
	passages, err := src.Passages(ctx, ids)
	if err != nil {
		return "", nil, 0, err
	}
	by := map[string]*candidate{}
	var order []string
	for pi := range passages {
		p := &passages[pi]
		if p.Orig != nil {
			continue // offsets into the text are not the document's
		}
		rs := []rune(p.Norm)
		var stored []store.TypedMention // the index's mentions, read once needed
		for _, sp := range sentencesOf(p) {
			sen := string(rs[sp.Start:sp.End])
			at, n := firstOf(sen, surfaces)
			if at < 0 {
				continue
			}
			if stored == nil {
				if stored, err = src.MentionsIn(ctx, p.DocID, p.Start, p.End); err != nil {
					return "", nil, 0, err
				}
			}
			ms := stored
			if titleOfAnother(ms, p.Start+sp.Start+at, p.Start+sp.Start+at+n) {
				continue // 齐王广: the subject was 齐王 too, but this one is 田广
			}
			if reader != nil && !personAt(ms, p.Start+sp.Start+at, p.Start+sp.Start+at+n) {
				surface := string(rs[sp.Start+at : sp.Start+at+n])
				var triples []extract.Triple
				if ms, triples, err = reRead(ctx, reader, p, sp, surface); err != nil {
					return "", nil, 0, err
				}
				if vs := relatedIn(a, triples, surface); len(vs) > 0 {
					for _, v := range vs {
						add(by, &order, v, relationWeight, *retrieve.Cite(p, sp))
					}
					continue
				}
			}
			if !ok {
				continue
			}
			from := sp.Start + at + n
			if kin != "" {
				if !strings.ContainsRune(kin, runeAt(rs, from)) {
					continue
				}
				k := -1
				if runeAt(rs, from+1) == '也' {
					// Y…，X弟也: Y is X's younger brother.
					k = firstPerson(ms, p.Start, sp.Start, sp.Start+at)
				} else {
					// X弟Y: Y is.
					k = firstPerson(ms, p.Start, from+1, from+3)
					if k >= 0 && ms[k].Start-p.Start != from+1 {
						k = -1
					}
				}
				if k >= 0 {
					add(by, &order, ms[k].Name, 1, *retrieve.Cite(p, sp))
				}
				continue
			}
			if a.Type == retrieve.QOffice || a.Type == retrieve.QTitle {
				// 江西左丞火你赤: an office or title right before the name
				// is the person's.
				if k := endingAt(ms, p.Start, sp.Start+at, cue.types); k >= 0 {
					m := ms[k]
					add(by, &order, string(rs[m.Start-p.Start:m.End-p.Start]), 1, *retrieve.Cite(p, sp))
					continue
				}
			}
			if strings.ContainsRune(takesObject, runeAt(rs, sp.Start+at-1)) {
				continue
			}
			if k := readAfter(rs, ms, p.Start, from, sp.End, cue); k >= 0 {
				m := ms[k]
				value := string(rs[m.Start-p.Start : m.End-p.Start])
				add(by, &order, value, 1, *retrieve.Cite(p, sp))
			}
		}
	}
	cands := collect(by, order)
	if len(cands) == 0 {
		return "", nil, 0, nil
	}
	slices.SortStableFunc(cands, func(x, y candidate) int {
		switch {
		case x.score > y.score:
			return -1
		case x.score < y.score:
			return 1
		}
		return 0
	})
	keep := 1
	if a.Asks.List {
		keep = min(len(cands), 3)
	}
	values := make([]string, keep)
	var evs []kg.Evidence
	for i, c := range cands[:keep] {
		values[i] = c.value
		evs = append(evs, c.evs[0])
	}
	conf := 1.0
	if len(cands) > 1 {
		conf -= 0.5 * cands[1].score / cands[0].score
	}
	return f.phrase(values, cands[0]), evs, round2(readingWeight * conf), nil
}

// relationWeight is what a relation read again with the subject's name
// given counts for, against 1 for a reading by position alone.
const relationWeight = 1.5

// personAt says a person's mention holds the document span [s, e).
func personAt(ms []store.TypedMention, s, e int) bool {
	for _, m := range ms {
		if m.Type == "人物" && m.Start <= s && m.End >= e {
			return true
		}
	}
	return false
}

// titleOfAnother says the document span [s, e) is held by a longer
// mention, or names a person the index read right after it: a title
// before a given name (齐王广) is that man's, whoever else held it.
func titleOfAnother(ms []store.TypedMention, s, e int) bool {
	for _, m := range ms {
		if m.Start < e && m.End > s && (m.Start < s || m.End > e) || m.Start == e && m.Type == "人物" {
			return true
		}
	}
	return false
}

// reRead extracts one sentence of a passage again with surface read as a
// person: its mentions at document offsets, in order, and its relations
// (offsets into the sentence).
func reRead(ctx context.Context, reader extract.Extractor, p *store.Passage, sp kg.Span, surface string) ([]store.TypedMention, []extract.Triple, error) {
	sen := string([]rune(p.Norm)[sp.Start:sp.End])
	res, err := reader.Extract(ctx, extract.Input{Text: sen, Lang: p.Lang, Names: []string{surface}})
	if err != nil {
		return nil, nil, fmt.Errorf("read %s again with %s as a name: %w", p.Cite, surface, err)
	}
	ms := make([]store.TypedMention, 0, len(res.Entities))
	for _, en := range res.Entities {
		at := p.Start + sp.Start
		ms = append(ms, store.TypedMention{Span: kg.Span{Start: at + en.Span.Start, End: at + en.Span.End}, Surface: en.Text, Type: en.Type, Name: cmp.Or(en.Name, en.Text)})
	}
	slices.SortFunc(ms, func(x, y store.TypedMention) int { return cmp.Compare(x.Start, y.Start) })
	return ms, res.Triples, nil
}

// relatedIn are the values that triples give the subject, written as
// surface, for what the question asks.
func relatedIn(a *retrieve.Analysis, triples []extract.Triple, surface string) []string {
	var out []string
	for _, t := range triples {
		if !slices.Contains(a.Asks.Relations, t.Relation) {
			continue
		}
		v := ""
		switch {
		case !a.Asks.FromTail && t.Head.Text == surface:
			v = t.Tail.Text
		case a.Asks.FromTail && t.Tail.Text == surface:
			v = t.Head.Text
		case symmetric(t.Relation) && t.Tail.Text == surface:
			v = t.Head.Text
		}
		if v != "" && v != surface && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// kinOfLabel are the kin words that, after the subject and before 也,
// make the sentence's first person the subject's kin of that kind.
var kinOfLabel = map[string]string{"弟": "弟", "兄": "兄", "兄弟": "兄弟", "子女": "子女", "儿子": "子女", "孙": "孙"}

// runeAt is the rune at i, or 0 outside rs.
func runeAt(rs []rune, i int) rune {
	if i < 0 || i >= len(rs) {
		return 0
	}
	return rs[i]
}

// firstPerson is the index of the first person mentioned in [from, to)
// (character offsets into a passage at document offset start), or -1.
func firstPerson(ms []store.TypedMention, start, from, to int) int {
	for k, m := range ms {
		if s := m.Start - start; s >= from && m.End-start <= to && m.Type == "人物" {
			return k
		}
	}
	return -1
}

// endingAt is the index of a mention of one of types that ends right at
// character offset at (of a passage at document offset start), or -1.
func endingAt(ms []store.TypedMention, start, at int, types []string) int {
	for k, m := range ms {
		if m.End-start == at && slices.Contains(types, m.Type) {
			return k
		}
	}
	return -1
}

// subjectSurfaces are the ways a sentence may name the subject: as the
// question writes it, and the entity's other names of two characters or
// more.
func subjectSurfaces(a *retrieve.Analysis) []string {
	var out []string
	if a.Asks.Subject != "" {
		out = append(out, a.Asks.Subject)
	}
	if len(a.Entities) > 0 {
		m := a.Entities[0]
		names := append([]string{m.Entity.Name}, m.Aliases...)
		if r := []rune(m.Entity.Name); m.Entity.Type == "人物" && len(r) == 3 && len([]rune(histories.Surname(m.Entity.Name))) == 1 {
			// A two-character given name alone (去病弟也) is his too.
			names = append(names, string(r[1:]))
		}
		for _, s := range names {
			if len([]rune(s)) > 1 && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// firstOf finds the first of the surfaces in s: its character offset and
// length, or -1.
func firstOf(s string, surfaces []string) (int, int) {
	best, n := -1, 0
	for _, w := range surfaces {
		if i := strings.Index(s, w); i >= 0 {
			at := len([]rune(s[:i]))
			if best < 0 || at < best {
				best, n = at, len([]rune(w))
			}
		}
	}
	return best, n
}

// readAfter returns the index of the first mention of the cue's types
// that starts within readingGap characters after from (a character offset
// into rs, the passage at document offset start) and before end, with a
// verb of the cue between and no person between to be its doer; -1 when
// none.
func readAfter(rs []rune, ms []store.TypedMention, start, from, end int, cue readingCue) int {
	for k, m := range ms {
		s, e := m.Start-start, m.End-start
		if s < from {
			continue
		}
		if e > end || s-from > readingGap {
			break
		}
		between := string(rs[from:s])
		if strings.ContainsAny(between, "。；") {
			break
		}
		if m.Type == "人物" && !slices.Contains(cue.types, "人物") {
			break // 遣Y攻Z: Y does it
		}
		if slices.Contains(cue.types, m.Type) && strings.ContainsAny(between, cue.verbs) && (!cue.viaYu || viaYu(between, cue.verbs)) {
			// 击辽都统马哥: the person named right after his title is the
			// one meant.
			if k+1 < len(ms) && ms[k+1].Start == m.End && ms[k+1].Type == "人物" && m.Type != "人物" && slices.Contains(cue.types, "人物") {
				return k + 1
			}
			return k
		}
		if m.Type == "人物" {
			break
		}
	}
	return -1
}

// viaYu says whether between ends with one of verbs and 于 or 於.
func viaYu(between, verbs string) bool {
	rs := []rune(between)
	n := len(rs)
	return n >= 2 && (rs[n-1] == '于' || rs[n-1] == '於') && strings.ContainsRune(verbs, rs[n-2])
}
