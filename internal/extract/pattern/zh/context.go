package zh

import (
	"sort"
	"strings"
	"unicode"

	"github.com/annals-project/annals/internal/histories"
)

// rel is a relation between two mentions, by index into run.ents.
type rel struct {
	h, t  int
	r     string
	alias string
}

// kin is a kinship word and the name it introduces (子靖, 父祐).
type kin struct {
	word string
	s, e int // the kinship word
	name int // mention index of the kin's name
}

// context finds the mentions that only a formula reveals: courtesy names,
// native places, kin and officials named after their office, speakers.
func (x *run) context() {
	x.aliases()
	x.rulerPrefix()
	x.consorts()
	x.clanWomen()
	x.foreignNames()
	x.natives()
	x.formulaNames()
	x.kinNames()
	x.appositions()
	x.speakers()
	x.bareNames()
	x.lateShortNames()
	x.listNames()
	x.propagate()
}

// lateShortNames reads the given names of full names that come later in
// the text (嗣昭 … 李嗣昭), which the left-to-right scan could not know.
func (x *run) lateShortNames() {
	for i := 0; i < len(x.rs); i++ {
		if x.cov[i] == 0 && isHan(x.rs[i]) {
			if l := x.shortName(i); l > 0 {
				i += l - 1
			}
		}
	}
}

// propagate marks the other mentions of a bare name already read in the
// text where a name may stand.
func (x *run) propagate() {
	rs := x.rs
	n := len(x.ents)
	var at map[rune][]int // positions of each rune, built when first needed
	done := map[string]bool{}
	for k := 0; k < n; k++ {
		en := x.ents[k]
		if en.s < 0 || en.typ != tPer || en.e-en.s > 2 || x.isAliasTail(k) {
			continue
		}
		w := rs[en.s:en.e]
		key := string(w) + "\x00" + en.name
		if done[key] {
			continue
		}
		done[key] = true
		if at == nil {
			at = map[rune][]int{}
			for i, r := range rs {
				if isHan(r) {
					at[r] = append(at[r], i)
				}
			}
		}
		for _, i := range at[w[0]] {
			if i+len(w) > len(rs) || !hasAt(rs, i, string(w)) || !x.free(i, i+len(w)) {
				continue
			}
			e := i + len(w)
			if x.nameFits(i, e) {
				x.add(i, e, tPer, en.name)
			}
		}
	}
}

// nameFits reports whether a name may stand at runes [i, e): a pause, a
// verb that takes a person or another name before it, and a pause or a
// verb after it.
func (x *run) nameFits(i, e int) bool {
	prevOK := x.boundary(i-1) || precedePer.has(x.at(i-1)) || x.endsAt(i) >= 0
	nextOK := x.boundary(e) || followPer.has(x.at(e)) || verbAfter.has(x.at(e)) || bareVerbs.has(x.at(e))
	return prevOK && nextOK
}

// bareVerbs follow a bare given name that opens a clause (敏还, 护败).
var bareVerbs = set("曰谓以率遣乃遂既因怒闻卒薨还退与请奏言对拜知败至入攻击破引进上表密固")

