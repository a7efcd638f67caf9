package zh

import (
	"slices"
	"sort"
	"strings"

	"github.com/annals-project/annals/internal/extract"
)

// Entity types of the zh-history schema.
const (
	tPer   = "人物"
	tGrp   = "社会集团"
	tLoc   = "地点"
	tTime  = "时间"
	tOff   = "职官"
	tTitle = "爵位"
	tBook  = "文献"
	// offPre marks a bureau or rank while it waits for its office; it
	// never leaves recognise.
	offPre = "offPre"
)

// ent is a mention while the chunk is being read.
type ent struct {
	s, e int
	typ  string
	name string // canonical name when it differs from the text
}

// run holds the state of one Extract call.
type run struct {
	rs    []rune
	lex   *trie
	ents  []ent
	cov   []int32 // entity index + 1 covering each rune, 0 when free
	doc   *extract.DocContext
	first map[rune]bool // first runes of short names known in the document
	buf   []match
	rels  []rel
	kins  []kin
	inKin []bool // runes inside a kinship word, built when first needed
	// bigrams counts each pair of runes, built when first needed.
	bigrams map[[2]rune]int32
	cls     []clause
	order   []int // live mentions by position
	// posths are posthumous names (谥曰忠) waiting for their owner.
	posths []int
	// posthNamed are the owners the formulas of posthumous names name.
	posthNamed map[int]namedOwner

	aliasOwner int
	// called are the mentions whose title this document records as an
	// alias of the person it stands for, with the alias kind.
	called   []calledAt
	subjects map[string]bool // persons the chapter is about (doc.Subjects)
	lives    []life          // where this text begins a life (livesJoined)
	// taught are the given names this text taught the document (learn),
	// which the recogniser may unteach; earlier chunks' stay.
	taught map[string]bool
	// events are the event mentions read last (readEvents).
	events []int
	// plain is set when the rules read for a learned recogniser's
	// training (Plain).
	plain bool
}

func (x *run) at(i int) rune {
	if i < 0 || i >= len(x.rs) {
		return 0
	}
	return x.rs[i]
}

// boundary reports whether rune i is outside the text or not a Han
// character (a pause, quote or bracket).
func (x *run) boundary(i int) bool {
	return i < 0 || i >= len(x.rs) || !isHan(x.rs[i])
}

func (x *run) free(s, e int) bool {
	if s < 0 || e > len(x.rs) || s >= e {
		return false
	}
	for i := s; i < e; i++ {
		if x.cov[i] != 0 {
			return false
		}
	}
	return true
}

// add records a mention over free runes and returns its index, or -1.
func (x *run) add(s, e int, typ, name string) int {
	if !x.free(s, e) {
		return -1
	}
	x.ents = append(x.ents, ent{s: s, e: e, typ: typ, name: name})
	k := int32(len(x.ents))
	for i := s; i < e; i++ {
		x.cov[i] = k
	}
	if typ == tPer {
		x.learn(s, e, name)
	}
	return int(k - 1)
}

// entAt returns the index of the mention covering rune i, or -1.
func (x *run) entAt(i int) int {
	if i < 0 || i >= len(x.rs) {
		return -1
	}
	return int(x.cov[i]) - 1
}

// endsAt returns the mention that ends right before rune i, or -1.
func (x *run) endsAt(i int) int {
	k := x.entAt(i - 1)
	if k >= 0 && x.ents[k].e == i {
		return k
	}
	return -1
}

// startsAt returns the mention that starts at rune i, or -1.
func (x *run) startsAt(i int) int {
	k := x.entAt(i)
	if k >= 0 && x.ents[k].s == i {
		return k
	}
	return -1
}

// surnameLen returns the length of the surname a full name starts with
// (compound first), or 0.
func (x *run) surnameLen(rs []rune) int {
	best := 0
	x.buf = x.lex.walk(rs, 0, x.buf[:0])
	for _, m := range x.buf {
		if m.flags&fSur != 0 && m.n < len(rs) {
			best = m.n
		}
	}
	return best
}

// learn remembers a full name's given name for the rest of the document.
func (x *run) learn(s, e int, name string) {
	if name != "" || e-s < 2 || e-s > 4 {
		return
	}
	full := x.rs[s:e]
	sl := x.surnameLen(full)
	if sl == 0 || e-s-sl < 1 || e-s-sl > 2 {
		return
	}
	given := full[sl:]
	// The trainer's rules (plain) still learn 媪, as the shipped model
	// was taught.
	if len(given) == 1 && (noSingle.has(given[0]) || !x.plain && oldAge.has(given[0])) {
		return
	}
	fs := string(full)
	if x.doc.Names[string(given)] != fs {
		if x.taught == nil {
			x.taught = map[string]bool{}
		}
		x.taught[string(given)] = true
	}
	x.doc.Names[string(given)] = fs
	x.doc.Types[fs] = tPer
	x.first[given[0]] = true
}

