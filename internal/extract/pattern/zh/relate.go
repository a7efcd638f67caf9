package zh

import (
	"strings"

	"github.com/annals-project/annals/internal/chrono/eras"
)

// sentence is the span relations are read in.
type sentence struct{ s, e int }

// objVerbs take the mention after them as their object, so that mention is
// not the subject of a later verb.
var objVerbs = set("杀诛斩害弑执擒获攻击讨破伐围袭降归投依奔事从随见谓问召征徵辟举荐表告报救助迎送遇代立废逐捕收囚赦赐封生娶嫁谮劾拒败于於与及和并以拜为去弃背舍")

// causative verbs make the mention after them the doer of what follows.
var causative = set("遣使命令率督")

// sentOf returns the sentence containing rune i.
func sentOf(ss []sentence, i int) sentence {
	lo, hi := 0, len(ss)
	for lo < hi {
		m := (lo + hi) / 2
		if ss[m].e <= i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(ss) && ss[lo].s <= i {
		return ss[lo]
	}
	return sentence{-1, -1}
}

// aliasHead maps an alias mention to the person it names.
func (x *run) aliasHead(k int) int {
	for _, r := range x.rels {
		if r.t == k && r.r == "别称" {
			return r.h
		}
	}
	return k
}

// maxCarry bounds how far back, in runes, a subject carries: beyond it
// the evidence would be a page, not a passage.
const maxCarry = 240

// subject finds the doer of a verb at rune t: the nearest person (or group
// when groups may be) before it in its clause that is not some other verb's
// object, else the subject the clause has or inherits.
func (x *run) subject(t int, sen sentence, groups bool) int {
	ci := x.clauseAt(t)
	lo := sen.s
	if ci >= 0 && x.cls[ci].s > lo {
		lo = x.cls[ci].s
	}
	for oi := len(x.order) - 1; oi >= 0; oi-- {
		k := x.order[oi]
		en := x.ents[k]
		if en.e > t {
			continue
		}
		if en.s < lo {
			break
		}
		if en.typ != tPer && !(groups && en.typ == tGrp) {
			continue
		}
		if x.datesByReign(k) {
			continue // 孝文元年薨: 孝文 dates the death, someone else dies
		}
		if !x.plain && x.reignOf(k) {
			continue // 孙权时除上虞令: in 孙权's time, someone else was
		}
		if x.isAliasTail(k) {
			return x.aliasHead(k)
		}
		prev := x.at(en.s - 1)
		if causative.has(prev) {
			return k
		}
		if objVerbs.has(prev) && !x.isKinName(k) {
			continue
		}
		if x.isKinName(k) && en.e < t && !(x.at(en.e) == '嗣' || x.at(en.e) == '立') {
			// 父祐 … is the father, rarely the doer of what follows in
			// the same sentence unless it starts it, or stands right
			// before the verb (刘表子琮降曹公: 琮 surrendered).
			if kw := x.kinOf(k); kw != nil && kw.s > sen.s && !x.boundary(kw.s-1) {
				continue
			}
		}
		return k
	}
	if ci < 0 {
		return -1
	}
	k := x.cls[ci].subj
	if k < 0 || x.ents[k].s < 0 || x.ents[k].s >= t || x.datesByReign(k) {
		return -1
	}
	if x.ents[k].typ == tPer || groups && x.ents[k].typ == tGrp {
		return k
	}
	return -1
}

// datesByReign reports whether a person mention is the ruler of a date by
// his reign (孝文元年, 孝文后七年, 武帝立二十二岁, 武帝时): a ruler whose years
// texts count, with a year or 时 right after him. (韩午四年见杀: 韩午 is no
// ruler, and does die in his fourth year.)
func (x *run) datesByReign(k int) bool {
	e := x.ents[k].e
	dated := x.at(e) == '时'
	if !dated && (x.at(e) == '立' || hasAt(x.rs, e, "即位")) {
		j := e + 1
		if x.at(e) != '立' {
			j = e + 2
		}
		n := x.numeralsFrom(j)
		dated = n > j && (x.at(n) == '岁' || x.at(n) == '年')
	}
	if !dated {
		t := x.startsAt(e)
		if t < 0 && strings.ContainsRune("前中后後", x.at(e)) {
			t = x.startsAt(e + 1)
		}
		dated = t >= 0 && x.ents[t].typ == tTime && strings.ContainsRune(string(x.rs[x.ents[t].s:x.ents[t].e]), '年')
	}
	if !dated && !x.plain {
		// The year as written, where no time was read after him (孝文後二年).
		j := e
		if strings.ContainsRune("前中后後", x.at(j)) {
			j++
		}
		n := x.numeralsFrom(j)
		if x.at(j) == '元' {
			n = j + 1
		}
		dated = n > j && x.at(n) == '年'
	}
	if !dated && !x.plain && (hasAt(x.rs, e, "末年") || hasAt(x.rs, e, "初年")) {
		return x.rulerByTitle(k) // 昭帝末年为博士, 先主末年为太子舍人
	}
	// The ruler table last: subject() asks this of every person it passes.
	return dated && len(eras.LookupRuler(string(x.rs[x.ents[k].s:e]))) > 0
}

// reignOf says whether person k names a time, his reign, by 世 after him
// (高祖世), or 时 before an appointment (孙权时除上虞令). Otherwise only a
// ruler's title does: 曹操时为司空 is 曹操, at the time 司空, and 亮时在祁山
// is 亮; 先主时为牙门将 is another man.
func (x *run) reignOf(k int) bool {
	e := x.ents[k].e
	switch {
	case x.at(e) == '世':
		return true
	case x.at(e) != '时' || x.at(e+1) == '年':
		return false
	}
	return appointers.has(x.at(e+1)) && x.at(e+1) != '为' || x.rulerByTitle(k)
}

func (x *run) isAliasTail(k int) bool {
	for _, r := range x.rels {
		if r.t == k && r.r == "别称" {
			return true
		}
	}
	return false
}

func (x *run) isKinName(k int) bool { return x.kinOf(k) != nil }

func (x *run) kinOf(k int) *kin {
	for i := range x.kins {
		if x.kins[i].name == k {
			return &x.kins[i]
		}
	}
	return nil
}

// objects returns the mentions of the wanted types that start at rune i,
// following a list joined by 、 or 及.
func (x *run) objects(i int, sen sentence, types string) []int {
	var out []int
	for i < sen.e {
		k := x.startsAt(i)
		if k < 0 || !strings.Contains(types, x.ents[k].typ) {
			break
		}
		out = append(out, k)
		i = x.ents[k].e
		if c := x.at(i); c == '、' || c == '及' {
			i++
			continue
		}
		break
	}
	return out
}

// roleWords may stand between a verb and the person it takes: his role
// towards the subject (遣其将康怀英).
var roleWords = []string{"部将", "大将", "偏将", "裨将", "别将", "骁将", "将", "子", "弟", "兄"}

// personObjects reads the persons a verb at rune t takes when his role, his
// office or his place stands before his name (遣其将X, 遣中书舍人X).
func (x *run) personObjects(t int, sen sentence) []int {
	i := t
	if x.at(i) == '其' {
		i++
	}
	for _, w := range roleWords {
		if hasAt(x.rs, i, w) && x.free(i, i+len([]rune(w))) {
			i += len([]rune(w))
			break
		}
	}
	for steps := 0; steps < 3; steps++ {
		k := x.startsAt(i)
		if k < 0 || x.ents[k].typ != tOff && x.ents[k].typ != tTitle && x.ents[k].typ != tLoc {
			break
		}
		i = x.ents[k].e
	}
	if i == t {
		return nil
	}
	return x.objects(i, sen, tPer)
}

// verb is a trigger word and what it says.
type verb struct {
	w string
	// relation by tail type; empty means none
	loc, grp, per string
	// loc2 is a second relation a place takes (拔X: took it and so
	// attacked it).
	loc2    string
	perFlip bool // the person after the verb is the head (事X: X 下级 subject)
}

var verbs = []verb{
	// Flight and allegiance.
	{w: "出奔", loc: "逃奔", grp: "逃奔", per: "积极态度倾向"},
	{w: "亡奔", loc: "逃奔", grp: "逃奔", per: "积极态度倾向"},
	{w: "亡走", loc: "逃奔", grp: "逃奔", per: "积极态度倾向"},
	{w: "走投", loc: "逃奔", grp: "逃奔", per: "积极态度倾向"},
	{w: "投奔", loc: "逃奔", grp: "逃奔", per: "积极态度倾向"},
	{w: "逃奔", loc: "逃奔", grp: "逃奔", per: "积极态度倾向"},
	{w: "奔", loc: "逃奔", grp: "逃奔", per: "积极态度倾向"},
	{w: "走", loc: "逃奔", grp: "逃奔"},
	{w: "逃", loc: "逃奔", grp: "逃奔"},
	{w: "归附", grp: "所属团体", per: "积极态度倾向"},
	{w: "归", loc: "访", grp: "所属团体", per: "积极态度倾向"},
	{w: "附", grp: "所属团体", per: "积极态度倾向"},
	{w: "依", loc: "居", per: "积极态度倾向"},
	{w: "投", loc: "逃奔", grp: "逃奔", per: "积极态度倾向"},
	{w: "降", grp: "所属团体", per: "下级", perFlip: true},
	{w: "佐", per: "下级", perFlip: true},
	{w: "辅", per: "下级", perFlip: true},
	{w: "仕", grp: "所属团体"},
	{w: "事", grp: "所属团体", per: "下级", perFlip: true},
	{w: "从", per: "下级", perFlip: true},
	{w: "随", per: "下级", perFlip: true},
	{w: "属", per: "下级", perFlip: true},
	{w: "遣", per: "下级"},
	{w: "命", per: "下级"},
	{w: "令", per: "下级"},
	{w: "使", per: "下级"},
	{w: "召", per: "下级"},
	{w: "诏", per: "下级"},
	{w: "表", per: "积极态度倾向"},
	{w: "辟", per: "积极态度倾向"},
	{w: "引", per: "积极态度倾向"},
	{w: "结", per: "积极态度倾向", grp: "积极态度倾向"},
	{w: "救", per: "积极态度倾向", grp: "积极态度倾向"},
	{w: "助", per: "积极态度倾向", grp: "积极态度倾向"},
	{w: "援", per: "积极态度倾向", grp: "积极态度倾向"},
	{w: "荐", per: "积极态度倾向"},
	{w: "举", per: "积极态度倾向"},
	// Going and staying.
	{w: "还至", loc: "访"},
	{w: "趋", loc: "访"},
	{w: "趣", loc: "访"},
	{w: "向", loc: "访"},
	{w: "会", loc: "访"},
	{w: "营", loc: "占"},
	{w: "壁", loc: "占"},
	{w: "移镇", loc: "辖"},
	{w: "至", loc: "访"},
	{w: "如", loc: "访"},
	{w: "往", loc: "访"},
	{w: "诣", loc: "访"},
	{w: "到", loc: "访"},
	{w: "抵", loc: "访"},
	{w: "赴", loc: "访"},
	{w: "适", loc: "访"},
	{w: "入", loc: "访"},
	{w: "还", loc: "访"},
	{w: "出", loc: "访"},
	{w: "幸", loc: "访"},
	{w: "过", loc: "访"},
	{w: "渡", loc: "访"},
	{w: "居", loc: "居"},
	{w: "在", loc: "居"},
	{w: "寓", loc: "居"},
	{w: "家于", loc: "居"},
	{w: "家", loc: "居"},
	{w: "徙居", loc: "居"},
	{w: "屯", loc: "占"},
	{w: "驻", loc: "占"},
	{w: "镇", loc: "辖"},
	{w: "戍", loc: "辖"},
	{w: "守", loc: "辖"},
	{w: "军于", loc: "占"},
	{w: "次", loc: "居"},
	{w: "领", loc: "辖"},
	{w: "治", loc: "辖"},
	{w: "牧", loc: "辖"},
	{w: "知", loc: "辖"},
	{w: "保", loc: "占"},
	// Taking and attacking.
	{w: "据", loc: "占"},
	{w: "取", loc: "占", loc2: "攻"},
	{w: "陷", loc: "占", loc2: "攻"},
	{w: "拔", loc: "占", loc2: "攻"},
	{w: "克", loc: "占", loc2: "攻"},
	{w: "下", loc: "占"},
	{w: "平", loc: "占", loc2: "攻"},
	{w: "定", loc: "占"},
	{w: "略", loc: "攻", grp: "攻"}, // 略X: raided it (略陈留、颍川), not held it
	{w: "得", loc: "占"},
	{w: "战", loc: "攻", grp: "消极态度倾向", per: "消极态度倾向"},
	{w: "犯", loc: "攻", grp: "攻"},
	{w: "搏", grp: "消极态度倾向", per: "消极态度倾向"},
	{w: "俘", per: "消极态度倾向"},
	{w: "拘", per: "消极态度倾向"},
	{w: "囚", per: "消极态度倾向"},
	{w: "幽", per: "消极态度倾向"},
	{w: "诬", per: "消极态度倾向"},
	{w: "攻", loc: "攻", grp: "攻", per: "消极态度倾向"},
	{w: "伐", loc: "攻", grp: "攻", per: "消极态度倾向"},
	{w: "击", loc: "攻", grp: "攻", per: "消极态度倾向"},
	{w: "破", loc: "攻", grp: "攻", per: "消极态度倾向"},
	{w: "讨", loc: "攻", grp: "攻", per: "消极态度倾向"},
	{w: "围", loc: "攻", grp: "攻", per: "消极态度倾向"},
	{w: "袭", loc: "攻", grp: "攻", per: "消极态度倾向"},
	{w: "征", loc: "攻", grp: "攻", per: "消极态度倾向"},
	{w: "屠", loc: "攻", grp: "攻"},
	{w: "寇", loc: "攻", grp: "攻"},
	{w: "侵", loc: "攻", grp: "攻"},
	{w: "拒", grp: "消极态度倾向", per: "消极态度倾向"},
	{w: "距", grp: "消极态度倾向", per: "消极态度倾向"},
	{w: "败", grp: "消极态度倾向", per: "消极态度倾向"},
	{w: "叛", grp: "消极态度倾向", per: "消极态度倾向"},
	{w: "杀", per: "消极态度倾向"},
	{w: "诛", per: "消极态度倾向"},
	{w: "斩", per: "消极态度倾向"},
	{w: "害", per: "消极态度倾向"},
	{w: "弑", per: "消极态度倾向"},
	{w: "擒", per: "消极态度倾向"},
	{w: "执", per: "消极态度倾向"},
	{w: "获", per: "消极态度倾向"},
	{w: "鸩", per: "消极态度倾向"},
	{w: "谮", per: "消极态度倾向"},
	{w: "劾", per: "消极态度倾向"},
	{w: "废", per: "消极态度倾向"},
	{w: "逐", per: "消极态度倾向"},
	{w: "代", per: "更代", perFlip: true},
}

// verbIndex maps a verb's first rune to the verbs starting with it, longest
// first.
var verbIndex = func() map[rune][]verb {
	m := map[rune][]verb{}
	for _, v := range verbs {
		r := []rune(v.w)[0]
		m[r] = append(m[r], v)
	}
	for r, vs := range m {
		for i := 1; i < len(vs); i++ {
			for j := i; j > 0 && len([]rune(vs[j].w)) > len([]rune(vs[j-1].w)); j-- {
				vs[j], vs[j-1] = vs[j-1], vs[j]
			}
		}
		m[r] = vs
	}
	return m
}()

// enfeoffVerbs end right before a noble title.
var enfeoffVerbs = []string{"进封", "徙封", "改封", "更封", "追封", "袭封", "转封", "封", "袭", "嗣", "爵", "为"}

// relate reads the relations of every sentence.
func (x *run) relate(ss []sentence) {
	x.clauses()
	for _, k := range x.order {
		en := x.ents[k]
		sen := sentOf(ss, en.s)
		if sen.s < 0 || en.e > sen.e {
			continue
		}
		switch en.typ {
		case tOff:
			x.appointment(k, sen)
		case tTitle:
			x.enfeoff(k, sen)
			x.appointment(k, sen)
		}
	}
	x.kinship(ss)
	x.posthumous(ss)
	x.verbsIn(ss)
	x.killedAtPlace()
	x.passives(ss)
	x.battles(ss)
	x.pronouns()
	x.reigns()
	x.allegiance()
	x.placesBefore()
	x.reignNames(ss)
	x.marriages(ss)
	x.shortForms()
	x.rulerAddress(ss)
	x.deaths(ss)
}

// endsWith returns the longest of words that ends right before rune i.
func (x *run) endsWith(i int, words []string) string {
	for _, w := range words {
		wr := []rune(w)
		s := i - len(wr)
		if s < 0 {
			continue
		}
		ok := true
		for j, r := range wr {
			if x.rs[s+j] != r || x.cov[s+j] != 0 {
				ok = false
				break
			}
		}
		if ok {
			return w
		}
	}
	return ""
}

func (x *run) enfeoff(o int, sen sentence) {
	en := x.ents[o]
	w := x.endsWith(en.s, enfeoffVerbs)
	if w == "" {
		return
	}
	q := en.s - len([]rune(w))
	head := -1
	if w == "为" {
		// 封X为Y侯
		// 封X为Y侯, 立子霖为河东王, X为Y侯: the man right before 为.
		k := x.endsAt(q)
		if k < 0 || x.ents[k].typ != tPer {
			return
		}
		head = k
	} else {
		head = x.lifeOverCarry(x.subject(q, sen, false), en.s, sen)
	}
	if k := x.lifesAppointee(head, o, sen); k >= 0 {
		x.rels = append(x.rels, rel{h: x.aliasHead(k), t: o, r: "封爵"}) // 太祖表封千秋亭侯
		return
	}
	if head < 0 || x.notGiven(head, o, o) || x.datesByReign(head) {
		return // 汉王赐婴爵列侯: 婴's; 以高祖六年赐爵列侯: 高祖 dates it
	}
	x.rels = append(x.rels, rel{h: x.aliasHead(head), t: o, r: "封爵"})
}

// verbTail may follow an attack verb before its object (攻陷, 击破).
var verbTail = set("陷拔破克取下降围击灭平败走")

// coAgent lists the persons before a verb whom the subject went with or
// followed (从X攻Y, 与X击Y): they did it too.
var coAgent = set("从随与及偕同率")

// verbsIn reads the verbs of movement, allegiance and war.
func (x *run) verbsIn(ss []sentence) {
	for _, sen := range ss {
		for i := sen.s; i < sen.e; i++ {
			if x.cov[i] != 0 || x.kinAt(i) {
				continue
			}
			vs := verbIndex[x.rs[i]]
			if vs == nil {
				continue
			}
			for _, v := range vs {
				if !hasAt(x.rs, i, v.w) {
					continue
				}
				e := i + len([]rune(v.w))
				if !x.free(i, e) {
					continue
				}
				attack := v.loc == "攻" || v.per == "消极态度倾向"
				t := e
				if attack && verbTail.has(x.at(t)) && x.cov[t] == 0 {
					t++
				}
				if c := x.at(t); (c == '于' || c == '於') && v.loc != "" && v.w != "战" {
					t++
				}
				if v.w == "执" && x.takesHand(t) {
					break // 执亮手: a mark of trust, not an arrest
				}
				if v.w == "事" && strings.ContainsRune("专共", x.at(i-1)) {
					break // 得专事绍: to deal with 绍 alone; 共事: to serve beside
				}
				objs := x.objects(t, sen, tPer+tLoc+tGrp)
				if len(objs) == 0 && v.per != "" {
					objs = x.personObjects(t, sen)
				}
				if len(objs) == 0 {
					break
				}
				if v.w == "从" && strings.ContainsRune(askVerbs, x.at(x.ents[objs[len(objs)-1]].e)) {
					break // 从权请裔: asked 权 for him, not served him
				}
				head := x.subject(i, sen, v.grp != "" || attack)
				heads := []int{head}
				if !v.perFlip {
					heads = append(heads, x.coAgents(i, sen)...)
					heads = append(heads, x.listMates(head)...)
				}
				for _, h := range heads {
					if h < 0 {
						continue
					}
					for _, o := range objs {
						r := ""
						switch x.ents[o].typ {
						case tLoc:
							r = v.loc
						case tGrp:
							r = v.grp
						case tPer:
							r = v.per
						}
						if r == "" || o == h {
							continue
						}
						o = x.aliasHead(o)
						if v.perFlip && x.ents[o].typ == tPer {
							x.rels = append(x.rels, rel{h: o, t: h, r: r})
						} else {
							x.rels = append(x.rels, rel{h: h, t: o, r: r})
						}
						if v.loc2 != "" && x.ents[o].typ == tLoc {
							x.rels = append(x.rels, rel{h: h, t: o, r: v.loc2})
						}
					}
				}
				i = e - 1
				break
			}
		}
	}
}

// askVerbs after 从X make 从 "from": one asked X for something.
const askVerbs = "请求乞借索"

// takesHand says whether the person read at rune t is followed by his
// hand (执X手, 执X之手).
func (x *run) takesHand(t int) bool {
	k := x.startsAt(t)
	if k < 0 || x.ents[k].typ != tPer {
		return false
	}
	e := x.ents[k].e
	return x.at(e) == '手' || hasAt(x.rs, e, "之手")
}

// coAgents returns the persons named in the clause before rune i right
// after 从, 与 and the like, when only adverbs or pauses of a list stand
// between them and the verb.
func (x *run) coAgents(i int, sen sentence) []int {
	ci := x.clauseAt(i)
	if ci < 0 {
		return nil
	}
	lo := max(x.cls[ci].s, sen.s)
	var out []int
	j := i
	for j > lo && leadChars.has(x.at(j-1)) && x.cov[j-1] == 0 {
		j--
	}
	for j > lo {
		k := x.endsAt(j)
		if k < 0 || x.ents[k].typ != tPer {
			break
		}
		out = append(out, k)
		j = x.ents[k].s
		if x.at(j-1) == '、' {
			j--
			continue
		}
		if coAgent.has(x.at(j - 1)) {
			return out
		}
		break
	}
	return nil
}

// battles reads 与X战 (the subject fought X) and 与X谋, 与X合兵 (the
// subject sided with X).
func (x *run) battles(ss []sentence) {
	for _, sen := range ss {
		for i := sen.s; i < sen.e; i++ {
			if x.rs[i] != '与' || x.cov[i] != 0 {
				continue
			}
			objs := x.objects(i+1, sen, tPer+tGrp)
			if len(objs) == 0 {
				continue
			}
			j := x.ents[objs[len(objs)-1]].e
			if x.at(j) == '等' {
				j++
			}
			r := ""
			for _, w := range []string{"合战", "大战", "交战", "连战", "战", "相攻", "相拒", "争"} {
				if hasAt(x.rs, j, w) {
					r = "消极态度倾向"
					break
				}
			}
			if r == "" {
				for _, w := range []string{"合兵", "连兵", "连师", "并力", "共谋", "同谋", "谋", "共", "同", "俱", "偕", "连和", "结"} {
					if hasAt(x.rs, j, w) {
						r = "积极态度倾向"
						break
					}
				}
			}
			if r == "" && x.friends(j) && !strings.ContainsRune("闻知", x.at(i-1)) { // 闻与布厚: what he heard of another
				r = "积极态度倾向"
			}
			if r == "" {
				continue
			}
			head := x.subject(i, sen, true)
			if head < 0 {
				continue
			}
			for _, o := range objs {
				if o != head {
					x.rels = append(x.rels, rel{h: head, t: x.aliasHead(o), r: r})
				}
			}
		}
	}
}

// friendship after 与X, past an adverb or two (与云相结, 与光素旧, 独与长交):
// the two were friends or allies.
const (
	friendAdverbs = "素相甚雅深最尤益"
	friendWords   = "结交亲善厚旧友和好"
)

// friends says whether the words at rune j, after 与X, say that the two
// were friends.
func (x *run) friends(j int) bool {
	for k := 0; k < 2 && strings.ContainsRune(friendAdverbs, x.at(j)) && x.cov[j] == 0; k++ {
		j++
	}
	if j >= len(x.rs) || x.cov[j] != 0 || !strings.ContainsRune(friendWords, x.rs[j]) {
		return false
	}
	return !hasAt(x.rs, j, "交战") && !hasAt(x.rs, j, "交兵") && !hasAt(x.rs, j, "和战")
}

// deathChars are the one-character death verbs of deathVerbs.
const deathChars = "卒薨崩殁殂死"

// deathVerbs; 卒 also means a soldier, or "in the end" before a verb, so
// its neighbours are checked.
var deathVerbs = []string{"卒于", "薨于", "崩于", "死于", "殁于", "卒", "薨", "崩", "殁", "殂", "死"}

// afterDeath are the runes that may follow 卒 when it is a death: where
// (官, 家, 军中), when (年, 时, 后), burial and posthumous honours.
const afterDeath = "于於官家军中狱年时后葬谥諡赠追"

var accessionWords = []string{"即皇帝位", "即帝位", "即王位", "即尊位", "即尊号", "即位", "践祚", "践阼", "嗣位", "继位", "袭位", "登位", "称尊号", "称帝", "称王"}

// deaths reads deaths and accessions with their times and places.
func (x *run) deaths(ss []sentence) {
	for _, sen := range ss {
		for i := sen.s; i < sen.e; i++ {
			if x.cov[i] != 0 {
				continue
			}
			for _, w := range accessionWords {
				if !hasAt(x.rs, i, w) {
					continue
				}
				head := x.subject(i, sen, false)
				tm := x.timeNear(i, sen)
				if head >= 0 && tm >= 0 {
					x.rels = append(x.rels, rel{h: head, t: tm, r: "开始时间"})
				}
				break
			}
			for _, w := range deathVerbs {
				if !hasAt(x.rs, i, w) {
					continue
				}
				e := i + len([]rune(w))
				if !x.free(i, e) {
					break
				}
				if w == "卒" || w == "死" {
					if strings.ContainsRune("士兵步骑戍亡狱吏走健锐甲将其之", x.at(i-1)) || strings.ContainsRune("伍徒乘然者", x.at(e)) {
						break
					}
					if k := x.endsAt(i); k >= 0 && (x.ents[k].typ == tGrp || x.ents[k].typ == tLoc) {
						// 楚卒, 秦卒: the soldiers of a state.
						break
					}
					if w == "卒" && !x.boundary(e) && !strings.ContainsRune(afterDeath, x.at(e)) {
						// 卒亡其国, 卒为名将: "in the end", not a death.
						break
					}
					if w == "死" && !(x.endsAt(i) >= 0 || x.boundary(e) || x.boundary(i-1)) {
						break
					}
				}
				head := x.subject(i, sen, false)
				if kin := x.kinBefore(i); kin >= 0 {
					// 七年，权母吴氏薨: the mother died, not 权.
					head = x.startsAt(kin)
					if head >= 0 && (x.ents[head].typ != tPer || x.ents[head].e > i) {
						head = -1
					}
				}
				if head >= 0 && strings.ContainsRune(nobleDeaths, x.rs[i]) && x.rulerByTitle(head) {
					// 世祖即位，以俊为侍中……七年，卒: a sovereign's death is
					// 崩; the 卒 or 薨 is someone else's.
					head = -1
				}
				if head < 0 && !x.namesPerson(sen) {
					// 年六十二，永和四年卒: in a person's own chapter, a
					// death no one else is named in is his.
					head = x.chapterSubject(sen)
				}
				if head < 0 {
					break
				}
				if strings.HasSuffix(w, "于") {
					if k := x.startsAt(e); k >= 0 && x.ents[k].typ == tLoc {
						x.rels = append(x.rels, rel{h: head, t: k, r: "卒于"})
					}
				}
				if k := x.campBefore(i, e); k >= 0 {
					x.rels = append(x.rels, rel{h: head, t: k, r: "卒于"})
				}
				if tm := x.timeNear(i, sen); tm >= 0 {
					x.rels = append(x.rels, rel{h: head, t: tm, r: "死亡时间"})
				}
				i = e - 1
				break
			}
		}
	}
}

// campVerbs say where an army halts or holds: 据, 屯, 次, 驻, 军.
const campVerbs = "据屯次驻军营"

// campReach is how far back, in runes, a camp may name the place of a
// death in the field.
const campReach = 240

// campBefore reads the place of a death in camp (卒于军, 薨于军中): the
// last place the text has the army hold (据武功五丈原 … 卒于军) within
// campReach runes before, or -1.
func (x *run) campBefore(i, e int) int {
	j := e
	if x.at(j) == '于' || x.at(j) == '於' {
		j++
	}
	if x.at(j) != '军' && x.at(j) != '师' {
		return -1
	}
	if !x.boundary(j+1) && x.at(j+1) != '中' {
		return -1
	}
	best := -1
	for _, k := range x.order {
		en := x.ents[k]
		if en.e > i {
			break
		}
		if en.typ != tLoc || en.s < i-campReach {
			continue
		}
		for d := 1; d <= 3; d++ {
			if strings.ContainsRune(campVerbs, x.at(en.s-d)) {
				best = k
				break
			}
			if x.boundary(en.s - d) {
				break
			}
		}
	}
	return best
}

// namesPerson reports whether a person is named in the sentence.
func (x *run) namesPerson(sen sentence) bool {
	for _, k := range x.order {
		if en := x.ents[k]; en.typ == tPer && en.s >= sen.s && en.e <= sen.e && !x.isPosth(k) {
			return true
		}
	}
	return false
}

// timeNear returns the time mention closest before rune i in the sentence,
// or an age (时年…) right after it.
func (x *run) timeNear(i int, sen sentence) int {
	best := -1
	for _, k := range x.order {
		en := x.ents[k]
		if en.typ != tTime || en.s < sen.s || en.e > sen.e {
			continue
		}
		if en.e <= i {
			best = k
		} else if best < 0 && en.s-i <= 4 {
			best = k
		}
	}
	return best
}

// isRuler reports whether a mention is a ruler by title (太宗, 文帝), who
// gives offices rather than holds them.
func (x *run) isRuler(k int) bool {
	en := x.ents[k]
	if en.name != "" {
		return false
	}
	last := x.rs[en.e-1]
	if last == '帝' || last == '宗' || last == '祖' || last == '皇' {
		return true
	}
	switch string(x.rs[en.s:en.e]) {
	case "先主", "后主", "吴主", "魏主", "蜀主", "汉主", "武皇":
		return true
	}
	return false
}

// lastAppointee returns the holder of the last office read before rune p in
// the sentence, given to him after his name; -1 if none. An office before
// his name only says who he was (初辟镇东将军曹操府，迁黄门侍郎).
func (x *run) lastAppointee(sen sentence, p int) int {
	h, at := -1, -1
	for _, r := range x.rels {
		if r.r == "任官" && x.ents[r.t].s >= sen.s && x.ents[r.t].e <= p && x.ents[r.h].e <= x.ents[r.t].s && x.ents[r.t].s > at {
			h, at = r.h, x.ents[r.t].s
		}
	}
	// Another man named as a subject since then goes on instead (孙权为将
	// 军，逊年二十一，…，历东西曹令史).
	for _, c := range x.cls {
		if h >= 0 && c.s > at && c.e <= p && c.named && c.subj >= 0 && x.ents[c.subj].typ == tPer &&
			x.ents[c.subj].canonical(x.rs) != x.ents[h].canonical(x.rs) {
			return -1
		}
	}
	return h
}

// rulerWords are what a ruler does to a subject: speak to, ask, reward.
var rulerWords = []string{"谓", "问", "顾", "赐", "嘉", "谕", "宠", "任", "委", "擢", "用", "幸"}

// rulerAddress reads a ruler speaking to, rewarding or trusting a man as
// the man serving under him (太宗谓文本曰).
func (x *run) rulerAddress(ss []sentence) {
	for _, k := range x.order {
		en := x.ents[k]
		if en.typ != tPer || !x.isRuler(k) {
			continue
		}
		sen := sentOf(ss, en.s)
		i := en.e
		for i < sen.e && strings.ContainsRune("深甚亦又复乃遂因大素尤", x.at(i)) {
			i++
		}
		for _, w := range rulerWords {
			if !hasAt(x.rs, i, w) {
				continue
			}
			for _, o := range x.objects(i+len([]rune(w)), sen, tPer) {
				if o != k {
					x.rels = append(x.rels, rel{h: k, t: x.aliasHead(o), r: "下级"})
				}
			}
			break
		}
	}
}

// kinBefore returns, in the clause of rune i, the rune after a person's
// kinship word that comes before i (权母吴氏薨, 莽母功显君死), or -1: what
// happens at i is the kin's, not the person's.
func (x *run) kinBefore(i int) int {
	ci := x.clauseAt(i)
	if ci < 0 {
		return -1
	}
	for j := x.cls[ci].s + 1; j < i; j++ {
		if strings.ContainsRune("母父妻子弟兄姊妹", x.rs[j]) && x.cov[j] == 0 {
			if k := x.endsAt(j); k >= 0 && x.ents[k].typ == tPer {
				return j + 1
			}
		}
	}
	return -1
}

// noLocative are the verbs before 于 whose place is read elsewhere:
// death, burial and birth.
var noLocative = set("卒薨崩死殁葬生终")

// killedAtPlace reads 于 and a place after a killing (斩羽及子平于临沮):
// those killed died there. Other verb phrases before 于 and a place
// (败瑾于石佛山, 相拒於官渡) say where something happened, not that the
// subject went there: the annotators mark no relation for nineteen in
// twenty of them, and a 访 read from them was right one time in twenty.
func (x *run) killedAtPlace() {
	for i := 1; i+1 < len(x.rs); i++ {
		if x.rs[i] != '于' && x.rs[i] != '於' || x.cov[i] != 0 {
			continue
		}
		o := x.startsAt(i + 1)
		if o < 0 || x.ents[o].typ != tLoc {
			continue
		}
		if prev := x.at(i - 1); noLocative.has(prev) || !isHan(prev) {
			continue
		}
		for _, k := range x.killedBefore(i, x.ents[o].e) {
			x.rels = append(x.rels, rel{h: x.aliasHead(k), t: o, r: "卒于"})
		}
	}
}

// killVerbs put to death the persons right after them; captureVerbs take
// them, and put them to death when the words after the place say so
// (获羽及子平于临沮，斩之).
var (
	killVerbs    = set("斩杀诛戮害弑枭")
	captureVerbs = set("获擒禽执")
	killedAfter  = []string{"，斩之", "，杀之", "，诛之", "，并斩之", "，皆斩之", "，皆杀之", "，遂斩之", "，遂杀之"}
)

// listJoins join the persons killed together: 、, 及, 与, 并, and the kin
// word of the next (及子平, 并其妻).
var listJoins = []string{"及其子", "并其子", "及其弟", "及其妻", "及子", "及弟", "及妻", "并子", "并妻", "与子", "其子", "及", "与", "并", "、"}

// killedBefore returns the persons a killing verb puts to death in the
// words that end right before rune i (斩羽及子平于: 羽 and 平), or taken
// there and put to death in the words from rune after on, or nil.
func (x *run) killedBefore(i, after int) []int {
	killedThen := firstAt(x.rs, after, killedAfter) != ""
	var out []int
	for end := i; ; {
		k := x.endsAt(end)
		if k < 0 || x.ents[k].typ != tPer {
			return nil
		}
		out = append(out, k)
		s := x.ents[k].s
		if v := x.at(s - 1); (killVerbs.has(v) || killedThen && captureVerbs.has(v)) && x.cov[s-1] == 0 {
			return out
		}
		join := x.endsWith(s, listJoins)
		if join == "" {
			return nil
		}
		end = s - len([]rune(join))
	}
}

// listMates returns the persons listed with 、 before mention k (钦陵、赞婆攻
// 临洮: 钦陵 too).
func (x *run) listMates(k int) []int {
	if k < 0 {
		return nil
	}
	var out []int
	for s := x.ents[k].s; x.at(s-1) == '、'; {
		j := x.endsAt(s - 1)
		if j < 0 || x.ents[j].typ != x.ents[k].typ {
			break
		}
		out = append(out, j)
		s = x.ents[j].s
	}
	return out
}

// passiveVerbs after 为X所 say that X harmed the subject (为李罕之所败).
var passiveVerbs = set("败杀害擒执获破逐斩诛沮围攻袭虏俘囚并拒谮劾")

// passives reads 为X所败: X did it to the subject of the clause.
func (x *run) passives(ss []sentence) {
	for _, k := range x.order {
		en := x.ents[k]
		if en.typ != tPer && en.typ != tGrp || x.at(en.s-1) != '为' || x.at(en.e) != '所' || !passiveVerbs.has(x.at(en.e+1)) {
			continue
		}
		sen := sentOf(ss, en.s)
		h := x.subject(en.s-1, sen, true)
		if h < 0 || h == k {
			continue
		}
		x.rels = append(x.rels, rel{h: x.aliasHead(k), t: x.aliasHead(h), r: "消极态度倾向"})
	}
}

// pronounVerbs take 之 for the man the clauses before were about: favour
// (周文帝遇之甚厚) or war (友宁引兵击之).
var pronounVerbs = map[string]string{
	"遇": "积极态度倾向", "嘉": "积极态度倾向", "宠": "积极态度倾向", "爱": "积极态度倾向", "重": "积极态度倾向",
	"礼": "积极态度倾向", "厚": "积极态度倾向", "信": "积极态度倾向", "荐": "积极态度倾向", "举": "积极态度倾向",
	"救": "积极态度倾向", "援": "积极态度倾向", "纳": "积极态度倾向", "赦": "积极态度倾向", "奇": "积极态度倾向",
	"击": "消极态度倾向", "攻": "消极态度倾向", "讨": "消极态度倾向", "败": "消极态度倾向", "破": "消极态度倾向",
	"杀": "消极态度倾向", "斩": "消极态度倾向", "诛": "消极态度倾向", "擒": "消极态度倾向", "执": "消极态度倾向",
	"拒": "消极态度倾向", "袭": "消极态度倾向", "追": "消极态度倾向", "害": "消极态度倾向", "谮": "消极态度倾向",
}

// pronouns reads a verb with 之 in a clause that names its own subject as
// done to the man the text was about before (父光，…周文帝遇之甚厚).
func (x *run) pronouns() {
	for _, c := range x.cls {
		if !c.named || c.speech || c.prev < 0 || c.prev == c.subj || x.ents[c.prev].typ != tPer || x.ents[c.subj].typ != tPer {
			continue
		}
		for i := x.ents[c.subj].e; i+1 < c.e; i++ {
			if x.rs[i+1] != '之' || x.cov[i] != 0 {
				continue
			}
			r, ok := pronounVerbs[string(x.rs[i])]
			if !ok {
				continue
			}
			x.rels = append(x.rels, rel{h: c.subj, t: c.prev, r: r})
			break
		}
	}
}

// reigns reads 显祖时，起家为侍御中散: whoever the text is about served
// under the ruler named with 时 or 世.
func (x *run) reigns() {
	for _, c := range x.cls {
		if c.speech {
			continue
		}
		k := x.startsAt(c.s)
		if k < 0 || x.ents[k].typ != tPer || !x.isRuler(k) {
			continue
		}
		e := x.ents[k].e
		if !(x.at(e) == '时' || x.at(e) == '世') {
			continue
		}
		h := c.prev
		if c.named && c.subj != k {
			h = c.subj
		}
		if h < 0 || h == k || x.ents[h].typ != tPer || x.isRuler(h) {
			continue
		}
		x.rels = append(x.rels, rel{h: k, t: h, r: "下级"})
	}
}

// servantWords stand between a state and a man who served it (陈将吴明彻).
var servantWords = []string{"将", "臣", "相", "人", "大夫", "使", "主"}

// allegiance reads a state followed by 将, 臣 and a name: the man belonged
// to that state; after a man's name, the general served him (备将关羽).
func (x *run) allegiance() {
	for _, k := range x.order {
		en := x.ents[k]
		if en.typ == tPer {
			for _, w := range []string{"部将", "裨将", "别将", "大将", "将"} {
				if !hasAt(x.rs, en.e, w) || !x.free(en.e, en.e+len([]rune(w))) {
					continue
				}
				if p := x.startsAt(en.e + len([]rune(w))); p >= 0 && x.ents[p].typ == tPer {
					x.rels = append(x.rels, rel{h: x.aliasHead(k), t: x.aliasHead(p), r: "下级"})
				}
				break
			}
			continue
		}
		if en.typ != tGrp {
			continue
		}
		for _, w := range servantWords {
			if !hasAt(x.rs, en.e, w) || !x.free(en.e, en.e+len([]rune(w))) {
				continue
			}
			p := x.startsAt(en.e + len([]rune(w)))
			if p >= 0 && x.ents[p].typ == tPer {
				x.rels = append(x.rels, rel{h: x.aliasHead(p), t: k, r: "所属团体"})
			}
			break
		}
	}
}

// placesBefore reads places written right before a person's name (琅邪贡禹,
// 淮阳赵征卿): the histories name a man in passing with his commandery or
// county, which is where he came from. It is not so for a province (荆州刘
// 表 is the one who held it), a fallen dynasty (亡新王莽), a ruler's title
// (豫章郡高帝置, 庐江郡文帝分淮南置: who set the commandery up), or a place a
// verb governs (攻下邳吕布: the verb's).
func (x *run) placesBefore() {
	for _, k := range x.order {
		en := x.ents[k]
		if en.typ != tPer || x.isRuler(k) || x.byTitle(k) || x.at(en.e) == '置' {
			continue
		}
		var places []int
		for i := en.s; ; {
			p := x.endsAt(i)
			if p < 0 || x.ents[p].typ != tLoc || x.at(i-1) == '州' || x.at(x.ents[p].s) == '亡' {
				break
			}
			places, i = append(places, p), x.ents[p].s
		}
		if len(places) == 0 || x.placeVerbBefore(x.ents[places[len(places)-1]].s) {
			continue
		}
		for _, p := range places {
			x.rels = append(x.rels, rel{h: x.aliasHead(k), t: p, r: "籍贯"})
		}
	}
}

// placeVerbs take a place as their object: a place right after one is
// where someone went, attacked or stayed.
var placeVerbs = set("至到诣如之入出还归攻伐击围破拔取下据屯守镇居徙迁过幸在于自从向赴奔走治都")

// placeVerbBefore says whether a verb that governs a place comes right
// before rune i.
func (x *run) placeVerbBefore(i int) bool {
	return i > 0 && placeVerbs.has(x.rs[i-1]) && x.free(i-1, i)
}

// reignNames reads 是为X and 号为X after an accession (子辛立，是为帝辛): X is
// another name of the one who acceded.
func (x *run) reignNames(ss []sentence) {
	for _, k := range x.order {
		en := x.ents[k]
		if en.typ != tPer || !(hasAt(x.rs, en.s-2, "是为") || hasAt(x.rs, en.s-2, "号为") || hasAt(x.rs, en.s-2, "谓之")) {
			continue
		}
		if hasAt(x.rs, en.s-2, "谓之") && !x.namedCaller(en.s-2) {
			continue
		}
		sen := sentOf(ss, en.s)
		h, near := -1, -1
		// The one who acceded in the clause before: 子辛立. A title
		// nearer than any person (迎立代王，是为孝文皇帝) is the one
		// meant, and says nothing of the persons before it.
		for _, j := range x.order {
			o := x.ents[j]
			if o.e <= en.s-2 && o.s >= sen.s && j != k {
				switch o.typ {
				case tPer:
					h, near = j, j
				case tTitle, tOff:
					near = j
				}
			}
		}
		if near >= 0 && near != h {
			continue
		}
		if h < 0 {
			if ci := x.clauseAt(en.s); ci >= 0 {
				h = x.cls[ci].prev
			}
		}
		if h >= 0 && h != k && x.ents[h].typ == tPer && !x.kinFollows(h) {
			x.rels = append(x.rels, rel{h: x.aliasHead(h), t: k, r: "别称", alias: "号"})
		}
	}
}

// descentWords name a descendant or younger kin after a person: the one
// so named, not the person, is the one who acceded (立武帝曾孙，是为孝宣帝).
var descentWords = []string{"曾孙", "玄孙", "孙", "子", "女", "弟", "从子", "兄子"}

// kinFollows says whether a kinship word follows mention k.
func (x *run) kinFollows(k int) bool {
	e := x.ents[k].e
	for _, w := range descentWords {
		if hasAt(x.rs, e, w) {
			return true
		}
	}
	return false
}

// namedCaller says whether the clause of 谓之 at i names who calls, with
// no person among them (时人谓之X): 之 is then the one before. A clause
// that opens with 谓之 continues its subject, the caller, and 之 is
// someone else (项羽侵夺之地，谓之番君: 番君 is 吴芮, not 项羽).
func (x *run) namedCaller(i int) bool {
	ci := x.clauseAt(i)
	if ci < 0 || x.cls[ci].s >= i {
		return false
	}
	for j := x.cls[ci].s; j < i; j++ {
		if k := x.entAt(j); k >= 0 && x.ents[k].typ == tPer {
			return false
		}
	}
	return true
}

// spouseWords follow 纳X为 when X became a wife or consort.
var spouseWords = []string{"夫人", "皇后", "贵人", "昭仪", "妻", "妃", "后", "姬", "妾"}

// marriages reads 娶X and 纳X为夫人: the subject married X.
func (x *run) marriages(ss []sentence) {
	for _, k := range x.order {
		en := x.ents[k]
		if en.typ != tPer || en.s < 1 {
			continue
		}
		prev := x.at(en.s - 1)
		// 聘 also sends an envoy to a man (聘刘备于白帝) or hires him: only a
		// woman so named, or one made a wife, is married by it.
		ok := prev == '娶' || prev == '聘' && strings.ContainsRune("氏女姬", x.rs[en.e-1])
		if !ok && (prev == '纳' || prev == '立' || prev == '聘') && x.at(en.e) == '为' {
			for _, w := range spouseWords {
				if hasAt(x.rs, en.e+1, w) {
					ok = true
					break
				}
			}
		}
		if !ok {
			continue
		}
		sen := sentOf(ss, en.s)
		if h := x.subject(en.s-1, sen, false); h >= 0 && h != k && !x.isRuler(k) {
			x.rels = append(x.rels, rel{h: x.aliasHead(h), t: x.aliasHead(k), r: "婚恋"})
		}
	}
}

// shortForms ties the first short mention of a person (晟, 项王) to his
// full name written earlier in the text (孙晟, 项羽): another name he goes
// by.
func (x *run) shortForms() {
	seen := map[string]bool{}
	for _, k := range x.order {
		en := x.ents[k]
		if en.typ != tPer || en.name == "" || seen[en.name] || en.e-en.s > 2 {
			continue
		}
		seen[en.name] = true
		for _, j := range x.order {
			f := x.ents[j]
			if f.s >= en.s {
				break
			}
			if f.typ == tPer && f.name == "" && string(x.rs[f.s:f.e]) == en.name {
				// The given name ends the full name (羽 of 项羽); a short
				// form that does not is a title on the surname (项王).
				kind := "名"
				if !strings.HasSuffix(en.name, string(x.rs[en.s:en.e])) {
					kind = "称号"
				}
				x.rels = append(x.rels, rel{h: j, t: k, r: "别称", alias: kind})
				break
			}
		}
	}
}
