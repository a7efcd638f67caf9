package zh

import (
	"slices"
	"strings"

	"github.com/annals-project/annals/internal/docstats"
)

// Mention is a name in a sentence: runes [Start, End) and its type.
type Mention struct {
	Start, End int
	Type       string
}

// Recogniser is a learned name recogniser the rules defer to for which
// names a sentence holds.
type Recogniser interface {
	// Version changes with the recogniser's output (a new model).
	Version() string
	// Recognise reads the names in a sentence, given the names the rules
	// read in it (hints, in the sentence's runes), the given names the
	// document has taught the rules so far (given name → full name) and
	// how the whole document uses its characters; it reads, and adds to,
	// the names found in the document's sentences before this one.
	Recognise(sentence []rune, hints []Mention, known map[string]string, use *docstats.Stats, found *docstats.Found) []Mention
}

// Relater is a learned relation classifier whose relations join the
// rules'.
type Relater interface {
	// Version changes with the classifier's output (a new model).
	Version() string
	// Relate reads the relations a sentence states between its names
	// (in the sentence's runes), as indexes into names.
	Relate(sentence []rune, names []Mention) []Link
}

// Link is a relation between two names of a sentence, by index.
type Link struct {
	Head, Tail int
	Type       string
}

// NewWith returns the extractor whose names are r's, read with the rules'
// as evidence; relations are the rules' over those names, and rl's when
// rl is not nil.
func NewWith(r Recogniser, rl Relater) *Extractor { return &Extractor{rec: r, rel: rl} }

// classify adds the relations the classifier reads in each sentence to
// the rules'. The rules' stay: they read what a pair classifier cannot
// (a subject carried across clauses, a formula's alias). Aliases stay
// theirs alone, since a wrong 别称 would merge two people.
func (x *run) classify(rl Relater, ss []sentence) {
	type key struct {
		h, t int
		r    string
	}
	have := map[key]bool{}
	for _, r := range x.rels {
		have[key{r.h, r.t, r.r}] = true
		have[key{r.h, r.t, ""}] = true
		have[key{r.t, r.h, ""}] = true
	}
	var ks []int
	var ms []Mention
	// Mentions and sentences are both in order: one pass over each.
	next := 0
	for _, sn := range ss {
		ks, ms = ks[:0], ms[:0]
		for next < len(x.order) && x.ents[x.order[next]].s < sn.s {
			next++
		}
		for _, k := range x.order[next:] {
			en := x.ents[k]
			if en.s >= sn.e {
				break
			}
			if en.e <= sn.e {
				ks = append(ks, k)
				ms = append(ms, Mention{en.s - sn.s, en.e - sn.s, en.typ})
			}
		}
		if len(ms) < 2 {
			continue
		}
		// Kin the rules read in this sentence, by head and type and by
		// tail and type: a kin word names the one kinsman it stands before
		// and whose kin he is (刘表长子琦, 彧长子恽), and the classifier,
		// seeing 子 between 刘表 and a name further on (亦深器亮), or
		// between the sentence's subject and the son (太祖以女妻彧长子恽),
		// would add a second.
		ruled := map[key]bool{}
		for _, r := range x.rels {
			if kinRelations[r.r] && x.ents[r.h].s >= sn.s && x.ents[r.h].e <= sn.e && x.ents[r.t].s >= sn.s && x.ents[r.t].e <= sn.e {
				ruled[key{r.h, -1, r.r}] = true
				ruled[key{-1, r.t, r.r}] = true
			}
		}
		for _, l := range rl.Relate(x.rs[sn.s:sn.e], ms) {
			if l.Type == "别称" || !statesRelation(l.Type, x.rs[sn.s:sn.e]) {
				continue
			}
			k := key{ks[l.Head], ks[l.Tail], l.Type}
			if ruled[key{k.h, -1, k.r}] || ruled[key{-1, k.t, k.r}] {
				continue
			}
			if k.r == "婚恋" && givesKinswoman(x.rs, x.ents[k.h], x.ents[k.t]) {
				continue // 太祖以女妻彧长子恽: 太祖's daughter married, not he
			}
			if (x.ents[k.t].typ == tTime || k.r == "任官" || k.r == "封爵") && x.datesByReign(k.h) {
				continue // 孝文元年薨, 以高祖六年赐爵: the ruler dates it
			}
			if (k.r == "任官" || k.r == "封爵") && (x.notGiven(k.h, k.t, k.t) || x.servedOffice(k.t) || x.rulerOfAnotherLife(k.h, k.t)) {
				continue // 汉王以苍为代相: 汉王 gave the office; 为义帝发丧: for him
			}
			if k.r == "所属团体" && x.groupOfAnother(k.h, k.t) {
				continue // 魏尚书仆射陈群与丞相诸葛亮书: 魏 is 陈群's
			}
			if !have[k] && !have[key{k.h, k.t, ""}] {
				have[k] = true
				if w := x.kinWordBetween(k.h, k.t); w != "" && kinRelations[k.r] {
					x.familyName(k.h, k.t, w, true) // 霍去病弟光, where the model read 光
				}
				x.rels = append(x.rels, rel{h: k.h, t: k.t, r: k.r})
			}
		}
	}
}