// seedTitle registers the persons a biography's title names.
func (x *run) seedTitle(title string) {
	title = strings.TrimSuffix(strings.TrimSpace(title), "传")
	rs := []rune(title)
	for i := 0; i < len(rs); {
		x.buf = x.lex.walk(rs, i, x.buf[:0])
		n := 0
		for _, m := range x.buf {
			if m.flags&fPer != 0 {
				n = m.n
			}
		}
		if n == 0 {
			i++
			continue
		}
		name := string(rs[i : i+n])
		if full, ok := titleSubjects[name]; ok {
			x.doc.Names[name] = full
			x.doc.Types[full] = tPer
		} else {
			sl := x.surnameLen(rs[i : i+n])
			if sl > 0 && n-sl >= 1 && n-sl <= 2 {
				g := rs[i+sl : i+n]
				if !(len(g) == 1 && noSingle.has(g[0])) {
					x.doc.Names[string(g)] = name
					x.first[g[0]] = true
				}
				x.doc.Types[name] = tPer
				x.subjects[name] = true
			}
		}
		i += n
	}
}

// titleSubjects names the rulers that chapter titles call by title.
var titleSubjects = map[string]string{
	"先主": "刘备",
	"后主": "刘禅",
	"吴主": "孙权",
}

func newRun(text string, doc *extract.DocContext) *run {
	x := &run{rs: []rune(text), lex: lexicon(), first: map[rune]bool{}}
	x.cov = make([]int32, len(x.rs))
	if doc == nil {
		doc = extract.NewDocContext("", "", nil)
	}
	if doc.Names == nil {
		doc.Names = map[string]string{}
	}
	if doc.Types == nil {
		doc.Types = map[string]string{}
	}
	if doc.Designations == nil {
		doc.Designations = map[string]*extract.Designation{}
	}
	if doc.Subjects == nil {
		doc.Subjects = map[string]bool{}
	}
	x.doc = doc
	x.subjects = doc.Subjects
	for g, full := range doc.Names {
		if g != full {
			if r := []rune(g); len(r) > 0 {
				x.first[r[0]] = true
			}
		}
	}
	if doc.Title != "" {
		x.seedTitle(doc.Title)
	}
	return x
}

// recognise finds every mention in the text.
func (x *run) recognise() {
	x.scan()
	x.titles()
	x.mergeOffices()
	x.context()
	x.sortOrder()
}

// sortOrder lists the live mentions by position.
func (x *run) sortOrder() {
	x.order = x.order[:0]
	for k, e := range x.ents {
		if e.s >= 0 {
			x.order = append(x.order, k)
		}
	}
	sort.Slice(x.order, func(a, b int) bool { return x.ents[x.order[a]].s < x.ents[x.order[b]].s })
}

// kindOf turns lexicon flags into a mention type; "stop" blocks names.
func kindOf(f uint32) string {
	switch {
	case f&fPer != 0:
		return tPer
	case f&fOff != 0:
		return tOff
	case f&fTitle != 0:
		return tTitle
	case f&fLoc != 0:
		return tLoc
	case f&fGrp != 0:
		return tGrp
	case f&fTitleEnd != 0:
		return "titleEnd"
	case f&fStop != 0:
		return "stop"
	case f&fOffPre != 0:
		return offPre
	}
	return ""
}

