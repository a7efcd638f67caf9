package zh

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Kinship: a kinship word before a name (子靖, 父祐, 长子谭), a list of
// children (二子：琦、琮; 生丕、植), a genealogy (X之子也), and the person the
// kin belongs to: the one right before the word, or the subject of the
// text when the word opens a clause.

// kinWords introduce a relative's name, longest first.
var kinWords = []string{"同母弟", "长子", "次子", "少子", "中子", "幼子", "嫡子", "庶子", "长男", "次男", "少男", "长女", "次女", "从子", "兄子", "弟子", "族子", "从弟", "从兄", "从父", "叔父", "伯父", "季父", "从孙", "族孙", "女弟", "母弟", "少弟", "季弟", "长兄", "太子", "世子", "公子", "夫人", "曾祖", "祖父", "次曰", "长曰", "少曰", "父", "母", "子", "弟", "兄", "妻", "女", "孙", "姊", "妹", "祖"}

// kinKind says how a kinship word relates the kin to the person it
// belongs to.
func kinKind(w string) string {
	switch w {
	case "父", "母":
		return "parent"
	case "祖父", "祖":
		return "grandparent"
	case "子", "长子", "次子", "少子", "中子", "幼子", "嫡子", "庶子", "太子", "世子", "公子", "女", "长男", "次男", "少男", "长女", "次女", "次曰", "长曰", "少曰":
		return "child"
	case "弟", "兄", "姊", "妹", "女弟", "母弟", "同母弟", "少弟", "季弟", "长兄":
		return "sibling"
	case "妻", "夫人":
		return "spouse"
	case "孙":
		return "grandchild"
	}
	return "clan"
}

var kinBlock = set("父母子弟兄妻女孙姊妹老幼少长嗣息侄甥婿舅姑夫")

// notKinName are characters that follow a kin word as no name: 子妇 (a
// daughter-in-law), 世子仍出 (the heir still went out), 祖今年老 (黄祖 is now
// old). Apart from kinBlock, which the name model's features read too; like
// kinFollow, at work only.
var notKinName = set("妇仍今")

// kinPrev may stand before a one-character kinship word that introduces a
// name (之子X, 与弟X, 遣子X).
const kinPrev = "之其生有为曰与及以遣封立杀诛并"

// kinFollow are the adverbs that follow a kin's name as it is introduced
// (以父冏昔为郡功曹, 父某早卒, 中子武最知名).
var kinFollow = set("昔早先本故被最")

// chapterSubject is a mention of the person the chapter is about: in the
// sentence, else the last before it; -1 when there is none.
func (x *run) chapterSubject(sen sentence) int {
	best := -1
	life := x.lifeAt(sen.s)
	for _, k := range x.order {
		en := x.ents[k]
		if en.s >= sen.e {
			break
		}
		if en.typ != tPer || x.isPosth(k) || !x.ownsUnnamed(en.canonical(x.rs), life) {
			continue // in 黄忠's life, 羽 is 关羽, whose life is told before
		}
		best = k
		if en.s >= sen.s {
			break
		}
	}
	return best
}

// ownsUnnamed says whether name is the one an unnamed deed in the text
// belongs to: the person whose life the text has reached, if it knows;
// else a subject of the chapter, but past its first chunk only one its
// title names, since annals of several rulers (孝顺孝冲孝质帝纪) open each
// life in a way no rule reads.
func (x *run) ownsUnnamed(name, life string) bool {
	switch {
	case life != "":
		return name == life
	case x.doc.Chunks == 0:
		return x.isChapterSubject(name)
	}
	return utf8.RuneCountInString(name) >= 2 && strings.Contains(x.doc.Title, name)
}

// isChapterSubject reports whether a person is one the chapter is about:
// its opening or its title names him (张衡列传).
func (x *run) isChapterSubject(name string) bool {
	return x.subjects[name] || utf8.RuneCountInString(name) >= 2 && strings.Contains(x.doc.Title, name)
}

// opensParagraph says whether the text at i opens a paragraph.
func (x *run) opensParagraph(i int) bool {
	for i > 0 && (x.rs[i-1] == ' ' || x.rs[i-1] == '\u3000') {
		i--
	}
	return i > 0 && x.rs[i-1] == '\n'
}

