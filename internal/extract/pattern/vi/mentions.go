package vi

import (
	"strings"
	"sync"

	"github.com/annals-project/annals/internal/extract/pattern/latin"
)

// sent holds one sentence while its entities and relations are read. A
// title before a name is a Hide mention, so "đánh vua Lý Thái Tổ" reads as
// "đánh Lý Thái Tổ".
type sent struct {
	*latin.Sent
	cue []bool // token used as a cue and left out of pattern text
}

// phrase is the key of tokens [a,b).
func (s *sent) phrase(a, b int) string {
	var sb strings.Builder
	for i := a; i < b; i++ {
		if i > a {
			sb.WriteByte(' ')
		}
		sb.WriteString(s.Toks[i].Key)
	}
	return sb.String()
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
	for n := 1; n <= maxLen && i+n <= len(s.Toks); n++ {
		t := s.Toks[i+n-1]
		if t.Kind != latin.Word || s.Own[i+n-1] >= 0 {
			break
		}
		if n == 1 {
			k = t.Key
		} else {
			k += " " + t.Key
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
		if s.Toks[i-n].Kind != latin.Word {
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
	if i < 0 || i >= len(s.Toks) || s.Own[i] >= 0 || s.cue[i] {
		return false
	}
	t := s.Toks[i]
	if t.Kind != latin.Word || !t.Cap {
		return false
	}
	if t.Initial && stopInitial[t.Key] {
		return false
	}
	return true
}

// capRun returns the end of the run of capitalised words starting at i.
func (s *sent) capRun(i int) int {
	j := i
	for j < len(s.Toks) && s.isCap(j) {
		j++
	}
	return j
}

// midRun reports whether token i continues a run of capitalised words, so a
// cue word there is part of a name rather than a cue.
func (s *sent) midRun(i int) bool {
	return s.Toks[i].Cap && !s.Toks[i].Initial && i > 0 && s.Toks[i-1].Kind == latin.Word && s.Toks[i-1].Cap
}

func (s *sent) build() {
	// Capitals say nothing about names after these: a quotation, a bracket
	// or a clause opens like a sentence.
	latin.MarkInitial(s.Toks, `"`, "'", ":", "(", "[", "-", ";")
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
	for i := 0; i < len(s.Toks); i++ {
		t := s.Toks[i]
		if t.Kind != latin.Punct {
			continue
		}
		var closing []string
		italic := false
		switch t.Text {
		case `"`:
			closing = []string{`"`}
		case "“":
			closing = []string{"”", "“"}
		case "«":
			closing = []string{"»"}
		case "*", "_":
			closing, italic = []string{t.Text}, true
		default:
			continue
		}
		j := i + 1
		for j < len(s.Toks) && j-i <= 11 && !in(s.Toks[j].Text, closing) {
			j++
		}
		if j >= len(s.Toks) || !in(s.Toks[j].Text, closing) || j == i+1 {
			continue
		}
		a, b := i+1, j
		if !s.Toks[a].Cap || !s.Free(a, b) {
			continue
		}
		caps, words, ok := 0, 0, true
		for k := a; k < b; k++ {
			w := s.Toks[k]
			if w.Kind == latin.Punct && w.Key != "-" {
				ok = false
				break
			}
			if w.Kind == latin.Word {
				words++
				if w.Cap {
					caps++
				}
			}
		}
		if !ok {
			continue
		}
		if italic || s.endsWith(i, workCues) || caps*2 >= words {
			s.Add(a, b, "work", "")
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

func isYear(t latin.Tok) bool {
	if t.Kind != latin.Num || len(t.Text) > 4 || strings.ContainsAny(t.Text, ".,") {
		return false
	}
	return t.Text[0] != '0'
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
	if j < len(s.Toks) && eraWords[s.Key(j)] {
		return j + 1
	}
	if (s.Key(j) == "trước" || s.Key(j) == "sau") && s.Key(j+1) == "công" && s.Key(j+2) == "nguyên" {
		return j + 3
	}
	return j
}

// times finds dates, years and centuries: "năm 1010", "tháng 6 năm 1950",
// "ngày 2 tháng 9 năm 1945", "năm Mậu Tuất", "thế kỷ XV", "40 TCN".
func (s *sent) times() {
	ts := s.Toks
	for i := 0; i < len(ts); i++ {
		if s.Own[i] >= 0 {
			continue
		}
		k := ts[i].Key
		switch {
		case k == "ngày" || k == "tháng" || k == "năm":
			j := i
			date := false
			if s.Key(j) == "ngày" && j+1 < len(ts) && ts[j+1].Kind == latin.Num && len(ts[j+1].Text) <= 2 {
				j += 2
			}
			if s.Key(j) == "tháng" && j+1 < len(ts) && ts[j+1].Kind == latin.Num && len(ts[j+1].Text) <= 2 {
				j += 2
				date = true
			}
			end := 0
			if s.Key(j) == "năm" && j+1 < len(ts) && isYear(ts[j+1]) {
				end = s.era(j + 2)
			} else if s.Key(j) == "năm" && j+2 < len(ts) && stems[s.Key(j+1)] && branches[s.Key(j+2)] {
				end = j + 3
			} else if date && j > i+2 {
				end = j // ngày 2 tháng 9
			}
			if end > 0 && s.Add(i, end, "time", "") >= 0 {
				s.yearRange(end)
				i = end - 1
			}
		case (k == "thế" && (s.Key(i+1) == "kỷ" || s.Key(i+1) == "kỉ")):
			j := i + 2
			if s.Key(j) == "thứ" {
				j++
			}
			if j < len(ts) && (isYear(ts[j]) || isRoman(ts[j].Text)) {
				end := s.era(j + 1)
				if s.Add(i, end, "time", "") >= 0 {
					i = end - 1
				}
			}
		case isYear(ts[i]):
			if end := s.era(i + 1); end > i+1 {
				s.Add(i, end, "time", "")
				i = end - 1
			} else if s.inYearParens(i) {
				s.Add(i, i+1, "time", "")
			}
		}
	}
}

// yearRange marks the second year of "năm 1418–1427".
func (s *sent) yearRange(j int) {
	if s.Key(j) == "-" && j+1 < len(s.Toks) && isYear(s.Toks[j+1]) {
		s.Add(j+1, s.era(j+2), "time", "")
	}
}

// inYearParens reads life dates and years in brackets: (1385–1433),
// (? - 1433), (938).
func (s *sent) inYearParens(i int) bool {
	a := i - 1
	for a >= 0 && a >= i-4 && (s.Toks[a].Key == "-" || s.Toks[a].Key == "?" || isYear(s.Toks[a])) {
		a--
	}
	if a < 0 || s.Toks[a].Text != "(" {
		return false
	}
	b := i + 1
	for b < len(s.Toks) && b <= i+4 && (s.Toks[b].Key == "-" || s.Toks[b].Key == "?" || isYear(s.Toks[b]) || eraWords[s.Toks[b].Key]) {
		b++
	}
	return b < len(s.Toks) && s.Toks[b].Text == ")"
}

// gazetteer claims known names starting with a capital.
func (s *sent) gazetteer(lex map[string]bool, typ string) {
	for i := 0; i < len(s.Toks); i++ {
		if !s.Toks[i].Cap || s.Own[i] >= 0 || s.cue[i] {
			continue
		}
		if n := s.longest(i, lex, 8); n > 0 {
			// Inside a longer run the match is part of another name.
			if i > 0 && s.isCap(i-1) && !s.Toks[i-1].Initial {
				continue
			}
			name := ""
			if typ == "person" {
				name = s.Names.Person(s.SpanText(i, i+n))
			}
			s.Add(i, i+n, typ, name)
			i += n - 1
		}
	}
}

// cueAt returns the kind and length of the cue starting at token i.
func (s *sent) cueAt(i int) (string, int) {
	if s.Toks[i].Kind != latin.Word || s.Own[i] >= 0 || s.midRun(i) {
		return "", 0
	}
	// A capitalised family name before a capitalised name is part of it:
	// "Hồ Quý Ly" is a person, not a lake.
	if s.Toks[i].Cap && surnames[s.Toks[i].Key] && i+1 < len(s.Toks) && s.Toks[i+1].Cap {
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
	for i := 0; i < len(s.Toks); i++ {
		kind, n := s.cueAt(i)
		if n == 0 {
			continue
		}
		j := i + n
		if !s.isCap(j) || s.longest(j, offices, 4) > 0 {
			continue
		}
		if s.Key(i) == "thành" && s.Key(i-1) == "trở" {
			continue
		}
		end := s.capRun(j)
		switch kind {
		case "event":
			k := s.phrase(i, j)
			if (k == "chiến thắng" || k == "đại thắng") && s.personLike(j, end) {
				continue
			}
			s.Add(i, end, "event", "")
		case "organisation":
			s.orgRun(i, j, end)
		case "place":
			if s.Add(j, end, "place", "") >= 0 {
				s.hideCue(i, j)
			}
		case "work":
			// Titles capitalise only their first syllables: "Côn Sơn ca".
			for end < len(s.Toks) && end-j < 10 && s.Own[end] < 0 && s.Toks[end].Kind == latin.Word && !s.Toks[end].Cap && !workStops[s.Toks[end].Key] {
				end++
			}
			s.Add(j, end, "work", "")
		case "office", "honorific", "kin":
			if knownPlaces[s.phrase(j, end)] || polities[s.phrase(j, end)] {
				continue
			}
			o := -1
			if kind == "office" {
				o = s.Add(i, j, "office", "")
				if o >= 0 {
					s.Mentions[o].Hide = true
				}
			} else if kind == "honorific" {
				s.hideCue(i, j)
			}
			p := s.personRun(j, end)
			if o >= 0 && p >= 0 {
				s.Direct = append(s.Direct, latin.Direct{Rel: "held_office", Head: p, Tail: o})
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
		o := s.Add(cueStart, a+p, "organisation", "")
		if q := s.personRun(a+p, b); o >= 0 && q >= 0 {
			s.Direct = append(s.Direct, latin.Direct{Rel: "member_of", Head: q, Tail: o})
		}
		return
	}
	s.Add(cueStart, b, "organisation", "")
}

// personRun adds the run [a,b) as a person, splitting off a polity in front
// of a name ("tướng Minh Liễu Thăng"); it returns the person's mention.
func (s *sent) personRun(a, b int) int {
	if p := s.polityPrefix(a, b); p > 0 && b-(a+p) >= 2 && p < b-a {
		o := s.Add(a, a+p, "organisation", "")
		q := s.Add(a+p, b, "person", s.Names.Person(s.SpanText(a+p, b)))
		if o >= 0 && q >= 0 {
			s.Direct = append(s.Direct, latin.Direct{Rel: "member_of", Head: q, Tail: o})
		}
		return q
	}
	return s.Add(a, b, "person", s.Names.Person(s.SpanText(a, b)))
}

// personLike reports whether the run [a,b) looks like a person's name.
func (s *sent) personLike(a, b int) bool {
	n := b - a
	if knownPersons[s.phrase(a, b)] {
		return true
	}
	if n >= 2 && n <= 4 && surnames[s.Key(a)] && !knownPlaces[s.phrase(a, b)] {
		return true
	}
	_, typ := s.Names.Lookup(s.SpanText(a, b))
	return typ == "person"
}

// inOfficeContext reports whether an office starting at token i follows a
// word that makes it one: "làm thái sư", "lên ngôi hoàng đế".
func (s *sent) inOfficeContext(i int) bool {
	p := i
	for p > 0 && (s.Key(p-1) == "được" || s.Key(p-1) == "đã" || s.Key(p-1) == "chính" || s.Key(p-1) == "thức") {
		p--
	}
	return s.endsWith(p, officeContext)
}

// offices finds offices used as such, the throne in "lên ngôi", and the
// emperor in "xưng đế".
func (s *sent) offices() {
	for i := 0; i < len(s.Toks); i++ {
		if s.Own[i] >= 0 || s.cue[i] || s.Toks[i].Kind != latin.Word {
			continue
		}
		if n := s.longest(i, offices, 4); n > 0 {
			if s.inOfficeContext(i) && !(s.isCap(i+n) && !s.Toks[i].Cap) {
				s.Add(i, i+n, "office", "")
				i += n - 1
			}
			continue
		}
		switch {
		case s.Key(i) == "ngôi" && s.Key(i-1) == "lên" && s.longest(i+1, offices, 4) == 0:
			// "lên ngôi" without a title: the throne stands for the emperor.
			s.Add(i, i+1, "office", "hoàng đế")
		case s.Key(i) == "đế" && s.Key(i-1) == "xưng":
			s.Add(i, i+1, "office", "hoàng đế")
		}
	}
}

// runs classifies the remaining runs of capitalised words.
func (s *sent) runs() {
	for i := 0; i < len(s.Toks); i++ {
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
	last := s.Key(b - 1)
	// "xưng là Bình Định Vương", "phong tước Hưng Đạo Vương"
	if (last == "vương" || last == "đế" || last == "công" || last == "hầu") && n >= 2 && s.inOfficeContext(a) {
		s.Add(a, b, "office", "")
		return
	}
	if offices[ph] {
		if s.inOfficeContext(a) {
			s.Add(a, b, "office", "")
		}
		return
	}
	if knownPlaces[ph] {
		s.Add(a, b, "place", "")
		return
	}
	text := s.SpanText(a, b)
	if canon, typ := s.Names.Lookup(text); typ != "" {
		if canon == text {
			canon = ""
		}
		s.Add(a, b, typ, canon)
		return
	}
	// "An Sinh Vương Trần Liễu": a title name before a person's name is an
	// office the person held, like "vua" in "vua Lê Lợi".
	for k := a + 1; k < b-2; k++ {
		if w := s.Key(k); (w == "vương" || w == "công" || w == "hầu") && surnames[s.Key(k+1)] {
			o := s.Add(a, k+1, "office", "")
			p := s.personRun(k+1, b)
			if o >= 0 {
				s.Mentions[o].Hide = true
				if p >= 0 {
					s.Direct = append(s.Direct, latin.Direct{Rel: "held_office", Head: p, Tail: o})
				}
			}
			return
		}
	}
	if n >= 2 && titleEnds[last] {
		s.Add(a, b, "person", "")
		return
	}
	if n >= 2 && n <= 4 && surnames[s.Key(a)] {
		s.Add(a, b, "person", "")
		return
	}
	if n > 4 && surnames[s.Key(a)] {
		// A long run is most often two names side by side; take the first
		// as three syllables at most, ending before the next family name.
		e := a + 1
		for e < b && e-a < 4 && !surnames[s.Key(e)] {
			e++
		}
		if e-a >= 2 {
			s.Add(a, e, "person", "")
			s.classifyRun(e, b)
			return
		}
	}
	if n <= 2 {
		if canon := s.Names.Short(text); canon != "" {
			s.Add(a, b, "person", canon)
			return
		}
	}
	if n >= 2 && n <= 4 && placeEnds[last] && !surnames[s.Key(a)] {
		s.Add(a, b, "place", "")
		return
	}
	if s.endsWith(a, placePreps) && !(n >= 2 && surnames[s.Key(a)]) {
		s.Add(a, b, "place", "")
		return
	}
	s.Add(a, b, "", "")
}