// scan reads mentions left to right, longest first.
func (x *run) scan() {
	rs := x.rs
	n := len(rs)
	var ms []match
	for i := 0; i < n; {
		r := rs[i]
		if r == '《' || r == '〈' {
			if l := x.bracketed(i); l > 0 {
				i += l
				continue
			}
		}
		if !isHan(r) {
			i++
			continue
		}
		ms = x.lex.walk(rs, i, ms[:0])
		if l := x.timeAt(i, ms); l > 0 {
			x.add(i, i+l, tTime, "")
			i += l
			continue
		}
		if l := x.bookAt(i, ms); l > 0 {
			x.add(i, i+l, tBook, "")
			i += l
			continue
		}
		var best match
		kind := ""
		for k := len(ms) - 1; k >= 0; k-- {
			if kd := kindOf(ms[k].flags); kd != "" {
				best, kind = ms[k], kd
				break
			}
		}
		if best.flags&fOffPre != 0 && kind != offPre && x.officeAt(i+best.n) {
			// 征东大将军: a rank, though 征东 names a place too.
			kind = offPre
		}
		if l := x.rulerAt(i); l > best.n {
			// 孝闵帝: two posthumous characters and 帝.
			x.add(i, i+l, tPer, "")
			i += l
			continue
		}
		pl, pname := x.personAt(i, ms)
		if kind == "stop" && pl > best.n {
			// 以文章显: the word is not a surname and a name.
			if _, known := x.doc.Types[string(rs[i:i+pl])]; !known {
				pl = 0
			}
		}
		if kind == tPer && best.n >= 2 && pl > best.n {
			// 文宗性, 高祖许之: a ruler's title is not a surname.
			if _, known := x.doc.Types[string(rs[i:i+pl])]; !known {
				pl = 0
			}
		}
		if pl > 0 && pl > best.n {
			x.add(i, i+pl, tPer, pname)
			i += pl
			continue
		}
		if kind == tOff && pl == best.n && pl > 0 && best.flags&fSur != 0 {
			// 司马 and the like: a name when the context says so.
			x.add(i, i+pl, tPer, pname)
			i += pl
			continue
		}
		switch kind {
		case "stop":
			// Not a name, but 魏王 is still a title.
			if l := x.stateAt(i, ms); l > 0 {
				i += l
				continue
			}
			i += best.n
			continue
		case tOff:
			s := i
			if x.at(i+best.n) == '府' && !x.officeAt(i+best.n+1) {
				// 元帅府: the office's seat, not an office held.
				i += best.n + 1
				continue
			}
			if w := string(rs[i : i+best.n]); (w == "百户" || w == "千户" || w == "万户") && numeral.has(x.at(i-1)) {
				i += best.n
				continue
			}
			if best.flags&fGenEnd != 0 {
				s = x.modifiers(i)
			} else {
				x.placeBefore(i, i+best.n)
			}
			x.add(s, i+best.n, tOff, "")
			i += best.n
			continue
		case "titleEnd":
			if s := x.titlePlace(i); s < i {
				x.add(s, i+best.n, tTitle, "")
			}
			i += best.n
			continue
		case tLoc:
			l := best.n
			if c := x.at(i + l); (c == '郡' || c == '县' || c == '州') && !x.officeAt(i+l) && !strings.ContainsRune("王公侯伯子男君", x.at(i+l+1)) {
				l++
			}
			x.add(i, i+l, tLoc, "")
			i += l
			continue
		case tPer, tTitle, tGrp:
			if kind == tPer && best.n == 1 && !((x.boundary(i-1) || precedePer.has(x.at(i-1))) && (x.boundary(i+1) || followPer.has(x.at(i+1)))) {
				// 尧山 is a place; 尧 alone needs a name's context.
				break
			}
			x.add(i, i+best.n, kind, "")
			i += best.n
			continue
		case offPre:
			if x.officeAt(i+best.n) || x.lex.lookup(rs[i+best.n:min(len(rs), i+best.n+1)])&fOffPre != 0 || x.offPreAt(i+best.n) {
				x.add(i, i+best.n, offPre, "")
				i += best.n
				continue
			}
		}
		if l := x.shortName(i); l > 0 {
			i += l
			continue
		}
		if l := x.placeAfter(i); l > 0 {
			x.add(i, i+l, tLoc, "")
			i += l
			continue
		}
		if l := x.placeSuffix(i); l > 0 {
			x.add(i, i+l, tLoc, "")
			i += l
			continue
		}
		if l := x.stateAt(i, ms); l > 0 {
			i += l
			continue
		}
		if x.ctxOffice(i, ms) {
			i++
			continue
		}
		i++
	}
}

// bracketed reads a work title in 《》 (or a name in 〈〉, which some
// editions use for restored characters: it is left alone).
func (x *run) bracketed(i int) int {
	open := x.rs[i]
	if open != '《' {
		return 0
	}
	for j := i + 1; j < len(x.rs) && j-i <= 40; j++ {
		switch x.rs[j] {
		case '》':
			if j > i+1 {
				x.add(i+1, j, tBook, "")
				return j - i + 1
			}
			return 0
		case '《', '\n', '。':
			return 0
		}
	}
	return 0
}

func (x *run) numeralsFrom(j int) int {
	k := j
	for k < len(x.rs) && numeral.has(x.rs[k]) {
		k++
	}
	return k
}

// timeAt reads a time expression: an era with its year, a bare year after
// a pause, 是岁, 明年 …, then a season, a month and a cyclical day.
func (x *run) timeAt(i int, ms []match) int {
	rs := x.rs
	j := -1
	for k := len(ms) - 1; k >= 0; k-- {
		if ms[k].flags&fEra != 0 {
			e := i + ms[k].n
			if x.at(e) == '元' && x.at(e+1) == '年' {
				j = e + 2
			} else if k2 := x.numeralsFrom(e); k2 > e && x.at(k2) == '年' {
				j = k2 + 1
			} else if x.at(e) == '初' || x.at(e) == '中' || x.at(e) == '末' {
				if x.boundary(e+1) || x.at(e+1) == '，' {
					j = e + 1
				}
			}
			if j > 0 {
				break
			}
		}
	}
	if j < 0 {
		prevOK := x.boundary(i-1) || strings.ContainsRune("是其明至及于於以迄自", x.at(i-1))
		switch {
		case numeral.has(rs[i]) && prevOK:
			if k := x.numeralsFrom(i); x.at(k) == '年' {
				j = k + 1
			} else if x.at(k) == '月' && x.boundary(i-1) {
				j = k + 1
			}
		case rs[i] == '正' && x.at(i+1) == '月' && x.boundary(i-1):
			j = i + 2
		case rs[i] == '闰' && x.boundary(i-1):
			if k := x.numeralsFrom(i + 1); x.at(k) == '月' {
				j = k + 1
			}
		}
		if j < 0 {
			two := string(rs[i:min(i+2, len(rs))])
			three := string(rs[i:min(i+3, len(rs))])
			switch {
			case three == "其明年" || three == "明年春" && false:
				j = i + 3
			case two == "是岁" || two == "是年" || two == "其年" || two == "明年" || two == "明岁" || two == "翌年" || two == "来年" || two == "是月" || two == "其月" || two == "是日" || two == "即日" && !x.plain:
				j = i + 2
			case two == "时年" || (two == "年" && false):
				if k := x.numeralsFrom(i + 2); k > i+2 {
					if x.at(k) == '岁' {
						k++
					}
					return k - i
				}
				return 0
			}
			if j < 0 {
				return 0
			}
		}
	}
	// Season, month, day.
	if seasons.has(x.at(j)) && (x.boundary(j+1) || x.at(j+1) == '正' || numeral.has(x.at(j+1)) || x.at(j+1) == '闰') {
		j++
	}
	if x.at(j) == '正' && x.at(j+1) == '月' {
		j += 2
	} else if x.at(j) == '闰' {
		if k := x.numeralsFrom(j + 1); k > j+1 && x.at(k) == '月' {
			j = k + 1
		}
	} else if k := x.numeralsFrom(j); k > j && k-j <= 2 && x.at(k) == '月' {
		j = k + 1
	}
	if stems.has(x.at(j)) && branch.has(x.at(j+1)) {
		j += 2
		if x.at(j) == '朔' || x.at(j) == '晦' {
			j++
		}
	}
	return j - i
}