// familyHead is whose family a paragraph opening on kin at i is about:
// the last subject of the chapter named before it by his own name (援
// in 谥援曰忠成侯。\n四子：廖、防), else the person whose life the text has
// reached.
func (x *run) familyHead(i int, sen sentence) int {
	for n := len(x.order) - 1; n >= 0; n-- {
		k := x.order[n]
		en := x.ents[k]
		if en.e > i || en.typ != tPer || x.byTitle(k) {
			continue
		}
		if x.isChapterSubject(en.canonical(x.rs)) {
			return k
		}
	}
	return x.chapterSubject(sen)
}

// byTitle says whether mention k names its person by a title or a
// designation that is no part of his name (太祖 for 曹操), as rulers are.
func (x *run) byTitle(k int) bool {
	en := x.ents[k]
	return en.name != "" && !strings.Contains(en.name, string(x.rs[en.s:en.e]))
}

// kinVerbs are verbs that end a clause after a kin word (与母居): no name.
var kinVerbs = set("居处住游归还去行在")

func (x *run) kinNames() {
	rs := x.rs
	for i := 0; i < len(rs); i++ {
		if x.cov[i] != 0 {
			continue
		}
		word := firstAt(rs, i, kinWords)
		if word == "" {
			continue
		}
		wl := len([]rune(word))
		if word == "弟子" {
			i += wl - 1
			continue
		}
		e0 := i + wl
		if !x.free(i, e0) {
			continue
		}
		if wl == 1 || strings.HasSuffix(word, "曰") {
			prev := x.at(i - 1)
			if !(x.boundary(i-1) || strings.ContainsRune(kinPrev, prev) || x.endsAt(i) >= 0) {
				continue
			}
		}
		// The name: a mention already there (and the names listed after
		// it), or one or two free characters.
		if k := x.startsAt(e0); k >= 0 {
			for k >= 0 && x.ents[k].typ == tPer {
				x.kins = append(x.kins, kin{word: word, s: i, e: e0, name: k})
				if x.at(x.ents[k].e) != '、' {
					break
				}
				k = x.startsAt(x.ents[k].e + 1)
			}
			continue
		}
		if kinBlock.has(x.at(e0)) || !x.plain && notKinName.has(x.at(e0)) {
			continue
		}
		for g := 1; g <= 2; g++ {
			e := e0 + g
			if !x.free(e0, e) || !x.nameChars(e0, e) {
				break
			}
			if g == 1 && (noSingle.has(rs[e0]) || kinVerbs.has(rs[e0]) && (x.boundary(e) || !x.plain && x.at(e) == '守') || x.togetherAfterKin(e0, e) || x.adverbAsName(e0, e)) {
				continue
			}
			if g == 1 && (!x.plain && rs[e0] == '任' && x.at(e) == '为' || x.kinsNoName(e0, e)) {
				// 以父任为郎: by his father's standing, not a father 任
				// (at work only, as kinFollow).
				break
			}
			// kinFollow is left to the name model at work: as training
			// hints it taught the model worse names.
			if x.boundary(e) || followPer.has(x.at(e)) || !x.plain && kinFollow.has(x.at(e)) || (g == 1 && x.at(e) == '嗣') {
				name := ""
				if full, ok := x.doc.Names[string(rs[e0:e])]; ok && full != string(rs[e0:e]) {
					name = full
				}
				if k := x.add(e0, e, tPer, name); k >= 0 {
					x.kins = append(x.kins, kin{word: word, s: i, e: e0, name: k})
				}
				i = e - 1
				break
			}
		}
	}
	x.childLists()
}

// childLists reads 二子：琦、琮 and 有子三人，A、B、C: a number of sons and
// their names.
func (x *run) childLists() {
	rs := x.rs
	for i := 1; i+1 < len(rs); i++ {
		if rs[i] != '子' && rs[i] != '男' || x.cov[i] != 0 || !numeral.has(rs[i-1]) {
			continue
		}
		j := i + 1
		if x.at(j) == '人' {
			j++
		}
		if x.at(j) != '：' && x.at(j) != '，' && x.at(j) != ':' {
			continue
		}
		j++
		for n := 0; n < 10 && j < len(rs); n++ {
			k := x.startsAt(j)
			if k < 0 {
				// A bare one- or two-rune name closed by a pause.
				for g := 2; g >= 1; g-- {
					e := j + g
					if e <= len(rs) && x.free(j, e) && x.nameChars(j, e) && (x.boundary(e) || x.at(e) == '、') {
						k = x.add(j, e, tPer, "")
						break
					}
				}
			}
			if k < 0 || x.ents[k].typ != tPer || x.at(x.ents[k].e) == '生' {
				break // 二十五男：卞皇后生…: the sons are listed by mother (births)
			}
			x.kins = append(x.kins, kin{word: "子", s: i, e: i + 1, name: k})
			j = x.ents[k].e
			if x.at(j) != '、' {
				break
			}
			j++
		}
	}
}

