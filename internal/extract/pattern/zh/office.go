package zh

import "strings"

// Offices: who held them. An office is one of a chain of offices and
// titles joined by 、 (拜使持节、中军大将军、大都督); the holder is named
// after the chain (太师、大冢宰、晋公护), before its verb (刘备为豫州牧, 以X为,
// 拜X), by the clause before (召逊，拜偏将军), or is the subject the clause
// inherits (子敦，辅国将军).

// appointVerbs end right before an office a person was given.
var appointVerbs = []string{"累官至", "累迁至", "累迁", "累官", "累转", "官至", "位至", "仕至", "卒于", "终于", "进位", "进阶", "进拜", "追赠", "复为", "还为", "出为", "入为", "召为", "征为", "拜为", "迁为", "转为", "徙为", "除为", "以为", "擢为", "起为", "袭为", "改授", "拜", "迁", "为", "领", "守", "行", "除", "转", "徙", "补", "授", "加", "假", "署", "兼", "历", "赠", "试", "录", "知", "判", "摄", "充", "任", "征", "召", "进", "陞", "升", "擢", "改", "调", "终", "袭", "位", "官"}

// servedOffices are held as someone's heir, and as posts in someone's
// service or household: X太子 is X's heir, 项王使者 his envoy, 沛公左司马
// his officer, 平原君美人 his concubine.
var servedOffices = map[string]bool{"太子": true, "皇太子": true, "世子": true, "太孙": true, "皇太孙": true,
	"使者": true, "舍人": true, "左司马": true, "右司马": true, "中涓": true, "宾客": true,
	"美人": true, "夫人": true, "宠姬": true}

// heirTitles name a sovereign's heir.
var heirTitles = map[string]bool{"太子": true, "皇太子": true, "世子": true, "太孙": true, "皇太孙": true}

// appointers put the person right after them into the office that follows
// (拜友宁建武军节度使, 以X为Y, 表X为Y).
var appointers = set("以表荐举拜命用署请奏召征徵迁擢辟补除授加赠封进起引选推")

// summoners call a man whom the next clause appoints (召逊，拜偏将军).
var summoners = set("召征徵辟引擢用起")

// officeChain returns the first and last mention of the chain of offices
// and titles, joined by 、, that holds mention o.
func (x *run) officeChain(o int) (int, int) {
	first, last := o, o
	for {
		p := x.ents[first].s
		p = x.placeStart(p)
		if x.at(p-1) == '、' {
			p--
		}
		k := x.endsAt(p)
		if k < 0 || x.ents[k].typ != tOff && x.ents[k].typ != tTitle {
			break
		}
		first = k
	}
	for {
		e := x.ents[last].e
		if x.at(e) == '、' {
			e++
		}
		k := x.startsAt(e)
		for steps := 0; k >= 0 && steps < 2 && (x.ents[k].typ == tLoc || x.ents[k].typ == tGrp); steps++ {
			k = x.startsAt(x.placeEnd(x.ents[k].e))
		}
		if k < 0 || x.ents[k].typ != tOff && x.ents[k].typ != tTitle {
			break
		}
		last = k
	}
	return first, last
}