// personAt reads a surname and a one- or two-character given name at rune
// i, checking the context; it returns the length and canonical name.
func (x *run) personAt(i int, ms []match) (int, string) {
	best, bestScore := 0, 0
	for _, m := range ms {
		if m.flags&fSur == 0 {
			continue
		}
		risky := m.flags&fSurRisky != 0
		if m.n == 1 && stems.has(x.rs[i]) && branch.has(x.at(i+1)) {
			// 丁亥, 辛丑: a day of the cycle.
			continue
		}
		if m.n == 1 && strings.ContainsRune("王公侯", x.rs[i]) {
			// 河间王孝恭: the 王 closes a title.
			if k := x.endsAt(i); k >= 0 && (x.ents[k].typ == tLoc || x.ents[k].typ == tGrp) {
				continue
			}
		}
		// 宋平, 齐受禅: a state's name before a verb; 晋公护: a title.
		state := m.n == 1 && x.lex.lookup(x.rs[i:i+1])&fState != 0
		if state && strings.ContainsRune("王公侯伯", x.at(i+1)) {
			continue
		}
		oneNext := 0 // what the rune after a one-rune given name scored
		oneOK := false
		for g := 1; g <= 2; g++ {
			e := i + m.n + g
			if e > len(x.rs) {
				break
			}
			c := x.rs[e-1]
			if !isHan(c) {
				break
			}
			soft := false
			if noGiven.has(c) {
				// 守, 至, 从 open two-character given names (李守贞,
				// 萧至忠) and 之 often ends one (刘牢之): only with a
				// safe surname and a clear end.
				if risky || !(g == 1 && softFirst.has(c) || g == 2 && softSecond.has(c)) {
					break
				}
				soft = true
			}
			if g == 1 && noSingle.has(c) {
				continue
			}
			if x.wordAt(i + m.n) {
				break
			}
			pen := risky && !(x.boundary(i-1) || x.endsAt(i) >= 0)
			if g == 2 && placeEnd.has(c) {
				break
			}
			if g == 2 && finalVerb.has(c) && (x.boundary(e) || x.at(e) == '，') {
				// 子皇仆立。: the name ends before the verb.
				if _, known := x.doc.Types[string(x.rs[i:e])]; !known {
					break
				}
			}
			sc, nx := x.nameScore(i, e, m.n, pen)
			if g == 1 {
				oneNext = nx
				if verbish.has(x.at(e)) && nx == 0 {
					oneNext = 1
				}
			}
			if soft && (g == 1 || nx < 1 || x.rs[e-2] == '之') {
				continue
			}
			if sc < 2 || state && g == 1 && sc < 3 {
				continue
			}
			if g == 1 {
				oneOK = true
			}
			if g == 2 && oneOK && oneNext >= 1 && !strings.ContainsRune("、曰等字", x.at(e)) {
				// 刘备遂, 杨矩持节: a valid short name followed by a verb
				// wins unless the long one is known or a list goes on.
				if _, known := x.doc.Types[string(x.rs[i:e])]; !known {
					continue
				}
			}
			if sc > bestScore || (g == 2 && sc == bestScore && oneNext == 0) || g == 2 && sc >= bestScore-1 && strings.ContainsRune("、曰等字", x.at(e)) {
				best, bestScore = e-i, sc
			}
		}
	}
	if best == 0 {
		return 0, ""
	}
	return best, ""
}