// kinAt reports whether rune i lies in a kinship word that introduces a
// name.
func (x *run) kinAt(i int) bool {
	if x.inKin == nil {
		x.inKin = make([]bool, len(x.rs))
		for _, kn := range x.kins {
			for j := kn.s; j < kn.e && j < len(x.rs); j++ {
				x.inKin[j] = true
			}
		}
	}
	return i >= 0 && i < len(x.inKin) && x.inKin[i]
}

// kinship turns kinship words into relations with the person they belong
// to: the one right before (X子Y, X之子Y) or the subject.
func (x *run) kinship(ss []sentence) {
	children := map[int][]int{}  // anchor → children read in a row
	namedFamily := map[int]int{} // anchor written by name → its sentence's start + 1
	lastAnchor := -1
	for _, kn := range x.kins {
		sen := sentOf(ss, kn.s)
		if sen.s < 0 || kn.e-kn.s == 1 && !x.plain && x.givenNameRepeated(kn.s) {
			continue // 权复征黄祖，祖先遣舟兵: 祖 is 黄祖, not a grandfather 先
		}
		q := kn.s
		if x.at(q-1) == '之' || x.at(q-1) == '其' {
			q--
		}
		counted := false // 有五子, 生二子: a man's children counted
		if numeral.has(x.at(q - 1)) {
			// 刘表二子, 生二子
			q--
			for q > 0 && (x.at(q-1) == '有' || x.at(q-1) == '生') {
				q--
				counted = true
			}
		}
		anchor := x.endsAt(q)
		if anchor < 0 && strings.ContainsRune("及与并", x.at(q-1)) {
			// 获羽及子平: the son of the one named before 及.
			anchor = x.endsAt(q - 1)
		}
		if anchor >= 0 && x.ents[anchor].typ != tPer {
			anchor = -1
		}
		// 表卒，其子琮代: the kin of the man whose death the clause before
		// tells, named by his surname (刘琮), whoever the sentence is about.
		died := -1
		if anchor < 0 && !x.plain {
			died = x.diedRightBefore(q)
			anchor = died
		}
		written := anchor // the person the text names right before the kin word
		if died >= 0 && x.at(x.ents[kn.name].e) == '立' {
			// 昭明卒，子相土立: the formula of a royal line, whose names
			// (昭明, 高圉) carry no surname to pass on.
			written = -1
		}
		// 立子亮为太子 with no one named before it in the sentence: the
		// ruler the text is about raised his own son (立其弟 is someone
		// else's brother), whoever the clauses before were about.
		raised := anchor < 0 && q == kn.s && strings.ContainsRune("立封", x.at(q-1)) && x.rulersChapter() && !x.personBetween(sen.s, q)
		if anchor < 0 {
			anchor = x.subject(q, sen, false)
		}
		opens := x.at(q-1) == '以'
		if ci := x.clauseAt(q); raised && ci >= 0 && x.cls[ci].s == q-1 {
			// 立子琮为西河王 in 后主传, after 吴王孙权薨: the ruler whose
			// chapter it is raises his son, whoever the sentence before
			// named; where this part of the chapter does not name him,
			// no one is read as the father.
			anchor = x.chapterSubject(sen)
		} else if ci >= 0 && died < 0 && (x.cls[ci].s == q || x.cls[ci].s == q-1 && opens) && x.endsAt(q) < 0 {
			// 父祐, 子禅嗣 (and 以父冏…, "because his father …") open a
			// clause: the kin of the subject of the text, not of the last
			// kin named. With no subject in reach, in a person's own
			// chapter it is his (以父冏昔为郡功曹 … 赐维官中郎; in 吴主传,
			// 十一月，立子亮为太子 makes 孙亮 孙权's heir).
			anchor = x.cls[ci].owner
			switch {
			case anchor < 0:
				anchor = x.chapterSubject(sen)
			case counted && x.chapterSubject(sen) >= 0:
				// 权统事，就迁昭义中郎将，终於家。有五子: children counted
				// after a life's end are the family of the life told
				// (孙静's), not of the man a time clause named.
				anchor = x.chapterSubject(sen)
			case x.byTitle(anchor) && (x.opensParagraph(x.cls[ci].s) || x.heirOfOther(kn, sen, anchor)):
				// 明年，太祖遂为魏公矣。\n子恽，嗣侯: a paragraph that opens
				// on kin, after the subject's death, is about the subject's
				// family, not that of the ruler the sentence before named
				// by his title.
				if sub := x.familyHead(q, sen); sub >= 0 {
					anchor = sub
				}
			}
		}
		if birthOrder[kn.word] {
			// 有三子：嘉为奉车都尉，贤为骑都尉，中子武最知名: the middle son of
			// the one who had three, not of the son named before.
			if p := countedSons(x.rs, sen.s, q); p >= 0 {
				a := x.subject(p, sen, false)
				if ci := x.clauseAt(p); a < 0 && ci >= 0 {
					a = x.cls[ci].owner
				}
				if a < 0 {
					a = x.chapterSubject(sen)
				}
				if a >= 0 {
					anchor = a
				}
			}
		}
		if kn.word == "次曰" || kn.word == "长曰" || kn.word == "少曰" {
			if lastAnchor >= 0 {
				anchor = lastAnchor
			}
		}
		if anchor < 0 || anchor == kn.name || x.ents[anchor].typ != tPer {
			continue
		}
		// A family the sentence began by name (袁绍长子谭，次子熙) goes on by it.
		byName := anchor == written || namedFamily[anchor] == sen.s+1
		if byName {
			namedFamily[anchor] = sen.s + 1
		}
		anchor = x.aliasHead(anchor)
		name := kn.name
		x.familyName(anchor, name, kn.word, byName)
		switch kinKind(kn.word) {
		case "parent":
			x.rels = append(x.rels, rel{h: name, t: anchor, r: "子女"})
		case "grandparent":
			x.rels = append(x.rels, rel{h: name, t: anchor, r: "孙"})
		case "child":
			x.rels = append(x.rels, rel{h: anchor, t: name, r: "子女"})
			e := x.ents[name].e
			if c := x.at(e); c == '嗣' || c == '立' || hasAt(x.rs, e, "袭爵") || c == '代' && (x.boundary(e+1) || x.at(e+1) == '立') {
				// 子琮代，屯襄阳 and 子琮代立 too: he took his father's place.
				x.rels = append(x.rels, rel{h: anchor, t: name, r: "更代"})
			}
			children[anchor] = append(children[anchor], name)
			lastAnchor = anchor
		case "sibling":
			x.rels = append(x.rels, rel{h: anchor, t: name, r: "同胞"})
		case "spouse":
			x.rels = append(x.rels, rel{h: anchor, t: name, r: "婚恋"})
		case "grandchild":
			x.rels = append(x.rels, rel{h: anchor, t: name, r: "孙"})
		default:
			x.rels = append(x.rels, rel{h: anchor, t: name, r: "同族"})
		}
	}
	x.births(ss, children)
	x.genealogy(ss)
	// Children named together are siblings.
	for _, cs := range children {
		if len(cs) > 6 {
			continue
		}
		for a := 0; a < len(cs); a++ {
			for b := a + 1; b < len(cs); b++ {
				if x.ents[cs[a]].canonical(x.rs) != x.ents[cs[b]].canonical(x.rs) && x.near(cs[a], cs[b], ss) {
					x.rels = append(x.rels, rel{h: cs[a], t: cs[b], r: "同胞"})
				}
			}
		}
	}
}

