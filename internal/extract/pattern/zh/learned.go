package zh

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
	// read in it (hints, in the sentence's runes) and the given names the
	// document has taught the rules so far (given name → full name).
	Recognise(sentence []rune, hints []Mention, known map[string]string) []Mention
}

// NewWith returns the extractor whose names are r's, read with the rules'
// as evidence; relations are the rules' over those names.
func NewWith(r Recogniser) *Extractor { return &Extractor{rec: r} }

// learned lets the recogniser decide the names of each sentence. Where it
// marks exactly what the rules marked, the rules' mention stays, with the
// full name they resolved it to, under the recogniser's type; any other
// rule mention in the sentence goes (measured on held-out annotations,
// rule names the model does not confirm are right about one time in
// ten); the recogniser's other names join, a given name the document
// knows resolved to its full name.
func (x *run) learned(r Recogniser, ss []sentence) {
	var live []int
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
		got := r.Recognise(x.rs[sn.s:sn.e], hints, x.doc.Names)
		kept := map[[2]int]bool{}
		for _, k := range live {
			en := &x.ents[k]
			same := -1
			for i, m := range got {
				if m.Start+sn.s == en.s && m.End+sn.s == en.e {
					same = i
				}
			}
			if same < 0 {
				x.drop(k)
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
			name := ""
			if m.Type == tPer {
				if full, ok := x.doc.Names[string(x.rs[s:e])]; ok && full != string(x.rs[s:e]) {
					name = full
				}
			}
			x.add(s, e, m.Type, name)
		}
	}
	x.sortOrder()
	x.forgetDropped()
}

// forgetDropped removes what the rules noted about mentions since dropped:
// kin words, posthumous names and relations found while recognising; the
// rules after recognition take every mention they meet as live.
func (x *run) forgetDropped() {
	live := func(k int) bool { return k >= 0 && k < len(x.ents) && x.ents[k].s >= 0 }
	kins := x.kins[:0]
	for _, kn := range x.kins {
		if live(kn.name) {
			kins = append(kins, kn)
		}
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
