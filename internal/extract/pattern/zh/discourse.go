package zh

import "strings"

// Classical prose names the doer of a clause once and then drops him: in
// 樊楫，冠州人。初为军吏，从攻厓山，陞郎中 every clause after the first is
// 樊楫's. The text is cut into clauses at pauses; a clause that names its
// doer at its head sets the subject, and one that opens with a verb or an
// adverb inherits the subject of the clauses before it.

// clause is a stretch of text between two pauses.
type clause struct {
	s, e   int
	speech bool // inside quoted speech
	// subj is the subject in effect (named or inherited), prev the subject
	// carried in from the clauses before; -1 when unknown.
	subj, prev int
	// owner is the last subject named other than as someone's kin: the
	// person a kinship word opening the clause belongs to (子某, 父某).
	owner int
	named bool // the clause names its own subject
}

// clauseBreak ends a clause; 、 joins a list and does not.
var clauseBreak = set("，。；：！？,;:!?\n\r")

// leadChars are adverbs and conjunctions that may open a clause before its
// subject or verb.
var leadChars = set("初时及后既而乃遂于是至会俄寻先又复亦因并皆俱尝曾已竟卒终即便旋仍犹尚且然则故由此")

// leadWords are longer openers read before the subject.
var leadWords = []string{"于是", "是时", "至是", "先是", "既而", "俄而", "顷之", "久之", "未几", "寻而", "及是", "初", "时", "会", "后", "及", "既", "乃", "遂", "因", "又", "复", "亦", "寻", "俄", "而", "且", "然"}

// verbStart are the characters a subjectless clause typically opens with:
// verbs of office, movement, war, speech and state, and adverbs.
var verbStart = set("谥諡追为拜迁除授转徙补擢进加赠封袭嗣历累官位领兼行守知判摄权署试充任陞升改调起出入还归至到诣赴如往适趣奔走逃亡降叛反从随事依投附率将引帅统督攻击伐讨破袭围败斩杀诛擒执获俘取拔克陷据屯镇驻戍次营保收复平定略徇下遣使命令召征辟荐举表奏请上言曰谓对答问谏劝说议闻见得卒薨崩死殁葬居家徙移与同共又亦并皆俱乃遂因即便寻旋俄竟终未不弗尝曾已既还更再犹尚颇甚少幼性有无以自所尤善好能可宜欲当必独屡数首先素雅深大")