// diedRightBefore is the person whose death alone the clause ending right
// before rune q tells (表卒，|其子琮代); -1 when none. A ruler's 崩 is left
// out: his heir is read by the rules of succession.
func (x *run) diedRightBefore(q int) int {
	i := q - 1
	if x.at(i) != '，' && x.at(i) != ',' {
		return -1
	}
	for _, w := range deathWords {
		s := i - utf8.RuneCountInString(w)
		if k := x.endsAt(s); s > 0 && k >= 0 && x.ents[k].typ == tPer && x.deathClause(k, i) {
			return k
		}
	}
	return -1
}

// heirOfOther says whether kin opening a clause belongs to the chapter's
// subject rather than to the ruler the text last named by his title,
// though no paragraph opens: the ruler is not the subject of the chapter,
// and the kin opens its sentence (渊妻，太祖内妹。长子衡) or inherits after a
// bare death (薨，子曾嗣: the subject's, for a ruler's death is 崩).
func (x *run) heirOfOther(kn kin, sen sentence, ruler int) bool {
	if x.isChapterSubject(x.ents[ruler].canonical(x.rs)) || x.subjects[x.ents[ruler].name] {
		return false
	}
	if ci := x.clauseAt(kn.s); ci >= 0 && x.cls[ci].s <= sen.s+1 {
		return true
	}
	e := x.ents[kn.name].e
	if x.at(e) != '嗣' && !hasAt(x.rs, e, "袭爵") {
		return false
	}
	for i := kn.s - 1; i >= sen.s; i-- {
		switch x.rs[i] {
		case '崩', '殂':
			return false
		case '薨', '卒':
			return x.endsAt(i) < 0 // 薨 with no one named right before it
		}
	}
	return false
}