var (
	// finalVerb close a clause after a name (子某立, 某卒); a name seldom
	// ends in them.
	finalVerb = set("立卒死薨崩降叛走败亡反嗣还归至免")
	// softFirst may open a two-character given name though they are
	// common words; softSecond may close one.
	softFirst  = set("守至从云国万民臣师承可自")
	softSecond = set("之臣国民云")
	// verbish after a one-character given name suggest that the name
	// ended there (杨矩持节, 李勣亡).
	verbish = set("持感亡代赴擢免贬削偕会犹抑虑须营议掠奉事朝据留领受发迎拒斩获降叛赐镇移遇与率遣使乃遂击攻破讨杀闻谓至入还奔卒薨死常登督后尝素每亦皆俱即既分愈召署")
)

// wordAt reports whether a known word of two or more runes, other than a
// surname, starts at rune i (so 于晋阳 is not a name).
func (x *run) wordAt(i int) bool {
	x.buf = x.lex.walk(x.rs, i, x.buf[:0])
	for _, m := range x.buf {
		if m.n >= 2 && m.flags&(fLoc|fGrp|fOff|fTitle|fStop|fEra|fPer) != 0 {
			return true
		}
	}
	return false
}

// nameScore rates rs[s:e] as a person's name by its neighbours; it also
// returns what the rune after the name scored. sl is the surname's length.
func (x *run) nameScore(s, e, sl int, risky bool) (int, int) {
	sc := 0
	prev := x.at(s - 1)
	if k := x.endsAt(s); k >= 0 && (x.ents[k].typ == tOff || x.ents[k].typ == tTitle) {
		sc += 3
	} else if x.boundary(s-1) || precedePer.has(prev) || k >= 0 {
		sc++
	}
	next := x.at(e)
	nx := 0
	switch {
	case x.boundary(e) || strongFollow.has(next):
		nx = 2
	case followPer.has(next) || verbAfter.has(next):
		nx = 1
	case appointers.has(prev) && (x.officeAt(e) || x.offPreAt(e)):
		// 拜韩熙载中书侍郎: an office after the name.
		nx = 1
	}
	sc += nx
	if risky {
		sc--
	}
	if rare(x.rs[e-1]) {
		// 王罴, 崔琰: an uncommon character is most often a name.
		sc++
	}
	if _, ok := x.doc.Types[string(x.rs[s:e])]; ok {
		sc += 3
	} else if e-s-sl == 2 && x.repeats(s+sl, e) {
		// 王重荣 … 重荣果奉诏: the given name stands alone elsewhere.
		sc += 2
	}
	return sc, nx
}

// repeats reports whether the two runes at s occur again elsewhere in the
// text.
func (x *run) repeats(s, e int) bool {
	if x.bigrams == nil {
		x.bigrams = make(map[[2]rune]int32, len(x.rs))
		for i := 0; i+1 < len(x.rs); i++ {
			x.bigrams[[2]rune{x.rs[i], x.rs[i+1]}]++
		}
	}
	return e-s == 2 && x.bigrams[[2]rune{x.rs[s], x.rs[s+1]}] >= 2
}

// modifiers extends a general's title at i leftwards over free characters
// (讨虏将军, 左中郎将) and returns the new start.
func (x *run) modifiers(i int) int {
	s := i
	for k := 0; k < 2; k++ {
		c := x.at(s - 1)
		if s-1 < 0 || !isHan(c) || modStop.has(c) || numeral.has(c) || x.cov[s-1] != 0 {
			break
		}
		s--
	}
	if s < i {
		if c := x.at(s - 1); s-1 >= 0 && x.cov[s-1] == 0 && strings.ContainsRune("左右前后中", c) {
			s--
		}
	}
	return s
}

// placeBefore reads the two unknown characters before a local office
// (颍阴令, 某某太守) as a place when a verb of appointment precedes them.
func (x *run) placeBefore(i, e int) {
	off := string(x.rs[i:e])
	switch off {
	case "太守", "刺史", "内史", "相", "令", "长", "都尉", "节度使", "观察使", "防御使", "团练使":
	default:
		return
	}
	s := i - 2
	if s < 0 || !x.free(s, i) || !isHan(x.rs[s]) || !isHan(x.rs[s+1]) {
		return
	}
	if modStop.has(x.rs[s]) || modStop.has(x.rs[s+1]) || numeral.has(x.rs[s]) {
		return
	}
	if x.boundary(s-1) || strings.ContainsRune("为拜迁除领守行补出转徙试兼授赠", x.at(s-1)) {
		x.add(s, i, tLoc, "")
	}
}

// officeAt reports whether an office starts at rune i.
func (x *run) officeAt(i int) bool {
	x.buf = x.lex.walk(x.rs, i, x.buf[:0])
	for _, m := range x.buf {
		if m.flags&(fOff|fOffCtx) != 0 {
			return true
		}
	}
	return false
}

// titlePlace finds the place part before a title ending (汉寿 in
// 汉寿亭侯): an adjacent place mention, which it absorbs, or one or two
// free characters.
func (x *run) titlePlace(i int) int {
	if k := x.endsAt(i); k >= 0 && (x.ents[k].typ == tLoc || x.ents[k].typ == tGrp) {
		s := x.ents[k].s
		x.drop(k)
		return s
	}
	s := i
	for k := 0; k < 2; k++ {
		c := x.at(s - 1)
		if s-1 < 0 || !isHan(c) || modStop.has(c) || x.cov[s-1] != 0 {
			break
		}
		s--
	}
	return s
}