// bareNames reads one- and two-character given names written without a
// surname. Each place a candidate stands is rated by its neighbours: a
// pause or a verb that takes a person before it, a verb or a pause after
// it; 曰 and 等 after it, or a verb after it at the head of a clause, are
// strong. A two-character candidate needs two good places or one strong
// one, a one-character candidate two good places of which one is strong
// (one character alone is too often a word).
func (x *run) bareNames() {
	rs := x.rs
	type occ struct {
		s, e         int
		good, strong bool
		pre, post    bool
	}
	type stat struct {
		occs         []occ
		good, strong int
	}
	cands := map[string]*stat{}
	var keys []string
	for i := 0; i < len(rs); i++ {
		if !isHan(rs[i]) || x.cov[i] != 0 || !x.first[rs[i]] && !x.boundary(i-1) && !precedePer.has(x.at(i-1)) {
			continue
		}
		for g := 1; g <= 2; g++ {
			e := i + g
			if e > len(rs) || !x.free(i, e) || !x.plainName(i, e) {
				continue
			}
			if x.lex.lookup(rs[i:e]) != 0 || g == 2 && (verbish.has(rs[e-1]) || leadChars.has(rs[i])) {
				continue
			}
			pre := x.boundary(i-1) || precedePer.has(x.at(i-1))
			next := x.at(e)
			post := x.boundary(e) || followPer.has(next) || verbAfter.has(next) || bareVerbs.has(next)
			if x.entAt(e) >= 0 && !x.boundary(e) {
				post = false
			}
			if !pre && !post {
				continue
			}
			o := occ{s: i, e: e, pre: pre, post: post}
			o.good = pre && post
			o.strong = o.good && (next == '曰' || next == '等' || x.boundary(i-1) && bareVerbs.has(next))
			w := string(rs[i:e])
			st := cands[w]
			if st == nil {
				st = &stat{}
				cands[w] = st
				keys = append(keys, w)
			}
			st.occs = append(st.occs, o)
			if o.good {
				st.good++
			}
			if o.strong {
				st.strong++
			}
		}
	}
	// Longer names first, so that a two-character name is not cut.
	sort.SliceStable(keys, func(a, b int) bool { return len(keys[a]) > len(keys[b]) })
	for _, w := range keys {
		st := cands[w]
		two := len([]rune(w)) == 2
		ok := two && (st.good >= 2 || st.strong >= 1) || !two && st.good >= 2 && st.strong >= 1
		// A rare character standing where a name stands (罴曰, 以璠).
		ok = ok || !two && st.good >= 1 && rare([]rune(w)[0])
		if !ok {
			continue
		}
		name := ""
		if full, known := x.doc.Names[w]; known && full != w {
			name = full
		}
		for _, o := range st.occs {
			if o.good || two && (o.pre || o.post) {
				x.add(o.s, o.e, tPer, name)
			}
		}
	}
}

// aliasWords introduce another name of the person before them.
var aliasWords = []string{"谥曰", "諡曰", "谥为", "諡为", "小字", "小名", "一名", "本名", "初名", "始名", "又名", "更名", "改名", "字", "号"}

// posthWord reports whether an alias word introduces a posthumous name;
// its owner is the subject of the clause, read once subjects are known.
func posthWord(w string) bool {
	return w == "谥曰" || w == "諡曰" || w == "谥为" || w == "諡为"
}

// bareOwner reads the one to three free runes that open the clause before
// rune i (觊字思远, 觊，字思远) as the owner of a courtesy name.
func (x *run) bareOwner(i int) int {
	e := i
	if x.at(e-1) == '，' {
		e--
	}
	for n := 1; n <= 3; n++ {
		s := e - n
		if s < 0 || !x.boundary(s-1) || x.at(s-1) == '、' {
			continue
		}
		if !x.free(s, e) || !x.nameChars(s, e) || x.lex.lookup(x.rs[s:e])&(fLoc|fOff|fGrp|fStop|fEra) != 0 {
			return -1
		}
		// 冲弟淡字夷远: the courtesy name is the brother's.
		for j := e - 1; j > s; j-- {
			if kinBlock.has(x.rs[j]) {
				s = j + 1
				break
			}
		}
		if s == e || kinBlock.has(x.rs[s]) {
			return -1
		}
		return x.add(s, e, tPer, "")
	}
	return -1
}