// appointment gives office or title o to its holder, and the place before
// an office (雍州刺史) to him as a place he governed.
func (x *run) appointment(o int, sen sentence) {
	first, last := x.officeChain(o)
	en := x.ents[o]
	r := "任官"
	if en.typ == tTitle {
		r = "封爵"
	}
	place := -1
	if en.typ == tOff {
		if k := x.endsAt(x.placeGap(en.s)); k >= 0 && x.ents[k].typ == tLoc {
			place = k
		}
	}
	give := func(h int) {
		h = x.aliasHead(h)
		x.rels = append(x.rels, rel{h: h, t: o, r: r})
		if place >= 0 {
			x.rels = append(x.rels, rel{h: h, t: place, r: "辖"})
		}
	}
	// Apposition: 宰相元载、杜鸿渐; 太师、大冢宰、晋公护.
	if objs := x.objects(x.ents[last].e, sen, tPer); len(objs) > 0 {
		for _, k := range objs {
			give(k)
		}
		return
	}
	if en.typ == tTitle && first == o && last == o {
		// A title alone is given by 封 and its kin, read by enfeoff.
		return
	}
	head := x.holder(first, sen)
	if k := x.lifesAppointee(head, first, sen); k >= 0 {
		give(k)
		return
	}
	if head < 0 || x.ents[head].typ != tPer || x.isRuler(head) || x.notGiven(head, first, last) || x.rulerOfAnotherLife(head, first) {
		return
	}
	give(head)
	if x.jointlyGiven(head, first) {
		for _, k := range x.listOf(head) {
			give(k)
		}
	}
	// 以X为Y, 拜X Y: whoever appointed him was his superior.
	// 推融为大将军 elects a leader, who is no one's subordinate.
	if p := x.ents[head].s; appointers.has(x.at(p-1)) && x.at(p-1) != '推' && p >= sen.s && x.ents[head].e <= x.ents[first].s {
		if a := x.subject(p-1, sen, false); a >= 0 && a != head && x.ents[a].typ == tPer {
			x.rels = append(x.rels, rel{h: x.aliasHead(a), t: x.aliasHead(head), r: "下级"})
		}
	}
}

// jointWords before 为 say that the office went to each of a list (贡、
// 薛、韦、匡迭为宰相; 吴汉、王梁，…，并为三公).
const jointWords = "皆并俱迭咸同"

// jointlyGiven says whether office t went to every name of person h's
// list: the words from h to t end in 皆为 or the like, or an appointing
// verb governs the whole list right before 为 (引闳、弘为议郎).
func (x *run) jointlyGiven(h, t int) bool {
	e := x.ents[t].s
	if e-x.ents[h].e >= 2 && x.at(e-1) == '为' && strings.ContainsRune(jointWords, x.at(e-2)) && x.free(e-2, e) {
		return true
	}
	mates := x.listMates(h)
	return len(mates) > 0 && x.ents[h].e == e-1 && x.at(e-1) == '为' && appointers.has(x.at(x.ents[mates[len(mates)-1]].s-1))
}

// listOf returns the other names of the list of mentions of k's type,
// joined by 、, that mention k is one of.
func (x *run) listOf(k int) []int {
	out := x.listMates(k)
	for e := x.ents[k].e; x.at(e) == '、'; {
		j := x.startsAt(e + 1)
		for j >= 0 && x.ents[k].typ == tPer && (x.ents[j].typ == tOff || x.ents[j].typ == tTitle) {
			j = x.startsAt(x.ents[j].e) // 侍郎郑吉、校尉司马憙: each with his office
		}
		if j < 0 || x.ents[j].typ != x.ents[k].typ {
			break
		}
		out = append(out, j)
		e = x.ents[j].e
	}
	return out
}

// notGiven says whether the words around the chain of offices from first
// to last say that person h did not receive it: he gave it, he was the
// one fought, or 为 before it means "by" or "for". The rules and the pair
// classifier both ask it.
func (x *run) notGiven(h, first, last int) bool {
	return x.appointsAnother(h, first) || x.notHeld(last) || x.declined(last) || x.fought(h, first)
}

// declined says whether the clause after office or title t says it was
// refused (表为左中郎将，皆不就; 征为博士，称疾不至): offered, not held.
func (x *run) declined(t int) bool {
	e := x.ents[t].e
	if x.at(e) != '，' {
		return false
	}
	e++
	for strings.ContainsRune("皆并俱又复辄遂", x.at(e)) {
		e++
	}
	return firstAt(x.rs, e, []string{"不就", "不应", "不受", "不拜", "不至", "不行", "辞不", "固辞", "称疾不就", "称疾不行", "称疾不至", "以疾辞", "让不"}) != ""
}