// clauses cuts the text into clauses and works out their subjects.
func (x *run) clauses() {
	x.cls = x.cls[:0]
	depth := 0
	s := 0
	flush := func(e int) {
		if e > s {
			x.cls = append(x.cls, clause{s: s, e: e, speech: depth > 0, subj: -1, prev: -1, owner: -1})
		}
	}
	// The texts set speech without quotation marks between spaces (亮答曰：
	// 君不见…乎？ 琦意感悟): a space after 曰： opens it and the next space
	// closes it.
	spaced := false
	for i, r := range x.rs {
		switch {
		case r == '「' || r == '『' || r == '“':
			flush(i)
			depth++
			s = i + 1
		case r == '」' || r == '』' || r == '”':
			flush(i)
			if depth > 0 {
				depth--
			}
			s = i + 1
		case r == ' ' && !x.plain && !spaced && i > 0 && (x.rs[i-1] == '：' || x.rs[i-1] == ':'):
			flush(i)
			depth++
			spaced = true
			s = i + 1
		case r == ' ' && spaced:
			flush(i)
			depth--
			spaced = false
			s = i + 1
		case clauseBreak.has(r):
			flush(i)
			s = i + 1
		}
	}
	flush(len(x.rs))
	carry, owner := -1, -1
	for ci := range x.cls {
		c := &x.cls[ci]
		k, subjless := x.leadSubject(c.s, c.e)
		if c.speech {
			if k >= 0 {
				c.subj, c.named = k, true
			}
			continue
		}
		// A subject fades after a page: the evidence would be too long.
		if carry >= 0 && c.s-x.ents[carry].e > maxCarry {
			carry = -1
		}
		if owner >= 0 && c.s-x.ents[owner].e > maxCarry {
			owner = -1
		}
		c.prev, c.owner = carry, owner
		heir := -1 // the man whose life goes on past k's death in this clause
		if k >= 0 && x.deathClause(k, c.e) {
			heir = x.outlivedBy(k, c)
			if heir >= 0 && !x.plain && carry >= 0 && x.ents[carry].typ == tPer && strings.ContainsRune("会值适", x.rs[c.s]) {
				// 琦意感悟，阴规出计。会黄祖死，得出: a third man's death that
				// only dates what follows goes on with the man the text was
				// telling of.
				if name := x.ents[carry].canonical(x.rs); name != x.ents[k].canonical(x.rs) && name != x.ents[heir].canonical(x.rs) {
					heir = carry
				}
			}
		}
		rewarded := -1
		if k < 0 && !x.plain {
			rewarded = x.throneRewards(ci)
		}
		// The man a sovereign's favour rewards in the clause after.
		favoured := -1
		if k >= 0 && !x.plain && x.rewardNext(ci) {
			if favoured = x.favoured(k, c.e); favoured == -2 {
				favoured = x.outlivedBy(k, c)
			}
		}
		switch {
		case x.imperial(c.s):
			// 诏以X为Y: the throne acts, the subject waits.
		case rewarded >= 0:
			// 张角反乱，…，帝思陶言，封中陵乡侯: the throne turns to the
			// man it names, and the reward in the clause after is his,
			// not the subject's before.
			carry = rewarded
		case k >= 0 && x.ancestryClause(k, c.e):
			// 诸葛亮字孔明…汉司隶校尉诸葛丰后也。父珪: the ancestor named
			// in a genealogy is not the subject, whose kin come next.
			c.subj = carry
		case k >= 0 && x.accessionClause(k, c.e):
			// 世祖即位，以俊为侍中: the ruler's accession dates the
			// clauses after it, whose subject goes on.
			c.subj, c.named = k, true
			c.prev = carry
		case heir >= 0:
			// 亮卒，迁前军师 in 邓芝's life: another man's death dates the
			// clauses after it, which go on with the man whose life is
			// told, for the dead take no office; kin named next are still
			// the dead man's (亮卒，子瞻嗣).
			c.subj, c.named = k, true
			carry, owner = heir, k
		case favoured >= 0:
			// 权嘉其功，即拜庐江太守; 权善之。…迁昭武将军; 权嘉桓功，封嘉
			// 兴侯: the one the sovereign favours, named or the man whose
			// life is told, is the one rewarded after.
			c.subj, c.named = k, true
			carry = favoured
		case k >= 0 && !x.plain && x.edicts(k):
			// 太后又诏珍与騊駼作名臣传，迁侍中: the throne's edict is
			// its own clause; the offices after it are the life's.
			c.subj, c.named = k, true
		case k >= 0:
			c.subj, c.named = k, true
			carry = k
			if kn := x.kinOf(k); kn == nil {
				owner = k
			} else if a := x.kinAnchor(kn); a >= 0 {
				// 袁绍长子谭: the father owns the kin named after.
				owner = a
			}
		case subjless:
			c.subj = carry
			if carry >= 0 && x.rulerByTitle(carry) && countIn(x.rs[c.s:c.e], nobleDeaths) > 0 {
				// 太祖…。嘉平六年薨: a sovereign's death is 崩; the 薨 is
				// the man's whose life is told.
				if k := x.chapterSubject(sentence{c.s, c.e}); k >= 0 {
					c.subj = k
				}
			}
		case x.sentenceStart(c.s):
			// A sentence that opens with a word we cannot read most
			// likely names someone new.
			carry, owner = -1, -1
		}
	}
}

