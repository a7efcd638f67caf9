package zh

import "strings"

// Names that only a formula or a neighbour reveals: rulers named with their
// dynasty (梁太祖), consorts by their posthumous names (武明皇后), women by
// their clan (刘氏), and the other members of a list whose one member is a
// known person (李存信、李存审).

// rulerEnds close a ruler's title.
var rulerEnds = set("祖宗帝")

// rulerPrefix extends a ruler's title over the dynasty before it (梁太祖,
// 周明帝): one state character, free, at the head of a phrase.
func (x *run) rulerPrefix() {
	for k := range x.ents {
		en := x.ents[k]
		if en.s < 1 || en.typ != tPer || en.name != "" || en.e-en.s < 2 || !rulerEnds.has(x.rs[en.e-1]) {
			continue
		}
		p := en.s - 1
		if x.cov[p] != 0 || x.lex.lookup(x.rs[p:p+1])&fState == 0 {
			continue
		}
		if !(x.boundary(p-1) || precedePer.has(x.at(p-1)) || x.entAt(p-1) >= 0) {
			continue
		}
		x.ents[k].s = p
		x.cov[p] = int32(k + 1)
	}
}

// consortEnds follow a posthumous name to name an empress or emperor.
var consortEnds = []string{"太皇太后", "皇太后", "皇后", "太后", "皇帝"}

// consorts reads one or two posthumous characters before 皇后, 太后 or 皇帝
// as a person (武明皇后, 文明太皇太后, 武元皇帝).
func (x *run) consorts() {
	rs := x.rs
	for i := 0; i < len(rs); i++ {
		if k := x.entAt(i); k >= 0 && x.ents[k].s != i || x.lex.lookup(rs[i:i+1])&fPosth == 0 {
			continue
		}
		n := 1
		if i+1 < len(rs) && x.lex.lookup(rs[i+1:i+2])&fPosth != 0 {
			n = 2
		}
		for _, w := range consortEnds {
			e := i + n + len([]rune(w))
			if !hasAt(rs, i+n, w) {
				continue
			}
			for j := i; j < e; j++ {
				if k := x.entAt(j); k >= 0 && (x.ents[k].s < i || x.ents[k].e > e) {
					e = -1
					break
				}
			}
			if e < 0 {
				break
			}
			for j := i; j < e; j++ {
				if k := x.entAt(j); k >= 0 {
					x.drop(k)
				}
			}
			x.add(i, e, tPer, "")
			i = e - 1
			break
		}
	}
}

// clanWomen reads a surname followed by 氏 as a woman (刘氏, 卢氏), unless
// it names a clan (赐姓王氏, 左氏).
func (x *run) clanWomen() {
	rs := x.rs
	for i := 1; i < len(rs); i++ {
		if rs[i] != '氏' || x.cov[i] != 0 {
			continue
		}
		s := -1
		for _, n := range []int{2, 1} {
			if i-n >= 0 && x.free(i-n, i) && x.lex.lookup(rs[i-n:i])&fSur != 0 {
				s = i - n
				break
			}
		}
		if s < 0 || x.at(s-1) == '姓' || x.at(s-2) == '姓' || rs[s] == '左' {
			continue
		}
		if !(x.boundary(s-1) || precedePer.has(x.at(s-1)) || kinBlock.has(x.at(s-1)) || x.endsAt(s) >= 0 || strings.ContainsRune("妃后嫔人容仪妤", x.at(s-1))) {
			continue
		}
		x.add(s, i+1, tPer, "")
	}
}

// listSep joins the members of a list of names.
var listSep = set("、")

// listEnd may close the last member of a list.
var listEnd = set("等及与并皆俱各共同，。；：")

// listNames reads the unread members of a list of names one of whose
// members is a person: full names (a surname and one or two runes) beside
// full names, bare one- or two-rune names beside bare ones.
func (x *run) listNames() {
	for changed, rounds := true, 0; changed && rounds < 4; rounds++ {
		changed = false
		for _, k := range x.liveOrder() {
			en := x.ents[k]
			if en.typ != tPer {
				continue
			}
			full := x.fullName(en.s, en.e)
			// The member after: 、 then the name, then a list end.
			if listSep.has(x.at(en.e)) {
				if x.listMember(en.e+1, full, true) {
					changed = true
				}
			}
			if listSep.has(x.at(en.s - 1)) {
				if x.listMember(en.s-1, full, false) {
					changed = true
				}
			}
		}
	}
}

