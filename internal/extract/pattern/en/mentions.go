package en

import (
	"strings"

	"github.com/annals-project/annals/internal/extract/pattern/latin"
)

// sent holds one sentence while its entities and relations are read. A
// mention's Soft type is prose's guess.
type sent struct {
	*latin.Sent
	pt  []proseTok // what prose said about each token
	nlp *pipeline
	// guesses caches prose's type for a run's text within one input: the
	// entity model is the slow part, and names repeat.
	guesses map[string]string
}

// lexical reports whether a word is one the rules know as part of a name.
func lexical(w string) bool {
	return surnames[w] || polities[w] || knownPlaces[w] || regnalTitles[w] || officeHeads[w] || eventHeads[w] ||
		placePrefixes[w] || workHeads[w] || orgOfPrefixes[w] || knownWorks[w] || honorifics[w]
}

// isCap reports whether token i is a capitalised word that may be part of a
// name.
func (s *sent) isCap(i int) bool {
	if i < 0 || i >= len(s.Toks) {
		return false
	}
	t := s.Toks[i]
	if t.Kind != latin.Word || !t.Cap {
		return false
	}
	// Inside a sentence a capital is meaningful ("the Three Kingdoms",
	// "The Art of War"); only the pronoun I says nothing.
	if !t.Initial {
		return t.Text != "I"
	}
	if stopCaps[t.Key] {
		return false
	}
	if lexical(t.Key) || s.Names.Known(t.Text) {
		return true
	}
	tg := s.tag(i)
	if tg == "NNP" || tg == "NNPS" {
		return true
	}
	// A capitalised common noun opens the sentence; it names something only
	// if another capitalised word follows it.
	return i+1 < len(s.Toks) && s.Toks[i+1].Kind == latin.Word && s.Toks[i+1].Cap &&
		(tg == "" || strings.HasPrefix(tg, "NN"))
}

// tag returns prose's part-of-speech tag for token i.
func (s *sent) tag(i int) string {
	if !s.pt[i].tagged && s.nlp != nil {
		s.nlp.tagWindow(s.Toks, s.pt, i-2, i+4)
	}
	return s.pt[i].tag
}

// capRun returns the end of the run of free capitalised words starting at i.
// Name particles join capitalised words: "Josephine de Beauharnais".
func (s *sent) capRun(i int) int {
	j := i
	for j < len(s.Toks) && s.Own[j] < 0 {
		if s.isCap(j) {
			j++
			continue
		}
		if j > i && nameParticles[s.Toks[j].Key] && !s.Toks[j].Cap && s.Own[j] < 0 && j+1 < len(s.Toks) && s.Own[j+1] < 0 && s.isCap(j+1) {
			j++
			continue
		}
		break
	}
	return j
}

func (s *sent) build() {
	// Capitals say nothing about names after these: a quotation, a bracket
	// or a clause after a colon opens like a sentence.
	latin.MarkInitial(s.Toks, `"`, "'", "“", "‘", ":", "(", "[", "—", "-")
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
	for i := 0; i < len(s.Toks); i++ {
		t := s.Toks[i]
		if t.Kind != latin.Punct {
			continue
		}
		var closing string
		italic := false
		switch t.Text {
		case `"`:
			closing = `"`
		case "“":
			closing = "”"
		case "*", "_":
			closing, italic = t.Text, true
		default:
			continue
		}
		j := i + 1
		for j < len(s.Toks) && j-i <= 13 && s.Toks[j].Text != closing {
			j++
		}
		if j >= len(s.Toks) || s.Toks[j].Text != closing || j == i+1 {
			continue
		}
		a, b := i+1, j
		if !s.Toks[a].Cap || s.Toks[b-1].Kind == latin.Punct {
			continue
		}
		ok := true
		for k := a; k < b; k++ {
			w := s.Toks[k]
			if w.Kind == latin.Punct && w.Key != "'s" && w.Text != ":" && w.Text != "," && w.Key != "-" {
				ok = false
				break
			}
			// Speech in quotes has lower-case words; titles do not.
			if !italic && w.Kind == latin.Word && !w.Cap && !titleSmallWords[w.Key] {
				ok = false
				break
			}
		}
		if ok && s.Add(a, b, "work", "") >= 0 {
			i = j
		}
	}
}

