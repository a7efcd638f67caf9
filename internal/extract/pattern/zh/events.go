package zh

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/histories"
)

// tEvent is a named event: a battle, a banquet, a rising, a purge.
const tEvent = "事件"

// A battle is read where the text fights at a place: 战於赤壁, 败于官渡,
// 破袁绍於官渡, 相拒於官渡. The place names the battle (赤壁之战), and the
// battle is a mention at the place's span, so its statements cite the
// sentence that tells it: where (发生地点), when (发生时间, with a time in
// the sentence; dating gives every statement its year besides), who fought
// (参与) and, where the verb says so, who won (胜) and who lost (败).
// Named battles (官渡之战, 长平之役) are read as written.

// battleVerbs are fights at a place, longest first, with the role they
// give the subject and their object: win (破), lose (败 with no object),
// or fight (战).
var battleVerbs = []struct {
	w    string
	role string
}{
	{"大破", "破"}, {"击破", "破"}, {"攻破", "破"}, {"破", "破"}, {"克", "破"}, {"败", "败"},
	{"相拒", "战"}, {"相持", "战"}, {"大战", "战"}, {"合战", "战"}, {"交战", "战"}, {"会战", "战"},
	{"战", "战"}, {"拒", "战"}, {"遇", "战"},
}

// battleSuffixes name an event after a place: 官渡之战, 鄢陵之役.
var battleSuffixes = []string{"之战", "之役"}

// eventPhrase is a phrase that mentions a named event, which happened
// under one of dynasties (none: any).
type eventPhrase struct {
	phrase, name string
	dynasties    []string
}

// eventPhrases are read from lexicon/events.txt, longest phrase first.
var eventPhrases = sync.OnceValue(func() []eventPhrase {
	var out []eventPhrase
	for _, l := range lines("events.txt") {
		f := strings.Fields(l)
		var under []string
		if d, ok := strings.CutPrefix(f[len(f)-1], "@"); ok {
			under, f = strings.Split(d, ","), f[:len(f)-1]
		}
		for _, p := range f[1:] {
			out = append(out, eventPhrase{p, f[0], under})
		}
	}
	// Longest first, so 党锢之祸 is read before 党锢.
	slices.SortStableFunc(out, func(a, b eventPhrase) int {
		return utf8.RuneCountInString(b.phrase) - utf8.RuneCountInString(a.phrase)
	})
	return out
})

// readEvents reads battles and named events; it runs after the other rules,
// so that the new mentions touch none of them.
func (x *run) readEvents(ss []sentence) {
	x.namedEvents(ss)
	for _, sen := range ss {
		for i := sen.s; i < sen.e; i++ {
			k := x.startsAt(i)
			if k < 0 || x.ents[k].typ != tLoc {
				continue
			}
			place := x.ents[k]
			if x.namedBattle(k, sen) {
				i = place.e - 1
				continue
			}
			switch x.at(i - 1) {
			case '于', '於':
				x.battleAt(k, sen, place.s-1, false)
			case '至', '到', '次':
				x.battleOnArrival(k, sen)
			default:
				if x.beneath(place.e) {
					// 羽大破秦军巨鹿下, 大破之蓝田南: a rout written
					// with the place after its object, no 於.
					x.battleAt(k, sen, place.s, true)
				}
			}
			i = place.e - 1
		}
	}
}

