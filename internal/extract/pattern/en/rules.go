package en

import (
	"strings"
	"sync"

	"github.com/annals-project/annals/internal/extract/pattern/latin"
)

// Relation rules are written in the notation of package latin; lists end
// in "and".
var grammar = latin.Grammar{And: "and"}

// o and veto keep the rule tables short.
var (
	o    = latin.O
	veto = latin.Veto
)

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
	deathVerbs = `died|perished|was_killed|was_executed|was_slain|was_assassinated|was_beheaded|was_poisoned|was_murdered|passed_away|committed_suicide|died_of_illness|was_captured_and_executed|was_captured_and_killed|was_defeated_and_killed`
	attackVerb = `attacked|invaded|besieged|raided|assaulted|ambushed|defeated|conquered|stormed|sacked|routed|captured|overran|crushed|annexed|destroyed|marched_against|advanced_against|laid_siege_to|waged_war_against|waged_war_on|made_war_on|launched_an_attack_on|launched_an_attack_against|led_an_attack_on|attacks|invades|besieges|defeats|fought|battled|engaged|clashed_with|fought_against`
	attackPass = `attacked|invaded|besieged|raided|assaulted|ambushed|defeated|conquered|stormed|sacked|routed|captured|overrun|crushed|annexed|destroyed|taken`
	appointVb  = `appointed|made|named|promoted|elevated|installed|enfeoffed|proclaimed|crowned|enthroned|reappointed|nominated|raised|created|given_the_title`
	postWords  = `[post|position|rank|title|office|seat|role]`
	happenVb   = `took_place|occurred|happened|was_fought|were_fought|broke_out|began|ended|started|erupted|unfolded|raged|was_waged|concluded`
)

// commonWords are poor index keys: nearly every sentence has them.
var commonWords = set(`in at on of the a an and , was is were by to with ( ) 's as his her from`)

var rules = sync.OnceValue(func() *latin.RuleSet { return latin.NewRuleSet(compileRules(), commonWords) })

