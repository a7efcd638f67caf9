package zh

import "strings"

// sentence is the span relations are read in.
type sentence struct{ s, e int }

// objVerbs take the mention after them as their object, so that mention is
// not the subject of a later verb.
var objVerbs = set("杀诛斩害弑执擒获攻击讨破伐围袭降归投依奔事从随见谓问召征举荐表告报救助迎送遇代立废逐捕收囚赦赐封生娶嫁谮劾拒败于於与及和并以拜为")

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
		if x.isKinName(k) && !(x.at(en.e) == '嗣' || x.at(en.e) == '立') {
			// 父祐 … is the father, rarely the doer of what follows in
			// the same sentence unless it starts it.
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
	if k < 0 || x.ents[k].s < 0 || x.ents[k].s >= t {
		return -1
	}
	if x.ents[k].typ == tPer || groups && x.ents[k].typ == tGrp {
		return k
	}
	return -1
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
		if c := x.at(i); c == '、' || c == '及' || c == '与' && len(out) > 0 && false {
			i++
			continue
		}
		break
	}
	return out
}

// verb is a trigger word and what it says.
type verb struct {
	w string
	// relation by tail type; empty means none
	loc, grp, per string
	perFlip       bool // the person after the verb is the head (事X: X 下级 subject)
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
	{w: "降", grp: "所属团体"},
	{w: "仕", grp: "所属团体"},
	{w: "事", grp: "所属团体", per: "下级", perFlip: true},
	{w: "从", per: "下级", perFlip: true},
	{w: "随", per: "下级", perFlip: true},
	{w: "属", per: "下级", perFlip: true},
	{w: "遣", per: "下级"},
	{w: "结", per: "积极态度倾向", grp: "积极态度倾向"},
	{w: "救", per: "积极态度倾向", grp: "积极态度倾向"},
	{w: "助", per: "积极态度倾向", grp: "积极态度倾向"},
	{w: "援", per: "积极态度倾向", grp: "积极态度倾向"},
	{w: "荐", per: "积极态度倾向"},
	{w: "举", per: "积极态度倾向"},
	// Going and staying.
	{w: "还至", loc: "访"},
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
	{w: "寓", loc: "居"},
	{w: "家于", loc: "居"},
	{w: "家", loc: "居"},
	{w: "徙居", loc: "居"},
	{w: "屯", loc: "辖"},
	{w: "驻", loc: "辖"},
	{w: "镇", loc: "辖"},
	{w: "戍", loc: "辖"},
	{w: "守", loc: "辖"},
	{w: "军于", loc: "辖"},
	{w: "次", loc: "辖"},
	{w: "领", loc: "辖"},
	{w: "治", loc: "辖"},
	{w: "牧", loc: "辖"},
	{w: "知", loc: "辖"},
	{w: "保", loc: "辖"},
	// Taking and attacking.
	{w: "据", loc: "占"},
	{w: "取", loc: "占"},
	{w: "陷", loc: "占"},
	{w: "拔", loc: "占"},
	{w: "克", loc: "占"},
	{w: "下", loc: "占"},
	{w: "定", loc: "占"},
	{w: "略", loc: "占"},
	{w: "得", loc: "占"},
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

// appointVerbs end right before an office a person was given.
var appointVerbs = []string{"累迁", "官至", "位至", "进位", "追赠", "复为", "还为", "出为", "入为", "召为", "征为", "拜为", "迁为", "转为", "徙为", "除为", "以为", "拜", "迁", "为", "领", "守", "行", "除", "转", "徙", "补", "授", "加", "假", "署", "兼", "历", "赠", "试", "录", "知", "判", "摄", "充", "任", "征", "召", "进"}

// appointers put the person after them into an office (以X为Y).
var appointers = set("以表荐举拜命用署请奏召征迁擢辟补除授立封")

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
		}
	}
	x.kinship(ss)
	x.verbsIn(ss)
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