// liveOrder lists the live mentions by position.
func (x *run) liveOrder() []int {
	var out []int
	for i := 0; i < len(x.rs); {
		k := x.entAt(i)
		if k < 0 {
			i++
			continue
		}
		out = append(out, k)
		i = x.ents[k].e
	}
	return out
}

// fullName reports whether rs[s:e] reads as a surname and a given name.
func (x *run) fullName(s, e int) bool {
	if e-s < 2 || e-s > 4 {
		return false
	}
	sl := x.surnameLen(x.rs[s:e])
	return sl > 0 && e-s-sl >= 1 && e-s-sl <= 2
}

// listMember reads the list member that starts at rune at (forward) or
// ends at rune at (backward) and adds it when it has the shape of its
// neighbour.
func (x *run) listMember(at int, full, forward bool) bool {
	for n := 4; n >= 1; n-- {
		s, e := at, at+n
		if !forward {
			s, e = at-n, at
		}
		if s < 0 || e > len(x.rs) || !x.free(s, e) {
			continue
		}
		var edge bool
		if forward {
			edge = x.boundary(e) || listSep.has(x.at(e)) || listEnd.has(x.at(e))
		} else {
			edge = x.boundary(s-1) || listSep.has(x.at(s-1)) || precedePer.has(x.at(s-1)) || x.endsAt(s) >= 0 && x.ents[x.endsAt(s)].typ != tPer
		}
		if !edge {
			continue
		}
		if full {
			if !x.fullName(s, e) || !x.nameChars(s+x.surnameLen(x.rs[s:e]), e) || x.wordAt(s) {
				continue
			}
		} else if n > 2 || !x.plainName(s, e) || x.lex.lookup(x.rs[s:e]) != 0 || placeEnd.has(x.rs[e-1]) {
			continue
		}
		// 兖、郓、淄: a list of places with one misread member.
		if forward {
			if k := x.startsAt(e + 1); k >= 0 && x.ents[k].typ != tPer && x.at(e) == '、' {
				continue
			}
		} else if k := x.endsAt(s - 1); k >= 0 && x.ents[k].typ != tPer && x.at(s-1) == '、' {
			continue
		}
		name := ""
		if f, ok := x.doc.Names[string(x.rs[s:e])]; ok && f != string(x.rs[s:e]) {
			name = f
		}
		return x.add(s, e, tPer, name) >= 0
	}
	return false
}

// formulaNames reads bare given names that a formula frames: 以X为OFFICE and
// X为OFFICE at the head of a clause, 为X所杀, and X弟Y at the head of a
// clause.
func (x *run) formulaNames() {
	rs := x.rs
	for i := 0; i < len(rs); i++ {
		if x.cov[i] != 0 || !isHan(rs[i]) {
			continue
		}
		head := x.boundary(i - 1)
		for g := 2; g >= 1; g-- {
			e := i + g
			if e > len(rs) || !x.free(i, e) || !x.nameChars(i, e) || x.lex.lookup(rs[i:e]) != 0 {
				continue
			}
			if g == 1 && noSingle.has(rs[i]) || kinBlock.has(rs[i]) || kinBlock.has(rs[e-1]) {
				continue
			}
			if verbStart.has(rs[i]) || verbStart.has(rs[e-1]) || leadChars.has(rs[i]) || strings.ContainsRune("被家启请荐", rs[e-1]) || strings.ContainsRune("功罪疾事故老病忧计兵众礼义法", rs[i]) {
				// 复为, 起家为, 寻为: adverbs and verbs, not names.
				continue
			}
			ok := false
			switch {
			case x.at(e) == '为' && (x.at(i-1) == '以' || head) && x.officeAfter(e+1):
				// 以天麟为断事官, 僧辩为扬州刺史
				ok = true
			case x.at(i-1) == '为' && x.at(e) == '所' && x.free(i-1, i) && isHan(x.at(e+1)):
				// 为再荣所并
				ok = true
			case head && g <= 2 && x.kinAfter(e):
				// 运弟勤
				ok = true
			case strings.ContainsRune("拜加授擢除诏征召迁以", x.at(i-1)) && x.free(i-1, i) && x.officeAfter(e) && !x.officeAt(i):
				// 拜崇征虏将军, 诏璧摄监察御史
				ok = true
			case g == 2 && x.at(e) == '等' && (x.at(i-1) == '、' || precedePer.has(x.at(i-1))) && !strings.ContainsRune("卿公君尔", rs[i]):
				// 赵秉文、时戬等
				ok = true
			}
			if ok {
				name := ""
				if full, known := x.doc.Names[string(rs[i:e])]; known && full != string(rs[i:e]) {
					name = full
				}
				x.add(i, e, tPer, name)
				i = e - 1
				break
			}
		}
	}
}

