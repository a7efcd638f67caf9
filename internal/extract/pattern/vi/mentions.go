package vi

import (
	"strings"
	"sync"
)

// mention is a candidate entity covering tokens [a,b) of a sentence. An
// untyped mention (typ == "") becomes an entity only if a relation pattern
// gives it a type.
type mention struct {
	a, b int
	typ  string
	name string // canonical name when it differs from the text
	// hide keeps a title ("vua", "thái úy") out of the text that relation
	// patterns read, so "đánh vua Lý Thái Tổ" reads as "đánh Lý Thái Tổ".
	hide bool
}

// direct is a relation read off the shape of the text around a mention, such
// as the office in "Thái úy Lý Thường Kiệt".
type direct struct {
	rel        string
	head, tail int // mention indexes
}

// sent holds one sentence while its entities and relations are read.
type sent struct {
	rs     []rune
	ts     []tok
	ms     []mention
	own    []int  // token → mention index, or -1
	cue    []bool // token used as a cue and left out of pattern text
	direct []direct
	names  *nameIndex
}

func newSent(rs []rune, ts []tok, names *nameIndex) *sent {
	s := &sent{rs: rs, ts: ts, own: make([]int, len(ts)), cue: make([]bool, len(ts)), names: names}
	for i := range s.own {
		s.own[i] = -1
	}
	return s
}

func (s *sent) free(a, b int) bool {
	if a < 0 || b > len(s.ts) || a >= b {
		return false
	}
	for i := a; i < b; i++ {
		if s.own[i] >= 0 {
			return false
		}
	}
	return true
}

// add claims tokens [a,b) for a new mention; it returns the mention's index,
// or -1 when the tokens are taken.
func (s *sent) add(a, b int, typ, name string) int {
	if !s.free(a, b) {
		return -1
	}
	k := len(s.ms)
	s.ms = append(s.ms, mention{a: a, b: b, typ: typ, name: name})
	for i := a; i < b; i++ {
		s.own[i] = k
	}
	return k
}

func (s *sent) key(i int) string {
	if i < 0 || i >= len(s.ts) {
		return ""
	}
	return s.ts[i].key
}

// phrase is the key of tokens [a,b).
func (s *sent) phrase(a, b int) string {
	var sb strings.Builder
	for i := a; i < b; i++ {
		if i > a {
			sb.WriteByte(' ')
		}
		sb.WriteString(s.ts[i].key)
	}
	return sb.String()
}

// spanText is the text of tokens [a,b) with white space collapsed.
func (s *sent) spanText(a, b int) string {
	return strings.Join(strings.Fields(string(s.rs[s.ts[a].start:s.ts[b-1].end])), " ")
}

// prefixes holds every proper prefix of every multi-syllable phrase in the
// lexicons, so that longest can stop as soon as no phrase can match.
var prefixes = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, lex := range []map[string]bool{stopInitial, placeCues, orgCues, eventCues, officeTitles, honorificCues,
		kinCues, placePreps, officeContext, knownPersons, knownPlaces, knownWorks, polities, foreignPolities, workCues,
		workNouns} {
		for p := range lex {
			ws := strings.Split(p, " ")
			for n := 1; n < len(ws); n++ {
				m[strings.Join(ws[:n], " ")] = true
			}
		}
	}
	return m
})

// longest returns the length of the longest phrase of lex starting at token
// i, made of free words, or 0.
func (s *sent) longest(i int, lex map[string]bool, maxLen int) int {
	best := 0
	pre := prefixes()
	k := ""
	for n := 1; n <= maxLen && i+n <= len(s.ts); n++ {
		t := s.ts[i+n-1]
		if t.kind != kWord || s.own[i+n-1] >= 0 {
			break
		}
		if n == 1 {
			k = t.key
		} else {
			k += " " + t.key
		}
		if lex[k] {
			best = n
		}
		if !pre[k] {
			break
		}
	}
	return best
}

// endsWith reports whether the tokens just before i form a phrase of lex.
func (s *sent) endsWith(i int, lex map[string]bool) bool {
	for n := 1; n <= 3 && i-n >= 0; n++ {
		if s.ts[i-n].kind != kWord {
			return false
		}
		if lex[s.phrase(i-n, i)] {
			return true
		}
	}
	return false
}

