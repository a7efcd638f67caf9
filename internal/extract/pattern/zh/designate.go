package zh

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/histories"
)

// calledAt is a mention whose title the document records as an alias.
type calledAt struct {
	k    int
	kind string
}

// designate gives each person mention written as a title or form of
// address (太祖, 先主, 沛公, 光武) the person it stands for in this chapter:
// what the chapter's opening said of its subject first, else the
// sovereign the title names in the chapter's book and dynasty. The first
// mention of each title in a document is recorded as an alias of the
// person, so the reason stays with the fact.
func (x *run) designate() {
	if x.doc.Chunks == 0 {
		x.opening()
		x.openingKin()
	}
	x.livesJoined()
	path := x.docPath()
	x.trimGlued(path)
	x.enfeoffments()
	for _, k := range x.order {
		en := &x.ents[k]
		if en.s >= 0 && (en.typ == tTitle || en.typ == tOff) && x.doc.Designations[string(x.rs[en.s:en.e])] != nil && x.standsForPerson(en.e) {
			en.typ = tPer // 条侯曰, 相国曰: a title or office standing for its holder
		}
	}
	for _, k := range x.order {
		en := &x.ents[k]
		if en.s < 0 || en.typ != tPer {
			continue
		}
		surf := string(x.rs[en.s:en.e])
		if p := x.at(en.s - 1); histories.IsDynastyPrefix(p) {
			// A dynasty named right before the title decides: 汉宣帝 in a
			// chapter on 魏 is 刘询, not the 宣帝 of 晋 (司马懿).
			if c, found := histories.Resolve(string(p)+surf, path); found && c.Person != surf {
				en.name = c.Person
				continue
			}
		}
		if en.name != "" && en.name != surf {
			// The rules or the model resolved it; the chapter may still
			// say who that name is here (韩信 in 韩王信's chapter).
			if d := x.doc.Designations[en.name]; d != nil && d.Person != en.name && x.subjects[d.Person] {
				en.name = d.Person
			} else if c, found := histories.Resolve(en.name, path); found && c.Person != en.name {
				en.name = c.Person // 太后 read as short for 邓太后, who is 邓绥
			}
			continue
		}
		// A given name read before the model found the full name it
		// belongs to (禹 once 邓禹 is known).
		if full := x.givenOf(surf); full != "" {
			en.name = full
			continue
		}
		// A bare given name in a life the text has begun is that life's
		// man's, though no full name taught it: a given name that is
		// also a word (仁 in 曹仁's life in 诸夏侯曹传) or one behind a
		// surname the list lacks (盎 after 爰盎字丝) is not learned.
		if full := x.lifeAt(en.s); !x.plain && givenIn(full, surf) && x.doc.Designations[surf] == nil {
			en.name = full
			continue
		}
		d, ok := x.doc.Designations[surf]
		if !ok {
			if c, found := histories.Resolve(surf, path); found && c.Person != surf {
				d = &extract.Designation{Person: c.Person, Kind: titleKind(c.Title)}
			} else if c, found := histories.ResolveGiven(surf, path); found {
				d = &extract.Designation{Person: c.Person, Kind: "名"}
			}
			x.doc.Designations[surf] = d // nil: looked up, names no one
		}
		if d == nil || d.Person == surf {
			continue
		}
		en.name = d.Person
		if !d.Cited {
			d.Cited = true
			kind := d.Kind
			if x.isPosth(k) {
				kind = "谥号" // 谥坚曰武烈皇帝: a title the formula says is posthumous
			}
			x.called = append(x.called, calledAt{k, kind})
		}
	}
	x.spreadKnown()
	x.ownRulerDeaths(path)
}

