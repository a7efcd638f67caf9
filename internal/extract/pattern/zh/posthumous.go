package zh

import (
	"slices"
	"strings"

	"github.com/annals-project/annals/internal/chrono/eras"
)

// Posthumous names (谥号). A formula gives the name: 谥曰忠侯 to the man the
// clause is about, 追谥羽曰壮缪侯 to the man it names (羽), 谥君为忠武侯 to the
// dead man an edict addresses. The rules read 谥曰X while recognising, as
// the name model's features expect; the formulas that name their owner,
// and the names the model did not confirm, are read after it
// (posthFormulas), for the model has never been taught them.

// namedOwner is the owner a formula names: mention k (羽 in 谥羽曰), or,
// when addressed, the dead man it speaks to (君 in 谥君为, 之 in 谥之曰).
type namedOwner struct {
	k         int
	addressed bool
}

// posthSays are the words between a formula and its name.
var posthSays = set("曰为")

// posthNotOwner are the runes between 谥 and 曰 that name no one: 谥法曰,
// 谥号曰, 谥宜曰, 谥议曰, 谥者.
var posthNotOwner = set("法号宜议者常帝亦又皆乃遂日")

// addressedWords stand for the dead man a formula speaks to.
var addressedWords = []string{"夫人", "君", "卿", "公", "之"}

// maxPosthLen bounds a posthumous name: 武烈皇帝, 褒成宣尼公.
const maxPosthLen = 5

// posthFormulas reads the posthumous formulas the recognition before it
// left unread: those that name their owner (谥羽曰壮缪侯) and those whose
// name the model did not confirm. The name is the whole run of characters
// up to the pause after 曰 or 为.
func (x *run) posthFormulas() {
	// Whose life the text tells where, for a chapter joining several
	// (法正 after 庞统): an unnamed owner is the man of that life.
	x.livesJoined()
	added := false
	for i := 0; i+2 < len(x.rs); i++ {
		if x.rs[i] != '谥' && x.rs[i] != '諡' || x.cov[i] != 0 {
			continue
		}
		j := i + 1
		owner, named := namedOwner{k: -1}, false
		if !posthSays.has(x.at(j)) {
			var n int
			owner, n = x.formulaOwner(j)
			if n == 0 {
				continue
			}
			named = true
			j += n
		}
		j++ // 曰 or 为
		e := j
		for e < len(x.rs) && isHan(x.rs[e]) {
			e++
		}
		if e == j || e-j > maxPosthLen {
			continue
		}
		t := x.startsAt(j)
		if t < 0 || x.ents[t].e != e || !x.isPosth(t) {
			t = x.posthAt(j, e)
			if t < 0 {
				continue
			}
			x.posths = append(x.posths, t)
		}
		// The model reads 忠侯 as a rank; here it is a man's name.
		x.ents[t].typ = tPer
		added = true
		if named {
			if x.posthNamed == nil {
				x.posthNamed = map[int]namedOwner{}
			}
			x.posthNamed[t] = owner
		}
		i = e - 1
	}
	if added {
		x.sortOrder()
	}
}

// posthAt makes runes [s, e) a posthumous name, in place of the mentions
// read inside it (西乡 in 西乡哀侯); -1 when a mention runs across its
// edges.
func (x *run) posthAt(s, e int) int {
	for i := s; i < e; i++ {
		if k := x.entAt(i); k >= 0 && (x.ents[k].s < s || x.ents[k].e > e) {
			return -1
		}
	}
	for i := s; i < e; i++ {
		if k := x.entAt(i); k >= 0 {
			x.drop(k)
		}
	}
	// Named after itself, so that it teaches no given name (景侯: no 侯).
	return x.add(s, e, tPer, string(x.rs[s:e]))
}