// isCap reports whether token i is a free capitalised word that may be part
// of a name.
func (s *sent) isCap(i int) bool {
	if i < 0 || i >= len(s.ts) || s.own[i] >= 0 || s.cue[i] {
		return false
	}
	t := s.ts[i]
	if t.kind != kWord || !t.cap {
		return false
	}
	if t.initial && stopInitial[t.key] {
		return false
	}
	return true
}

// capRun returns the end of the run of capitalised words starting at i.
func (s *sent) capRun(i int) int {
	j := i
	for j < len(s.ts) && s.isCap(j) {
		j++
	}
	return j
}

// midRun reports whether token i continues a run of capitalised words, so a
// cue word there is part of a name rather than a cue.
func (s *sent) midRun(i int) bool {
	return s.ts[i].cap && !s.ts[i].initial && i > 0 && s.ts[i-1].kind == kWord && s.ts[i-1].cap
}

func (s *sent) build() {
	markInitial(s.ts)
	s.quotedWorks()
	s.times()
	s.gazetteer(knownPersons, "person")
	s.cues()
	s.gazetteer(knownPlaces, "place")
	s.gazetteer(knownWorks, "work")
	s.offices()
	s.runs()
}

// quotedWorks finds titles in quotation marks or between asterisks:
// “Bình Ngô đại cáo”, *Hịch tướng sĩ*. Quoted speech is left alone: a
// title is short, unbroken, and either italic, introduced by a word such as
// "bài" or "viết", or mostly capitalised.
func (s *sent) quotedWorks() {
	for i := 0; i < len(s.ts); i++ {
		t := s.ts[i]
		if t.kind != kPunct {
			continue
		}
		var closing []string
		italic := false
		switch t.text {
		case `"`:
			closing = []string{`"`}
		case "“":
			closing = []string{"”", "“"}
		case "«":
			closing = []string{"»"}
		case "*", "_":
			closing, italic = []string{t.text}, true
		default:
			continue
		}
		j := i + 1
		for j < len(s.ts) && j-i <= 11 && !in(s.ts[j].text, closing) {
			j++
		}
		if j >= len(s.ts) || !in(s.ts[j].text, closing) || j == i+1 {
			continue
		}
		a, b := i+1, j
		if !s.ts[a].cap || !s.free(a, b) {
			continue
		}
		caps, words, ok := 0, 0, true
		for k := a; k < b; k++ {
			w := s.ts[k]
			if w.kind == kPunct && w.key != "-" {
				ok = false
				break
			}
			if w.kind == kWord {
				words++
				if w.cap {
					caps++
				}
			}
		}
		if !ok {
			continue
		}
		if italic || s.endsWith(i, workCues) || caps*2 >= words {
			s.add(a, b, "work", "")
			i = j
		}
	}
}

func in(x string, list []string) bool {
	for _, y := range list {
		if x == y {
			return true
		}
	}
	return false
}

func isYear(t tok) bool {
	if t.kind != kNum || len(t.text) > 4 || strings.ContainsAny(t.text, ".,") {
		return false
	}
	return t.text[0] != '0'
}

// isRoman reports whether w is a Roman numeral as used for centuries.
func isRoman(w string) bool {
	if w == "" || len(w) > 6 {
		return false
	}
	for _, r := range w {
		switch r {
		case 'I', 'V', 'X', 'L':
		default:
			return false
		}
	}
	return true
}

// era extends a time ending at token j over "TCN", "trước Công nguyên" and
// the like, and returns the new end.
func (s *sent) era(j int) int {
	if j < len(s.ts) && eraWords[s.key(j)] {
		return j + 1
	}
	if (s.key(j) == "trước" || s.key(j) == "sau") && s.key(j+1) == "công" && s.key(j+2) == "nguyên" {
		return j + 3
	}
	return j
}