// livesJoined marks as the chapter's subjects those whose lives it joins:
// a paragraph that opens with a full name and its 字 (班超字仲升 in
// 班梁列传), or with a ruler's title and his name (孝冲皇帝讳炳 in annals of
// three), begins his, and the text after it is his life (x.lives).
func (x *run) livesJoined() {
	x.lives = x.lives[:0]
	for _, k := range x.order {
		en := x.ents[k]
		if en.typ != tPer || !(en.s == 0 || x.at(en.s-1) == '\n') || x.at(en.e) != '字' && x.at(en.e) != '讳' {
			continue
		}
		// The chapter's first name before 字 is its subject's, whatever
		// the list of surnames says (爰盎字丝).
		if full := []rune(en.canonical(x.rs)); len(full) >= 2 && len(full) <= 4 && (x.surnameLen(full) > 0 || x.opensLife(en.e) || !x.plain && en.s == 0 && x.doc.Chunks == 0 && x.at(en.e) == '字') {
			x.subjects[string(full)] = true
			x.lives = append(x.lives, life{en.s, string(full)})
		}
	}
}

// appointedGiven reads the bare given name of the man whose life is told
// where an appointing verb names him before 为 or his office (署敏典学校尉,
// 选宓迎为别驾): the recogniser reads 敏 and 宓 there as words.
func (x *run) appointedGiven() {
	added := false
	for i := 1; i+1 < len(x.rs); i++ {
		if x.cov[i] != 0 || !appointers.has(x.rs[i-1]) {
			continue
		}
		full := x.lifeAt(i)
		if full == "" || !givenIn(full, string(x.rs[i])) {
			continue
		}
		k := x.startsAt(i + 1)
		if x.rs[i+1] == '为' || hasAt(x.rs, i+1, "迎为") || k >= 0 && x.ents[k].typ == tOff {
			added = x.add(i, i+1, tPer, full) >= 0 || added
		}
	}
	if added {
		x.sortOrder()
	}
}

// givenIn says whether g, one or two characters, is the given name of
// full, behind a surname of one or two.
func givenIn(full, g string) bool {
	f, n := utf8.RuneCountInString(full), utf8.RuneCountInString(g)
	return n >= 1 && n <= 2 && f-n >= 1 && f-n <= 2 && strings.HasSuffix(full, g)
}

// opensLife says whether the text at i, right after a name, goes on as a
// life's opening does: 字Y，Z人也 in the same sentence (法正字孝直，扶风郿人
// 也, whose surname the list of surnames lacks).
func (x *run) opensLife(i int) bool {
	end := i
	for end < len(x.rs) && x.rs[end] != '。' && end-i < 30 {
		end++
	}
	return x.at(i) == '字' && strings.Contains(string(x.rs[i:end]), "人也")
}

// life is where the text begins to tell one person's life.
type life struct {
	at     int
	person string
}

// lifeAt is the person whose life the text at rune i tells, in a chapter
// that joins several; "" when no life has begun.
func (x *run) lifeAt(i int) string {
	who := x.doc.Life
	for _, l := range x.lives {
		if l.at <= i {
			who = l.person
		}
	}
	return who
}

// openingKin gives the surname of the chapter's subject to the kin its
// opening names by given name alone (霍光字子孟，票骑将军去病弟也。父中孺:
// 霍去病, 霍中孺): a brother or a father named so shares his surname. The
// chapter then knows them by it.
func (x *run) openingKin() {
	end := 0
	for n := 0; end < len(x.rs) && end < 160 && n < 2; end++ {
		if x.rs[end] == '。' {
			n++
		}
	}
	subject, surname := -1, ""
	for _, k := range x.order {
		en := &x.ents[k]
		if en.s >= end {
			break
		}
		if en.typ != tPer {
			continue
		}
		if subject < 0 {
			if en.s != 0 {
				return
			}
			subject = k
			full := []rune(en.canonical(x.rs))
			if n := x.surnameLen(full); n > 0 {
				surname = string(full[:n])
			}
			if surname == "" {
				return
			}
			continue
		}
		g := x.rs[en.s:en.e]
		if en.name != "" || len(g) > 2 || x.surnameLen(g) > 0 && len(g) > 1 {
			continue
		}
		if _, title := histories.Resolve(string(g), x.docPath()); title && !x.plain {
			continue // 曹仁字子孝，太祖从弟也: 太祖 is 曹操, no 曹太祖
		}
		if !(x.at(en.s-1) == '父' && x.boundary(en.s-2)) && !kinOfOpening(x.rs, en.e) {
			continue
		}
		x.nameInFamily(k, surname, true)
	}
}