func (x *run) aliases() {
	rs := x.rs
	lastAlias := -1 // end of the last alias read, for 号 after 字
	for i := 0; i < len(rs); i++ {
		if x.cov[i] != 0 {
			continue
		}
		word := firstAt(rs, i, aliasWords)
		if word == "" {
			continue
		}
		wl := len([]rune(word))
		// The person: right before, or before a comma.
		p := x.endsAt(i)
		if p < 0 && (x.at(i-1) == '，' || x.at(i-1) == ',') {
			p = x.endsAt(i - 1)
		}
		if p < 0 && lastAlias >= 0 && (lastAlias == i-1 || lastAlias == i) {
			p = x.aliasOwner
		}
		if word == "字" && x.at(i-1) == '以' {
			// 以字行: known by his courtesy name.
			continue
		}
		if p < 0 && (word == "字" || word == "小字" || word == "小名") {
			p = x.bareOwner(i)
		}
		post := posthWord(word)
		if !post && (p < 0 || x.ents[p].typ != tPer) {
			continue
		}
		if p >= 0 {
			p = x.aliasHead(p)
		}
		if word == "号" && !(x.boundary(i-1) || lastAlias >= 0) {
			continue
		}
		s := i + wl
		if word == "号" && x.at(s) == '为' || word == "号" && x.at(s) == '曰' {
			s++
		}
		e := s
		for e < len(rs) && e-s < 4 && isHan(rs[e]) && rs[e] != '人' && rs[e] != '也' {
			e++
		}
		if post && e-s > 3 {
			continue
		}
		if e == s || (e-s == 4 && isHan(x.at(e))) {
			continue
		}
		// The alias may have been misread as something else.
		for k := s; k < e; k++ {
			if j := x.entAt(k); j >= 0 {
				if x.ents[j].s < s || x.ents[j].e > e {
					e = -1
					break
				}
				x.drop(j)
			}
		}
		if e < 0 {
			continue
		}
		t := x.add(s, e, tPer, "")
		if t < 0 {
			continue
		}
		kind := word
		switch word {
		case "一名", "本名", "初名", "始名", "又名", "更名", "改名":
			kind = "名"
		case "小名":
			kind = "小字"
		}
		if post {
			x.posths = append(x.posths, t)
			i = e - 1
			continue
		}
		x.rels = append(x.rels, rel{h: p, t: t, r: "别称", alias: kind})
		alias := string(rs[s:e])
		if _, known := x.doc.Names[alias]; !known && e-s >= 2 {
			x.doc.Names[alias] = x.ents[p].canonical(x.rs)
			x.first[rs[s]] = true
		}
		x.aliasOwner = p
		lastAlias = e
		i = e - 1
		if x.at(e) == '，' || x.at(e) == ',' {
			lastAlias = e + 1
		}
	}
}

func hasAt(rs []rune, i int, w string) bool {
	if i < 0 {
		return false
	}
	for _, r := range w {
		if i >= len(rs) || rs[i] != r {
			return false
		}
		i++
	}
	return true
}

func (e ent) canonical(rs []rune) string {
	if e.name != "" {
		return e.name
	}
	return string(rs[e.s:e.e])
}

// listedBefore returns the persons listed with 、 that end at rune e,
// reading unread members of one to four runes as persons.
func (x *run) listedBefore(e int) []int {
	var out []int
	for n := 0; n < 8; n++ {
		k := x.endsAt(e)
		if k < 0 {
			s := e
			for s > 0 && e-s < 4 && isHan(x.rs[s-1]) && x.cov[s-1] == 0 {
				s--
			}
			if s == e || !(x.boundary(s-1) || x.at(s-1) == '、') || !x.nameChars(s, e) {
				return out
			}
			k = x.add(s, e, tPer, "")
		}
		if k < 0 || x.ents[k].typ != tPer {
			return out
		}
		out = append(out, k)
		e = x.ents[k].s
		if x.at(e-1) != '、' {
			return out
		}
		e--
	}
	return out
}