// namedEvents reads the phrases of lexicon/events.txt: the event, when the
// sentence names a time, and the sentence's first person or group as one
// who took part.
func (x *run) namedEvents(ss []sentence) {
	text := string(x.rs)
	taken := map[int]bool{}
	path := x.docPath()
	for _, p := range eventPhrases() {
		if !x.plain && !tellsAny(path, p.dynasties) {
			continue // 救钜鹿 in 后汉书 is another fight
		}
		from := 0
		for {
			b := strings.Index(text[from:], p.phrase)
			if b < 0 {
				break
			}
			b += from
			from = b + len(p.phrase)
			s := utf8.RuneCountInString(text[:b])
			e := s + utf8.RuneCountInString(p.phrase)
			if taken[s] || taken[e-1] {
				continue
			}
			for i := s; i < e; i++ {
				taken[i] = true
			}
			sen := sentOf(ss, s)
			if sen.s < 0 {
				continue
			}
			if strings.ContainsAny(string(x.rs[max(sen.s, s-3):s]), "昔犹如若") || x.toldOf(sen.s, s) || strings.ContainsRune("解除释赦", x.at(s-1)) {
				// 昔鸿门之会, 为我言李齐之贤，战於钜鹿下: a speaker
				// recalls it or tells of it; he was not there, and the
				// sentence's time is the telling's (中平元年…吕强言于帝曰：
				// 党锢久积), as it is the end's in 解党锢.
				ev := x.addEvent(s, e, p.name)
				if pl := x.placeWithin(s, e); pl >= 0 {
					x.rels = append(x.rels, rel{h: ev, t: pl, r: "发生地点"})
				}
				continue
			}
			ev := x.event(s, e, p.name, x.placeWithin(s, e), sen)
			if who := x.topic(sen, s); who >= 0 {
				x.rels = append(x.rels, rel{h: who, t: ev, r: "参与"})
			}
		}
	}
}

// placeWithin is the place mention inside a phrase that names an event
// (至鸿门, 救钜鹿): where it happened; -1 when there is none.
func (x *run) placeWithin(s, e int) int {
	if x.plain {
		return -1
	}
	for i := s; i < e; i++ {
		if k := x.startsAt(i); k >= 0 && x.ents[k].typ == tLoc && x.ents[k].e <= e {
			return k
		}
	}
	return -1
}

// toldOf says whether runes [s, e) of a sentence speak or hear of what
// follows (为我言…战於钜鹿下): the sentence's first person tells of the
// fight and was not in it.
func (x *run) toldOf(s, e int) bool {
	return !x.plain && strings.ContainsAny(string(x.rs[s:e]), "言曰谓闻")
}

// tellsAny says whether the chapter at path may tell what happened under
// one of dynasties; with none, anything.
func tellsAny(path string, dynasties []string) bool {
	for _, d := range dynasties {
		if histories.Tells(path, d) {
			return true
		}
	}
	return len(dynasties) == 0
}

// namedBattle reads 官渡之战: the event is the whole name.
func (x *run) namedBattle(k int, sen sentence) bool {
	place := x.ents[k]
	for _, suf := range battleSuffixes {
		if !hasAt(x.rs, place.e, suf) {
			continue
		}
		name := place.canonical(x.rs) + "之战"
		x.event(place.s, place.e+len([]rune(suf)), name, k, sen)
		return true
	}
	return false
}

// beneath says whether the runes from i say where by a place (巨鹿下,
// 蓝田南, 城阳城下) and end the clause.
func (x *run) beneath(i int) bool {
	if x.at(i) == '城' {
		i++
	}
	if !strings.ContainsRune("下南北东西", x.at(i)) {
		return false
	}
	return x.boundary(i + 1)
}