// nameInFamily names kin mention k, written by given name alone, with the
// family's surname; where teach says, the chapter then knows him by it
// unless it already knows another by that given name.
func (x *run) nameInFamily(k int, surname string, teach bool) {
	en := &x.ents[k]
	g := string(x.rs[en.s:en.e])
	en.name = surname + g
	if _, known := x.doc.Names[g]; teach && !known {
		x.doc.Names[g] = en.name
	}
	x.doc.Types[en.name] = tPer
}

// kinOfOpening reports whether the runes from i say whose son or brother
// the subject is: 弟也, 从弟也, 之少子也, 长子也.
func kinOfOpening(rs []rune, i int) bool {
	if i < len(rs) && rs[i] == '之' {
		i++
	}
	if i < len(rs) && strings.ContainsRune("从长中少次幼季庶嫡", rs[i]) {
		i++
	}
	return hasAt(rs, i, "子也") || hasAt(rs, i, "弟也") || hasAt(rs, i, "兄也")
}

// ownRulerDeaths marks the bare 帝 (or 王) before 崩 in a sovereign's
// annals (武帝纪: 丁卯，帝崩于五柞宫) as the sovereign the title names:
// annals name the deaths of other rulers (景帝崩) and leave their own
// ruler's bare. The mark is not an alias: 帝 names him only there.
func (x *run) ownRulerDeaths(path string) {
	sov, ok := histories.Annals(x.doc.Title, path)
	if !ok {
		return
	}
	ruler := sov.Person
	added := false
	for i := 2; i < len(x.rs); i++ {
		j := i - 1
		if x.rs[i] != '崩' || (x.rs[j] != '帝' && x.rs[j] != '王') {
			continue
		}
		if k := x.endsAt(j); !x.boundary(j-1) && (k < 0 || x.ents[k].typ != tTime) {
			continue // 灵帝崩, 而帝崩: another ruler, or not the annals' own telling
		}
		if k := x.entAt(j); k >= 0 {
			// The model may read the bare 帝 as a name of its own.
			if en := &x.ents[k]; en.s == j && en.e == i && en.typ == tPer && en.name == "" {
				en.name = ruler
			}
			continue
		}
		if x.add(j, i, tPer, ruler) >= 0 {
			added = true
		}
	}
	if added {
		x.sortOrder()
	}
}

// spreadKnown marks the other places a chapter's known designations, the
// given names of its subjects and its two-character given names stand
// where a name may (权 in 吴主传, 日磾 in 金日磾传), which the recogniser, reading one sentence at a time,
// missed: the chapter settles who they are.
func (x *run) spreadKnown() {
	known := map[string]string{}
	for t, d := range x.doc.Designations {
		if d != nil && t != d.Person {
			known[t] = d.Person
		}
	}
	for g, full := range x.doc.Names {
		if g == full {
			continue
		}
		// A subject's given name, or any two-character given name the
		// chapter has met with its surname: those are seldom words.
		if gs := []rune(g); x.subjects[full] || len(gs) >= 2 && x.surnameLen(gs) == 0 {
			known[g] = full
		}
	}
	if len(known) == 0 {
		return
	}
	at := map[rune][]int{} // where each known name's first rune stands
	for w := range known {
		at[[]rune(w)[0]] = nil
	}
	for i, r := range x.rs {
		if ps, ok := at[r]; ok {
			at[r] = append(ps, i)
		}
	}
	added := false
	for w, full := range known {
		ws := []rune(w)
		for _, i := range at[ws[0]] {
			if i+len(ws) > len(x.rs) || !hasAt(x.rs, i, w) || !x.free(i, i+len(ws)) {
				continue
			}
			e := i + len(ws)
			if x.nameFits(i, e) && x.add(i, e, tPer, full) >= 0 {
				added = true
			}
		}
	}
	if added {
		x.sortOrder()
	}
}

// docPath is the document's place in the corpus, for the histories'
// scope rules.
func (x *run) docPath() string {
	return strings.Join(append(append([]string{}, x.doc.Section...), x.doc.Key), "/")
}

// titleKind is the alias kind of a sovereign's title: a temple name ends
// in 祖 or 宗; the rest (谥号 with 帝, titles before the throne, forms of
// address) are recorded as 称号.
func titleKind(title string) string {
	if strings.HasSuffix(title, "祖") || strings.HasSuffix(title, "宗") {
		return "庙号"
	}
	return "称号"
}

