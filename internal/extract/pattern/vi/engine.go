package vi

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Relation patterns are written in a small notation and compiled to regular
// expressions over an encoded sentence in which every token is " tok " and
// every mention is " @type#index " (type "u" while untyped).
//
//	{person|place?+}  a mention of one of the types; ? also accepts an untyped
//	                  one and gives it the first type; + accepts a list
//	                  "A, B và C"; {=?} takes any type, and an untyped one
//	                  takes the type of the relation's head
//	sinh|sinh_ra      one of the words or word sequences (_ joins words;
//	                  · is part of a word, as in the compound hy·sinh)
//	[đã|được]         optional words
//	~                 an optional aside: ", con của …," or "( … )"
//	*                 up to three words that are not mentions or commas
//	**                up to six words or mentions, no commas

type slot struct {
	types   []string
	untyped bool
}

type out struct {
	rel        string
	head, tail int  // slot numbers; equal for pairs within one list
	veto       bool // cancels the relation instead of asserting it
}

type rule struct {
	re    *regexp.Regexp
	slots []slot
	outs  []out
	kind  string // alias kind
	// trig lists, for every word the rule requires, the forms it may
	// take; a sentence lacking one of them cannot match.
	trig [][]string
	// need lists the strict slots' types; a sentence needs a mention of
	// one of them for each.
	need [][]string
}

const (
	apposRE = `(?: , (?: [^ ;]+ ){1,10}? , | \( (?: [^ ()]+ ){0,12}? \) )?`
	gapRE   = `(?: [^@ ,;()][^ ]* ){0,3}`
	wideRE  = `(?: [^ ,;()]+ ){0,6}?`
)

func alts(x string) (string, []string) {
	var parts, firsts []string
	for _, a := range strings.Split(x, "|") {
		var sb strings.Builder
		ws := strings.Split(a, "_")
		for i, w := range ws {
			ws[i] = key(w)
			sb.WriteString(" " + regexp.QuoteMeta(ws[i]) + " ")
		}
		parts = append(parts, sb.String())
		firsts = append(firsts, ws[0])
	}
	return "(?:" + strings.Join(parts, "|") + ")", firsts
}

func compileRule(dsl, kind string, outs ...out) *rule {
	r := &rule{outs: outs, kind: kind}
	var sb strings.Builder
	for _, e := range strings.Fields(dsl) {
		switch {
		case e == "~":
			sb.WriteString(apposRE)
		case e == "*":
			sb.WriteString(gapRE)
		case e == "**":
			sb.WriteString(wideRE)
		case strings.HasPrefix(e, "{"):
			spec := strings.TrimSuffix(strings.TrimPrefix(e, "{"), "}")
			list := strings.HasSuffix(spec, "+")
			spec = strings.TrimSuffix(spec, "+")
			sl := slot{untyped: strings.HasSuffix(spec, "?")}
			spec = strings.TrimSuffix(spec, "?")
			sl.types = strings.Split(spec, "|")
			var m string
			if spec == "=" {
				m = ` @[a-z]+#\d+ `
			} else {
				ts := spec
				if sl.untyped {
					ts += "|u"
				}
				m = ` @(?:` + ts + `)#\d+ `
			}
			if !sl.untyped && spec != "=" {
				r.need = append(r.need, sl.types)
			}
			if list {
				sb.WriteString(`(` + m + `(?: , ` + m + `)*(?:(?: , )? (?:và|cùng) ` + m + `)?)`)
			} else {
				sb.WriteString(`(` + m + `)`)
			}
			r.slots = append(r.slots, sl)
		case strings.HasPrefix(e, "["):
			a, _ := alts(strings.TrimSuffix(strings.TrimPrefix(e, "["), "]"))
			sb.WriteString(a + "?")
		default:
			a, firsts := alts(e)
			sb.WriteString(a)
			r.trig = append(r.trig, firsts)
		}
	}
	r.re = regexp.MustCompile(sb.String())
	return r
}

func o(rel string, head, tail int) out { return out{rel: rel, head: head, tail: tail} }

func veto(rel string, head, tail int) out { return out{rel: rel, head: head, tail: tail, veto: true} }

// ruleSet is the compiled rules with an index from a telling word to the
// rules that need it, so that a sentence is tried only against rules whose
// rarer words it contains.
type ruleSet struct {
	all    []*rule
	byWord map[string][]int
	always []int // rules with no telling word
}

// commonWords are poor index keys: nearly every sentence has them.
var commonWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`là của và , ( ) ở tại vào năm được đã với cho các những một ông bà`) {
		m[w] = true
	}
	return m
}()

var rules = sync.OnceValue(func() *ruleSet {
	rs := compileRules()
	set := &ruleSet{all: rs, byWord: map[string][]int{}}
	for i, r := range rs {
		var key []string
		for _, g := range r.trig {
			rare := true
			for _, w := range g {
				if commonWords[w] {
					rare = false
					break
				}
			}
			if rare {
				key = g
				break
			}
		}
		if key == nil && len(r.trig) > 0 {
			key = r.trig[0]
		}
		if key == nil {
			set.always = append(set.always, i)
			continue
		}
		for _, w := range key {
			set.byWord[w] = append(set.byWord[w], i)
		}
	}
	return set
})