func (x *run) appointment(o int, sen sentence) {
	en := x.ents[o]
	p := en.s
	place := -1
	if k := x.endsAt(p); k >= 0 && x.ents[k].typ == tLoc {
		place = k
		p = x.ents[k].s
	}
	head := -1
	// Apposition: 宰相元载、杜鸿渐.
	for _, k := range x.objects(en.e, sen, tPer) {
		x.rels = append(x.rels, rel{h: x.aliasHead(k), t: o, r: "任官"})
		head = k
	}
	if head >= 0 {
		return
	}
	w := x.endsWith(p, appointVerbs)
	switch {
	case w != "":
		q := p - len([]rune(w))
		if k := x.endsAt(q); k >= 0 && x.ents[k].typ == tPer {
			// X为Y, or 以X为Y.
			head = k
		} else if h := x.lastAppointee(sen, p); h >= 0 {
			// 表权为讨虏将军，领会稽太守: the same man goes on.
			head = h
		} else {
			head = x.subject(q, sen, false)
		}
	case x.at(p-1) == '、' || x.at(p-1) == '，':
		// One office of a list: the holder of the office before it.
		if k := x.endsAt(p - 1); k >= 0 && (x.ents[k].typ == tOff || x.ents[k].typ == tLoc) {
			for _, r := range x.rels {
				if r.t == k && (r.r == "任官" || r.r == "辖") {
					head = r.h
				}
			}
		}
	}
	if head < 0 || x.ents[head].typ != tPer || x.isRuler(head) {
		return
	}
	head = x.aliasHead(head)
	x.rels = append(x.rels, rel{h: head, t: o, r: "任官"})
	if place >= 0 {
		x.rels = append(x.rels, rel{h: head, t: place, r: "辖"})
	}
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
		k := x.endsAt(q)
		if k < 0 || x.ents[k].typ != tPer || x.endsWith(x.ents[k].s, enfeoffVerbs) == "" {
			return
		}
		head = k
	} else {
		head = x.subject(q, sen, false)
	}
	if head < 0 {
		return
	}
	x.rels = append(x.rels, rel{h: x.aliasHead(head), t: o, r: "封爵"})
}

// kinship turns kinship words into relations with the person they belong
// to: the one right before (X子Y, X之子Y) or the sentence's subject.
func (x *run) kinship(ss []sentence) {
	for _, kn := range x.kins {
		sen := sentOf(ss, kn.s)
		if sen.s < 0 {
			continue
		}
		q := kn.s
		if x.at(q-1) == '之' || x.at(q-1) == '其' {
			q--
		}
		anchor := x.endsAt(q)
		if anchor >= 0 && x.ents[anchor].typ != tPer {
			anchor = -1
		}
		if anchor < 0 {
			anchor = x.subject(q, sen, false)
		}
		if ci := x.clauseAt(q); anchor == kn.name || anchor < 0 && ci >= 0 && x.cls[ci].s == q {
			// 父祐, 子禅嗣 open a clause: the kin of the subject before.
			anchor = -1
			if ci >= 0 && x.cls[ci].s == q {
				anchor = x.cls[ci].prev
			}
		}
		if anchor < 0 || anchor == kn.name || x.ents[anchor].typ != tPer {
			continue
		}
		anchor = x.aliasHead(anchor)
		name := kn.name
		switch kn.word {
		case "父", "母":
			x.rels = append(x.rels, rel{h: name, t: anchor, r: "子女"})
		case "祖父", "祖":
			x.rels = append(x.rels, rel{h: name, t: anchor, r: "孙"})
		case "子", "长子", "次子", "少子", "中子", "幼子", "嫡子", "庶子", "太子", "世子", "公子", "女":
			x.rels = append(x.rels, rel{h: anchor, t: name, r: "子女"})
			if c := x.at(x.ents[name].e); c == '嗣' || c == '立' {
				x.rels = append(x.rels, rel{h: anchor, t: name, r: "更代"})
			}
		case "弟", "兄", "姊", "妹", "女弟", "母弟":
			x.rels = append(x.rels, rel{h: anchor, t: name, r: "同胞"})
		case "妻", "夫人":
			x.rels = append(x.rels, rel{h: anchor, t: name, r: "婚恋"})
		case "孙":
			x.rels = append(x.rels, rel{h: anchor, t: name, r: "孙"})
		default:
			x.rels = append(x.rels, rel{h: anchor, t: name, r: "同族"})
		}
	}
	// X之子也, X之孙也: the sentence's first person descends from X.
	for _, sen := range ss {
		for i := sen.s; i+2 < sen.e; i++ {
			if x.rs[i] != '之' || x.cov[i] != 0 {
				continue
			}
			w, r, flip := "", "", false
			for _, c := range []struct{ w, r string }{{"子也", "子女"}, {"孙也", "孙"}, {"弟也", "同胞"}, {"兄也", "同胞"}, {"族子也", "同族"}, {"族孙也", "同族"}, {"从子也", "同族"}, {"从孙也", "同族"}, {"从弟也", "同胞"}, {"曾孙也", "同族"}, {"玄孙也", "同族"}, {"后也", "同族"}} {
				if hasAt(x.rs, i+1, c.w) {
					w, r = c.w, c.r
				}
			}
			if w == "" {
				continue
			}
			_ = flip
			elder := x.endsAt(i)
			if elder < 0 || x.ents[elder].typ != tPer {
				continue
			}
			first := -1
			for _, k := range x.order {
				if x.ents[k].s >= sen.s && x.ents[k].typ == tPer {
					first = k
					break
				}
			}
			if first < 0 || first == elder || x.ents[first].s >= x.ents[elder].s {
				continue
			}
			x.rels = append(x.rels, rel{h: elder, t: x.aliasHead(first), r: r})
		}
	}
}