// openingRe reads a chapter's opening sentence: titles, then optionally
// the native place, the surname and the given name (讳 or 名), and the
// 字: 太祖武皇帝，沛国谯人也，姓曹，讳操，字孟德 · 先主姓刘，讳备，字玄德 ·
// 后主讳禅，字公嗣，先主子也 · 高祖，沛丰邑中阳里人，姓刘氏，字季.
var openingRe = regexp.MustCompile(`^(\p{Han}{2,8}?)(?:，\p{Han}{2,12}人(?:也)?)?，?(?:姓(\p{Han}{1,2}?)氏?，?)?(?:(?:讳|名)(\p{Han}{1,2}))?(?:，?字(\p{Han}{1,2}))?(?:[，。]|$)`)

// fatherRe finds whose son the subject is: 先主子也, 光武第四子也.
var fatherRe = regexp.MustCompile(`，(\p{Han}{2,6}?)(?:第[一二三四五六七八九十]+|长|中|少|太|庶|嫡)?子也`)

// opening reads who the chapter is about from its first sentence, and
// records the titles it gives him, his given name and his 字 as naming him
// throughout the chapter. The subject is the sovereign the titles name
// (高祖 in a chapter of 汉书 is 刘邦), else surname and given name (姓曹，
// 讳操), the surname taken from the father when only he is named (后主
// 讳禅 … 先主子也).
func (x *run) opening() {
	end := len(x.rs)
	for i, r := range x.rs {
		if r == '。' || r == '\n' {
			end = i
			break
		}
	}
	if end > 80 {
		return
	}
	first := string(x.rs[:end])
	if x.titledOpening(end) {
		return
	}
	m := openingRe.FindStringSubmatch(first)
	if m == nil {
		return
	}
	titles, surname, given, zi := m[1], m[2], m[3], m[4]
	if given == "" && surname == "" && !strings.Contains(first, "子也") {
		return // no formula: an ordinary first sentence
	}
	path := x.docPath()
	person := ""
	for _, t := range titleParts(titles) {
		c, ok := histories.Resolve(t, path)
		if !ok {
			// A folder indexed on its own (蜀书) leaves the book out of
			// the path; the rulers chapter titles name still stand.
			c.Person, ok = titleSubjects[t]
		}
		if ok && (given == "" || strings.HasSuffix(c.Person, given)) && (surname == "" || strings.HasPrefix(c.Person, surname)) {
			person = c.Person
			break
		}
	}
	if person == "" && given != "" {
		if surname == "" {
			if f := fatherRe.FindStringSubmatch(first); f != nil {
				surname = x.surnameOf(f[1], path)
			}
		}
		if surname != "" {
			person = surname + given
		}
	}
	if person == "" {
		return
	}
	x.subjects[person] = true
	x.unglueGiven(end, given)
	for _, t := range titleParts(titles) {
		if t != person {
			x.designation(t, person, titleKind(t))
		}
	}
	if given != "" && given != person {
		x.designation(given, person, "名")
	}
	if zi != "" {
		x.designation(zi, person, "字")
	}
}

// designation records what a title stands for in this document, unless
// the document already said otherwise.
func (x *run) designation(title, person, kind string) {
	if d := x.doc.Designations[title]; d != nil {
		return
	}
	x.doc.Designations[title] = &extract.Designation{Person: person, Kind: kind}
}

// surnameOf is the surname of the person a name or title stands for here.
func (x *run) surnameOf(name, path string) string {
	full := name
	if d := x.doc.Designations[name]; d != nil {
		full = d.Person
	} else if c, ok := histories.Resolve(name, path); ok {
		full = c.Person
	} else if f, ok := x.doc.Names[name]; ok {
		full = f
	}
	rs := []rune(full)
	if n := x.surnameLen(rs); n > 0 {
		return string(rs[:n])
	}
	return ""
}