// appointsAnother says whether the words from person h to office or title
// t say that h gave it to someone else: another person named between
// them after an appointing verb (汉王以苍为代相, 汉王赐哙爵为列侯; not a
// list, 何武、师丹为三公), or an appointing verb with its object left out
// or written before 为 (汉王以为治粟都尉, 高祖召其姊为美人). A verb joined
// to 为 (拜为, 征为) or followed by the office (拜丞相) appoints h himself.
func (x *run) appointsAnother(h, t int) bool {
	s, e := x.ents[h].e, x.ents[t].s
	if s >= e {
		return false
	}
	gives := func(r rune) bool { return appointers.has(r) || r == '赐' }
	for _, k := range x.order {
		en := x.ents[k]
		if en.s < s || en.e > e || en.typ != tPer {
			continue
		}
		// 立章邯为雍王, 尊怀王为义帝: installing a man as; 立宣帝 alone
		// makes him no office.
		if gives(x.at(en.s-1)) || strings.ContainsRune("立尊", x.at(en.s-1)) && x.at(en.e) == '为' {
			return true
		}
	}
	if x.elidedAppointee(s, e) || x.petitions(h, t) {
		return true
	}
	for s < e && strings.ContainsRune(adverbsBeforeVerb, x.rs[s]) {
		s++
	}
	if s >= e || !gives(x.rs[s]) && !strings.ContainsRune("立尊", x.rs[s]) {
		return false
	}
	// 太祖以为, 太祖辟为司空掾属: he appointed someone; but in 召淮署为门下
	// 贼曹 the one summoned is the one appointed.
	if hasAt(x.rs, s, "以为") || e-s == 2 && activeAppointers.has(x.rs[s]) && x.rs[s+1] == '为' && !appointers.has(x.at(x.ents[h].s-1)) {
		return true
	}
	// 召其姊为, 立妹为: a short object, in the same clause; 以X为 with no
	// person is often "by X became" (茂以选为长史).
	if x.rs[s] == '以' || e-s < 3 || e-s > 5 || x.rs[e-1] != '为' {
		return false
	}
	for i := s; i < e; i++ {
		if x.boundary(i) {
			return false
		}
	}
	return true
}

// adverbsBeforeVerb may stand between a subject and its verb.
const adverbsBeforeVerb = "乃遂复又因即亦寻则悉皆尽并咸"

// activeAppointers take the one appointed as their object: with it left
// out (辟为从事, 辟署西曹属), their subject is the one who appointed, not the one
// appointed, as the subject of 拜为 or 迁为 may be.
var activeAppointers = set("以辟署表荐举召引命请")

// elidedAppointee says whether the clause that ends at rune e (where the
// office starts), after a clause of its own from rune s on, opens on an
// appointing verb whose object is left out: 太祖临兖州，辟为从事 tells that
// 曹操 made the chapter's man 从事, not that he was one.
func (x *run) elidedAppointee(s, e int) bool {
	c := e
	for c > s && !x.boundary(c-1) {
		c--
	}
	if c <= s {
		return false // the office's clause is the head's own
	}
	for c < e && strings.ContainsRune(adverbsBeforeVerb, x.rs[c]) {
		c++
	}
	v := c
	for v < e && v-c < 2 && activeAppointers.has(x.rs[v]) {
		v++ // 辟为, 辟署
	}
	verbs := v - c
	if v < e && x.rs[v] == '为' {
		v++
	}
	said := v // 为 said, or two verbs
	// Offices and places before this one are of the same chain (辟为丞相掾主簿).
	for v < e {
		k := x.startsAt(v)
		if k < 0 || x.ents[k].typ != tOff && x.ents[k].typ != tLoc && x.ents[k].typ != tTitle {
			break
		}
		v = x.ents[k].e
		if x.at(v) == '、' {
			v++
		}
	}
	return verbs > 0 && v == e && (x.rs[said-1] == '为' || verbs == 2)
}