// battleAt reads a fight at the place mention k: the verb before rune at
// (the 于 or 於 before the place, or the place itself where none is
// written), its object, and its subject. With routed, only a rout of a
// named side counts (大破秦军巨鹿下), not a bare fight.
func (x *run) battleAt(k int, sen sentence, at int, routed bool) {
	place := x.ents[k]
	ci := x.clauseAt(place.s)
	lo := sen.s
	if ci >= 0 && x.cls[ci].s > lo {
		lo = x.cls[ci].s
	}
	// The verb is right before 于, or before the object right before it
	// (破袁绍於官渡, 拒曹公於赤壁).
	var objs []int
	objected := false
	for j := at - 1; j >= lo && j >= at-8; j-- {
		if k2 := x.endsAt(j + 1); k2 >= 0 && (x.ents[k2].typ == tPer || x.ents[k2].typ == tGrp) {
			objs = append(objs, k2)
			j = x.ents[k2].s
			for x.at(j-1) == '、' {
				if k3 := x.endsAt(j - 1); k3 >= 0 && (x.ents[k3].typ == tPer || x.ents[k3].typ == tGrp) {
					objs = append(objs, k3)
					j = x.ents[k3].s
					continue
				}
				break
			}
			at = j
			break
		}
		if x.cov[j] != 0 || x.boundary(j) {
			break
		}
		if x.at(j) == '军' || x.at(j) == '之' || x.at(j) == '其' {
			// 大破绍军於官渡, 败之於乌林: the object is an army or a pronoun.
			objected = true
			continue
		}
		break
	}
	role := ""
	vEnd := at
	for j := at; j > lo && j >= at-3 && role == ""; j-- {
		for _, v := range battleVerbs {
			if strings.HasSuffix(string(x.rs[lo:j]), v.w) && x.free(j-len([]rune(v.w)), j) {
				role, vEnd = v.role, j
				at = j - len([]rune(v.w))
				break
			}
		}
	}
	if role == "" || vEnd < place.s-10 || routed && (role != "破" || len(objs) == 0 && !objected) {
		return
	}
	if role == "败" && len(objs) > 0 {
		role = "破" // 败之於乌林: defeated them
	}
	if role == "战" {
		if routed, losers := x.routAfter(place.e, sen); routed {
			// 遇於赤壁，大破曹公军: the subject won.
			role, objs = "破", append(objs, losers...)
		}
	}
	ev := x.event(place.s, place.e, place.canonical(x.rs)+"之战", k, sen)
	// 与曹公战於赤壁: the one fought with took part too, and the subject
	// stands before 与.
	var partners []int
	subjAt := at
	for j := at - 1; j >= lo; j-- {
		if x.at(j) != '与' {
			continue
		}
		ps := x.objects(j+1, sen, tPer+tGrp)
		if len(ps) > 0 && x.ents[ps[len(ps)-1]].e >= at-1 {
			partners, subjAt = ps, j
		}
		break
	}
	head := x.subject(subjAt, sen, true)
	if head < 0 && !x.toldOf(sen.s, subjAt) {
		head = x.topic(sen, subjAt)
	}
	for _, o := range partners {
		if o != head {
			r := "参与"
			if role == "破" {
				r = "败" // 与曹公战於赤壁，大破之
			}
			x.rels = append(x.rels, rel{h: x.aliasHead(o), t: ev, r: r})
		}
	}
	if head >= 0 {
		switch role {
		case "破":
			x.rels = append(x.rels, rel{h: head, t: ev, r: "胜"})
		case "败":
			x.rels = append(x.rels, rel{h: head, t: ev, r: "败"})
		default:
			x.rels = append(x.rels, rel{h: head, t: ev, r: "参与"})
		}
	}
	for _, o := range objs {
		if o == head {
			continue
		}
		if role == "破" {
			x.rels = append(x.rels, rel{h: x.aliasHead(o), t: ev, r: "败"})
		} else {
			x.rels = append(x.rels, rel{h: x.aliasHead(o), t: ev, r: "参与"})
		}
	}
}

// routWords say in the clause after a fight that the subject won it.
var routWords = []string{"大破", "击破", "破", "大败"}

// routAfter reads the clauses after a fight at a place, up to routReach
// of them in the sentence (…於赤壁，大破之; 相持于官渡，奇袭乌巢，焚其辎重，
// 大破绍军): whether one opens by saying the subject routed the other side,
// and whom it names. A clause that names a new doer first ends the search.
func (x *run) routAfter(i int, sen sentence) (bool, []int) {
	for n := 0; n < routReach; n++ {
		for i < sen.e && x.at(i) != '，' {
			i++
		}
		if i >= sen.e {
			return false, nil
		}
		i++
		if k := x.startsAt(i); k >= 0 && (x.ents[k].typ == tPer || x.ents[k].typ == tGrp) {
			return false, nil
		}
		for _, w := range routWords {
			if !hasAt(x.rs, i, w) || !x.free(i, i+len([]rune(w))) {
				continue
			}
			j := i + len([]rune(w))
			if x.at(j) == '之' {
				return true, nil
			}
			objs := x.objects(j, sen, tPer+tGrp)
			if len(objs) == 0 {
				return false, nil
			}
			for k, o := range objs {
				objs[k] = x.aliasHead(o)
			}
			return true, objs
		}
	}
	return false, nil
}