// sharesSurname are the kin words whose kin bear the person's surname.
var sharesSurname = map[string]bool{"父": true, "子": true, "长子": true, "次子": true, "少子": true, "中子": true, "幼子": true, "嫡子": true, "庶子": true,
	"弟": true, "兄": true, "母弟": true, "同母弟": true, "少弟": true, "季弟": true, "长兄": true, "孙": true,
	"从弟": true, "从兄": true, "从子": true, "兄子": true, "族子": true, "从父": true, "叔父": true, "伯父": true, "季父": true, "从孙": true, "族孙": true, "太子": true, "世子": true,
	"祖": true, "祖父": true, "曾祖": true}

// personBetween says whether a person is named in [s, e).
func (x *run) personBetween(s, e int) bool {
	for _, k := range x.order {
		if en := x.ents[k]; en.typ == tPer && en.s >= s && en.e <= e {
			return true
		}
	}
	return false
}

// rulersChapter says whether the chapter tells a ruler's reign: annals
// (武帝纪) or the 三国志's lives of its sovereigns (吴主传, 后主传), where
// an unnamed 立子X is the ruler's act. In a minister's life it is another's.
func (x *run) rulersChapter() bool {
	t := x.doc.Title
	return strings.HasSuffix(t, "纪") || strings.Contains(t, "主传") || strings.Contains(t, "纪上") || strings.Contains(t, "纪下")
}

// givenNameRepeated says whether the kin character at rune i is the given
// name of a person named just before it (黄祖，祖先遣): the text calls him
// again by it.
func (x *run) givenNameRepeated(i int) bool {
	for j := i; j > 0 && j >= i-6; j-- {
		if k := x.endsAt(j); k >= 0 && x.ents[k].typ == tPer && x.ents[k].e-x.ents[k].s >= 2 && x.rs[x.ents[k].e-1] == x.rs[i] {
			return true
		}
	}
	return false
}

// togetherAfterKin says whether [s, e), right after a kin word, is one of
// togetherWords ending its clause or before a verb of going or dying
// (与父俱。, 与父俱亡命): an adverb, whatever read it as a name.
func (x *run) togetherAfterKin(s, e int) bool {
	if x.plain || e-s != 1 || !strings.ContainsRune(togetherWords, x.rs[s]) || !kinBlock.has(x.at(s-1)) {
		return false
	}
	return x.boundary(e) || strings.ContainsRune("亡死没往来行出入归还在至", x.at(e))
}

// ageOpening says whether [s, e) is one of ageWords opening a clause
// (幼丧父, 少孤): "when young", not a man of that name, unless the text
// has named someone by it.
func (x *run) ageOpening(s, e int) bool {
	if x.plain || e-s != 1 || !strings.ContainsRune(ageWords, x.rs[s]) {
		return false
	}
	if s > 0 && !clauseBreak.has(x.rs[s-1]) {
		return false
	}
	_, named := x.doc.Names[string(x.rs[s:e])]
	return !named
}

// notAPerson says whether [s, e), read as a person, is an adverb after a
// kin word or a title, or a bare title: no one a reader could tell apart.
func (x *run) notAPerson(s, e int) bool {
	return x.togetherAfterKin(s, e) || x.ageOpening(s, e) || x.adverbAsName(s, e) || x.titleAsPerson(s, e) || x.kinsNoName(s, e)
}