// times finds dates, years and centuries: "năm 1010", "tháng 6 năm 1950",
// "ngày 2 tháng 9 năm 1945", "năm Mậu Tuất", "thế kỷ XV", "40 TCN".
func (s *sent) times() {
	ts := s.ts
	for i := 0; i < len(ts); i++ {
		if s.own[i] >= 0 {
			continue
		}
		k := ts[i].key
		switch {
		case k == "ngày" || k == "tháng" || k == "năm":
			j := i
			date := false
			if s.key(j) == "ngày" && j+1 < len(ts) && ts[j+1].kind == kNum && len(ts[j+1].text) <= 2 {
				j += 2
			}
			if s.key(j) == "tháng" && j+1 < len(ts) && ts[j+1].kind == kNum && len(ts[j+1].text) <= 2 {
				j += 2
				date = true
			}
			end := 0
			if s.key(j) == "năm" && j+1 < len(ts) && isYear(ts[j+1]) {
				end = s.era(j + 2)
			} else if s.key(j) == "năm" && j+2 < len(ts) && stems[s.key(j+1)] && branches[s.key(j+2)] {
				end = j + 3
			} else if date && j > i+2 {
				end = j // ngày 2 tháng 9
			}
			if end > 0 && s.add(i, end, "time", "") >= 0 {
				s.yearRange(end)
				i = end - 1
			}
		case (k == "thế" && (s.key(i+1) == "kỷ" || s.key(i+1) == "kỉ")):
			j := i + 2
			if s.key(j) == "thứ" {
				j++
			}
			if j < len(ts) && (isYear(ts[j]) || isRoman(ts[j].text)) {
				end := s.era(j + 1)
				if s.add(i, end, "time", "") >= 0 {
					i = end - 1
				}
			}
		case isYear(ts[i]):
			if end := s.era(i + 1); end > i+1 {
				s.add(i, end, "time", "")
				i = end - 1
			} else if s.inYearParens(i) {
				s.add(i, i+1, "time", "")
			}
		}
	}
}

// yearRange marks the second year of "năm 1418–1427".
func (s *sent) yearRange(j int) {
	if s.key(j) == "-" && j+1 < len(s.ts) && isYear(s.ts[j+1]) {
		s.add(j+1, s.era(j+2), "time", "")
	}
}

// inYearParens reads life dates and years in brackets: (1385–1433),
// (? - 1433), (938).
func (s *sent) inYearParens(i int) bool {
	a := i - 1
	for a >= 0 && a >= i-4 && (s.ts[a].key == "-" || s.ts[a].key == "?" || isYear(s.ts[a])) {
		a--
	}
	if a < 0 || s.ts[a].text != "(" {
		return false
	}
	b := i + 1
	for b < len(s.ts) && b <= i+4 && (s.ts[b].key == "-" || s.ts[b].key == "?" || isYear(s.ts[b]) || eraWords[s.ts[b].key]) {
		b++
	}
	return b < len(s.ts) && s.ts[b].text == ")"
}

// gazetteer claims known names starting with a capital.
func (s *sent) gazetteer(lex map[string]bool, typ string) {
	for i := 0; i < len(s.ts); i++ {
		if !s.ts[i].cap || s.own[i] >= 0 || s.cue[i] {
			continue
		}
		if n := s.longest(i, lex, 8); n > 0 {
			// Inside a longer run the match is part of another name.
			if i > 0 && s.isCap(i-1) && !s.ts[i-1].initial {
				continue
			}
			name := ""
			if typ == "person" {
				name = s.names.person(s.spanText(i, i+n))
			}
			s.add(i, i+n, typ, name)
			i += n - 1
		}
	}
}

// cueAt returns the kind and length of the cue starting at token i.
func (s *sent) cueAt(i int) (string, int) {
	if s.ts[i].kind != kWord || s.own[i] >= 0 || s.midRun(i) {
		return "", 0
	}
	// A capitalised family name before a capitalised name is part of it:
	// "Hồ Quý Ly" is a person, not a lake.
	if s.ts[i].cap && surnames[s.ts[i].key] && i+1 < len(s.ts) && s.ts[i+1].cap {
		return "", 0
	}
	best, kind := 0, ""
	for _, c := range []struct {
		lex  map[string]bool
		kind string
	}{{eventCues, "event"}, {orgCues, "organisation"}, {placeCues, "place"}, {officeTitles, "office"}, {workNouns, "work"},
		{honorificCues, "honorific"}, {kinCues, "kin"}} {
		if n := s.longest(i, c.lex, 4); n > best {
			best, kind = n, c.kind
		}
	}
	return kind, best
}