// ancestryWords end a clause that names the subject's ancestor or
// father: X后也, X之子也, X曾孙也.
var ancestryWords = []string{"之苗裔也", "之后裔也", "之曾孙也", "之玄孙也", "之后也", "之子也", "之孙也", "苗裔也", "后裔也", "曾孙也", "玄孙也", "后也", "子也", "孙也",
	"之长子也", "之少子也", "之女也", "之长女也", "之少女也", "之弟也", "长子也", "次子也", "少子也", "中子也", "长女也", "次女也", "中女也", "少女也", "小女也", "女也", "弟也", "从弟也", "从子也"}

// ancestryClause says whether the clause ending at e is the mention k and
// an ancestry word alone.
func (x *run) ancestryClause(k, e int) bool { return x.nameAndWord(k, e, ancestryWords) }

// nameAndWord says whether the clause ending at e is mention k and one of
// words alone.
func (x *run) nameAndWord(k, e int, words []string) bool {
	for _, w := range words {
		if x.ents[k].e+len([]rune(w)) == e && hasAt(x.rs, x.ents[k].e, w) {
			return true
		}
	}
	return false
}

// deathWords end a clause that is a man's death alone (亮卒, 亮卒后).
var deathWords = []string{"卒后", "薨后", "死后", "殁后", "没后", "亡后", "卒", "薨", "殁", "死"}

// deathClause says whether the clause ending at e is mention k and a
// death word alone.
func (x *run) deathClause(k, e int) bool { return x.nameAndWord(k, e, deathWords) }

// outlivedBy is the mention of the man whose life the text tells at
// clause c, when that is someone other than k, who dies there or favours
// him; -1 otherwise.
func (x *run) outlivedBy(k int, c *clause) int {
	sub := x.chapterSubject(sentence{c.s, c.e})
	if sub < 0 || x.ents[sub].canonical(x.rs) == x.ents[k].canonical(x.rs) {
		return -1
	}
	return sub
}

// diedBefore says whether mention h names a man whose death a clause
// between h and mention t states (亮卒), in a relation r a dead man cannot
// take up: an office, a title or a deed told after his death are
// another's (亮卒，迁前军师 in 邓芝's life), unless a posthumous word (追封,
// 谥, 赠) gives them.
func (x *run) diedBefore(h, t int, r string) bool {
	switch r {
	case "死亡时间", "卒于", "别称", "子女", "同胞", "婚恋", "同族", "孙", "籍贯", "更代":
		return false
	}
	lo, hi := x.clauseAt(x.ents[h].s), x.clauseAt(x.ents[t].s)
	if lo < 0 || hi < 0 {
		return false
	}
	name := x.ents[h].canonical(x.rs)
	for ci := hi - 1; ci >= lo && ci >= hi-12; ci-- {
		c := x.cls[ci]
		if !c.named || c.subj < 0 || !x.deathClause(c.subj, c.e) || x.ents[c.subj].canonical(x.rs) != name {
			continue
		}
		between := string(x.rs[c.e:x.ents[t].s])
		for _, w := range posthumousWords {
			if strings.Contains(between, w) {
				return false
			}
		}
		return true
	}
	return false
}

// posthumousWords give a dead man a title or an office.
var posthumousWords = []string{"追封", "追谥", "追赠", "追尊", "追号", "谥", "赠"}

// accessionClause says whether the clause ending at e is its subject k
// and an accession word alone (文帝践阼, 世祖即位).
func (x *run) accessionClause(k, e int) bool { return x.nameAndWord(k, e, accessionWords) }