// lifesAppointee returns the man whose life is told when person head,
// another man, appoints someone the clause of office first leaves unnamed
// (丞相亮住汉中，请为军祭酒 in 来敏's life: 亮 made 来敏 军祭酒); else −1.
func (x *run) lifesAppointee(head, first int, sen sentence) int {
	if head < 0 || x.ents[head].typ != tPer || !x.elidedAppointee(x.ents[head].e, x.ents[first].s) && !x.petitions(head, first) {
		return -1
	}
	// The offices end the clause: in 以为太子即位 (thought the heir
	// would reign) no one is appointed.
	if _, last := x.officeChain(first); !x.boundary(x.ents[last].e) || x.notHeld(last) || x.declined(last) {
		return -1
	}
	k := x.chapterSubject(sen)
	if k < 0 {
		return -1
	}
	name := x.ents[k].canonical(x.rs)
	if name == x.ents[head].canonical(x.rs) {
		return -1
	}
	// His mention nearest before the office (上素闻安国贤，即召以为…).
	for _, j := range x.order {
		en := x.ents[j]
		if en.e > x.ents[first].s {
			break
		}
		if en.s > x.ents[k].s && en.typ == tPer && en.canonical(x.rs) == name {
			k = j
		}
	}
	return k
}

// petitions says whether person h asks the throne for title or office t
// for someone he leaves unnamed: 表封, 奏封, 请封 or 表领 between them (太祖
// 表封千秋亭侯 in 董昭's life, 刘备表领青州刺史 in 孔融's).
func (x *run) petitions(h, t int) bool {
	s := x.ents[h].e
	for strings.ContainsRune(adverbsBeforeVerb, x.at(s)) {
		s++
	}
	return s+2 == x.ents[t].s && strings.ContainsRune("表奏请", x.at(s)) && strings.ContainsRune("封领", x.at(s+1))
}

// consortRank says whether office t is a rank of a sovereign's consorts
// (成帝婕妤), whose holders the texts name by kinship more than by name.
func (x *run) consortRank(t int) bool {
	name := string(x.rs[x.ents[t].s:x.ents[t].e])
	if strings.HasSuffix(name, "昭仪") {
		return true
	}
	for _, w := range consortWords {
		if strings.HasSuffix(name, w) {
			return true
		}
	}
	return false
}

// rulerOfAnotherLife says whether person h is a ruler named by his title
// (太祖) in another man's life, in an earlier clause than office t: the
// clauses after him that leave their subject out tell of the life's man
// (太祖益嘉之，复入为丞相掾: 杜畿 became 丞相掾, not 曹操).
func (x *run) rulerOfAnotherLife(h, t int) bool {
	if !x.byTitle(h) || x.isChapterSubject(x.ents[h].canonical(x.rs)) {
		return false
	}
	return x.clauseAt(x.ents[h].s) != x.clauseAt(x.ents[t].s)
}

// servedOffice says whether office t is an heir's or a retainer's post
// named after the one served (沛公左司马, 高祖太子): whoever holds it there
// is not named by the pair classifier's reading.
func (x *run) servedOffice(t int) bool {
	en := x.ents[t]
	k := x.endsAt(en.s)
	if k < 0 || x.ents[k].typ != tPer {
		return false
	}
	if x.at(x.ents[k].s-1) == '为' && x.rulerByTitle(k) && !x.consortRank(t) {
		return true // 仪为先主尚书: 先主's 尚书, held by 仪
	}
	return servedOffices[string(x.rs[en.s:en.e])] && x.at(en.e) != '也' // 明皇帝…，文帝太子也: the sentence's subject is the heir
}

// foughtVerbs take the one fought, taken or killed.
var foughtVerbs = set("杀诛斩害弑执擒获攻击讨破伐围袭虏")

// fought says whether person k is named as the one a verb fought, took or
// killed (从击项籍，待怀，赐爵通德侯): the clauses after, whose subject the
// text leaves out, reward the one who fought him, not him. An office right
// after his name is still his (诛郅支单于).
func (x *run) fought(k, office int) bool {
	return foughtVerbs.has(x.at(x.ents[k].s-1)) && x.ents[office].s != x.ents[k].e
}