// times finds years, dates and centuries.
func (s *sent) times() {
	ts := s.Toks
	for i := 0; i < len(ts); i++ {
		if s.Own[i] >= 0 {
			continue
		}
		t := ts[i]
		// Month [day][,] year
		if t.Kind == latin.Word && months[t.Key] && t.Cap && t.Key != "may" || (t.Key == "may" && t.Cap && i+1 < len(ts) && ts[i+1].Kind == latin.Num) {
			j := i + 1
			if j < len(ts) && ts[j].Kind == latin.Num && len(ts[j].Text) <= 2 {
				j++
			}
			if j < len(ts) && ts[j].Text == "," {
				j++
			}
			if j < len(ts) && isYear(ts[j]) {
				end := j + 1
				if end < len(ts) && eras[ts[end].Key] {
					end++
				}
				s.Add(i, end, "time", "")
				i = end - 1
				continue
			}
		}
		// AD 208
		if t.Kind == latin.Word && eras[t.Key] && t.Cap && i+1 < len(ts) && isYear(ts[i+1]) {
			s.Add(i, i+2, "time", "")
			i++
			continue
		}
		// 3rd century [BC]
		if t.Kind == latin.Word && (isOrdinal(t.Text) || wordOrdinals[t.Key]) && i+1 < len(ts) &&
			(ts[i+1].Key == "century" || ts[i+1].Key == "centuries") {
			end := i + 2
			if end < len(ts) && eras[ts[end].Key] {
				end++
			}
			s.Add(i, end, "time", "")
			i = end - 1
			continue
		}
		if !isYear(t) {
			continue
		}
		// 208 AD
		if i+1 < len(ts) && eras[ts[i+1].Key] && (ts[i+1].Cap || ts[i+1].Key == "a.d." || ts[i+1].Key == "b.c.") {
			s.Add(i, i+2, "time", "")
			i++
			continue
		}
		if s.inYearParens(i) || s.afterYearCue(i) {
			s.Add(i, i+1, "time", "")
		}
	}
}

func isYear(t latin.Tok) bool {
	if t.Kind != latin.Num || len(t.Text) > 4 || strings.Contains(t.Text, ",") {
		return false
	}
	return t.Text[0] != '0'
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
	if p >= 0 && s.Toks[p].Text == "," {
		p--
	}
	if p < 0 || !yearCues[s.Toks[p].Key] {
		// The second year of a range: 189–220.
		if p >= 1 && s.Toks[p].Key == "-" && s.Own[p-1] >= 0 && s.Mentions[s.Own[p-1]].Type == "time" {
			return true
		}
		return false
	}
	if s.Toks[p].Key == "and" || s.Toks[p].Key == "of" {
		// "between 208 and 220", "the winter of 208"
		q := p - 1
		if q < 0 {
			return false
		}
		if s.Toks[p].Key == "and" && !(s.Own[q] >= 0 && s.Mentions[s.Own[q]].Type == "time") {
			return false
		}
		if s.Toks[p].Key == "of" && !yearCues[s.Toks[q].Key] {
			return false
		}
	}
	n := i + 1
	if n < len(s.Toks) && s.Toks[n].Kind == latin.Word && !s.Toks[n].Cap && quantityNouns[s.Toks[n].Key] {
		return false
	}
	return true
}

// inYearParens reads life dates and years in brackets: (181–234), (208),
// (c. 155 – 220).
func (s *sent) inYearParens(i int) bool {
	a := i - 1
	for a >= 0 && a >= i-4 && (s.Toks[a].Key == "c." || s.Toks[a].Key == "-" || s.Toks[a].Key == "born" || s.Toks[a].Key == "died" || s.Toks[a].Key == "d." || s.Toks[a].Key == "b." || isYear(s.Toks[a])) {
		a--
	}
	if a < 0 || s.Toks[a].Text != "(" {
		return false
	}
	b := i + 1
	for b < len(s.Toks) && b <= i+4 && (s.Toks[b].Key == "-" || s.Toks[b].Key == "c." || isYear(s.Toks[b]) || eras[s.Toks[b].Key]) {
		b++
	}
	return b < len(s.Toks) && s.Toks[b].Text == ")"
}

// events finds "the Battle of Red Cliffs", "the siege of Fancheng".
func (s *sent) events() {
	for i := 0; i+2 < len(s.Toks); i++ {
		t := s.Toks[i]
		if t.Kind != latin.Word || !eventOfHeads[t.Key] {
			continue
		}
		p := s.Key(i + 1)
		if p != "of" && p != "at" && p != "on" {
			continue
		}
		j := i + 2
		if s.Key(j) == "the" {
			j++
		}
		end := s.capRun(j)
		if end == j {
			continue
		}
		// "the war of Wei against Shu" is not a name; "War of X" capitalised is.
		if !t.Cap && t.Key != "battle" && t.Key != "siege" {
			continue
		}
		if s.Add(i, end, "event", "") >= 0 {
			i = end - 1
		}
	}
}

