package latin

import (
	"regexp"
	"strconv"
	"strings"
)

// Relation rules are written in a small notation and compiled to regular
// expressions over an encoded sentence in which every token is " tok " and
// every mention is " @type#index " (type "u" while untyped).
//
//	{person|place?+}  a mention of one of the types; ? also accepts an untyped
//	                  one and gives it the first type; + accepts a list
//	                  "A, B and C"; {=?} takes any type, and an untyped one
//	                  takes the type of the relation's head
//	was|is_born       one of the words or word sequences (_ joins words)
//	[the|a]           optional words
//	~                 an optional aside: ", who …," or "( … )"
//	*                 up to three words that are not mentions or commas
//	**                up to six words or mentions, no commas
//	^                 the start of the sentence
//	^^                up to fourteen words from there, passing no person

// Slots that rules of every language use.
const (
	Person    = `{person?}`
	Persons   = `{person?+}`
	Actor     = `{person|organisation?}`
	Actors    = `{person|organisation?+}`
	AliasHead = `{person|place|organisation?}`
	AliasTail = `{=?}`
)

// slot is a mention a rule reads.
type slot struct {
	types   []string
	untyped bool
}

// Out is a relation a rule asserts between two of its slots.
type Out struct {
	rel        string
	head, tail int  // slot numbers; equal for pairs within one list
	veto       bool // cancels the relation instead of asserting it
}

// O asserts rel from slot head to slot tail.
func O(rel string, head, tail int) Out { return Out{rel: rel, head: head, tail: tail} }

// Veto cancels rel from slot head to slot tail, where another rule would
// read it wrongly.
func Veto(rel string, head, tail int) Out { return Out{rel: rel, head: head, tail: tail, veto: true} }

// Rule is one compiled relation pattern.
type Rule struct {
	re    *regexp.Regexp
	slots []slot
	outs  []Out
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
	// subjRE skips from a sentence's first mention to a later "his"/"her"
	// without passing another person, who might be the one meant.
	subjRE = `(?: (?:[^@ ;][^ ]*|@(?:place|time|organisation|event|office|work|concept)#\d+) ){0,14}?`
)

// Grammar is what a language changes in the notation.
type Grammar struct {
	// Key folds a rule's words to the form of token keys; nil keeps them.
	Key func(string) string
	// And is the expression for the word before the last item of a list.
	And string
}

func (g Grammar) alts(x string) (string, []string) {
	var parts, firsts []string
	for _, a := range strings.Split(x, "|") {
		var sb strings.Builder
		ws := strings.Split(a, "_")
		for i, w := range ws {
			if g.Key != nil {
				ws[i] = g.Key(w)
			}
			sb.WriteString(" " + regexp.QuoteMeta(ws[i]) + " ")
		}
		parts = append(parts, sb.String())
		firsts = append(firsts, ws[0])
	}
	return "(?:" + strings.Join(parts, "|") + ")", firsts
}

// Compile compiles a rule written in the notation; kind is the alias kind
// of the names it reads, if any.
func (g Grammar) Compile(dsl, kind string, outs ...Out) *Rule {
	r := &Rule{outs: outs, kind: kind}
	var sb strings.Builder
	for _, e := range strings.Fields(dsl) {
		switch {
		case e == "~":
			sb.WriteString(apposRE)
		case e == "*":
			sb.WriteString(gapRE)
		case e == "**":
			sb.WriteString(wideRE)
		case e == "^":
			sb.WriteString("^")
		case e == "^^":
			sb.WriteString(subjRE)
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
				sb.WriteString(`(` + m + `(?: , ` + m + `)*(?:(?: , )? ` + g.And + ` ` + m + `)?)`)
			} else {
				sb.WriteString(`(` + m + `)`)
			}
			r.slots = append(r.slots, sl)
		case strings.HasPrefix(e, "["):
			a, _ := g.alts(strings.TrimSuffix(strings.TrimPrefix(e, "["), "]"))
			sb.WriteString(a + "?")
		default:
			a, firsts := g.alts(e)
			sb.WriteString(a)
			r.trig = append(r.trig, firsts)
		}
	}
	r.re = regexp.MustCompile(sb.String())
	return r
}

// RuleSet is compiled rules with an index from a telling word to the rules
// that need it, so that a sentence is tried only against rules whose rarer
// words it contains.
type RuleSet struct {
	all    []*Rule
	byWord map[string][]int
	always []int // rules with no telling word
}

// NewRuleSet indexes rules; common words, which nearly every sentence has,
// are poor index keys.
func NewRuleSet(rules []*Rule, common map[string]bool) *RuleSet {
	set := &RuleSet{all: rules, byWord: map[string][]int{}}
	for i, r := range rules {
		var key []string
		for _, g := range r.trig {
			rare := true
			for _, w := range g {
				if common[w] {
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
}

// candidates lists, in rule order, the rules worth trying on a sentence
// with the given words.
func (rs *RuleSet) candidates(words map[string]bool) []int {
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

// match runs the rules over enc, an encoded sentence with the given words
// and number of mentions of each type, and appends what they read to found.
func (rs *RuleSet) match(enc string, words map[string]bool, have map[string]int, found []match) []match {
rules:
	for _, ri := range rs.candidates(words) {
		r := rs.all[ri]
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