// kinsNoName says whether [s, e) is a word a kin word owns, no kin's
// name: the 任 of 以父任 (appointed by a father's standing: 少以父任，兄弟并
// 为郎) and the 业 of 传父业 (a father's learning: 元少传父业, no father 陈业).
// At work only, as kinFollow.
func (x *run) kinsNoName(s, e int) bool {
	if x.plain || e-s != 1 {
		return false
	}
	switch x.rs[s] {
	case '任':
		return x.at(s-2) == '以' && strings.ContainsRune("父兄", x.at(s-1))
	case '业':
		return strings.ContainsRune("父祖", x.at(s-1))
	case '事', '礼', '待':
		// 先主以兄事之: he treated him as an elder brother.
		return x.at(s-2) == '以' && x.at(e) == '之'
	}
	return false
}

// adverbAsName says whether [s, e) is one of adverbWords before the verb
// it modifies (其妻尝谓曰, 太子前为寿, 晋平公初立): "once", "stepping
// forward", "newly", not a person of that name, unless the text has named
// someone by it. Before 嗣 or in a list (子初嗣, 遂、腾) it may be a name.
func (x *run) adverbAsName(s, e int) bool {
	if x.plain || e-s != 1 || !strings.ContainsRune(adverbWords, x.rs[s]) || x.boundary(e) || strings.ContainsRune("嗣等、", x.at(e)) {
		return false
	}
	_, named := x.doc.Names[string(x.rs[s:e])]
	return !named
}

// adverbWords are adverbs that stand where a one-character name may, right
// after a kin word, a title or an office. 复 and 尚 are left out: as the
// given names of 贾复 and 袁尚 they are met alone too often.
const adverbWords = "尝前初因早亦又乃遂既已常每素数辄曾竟犹将欲终始"

// titleAsPerson says whether [s, e), read as a person, is a bare title or
// rank (王, 侯, 公子) or a phrase ending in the particle 也 (公子也): no one
// a reader could tell apart.
func (x *run) titleAsPerson(s, e int) bool {
	if x.plain {
		return false
	}
	if e-s == 1 {
		return strings.ContainsRune("王帝后侯公", x.rs[s])
	}
	return string(x.rs[s:e]) == "公子" || x.rs[e-1] == '也' && x.boundary(e)
}

// ageWords are adverbs of a time of life that open a clause.
const ageWords = "幼少早"

// togetherWords are adverbs that follow a kin word (与父俱亡) where a name
// may: a one-character "name" among them is not given a surname.
const togetherWords = "俱皆并共同亦各自"

// familyName names a kin given by given name alone with the surname of
// the one whose kin he is: in the chapter's subject's text (兄固 in 班超's
// life: 班固), or where the text writes that one by a personal name right
// before the kin word (表子琮: 刘琮; 霍去病弟光: 霍光). Only the subject's
// kin teach the chapter the name: elsewhere another may bear it (琮 is
// 全琮 across 吴书).
func (x *run) familyName(anchor, k int, word string, byName bool) {
	en := &x.ents[k]
	g := x.rs[en.s:en.e]
	if x.plain || !sharesSurname[word] || len(g) > 2 || len(g) == 2 && x.surnameLen(g) > 0 {
		return
	}
	if len(g) == 1 && strings.ContainsRune(togetherWords, g[0]) {
		return // 与父俱亡命: "together", read as a name
	}
	if strings.ContainsRune(titleEnds, g[len(g)-1]) {
		return // 子愍公嗣: a title, which takes no surname
	}
	full := []rune(x.ents[anchor].canonical(x.rs))
	n := x.surnameLen(full)
	if n == 0 {
		return
	}
	subject := x.isChapterSubject(string(full))
	if !personalName(full, n) || !subject && !byName {
		return
	}
	surname := string(full[:n])
	// A given name the chapter knows as someone else's keeps that name,
	// unless one character follows a kin word of the family: 父操 in
	// 凌统传 is 凌操, though 操 is 曹操 wherever 曹公 is named.
	if en.name != "" && (len(g) != 1 || strings.HasPrefix(en.name, surname)) {
		return
	}
	x.nameInFamily(k, surname, subject)
}

// birthOrder are the kin words that place a son among his brothers.
var birthOrder = map[string]bool{"长子": true, "次子": true, "中子": true, "少子": true, "幼子": true}

// countedSons is where 有N子 stands in rs[s:e], the sons of someone
// counted before they are named; -1 when it does not.
func countedSons(rs []rune, s, e int) int {
	for i := s; i+2 < e; i++ {
		if rs[i] == '有' && numeral.has(rs[i+1]) && rs[i+2] == '子' {
			return i
		}
	}
	return -1
}