// natives reads "某郡某县人也" after a person (and his courtesy name) as
// the places he came from.
func (x *run) natives() {
	rs := x.rs
	for k := 1; k < len(rs); k++ {
		if rs[k] != '人' || !(x.boundary(k+1) || rs[k+1] == '也') {
			continue
		}
		c := k
		for c > 0 && isHan(rs[c-1]) && k-c < 8 {
			c--
		}
		if c == k || !x.boundary(c-1) || c == 0 {
			continue
		}
		if strings.ContainsRune("皆并俱亦本世", rs[c]) && k-c > 1 {
			c++
		}
		owners := []int{}
		if p := x.endsAt(c - 1); p >= 0 && x.ents[p].typ == tPer {
			owners = append(owners, p)
		} else if x.at(c-1) == '，' && x.at(c-2) == '者' {
			// 准德、束里保者，皆加古部人: everyone listed.
			owners = x.listedBefore(c - 2)
		}
		if len(owners) == 0 {
			continue
		}
		p := owners[0]
		// The person, not his alias, is the head.
		for _, r := range x.rels {
			if r.t == p && r.r == "别称" {
				p = r.h
			}
		}
		places := x.placeClause(c, k)
		if places == nil {
			continue
		}
		for _, o := range owners {
			if o != p {
				o = x.aliasHead(o)
			} else {
				o = p
			}
			for _, s := range places {
				x.rels = append(x.rels, rel{h: o, t: s, r: "籍贯"})
			}
		}
	}
}

// placeClause reads rs[c:k], the Z of Z人也, as places; nil when it does
// not read as a place (为之…, numbers).
func (x *run) placeClause(c, k int) []int {
	for j := c; j < k; j++ {
		if strings.ContainsRune("为之有其所者不无乃何可善能以等数馀", x.rs[j]) || numeral.has(x.rs[j]) {
			return nil
		}
	}
	return x.segmentPlaces(c, k)
}

// segmentPlaces splits rs[s:e] into places, known ones by the gazetteer and
// the rest as they fall, and returns their mention indices.
func (x *run) segmentPlaces(s, e int) []int {
	var out []int
	// Existing mentions that are not places give way.
	for j := s; j < e; j++ {
		if k := x.entAt(j); k >= 0 {
			en := x.ents[k]
			if en.s < s || en.e > e {
				return nil
			}
			if en.typ != tLoc {
				x.drop(k)
			}
		}
	}
	pend := -1
	flush := func(j int) {
		if pend >= 0 {
			if j-pend == 4 {
				// 彰德安阳: two places of two runes.
				if k := x.add(pend, pend+2, tLoc, ""); k >= 0 {
					out = append(out, k)
				}
				pend += 2
			}
			if k := x.add(pend, j, tLoc, ""); k >= 0 {
				out = append(out, k)
			}
			pend = -1
		}
	}
	for j := s; j < e; {
		if k := x.startsAt(j); k >= 0 {
			flush(j)
			out = append(out, k)
			j = x.ents[k].e
			continue
		}
		x.buf = x.lex.walk(x.rs, j, x.buf[:0])
		n := 0
		for _, m := range x.buf {
			if m.flags&(fLoc|fGrp|fState|fLocCtx) != 0 && j+m.n <= e {
				// One rune is a place only before 县 or at the end (虢县,
				// 沛国谯); 代北 is one place.
				if m.n == 1 && !(j+1 == e || strings.ContainsRune("县郡州", x.at(j+1)) || pend < 0 && x.startsAt(j+1) >= 0) {
					continue
				}
				n = m.n
			}
		}
		if n > 0 {
			if c := x.at(j + n); j+n < e && (c == '县' || c == '郡' || c == '州') {
				n++
			}
			flush(j)
			if k := x.add(j, j+n, tLoc, ""); k >= 0 {
				out = append(out, k)
			}
			j += n
			continue
		}
		if pend < 0 {
			pend = j
		}
		j++
		// 郡, 县, 州 close a place.
		if c := x.at(j - 1); c == '郡' || c == '县' || c == '州' {
			flush(j)
		}
	}
	flush(e)
	return out
}

// nameChars reports whether rs[s:e] could be a given name.
func (x *run) nameChars(s, e int) bool {
	for j := s; j < e; j++ {
		c := x.at(j)
		if !isHan(c) || noGiven.has(c) || numeral.has(c) {
			return false
		}
	}
	return true
}

// plainName is nameChars without the characters that are common verbs and
// particles, for names read with no surname.
func (x *run) plainName(s, e int) bool {
	if !x.nameChars(s, e) {
		return false
	}
	for j := s; j < e; j++ {
		c := x.rs[j]
		if followPer.has(c) || precedePer.has(c) || kinBlock.has(c) || noSingle.has(c) && e-s == 1 {
			return false
		}
	}
	return true
}