// drop removes mention k (used when a longer mention absorbs it).
func (x *run) drop(k int) {
	e := x.ents[k]
	for i := e.s; i < e.e; i++ {
		x.cov[i] = 0
	}
	x.ents[k] = ent{s: -1, e: -1}
}

// readAs makes every occurrence of the given names a person, for a caller
// that knows them: a mention overlapping one gives way, unless it is a
// person's name that holds it whole (张德裕 for 德裕).
func (x *run) readAs(names []string) {
	if len(names) == 0 {
		return
	}
	for _, n := range names {
		w := []rune(n)
		if len(w) == 0 {
			continue
		}
		for s := 0; s+len(w) <= len(x.rs); s++ {
			e := s + len(w)
			if !slices.Equal(x.rs[s:e], w) {
				continue
			}
			if k := x.entAt(s); k >= 0 && x.ents[k].typ == tPer && x.ents[k].s <= s && x.ents[k].e >= e {
				continue
			}
			for i := s; i < e; i++ {
				if k := x.entAt(i); k >= 0 {
					x.drop(k)
				}
			}
			x.add(s, e, tPer, "")
			x.officeBefore(s)
			s = e - 1
		}
	}
	x.sortOrder()
}

// officeBefore re-reads a "person" that ends right before a known name at
// s in an office (辽都统 before 马哥): the office and what precedes it. Where
// nothing was read there, an office the lexicon knows is read (都统).
func (x *run) officeBefore(s int) {
	k := x.endsAt(s)
	if k < 0 {
		for j := max(0, s-4); j < s-1; j++ {
			if x.free(j, s) && kindOf(x.lex.lookup(x.rs[j:s])) == tOff {
				x.add(j, s, tOff, "")
				return
			}
		}
		return
	}
	if x.ents[k].typ != tPer {
		return
	}
	ks := x.ents[k].s
	for j := ks; j < s-1; j++ {
		if kindOf(x.lex.lookup(x.rs[j:s])) != tOff {
			continue
		}
		x.drop(k)
		x.add(j, s, tOff, "")
		if j > ks {
			if typ := kindOf(x.lex.lookup(x.rs[ks:j])); typ != "" && typ != "stop" {
				x.add(ks, j, typ, "")
			}
		}
		return
	}
}

// placeEnd ends place names (羊肠坂, 东渭桥), not given names.
var placeEnd = set("山坂岭寨堡桥津关城谷原泽湖陂渡口塞垒戍镇水河江")

// placeAfter reads an unknown place ending in a place character after a
// verb of going, taking or staying (至羊肠坂, 攻盐林寨).
func (x *run) placeAfter(i int) int {
	if !strings.ContainsRune("于於至攻围屯趋入出次据拔守渡过抵趣向击袭还到军", x.at(i-1)) {
		return 0
	}
	for n := 2; n <= 4; n++ {
		e := i + n
		if e > len(x.rs) || !placeEnd.has(x.rs[e-1]) {
			continue
		}
		if !x.free(i, e) {
			return 0
		}
		ok := true
		for j := i; j < e; j++ {
			if !isHan(x.rs[j]) || noPlace.has(x.rs[j]) && j == i || modStop.has(x.rs[j]) {
				ok = false
			}
		}
		if ok && (x.boundary(e) || followPer.has(x.at(e)) || x.at(e) == '下') {
			return n
		}
	}
	return 0
}

var noPlace = set("其本此诸各数九十一两二三四五六七八全他彼该某列州郡县属旁邻外入出至还之于於为在以领治牧守及与并其每诸原故旧新前后两大小上下内中")

// placeSuffix reads X州, X郡, XY郡 and XY县 as places.
func (x *run) placeSuffix(i int) int {
	a, b := x.at(i), x.at(i+1)
	if noPlace.has(a) || !isHan(a) {
		return 0
	}
	if b == '州' || b == '郡' {
		return 2
	}
	c := x.at(i + 2)
	if isHan(b) && !noPlace.has(b) && (c == '郡' || c == '县') && x.cov[i+1] == 0 {
		return 3
	}
	return 0
}

// rulerAt reads two posthumous characters and 帝, 宗 or 祖 at rune i as a
// ruler (孝闵帝); it returns the length or 0.
func (x *run) rulerAt(i int) int {
	if i+2 >= len(x.rs) || !rulerEnds.has(x.rs[i+2]) {
		return 0
	}
	if x.lex.lookup(x.rs[i:i+1])&fPosth == 0 || x.lex.lookup(x.rs[i+1:i+2])&fPosth == 0 {
		return 0
	}
	return 3
}