// headedWorks finds titles such as "Records of the Three Kingdoms".
func (s *sent) headedWorks() {
	for i := 0; i+2 < len(s.Toks); i++ {
		t := s.Toks[i]
		if t.Kind != latin.Word || !t.Cap || !workHeads[t.Key] || s.Own[i] >= 0 {
			continue
		}
		p := s.Key(i + 1)
		if p != "of" && p != "on" {
			continue
		}
		j := i + 2
		if s.Key(j) == "the" {
			j++
		}
		end := s.capRun(j)
		if end == j {
			continue
		}
		a := i
		if i > 0 && s.Toks[i-1].Text == "The" && !s.Toks[i-1].Initial && s.Own[i-1] < 0 {
			a = i - 1
		}
		if s.Add(a, end, "work", "") >= 0 {
			i = end - 1
		}
	}
}

// prefixedOrgs finds "Kingdom of Wei" and "the state of Shu Han".
func (s *sent) prefixedOrgs() {
	for i := 0; i+2 < len(s.Toks); i++ {
		t := s.Toks[i]
		if t.Kind != latin.Word || !orgOfPrefixes[t.Key] || s.Key(i+1) != "of" || s.Own[i] >= 0 {
			continue
		}
		j := i + 2
		end := s.capRun(j)
		if end == j {
			continue
		}
		a := i
		if !t.Cap {
			a = j
		}
		if s.Add(a, end, "organisation", "") >= 0 {
			i = end - 1
		}
	}
}