// officeAfter reports whether an office or title, possibly after a place,
// starts at rune i.
func (x *run) officeAfter(i int) bool {
	k := x.startsAt(i)
	for steps := 0; k >= 0 && steps < 2 && (x.ents[k].typ == tLoc || x.ents[k].typ == tGrp); steps++ {
		k = x.startsAt(x.placeEnd(x.ents[k].e))
	}
	return k >= 0 && (x.ents[k].typ == tOff || x.ents[k].typ == tTitle)
}

// kinAfter reports whether a kinship word and a name closed by a pause or
// a verb follow rune i (弟勤，).
func (x *run) kinAfter(i int) bool {
	for _, w := range []string{"从弟", "长子", "次子", "少子", "弟", "子", "兄"} {
		if !hasAt(x.rs, i, w) {
			continue
		}
		s := i + len([]rune(w))
		if k := x.startsAt(s); k >= 0 {
			return x.ents[k].typ == tPer
		}
		for g := 1; g <= 2; g++ {
			e := s + g
			if e <= len(x.rs) && x.free(s, e) && x.nameChars(s, e) && !kinBlock.has(x.rs[s]) && (x.boundary(e) || x.at(e) == '嗣') {
				return true
			}
		}
		return false
	}
	return false
}

// translit are characters the histories of the Liao, Jin and Yuan use to
// write Khitan, Jurchen and Mongol names (帖木儿, 不花, 荅失八都鲁).
var translit = set("阿帖木儿不花脱答荅失八都鲁海牙也先孛罗乞忽必烈察罕哈剌撒合斡兀术乌古论粘没蒲查讹里迭赤那颜伯火者亦纳塔速秃铁忙哥拔野咬住普化班睦迩尔克苏兰台灭吉思怯薛额图博勒奴歹只斤拙窝阔拖雷蒙旭黑温迪")

// foreignNames reads a run of three to six transliteration characters
// (at most one other among them) standing where a name stands as a person.
func (x *run) foreignNames() {
	rs := x.rs
	for i := 0; i < len(rs); i++ {
		if x.cov[i] != 0 || !translit.has(rs[i]) {
			continue
		}
		e, odd := i, 0
		for e < len(rs) && e-i < 6 && x.cov[e] == 0 && isHan(rs[e]) {
			if !translit.has(rs[e]) {
				if odd > 0 || e == i {
					break
				}
				odd++
			}
			e++
		}
		for e > i && !translit.has(rs[e-1]) {
			e--
		}
		if e-i < 3 || odd > 0 && e-i < 4 {
			i = max(i, e-1)
			continue
		}
		prevOK := x.boundary(i-1) || precedePer.has(x.at(i-1)) || x.endsAt(i) >= 0 || x.at(i-1) == '、'
		next := x.at(e)
		nextOK := x.boundary(e) || followPer.has(next) || verbAfter.has(next) || bareVerbs.has(next) || next == '、'
		if prevOK && nextOK && x.lex.lookup(rs[i:e])&(fLoc|fGrp|fOff) == 0 {
			x.add(i, e, tPer, "")
		}
		i = e - 1
	}
}