// cues types the capitalised run after a cue word.
func (s *sent) cues() {
	for i := 0; i < len(s.ts); i++ {
		kind, n := s.cueAt(i)
		if n == 0 {
			continue
		}
		j := i + n
		if !s.isCap(j) || s.longest(j, offices, 4) > 0 {
			continue
		}
		if s.key(i) == "thành" && s.key(i-1) == "trở" {
			continue
		}
		end := s.capRun(j)
		switch kind {
		case "event":
			k := s.phrase(i, j)
			if (k == "chiến thắng" || k == "đại thắng") && s.personLike(j, end) {
				continue
			}
			s.add(i, end, "event", "")
		case "organisation":
			s.orgRun(i, j, end)
		case "place":
			if s.add(j, end, "place", "") >= 0 {
				s.hideCue(i, j)
			}
		case "work":
			// Titles capitalise only their first syllables: "Côn Sơn ca".
			for end < len(s.ts) && end-j < 10 && s.own[end] < 0 && s.ts[end].kind == kWord && !s.ts[end].cap && !workStops[s.ts[end].key] {
				end++
			}
			s.add(j, end, "work", "")
		case "office", "honorific", "kin":
			if knownPlaces[s.phrase(j, end)] || polities[s.phrase(j, end)] {
				continue
			}
			o := -1
			if kind == "office" {
				o = s.add(i, j, "office", "")
				if o >= 0 {
					s.ms[o].hide = true
				}
			} else if kind == "honorific" {
				s.hideCue(i, j)
			}
			p := s.personRun(j, end)
			if o >= 0 && p >= 0 {
				s.direct = append(s.direct, direct{rel: "held_office", head: p, tail: o})
			}
		}
		i = end - 1
	}
}

func (s *sent) hideCue(a, b int) {
	for k := a; k < b; k++ {
		s.cue[k] = true
	}
}

// polityPrefix returns how many tokens of the run [a,b) name a foreign
// polity.
func (s *sent) polityPrefix(a, b int) int {
	return s.longest(a, foreignPolities, min(3, b-a))
}

// orgRun types "nhà Trần", "quân Nguyên"; a run that goes on past the
// polity holds a person: "quân Minh Liễu Thăng".
func (s *sent) orgRun(cueStart, a, b int) {
	p := s.polityPrefix(a, b)
	if p > 0 && b-(a+p) >= 2 {
		o := s.add(cueStart, a+p, "organisation", "")
		if q := s.personRun(a+p, b); o >= 0 && q >= 0 {
			s.direct = append(s.direct, direct{rel: "member_of", head: q, tail: o})
		}
		return
	}
	s.add(cueStart, b, "organisation", "")
}

// personRun adds the run [a,b) as a person, splitting off a polity in front
// of a name ("tướng Minh Liễu Thăng"); it returns the person's mention.
func (s *sent) personRun(a, b int) int {
	if p := s.polityPrefix(a, b); p > 0 && b-(a+p) >= 2 && p < b-a {
		o := s.add(a, a+p, "organisation", "")
		q := s.add(a+p, b, "person", s.names.person(s.spanText(a+p, b)))
		if o >= 0 && q >= 0 {
			s.direct = append(s.direct, direct{rel: "member_of", head: q, tail: o})
		}
		return q
	}
	return s.add(a, b, "person", s.names.person(s.spanText(a, b)))
}

// personLike reports whether the run [a,b) looks like a person's name.
func (s *sent) personLike(a, b int) bool {
	n := b - a
	if knownPersons[s.phrase(a, b)] {
		return true
	}
	if n >= 2 && n <= 4 && surnames[s.key(a)] && !knownPlaces[s.phrase(a, b)] {
		return true
	}
	_, typ := s.names.lookup(s.spanText(a, b))
	return typ == "person"
}