// officePhrase parses an office name starting at token i and returns its
// end, whether it has an "of"/"Who" tail, and whether it has a head word.
func (s *sent) officePhrase(i int) (end int, tail bool, ok bool) {
	j := i
	head := false
	capital := s.Toks[i].Cap
	for j < len(s.Toks) && s.Own[j] < 0 && s.Toks[j].Kind == latin.Word && s.Toks[j].Cap == capital {
		w := s.Toks[j].Key
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
	for j > i && !officeHeads[s.Toks[j-1].Key] {
		j--
	}
	// "General Who Pacifies the West"
	if capital && j < len(s.Toks) && s.Toks[j].Text == "Who" {
		k := j + 1
		for k < len(s.Toks) && k-j <= 5 && s.Own[k] < 0 && s.Toks[k].Kind == latin.Word && (s.Toks[k].Cap || s.Toks[k].Key == "the") {
			k++
		}
		if k > j+1 && s.Toks[k-1].Cap {
			j, tail = k, true
		}
	}
	// "of the Left", "of Jing Province", "of works"
	if j+1 < len(s.Toks) && s.Toks[j].Key == "of" && s.Own[j] < 0 {
		k := j + 1
		if s.Key(k) == "the" && s.Own[k] < 0 {
			k++
		}
		if k >= len(s.Toks) {
			return j, tail, true
		}
		// A capitalised office takes a capitalised name after "of" ("King of
		// Wei"); a lower-case one only words such as "works", so that "a
		// general of Wei" leaves Wei to be read as the organisation.
		if e := s.capRun(k); e > k && capital {
			j, tail = e, true
		} else if !s.Toks[k].Cap {
			e := k
			for e < len(s.Toks) && e-k < 2 && s.Own[e] < 0 && s.Toks[e].Kind == latin.Word && !s.Toks[e].Cap && officeOfWords[s.Toks[e].Key] && s.Toks[e].Key != "the" {
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
	for p >= 0 && (s.Toks[p].Key == "the" || s.Toks[p].Key == "a" || s.Toks[p].Key == "an" || s.Toks[p].Key == "his" ||
		s.Toks[p].Key == "her" || adverbs[s.Toks[p].Key]) {
		p--
	}
	if p < 0 {
		return false
	}
	switch s.Toks[p].Key {
	case "as", "became", "become", "becomes", "becoming", "appointed", "named", "made", "promoted", "elevated",
		"proclaimed", "declared", "crowned", "himself", "herself", "was", "were", "is", "enthroned", "installed", ",":
		return true
	case "of":
		switch s.Key(p - 1) {
		case "post", "title", "rank", "office", "position", "role", "seat":
			return true
		}
	case "to":
		switch s.Key(p - 1) {
		case "promoted", "elevated", "appointed", "raised":
			return true
		}
	}
	// "appointed him chancellor", "made Sima Yi regent"
	if p >= 1 && s.Toks[p].Kind == latin.Word {
		switch s.Key(p - 1) {
		case "appointed", "named", "made", "promoted":
			return true
		}
		if s.Own[p] >= 0 {
			m := s.Mentions[s.Own[p]]
			if m.A >= 1 {
				switch s.Key(m.A - 1) {
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
	for i := 0; i < len(s.Toks); i++ {
		t := s.Toks[i]
		if t.Kind != latin.Word || s.Own[i] >= 0 || !(officeHeads[t.Key] || officeMods[t.Key]) {
			continue
		}
		if t.Cap && t.Initial && !(officeHeads[t.Key] || s.tag(i) == "NNP") {
			continue
		}
		end, tail, ok := s.officePhrase(i)
		if !ok || end <= i {
			continue
		}
		if t.Cap {
			if !tail && s.isCap(end) && s.Own[end] < 0 {
				continue // a title before a name
			}
		} else if !s.officeContext(i) {
			continue
		}
		if s.Add(i, end, "office", "") >= 0 {
			i = end - 1
		}
	}
}

// classifyRuns classifies the remaining runs of capitalised words.
func (s *sent) classifyRuns() {
	for i := 0; i < len(s.Toks); i++ {
		if s.Own[i] >= 0 || !s.isCap(i) {
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
	if b < len(s.Toks) && s.Own[b] < 0 && s.Toks[b].Kind == latin.Word && !s.Toks[b].Cap {
		w := s.Toks[b].Key
		switch {
		case orgSuffixes[w]:
			s.Add(a, b+1, "organisation", "")
			return
		case eventHeads[w] && w != "battle" && w != "siege" && w != "fall" && w != "sack":
			s.Add(a, b+1, "event", "")
			return
		case placeSuffixes[w]:
			s.Add(a, b+1, "place", "")
			return
		}
	}
	if typ := s.headType(a, b); typ != "" {
		s.Add(a, b, typ, "")
		return
	}
	key := s.SpanText(a, b)
	lk := strings.ToLower(key)
	switch {
	case polities[lk]:
		s.Add(a, b, "organisation", "")
		return
	case knownPlaces[lk]:
		s.Add(a, b, "place", "")
		return
	case knownWorks[lk]:
		s.Add(a, b, "work", "")
		return
	}
	if canon, typ := s.Names.Lookup(key); typ != "" {
		if canon == key {
			canon = ""
		}
		s.Add(a, b, typ, canon)
		return
	}
	n := b - a
	if n >= 2 && n <= 3 && surnames[s.Toks[a].Key] {
		s.Add(a, b, "person", "")
		return
	}
	if n > 3 && surnames[s.Toks[a].Key] && !surnames[s.Toks[a+1].Key] {
		// Two names side by side are rare; a long run starting with a
		// surname is most often the name and what follows. Take the name.
		if surnames[s.Toks[a+2].Key] {
			s.Add(a, a+2, "person", "")
			s.classifyRun(a+2, b)
			return
		}
	}
	if n == 1 {
		if canon := s.Names.Short(key); canon != "" {
			s.Add(a, b, "person", canon)
			return
		}
	}
	if a > 0 && s.Own[a-1] < 0 && s.Toks[a-1].Kind == latin.Word && !s.Toks[a-1].Cap && personCues[s.Toks[a-1].Key] && n <= 3 {
		s.Add(a, b, "person", "")
		return
	}
	if typ := s.proseType(a, b); typ != "" {
		if k := s.Add(a, b, "", ""); k >= 0 {
			s.Mentions[k].Soft = typ
		}
		return
	}
	s.Add(a, b, "", "")
}

// titledRun handles runs that open with titles: "Emperor Xian", "General
// Zhang Liao", "Lord Guan", "Imperial Chancellor Zhuge Liang".
func (s *sent) titledRun(a, b int) bool {
	k := a
	titled, regnalOnly, office := false, true, false
	for k < b {
		w := s.Toks[k].Key
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
			s.Add(a, b, "office", "")
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
		if s.Key(b) == "of" && s.Own[b] < 0 && b+1 < len(s.Toks) && s.Own[b+1] < 0 && s.isCap(b+1) {
			if e := s.capRun(b + 1); e-(b+1) <= 2 {
				end = e
			}
		}
		s.Add(a, end, "person", "")
		return true
	}
	p := s.Add(k, b, "person", s.Names.Person(s.SpanText(k, b)))
	if office && p >= 0 {
		if o := s.Add(a, k, "office", ""); o >= 0 {
			s.Direct = append(s.Direct, latin.Direct{Rel: "held_office", Head: p, Tail: o})
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
	text := s.SpanText(a, b)
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
	s.nlp.labelWindow(s.Toks, s.pt, a, b)
	typ := ""
	for i := a; i < b; i++ {
		l := s.pt[i].label
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
	last := s.Toks[b-1].Key
	switch {
	case eventHeads[last] && b-a >= 2:
		return "event"
	case placeHeads[last] && b-a >= 2:
		return "place"
	case orgHeads[last] && b-a >= 2:
		return "organisation"
	case placePrefixes[s.Toks[a].Key] && b-a >= 2:
		return "place"
	case conceptHeads[last] && b-a >= 2:
		return "concept"
	}
	return ""
}