// verbsIn reads the verbs of movement, allegiance and war.
func (x *run) verbsIn(ss []sentence) {
	for _, sen := range ss {
		for i := sen.s; i < sen.e; i++ {
			if x.cov[i] != 0 {
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
				t := e
				if c := x.at(t); (c == '于' || c == '於') && v.loc != "" {
					t++
				}
				objs := x.objects(t, sen, tPer+tLoc+tGrp)
				if len(objs) == 0 {
					break
				}
				head := x.subject(i, sen, v.grp != "" || v.loc == "攻" || v.per == "消极态度倾向")
				if head < 0 {
					break
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
					if r == "" || o == head {
						continue
					}
					o = x.aliasHead(o)
					if v.perFlip && x.ents[o].typ == tPer {
						x.rels = append(x.rels, rel{h: o, t: head, r: r})
					} else {
						x.rels = append(x.rels, rel{h: head, t: o, r: r})
					}
				}
				i = e - 1
				break
			}
		}
	}
}

// deathVerbs; 卒 also means a soldier, so its neighbours are checked.
var deathVerbs = []string{"卒于", "薨于", "崩于", "死于", "殁于", "卒", "薨", "崩", "殁", "殂", "死"}

var accessionWords = []string{"即皇帝位", "即帝位", "即王位", "即位", "践祚", "践阼", "嗣位", "继位", "袭位", "登位", "称帝", "称王"}

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
					if strings.ContainsRune("士兵步骑戍亡狱吏走健锐甲将", x.at(i-1)) || strings.ContainsRune("伍徒乘然者", x.at(e)) {
						break
					}
					if w == "死" && !(x.endsAt(i) >= 0 || x.boundary(e) || x.boundary(i-1)) {
						break
					}
				}
				head := x.subject(i, sen, false)
				if head < 0 {
					break
				}
				if strings.HasSuffix(w, "于") {
					if k := x.startsAt(e); k >= 0 && x.ents[k].typ == tLoc {
						x.rels = append(x.rels, rel{h: head, t: k, r: "卒于"})
					}
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
	if last == '帝' || last == '宗' || last == '祖' {
		return true
	}
	switch string(x.rs[en.s:en.e]) {
	case "先主", "后主", "吴主", "魏主", "蜀主", "汉主", "武皇":
		return true
	}
	return false
}

// lastAppointee returns the holder of the last office read before rune p in
// the sentence, or -1.
func (x *run) lastAppointee(sen sentence, p int) int {
	h := -1
	for _, r := range x.rels {
		if r.r == "任官" && x.ents[r.t].s >= sen.s && x.ents[r.t].e <= p {
			h = r.h
		}
	}
	return h
}