// groupOfAnother says whether state or group g, written before person h,
// names another man: one it stands right before, offices between (魏大将
// 军司马宣王攻亮 makes 司马懿, not 亮, a man of 魏), or the men it sends
// (吴遣将军李异、刘阿等踵蹑先主军: not 刘备); the names of their list (魏将张
// 郃、徐晃) are its men too.
func (x *run) groupOfAnother(h, g int) bool {
	i := x.ents[g].e
	if strings.ContainsRune("遣使命", x.at(i)) && x.cov[i] == 0 {
		i++ // 吴遣将军李异、刘阿等踵蹑先主军: 吴's men are the ones it sent
	}
	for {
		k := x.startsAt(i)
		switch {
		case k < 0:
			return false
		case x.ents[k].typ == tOff || x.ents[k].typ == tTitle:
			i = x.ents[k].e
		default:
			return x.ents[k].typ == tPer && k != h && !slices.Contains(x.listOf(k), h)
		}
	}
}

// givesKinswoman says whether the words between two mentions give a
// daughter or sister of one in marriage (以女妻X, 以妹妻之): the two are
// in-laws, not husband and wife.
func givesKinswoman(rs []rune, a, b ent) bool {
	s, e := min(a.e, b.e), max(a.s, b.s)
	if s < 0 || e > len(rs) || s >= e {
		return false
	}
	between := string(rs[s:e])
	for _, w := range []string{"女妻", "妹妻", "姊妻", "女嫁", "妹嫁", "女配", "妹配"} {
		if strings.Contains(between, w) {
			return true
		}
	}
	return false
}

// kinRelations are the relations a kin word states.
var kinRelations = map[string]bool{"子女": true, "同胞": true, "婚恋": true, "孙": true, "同族": true}

// statingWords are the words without one of which a sentence states no
// relation of a type: it dates no birth or death (the classifier, reading
// a year before a name, 四年春三月甲寅，立皇后上官氏, would otherwise date a
// death that is not there), and gives no native place without 人, 乡 or 本郡
// (及亡新王莽, the fallen 新 before its ruler, is no place he came from;
// 汝南绍之本郡 is).
var statingWords = map[string][]string{
	"死亡时间": strings.Split(deathChars+"杀诛害弑戮", ""),
	"出生时间": {"生", "诞", "产"},
	"籍贯":   {"人", "乡", "本郡", "本县", "本州"},
	// Kin: a sentence that says no word of family states none (将军吴班
	// … in 先主传 makes 吴班 no parent of 刘备).
	"子女": strings.Split("子女父母男生嗣息孤儿胤", ""),
	"孙":  {"孙"},
	"同胞": strings.Split("兄弟姊妹昆", ""),
	"婚恋": strings.Split("妻夫妇后妃娶嫁尚纳聘配姬室婚", ""),
}