// candidates lists, in rule order, the rules worth trying on a sentence
// with the given words.
func (rs *ruleSet) candidates(words map[string]bool) []int {
	mark := make([]bool, len(rs.all))
	for _, i := range rs.always {
		mark[i] = true
	}
	for w := range words {
		for _, i := range rs.byWord[w] {
			mark[i] = true
		}
	}
	var out []int
	for i, m := range mark {
		if m {
			out = append(out, i)
		}
	}
	return out
}

// match is one relation read by a rule, before types are settled.
type match struct {
	rel        string
	head, tail int // mention indexes
	hs, tsl    slot
	kind       string
	veto       bool
}

// encode writes the sentence in the form rules match against, and returns
// the set of its words. Titles and cue words before a name are left out;
// compounds that would mislead a rule are written as one word.
func (s *sent) encode(from, to int) (string, map[string]bool) {
	var sb strings.Builder
	words := make(map[string]bool, to-from)
	for i := from; i < to; i++ {
		if k := s.own[i]; k >= 0 {
			m := s.ms[k]
			i = m.b - 1
			if m.hide {
				continue
			}
			typ := m.typ
			if typ == "" {
				typ = "u"
			}
			sb.WriteString(" @" + typ + "#" + strconv.Itoa(k) + " ")
			continue
		}
		if s.cue[i] {
			continue
		}
		t := s.ts[i]
		if t.kind == kPunct {
			switch t.key {
			case `"`, "'", "*", "_":
				continue
			}
		}
		w := t.key
		if t.kind == kWord && i+1 < len(s.ts) && s.own[i+1] < 0 && !s.cue[i+1] && s.ts[i+1].kind == kWord &&
			compounds[w+" "+s.ts[i+1].key] {
			w += "·" + s.ts[i+1].key
			i++
		}
		if strings.ContainsAny(w, " @#") {
			w = "·"
		}
		sb.WriteString(" " + w + " ")
		words[w] = true
	}
	return sb.String(), words
}

// mentionsIn lists the mention indexes named in an encoded fragment.
func mentionsIn(frag string) []int {
	var out []int
	for {
		i := strings.IndexByte(frag, '#')
		if i < 0 {
			return out
		}
		frag = frag[i+1:]
		j := 0
		for j < len(frag) && frag[j] >= '0' && frag[j] <= '9' {
			j++
		}
		if n, err := strconv.Atoi(frag[:j]); err == nil {
			out = append(out, n)
		}
		frag = frag[j:]
	}
}

// maxWindow bounds the tokens rules see at once: a run-on "sentence" of
// thousands of words is read in pieces cut at commas.
const maxWindow = 200

// windows cuts the sentence into pieces of at most about maxWindow tokens,
// preferably after a comma, never inside a mention.
func (s *sent) windows() [][2]int {
	n := len(s.ts)
	if n <= maxWindow {
		return [][2]int{{0, n}}
	}
	var out [][2]int
	for a := 0; a < n; {
		b := min(a+maxWindow, n)
		if b < n {
			for k := b - 1; k > a+maxWindow/2; k-- {
				if s.ts[k].kind == kPunct && (s.ts[k].text == "," || s.ts[k].text == ";") {
					b = k + 1
					break
				}
			}
			for b < n && s.own[b] >= 0 && s.own[b] == s.own[b-1] {
				b++
			}
		}
		out = append(out, [2]int{a, b})
		a = b
	}
	return out
}

// relate runs every rule over the sentence.
func (s *sent) relate() []match {
	have := map[string]int{}
	for _, m := range s.ms {
		if m.typ != "" {
			have[m.typ]++
		}
	}
	var found []match
	for _, w := range s.windows() {
		found = s.relateIn(w[0], w[1], have, found)
	}
	return found
}

func (s *sent) relateIn(from, to int, have map[string]int, found []match) []match {
	enc, words := s.encode(from, to)
	set := rules()
rules:
	for _, ri := range set.candidates(words) {
		r := set.all[ri]
		// Cheap checks first: the rule's words and strict types must all be
		// present. Two slots of one type need two mentions.
		for _, group := range r.trig {
			hit := false
			for _, w := range group {
				if words[w] {
					hit = true
					break
				}
			}
			if !hit {
				continue rules
			}
		}
		for i, typs := range r.need {
			c := 0
			for _, t := range typs {
				c += have[t]
			}
			same := 0
			for _, u := range r.need[:i+1] {
				if u[0] == typs[0] && len(u) == len(typs) {
					same++
				}
			}
			if c < same {
				continue rules
			}
		}
		for _, idx := range r.re.FindAllStringSubmatchIndex(enc, -1) {
			groups := make([][]int, len(r.slots))
			for g := range r.slots {
				if a, b := idx[2*g+2], idx[2*g+3]; a >= 0 {
					groups[g] = mentionsIn(enc[a:b])
				}
			}
			for _, ou := range r.outs {
				hs, ts := groups[ou.head], groups[ou.tail]
				for i, h := range hs {
					for j, t := range ts {
						if ou.head == ou.tail && j <= i {
							continue
						}
						found = append(found, match{rel: ou.rel, head: h, tail: t, hs: r.slots[ou.head], tsl: r.slots[ou.tail], kind: r.kind, veto: ou.veto})
					}
				}
			}
		}
	}
	return found
}