// kinWordBetween is the kin word that alone stands between mentions a
// and b (霍去病弟光, 表之子琮); "" when there is none.
func (x *run) kinWordBetween(a, b int) string {
	s, e := x.ents[a].e, x.ents[b].s
	if x.at(s) == '之' {
		s++
	}
	if s >= e || e > len(x.rs) {
		return ""
	}
	w := string(x.rs[s:e])
	if slices.Contains(kinWords, w) {
		return w
	}
	return ""
}

// personalName says whether a name of n surname runes is a surname and a
// given name (刘表), not a title that begins with a surname-like state
// (梁孝王, 魏公): the surname of a title is no family's.
func personalName(full []rune, n int) bool {
	given := full[n:]
	return len(given) >= 1 && len(given) <= 2 && !strings.ContainsRune(titleEnds, given[len(given)-1])
}

// titleEnds end the titles that name a person by his fief or rank.
const titleEnds = "王侯公帝后君主氏"

// near reports whether two mentions lie in the same or adjacent sentences.
func (x *run) near(a, b int, ss []sentence) bool {
	sa, sb := sentOf(ss, x.ents[a].s), sentOf(ss, x.ents[b].s)
	if sa == sb {
		return true
	}
	if sa.s > sb.s {
		sa, sb = sb, sa
	}
	return sb.s-sa.e <= 1
}

// motherWords stand between a father and 生 when his consort bore the
// child (昭祖威顺皇后生景祖).
var motherWords = []string{"皇后", "夫人", "后", "妃", "氏", "姬"}

// births reads X生Y(、Z) and X某皇后生Y: Y is X's child.
func (x *run) births(ss []sentence, children map[int][]int) {
	for i := 1; i < len(x.rs); i++ {
		if x.rs[i] != '生' || x.cov[i] != 0 {
			continue
		}
		sen := sentOf(ss, i)
		// The parent.
		p := i
		for _, w := range motherWords {
			n := len([]rune(w))
			if p-n >= 0 && hasAt(x.rs, p-n, w) {
				p -= n
				// one or two characters of her name or rank
				for steps := 0; steps < 3 && p > 0 && x.cov[p-1] == 0 && isHan(x.rs[p-1]); steps++ {
					p--
				}
				break
			}
		}
		parent := -1
		for q := p; q <= i && parent < 0; q++ {
			if k := x.endsAt(q); k >= 0 && x.ents[k].typ == tPer {
				parent = k
			}
		}
		if parent < 0 {
			continue
		}
		// The children: 生子X, 生X、Y, 生X及Y.
		j := i + 1
		if strings.ContainsRune("子男女", x.at(j)) {
			j++
		}
		objs := x.titledObjects(j, sen)
		if len(objs) == 0 {
			continue
		}
		parent = x.aliasHead(parent)
		father := x.fatherOfList(sen, p)
		if father >= 0 {
			father = x.aliasHead(father)
			if father != parent {
				x.rels = append(x.rels, rel{h: father, t: parent, r: "婚恋"})
			}
		}
		for _, o := range objs {
			if father >= 0 {
				x.listedSonName(father, o)
			}
			for _, par := range []int{parent, father} {
				if par >= 0 && o != par {
					x.rels = append(x.rels, rel{h: par, t: o, r: "子女"})
					children[par] = append(children[par], o)
				}
			}
		}
	}
}

// listedSonName names a son listed by his title and given name alone
// (任城威王彰 among 武皇帝's sons) with his father's surname: 曹彰. The
// given name is not taught to the rest of the chapter: 据, 林 and 上 are
// words as often as names.
func (x *run) listedSonName(father, k int) {
	en := &x.ents[k]
	g := x.rs[en.s:en.e]
	if x.plain || en.name != "" || len(g) > 2 || len(g) == 2 && x.surnameLen(g) > 0 || x.isRuler(father) {
		return // a ruler's title the chapter has not resolved has no surname
	}
	full := []rune(x.ents[father].canonical(x.rs))
	if n := x.surnameLen(full); n > 0 && n < len(full) {
		en.name = string(full[:n]) + string(g)
		x.doc.Types[en.name] = tPer
	}
}

