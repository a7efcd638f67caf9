package en

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
//	                  "A, B and C"; {=?} takes any type, and an untyped one
//	                  takes the type of the relation's head
//	was|is_born       one of the words or word sequences (_ joins words)
//	[the|a]           optional words
//	~                 an optional aside: ", who …," or "( … )"
//	*                 up to three words that are not mentions or commas
//	**                up to six words or mentions, no commas
//	^                 the start of the sentence
//	^^                up to fourteen words from there, passing no person

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
	// subjRE skips from a sentence's first mention to a later "his"/"her"
	// without passing another person, who might be the one meant.
	subjRE = `(?: (?:[^@ ;][^ ]*|@(?:place|time|organisation|event|office|work|concept)#\d+) ){0,14}?`
)

func alts(x string) (string, []string) {
	var parts, firsts []string
	for _, a := range strings.Split(x, "|") {
		var sb strings.Builder
		ws := strings.Split(a, "_")
		for _, w := range ws {
			sb.WriteString(" " + regexp.QuoteMeta(w) + " ")
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
				sb.WriteString(`(` + m + `(?: , ` + m + `)*(?:(?: , )? and ` + m + `)?)`)
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

// Word classes used in several rules.
const (
	childAdj   = `[eldest|elder|second|third|fourth|fifth|sixth|seventh|youngest|younger|oldest|only|first|adopted|illegitimate|legitimate|favourite|favorite|posthumous]`
	sibAdj     = `[elder|older|younger|eldest|youngest|half|twin|little|big|second|third]`
	spouseAdj  = `[first|second|third|principal|main|chief|favourite|favorite|former|late|only|beloved]`
	child      = `son|daughter|child|heir`
	children   = `son|daughter|sons|daughters|children|heir|heirs`
	sib        = `brother|sister`
	sibs       = `brother|sister|brothers|sisters`
	spouse     = `wife|husband|consort|concubine|widow|empress`
	person     = `{person?}`
	persons    = `{person?+}`
	actor      = `{person|organisation?}`
	actors     = `{person|organisation?+}`
	aliasHead  = `{person|place|organisation?}`
	aliasTail  = `{=?}`
	deathVerbs = `died|perished|was_killed|was_executed|was_slain|was_assassinated|was_beheaded|was_poisoned|was_murdered|passed_away|committed_suicide|died_of_illness|was_captured_and_executed|was_captured_and_killed|was_defeated_and_killed`
	attackVerb = `attacked|invaded|besieged|raided|assaulted|ambushed|defeated|conquered|stormed|sacked|routed|captured|overran|crushed|annexed|destroyed|marched_against|advanced_against|laid_siege_to|waged_war_against|waged_war_on|made_war_on|launched_an_attack_on|launched_an_attack_against|led_an_attack_on|attacks|invades|besieges|defeats|fought|battled|engaged|clashed_with|fought_against`
	attackPass = `attacked|invaded|besieged|raided|assaulted|ambushed|defeated|conquered|stormed|sacked|routed|captured|overrun|crushed|annexed|destroyed|taken`
	appointVb  = `appointed|made|named|promoted|elevated|installed|enfeoffed|proclaimed|crowned|enthroned|reappointed|nominated|raised|created|given_the_title`
	postWords  = `[post|position|rank|title|office|seat|role]`
	happenVb   = `took_place|occurred|happened|was_fought|were_fought|broke_out|began|ended|started|erupted|unfolded|raged|was_waged|concluded`
)

// ruleSet is the compiled rules with an index from a telling word to the
// rules that need it, so that a sentence is tried only against rules whose
// rarer words it contains.
type ruleSet struct {
	all    []*rule
	byWord map[string][]int
	always []int // rules with no telling word
}

// commonWords are poor index keys: nearly every sentence has them.
var commonWords = set(`in at on of the a an and , was is were by to with ( ) 's as his her from`)

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

func compileRules() []*rule {
	var rs []*rule
	add := func(dsl string, outs ...out) { rs = append(rs, compileRule(dsl, "", outs...)) }
	addKind := func(dsl, kind string, outs ...out) { rs = append(rs, compileRule(dsl, kind, outs...)) }

	// Birth and death.
	add(person+` ~ [,] [who] was|is born * in|at|near|on {place|time?}`, o("born_in", 0, 1))
	add(person+` ~ [,] [who] was|is born * in|at|near|on {place|time?} [,] in|at|near|on {place|time?}`, o("born_in", 0, 1), o("born_in", 0, 2))
	add(person+` , born * in|at|near|on {place|time?}`, o("born_in", 0, 1))
	add(`born * in|at|near|on {place|time} , `+person, o("born_in", 1, 0))
	add(`born * in|at|near|on {place|time} , {place} , `+person, o("born_in", 2, 0), o("born_in", 2, 1))
	add(`in|by {time} [,] `+person+` ~ was born`, o("born_in", 1, 0))
	add(person+` ( [c.|b.|born] {time} - [c.|d.|died] {time} )`, o("born_in", 0, 1), o("died_in", 0, 2))
	add(person+` ( born|b. [in] {place|time} )`, o("born_in", 0, 1))
	add(person+` ~ [,] [who] `+deathVerbs+` * in|at|near|on|during {place|time?}`, o("died_in", 0, 1))
	add(person+` ~ [,] [who] `+deathVerbs+` * in|at|near|on {place|time?} [,] in|at|near|on {place|time?}`, o("died_in", 0, 1), o("died_in", 0, 2))
	add(person+` ~ [,] [who] `+deathVerbs+` ** in|at|near|on {place|time}`, o("died_in", 0, 1))
	add(person+` 's death in|at|on {place|time}`, o("died_in", 0, 1))
	add(person+` ~ [,] [who] was born ** [,] and `+deathVerbs+` * in|at|near|on {place|time}`, o("died_in", 0, 1))
	add(person+` ~ [,] [who] was born ** [,] and `+deathVerbs+` * in|at|near|on {place|time} [,] in|at|near|on {place|time}`, o("died_in", 0, 1), o("died_in", 0, 2))
	add(`in|by {time} [,] `+person+` ~ `+deathVerbs, o("died_in", 1, 0))
	add(person+` ( died|d. [in] {place|time} )`, o("died_in", 0, 1))

	// Parents and children.
	add(person+` , [the|a|an] `+childAdj+` `+child+` of {person?}`, o("parent_of", 1, 0))
	add(person+` ~ was|is [the|a|an] `+childAdj+` `+child+` of {person?}`, o("parent_of", 1, 0))
	add(person+` 's `+childAdj+` `+children+` [,|:|was|were] `+persons, o("parent_of", 0, 1))
	add(person+` [,] [and|with] his|her `+childAdj+` `+children+` [,] `+persons, o("parent_of", 0, 1))
	add(person+` ~ had|fathered|bore * `+children+` [named|called|,|:] `+persons, o("parent_of", 0, 1))
	add(person+` ~ was|is the father|mother of `+persons, o("parent_of", 0, 1))
	add(person+` , [the] father|mother of `+persons, o("parent_of", 0, 1))
	add(person+` 's father|mother [,] [was] {person?}`, o("parent_of", 1, 0))
	add(person+` ~ , whose father|mother was {person?}`, o("parent_of", 1, 0))
	add(person+` ~ was|were born to `+persons, o("parent_of", 1, 0))

	// "X …, and his son Y": the possessive points back to the subject when
	// no other person comes between.
	add(`^ `+person+` ^^ his|her `+childAdj+` `+children+` [,] `+persons, o("parent_of", 0, 1))
	add(`^ `+person+` ^^ his|her `+sibAdj+` `+sibs+` [,] `+persons, o("sibling_of", 0, 1))
	add(`^ `+person+` ^^ his|her `+spouseAdj+` `+spouse+` [,] {person?}`, o("spouse_of", 0, 1))
	add(`^ `+person+` ^^ {person?} succeeded|replaced him|her`, o("succeeded", 1, 0))
	add(`^ `+person+` ^^ his|her `+childAdj+` `+children+` [,] {person?} succeeded|replaced him|her`, o("parent_of", 0, 1), o("succeeded", 1, 0))

	// Siblings.
	add(person+` [,] [and|with] his|her `+sibAdj+` `+sibs+` [,] `+persons, o("sibling_of", 0, 1))
	add(person+` 's `+sibAdj+` `+sibs+` [,] [was|were] `+persons, o("sibling_of", 0, 1))
	add(person+` , [the|a|an] `+sibAdj+` `+sib+` of {person?}`, o("sibling_of", 0, 1))
	add(person+` ~ was|is [the|a|an] `+sibAdj+` `+sib+` of {person?}`, o("sibling_of", 0, 1))
	add(persons+` were brothers|sisters|siblings`, o("sibling_of", 0, 0))

	// Marriage.
	add(person+` ~ married {person?}`, o("spouse_of", 0, 1))
	add(person+` ~ married {person?} to|off {person?}`, veto("spouse_of", 0, 1), o("spouse_of", 1, 2))
	add(person+` ~ was|were married to {person?}`, o("spouse_of", 0, 1))
	add(person+` ~ married [off] his|her `+sibAdj+` sister {person?} to {person?}`, o("sibling_of", 0, 1), o("spouse_of", 1, 2))
	add(person+` ~ married [off] his|her `+childAdj+` daughter {person?} to {person?}`, o("parent_of", 0, 1), o("spouse_of", 1, 2))
	add(person+` , [the|a|an] `+spouseAdj+` `+spouse+` of {person?}`, o("spouse_of", 0, 1))
	add(person+` ~ was|became|is [the|a|an] `+spouseAdj+` `+spouse+` of {person?}`, o("spouse_of", 0, 1))
	add(person+` 's `+spouseAdj+` `+spouse+`|wives|consorts [,] [was|were] `+persons, o("spouse_of", 0, 1))
	add(person+` [,] [and|with] his|her `+spouseAdj+` `+spouse+` [,] {person?}`, o("spouse_of", 0, 1))
	add(person+` ~ took {person?} as his|her `+spouseAdj+` `+spouse, o("spouse_of", 0, 1))
	add(persons+` were married`, o("spouse_of", 0, 0))

	// Other names.
	for _, k := range []string{"courtesy name", "style name", "art name", "posthumous name", "temple name",
		"given name", "birth name", "personal name", "pen name", "childhood name", "milk name", "zi", "hao",
		"posthumous title", "era name", "nickname"} {
		kw := strings.ReplaceAll(k, " ", "_")
		addKind(aliasHead+` ( [whose|his|her] `+kw+` [was|is|:] `+aliasTail, k, o("alias_of", 0, 1))
		addKind(aliasHead+` , [whose|his|her] `+kw+` [was|is|:] `+aliasTail, k, o("alias_of", 0, 1))
		addKind(aliasHead+` 's `+kw+` was|is `+aliasTail, k, o("alias_of", 0, 1))
		addKind(`the `+kw+` of `+aliasHead+` was|is `+aliasTail, k, o("alias_of", 0, 1))
		addKind(aliasHead+` ~ had|took|bore|was_given|received the `+kw+` [of] `+aliasTail, k, o("alias_of", 0, 1))
	}
	add(aliasHead+` ~ , [better|commonly|formerly|originally|popularly|widely] known as `+aliasTail, o("alias_of", 0, 1))
	add(aliasHead+` ~ was|is [better|commonly|formerly|originally|popularly|widely] known_as|called|renamed|styled|nicknamed `+aliasTail, o("alias_of", 0, 1))
	add(aliasHead+` ( [also] a.k.a.|aka|or|known_as|formerly `+aliasTail+` )`, o("alias_of", 0, 1))

	// Offices.
	add(person+` ~ [,] [who] was|were|is `+appointVb+` [as|to] [the|a|an] `+postWords+` [of] {office}`, o("held_office", 0, 1))
	add(person+` ~ served|acted|ruled|reigned|governed|remained as [the|a|an] {office}`, o("held_office", 0, 1))
	add(person+` ~ became|becomes|remained [the|a|an] {office}`, o("held_office", 0, 1))
	add(person+` ~ was|is|were [the|a|an] {office}`, o("held_office", 0, 1))
	add(person+` ~ held|assumed|took|received|obtained|accepted|attained|gained the post|position|title|office|rank|seat|role of {office}`, o("held_office", 0, 1))
	add(person+` ~ proclaimed|declared|named|made|crowned himself|herself [as] [the|a|an] {office}`, o("held_office", 0, 1))
	add(appointVb+` {person?} [as|to] [the|a|an|his|her|their] `+postWords+` [of] {office}`, o("held_office", 0, 1))
	add(person+` , [the|a|an] {office}`, o("held_office", 0, 1))
	add(person+` ~ [,] [who] was|became|served_as [the|a|an] {office} of|in|under|for [the] {organisation}`, o("held_office", 0, 1), o("member_of", 0, 2))
	add(person+` , [the|a|an] {office} of|in|under|for [the] {organisation}`, o("held_office", 0, 1), o("member_of", 0, 2))

	// Membership.
	add(actor+` ~ [,] [who] joined|served|served_in|served_under|defected_to|submitted_to|surrendered_to|pledged_allegiance_to|belonged_to|was_a_member_of|became_a_member_of|entered_the_service_of|swore_allegiance_to|was_loyal_to|remained_loyal_to [the] {organisation}`, o("member_of", 0, 1))
	add(person+` , a|an|the * general|officer|minister|official|strategist|adviser|advisor|commander|member|subject|vassal|retainer|noble|scholar|warrior of|in|under|from [the] {organisation}`, o("member_of", 0, 1))
	add(`{organisation} general|generals|officer|officers|minister|ministers|official|officials|strategist|commander|commanders|emperor|ruler|king|adviser|advisor|regent|chancellor|warrior|loyalist|defector `+persons, o("member_of", 1, 0))

	// Location.
	add(`{place|organisation|event} ~ [,] [which] is|was|lies|lay|stands|stood|sits [located|situated] in|within|inside {place}`, o("located_in", 0, 1))
	add(`{place} , [a|an|the] * city|town|county|commandery|fortress|castle|village|mountain|river|pass|capital|region|district|prefecture|port|seat in|of|within {place}`, o("located_in", 0, 1))
	add(`{place} in|within {place}`, o("located_in", 0, 1))
	add(`{place} ( [in] [present-day|modern|modern-day|today's|present] {place} )`, o("located_in", 0, 1))
	add(`{place} , in|within [present-day|modern|modern-day|today's|present] {place}`, o("located_in", 0, 1))

	// Participation.
	add(actors+` ~ [,] [who] fought|participated|took_part|served|was_defeated|were_defeated|was_victorious|were_victorious|died|was_killed|was_wounded|distinguished_himself|was_captured|were_present * in|at|during [the] {event}`, o("participated_in", 0, 1))
	add(actors+` ~ won|lost|joined|fought|survived|took_part_in|participated_in [the] {event}`, o("participated_in", 0, 1))
	add(`during|at|in [the] {event} , `+actors, o("participated_in", 1, 0))

	// Leadership.
	add(person+` ~ [,] [who] led|commanded|headed|directed|organised|organized|launched|mounted * {organisation|event}`, o("led", 0, 1))
	add(person+` ~ [,] [who] led|launched|mounted * {event} against [the] {place|organisation|person?+}`, o("led", 0, 1), o("attacked", 0, 2))
	add(person+` ~ led|commanded [the|an|a|his|her] army|armies|forces|troops|fleet|navy|soldiers|men|vanguard of [the] {organisation}`, o("led", 0, 1))
	add(`{organisation|event} ~ [,] [which] [was|were] led|commanded|headed|organised|organized|launched by `+persons, o("led", 1, 0))
	add(person+` ~ , [the] leader|commander|head|founder-leader of [the] {organisation|event}`, o("led", 0, 1))
	add(person+` ~ was|became [the|a] leader|commander|head of [the] {organisation|event}`, o("led", 0, 1))

	// Attacks.
	add(actors+` ~ [,] [who] `+attackVerb+` [the] {place|organisation|person?+}`, o("attacked", 0, 1))
	add(actors+` ~ [,] [who] `+attackVerb+` [the] {person|organisation|place?+} at|in|during [the] {event}`, o("participated_in", 0, 2), o("participated_in", 1, 2))
	add(actors+` ~ [,] [who] led|marched|sent|launched|mounted|campaigned|advanced|moved|rose|rebelled|fought|turned * against [the] {place|organisation|person?+}`, o("attacked", 0, 1))
	add(person+` ~ [,] [who] led|marched|sent|launched [the|an|a|his|her] {organisation} against|on [the] {person|organisation|place?+}`, o("attacked", 0, 2), o("led", 0, 1))
	add(`{place|organisation|person?+} ~ was|were `+attackPass+` by [the] `+actors, o("attacked", 1, 0))

	// Alliances.
	add(actors+` ~ [,] allied|allied_himself|allied_herself|allied_itself|allied_themselves|formed_an_alliance|made_an_alliance|concluded_an_alliance|joined_forces|entered_into_an_alliance|entered_an_alliance|sided * with `+actors, o("allied_with", 0, 1))
	add(actors+` ~ formed|made|concluded|forged an alliance`, o("allied_with", 0, 0))
	add(actors+` ~ were|became allies`, o("allied_with", 0, 0))
	add(actor+` , [an|the] ally of `+actor, o("allied_with", 0, 1))
	add(actor+` ~ was|became|remained an|the ally of `+actor, o("allied_with", 0, 1))
	add(actor+` 's ally [,] `+actor, o("allied_with", 0, 1))
	add(`alliance between|of `+actors, o("allied_with", 0, 0))

	// Succession.
	add(person+` ~ [,] [who] succeeded {person?}`, o("succeeded", 0, 1))
	add(person+` ~ succeeded his|her father|mother [,] {person?}`, o("succeeded", 0, 1), o("parent_of", 1, 0))
	add(person+` ~ succeeded his|her `+sibAdj+` brother|sister [,] {person?}`, o("succeeded", 0, 1), o("sibling_of", 0, 1))
	add(person+` ~ succeeded her husband [,] {person?}`, o("succeeded", 0, 1), o("spouse_of", 0, 1))
	add(person+` ~ succeeded his|her uncle|cousin|grandfather|nephew|master|lord [,] {person?}`, o("succeeded", 0, 1))
	add(person+` ~ was|were succeeded by {person?}`, o("succeeded", 1, 0))
	add(person+` ~ was|were succeeded by his|her `+childAdj+` son|daughter [,] {person?}`, o("succeeded", 1, 0), o("parent_of", 0, 1))
	add(person+` ~ was|were succeeded by his|her `+sibAdj+` brother|sister [,] {person?}`, o("succeeded", 1, 0), o("sibling_of", 0, 1))
	add(person+` , [the] successor of|to {person?}`, o("succeeded", 0, 1))
	add(person+` ~ was|became the successor of|to {person?}`, o("succeeded", 0, 1))
	add(person+` 's successor [,] [was] {person?}`, o("succeeded", 1, 0))
	add(person+` ~ succeeded|replaced {person?} as [the|a|an] {office}`, o("succeeded", 0, 1), o("held_office", 0, 2))

	// Founding.
	add(actor+` ~ [,] [who] founded|established|co-founded|set_up|built [the|a|an] [city|town|fortress|capital|kingdom|state|dynasty|empire|principality] [of] {organisation|place?}`, o("founded", 0, 1))
	add(`{organisation|place} ~ [,] [which] [was|were] founded|established|built|set_up|co-founded by `+actors, o("founded", 1, 0))
	add(person+` ~ , [the] founder|co-founder of [the] {organisation|place?}`, o("founded", 0, 1))
	add(person+` ~ was|is the founder|co-founder of [the] {organisation|place?}`, o("founded", 0, 1))

	// Writing.
	add(person+` ~ [,] [who] wrote|authored|composed|compiled|penned|edited|co-wrote|completed|drafted|annotated [the] {work?}`, o("wrote", 0, 1))
	add(`{work} ~ [,] [which] [was|were] written|authored|composed|compiled|penned|edited by `+persons, o("wrote", 1, 0))
	add(person+` ~ , [the] author|compiler|composer|editor of [the] {work?}`, o("wrote", 0, 1))
	add(person+` ~ was|is the author|compiler|composer|editor of [the] {work?}`, o("wrote", 0, 1))

	// When and where events happened.
	add(`{event} ~ `+happenVb+` * in|at|on|near|during|around {place|time?}`, o("happened_at", 0, 1))
	add(`{event} ~ `+happenVb+` * in|at|on|near|during|around {place|time?} [,] in|at|on|near|during|around {place|time?}`, o("happened_at", 0, 1), o("happened_at", 0, 2))
	add(`{event} ~ `+happenVb+` ** in|at|on|near|during|around {place|time}`, o("happened_at", 0, 1))
	add(`{event} ~ was|were fought|waged between|by `+actors, o("participated_in", 1, 0))
	add(`{event} ** between|from {time} and|to|until {time}`, o("happened_at", 0, 1), o("happened_at", 0, 2))
	add(`{event} ( [c.] {time} )`, o("happened_at", 0, 1))
	add(`{event} ( [c.] {time} - {time} )`, o("happened_at", 0, 1), o("happened_at", 0, 2))
	add(`{event} in|of|at|near {place|time}`, o("happened_at", 0, 1))
	add(`in|during {time} [,] [the] {event}`, o("happened_at", 1, 0))
	return rs
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
// the set of its words.
func (s *sent) encode(from, to int) (string, map[string]bool) {
	var sb strings.Builder
	words := make(map[string]bool, to-from)
	for i := from; i < to; i++ {
		if k := s.own[i]; k >= 0 {
			m := s.ms[k]
			typ := m.typ
			if typ == "" {
				typ = "u"
			}
			sb.WriteString(" @" + typ + "#" + strconv.Itoa(k) + " ")
			i = m.b - 1
			continue
		}
		t := s.ts[i]
		if t.kind == kPunct {
			switch t.lower {
			case `"`, "'", "*", "_", "“", "”":
				continue
			}
		}
		if t.kind == kWord && isAdverb(t) {
			continue
		}
		w := t.lower
		if strings.ContainsAny(w, " @#") {
			w = "·"
		}
		sb.WriteString(" " + w + " ")
		words[w] = true
	}
	return sb.String(), words
}

func isAdverb(t tok) bool {
	if t.cap {
		return false
	}
	if adverbs[t.lower] {
		return true
	}
	return len(t.lower) > 4 && strings.HasSuffix(t.lower, "ly") && !lyWords[t.lower]
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
