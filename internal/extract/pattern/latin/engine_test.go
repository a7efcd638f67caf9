package latin

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var english = Grammar{And: "and"}

// encoded writes space-separated tokens the way encode does: " tok " each.
func encoded(toks string) string {
	return " " + strings.Join(strings.Fields(toks), "  ") + " "
}

// matchEncoded runs one rule over a sentence of space-separated tokens and
// lists what it read as "rel head>tail", with a "!" before vetoes.
func matchEncoded(r *Rule, toks string) []string {
	enc := encoded(toks)
	words := map[string]bool{}
	have := map[string]int{}
	for _, w := range strings.Fields(enc) {
		if typ, _, ok := strings.Cut(strings.TrimPrefix(w, "@"), "#"); ok && strings.HasPrefix(w, "@") {
			if typ != "u" {
				have[typ]++
			}
			continue
		}
		words[w] = true
	}
	var out []string
	for _, m := range NewRuleSet([]*Rule{r}, nil).match(enc, words, have, nil) {
		v := ""
		if m.veto {
			v = "!"
		}
		out = append(out, fmt.Sprintf("%s%s %d>%d", v, m.rel, m.head, m.tail))
	}
	return out
}

func TestNotation(t *testing.T) {
	vi := Grammar{Key: strings.ToLower, And: "(?:và|cùng)"}
	for _, c := range []struct {
		g    Grammar
		dsl  string
		outs []Out
		enc  string
		want []string
	}{
		{english, Person + ` was|is born in {place|time?}`, []Out{O("born_in", 0, 1)},
			" @person#0 was born in @place#1 ", []string{"born_in 0>1"}},
		// ? accepts an untyped mention; a strict slot does not.
		{english, Person + ` was born in {place|time?}`, []Out{O("born_in", 0, 1)},
			" @u#0 was born in @u#1 ", []string{"born_in 0>1"}},
		{english, Person + ` was born in {place}`, []Out{O("born_in", 0, 1)},
			" @person#0 was born in @u#1 ", nil},
		// _ joins words; a word sequence must come whole.
		{english, Person + ` passed_away in {time}`, []Out{O("died_in", 0, 1)},
			" @person#0 passed away in @time#3 ", []string{"died_in 0>3"}},
		{english, Person + ` passed_away in {time}`, []Out{O("died_in", 0, 1)},
			" @person#0 passed in @time#3 ", nil},
		// [ ] is optional.
		{english, Person + ` married [the|a] {person?}`, []Out{O("spouse_of", 0, 1)},
			" @person#0 married @person#1 ", []string{"spouse_of 0>1"}},
		{english, Person + ` married [the|a] {person?}`, []Out{O("spouse_of", 0, 1)},
			" @person#0 married the @person#1 ", []string{"spouse_of 0>1"}},
		// ~ skips an aside between commas or in brackets.
		{english, Person + ` ~ died in {time}`, []Out{O("died_in", 0, 1)},
			" @person#0 , son of @person#1 , died in @time#2 ", []string{"died_in 0>2"}},
		{english, Person + ` ~ died in {time}`, []Out{O("died_in", 0, 1)},
			" @person#0 ( @time#1 - @time#2 ) died in @time#3 ", []string{"died_in 0>3"}},
		// * skips up to three words, but no mention.
		{english, Person + ` was born * in {place}`, []Out{O("born_in", 0, 1)},
			" @person#0 was born far away there in @place#1 ", []string{"born_in 0>1"}},
		{english, Person + ` was born * in {place}`, []Out{O("born_in", 0, 1)},
			" @person#0 was born very far away there in @place#1 ", nil},
		{english, Person + ` was born * in {place}`, []Out{O("born_in", 0, 1)},
			" @person#0 was born with @person#2 in @place#1 ", nil},
		// ** skips up to six words or mentions, but no comma.
		{english, Person + ` was born ** in {place}`, []Out{O("born_in", 0, 1)},
			" @person#0 was born with @person#2 in @place#1 ", []string{"born_in 0>1"}},
		{english, Person + ` was born ** in {place}`, []Out{O("born_in", 0, 1)},
			" @person#0 was born , it is said , in @place#1 ", nil},
		// + reads a list; a slot paired with itself relates every pair.
		{english, Persons + ` were brothers`, []Out{O("sibling_of", 0, 0)},
			" @person#0 , @person#1 and @person#2 were brothers ",
			[]string{"sibling_of 0>1", "sibling_of 0>2", "sibling_of 1>2"}},
		{english, Person + ` attacked ` + Actors, []Out{O("attacked", 0, 1)},
			" @person#0 attacked @organisation#1 , @u#2 , and @person#3 ",
			[]string{"attacked 0>1", "attacked 0>2", "attacked 0>3"}},
		// {=?} takes a mention of any type.
		{english, AliasHead + ` , known as ` + AliasTail, []Out{O("alias_of", 0, 1)},
			" @place#0 , known as @u#1 ", []string{"alias_of 0>1"}},
		// ^ anchors at the start; ^^ reaches a later word past anything but
		// a person.
		{english, `^ ` + Person + ` ^^ his son {person?}`, []Out{O("parent_of", 0, 1)},
			" @person#0 went to @place#1 in @time#2 with his son @person#3 ", []string{"parent_of 0>3"}},
		{english, `^ ` + Person + ` ^^ his son {person?}`, []Out{O("parent_of", 0, 1)},
			" @person#0 met @person#1 and his son @person#2 ", nil},
		{english, `^ ` + Person + ` ^^ his son {person?}`, []Out{O("parent_of", 0, 1)},
			" then @person#0 went with his son @person#1 ", nil},
		{english, Person + ` married {person?} to {person?}`, []Out{Veto("spouse_of", 0, 1), O("spouse_of", 1, 2)},
			" @person#0 married @person#1 to @person#2 ", []string{"!spouse_of 0>1", "spouse_of 1>2"}},
		// A language folds the rule's words and ends its lists its own way.
		{vi, Persons + ` LÀ anh_em`, []Out{O("sibling_of", 0, 0)},
			" @person#0 , @person#1 cùng @person#2 là anh em ",
			[]string{"sibling_of 0>1", "sibling_of 0>2", "sibling_of 1>2"}},
		{vi, Persons + ` là anh_em`, []Out{O("sibling_of", 0, 0)},
			" @person#0 and @person#1 là anh em ", nil},
	} {
		got := matchEncoded(c.g.Compile(c.dsl, "", c.outs...), c.enc)
		if c.want == nil {
			if len(got) > 0 {
				t.Errorf("%q over %q: got %v, want nothing", c.dsl, c.enc, got)
			}
			continue
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q over %q: got %v, want %v", c.dsl, c.enc, got, c.want)
		}
	}
}