// inOfficeContext reports whether an office starting at token i follows a
// word that makes it one: "làm thái sư", "lên ngôi hoàng đế".
func (s *sent) inOfficeContext(i int) bool {
	p := i
	for p > 0 && (s.key(p-1) == "được" || s.key(p-1) == "đã" || s.key(p-1) == "chính" || s.key(p-1) == "thức") {
		p--
	}
	return s.endsWith(p, officeContext)
}

// offices finds offices used as such, the throne in "lên ngôi", and the
// emperor in "xưng đế".
func (s *sent) offices() {
	for i := 0; i < len(s.ts); i++ {
		if s.own[i] >= 0 || s.cue[i] || s.ts[i].kind != kWord {
			continue
		}
		if n := s.longest(i, offices, 4); n > 0 {
			if s.inOfficeContext(i) && !(s.isCap(i+n) && !s.ts[i].cap) {
				s.add(i, i+n, "office", "")
				i += n - 1
			}
			continue
		}
		switch {
		case s.key(i) == "ngôi" && s.key(i-1) == "lên" && s.longest(i+1, offices, 4) == 0:
			// "lên ngôi" without a title: the throne stands for the emperor.
			s.add(i, i+1, "office", "hoàng đế")
		case s.key(i) == "đế" && s.key(i-1) == "xưng":
			s.add(i, i+1, "office", "hoàng đế")
		}
	}
}

// runs classifies the remaining runs of capitalised words.
func (s *sent) runs() {
	for i := 0; i < len(s.ts); i++ {
		if !s.isCap(i) {
			continue
		}
		b := s.capRun(i)
		s.classifyRun(i, b)
		i = b - 1
	}
}

func (s *sent) classifyRun(a, b int) {
	n := b - a
	ph := s.phrase(a, b)
	last := s.key(b - 1)
	// "xưng là Bình Định Vương", "phong tước Hưng Đạo Vương"
	if (last == "vương" || last == "đế" || last == "công" || last == "hầu") && n >= 2 && s.inOfficeContext(a) {
		s.add(a, b, "office", "")
		return
	}
	if offices[ph] {
		if s.inOfficeContext(a) {
			s.add(a, b, "office", "")
		}
		return
	}
	if knownPlaces[ph] {
		s.add(a, b, "place", "")
		return
	}
	text := s.spanText(a, b)
	if canon, typ := s.names.lookup(text); typ != "" {
		if canon == text {
			canon = ""
		}
		s.add(a, b, typ, canon)
		return
	}
	// "An Sinh Vương Trần Liễu": a title name before a person's name is an
	// office the person held, like "vua" in "vua Lê Lợi".
	for k := a + 1; k < b-2; k++ {
		if w := s.key(k); (w == "vương" || w == "công" || w == "hầu") && surnames[s.key(k+1)] {
			o := s.add(a, k+1, "office", "")
			p := s.personRun(k+1, b)
			if o >= 0 {
				s.ms[o].hide = true
				if p >= 0 {
					s.direct = append(s.direct, direct{rel: "held_office", head: p, tail: o})
				}
			}
			return
		}
	}
	if n >= 2 && titleEnds[last] {
		s.add(a, b, "person", "")
		return
	}
	if n >= 2 && n <= 4 && surnames[s.key(a)] {
		s.add(a, b, "person", "")
		return
	}
	if n > 4 && surnames[s.key(a)] {
		// A long run is most often two names side by side; take the first
		// as three syllables at most, ending before the next family name.
		e := a + 1
		for e < b && e-a < 4 && !surnames[s.key(e)] {
			e++
		}
		if e-a >= 2 {
			s.add(a, e, "person", "")
			s.classifyRun(e, b)
			return
		}
	}
	if n <= 2 {
		if canon := s.names.short(text); canon != "" {
			s.add(a, b, "person", canon)
			return
		}
	}
	if n >= 2 && n <= 4 && placeEnds[last] && !surnames[s.key(a)] {
		s.add(a, b, "place", "")
		return
	}
	if s.endsWith(a, placePreps) && !(n >= 2 && surnames[s.key(a)]) {
		s.add(a, b, "place", "")
		return
	}
	s.add(a, b, "", "")
}