// notHeld says whether the words right after office or title t say that
// it is not held: 府 after it names its seat (署左将军府事), and after 为
// they make 为 "by" or "for" rather than "became": 为太守所杀 (killed by
// the governor), 为义帝发丧 (mourned for him), 为太上皇寿 (toasted him).
func (x *run) notHeld(t int) bool {
	e := x.ents[t].e
	if x.at(e) == '府' {
		return true // 署左将军府事, 丞相府长史: the office's seat, where another works
	}
	if x.at(x.ents[t].s-1) != '为' {
		return false
	}
	return x.at(e) == '所' || firstAt(x.rs, e, []string{"发丧", "寿", "报仇", "讨贼", "送"}) != ""
}

// placeGap returns where the place that governs an office would end: the
// office's start, or before 行省 and the like that stand between them
// (湖广行省平章政事).
func (x *run) placeGap(s int) int {
	for _, w := range []string{"行中书省", "行省", "行台", "道", "路"} {
		n := len([]rune(w))
		if s-n >= 0 && hasAt(x.rs, s-n, w) && x.free(s-n, s) {
			return s - n
		}
	}
	return s
}

// placeStart returns where a place (and its 行省) before rune s starts, or
// s when there is none.
func (x *run) placeStart(s int) int {
	g := x.placeGap(s)
	if k := x.endsAt(g); k >= 0 && x.ents[k].typ == tLoc {
		return x.ents[k].s
	}
	return s
}

// placeEnd skips 行省 and the like after a place that ends at rune e.
func (x *run) placeEnd(e int) int {
	for _, w := range []string{"行中书省", "行省", "行台", "道", "路"} {
		if hasAt(x.rs, e, w) && x.free(e, e+len([]rune(w))) {
			return e + len([]rune(w))
		}
	}
	return e
}

// holder finds who was given the chain of offices that starts with
// mention first.
func (x *run) holder(first int, sen sentence) int {
	p := x.ents[first].s
	// A place, a state or a time before the office: 梁太尉, 雍州别驾.
	for steps := 0; steps < 2; steps++ {
		k := x.endsAt(p)
		if k < 0 || x.ents[k].typ != tLoc && x.ents[k].typ != tGrp {
			break
		}
		p = x.ents[k].s
	}
	// 高祖太子, 项王使者: the person right before an heir's office or a
	// retainer's post is the father or the master, not the holder.
	if servedOffices[string(x.rs[x.ents[first].s:x.ents[first].e])] && x.endsAt(p) >= 0 {
		return -1
	}
	// 仪为先主尚书: a post under the sovereign, held by the man before 为.
	if k := x.endsAt(p); k >= 0 && x.ents[k].typ == tPer && x.at(x.ents[k].s-1) == '为' && x.rulerByTitle(k) && !x.consortRank(first) {
		q := x.ents[k].s - 1
		if j := x.endsAt(q); j >= 0 && x.ents[j].typ == tPer {
			return j
		}
		return x.subject(q, sen, false)
	}
	// 拜友宁建武军节度使, 加武皇守太师: the person named between the
	// verb and the office.
	if k := x.endsAt(p); k >= 0 && x.ents[k].typ == tPer {
		if appointers.has(x.at(x.ents[k].s-1)) || x.boundary(x.ents[k].s-1) {
			return k
		}
		// 平卢军节度使韩建守司徒: the man named after his office; but in
		// 为丞相曹操主簿 the office is a post under him.
		if j := x.endsAt(x.ents[k].s); j >= 0 && (x.ents[j].typ == tOff || x.ents[j].typ == tTitle) && x.at(x.ents[j].s-1) != '为' {
			return k
		}
	}
	w := x.endsWith(p, appointVerbs)
	if w != "" {
		q := p - len([]rune(w))
		if k := x.endsAt(q); k >= 0 && x.ents[k].typ == tPer {
			if w == "以为" {
				// 太祖以为军校: the ruler made the man the text is
				// about an officer.
				if ci := x.clauseAt(q); ci >= 0 && x.cls[ci].prev >= 0 && x.cls[ci].prev != k {
					h := x.cls[ci].prev
					if x.ents[h].typ == tPer {
						x.rels = append(x.rels, rel{h: x.aliasHead(k), t: x.aliasHead(h), r: "下级"})
						return h
					}
				}
				return -1
			}
			// X为Y, or 以X为Y.
			return k
		}
		if h := x.lastAppointee(sen, p); h >= 0 {
			// 表权为讨虏将军，领会稽太守: the same man goes on.
			return h
		}
		if h := x.summoned(q); h >= 0 {
			return h
		}
		return x.lifeOverCarry(x.subject(q, sen, false), p, sen)
	}
	ci := x.clauseAt(p)
	if ci < 0 {
		return -1
	}
	if c := x.cls[ci]; c.s == p && !c.named && x.at(p-1) != '、' {
		// 子敦，辅国将军、西部都将: a clause of offices only; but an
		// empress or an heir so named are the people (皇后太子，鸩杀见害).
		_, last := x.officeChain(first)
		end := x.ents[last].e
		heirs := x.consortRank(first) || heirTitles[string(x.rs[x.ents[first].s:x.ents[first].e])]
		if !heirs && (end == c.e || strings.ContainsRune("。；", x.at(end))) {
			return c.prev
		}
	}
	if x.at(p-1) == '、' || x.at(p-1) == '，' {
		// One office of a list: the holder of the office before it.
		if k := x.endsAt(p - 1); k >= 0 && (x.ents[k].typ == tOff || x.ents[k].typ == tLoc) {
			h := -1
			for _, r := range x.rels {
				if r.t == k && (r.r == "任官" || r.r == "辖") {
					h = r.h
				}
			}
			return h
		}
	}
	return -1
}