// appositions reads the given name after an office or title (司徒允,
// 卫王仪).
func (x *run) appositions() {
	n := len(x.ents)
	for k := 0; k < n; k++ {
		en := x.ents[k]
		if en.s < 0 || (en.typ != tOff && en.typ != tTitle) {
			continue
		}
		s := en.e
		for g := 1; g <= 2; g++ {
			e := s + g
			if !x.free(s, e) || !x.plainName(s, e) {
				break
			}
			next := x.at(e)
			if !(x.boundary(e) || strongFollow.has(next) || followPer.has(next)) {
				continue
			}
			// 进士第, 丞相掾: a one-rune word after an office is seldom a
			// name unless the rune is rare or a pause or 曰 follows.
			if g == 1 && en.typ == tOff && !rare(x.rs[s]) && !strings.ContainsRune("曰、为既等遣率时", next) {
				continue
			}
			name := ""
			if full, ok := x.doc.Names[string(x.rs[s:e])]; ok && full != string(x.rs[s:e]) {
				name = full
			}
			x.add(s, e, tPer, name)
			break
		}
	}
}

// speakerStop open a clause before 曰 without being a speaker (论曰, 赞曰,
// 目曰, 号曰).
var speakerStop = set("目戒且号论赞名誓歎叹客辄次荅答谢总仍改诏敕制谥諡又或一")

// speakers reads a bare name that opens a clause and says something (奂曰).
func (x *run) speakers() {
	rs := x.rs
	for i := 1; i < len(rs); i++ {
		if rs[i] != '曰' || x.cov[i] != 0 {
			continue
		}
		e := i
		if strings.ContainsRune("荅答对谢叹歎笑泣", x.at(e-1)) && x.cov[e-1] == 0 {
			// 珪荅曰: the name before 荅.
			e--
		}
		for g := 1; g <= 2; g++ {
			s := e - g
			if s < 0 || !x.boundary(s-1) {
				continue
			}
			if x.free(s, e) && x.plainName(s, e) && !(g == 1 && speakerStop.has(x.rs[s])) {
				x.add(s, e, tPer, "")
			}
			break
		}
	}
}

// openings reads the 字 formula once every name is read. X字Y at the start
// of a biography's opening, X字Y，Z人也 or X，字Y，Z人也, says who X is: the whole of X is the
// person (终军, where only 军 was read, or 于定国, where 于 read as a
// preposition), Y is his 字 whoever it was read as before, and Z his native
// place. Elsewhere, X字Y with a person X read right before 字 and a person Y
// no one has as an alias makes Y X's 字, as aliases does.
func (x *run) openings(ss []sentence) {
	added := false
	defer func() {
		if added {
			x.sortOrder()
		}
	}()
	for _, sn := range ss {
		for i := sn.s + 1; i < sn.e-1; i++ {
			if x.rs[i] != '字' || x.at(i-1) == '以' {
				continue
			}
			start := sn.s // the sentence's first character, after a line break
			for start < i && unicode.IsSpace(x.rs[start]) {
				start++
			}
			// The opening: X字Y or X，字Y, then a clause ending 人也.
			comma := i + 1
			for comma < sn.e && comma-i <= 4 && x.rs[comma] != '，' {
				comma++
			}
			name := i // where X ends
			if x.at(i-1) == '，' {
				name = i - 1
			}
			opening := x.at(comma) == '，' && comma-i >= 2 && comma-i <= 4 &&
				strings.Contains(string(x.rs[comma:sn.e]), "人也") &&
				name-start >= 2 && name-start <= 3 && allHan(x.rs[start:name]) && allHan(x.rs[i+1:comma])
			var p, t int
			if opening {
				p, t = x.wholeName(start, name), x.wholeName(i+1, comma)
				if p < 0 || t < 0 {
					continue
				}
				if !x.plain {
					x.learnOpened(start, name)
				}
				added = true
				if x.realias(t, p) {
					continue
				}
			} else {
				p, t = x.endsAt(i), x.startsAt(i+1)
				if p < 0 || t < 0 || x.ents[p].typ != tPer || x.ents[t].typ != tPer || x.ents[t].e-x.ents[t].s > 3 || x.hasAlias(t) {
					continue
				}
			}
			// The 字 names him for the rest of the chapter through
			// nameAliases, as the 字 aliases reads does.
			x.rels = append(x.rels, rel{h: p, t: t, r: "别称", alias: "字"})
			// The native place the opening gives, where natives, before
			// the person was read, could not.
			if k := strings.Index(string(x.rs[comma:sn.e]), "人也"); opening && k > 0 && !x.hasNative(p, t) {
				end := comma + len([]rune(string(x.rs[comma:sn.e])[:k]))
				for _, pl := range x.placeClause(comma+1, end) {
					x.rels = append(x.rels, rel{h: p, t: pl, r: "籍贯"})
				}
			}
		}
	}
}