// titleParts splits a run of titles into the titles it holds: 太祖武皇帝 is
// 太祖武皇帝, 太祖 and 武皇帝, which the texts also write 武帝.
func titleParts(titles string) []string {
	rs := []rune(titles)
	out := []string{titles}
	add := func(t string) {
		for _, o := range out {
			if o == t {
				return
			}
		}
		out = append(out, t)
	}
	for i := 2; i+2 <= len(rs); i++ {
		a, b := string(rs[:i]), string(rs[i:])
		if strings.HasSuffix(a, "祖") || strings.HasSuffix(a, "宗") {
			add(a)
			add(b)
		}
	}
	for _, t := range out {
		if strings.HasSuffix(t, "皇帝") && len([]rune(t)) > 2 {
			short := strings.TrimSuffix(t, "皇帝") + "帝"
			add(short)
			if r := []rune(short); r[0] == '孝' && len(r) > 2 {
				add(string(r[1:]))
			}
		}
	}
	return out
}

// gluedLead are words that take a person after them and that a name read
// from characters alone swallows (谢项王: 谢 + 项王, 白逊: 白 + 逊, 欲王卢绾: 王 + 卢绾).
var gluedLead = set("王谢白谓说召许使遣诏命杀斩诛执擒获拜从随事降归投依奔攻击讨破问见征举荐表告报救助迎送遇代曰令会而乃遂又亦既至是故谋劝谏诣附交结推立废徙逐捕收囚赦赐封嗣娶嫁害弑谮惧畏恶爱慕纳答对任")

// gluedTail starts words that follow a name and get swallowed with it
// (关羽得志, 唐具, 权令).
var gluedTail = set("具谢相画王得" + "嗣躬曰为等以与率遣使拜迁乃遂击攻破讨杀斩闻谓至入还奔降卒薨崩死既亦又复皆独因时已自将举表上奏请据守屯引帅进退走败战共及并说谏诣劝对答问令欲知见往归来从出逆迎追救拒围袭伐征叛反谋遇在于於之所亡恐怒喜惧笑叹泣称言告报语责议受辞让固当必不未尝" + "乞求命发开弃收纳献送致作著撰荐辞取夺保驻镇逃走兴图诈诬构害毒应望视观听俘掠略御居徙")

// trimGlued cuts a verb or particle off a person's name when what is left
// is a person the chapter knows, written far more often on its own than
// with it: 谢项王 is 谢 and 项王.
func (x *run) trimGlued(path string) {
	chunk := string(x.rs)
	for _, k := range x.order {
		en := &x.ents[k]
		if en.s < 0 || en.typ != tPer || en.e-en.s < 2 || en.name != "" {
			continue
		}
		w := string(x.rs[en.s:en.e])
		if x.doc.Designations[w] != nil || x.at(en.e) == '字' || x.at(en.s-1) == '字' {
			// A name before its 字 is whole (王章字仲卿, though 章 is 杨章
			// here), and so is the 字 after it (何进字遂高, though 高 is
			// 赵高 here and 遂 an adverb).
			continue
		}
		if _, ok := histories.Resolve(w, path); ok {
			continue
		}
		s, e := en.s, en.e
		switch {
		case gluedLead.has(x.rs[s]) && x.knownOther(string(x.rs[s+1:e]), w, path, chunk):
			s++
		case e-s >= 3 && gluedTail.has(x.rs[e-2]) && x.knownOther(string(x.rs[s:e-2]), w, path, chunk):
			e -= 2
		case gluedTail.has(x.rs[e-1]) && x.knownOther(string(x.rs[s:e-1]), w, path, chunk):
			e--
		default:
			continue
		}
		for i := en.s; i < en.e; i++ {
			if i < s || i >= e {
				x.cov[i] = 0
			}
		}
		for g, full := range x.doc.Names {
			if full == w {
				delete(x.doc.Names, g)
			}
		}
		delete(x.doc.Types, w)
		en.s, en.e = s, e
		for j := range x.ents {
			if x.ents[j].name == w {
				x.ents[j].name = ""
			}
		}
	}
}

// knownOther reports whether t names a person the chapter knows other
// than by w, and t stands on its own elsewhere in the chunk.
func (x *run) knownOther(t, w, path, chunk string) bool {
	if t == "" || strings.Count(chunk, t) < 3*strings.Count(chunk, w) {
		return false
	}
	if full, ok := x.doc.Names[t]; ok && full != w {
		return true
	}
	if x.doc.Types[t] == tPer && t != w {
		return true
	}
	if x.doc.Designations[t] != nil {
		return true
	}
	if _, ok := histories.Resolve(t, path); ok {
		return true
	}
	// t is the given name of another person the chapter has seen (羽 of
	// 项羽), though the rules may have learned it from w itself.
	_, n := x.bearersOf(t, w)
	return n > 0
}