// formulaOwner reads the owner a formula names between 谥 and 曰 or 为,
// from rune j: a person read there, a word that addresses the dead, or
// a given name the text has used for someone (羽 for 关羽, 父和 for 孙和);
// it returns the owner and the runes read, 0 when there is none.
func (x *run) formulaOwner(j int) (namedOwner, int) {
	if k := x.startsAt(j); k >= 0 {
		en := x.ents[k]
		if en.typ != tPer || en.e-j > 3 || !posthSays.has(x.at(en.e)) {
			return namedOwner{}, 0
		}
		return namedOwner{k: x.aliasHead(k)}, en.e - j
	}
	for _, w := range addressedWords {
		n := len([]rune(w))
		if hasAt(x.rs, j, w) && x.free(j, j+n) && posthSays.has(x.at(j+n)) {
			return namedOwner{k: -1, addressed: true}, n
		}
	}
	for n := 1; n <= 2; n++ {
		if !x.free(j, j+n) || !posthSays.has(x.at(j+n)) {
			continue
		}
		s := j
		if n == 2 && kinBlock.has(x.rs[j]) {
			s++ // 追谥父和曰文皇帝: the father, 和
		}
		for i := s; i < j+n; i++ {
			if !isHan(x.rs[i]) || posthNotOwner.has(x.rs[i]) {
				return namedOwner{}, 0
			}
		}
		full := x.fullNameOf(string(x.rs[s:j+n]), j)
		if full == "" {
			return namedOwner{}, 0
		}
		k := x.add(s, j+n, tPer, full)
		if k < 0 {
			return namedOwner{}, 0
		}
		return namedOwner{k: k}, n
	}
	return namedOwner{}, 0
}

// fullNameOf is the full name a given name stands for before rune i: the
// document's, else that of the last person read before i whose name ends
// in it; "" when the text has used it for no one.
func (x *run) fullNameOf(given string, i int) string {
	if full, ok := x.doc.Names[given]; ok {
		return full
	}
	for n := len(x.order) - 1; n >= 0; n-- {
		en := x.ents[x.order[n]]
		if en.s >= i || en.typ != tPer {
			continue
		}
		if c := en.canonical(x.rs); len(c) > len(given) && strings.HasSuffix(c, given) {
			return c
		}
	}
	return ""
}

// isPosth says whether mention k is a posthumous name.
func (x *run) isPosth(k int) bool { return slices.Contains(x.posths, k) }

// posthumous gives each posthumous name to its owner as another of his
// names.
func (x *run) posthumous(ss []sentence) {
	for _, t := range x.posths {
		en := x.ents[t]
		if en.s < 0 {
			continue
		}
		h := x.posthOwner(t, ss)
		if h < 0 || h == t || x.ents[h].typ != tPer || x.isPosth(h) {
			continue
		}
		if x.rulerByTitle(h) && strings.HasSuffix(string(x.rs[en.s:en.e]), "侯") {
			continue // no sovereign is named a marquis: the name is a subject's
		}
		x.rels = append(x.rels, rel{h: x.aliasHead(h), t: t, r: "别称", alias: "谥号"})
	}
}

// posthOwner is the man posthumous name t belongs to: the one its formula
// names; else the one an honour in its sentence names (追封脩为长乐乡侯，
// …谥曰威侯); else the subject of its clause, unless he is the ruler who
// gives it (权素服临吊，谥曰文侯); else the last man whose death the text
// told. -1 when none is sure.
func (x *run) posthOwner(t int, ss []sentence) int {
	s := x.ents[t].s
	i := s - 1
	for i >= 0 && s-i <= 4 && x.rs[i] != '谥' && x.rs[i] != '諡' {
		i--
	}
	if i < 0 || s-i > 4 {
		i = max(s-2, 0)
	}
	sen := sentOf(ss, s)
	if sen.s < 0 {
		return -1
	}
	if o, ok := x.posthNamed[t]; ok {
		if !o.addressed {
			return o.k
		}
		if hasAt(x.rs, i+1, "之") || hasAt(x.rs, i+1, "夫人") {
			// 鲁薨，谥之曰原侯: the death just told.
			if d := x.lastDeath(i, ss); d >= 0 {
				return d
			}
		}
		// 赠君丞相武乡侯印绶，谥君为忠武侯: the edict speaks to the man
		// whose life is told.
		if k := x.chapterSubject(sen); k >= 0 {
			return k
		}
		return x.lastDeath(i, ss)
	}
	if k := x.honoured(i, sen); k >= 0 {
		return k
	}
	if h := x.subject(i, sen, false); h >= 0 && !x.isPosth(h) {
		// After a man's speech the name is the last dead man's (亮上言於
		// 后主曰： …。 五月，…谥曰昭烈皇帝), who may be the speaker (嘉谓长
		// 史曰： …。 至舍，因欧血而死。谥为节侯).
		if d := x.lastDeath(i, ss); d >= 0 && x.spoke(h) {
			return d
		}
		if x.deathsBetween(x.ents[h].e, i) > 1 {
			// A man dies once: in 项籍死，…故德芮，徙为长沙王，一年薨，
			// 谥曰文王 the second death is another's, and so is the name.
			return -1
		}
		if !x.givesHonours(h, i) {
			return h
		}
	}
	return x.lastDeath(i, ss)
}