// leadSubject returns the mention a clause opens with as its subject (a
// person, possibly after his place and office, or a group), or -1 and
// whether the clause opens with a verb instead.
func (x *run) leadSubject(s, e int) (int, bool) {
	i := s
	for steps := 0; i < e && steps < 4; steps++ {
		if k := x.startsAt(i); k >= 0 && x.ents[k].typ == tTime {
			i = x.ents[k].e
			continue
		}
		if k := x.startsAt(i); k >= 0 && x.ents[k].typ == tPer && (x.at(x.ents[k].e) == '时' || x.at(x.ents[k].e) == '世') {
			// 太宗时: a time, not the subject.
			i = x.ents[k].e + 1
			continue
		}
		if k := x.startsAt(i); k >= 0 && x.ents[k].typ == tPer && !x.plain && x.datesByReign(k) {
			// 参立十七年，孝文後二年卒: 孝文 dates the death; 参 goes on.
			i = x.ents[k].e
			continue
		}
		if x.cov[i] != 0 {
			break
		}
		n := 0
		for _, w := range leadWords {
			if hasAt(x.rs, i, w) && x.free(i, i+len([]rune(w))) {
				n = len([]rune(w))
				break
			}
		}
		if n == 0 {
			break
		}
		i += n
	}
	if i >= e {
		// 太祖时， 是岁，: a time alone, the subject goes on.
		return -1, i > s
	}
	// 其子某, 子某嗣: the kin is the subject.
	if x.at(i) == '其' {
		i++
	}
	for _, kn := range x.kins {
		if kn.s == i {
			return kn.name, false
		}
	}
	k := x.startsAt(i)
	if k < 0 {
		return -1, verbStart.has(x.at(i))
	}
	j := k
	for steps := 0; steps < 3 && x.ents[j].typ != tPer; steps++ {
		if x.ents[j].typ == tTime {
			return -1, false
		}
		n := x.startsAt(x.ents[j].e)
		if n < 0 {
			break
		}
		j = n
	}
	switch x.ents[j].typ {
	case tPer:
		e := x.ents[j].e
		if x.at(e) == '之' {
			e++
		}
		// 宽兄谊，开府: the brother is the subject.
		for _, kn := range x.kins {
			if kn.s == e {
				return kn.name, false
			}
		}
		if x.at(x.ents[j].e) == '之' {
			return -1, false
		}
		return x.aliasHead(x.consortOf(j)), false
	case tGrp:
		if j == k {
			return j, false
		}
	}
	return -1, false
}

// consortOf is the consort a ruler's mention is written before (后主敬哀皇后,
// 先主甘夫人: the empress is meant, the ruler says whose), else k itself.
func (x *run) consortOf(k int) int {
	n := x.startsAt(x.ents[k].e)
	if n < 0 || x.ents[n].typ != tPer {
		return k
	}
	name := x.rs[x.ents[n].s:x.ents[n].e]
	for _, w := range consortWords {
		if strings.HasSuffix(string(name), w) {
			return n
		}
	}
	return k
}

// consortWords end the title of a ruler's consort.
var consortWords = []string{"后", "夫人", "妃", "姬", "美人", "婕妤", "贵人"}