// bearersOf counts the persons the chapter has seen, other than except,
// whose full name is a surname followed by given, and returns one of them.
func (x *run) bearersOf(given, except string) (string, int) {
	gn := len([]rune(given))
	one, n := "", 0
	for full, typ := range x.doc.Types {
		f := []rune(full)
		if typ == tPer && full != except && len(f) > gn && strings.HasSuffix(full, given) && x.surnameLen(f) == len(f)-gn {
			one, n = full, n+1
		}
	}
	return one, n
}

// officeOpeningRe reads an opening that puts the subject's office between
// surname and given name: 萧相国何者, 陈丞相平者, 张廷尉释之者.
var officeOpeningRe = regexp.MustCompile(`^(\p{Han})(相国|丞相|廷尉|太尉|御史大夫|将军)(\p{Han}{1,2})者`)

// titledOpening reads an opening that puts the subject's title or office
// before his name: 留侯张良者, 淮阴侯韩信者, 萧相国何者. The title names
// him throughout the chapter; 相国, a post one man held at a time, too.
func (x *run) titledOpening(end int) bool {
	first := string(x.rs[:end])
	// 大将军卫青者: 大 begins the office, it is no surname.
	if m := officeOpeningRe.FindStringSubmatch(first); m != nil && !x.officeAtStart() {
		person := m[1] + m[3]
		x.subjects[person] = true
		x.designation(m[1]+m[2], person, "称号")
		if m[2] == "相国" {
			x.designation(m[2], person, "称号")
		}
		x.designation(m[3], person, "名")
		return true
	}
	for _, k := range x.order {
		en := x.ents[k]
		if en.s < 0 || en.s >= end {
			break
		}
		if en.typ != tPer || en.s == 0 || en.s > 6 || x.at(en.e) != '者' {
			continue
		}
		title := string(x.rs[:en.s])
		if !strings.ContainsRune("侯公王君", x.rs[en.s-1]) {
			return false
		}
		person := en.canonical(x.rs)
		if g := x.rs[en.s:en.e]; x.rs[en.s-1] == '王' && len(g) <= 2 && (len(g) == 1 || x.surnameLen(g) == 0) {
			// A king known by his state and given name (韩王信者): that
			// is his name, kept apart from a namesake (淮阴侯 韩信), and
			// the state before the given name (韩信) is him here.
			given := string(g)
			person = title + given
			x.designation(given, person, "名")
			x.designation(string(x.rs[0])+given, person, "称号")
		}
		x.subjects[person] = true
		x.designation(title, person, fiefKind(title))
		return true
	}
	return false
}

// officeAtStart says whether the text opens with an office.
func (x *run) officeAtStart() bool {
	k := x.startsAt(0)
	return k >= 0 && x.ents[k].typ == tOff
}

// enfeoffRe finds a title conferred on a person: 封亚夫为条侯, 立季为沛公.
var enfeoffRe = regexp.MustCompile(`(?:封|立|以)(\p{Han}{1,3})为(\p{Han}{1,4}?(?:侯|公|王|君))`)

// enfeoffments records, from 封X为T statements, that the title T names X
// in the rest of the chapter, unless the chapter gave T to someone first.
func (x *run) enfeoffments() {
	text := string(x.rs)
	for _, m := range enfeoffRe.FindAllStringSubmatchIndex(text, -1) {
		s := len([]rune(text[:m[2]]))
		k := x.entAt(s)
		if k < 0 || x.ents[k].typ != tPer || x.ents[k].s != s {
			continue
		}
		title := text[m[4]:m[5]]
		if x.doc.Designations[title] != nil {
			continue
		}
		person := x.ents[k].canonical(x.rs)
		if full, ok := x.doc.Names[person]; ok {
			person = full
		} else if d := x.doc.Designations[person]; d != nil {
			person = d.Person
		}
		if len([]rune(person)) < 2 {
			continue // a bare given name the chapter could not place
		}
		x.designation(title, person, fiefKind(title))
	}
}