// lifeOverCarry returns the man whose life is told in place of subject h
// when h, another man, was carried from an earlier sentence that left
// him: he withdrew there (亮退。还，复职，加光禄大夫 in 卫臻's life), or the
// life's man was named after him (维果驰还救化，皆如淮计。…迁征西将军 in
// 郭淮's); or when h's own clause was his accession, which only dates the
// office (权称尊号，拜骠骑将军 in 步骘's), or introduced his speech. A man
// still acting when the sentence ended keeps it (后腾与韩遂不和，求还京畿。
// 於是徵为卫尉).
//
// An office at p whose clause leaves its appointee out stays with h, the
// appointer, for lifesAppointee.
func (x *run) lifeOverCarry(h, p int, sen sentence) int {
	if h < 0 || x.ents[h].typ != tPer || x.elidedAppointee(x.ents[h].e, p) {
		return h
	}
	// 权称尊号，改为光禄勋: an accession in the sentence dates the office.
	dated := x.accessionBefore(sen, p)
	spoke := x.spoke(h)
	if x.ents[h].e > sen.s && !(dated && x.accedes(h)) && !spoke {
		return h
	}
	life := x.lifeAt(sen.s)
	if life == "" || x.ents[h].canonical(x.rs) == life {
		return h
	}
	// His last mention before the sentence (before h, if h is in it), and
	// whether it follows h's.
	limit := sen.s
	if x.ents[h].s >= sen.s {
		limit = x.ents[h].s
	}
	k, after := -1, false
	for _, j := range x.order {
		en := x.ents[j]
		if en.s >= limit {
			break
		}
		if en.typ == tPer && en.canonical(x.rs) == life {
			k, after = j, en.s > x.ents[h].s
		}
	}
	if k < 0 || !after && !x.withdrew(h) && !dated && !spoke && !x.actedOnHim(h) || x.died(k) {
		return h
	}
	return k
}

// spoke says whether person h's clause introduces speech (亮与张裔书曰：
// …): the offices told after it are not the speaker's (后迁中监军 in
// 姜维's life).
func (x *run) spoke(h int) bool {
	ci := x.clauseAt(x.ents[h].s)
	return ci >= 0 && ci+1 < len(x.cls) && x.cls[ci+1].speech && !x.cls[ci].speech
}