// clauseAt returns the index of the clause holding rune i, or -1.
func (x *run) clauseAt(i int) int {
	lo, hi := 0, len(x.cls)
	for lo < hi {
		m := (lo + hi) / 2
		if x.cls[m].e <= i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(x.cls) && x.cls[lo].s <= i {
		return lo
	}
	return -1
}

// imperialWords open a clause whose doer is the throne.
var imperialWords = []string{"有诏", "诏", "制曰", "制", "敕", "上命", "帝命"}

// imperial reports whether the clause at s opens with an edict.
func (x *run) imperial(s int) bool { return x.opensWith(s, imperialWords) >= 0 }

// opensWith returns where the first of words that opens the clause at s,
// after a time, ends; −1 when none does.
func (x *run) opensWith(s int, words []string) int {
	if k := x.startsAt(s); k >= 0 && x.ents[k].typ == tTime {
		s = x.ents[k].e
	}
	for _, w := range words {
		if e := s + len([]rune(w)); hasAt(x.rs, s, w) && x.free(s, e) {
			return e
		}
	}
	return -1
}

// throneWords open a clause whose doer is the sovereign, named by no
// name.
var throneWords = []string{"天子", "帝"}

// rewardVerbs open a clause that rewards a man the text leaves out.
var rewardVerbs = set("封拜迁除徙转加赐进")

// throneRewards returns the man whose life is told when a clause that
// opens with the sovereign names him first (帝思陶言, 帝嘉长义) and the
// next clause rewards someone it leaves out; else −1. One the sovereign
// fights (帝征孙权) is not rewarded, nor is a precedent he cites
// (帝慰谕以荀林父、孟明视故事，拜为安远将军 rewards 于禁).
func (x *run) throneRewards(ci int) int {
	if ci+1 >= len(x.cls) || !rewardVerbs.has(x.at(x.cls[ci+1].s)) {
		return -1
	}
	if k := x.startsAt(x.cls[ci+1].s + 1); k >= 0 && x.ents[k].typ == tPer {
		return -1 // 拜某为…: the sovereign names whom he rewards
	}
	c := x.cls[ci]
	s := x.opensWith(c.s, throneWords)
	if s < 0 {
		return -1
	}
	for _, k := range x.order {
		if en := x.ents[k]; en.s >= s && en.e <= c.e && en.typ == tPer {
			if foughtVerbs.has(x.at(en.s-1)) || !x.isChapterSubject(en.canonical(x.rs)) {
				return -1
			}
			return k
		}
	}
	return -1
}

// favourVerbs say that one man thought well of another (权嘉其功, 权善之,
// 权器爱之).
var favourVerbs = set("嘉善壮奇异美器重贤爱")

// favoured returns whom mention k, opening the clause that ends at e,
// thinks well of: the man he names there with his deed (权嘉宁功), or −2
// for one he leaves unnamed (权嘉其功, 权器爱之); −1 when the clause is no
// such favour.
func (x *run) favoured(k, e int) int {
	i := x.ents[k].e
	for i < e && strings.ContainsRune("深甚亦又复乃遂因大素尤雅益", x.rs[i]) {
		i++
	}
	v := i
	for i < e && i-v < 2 && favourVerbs.has(x.rs[i]) {
		i++
	}
	if i == v || i >= e {
		return -1
	}
	if x.rs[i] == '其' || x.rs[i] == '之' {
		return -2
	}
	if j := x.startsAt(i); j >= 0 && x.ents[j].typ == tPer && strings.ContainsRune("功义言节勇能忠", x.at(x.ents[j].e)) {
		return j
	}
	return -1
}

// rewardNext says whether the clause after clause ci, or after a time
// alone there, opens on a reward or an appointment (权善之。黄武二年，封
// 石城侯).
func (x *run) rewardNext(ci int) bool {
	for n := ci + 1; n < len(x.cls) && n <= ci+2; n++ {
		c := x.cls[n]
		i := c.s
		if k := x.startsAt(i); k >= 0 && x.ents[k].typ == tTime {
			if x.ents[k].e >= c.e {
				continue // a time alone
			}
			i = x.ents[k].e
		}
		for i < c.e && strings.ContainsRune("即遂乃复又寻后", x.rs[i]) {
			i++
		}
		return rewardVerbs.has(x.at(i)) || strings.ContainsRune("为入出擢", x.at(i)) // 霍光甚重之，入为光禄大夫
	}
	return false
}

// edicts says whether mention k issues an edict: 诏 right after him, or
// after an adverb (邓太后诏, 太后又诏).
func (x *run) edicts(k int) bool {
	i := x.ents[k].e
	if strings.ContainsRune("又乃复遂因亦即", x.at(i)) {
		i++
	}
	return x.at(i) == '诏' || hasAt(x.rs, i, "下诏")
}

// sentenceStart reports whether rune s opens a sentence.
func (x *run) sentenceStart(s int) bool {
	for i := s - 1; i >= 0; i-- {
		switch r := x.rs[i]; {
		case r == '。' || r == '！' || r == '？' || r == '\n':
			return true
		case isHan(r):
			return false
		}
	}
	return true
}

// kinAnchor returns the person named right before a kinship word (袁绍 in
// 袁绍长子谭, 袁绍之子谭), or -1.
func (x *run) kinAnchor(kn *kin) int {
	q := kn.s
	if x.at(q-1) == '之' {
		q--
	}
	if a := x.endsAt(q); a >= 0 && x.ents[a].typ == tPer {
		return x.aliasHead(a)
	}
	return -1
}