// titledObjects reads the persons of a list from rune i, each of whom may
// bear a title or an office before the name (文皇帝、任城威王彰、陈思王植),
// joined by 、 or 及.
func (x *run) titledObjects(i int, sen sentence) []int {
	var out []int
	for i < sen.e {
		if k := x.startsAt(i); k >= 0 && (x.ents[k].typ == tTitle || x.ents[k].typ == tOff) {
			i = x.ents[k].e
		}
		k := x.startsAt(i)
		if k < 0 || x.ents[k].typ != tPer {
			break
		}
		out = append(out, k)
		i = x.ents[k].e
		if c := x.at(i); c != '、' && c != '及' {
			break
		}
		i++
	}
	return out
}

// fatherOfList returns the father of a list of sons by their mothers
// (武皇帝二十五男：卞皇后生文皇帝、任城威王彰……，刘夫人生丰愍王昂……): the
// person before N男： or N子： earlier in the sentence than rune i, or -1.
func (x *run) fatherOfList(sen sentence, i int) int {
	for j := i - 1; j > sen.s; j-- {
		if x.rs[j] != '：' && x.rs[j] != ':' {
			continue
		}
		m := j - 1
		if x.at(m) == '人' {
			m--
		}
		if x.at(m) != '男' && x.at(m) != '子' {
			return -1
		}
		q := m
		for q > sen.s && numeral.has(x.at(q-1)) {
			q--
		}
		if k := x.endsAt(q); q < m && k >= 0 && x.ents[k].typ == tPer {
			return k
		}
		return -1
	}
	return -1
}

// genealogyWords follow X之 or X in 某，X之子也 and say what the subject
// of the sentence is to X.
var genealogyWords = []struct{ w, r string }{
	{"长子", "子女"}, {"次子", "子女"}, {"少子", "子女"}, {"幼子", "子女"}, {"庶子", "子女"}, {"嫡子", "子女"}, {"子", "子女"}, {"长女", "子女"}, {"次女", "子女"}, {"中女", "子女"}, {"少女", "子女"}, {"小女", "子女"}, {"女", "子女"},
	{"曾孙", "同族"}, {"玄孙", "同族"}, {"孙", "孙"}, {"弟", "同胞"}, {"兄", "同胞"}, {"从子", "同族"}, {"从孙", "同族"}, {"族子", "同族"}, {"族孙", "同族"}, {"从弟", "同族"}, {"后", "同族"},
}

// genealogy reads 某，X之子也 and 某，X子也: the sentence's first person is
// X's son (or grandson, brother …).
func (x *run) genealogy(ss []sentence) {
	firstPer := map[int]int{} // sentence start → its first person
	for _, f := range x.order {
		if x.ents[f].typ != tPer {
			continue
		}
		sen := sentOf(ss, x.ents[f].s)
		if _, ok := firstPer[sen.s]; !ok && sen.s >= 0 {
			firstPer[sen.s] = x.consortOf(f)
		}
	}
	for _, k := range x.order {
		elder := x.ents[k]
		if elder.typ != tPer {
			continue
		}
		j := elder.e
		if x.at(j) == '之' {
			j++
		}
		r := x.genealogyAt(j)
		if r == "" {
			continue
		}
		sen := sentOf(ss, elder.s)
		first, ok := firstPer[sen.s]
		if !ok || first == k || x.ents[first].s >= elder.s {
			continue
		}
		x.rels = append(x.rels, rel{h: k, t: x.aliasHead(first), r: r})
	}
}

// genealogyAt reads what the words at j say the sentence's subject is to
// the person before them: 之子也, 子也, 长子也, and a child counted by
// birth order closing its clause with or without 也 (权第六子。).
func (x *run) genealogyAt(j int) string {
	for _, g := range genealogyWords {
		n := len([]rune(g.w))
		if hasAt(x.rs, j, g.w) && x.at(j+n) == '也' {
			return g.r
		}
	}
	if x.at(j) != '第' {
		return ""
	}
	k := x.numeralsFrom(j + 1)
	if k == j+1 || k > j+3 || x.at(k) != '子' && x.at(k) != '女' {
		return ""
	}
	if end := x.at(k + 1); end == '也' || end == '。' || end == '，' {
		return "子女"
	}
	return ""
}

// firstAt is the first of words that stands at rs[i:], or "".
func firstAt(rs []rune, i int, words []string) string {
	for _, w := range words {
		if hasAt(rs, i, w) {
			return w
		}
	}
	return ""
}
