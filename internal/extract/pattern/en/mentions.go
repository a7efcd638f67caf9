package en

import "strings"

// mention is a candidate entity covering tokens [a,b) of a sentence. An
// untyped mention (typ == "") becomes an entity only if a relation pattern
// gives it a type.
type mention struct {
	a, b int
	typ  string
	name string // canonical name when it differs from the text
	// soft is prose's guess, used when no relation pattern types the
	// mention: its labels are too unsteady to overrule a pattern.
	soft string
}

// direct is a relation read off the shape of a mention, such as the office
// in "Imperial Chancellor Zhuge Liang".
type direct struct {
	rel        string
	head, tail int // mention indexes
}

// sent holds one sentence while its entities and relations are read.
type sent struct {
	rs     []rune
	ts     []tok
	ms     []mention
	own    []int // token → mention index, or -1
	direct []direct
	names  *nameIndex
	nlp    *pipeline
	// guesses caches prose's type for a run's text within one input: the
	// entity model is the slow part, and names repeat.
	guesses map[string]string
}

func newSent(rs []rune, ts []tok, names *nameIndex) *sent {
	s := &sent{rs: rs, ts: ts, own: make([]int, len(ts)), names: names}
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

func (s *sent) lower(i int) string {
	if i < 0 || i >= len(s.ts) {
		return ""
	}
	return s.ts[i].lower
}

// spanText is the text of tokens [a,b) with runs of white space collapsed,
// used as a lookup key.
func (s *sent) spanText(a, b int) string {
	return strings.Join(strings.Fields(string(s.rs[s.ts[a].start:s.ts[b-1].end])), " ")
}

// markInitial flags words that open a sentence, a quotation or a clause after
// a colon, where capitals say nothing about names.
func markInitial(ts []tok) {
	open := true
	for i := range ts {
		t := &ts[i]
		if t.kind == kPunct {
			switch t.lower {
			case `"`, "'", "“", "‘", ":", "(", "[", "—", "-":
				open = true
			}
			continue
		}
		if open {
			t.initial = true
		}
		open = false
	}
}

// lexical reports whether a word is one the rules know as part of a name.
func lexical(w string) bool {
	return surnames[w] || polities[w] || knownPlaces[w] || regnalTitles[w] || officeHeads[w] || eventHeads[w] ||
		placePrefixes[w] || workHeads[w] || orgOfPrefixes[w] || knownWorks[w] || honorifics[w]
}

// isCap reports whether token i is a capitalised word that may be part of a
// name.
func (s *sent) isCap(i int) bool {
	if i < 0 || i >= len(s.ts) {
		return false
	}
	t := s.ts[i]
	if t.kind != kWord || !t.cap {
		return false
	}
	// Inside a sentence a capital is meaningful ("the Three Kingdoms",
	// "The Art of War"); only the pronoun I says nothing.
	if !t.initial {
		return t.text != "I"
	}
	if stopCaps[t.lower] {
		return false
	}
	if lexical(t.lower) || s.names.known(t.text) {
		return true
	}
	tg := s.tag(i)
	if tg == "NNP" || tg == "NNPS" {
		return true
	}
	// A capitalised common noun opens the sentence; it names something only
	// if another capitalised word follows it.
	return i+1 < len(s.ts) && s.ts[i+1].kind == kWord && s.ts[i+1].cap &&
		(tg == "" || strings.HasPrefix(tg, "NN"))
}

// tag returns prose's part-of-speech tag for token i.
func (s *sent) tag(i int) string {
	if !s.ts[i].tagged && s.nlp != nil {
		s.nlp.tagWindow(s.ts, i-2, i+4)
	}
	return s.ts[i].tag
}

// capRun returns the end of the run of free capitalised words starting at i.
// Name particles join capitalised words: "Josephine de Beauharnais".
func (s *sent) capRun(i int) int {
	j := i
	for j < len(s.ts) && s.own[j] < 0 {
		if s.isCap(j) {
			j++
			continue
		}
		if j > i && nameParticles[s.ts[j].lower] && !s.ts[j].cap && s.own[j] < 0 && j+1 < len(s.ts) && s.own[j+1] < 0 && s.isCap(j+1) {
			j++
			continue
		}
		break
	}
	return j
}

func (s *sent) build() {
	markInitial(s.ts)
	s.quotedWorks()
	s.times()
	s.events()
	s.headedWorks()
	s.prefixedOrgs()
	s.offices()
	s.classifyRuns()
}

// quotedWorks finds titles in quotation marks or between asterisks or
// underscores: “Chu Shi Biao”, *The Art of War*.
func (s *sent) quotedWorks() {
	for i := 0; i < len(s.ts); i++ {
		t := s.ts[i]
		if t.kind != kPunct {
			continue
		}
		var closing string
		italic := false
		switch t.text {
		case `"`:
			closing = `"`
		case "“":
			closing = "”"
		case "*", "_":
			closing, italic = t.text, true
		default:
			continue
		}
		j := i + 1
		for j < len(s.ts) && j-i <= 13 && s.ts[j].text != closing {
			j++
		}
		if j >= len(s.ts) || s.ts[j].text != closing || j == i+1 {
			continue
		}
		a, b := i+1, j
		if !s.ts[a].cap || s.ts[b-1].kind == kPunct {
			continue
		}
		ok := true
		for k := a; k < b; k++ {
			w := s.ts[k]
			if w.kind == kPunct && w.lower != "'s" && w.text != ":" && w.text != "," && w.lower != "-" {
				ok = false
				break
			}
			// Speech in quotes has lower-case words; titles do not.
			if !italic && w.kind == kWord && !w.cap && !titleSmallWords[w.lower] {
				ok = false
				break
			}
		}
		if ok && s.add(a, b, "work", "") >= 0 {
			i = j
		}
	}
}

// times finds years, dates and centuries.
func (s *sent) times() {
	ts := s.ts
	for i := 0; i < len(ts); i++ {
		if s.own[i] >= 0 {
			continue
		}
		t := ts[i]
		// Month [day][,] year
		if t.kind == kWord && months[t.lower] && t.cap && t.lower != "may" || (t.lower == "may" && t.cap && i+1 < len(ts) && ts[i+1].kind == kNum) {
			j := i + 1
			if j < len(ts) && ts[j].kind == kNum && len(ts[j].text) <= 2 {
				j++
			}
			if j < len(ts) && ts[j].text == "," {
				j++
			}
			if j < len(ts) && isYear(ts[j]) {
				end := j + 1
				if end < len(ts) && eras[ts[end].lower] {
					end++
				}
				s.add(i, end, "time", "")
				i = end - 1
				continue
			}
		}
		// AD 208
		if t.kind == kWord && eras[t.lower] && t.cap && i+1 < len(ts) && isYear(ts[i+1]) {
			s.add(i, i+2, "time", "")
			i++
			continue
		}
		// 3rd century [BC]
		if t.kind == kWord && (isOrdinal(t.text) || wordOrdinals[t.lower]) && i+1 < len(ts) &&
			(ts[i+1].lower == "century" || ts[i+1].lower == "centuries") {
			end := i + 2
			if end < len(ts) && eras[ts[end].lower] {
				end++
			}
			s.add(i, end, "time", "")
			i = end - 1
			continue
		}
		if !isYear(t) {
			continue
		}
		// 208 AD
		if i+1 < len(ts) && eras[ts[i+1].lower] && (ts[i+1].cap || ts[i+1].lower == "a.d." || ts[i+1].lower == "b.c.") {
			s.add(i, i+2, "time", "")
			i++
			continue
		}
		if s.inYearParens(i) || s.afterYearCue(i) {
			s.add(i, i+1, "time", "")
		}
	}
}

func isYear(t tok) bool {
	if t.kind != kNum || len(t.text) > 4 || strings.Contains(t.text, ",") {
		return false
	}
	return t.text[0] != '0'
}

func isOrdinal(w string) bool {
	n := 0
	for n < len(w) && w[n] >= '0' && w[n] <= '9' {
		n++
	}
	if n == 0 || n > 2 {
		return false
	}
	switch strings.ToLower(w[n:]) {
	case "st", "nd", "rd", "th":
		return true
	}
	return false
}

// afterYearCue reads "in 208", "the year 220", "from 220 to 280".
func (s *sent) afterYearCue(i int) bool {
	p := i - 1
	if p >= 0 && s.ts[p].text == "," {
		p--
	}
	if p < 0 || !yearCues[s.ts[p].lower] {
		// The second year of a range: 189–220.
		if p >= 1 && s.ts[p].lower == "-" && s.own[p-1] >= 0 && s.ms[s.own[p-1]].typ == "time" {
			return true
		}
		return false
	}
	if s.ts[p].lower == "and" || s.ts[p].lower == "of" {
		// "between 208 and 220", "the winter of 208"
		q := p - 1
		if q < 0 {
			return false
		}
		if s.ts[p].lower == "and" && !(s.own[q] >= 0 && s.ms[s.own[q]].typ == "time") {
			return false
		}
		if s.ts[p].lower == "of" && !yearCues[s.ts[q].lower] {
			return false
		}
	}
	n := i + 1
	if n < len(s.ts) && s.ts[n].kind == kWord && !s.ts[n].cap && quantityNouns[s.ts[n].lower] {
		return false
	}
	return true
}

// inYearParens reads life dates and years in brackets: (181–234), (208),
// (c. 155 – 220).
func (s *sent) inYearParens(i int) bool {
	a := i - 1
	for a >= 0 && a >= i-4 && (s.ts[a].lower == "c." || s.ts[a].lower == "-" || s.ts[a].lower == "born" || s.ts[a].lower == "died" || s.ts[a].lower == "d." || s.ts[a].lower == "b." || isYear(s.ts[a])) {
		a--
	}
	if a < 0 || s.ts[a].text != "(" {
		return false
	}
	b := i + 1
	for b < len(s.ts) && b <= i+4 && (s.ts[b].lower == "-" || s.ts[b].lower == "c." || isYear(s.ts[b]) || eras[s.ts[b].lower]) {
		b++
	}
	return b < len(s.ts) && s.ts[b].text == ")"
}

// events finds "the Battle of Red Cliffs", "the siege of Fancheng".
func (s *sent) events() {
	for i := 0; i+2 < len(s.ts); i++ {
		t := s.ts[i]
		if t.kind != kWord || !eventOfHeads[t.lower] {
			continue
		}
		p := s.lower(i + 1)
		if p != "of" && p != "at" && p != "on" {
			continue
		}
		j := i + 2
		if s.lower(j) == "the" {
			j++
		}
		end := s.capRun(j)
		if end == j {
			continue
		}
		// "the war of Wei against Shu" is not a name; "War of X" capitalised is.
		if !t.cap && t.lower != "battle" && t.lower != "siege" {
			continue
		}
		if s.add(i, end, "event", "") >= 0 {
			i = end - 1
		}
	}
}

// headedWorks finds titles such as "Records of the Three Kingdoms".
func (s *sent) headedWorks() {
	for i := 0; i+2 < len(s.ts); i++ {
		t := s.ts[i]
		if t.kind != kWord || !t.cap || !workHeads[t.lower] || s.own[i] >= 0 {
			continue
		}
		p := s.lower(i + 1)
		if p != "of" && p != "on" {
			continue
		}
		j := i + 2
		if s.lower(j) == "the" {
			j++
		}
		end := s.capRun(j)
		if end == j {
			continue
		}
		a := i
		if i > 0 && s.ts[i-1].text == "The" && !s.ts[i-1].initial && s.own[i-1] < 0 {
			a = i - 1
		}
		if s.add(a, end, "work", "") >= 0 {
			i = end - 1
		}
	}
}

// prefixedOrgs finds "Kingdom of Wei" and "the state of Shu Han".
func (s *sent) prefixedOrgs() {
	for i := 0; i+2 < len(s.ts); i++ {
		t := s.ts[i]
		if t.kind != kWord || !orgOfPrefixes[t.lower] || s.lower(i+1) != "of" || s.own[i] >= 0 {
			continue
		}
		j := i + 2
		end := s.capRun(j)
		if end == j {
			continue
		}
		a := i
		if !t.cap {
			a = j
		}
		if s.add(a, end, "organisation", "") >= 0 {
			i = end - 1
		}
	}
}

// officePhrase parses an office name starting at token i and returns its
// end, whether it has an "of"/"Who" tail, and whether it has a head word.
func (s *sent) officePhrase(i int) (end int, tail bool, ok bool) {
	j := i
	head := false
	capital := s.ts[i].cap
	for j < len(s.ts) && s.own[j] < 0 && s.ts[j].kind == kWord && s.ts[j].cap == capital {
		w := s.ts[j].lower
		if officeHeads[w] {
			head = true
		} else if !officeMods[w] {
			break
		}
		j++
	}
	if !head {
		return 0, false, false
	}
	// Trailing modifiers ("General Cavalry") are not part of the office.
	for j > i && !officeHeads[s.ts[j-1].lower] {
		j--
	}
	// "General Who Pacifies the West"
	if capital && j < len(s.ts) && s.ts[j].text == "Who" {
		k := j + 1
		for k < len(s.ts) && k-j <= 5 && s.own[k] < 0 && s.ts[k].kind == kWord && (s.ts[k].cap || s.ts[k].lower == "the") {
			k++
		}
		if k > j+1 && s.ts[k-1].cap {
			j, tail = k, true
		}
	}
	// "of the Left", "of Jing Province", "of works"
	if j+1 < len(s.ts) && s.ts[j].lower == "of" && s.own[j] < 0 {
		k := j + 1
		if s.lower(k) == "the" && s.own[k] < 0 {
			k++
		}
		if k >= len(s.ts) {
			return j, tail, true
		}
		// A capitalised office takes a capitalised name after "of" ("King of
		// Wei"); a lower-case one only words such as "works", so that "a
		// general of Wei" leaves Wei to be read as the organisation.
		if e := s.capRun(k); e > k && capital {
			j, tail = e, true
		} else if !s.ts[k].cap {
			e := k
			for e < len(s.ts) && e-k < 2 && s.own[e] < 0 && s.ts[e].kind == kWord && !s.ts[e].cap && officeOfWords[s.ts[e].lower] && s.ts[e].lower != "the" {
				e++
			}
			if e > k {
				j, tail = e, true
			}
		}
	}
	return j, tail, true
}

// officeContext reports whether a lower-case office at token i is used as
// one: "became chancellor", "served as a general", "the post of minister".
func (s *sent) officeContext(i int) bool {
	p := i - 1
	for p >= 0 && (s.ts[p].lower == "the" || s.ts[p].lower == "a" || s.ts[p].lower == "an" || s.ts[p].lower == "his" ||
		s.ts[p].lower == "her" || adverbs[s.ts[p].lower]) {
		p--
	}
	if p < 0 {
		return false
	}
	switch s.ts[p].lower {
	case "as", "became", "become", "becomes", "becoming", "appointed", "named", "made", "promoted", "elevated",
		"proclaimed", "declared", "crowned", "himself", "herself", "was", "were", "is", "enthroned", "installed", ",":
		return true
	case "of":
		switch s.lower(p - 1) {
		case "post", "title", "rank", "office", "position", "role", "seat":
			return true
		}
	case "to":
		switch s.lower(p - 1) {
		case "promoted", "elevated", "appointed", "raised":
			return true
		}
	}
	// "appointed him chancellor", "made Sima Yi regent"
	if p >= 1 && s.ts[p].kind == kWord {
		switch s.lower(p - 1) {
		case "appointed", "named", "made", "promoted":
			return true
		}
		if s.own[p] >= 0 {
			m := s.ms[s.own[p]]
			if m.a >= 1 {
				switch s.lower(m.a - 1) {
				case "appointed", "named", "made", "promoted":
					return true
				}
			}
		}
	}
	return false
}

// offices finds offices: capitalised ones anywhere they are not a title
// before a name, lower-case ones where the sentence uses them as an office.
func (s *sent) offices() {
	for i := 0; i < len(s.ts); i++ {
		t := s.ts[i]
		if t.kind != kWord || s.own[i] >= 0 || !(officeHeads[t.lower] || officeMods[t.lower]) {
			continue
		}
		if t.cap && t.initial && !(officeHeads[t.lower] || s.tag(i) == "NNP") {
			continue
		}
		end, tail, ok := s.officePhrase(i)
		if !ok || end <= i {
			continue
		}
		if t.cap {
			if !tail && s.isCap(end) && s.own[end] < 0 {
				continue // a title before a name
			}
		} else if !s.officeContext(i) {
			continue
		}
		if s.add(i, end, "office", "") >= 0 {
			i = end - 1
		}
	}
}

// classifyRuns classifies the remaining runs of capitalised words.
func (s *sent) classifyRuns() {
	for i := 0; i < len(s.ts); i++ {
		if s.own[i] >= 0 || !s.isCap(i) {
			continue
		}
		b := s.capRun(i)
		s.classifyRun(i, b)
		i = b - 1
	}
}

func (s *sent) classifyRun(a, b int) {
	if s.titledRun(a, b) {
		return
	}
	// Lower-case heads after the run: "the Han dynasty", "the Yellow Turban
	// rebellion", "Jing province".
	if b < len(s.ts) && s.own[b] < 0 && s.ts[b].kind == kWord && !s.ts[b].cap {
		w := s.ts[b].lower
		switch {
		case orgSuffixes[w]:
			s.add(a, b+1, "organisation", "")
			return
		case eventHeads[w] && w != "battle" && w != "siege" && w != "fall" && w != "sack":
			s.add(a, b+1, "event", "")
			return
		case placeSuffixes[w]:
			s.add(a, b+1, "place", "")
			return
		}
	}
	if typ := s.headType(a, b); typ != "" {
		s.add(a, b, typ, "")
		return
	}
	key := s.spanText(a, b)
	lk := strings.ToLower(key)
	switch {
	case polities[lk]:
		s.add(a, b, "organisation", "")
		return
	case knownPlaces[lk]:
		s.add(a, b, "place", "")
		return
	case knownWorks[lk]:
		s.add(a, b, "work", "")
		return
	}
	if canon, typ := s.names.lookup(key); typ != "" {
		if canon == key {
			canon = ""
		}
		s.add(a, b, typ, canon)
		return
	}
	n := b - a
	if n >= 2 && n <= 3 && surnames[s.ts[a].lower] {
		s.add(a, b, "person", "")
		return
	}
	if n > 3 && surnames[s.ts[a].lower] && !surnames[s.ts[a+1].lower] {
		// Two names side by side are rare; a long run starting with a
		// surname is most often the name and what follows. Take the name.
		if surnames[s.ts[a+2].lower] {
			s.add(a, a+2, "person", "")
			s.classifyRun(a+2, b)
			return
		}
	}
	if n == 1 {
		if canon := s.names.short(key); canon != "" {
			s.add(a, b, "person", canon)
			return
		}
	}
	if a > 0 && s.own[a-1] < 0 && s.ts[a-1].kind == kWord && !s.ts[a-1].cap && personCues[s.ts[a-1].lower] && n <= 3 {
		s.add(a, b, "person", "")
		return
	}
	if typ := s.proseType(a, b); typ != "" {
		if k := s.add(a, b, "", ""); k >= 0 {
			s.ms[k].soft = typ
		}
		return
	}
	s.add(a, b, "", "")
}

// titledRun handles runs that open with titles: "Emperor Xian", "General
// Zhang Liao", "Lord Guan", "Imperial Chancellor Zhuge Liang".
func (s *sent) titledRun(a, b int) bool {
	k := a
	titled, regnalOnly, office := false, true, false
	for k < b {
		w := s.ts[k].lower
		if !(regnalTitles[w] || honorifics[w] || officeHeads[w] || officeMods[w]) {
			break
		}
		if regnalTitles[w] || honorifics[w] || officeHeads[w] {
			titled = true
		}
		if officeHeads[w] {
			office = true
		}
		if !regnalTitles[w] {
			regnalOnly = false
		}
		k++
	}
	if !titled {
		return false
	}
	if k == b {
		// Titles only; an office if one of them heads an office.
		if office {
			s.add(a, b, "office", "")
			return true
		}
		return false
	}
	if s.headed(k, b) {
		return false
	}
	if regnalOnly && b-k == 1 {
		end := b
		// "Emperor Xian of Han", "Duke Huan of Qi"
		if s.lower(b) == "of" && s.own[b] < 0 && b+1 < len(s.ts) && s.own[b+1] < 0 && s.isCap(b+1) {
			if e := s.capRun(b + 1); e-(b+1) <= 2 {
				end = e
			}
		}
		s.add(a, end, "person", "")
		return true
	}
	p := s.add(k, b, "person", s.names.person(s.spanText(k, b)))
	if office && p >= 0 {
		if o := s.add(a, k, "office", ""); o >= 0 {
			s.direct = append(s.direct, direct{rel: "held_office", head: p, tail: o})
		}
	}
	return true
}

// proseType reads prose's entity labels over tokens [a,b); a person label
// anywhere wins, as in prose's own chunking.
func (s *sent) proseType(a, b int) string {
	if b-a > 4 || s.nlp == nil {
		return ""
	}
	text := s.spanText(a, b)
	if typ, ok := s.guesses[text]; ok {
		return typ
	}
	typ := s.proseLabel(a, b)
	if s.guesses != nil {
		s.guesses[text] = typ
	}
	return typ
}

func (s *sent) proseLabel(a, b int) string {
	s.nlp.labelWindow(s.ts, a, b)
	typ := ""
	for i := a; i < b; i++ {
		l := s.ts[i].label
		if k := strings.IndexByte(l, '-'); k >= 0 {
			l = l[k+1:]
		}
		switch l {
		case "PERSON":
			return "person"
		case "GPE", "LOCATION", "LOC":
			if typ == "" {
				typ = "place"
			}
		case "ORGANIZATION", "ORG":
			if typ == "" {
				typ = "organisation"
			}
		}
	}
	return typ
}

// headed reports whether the run [a,b) ends or starts with a word that makes
// it a place, organisation or event rather than a person's name.
func (s *sent) headed(a, b int) bool { return s.headType(a, b) != "" }

func (s *sent) headType(a, b int) string {
	last := s.ts[b-1].lower
	switch {
	case eventHeads[last] && b-a >= 2:
		return "event"
	case placeHeads[last] && b-a >= 2:
		return "place"
	case orgHeads[last] && b-a >= 2:
		return "organisation"
	case placePrefixes[s.ts[a].lower] && b-a >= 2:
		return "place"
	case conceptHeads[last] && b-a >= 2:
		return "concept"
	}
	return ""
}