// fiefKind is the alias kind of a conferred title. A marquisate (留侯)
// names one house, so it is a 封号 that names its holder across the
// corpus; a kingdom (燕王, 韩王) passed through many hands, so it is a
// 称号, which names him only in the chapter.
func fiefKind(title string) string {
	if strings.HasSuffix(title, "王") {
		return "称号"
	}
	return "封号"
}

// standsForPerson reports whether the word after a title makes it its
// holder (条侯曰, 留侯乃).
func (x *run) standsForPerson(e int) bool {
	r := x.at(e)
	return strongFollow.has(r) || followPer.has(r) && !strings.ContainsRune("之子孙", r)
}

// lateGivenNames resolves the bare given names that reading the relations
// taught after the names were resolved: kin named by their family's
// surname (刘表长子琦 makes 刘琦 of the 琦 in 琦意感悟 after it).
func (x *run) lateGivenNames() {
	for _, k := range x.order {
		en := &x.ents[k]
		if en.s < 0 || en.typ != tPer || en.name != "" {
			continue
		}
		if full := x.givenOf(string(x.rs[en.s:en.e])); full != "" {
			en.name = full
		}
	}
}

// givenOf resolves a bare given name the chapter knows: the full name the
// rules learned for it (禹 once 邓禹 is known), else the one person seen
// in the chapter whose full name ends in it (正 in the chapter on 法正,
// which the rules do not learn alone since 正 is mostly a word). A name
// that is itself a full name (卢绾) is left alone, so a name read with a
// verb glued to it (王卢绾) cannot take it over.
func (x *run) givenOf(surf string) string {
	if x.doc.Designations[surf] != nil {
		return ""
	}
	rs := []rune(surf)
	if len(rs) >= 2 && x.surnameLen(rs) > 0 {
		return ""
	}
	if full, ok := x.doc.Names[surf]; ok && full != surf {
		return full
	}
	if len(rs) != 1 {
		return ""
	}
	if full, n := x.bearersOf(surf, ""); n == 1 {
		return full
	}
	return "" // no one, or two people could be meant
}

// nameAliases links a person's alias where the text gives it (孔明 in
// 诸葛亮字孔明) to the person, so that the 字 of 诸葛亮 and the same 字 of
// 胡昭 stay two people's; the alias fact keeps the name as written. A 字
// given by the formula beats what the name alone suggested (子明 is 张臶's,
// not a 张子明's).
func (x *run) nameAliases() {
	for _, r := range x.rels {
		if r.r != "别称" || r.h < 0 || r.t < 0 || r.h == r.t {
			continue
		}
		h, t := x.ents[r.h], &x.ents[r.t]
		if h.s >= 0 && t.s >= 0 && h.typ == tPer && t.typ == tPer && (t.name == "" || r.alias == "字") {
			t.name = h.canonical(x.rs)
			if r.alias == "字" {
				// The 字 names him for the rest of the chapter (羽 in
				// 汉书's 项籍传, after 项籍字羽).
				x.designation(string(x.rs[t.s:t.e]), t.name, "字")
			}
		}
	}
}

// unglueGiven cuts 讳 or 名 off the subject's given name where the rules
// read the two as one name (讳操), and forgets what they resolved to it.
func (x *run) unglueGiven(end int, given string) {
	g := []rune(given)
	if len(g) == 0 {
		return
	}
	for i := 0; i+1+len(g) <= end; i++ {
		if (x.rs[i] != '讳' && x.rs[i] != '名') || string(x.rs[i+1:i+1+len(g)]) != given {
			continue
		}
		k := x.entAt(i)
		if k < 0 || x.ents[k].s != i || x.ents[k].e != i+1+len(g) {
			return
		}
		glued := string(x.rs[i : i+1+len(g)])
		x.cov[i] = 0
		x.ents[k].s = i + 1
		for j := range x.ents {
			if x.ents[j].name == glued {
				x.ents[j].name = ""
			}
		}
		for n, full := range x.doc.Names {
			if full == glued {
				delete(x.doc.Names, n)
			}
		}
		return
	}
}