// stateAt reads a one-character state in a clear context; a state followed
// by a posthumous name and 公/王/侯 is a ruler (齐桓公), and a state followed
// by 王 a title (吴王).
func (x *run) stateAt(i int, ms []match) int {
	var f uint32
	for _, m := range ms {
		if m.n == 1 {
			f = m.flags
		}
	}
	next := x.at(i + 1)
	prev := x.at(i - 1)
	if f&fLocCtx != 0 && f&fState == 0 {
		if strings.ContainsRune("于於至入攻围屯镇守还奔如诣徙都居拔取据克陷幸走向趣趋", prev) && (x.boundary(i+1) || followPer.has(next)) || strings.ContainsRune("城县", next) {
			x.add(i, i+1, tLoc, "")
			return 1
		}
		return 0
	}
	if f&fState == 0 {
		return 0
	}
	if next == '王' || next == '公' && x.at(i+2) != '子' && x.at(i+2) != '孙' && x.at(i+2) != '主' {
		if x.boundary(i+2) || followPer.has(x.at(i+2)) || isHan(x.at(i+2)) {
			x.add(i, i+2, tTitle, "")
			return 2
		}
	}
	if x.lex.lookup([]rune{next})&fPosth != 0 && strings.ContainsRune("公王侯伯", x.at(i+2)) {
		x.add(i, i+3, tPer, "")
		return 3
	}
	if x.lex.lookup([]rune{next})&fPosth != 0 && x.lex.lookup([]rune{x.at(i + 2)})&fPosth != 0 && strings.ContainsRune("公王侯伯", x.at(i+3)) {
		// 齐献武王
		x.add(i, i+4, tPer, "")
		return 4
	}
	ok := strings.ContainsRune("伐攻击降归入奔叛事仕灭破救侵聘如适与于於之败袭围诣附", prev) && (x.boundary(i+1) || strings.ContainsRune("军兵师人将使主国地境都民帝室朝战王而", next) || followPer.has(next))
	ok = ok || strings.ContainsRune("军兵师将使主国帝室朝", next) && !isHan(prev)
	ok = ok || (x.boundary(i-1) && x.officeAt(i+1))
	if !ok {
		return 0
	}
	x.add(i, i+1, tGrp, "")
	return 1
}

// ctxOffice reads a one-character office (令, 牧, 丞, 尹) after a place.
func (x *run) ctxOffice(i int, ms []match) bool {
	if len(ms) == 0 || ms[0].n != 1 || ms[0].flags&fOffCtx == 0 {
		return false
	}
	k := x.endsAt(i)
	if k < 0 || x.ents[k].typ != tLoc {
		return false
	}
	return x.add(i, i+1, tOff, "") >= 0
}

// shortName reads a given name already tied to a full name in the
// document (亮 → 诸葛亮), only where a name is expected.
func (x *run) shortName(i int) int {
	if !x.first[x.rs[i]] {
		return 0
	}
	for g := 2; g >= 1; g-- {
		e := i + g
		if e > len(x.rs) {
			continue
		}
		full, ok := x.doc.Names[string(x.rs[i:e])]
		if !ok {
			continue
		}
		prev, next := x.at(i-1), x.at(e)
		prevOK := x.boundary(i-1) || precedePer.has(prev)
		nextOK := x.boundary(e) || followPer.has(next)
		if g == 1 && !(prevOK && nextOK) && !(x.subjects[full] && x.boundary(i-1) && isHan(next)) {
			continue
		}
		if g == 2 && !(prevOK || nextOK) {
			continue
		}
		name := full
		if name == string(x.rs[i:e]) {
			name = ""
		}
		if x.add(i, e, tPer, name) >= 0 {
			return g
		}
	}
	return 0
}

// mergeOffices joins offices written back to back (太常少卿, 尚书左仆射,
// 检校司空) and bureaus and ranks with the office after them (兵部郎中,
// 金紫光禄大夫); a bureau with no office after it is dropped.
func (x *run) mergeOffices() {
	for k := range x.ents {
		en := x.ents[k]
		if en.s < 0 || en.typ != tOff && en.typ != offPre {
			continue
		}
		for {
			j := x.startsAt(x.ents[k].e)
			if j < 0 || x.ents[j].typ != tOff && x.ents[j].typ != offPre || x.ents[k].typ == tOff && x.ents[j].typ == offPre {
				break
			}
			e := x.ents[j].e
			if x.ents[j].typ == tOff {
				x.ents[k].typ = tOff
			}
			x.drop(j)
			for i := x.ents[k].e; i < e; i++ {
				x.cov[i] = int32(k + 1)
			}
			x.ents[k].e = e
		}
		if x.ents[k].typ == offPre {
			x.drop(k)
		}
	}
}

// offPreAt reports whether a bureau or rank starts at rune i.
func (x *run) offPreAt(i int) bool {
	x.buf = x.lex.walk(x.rs, i, x.buf[:0])
	for _, m := range x.buf {
		if m.flags&fOffPre != 0 {
			return true
		}
	}
	return false
}

// enfeoffWords introduce a noble title.
var enfeoffWords = []string{"进封", "徙封", "改封", "更封", "追封", "袭封", "转封", "赐爵", "袭爵", "进爵", "封", "爵"}