// routReach is how many clauses after a fight may tell who won it.
const routReach = 3

// battleOnArrival reads 公至赤壁，与备战: a fight right after arriving at
// a place is fought there.
func (x *run) battleOnArrival(k int, sen sentence) {
	place := x.ents[k]
	j := place.e
	if x.at(j) == '，' {
		j++
	}
	var partners []int
	if x.at(j) == '与' {
		partners = x.objects(j+1, sen, tPer+tGrp)
		if len(partners) == 0 {
			return
		}
		j = x.ents[partners[len(partners)-1]].e
	}
	fought := false
	for _, w := range []string{"大战", "合战", "交战", "战"} {
		if hasAt(x.rs, j, w) && x.free(j, j+len([]rune(w))) {
			fought = true
			break
		}
	}
	if !fought {
		return
	}
	ev := x.event(place.s, place.e, place.canonical(x.rs)+"之战", k, sen)
	head := x.subject(place.s-1, sen, true)
	if head < 0 {
		head = x.topic(sen, place.s)
	}
	if head >= 0 {
		x.rels = append(x.rels, rel{h: head, t: ev, r: "参与"})
	}
	for _, o := range partners {
		if o != head {
			x.rels = append(x.rels, rel{h: x.aliasHead(o), t: ev, r: "参与"})
		}
	}
}

// eventTime is the time an event's sentence names before it, when it
// names a year (建安五年, 其年): 建安中 says too little to date a battle.
func (x *run) eventTime(i int, sen sentence) int {
	tm := x.timeNear(i, sen)
	if tm < 0 || !strings.ContainsAny(string(x.rs[x.ents[tm].s:x.ents[tm].e]), "年岁") {
		return -1
	}
	return tm
}

// topic is the first person or group of the sentence before rune i, the
// doer of clauses that name none (绍不听，遂败于官渡), or -1.
func (x *run) topic(sen sentence, i int) int {
	for _, k := range x.order {
		en := x.ents[k]
		if en.s >= i {
			break
		}
		if en.s >= sen.s && (en.typ == tPer || en.typ == tGrp) {
			if x.isAliasTail(k) {
				return x.aliasHead(k)
			}
			return k
		}
	}
	return -1
}

// event adds an event mention over s..e named name, with its place (the
// mention place, unless -1) and the year its sentence names before it.
func (x *run) event(s, e int, name string, place int, sen sentence) int {
	ev := x.addEvent(s, e, name)
	if place >= 0 {
		x.rels = append(x.rels, rel{h: ev, t: place, r: "发生地点"})
	}
	if tm := x.eventTime(s, sen); tm >= 0 {
		x.rels = append(x.rels, rel{h: ev, t: tm, r: "发生时间"})
	}
	return ev
}

// addEvent adds an event mention over s..e named name, outside the
// coverage the other rules read, and returns its index.
func (x *run) addEvent(s, e int, name string) int {
	// A phrase of a named event already read over the span is the event
	// (战於钜鹿 is 巨鹿之战).
	for _, k := range x.events {
		if en := x.ents[k]; en.s < e && s < en.e {
			return k
		}
	}
	x.events = append(x.events, len(x.ents))
	x.ents = append(x.ents, ent{s: s, e: e, typ: tEvent, name: name})
	k := len(x.ents) - 1
	x.order = append(x.order, k)
	return k
}