// statesRelation says whether a sentence has a word that states a
// relation of the type; types without such words pass.
func statesRelation(relation string, sentence []rune) bool {
	words, ok := statingWords[relation]
	if !ok {
		return true
	}
	s := string(sentence)
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// learned lets the recogniser decide the names of each sentence. Where it
// marks exactly what the rules marked, the rules' mention stays, with the
// full name they resolved it to, under the recogniser's type; any other
// rule mention in the sentence goes (measured on held-out annotations,
// rule names the model does not confirm are right about one time in
// ten); the recogniser's other names join, a given name the document
// knows resolved to its full name. A full name the rules read but the
// recogniser confirms nowhere teaches nothing: in 高祖急，顾丁公曰 the rules
// read 顾丁公 (顾 is a surname) and would have every 丁公 of the chapter be
// 顾丁公, where the recogniser reads 丁公.
func (x *run) learned(r Recogniser, ss []sentence) {
	var live []int
	// dropped are the mentions the recogniser did not confirm; one it
	// reads over the same characters with the same type takes over their
	// relations (讳备 read by the rules, 备 by the recogniser).
	type droppedAt struct {
		k, s, e int
		typ     string
	}
	var dropped []droppedAt
	remap := map[int]int{}
	confirmed := map[string]bool{} // persons' full names read, and whether confirmed
	read := func(s, e int, ok bool) {
		w := string(x.rs[s:e])
		confirmed[w] = confirmed[w] || ok
	}
	use := x.doc.Use
	for _, sn := range ss {
		live = live[:0]
		var hints []Mention
		for _, k := range x.order {
			en := x.ents[k]
			if en.s >= sn.s && en.e <= sn.e && en.s >= 0 {
				live = append(live, k)
				hints = append(hints, Mention{en.s - sn.s, en.e - sn.s, en.typ})
			}
		}
		got := r.Recognise(x.rs[sn.s:sn.e], hints, x.doc.Names, use, x.doc.Found)
		kept := map[[2]int]bool{}
		for _, k := range live {
			en := &x.ents[k]
			same := -1
			for i, m := range got {
				if m.Start+sn.s == en.s && m.End+sn.s == en.e {
					same = i
				}
			}
			if en.typ == tPer {
				read(en.s, en.e, same >= 0)
			}
			// A person no one could tell apart (太子前为寿, 公子) goes
			// whichever read it.
			junk := (same >= 0 && got[same].Type == tPer || same < 0 && en.typ == tPer) && x.notAPerson(en.s, en.e)
			if same < 0 || junk {
				// A month without its year (夏四月，权薨) dates what
				// follows from the year before it; the annotations leave
				// it unmarked, so the recogniser does too, and it stays.
				// So does a one-character name a kinship word introduces
				// (父冏) where the recogniser reads nothing else.
				keep := !junk && (en.typ == tTime || en.e-en.s == 1 && x.isKinName(k)) && !overlaps(got, en.s-sn.s, en.e-sn.s)
				if !keep {
					dropped = append(dropped, droppedAt{k, en.s, en.e, en.typ})
					x.drop(k)
				}
				continue
			}
			en.typ = got[same].Type
			kept[[2]int{en.s, en.e}] = true
		}
		for _, m := range got {
			s, e := m.Start+sn.s, m.End+sn.s
			if kept[[2]int{s, e}] || s < sn.s || e > sn.e || s >= e {
				continue
			}
			if m.Type == tPer && x.notAPerson(s, e) {
				continue
			}
			name := ""
			if m.Type == tPer {
				if full, ok := x.doc.Names[string(x.rs[s:e])]; ok && full != string(x.rs[s:e]) {
					name = full
				}
			}
			k := x.add(s, e, m.Type, name)
			if k < 0 {
				continue
			}
			if m.Type == tPer {
				read(s, e, true)
			}
			for _, d := range dropped {
				if d.typ == m.Type && d.s < e && s < d.e {
					remap[d.k] = k
				}
			}
		}
	}
	for i, rl := range x.rels {
		if k, ok := remap[rl.h]; ok {
			x.rels[i].h = k
		}
		if k, ok := remap[rl.t]; ok {
			x.rels[i].t = k
		}
	}
	x.deathPlaces()
	x.sortOrder()
	x.forgetDropped()
	x.unlearn(confirmed)
}

// deathPlaces reads as a place the two to four characters between a
// death, 于 and a clause's end that no one read (亮卒于武功，), where the
// recogniser may take 武功 for "merit"; a home, a post or a camp (卒于家,
// 卒于官, 卒于军中) is no named place.
func (x *run) deathPlaces() {
	for i := 0; i+3 < len(x.rs); i++ {
		if !strings.ContainsRune(deathChars, x.rs[i]) || !strings.ContainsRune("于於", x.rs[i+1]) {
			continue
		}
		s, e := i+2, i+2
		for e < len(x.rs) && e-s <= 4 && isHan(x.rs[e]) && !clauseBreak.has(x.rs[e]) {
			e++
		}
		if n := e - s; n < 2 || n > 4 || e >= len(x.rs) || !clauseBreak.has(x.rs[e]) || strings.ContainsRune("中所家官位军舍第", x.rs[e-1]) || !x.free(s, e) {
			continue
		}
		x.add(s, e, tLoc, "")
	}
}

// overlaps says whether any of ms overlaps [s, e).
func overlaps(ms []Mention, s, e int) bool {
	for _, m := range ms {
		if m.Start < e && m.End > s {
			return true
		}
	}
	return false
}

// unlearn forgets the given names this text taught the document from full
// names the rules read and the recogniser never confirmed, and the full
// names the rules gave mentions from them.
func (x *run) unlearn(confirmed map[string]bool) {
	if len(x.taught) == 0 {
		return
	}
	// A full name a formula gave another name (盖宽饶字次公: 次公 → 盖宽饶)
	// stands, whatever the recogniser made of it.
	for alias, full := range x.doc.Names {
		if !strings.HasSuffix(full, alias) {
			confirmed[full] = true
		}
	}
	var wrong map[string]bool
	for given := range x.taught {
		full := x.doc.Names[given]
		if ok, read := confirmed[full]; read && !ok && full != given {
			if wrong == nil {
				wrong = map[string]bool{}
			}
			wrong[full] = true
			delete(x.doc.Names, given)
			// Nor is it a person the given name may stand for later
			// (相殇王铄: no 王铄).
			delete(x.doc.Types, full)
		}
	}
	for k := range x.ents {
		if en := &x.ents[k]; en.s >= 0 && wrong[en.name] {
			en.name = ""
		}
	}
}

// heirVerbs follow a son's name when he succeeds (子琮代, 子策嗣).
const heirVerbs = "代立嗣袭继"

// forgetDropped removes what the rules noted about mentions since dropped:
// kin words, posthumous names and relations found while recognising; the
// rules after recognition take every mention they meet as live.
func (x *run) forgetDropped() {
	live := func(k int) bool { return k >= 0 && k < len(x.ents) && x.ents[k].s >= 0 }
	kins := x.kins[:0]
	relinked := map[int]bool{} // kin words given the model's name
	for _, kn := range x.kins {
		if !live(kn.name) {
			// The rules took a verb of succession into the name after the
			// kin word (琮代 in 其子琮代，屯襄阳), where the model reads 琮:
			// the kin word names the model's person. Elsewhere the
			// rules' longer name is the likelier (子宝鼎嗣, not 宝).
			k := x.startsAt(kn.e)
			if k < 0 || x.ents[k].typ != tPer || relinked[kn.s] || !strings.ContainsRune(heirVerbs, x.at(x.ents[k].e)) {
				continue
			}
			kn.name, relinked[kn.s] = k, true
		}
		kins = append(kins, kn)
	}
	x.kins = kins
	posths := x.posths[:0]
	for _, k := range x.posths {
		if live(k) {
			posths = append(posths, k)
		}
	}
	x.posths = posths
	rels := x.rels[:0]
	for _, r := range x.rels {
		if live(r.h) && live(r.t) {
			rels = append(rels, r)
		}
	}
	x.rels = rels
}