// honourVerbs give a dead man an office or a title before his posthumous
// name.
var honourVerbs = []string{"追封", "追赠", "追进", "追赐", "追号", "追尊", "追拜", "赠"}

// honoured is the man the honours before the formula at rune i name: the
// person right before 谥 (改昂谥曰愍王, 追赐仁父炽谥曰陈穆侯), or the one
// after an honour verb earlier in its sentence (其追封脩为长乐乡侯); -1 when
// none.
func (x *run) honoured(i int, sen sentence) int {
	if k := x.endsAt(i); k >= 0 && x.ents[k].typ == tPer && !x.isPosth(k) && !x.rulerByTitle(k) {
		return x.aliasHead(k)
	}
	for j := i - 1; j >= sen.s; j-- {
		w := x.endsWith(j, honourVerbs)
		if w == "" || !x.free(j-len([]rune(w)), j) {
			continue
		}
		if k := x.startsAt(j); k >= 0 && x.ents[k].typ == tPer && !x.isPosth(k) {
			return x.aliasHead(k)
		}
	}
	return -1
}

// rulerDeaths and nobleDeaths are the death verbs of a sovereign and of
// anyone else.
const (
	rulerDeaths = "崩殂"
	nobleDeaths = "卒薨殁"
)

// rulerByTitle says whether mention k names a sovereign by his title (帝,
// 上, 太祖, 文帝, 先主, 窦太后), who dies with 崩, not 卒 or 薨, and gives
// posthumous names rather than takes a marquis's.
func (x *run) rulerByTitle(k int) bool {
	en := x.ents[k]
	if en.typ != tPer {
		return false
	}
	w := x.rs[en.s:en.e]
	switch {
	case slices.Contains([]string{"上", "天子", "主上", "今上"}, string(w)), strings.HasSuffix(string(w), "太后"):
		return true
	}
	return strings.ContainsRune("帝祖宗主", w[len(w)-1]) && (len(w) == 1 || x.byTitle(k) || len(eras.LookupRuler(string(w))) > 0)
}

// mournWords are what a ruler does for a dead subject before naming him.
var mournWords = []string{"临吊", "临哭", "流涕", "素服", "举哀", "哀悼", "悼惜", "痛惜"}

// givesHonours says whether mention h, the subject of the formula at rune
// i, is the ruler who gives the name rather than its owner: a sovereign
// by title who has not died in between (太祖崩，谥曰武王 is his own), or one
// who mourns the dead (权素服临吊).
func (x *run) givesHonours(h, i int) bool {
	between := x.rs[x.ents[h].e:i]
	if x.rulerByTitle(h) {
		return countIn(between, rulerDeaths) == 0
	}
	for _, w := range mournWords {
		if strings.Contains(string(between), w) {
			return true
		}
	}
	return false
}

// lastDeath is the man whose death the text told last before rune i,
// within a page: the subject of the death verb, or, when its clause names
// none (嘉禾五年卒), the man whose life is told; -1 when there is none.
func (x *run) lastDeath(i int, ss []sentence) int {
	for j := i - 1; j >= 0 && i-j <= maxCarry; j-- {
		if x.cov[j] != 0 || !strings.ContainsRune(deathChars, x.rs[j]) {
			continue
		}
		sen := sentOf(ss, j)
		if sen.s < 0 {
			return -1
		}
		h := x.subject(j, sen, false)
		if h >= 0 && !x.isPosth(h) && !(x.rulerByTitle(h) && strings.ContainsRune(nobleDeaths, x.rs[j])) {
			return h
		}
		// 先主立为汉中王，以正为尚书令……明年卒: a sovereign carried into
		// a noble's death did not die; the man whose life is told did.
		return x.chapterSubject(sen)
	}
	return -1
}

// deathsBetween counts the death verbs in [s, e) outside any mention.
func (x *run) deathsBetween(s, e int) int {
	s, e = max(s, 0), min(e, len(x.rs))
	n := 0
	for i := s; i < e; i++ {
		if x.cov[i] == 0 && strings.ContainsRune(deathChars, x.rs[i]) {
			n++
		}
	}
	return n
}

// countIn counts the runes of rs that are among chars.
func countIn(rs []rune, chars string) int {
	n := 0
	for _, r := range rs {
		if strings.ContainsRune(chars, r) {
			n++
		}
	}
	return n
}