func compileRules() []*latin.Rule {
	var rs []*latin.Rule
	add := func(dsl string, outs ...latin.Out) { rs = append(rs, grammar.Compile(dsl, "", outs...)) }
	addKind := func(dsl, kind string, outs ...latin.Out) { rs = append(rs, grammar.Compile(dsl, kind, outs...)) }

	// Birth and death.
	add(latin.Person+` ~ [,] [who] was|is born * in|at|near|on {place|time?}`, o("born_in", 0, 1))
	add(latin.Person+` ~ [,] [who] was|is born * in|at|near|on {place|time?} [,] in|at|near|on {place|time?}`, o("born_in", 0, 1), o("born_in", 0, 2))
	add(latin.Person+` , born * in|at|near|on {place|time?}`, o("born_in", 0, 1))
	add(`born * in|at|near|on {place|time} , `+latin.Person, o("born_in", 1, 0))
	add(`born * in|at|near|on {place|time} , {place} , `+latin.Person, o("born_in", 2, 0), o("born_in", 2, 1))
	add(`in|by {time} [,] `+latin.Person+` ~ was born`, o("born_in", 1, 0))
	add(latin.Person+` ( [c.|b.|born] {time} - [c.|d.|died] {time} )`, o("born_in", 0, 1), o("died_in", 0, 2))
	add(latin.Person+` ( born|b. [in] {place|time} )`, o("born_in", 0, 1))
	add(latin.Person+` ~ [,] [who] `+deathVerbs+` * in|at|near|on|during {place|time?}`, o("died_in", 0, 1))
	add(latin.Person+` ~ [,] [who] `+deathVerbs+` * in|at|near|on {place|time?} [,] in|at|near|on {place|time?}`, o("died_in", 0, 1), o("died_in", 0, 2))
	add(latin.Person+` ~ [,] [who] `+deathVerbs+` ** in|at|near|on {place|time}`, o("died_in", 0, 1))
	add(latin.Person+` 's death in|at|on {place|time}`, o("died_in", 0, 1))
	add(latin.Person+` ~ [,] [who] was born ** [,] and `+deathVerbs+` * in|at|near|on {place|time}`, o("died_in", 0, 1))
	add(latin.Person+` ~ [,] [who] was born ** [,] and `+deathVerbs+` * in|at|near|on {place|time} [,] in|at|near|on {place|time}`, o("died_in", 0, 1), o("died_in", 0, 2))
	add(`in|by {time} [,] `+latin.Person+` ~ `+deathVerbs, o("died_in", 1, 0))
	add(latin.Person+` ( died|d. [in] {place|time} )`, o("died_in", 0, 1))

	// Parents and children.
	add(latin.Person+` , [the|a|an] `+childAdj+` `+child+` of {person?}`, o("parent_of", 1, 0))
	add(latin.Person+` ~ was|is [the|a|an] `+childAdj+` `+child+` of {person?}`, o("parent_of", 1, 0))
	add(latin.Person+` 's `+childAdj+` `+children+` [,|:|was|were] `+latin.Persons, o("parent_of", 0, 1))
	add(latin.Person+` [,] [and|with] his|her `+childAdj+` `+children+` [,] `+latin.Persons, o("parent_of", 0, 1))
	add(latin.Person+` ~ had|fathered|bore * `+children+` [named|called|,|:] `+latin.Persons, o("parent_of", 0, 1))
	add(latin.Person+` ~ was|is the father|mother of `+latin.Persons, o("parent_of", 0, 1))
	add(latin.Person+` , [the] father|mother of `+latin.Persons, o("parent_of", 0, 1))
	add(latin.Person+` 's father|mother [,] [was] {person?}`, o("parent_of", 1, 0))
	add(latin.Person+` ~ , whose father|mother was {person?}`, o("parent_of", 1, 0))
	add(latin.Person+` ~ was|were born to `+latin.Persons, o("parent_of", 1, 0))

	// "X …, and his son Y": the possessive points back to the subject when
	// no other person comes between.
	add(`^ `+latin.Person+` ^^ his|her `+childAdj+` `+children+` [,] `+latin.Persons, o("parent_of", 0, 1))
	add(`^ `+latin.Person+` ^^ his|her `+sibAdj+` `+sibs+` [,] `+latin.Persons, o("sibling_of", 0, 1))
	add(`^ `+latin.Person+` ^^ his|her `+spouseAdj+` `+spouse+` [,] {person?}`, o("spouse_of", 0, 1))
	add(`^ `+latin.Person+` ^^ {person?} succeeded|replaced him|her`, o("succeeded", 1, 0))
	add(`^ `+latin.Person+` ^^ his|her `+childAdj+` `+children+` [,] {person?} succeeded|replaced him|her`, o("parent_of", 0, 1), o("succeeded", 1, 0))

	// Siblings.
	add(latin.Person+` [,] [and|with] his|her `+sibAdj+` `+sibs+` [,] `+latin.Persons, o("sibling_of", 0, 1))
	add(latin.Person+` 's `+sibAdj+` `+sibs+` [,] [was|were] `+latin.Persons, o("sibling_of", 0, 1))
	add(latin.Person+` , [the|a|an] `+sibAdj+` `+sib+` of {person?}`, o("sibling_of", 0, 1))
	add(latin.Person+` ~ was|is [the|a|an] `+sibAdj+` `+sib+` of {person?}`, o("sibling_of", 0, 1))
	add(latin.Persons+` were brothers|sisters|siblings`, o("sibling_of", 0, 0))

	// Marriage.
	add(latin.Person+` ~ married {person?}`, o("spouse_of", 0, 1))
	add(latin.Person+` ~ married {person?} to|off {person?}`, veto("spouse_of", 0, 1), o("spouse_of", 1, 2))
	add(latin.Person+` ~ was|were married to {person?}`, o("spouse_of", 0, 1))
	add(latin.Person+` ~ married [off] his|her `+sibAdj+` sister {person?} to {person?}`, o("sibling_of", 0, 1), o("spouse_of", 1, 2))
	add(latin.Person+` ~ married [off] his|her `+childAdj+` daughter {person?} to {person?}`, o("parent_of", 0, 1), o("spouse_of", 1, 2))
	add(latin.Person+` , [the|a|an] `+spouseAdj+` `+spouse+` of {person?}`, o("spouse_of", 0, 1))
	add(latin.Person+` ~ was|became|is [the|a|an] `+spouseAdj+` `+spouse+` of {person?}`, o("spouse_of", 0, 1))
	add(latin.Person+` 's `+spouseAdj+` `+spouse+`|wives|consorts [,] [was|were] `+latin.Persons, o("spouse_of", 0, 1))
	add(latin.Person+` [,] [and|with] his|her `+spouseAdj+` `+spouse+` [,] {person?}`, o("spouse_of", 0, 1))
	add(latin.Person+` ~ took {person?} as his|her `+spouseAdj+` `+spouse, o("spouse_of", 0, 1))
	add(latin.Persons+` were married`, o("spouse_of", 0, 0))

	// Other names.
	for _, k := range []string{"courtesy name", "style name", "art name", "posthumous name", "temple name",
		"given name", "birth name", "personal name", "pen name", "childhood name", "milk name", "zi", "hao",
		"posthumous title", "era name", "nickname"} {
		kw := strings.ReplaceAll(k, " ", "_")
		addKind(latin.AliasHead+` ( [whose|his|her] `+kw+` [was|is|:] `+latin.AliasTail, k, o("alias_of", 0, 1))
		addKind(latin.AliasHead+` , [whose|his|her] `+kw+` [was|is|:] `+latin.AliasTail, k, o("alias_of", 0, 1))
		addKind(latin.AliasHead+` 's `+kw+` was|is `+latin.AliasTail, k, o("alias_of", 0, 1))
		addKind(`the `+kw+` of `+latin.AliasHead+` was|is `+latin.AliasTail, k, o("alias_of", 0, 1))
		addKind(latin.AliasHead+` ~ had|took|bore|was_given|received the `+kw+` [of] `+latin.AliasTail, k, o("alias_of", 0, 1))
	}
	add(latin.AliasHead+` ~ , [better|commonly|formerly|originally|popularly|widely] known as `+latin.AliasTail, o("alias_of", 0, 1))
	add(latin.AliasHead+` ~ was|is [better|commonly|formerly|originally|popularly|widely] known_as|called|renamed|styled|nicknamed `+latin.AliasTail, o("alias_of", 0, 1))
	add(latin.AliasHead+` ( [also] a.k.a.|aka|or|known_as|formerly `+latin.AliasTail+` )`, o("alias_of", 0, 1))

	// Offices.
	add(latin.Person+` ~ [,] [who] was|were|is `+appointVb+` [as|to] [the|a|an] `+postWords+` [of] {office}`, o("held_office", 0, 1))
	add(latin.Person+` ~ served|acted|ruled|reigned|governed|remained as [the|a|an] {office}`, o("held_office", 0, 1))
	add(latin.Person+` ~ became|becomes|remained [the|a|an] {office}`, o("held_office", 0, 1))
	add(latin.Person+` ~ was|is|were [the|a|an] {office}`, o("held_office", 0, 1))
	add(latin.Person+` ~ held|assumed|took|received|obtained|accepted|attained|gained the post|position|title|office|rank|seat|role of {office}`, o("held_office", 0, 1))
	add(latin.Person+` ~ proclaimed|declared|named|made|crowned himself|herself [as] [the|a|an] {office}`, o("held_office", 0, 1))
	add(appointVb+` {person?} [as|to] [the|a|an|his|her|their] `+postWords+` [of] {office}`, o("held_office", 0, 1))
	add(latin.Person+` , [the|a|an] {office}`, o("held_office", 0, 1))
	add(latin.Person+` ~ [,] [who] was|became|served_as [the|a|an] {office} of|in|under|for [the] {organisation}`, o("held_office", 0, 1), o("member_of", 0, 2))
	add(latin.Person+` , [the|a|an] {office} of|in|under|for [the] {organisation}`, o("held_office", 0, 1), o("member_of", 0, 2))

	// Membership.
	add(latin.Actor+` ~ [,] [who] joined|served|served_in|served_under|defected_to|submitted_to|surrendered_to|pledged_allegiance_to|belonged_to|was_a_member_of|became_a_member_of|entered_the_service_of|swore_allegiance_to|was_loyal_to|remained_loyal_to [the] {organisation}`, o("member_of", 0, 1))
	add(latin.Person+` , a|an|the * general|officer|minister|official|strategist|adviser|advisor|commander|member|subject|vassal|retainer|noble|scholar|warrior of|in|under|from [the] {organisation}`, o("member_of", 0, 1))
	add(`{organisation} general|generals|officer|officers|minister|ministers|official|officials|strategist|commander|commanders|emperor|ruler|king|adviser|advisor|regent|chancellor|warrior|loyalist|defector `+latin.Persons, o("member_of", 1, 0))

	// Location.
	add(`{place|organisation|event} ~ [,] [which] is|was|lies|lay|stands|stood|sits [located|situated] in|within|inside {place}`, o("located_in", 0, 1))
	add(`{place} , [a|an|the] * city|town|county|commandery|fortress|castle|village|mountain|river|pass|capital|region|district|prefecture|port|seat in|of|within {place}`, o("located_in", 0, 1))
	add(`{place} in|within {place}`, o("located_in", 0, 1))
	add(`{place} ( [in] [present-day|modern|modern-day|today's|present] {place} )`, o("located_in", 0, 1))
	add(`{place} , in|within [present-day|modern|modern-day|today's|present] {place}`, o("located_in", 0, 1))

	// Participation.
	add(latin.Actors+` ~ [,] [who] fought|participated|took_part|served|was_defeated|were_defeated|was_victorious|were_victorious|died|was_killed|was_wounded|distinguished_himself|was_captured|were_present * in|at|during [the] {event}`, o("participated_in", 0, 1))
	add(latin.Actors+` ~ won|lost|joined|fought|survived|took_part_in|participated_in [the] {event}`, o("participated_in", 0, 1))
	add(`during|at|in [the] {event} , `+latin.Actors, o("participated_in", 1, 0))

	// Leadership.
	add(latin.Person+` ~ [,] [who] led|commanded|headed|directed|organised|organized|launched|mounted * {organisation|event}`, o("led", 0, 1))
	add(latin.Person+` ~ [,] [who] led|launched|mounted * {event} against [the] {place|organisation|person?+}`, o("led", 0, 1), o("attacked", 0, 2))
	add(latin.Person+` ~ led|commanded [the|an|a|his|her] army|armies|forces|troops|fleet|navy|soldiers|men|vanguard of [the] {organisation}`, o("led", 0, 1))
	add(`{organisation|event} ~ [,] [which] [was|were] led|commanded|headed|organised|organized|launched by `+latin.Persons, o("led", 1, 0))
	add(latin.Person+` ~ , [the] leader|commander|head|founder-leader of [the] {organisation|event}`, o("led", 0, 1))
	add(latin.Person+` ~ was|became [the|a] leader|commander|head of [the] {organisation|event}`, o("led", 0, 1))

	// Attacks.
	add(latin.Actors+` ~ [,] [who] `+attackVerb+` [the] {place|organisation|person?+}`, o("attacked", 0, 1))
	add(latin.Actors+` ~ [,] [who] `+attackVerb+` [the] {person|organisation|place?+} at|in|during [the] {event}`, o("participated_in", 0, 2), o("participated_in", 1, 2))
	add(latin.Actors+` ~ [,] [who] led|marched|sent|launched|mounted|campaigned|advanced|moved|rose|rebelled|fought|turned * against [the] {place|organisation|person?+}`, o("attacked", 0, 1))
	add(latin.Person+` ~ [,] [who] led|marched|sent|launched [the|an|a|his|her] {organisation} against|on [the] {person|organisation|place?+}`, o("attacked", 0, 2), o("led", 0, 1))
	add(`{place|organisation|person?+} ~ was|were `+attackPass+` by [the] `+latin.Actors, o("attacked", 1, 0))

	// Alliances.
	add(latin.Actors+` ~ [,] allied|allied_himself|allied_herself|allied_itself|allied_themselves|formed_an_alliance|made_an_alliance|concluded_an_alliance|joined_forces|entered_into_an_alliance|entered_an_alliance|sided * with `+latin.Actors, o("allied_with", 0, 1))
	add(latin.Actors+` ~ formed|made|concluded|forged an alliance`, o("allied_with", 0, 0))
	add(latin.Actors+` ~ were|became allies`, o("allied_with", 0, 0))
	add(latin.Actor+` , [an|the] ally of `+latin.Actor, o("allied_with", 0, 1))
	add(latin.Actor+` ~ was|became|remained an|the ally of `+latin.Actor, o("allied_with", 0, 1))
	add(latin.Actor+` 's ally [,] `+latin.Actor, o("allied_with", 0, 1))
	add(`alliance between|of `+latin.Actors, o("allied_with", 0, 0))

	// Succession.
	add(latin.Person+` ~ [,] [who] succeeded {person?}`, o("succeeded", 0, 1))
	add(latin.Person+` ~ succeeded his|her father|mother [,] {person?}`, o("succeeded", 0, 1), o("parent_of", 1, 0))
	add(latin.Person+` ~ succeeded his|her `+sibAdj+` brother|sister [,] {person?}`, o("succeeded", 0, 1), o("sibling_of", 0, 1))
	add(latin.Person+` ~ succeeded her husband [,] {person?}`, o("succeeded", 0, 1), o("spouse_of", 0, 1))
	add(latin.Person+` ~ succeeded his|her uncle|cousin|grandfather|nephew|master|lord [,] {person?}`, o("succeeded", 0, 1))
	add(latin.Person+` ~ was|were succeeded by {person?}`, o("succeeded", 1, 0))
	add(latin.Person+` ~ was|were succeeded by his|her `+childAdj+` son|daughter [,] {person?}`, o("succeeded", 1, 0), o("parent_of", 0, 1))
	add(latin.Person+` ~ was|were succeeded by his|her `+sibAdj+` brother|sister [,] {person?}`, o("succeeded", 1, 0), o("sibling_of", 0, 1))
	add(latin.Person+` , [the] successor of|to {person?}`, o("succeeded", 0, 1))
	add(latin.Person+` ~ was|became the successor of|to {person?}`, o("succeeded", 0, 1))
	add(latin.Person+` 's successor [,] [was] {person?}`, o("succeeded", 1, 0))
	add(latin.Person+` ~ succeeded|replaced {person?} as [the|a|an] {office}`, o("succeeded", 0, 1), o("held_office", 0, 2))

	// Founding.
	add(latin.Actor+` ~ [,] [who] founded|established|co-founded|set_up|built [the|a|an] [city|town|fortress|capital|kingdom|state|dynasty|empire|principality] [of] {organisation|place?}`, o("founded", 0, 1))
	add(`{organisation|place} ~ [,] [which] [was|were] founded|established|built|set_up|co-founded by `+latin.Actors, o("founded", 1, 0))
	add(latin.Person+` ~ , [the] founder|co-founder of [the] {organisation|place?}`, o("founded", 0, 1))
	add(latin.Person+` ~ was|is the founder|co-founder of [the] {organisation|place?}`, o("founded", 0, 1))

	// Writing.
	add(latin.Person+` ~ [,] [who] wrote|authored|composed|compiled|penned|edited|co-wrote|completed|drafted|annotated [the] {work?}`, o("wrote", 0, 1))
	add(`{work} ~ [,] [which] [was|were] written|authored|composed|compiled|penned|edited by `+latin.Persons, o("wrote", 1, 0))
	add(latin.Person+` ~ , [the] author|compiler|composer|editor of [the] {work?}`, o("wrote", 0, 1))
	add(latin.Person+` ~ was|is the author|compiler|composer|editor of [the] {work?}`, o("wrote", 0, 1))

	// When and where events happened.
	add(`{event} ~ `+happenVb+` * in|at|on|near|during|around {place|time?}`, o("happened_at", 0, 1))
	add(`{event} ~ `+happenVb+` * in|at|on|near|during|around {place|time?} [,] in|at|on|near|during|around {place|time?}`, o("happened_at", 0, 1), o("happened_at", 0, 2))
	add(`{event} ~ `+happenVb+` ** in|at|on|near|during|around {place|time}`, o("happened_at", 0, 1))
	add(`{event} ~ was|were fought|waged between|by `+latin.Actors, o("participated_in", 1, 0))
	add(`{event} ** between|from {time} and|to|until {time}`, o("happened_at", 0, 1), o("happened_at", 0, 2))
	add(`{event} ( [c.] {time} )`, o("happened_at", 0, 1))
	add(`{event} ( [c.] {time} - {time} )`, o("happened_at", 0, 1), o("happened_at", 0, 2))
	add(`{event} in|of|at|near {place|time}`, o("happened_at", 0, 1))
	add(`in|during {time} [,] [the] {event}`, o("happened_at", 1, 0))
	return rs
}

// Skip leaves adverbs out of the text rules read: "later appointed" reads
// as "appointed".
func (s *sent) Skip(i int) bool {
	t := s.Toks[i]
	return t.Kind == latin.Word && isAdverb(t)
}

// Word reads token i as its key.
func (s *sent) Word(i int) (string, int) { return s.Toks[i].Key, 1 }

func isAdverb(t latin.Tok) bool {
	if t.Cap {
		return false
	}
	if adverbs[t.Key] {
		return true
	}
	return len(t.Key) > 4 && strings.HasSuffix(t.Key, "ly") && !lyWords[t.Key]
}
