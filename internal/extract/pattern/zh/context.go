package zh

import (
	"sort"
	"strings"
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
	x.natives()
	x.kinNames()
	x.appositions()
	x.speakers()
	x.bareNames()
	x.listNames()
	x.propagate()
}

// propagate marks the other mentions of a bare name already read in the
// text where a name may stand.
func (x *run) propagate() {
	rs := x.rs
	n := len(x.ents)
	for k := 0; k < n; k++ {
		en := x.ents[k]
		if en.s < 0 || en.typ != tPer || en.e-en.s > 2 || x.isAliasTail(k) {
			continue
		}
		w := rs[en.s:en.e]
		for i := 0; i+len(w) <= len(rs); i++ {
			if rs[i] != w[0] || !hasAt(rs, i, string(w)) || !x.free(i, i+len(w)) {
				continue
			}
			e := i + len(w)
			prevOK := x.boundary(i-1) || precedePer.has(x.at(i-1)) || x.endsAt(i) >= 0
			nextOK := x.boundary(e) || followPer.has(x.at(e)) || verbAfter.has(x.at(e)) || bareVerbs.has(x.at(e))
			if prevOK && nextOK {
				x.add(i, e, tPer, en.name)
			}
		}
	}
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
			if x.lex.lookup(rs[i:e]) != 0 {
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
var aliasWords = []string{"小字", "小名", "一名", "本名", "初名", "又名", "更名", "改名", "字", "号"}

func (x *run) aliases() {
	rs := x.rs
	lastAlias := -1 // end of the last alias read, for 号 after 字
	for i := 0; i < len(rs); i++ {
		if x.cov[i] != 0 {
			continue
		}
		word := ""
		for _, w := range aliasWords {
			if hasAt(rs, i, w) {
				word = w
				break
			}
		}
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
		if p < 0 || x.ents[p].typ != tPer {
			continue
		}
		p = x.aliasHead(p)
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
		case "一名", "本名", "初名", "又名", "更名", "改名":
			kind = "名"
		case "小名":
			kind = "小字"
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
		p := x.endsAt(c - 1)
		if p < 0 || x.ents[p].typ != tPer {
			continue
		}
		// The person, not his alias, is the head.
		for _, r := range x.rels {
			if r.t == p && r.r == "别称" {
				p = r.h
			}
		}
		bad := false
		for j := c; j < k; j++ {
			if strings.ContainsRune("为之有其所者不无乃何可善能以", rs[j]) {
				bad = true
			}
		}
		if bad {
			continue
		}
		for _, s := range x.segmentPlaces(c, k) {
			x.rels = append(x.rels, rel{h: p, t: s, r: "籍贯"})
		}
	}
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
			if m.flags&(fLoc|fGrp|fState) != 0 && j+m.n <= e {
				n = m.n
			}
		}
		if n > 0 {
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

// kinWords introduce a relative's name, longest first.
var kinWords = []string{"长子", "次子", "少子", "中子", "幼子", "嫡子", "庶子", "从子", "兄子", "弟子", "族子", "从弟", "从兄", "从父", "叔父", "伯父", "季父", "从孙", "族孙", "女弟", "母弟", "太子", "世子", "公子", "夫人", "曾祖", "祖父", "父", "母", "子", "弟", "兄", "妻", "女", "孙", "姊", "妹", "祖"}

var kinBlock = set("父母子弟兄妻女孙姊妹老幼少长嗣息侄甥婿舅姑夫")

func (x *run) kinNames() {
	rs := x.rs
	for i := 0; i < len(rs); i++ {
		if x.cov[i] != 0 {
			continue
		}
		word := ""
		for _, w := range kinWords {
			if hasAt(rs, i, w) {
				word = w
				break
			}
		}
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
		if wl == 1 {
			prev := x.at(i - 1)
			if !(x.boundary(i-1) || strings.ContainsRune("之其生有为曰", prev) || x.endsAt(i) >= 0) {
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
		if kinBlock.has(x.at(e0)) {
			continue
		}
		for g := 1; g <= 2; g++ {
			e := e0 + g
			if !x.free(e0, e) || !x.nameChars(e0, e) {
				break
			}
			if g == 1 && noSingle.has(rs[e0]) {
				continue
			}
			if x.boundary(e) || followPer.has(x.at(e)) || (g == 1 && x.at(e) == '嗣') {
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
			if x.boundary(e) || strongFollow.has(x.at(e)) || followPer.has(x.at(e)) {
				name := ""
				if full, ok := x.doc.Names[string(x.rs[s:e])]; ok && full != string(x.rs[s:e]) {
					name = full
				}
				x.add(s, e, tPer, name)
				break
			}
		}
	}
}

// speakers reads a bare name that opens a clause and says something (奂曰).
func (x *run) speakers() {
	rs := x.rs
	for i := 1; i < len(rs); i++ {
		if rs[i] != '曰' || x.cov[i] != 0 {
			continue
		}
		for g := 1; g <= 2; g++ {
			s := i - g
			if s < 0 || !x.boundary(s-1) {
				continue
			}
			if x.free(s, i) && x.plainName(s, i) {
				x.add(s, i, tPer, "")
			}
			break
		}
	}
}