// actedOnHim says whether person h's clause is only what he did to
// someone it leaves as 之 (亮恨之，免官还成都。数年，为光禄勋 in 向朗's
// life): the text goes on with that man, the life's.
func (x *run) actedOnHim(h int) bool {
	ci := x.clauseAt(x.ents[h].s)
	if ci < 0 || x.cls[ci].s != x.ents[h].s {
		return false
	}
	n := x.cls[ci].e - x.ents[h].e
	return (n == 2 || n == 3) && x.at(x.cls[ci].e-1) == '之'
}

// died says whether mention k's clause is his death (范卒): the offices
// after it are another's.
func (x *run) died(k int) bool {
	ci := x.clauseAt(x.ents[k].s)
	return ci >= 0 && x.deathClause(k, x.cls[ci].e)
}

// accedes says whether person h's clause is his accession alone.
func (x *run) accedes(h int) bool {
	ci := x.clauseAt(x.ents[h].s)
	return ci >= 0 && x.accessionClause(h, x.cls[ci].e)
}

// accessionBefore says whether a clause of sentence sen before rune p is
// a ruler's accession alone (权称尊号, 文帝践阼).
func (x *run) accessionBefore(sen sentence, p int) bool {
	for _, c := range x.cls {
		if c.s >= sen.s && c.e <= p && c.named && c.subj >= 0 && x.accessionClause(c.subj, c.e) {
			return true
		}
	}
	return false
}

// withdrawals end the clause of a man who leaves the scene (亮退, 布走).
var withdrawals = set("退走遁还去")

// withdrew says whether person h's clause is his withdrawal: a verb of
// leaving, at most two words after his name, ends it (亮退, 备遂破走), or
// a clause of retreat alone follows it.
func (x *run) withdrew(h int) bool {
	e := x.ents[h].e
	for n := 0; n < 3; n++ {
		if withdrawals.has(x.at(e+n)) && x.boundary(e+n+1) {
			return true
		}
	}
	// His clause is followed by a retreat alone (备望见救至，乃散退).
	ci := x.clauseAt(e - 1)
	if ci < 0 || ci+1 >= len(x.cls) || x.at(x.cls[ci].e) != '，' {
		return false
	}
	c := x.cls[ci+1]
	return !c.named && c.e-c.s <= 4 && withdrawals.has(x.at(c.e-1)) && x.boundary(c.e)
}

// summoned returns the man the clause before the one holding rune q
// summoned (召逊，拜偏将军; 驿徵大将军恪，拜为太子太傅), when this clause
// names nobody.
func (x *run) summoned(q int) int {
	ci := x.clauseAt(q)
	if ci <= 0 {
		return -1
	}
	c := x.cls[ci]
	for _, k := range x.order {
		if x.ents[k].typ == tPer && x.ents[k].s >= c.s && x.ents[k].e <= q {
			return -1
		}
	}
	pc := x.cls[ci-1]
	if pc.e+1 != c.s || x.at(pc.e) != '，' {
		return -1
	}
	for _, k := range x.order {
		en := x.ents[k]
		if en.typ != tPer || en.s < pc.s || en.e > pc.e {
			continue
		}
		at := en.s // 徵大将军恪: his office may stand between
		if j := x.endsAt(at); j >= 0 && (x.ents[j].typ == tOff || x.ents[j].typ == tTitle) {
			f, _ := x.officeChain(j)
			at = x.ents[f].s
		}
		v := x.at(at - 1)
		if !summoners.has(v) || en.e != pc.e && x.entAt(en.e) >= 0 || x.at(en.e) == '府' { // 辟曹操府: to his bureau
			continue
		}
		// 征 also marches on a man (太祖征孙权，徙为留府长史): it summons
		// him only when an appointment follows at once.
		if (v == '征' || v == '徵') && !strings.ContainsRune("拜为除署", x.at(c.s)) {
			continue
		}
		return k
	}
	return -1
}