// learnOpened teaches the document the given name of the man an opening
// introduces at [s, e): the text that follows calls him by it (敞 of
// 云敞), whoever it named before. The formula says the name is a full one,
// so its first character is his surname, known as one or not.
func (x *run) learnOpened(s, e int) {
	full := string(x.rs[s:e])
	given := []rune(strings.TrimPrefix(full, histories.Surname(full)))
	if len(given) == 0 || len(given) == 1 && noSingle.has(given[0]) {
		return
	}
	x.doc.Names[string(given)] = full
	x.doc.Types[full] = tPer
}

// wholeName makes rs[s:e] one person: the mention read there, widened to
// it where only part of the name was read (军 of 终军), or the persons read
// there joined into one, with their relations (云 and 敞 of 云敞, 云 read
// as the chapter's 朱云); -1 when what was read there reaches outside it,
// or is more than one mention and not all persons, or when reading for
// the recogniser's training, which saw names as the rules read them.
func (x *run) wholeName(s, e int) int {
	var ks []int
	for j := s; j < e; j++ {
		m := x.entAt(j)
		if m < 0 || len(ks) > 0 && ks[len(ks)-1] == m {
			continue
		}
		if x.ents[m].s < s || x.ents[m].e > e {
			return -1
		}
		ks = append(ks, m)
	}
	if len(ks) == 0 {
		return x.add(s, e, tPer, "")
	}
	k := ks[len(ks)-1]
	if len(ks) > 1 && x.plain {
		return -1 // what the recogniser was trained to see: the names as read
	}
	if len(ks) > 1 {
		for _, m := range ks {
			if x.ents[m].typ != tPer {
				return -1
			}
		}
		for _, m := range ks[:len(ks)-1] {
			x.drop(m)
			for i := range x.rels {
				if r := &x.rels[i]; r.h == m {
					r.h = k
				} else if r.t == m {
					r.t = k
				}
			}
		}
	}
	for j := s; j < e; j++ {
		x.cov[j] = int32(k + 1)
	}
	x.ents[k].s, x.ents[k].e, x.ents[k].typ, x.ents[k].name = s, e, tPer, ""
	return k
}

// realias makes mention t the alias of p wherever it was read as someone
// else's; it reports whether t was an alias at all.
func (x *run) realias(t, p int) bool {
	found := false
	for i := range x.rels {
		if r := &x.rels[i]; r.r == "别称" && r.t == t {
			r.h, r.alias, found = p, "字", true
		}
	}
	return found
}

func allHan(rs []rune) bool {
	for _, r := range rs {
		if !isHan(r) || numeral.has(r) {
			return false
		}
	}
	return true
}

// hasAlias reports whether mention t is already the alias of someone.
func (x *run) hasAlias(t int) bool {
	for _, r := range x.rels {
		if r.r == "别称" && r.t == t {
			return true
		}
	}
	return false
}

// hasNative reports whether person p, or their alias t, has a native place.
func (x *run) hasNative(p, t int) bool {
	for _, r := range x.rels {
		if r.r == "籍贯" && (r.h == p || r.h == t) {
			return true
		}
	}
	return false
}