func TestCompiledForm(t *testing.T) {
	r := english.Compile(`{person?} ~ was|is_born [in] {place|time?+} *`, "art name", O("born_in", 0, 1))
	if r.kind != "art name" || len(r.slots) != 2 || !r.slots[0].untyped || !slices.Equal(r.slots[1].types, []string{"place", "time"}) {
		t.Fatalf("slots %+v kind %q", r.slots, r.kind)
	}
	// Required words index the rule; optional ones do not.
	if len(r.trig) != 1 || !slices.Equal(r.trig[0], []string{"was", "is"}) {
		t.Fatalf("trig %v", r.trig)
	}
	if len(r.need) != 0 {
		t.Fatalf("untyped slots need nothing: %v", r.need)
	}
	r = english.Compile(`{place} in|within {place}`, "", O("located_in", 0, 1))
	if len(r.need) != 2 {
		t.Fatalf("need %v", r.need)
	}
	// Words are quoted, not read as expressions.
	r = english.Compile(`( [c.] {time} )`, "", O("happened_at", 0, 0))
	if !r.re.MatchString(encoded("( c. @time#0 )")) || r.re.MatchString(encoded("( cx @time#0 )")) {
		t.Fatalf("quoting: %s", r.re)
	}
	if _, err := regexp.Compile(r.re.String()); err != nil {
		t.Fatal(err)
	}
}

func TestStrictSlotsNeedMentions(t *testing.T) {
	rs := NewRuleSet([]*Rule{english.Compile(`{place} in {place}`, "", O("located_in", 0, 1))}, nil)
	enc := encoded("@place#0 in @place#1")
	words := map[string]bool{"in": true}
	if got := rs.match(enc, words, map[string]int{"place": 2}, nil); len(got) != 1 {
		t.Fatalf("got %v", got)
	}
	// Two strict slots of one type need two mentions of it, whatever the
	// text says.
	if got := rs.match(enc, words, map[string]int{"place": 1}, nil); len(got) != 0 {
		t.Fatalf("got %v", got)
	}
}

func TestRuleIndex(t *testing.T) {
	rules := []*Rule{
		english.Compile(`{person?} was born in {place}`, "", O("born_in", 0, 1)),
		english.Compile(`{person?} married {person?}`, "", O("spouse_of", 0, 1)),
		english.Compile(`{event} ( {time} )`, "", O("happened_at", 0, 1)),
		english.Compile(`{person?} was|is {office}`, "", O("held_office", 0, 1)),
	}
	rs := NewRuleSet(rules, map[string]bool{"was": true, "is": true, "(": true, ")": true, "in": true})
	for _, c := range []struct {
		words string
		want  []int
	}{
		// "born" is rarer than "was" and stands for rule 0.
		{"was born in", []int{0, 3}},
		{"was in", []int{3}},
		{"married", []int{1}},
		// Only common words: the rule is indexed by its first one.
		{"( )", []int{2}},
		{"", nil},
	} {
		words := map[string]bool{}
		for _, w := range strings.Fields(c.words) {
			words[w] = true
		}
		if got := rs.candidates(words); !slices.Equal(got, c.want) {
			t.Errorf("%q: candidates %v, want %v", c.words, got, c.want)
		}
	}
	always := NewRuleSet([]*Rule{english.Compile(`{place} * {place}`, "", O("located_in", 0, 1))}, nil)
	if got := always.candidates(nil); !slices.Equal(got, []int{0}) {
		t.Errorf("a rule without words is always tried: %v", got)
	}
}

func TestMentionsIn(t *testing.T) {
	if got := mentionsIn(" @person#12 , @u#3 and @place#0 "); !slices.Equal(got, []int{12, 3, 0}) {
		t.Fatalf("got %v", got)
	}
	if got := mentionsIn(" no mentions "); got != nil {
		t.Fatalf("got %v", got)
	}
}