// titles reads the title after a verb of enfeoffment (封赵王, 进封宁蜀公,
// 封吕马童为中水侯) and a place followed by 王 (兰陵王).
func (x *run) titles() {
	rs := x.rs
	for i := 0; i < len(rs); i++ {
		if x.cov[i] != 0 {
			continue
		}
		w := ""
		for _, c := range enfeoffWords {
			if hasAt(rs, i, c) {
				w = c
				break
			}
		}
		if w == "" {
			continue
		}
		s := i + len([]rune(w))
		// 封X为Y: skip the person.
		if k := x.startsAt(s); k >= 0 && x.ents[k].typ == tPer && x.at(x.ents[k].e) == '为' {
			s = x.ents[k].e + 1
		}
		e := s
		for e < len(rs) && e-s < 7 && isHan(rs[e]) {
			if j := x.entAt(e); j >= 0 && x.ents[j].typ != tLoc && x.ents[j].typ != tGrp && x.ents[j].typ != tTitle {
				break
			}
			e++
		}
		// The title ends at its last title character before the pause.
		for e > s && !strings.ContainsRune("王公侯伯子男君", rs[e-1]) {
			e--
		}
		if e-s < 2 {
			continue
		}
		if j := x.entAt(s); j >= 0 && x.ents[j].s < s {
			continue
		}
		if j := x.entAt(e - 1); j >= 0 && x.ents[j].e > e {
			continue
		}
		for p := s; p < e; p++ {
			if j := x.entAt(p); j >= 0 {
				x.drop(j)
			}
		}
		x.add(s, e, tTitle, "")
		i = e - 1
	}
	// 长乐郡公, 安阳县侯: a commandery or county read as a place takes the
	// title after it.
	for k := range x.ents {
		en := x.ents[k]
		if en.s < 0 || en.typ != tLoc || !strings.ContainsRune("郡县国", x.rs[en.e-1]) || x.cov[min(en.e, len(x.rs)-1)] != 0 || !strings.ContainsRune("公侯伯子男", x.at(en.e)) {
			continue
		}
		if en.e < len(x.rs) {
			x.ents[k].e++
			x.ents[k].typ = tTitle
			x.cov[en.e] = int32(k + 1)
		}
	}
	// A place or state right before 王 is a prince's title.
	for k := range x.ents {
		en := x.ents[k]
		if en.s < 0 || (en.typ != tLoc && en.typ != tGrp) || x.at(en.e) != '王' || x.cov[en.e] != 0 {
			continue
		}
		x.ents[k].e++
		x.ents[k].typ = tTitle
		x.cov[en.e] = int32(k + 1)
	}
}

// bookAt reads a work named without brackets: one from the lexicon where
// a verb of reading, writing or citing precedes it or 曰, 云, 作 and the like
// follow it (案通鑑云, 与旧唐书异), a one-character classic only as 易曰 or
// in a list after 习 (习诗、书); or a title ending in 赋, 记, 集 … right
// after 作, 撰, 进 (作捕鱼赋, 撰嵩高山庙记).
func (x *run) bookAt(i int, ms []match) int {
	prev := x.at(i - 1)
	for k := len(ms) - 1; k >= 0; k-- {
		if ms[k].flags&fBook == 0 {
			continue
		}
		n := ms[k].n
		e := i + n
		next := x.at(e)
		before := strings.ContainsRune(bookBefore, prev)
		after := strings.ContainsRune(bookAfter, next)
		if n == 1 {
			// 易曰, 诗云; 习诗、书
			if (x.boundary(i-1) || prev == '、') && (next == '曰' || next == '云' || next == '称') || (before || prev == '、') && (next == '、' || x.boundary(e)) && ms[k].flags&fBook != 0 && (prev == '、' || next == '、') {
				return n
			}
			continue
		}
		if before || (x.boundary(i-1) || prev == '、' || prev == '与' || prev == '从' || prev == '及') && (after || x.boundary(e)) {
			return n
		}
	}
	if strings.ContainsRune(titleVerbs, prev) {
		return x.titledWork(i)
	}
	return 0
}

const (
	// bookBefore precede a work: reading, writing, citing.
	bookBefore = "读习治学通注著撰善好受传引作集按案据明精诵览考见"
	// bookAfter follow a cited work.
	bookAfter = "曰云作载称异同言记纪所并亦皆"
	// titleVerbs precede a new work's title.
	titleVerbs = "作撰著进献上为曰号"
)

// bookEnd closes the title of a work.
var bookEnd = set("赋记集志录论传颂铭经疏策解注篇诗图谱说略要")

// titledWork reads a title of two to seven runes ending in a work word
// at rune i, closed by a pause, a count or 云 (作捕鱼赋。).
func (x *run) titledWork(i int) int {
	for n := 7; n >= 2; n-- {
		e := i + n
		if e > len(x.rs) || !x.free(i, e) || !bookEnd.has(x.rs[e-1]) {
			continue
		}
		ok := true
		for j := i; j < e; j++ {
			if !isHan(x.rs[j]) || strings.ContainsRune("，。之其以为而于於也者所不", x.rs[j]) {
				ok = false
				break
			}
		}
		next := x.at(e)
		if ok && (x.boundary(e) || numeral.has(next) || strings.ContainsRune("、云曰卷", next)) {
			return n
		}
	}
	return 0
}
