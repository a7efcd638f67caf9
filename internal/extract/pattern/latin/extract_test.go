package latin

import (
	"context"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/extract/pattern/latin/latintest"
	"github.com/annals-project/annals/internal/schema"
)

// toy is a small language to drive Extract with: runs of capitalised words
// are persons when two words long or more, places or organisations when
// listed, short names the document knows, or else untyped.
type toy struct{ *Sent }

var (
	toyPlaces = map[string]bool{"Zhuo": true, "Langya": true}
	// toySoft are guesses no rule needs to confirm.
	toySoft = map[string]string{"Shu": "organisation"}
)

func (s toy) Skip(i int) bool { return s.Toks[i].Key == "quietly" }

func (s toy) Word(i int) (string, int) { return s.Toks[i].Key, 1 }

func (s toy) build() {
	for i := 0; i < len(s.Toks); i++ {
		t := s.Toks[i]
		if t.Kind == Num {
			s.Add(i, i+1, "time", "")
			continue
		}
		if !t.Cap {
			continue
		}
		// "Emperor" is an office kept out of the text rules read.
		if t.Key == "emperor" {
			o := s.Add(i, i+1, "office", "")
			s.Mentions[o].Hide = true
			continue
		}
		j := i + 1
		for j < len(s.Toks) && s.Toks[j].Cap {
			j++
		}
		text := s.SpanText(i, j)
		switch {
		case toyPlaces[text]:
			s.Add(i, j, "place", "")
		case j-i >= 2:
			p := s.Add(i, j, "person", "")
			if i > 0 && s.Own[i-1] >= 0 && s.Mentions[s.Own[i-1]].Type == "office" {
				s.Direct = append(s.Direct, Direct{Rel: "held_office", Head: p, Tail: s.Own[i-1]})
			}
		case s.Names.Person(text) != "":
			s.Add(i, j, "person", s.Names.Person(text))
		default:
			k := s.Add(i, j, "", "")
			s.Mentions[k].Soft = toySoft[text]
		}
		i = j - 1
	}
}

var toyRules = NewRuleSet([]*Rule{
	english.Compile(Person+` was born in {place|time?}`, "", O("born_in", 0, 1)),
	// Reads the same births again.
	english.Compile(Person+` was born * {place|time?}`, "", O("born_in", 0, 1)),
	english.Compile(Persons+` were brothers`, "", O("sibling_of", 0, 0)),
	english.Compile(Person+` and {person?} were brothers`, "", O("sibling_of", 1, 0)),
	english.Compile(Person+` married {person?}`, "", O("spouse_of", 0, 1)),
	english.Compile(Person+` married {person?} to {person?}`, "", Veto("spouse_of", 0, 1), O("spouse_of", 1, 2)),
	english.Compile(AliasHead+` , known as `+AliasTail, "nickname", O("alias_of", 0, 1)),
	english.Compile(Person+` wrote {work?}`, "", O("wrote", 0, 1)),
	english.Compile(Person+` served {organisation?}`, "", O("member_of", 0, 1)),
}, nil)

var toyLang = &Lang{
	Tokenize: (&Tokenizer{Key: lowerKey, Thousands: ","}).Span,
	Names:    NameRules{Shorts: func(ws []string) []string { return ws[len(ws)-1:] }, MaxShort: 1},
	Rules:    func() *RuleSet { return toyRules },
}

func toyExtract(t *testing.T, text string, doc *extract.DocContext, sc *schema.Schema) extract.Result {
	t.Helper()
	r, err := toyLang.Extract(context.Background(), extract.Input{Text: text, Lang: "en", Doc: doc, Schema: sc}, func(s *Sent) Reader {
		toy{s}.build()
		return toy{s}
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// triples writes r's triples as "head rel tail" in order.
func triples(r extract.Result) []string {
	var out []string
	for _, x := range r.Triples {
		out = append(out, x.Head.Canonical()+" "+x.Relation+" "+x.Tail.Canonical())
	}
	return out
}

func entities(r extract.Result) []string {
	var out []string
	for _, e := range r.Entities {
		out = append(out, e.Type+":"+e.Text)
	}
	return out
}

func TestFinishDeduplicates(t *testing.T) {
	// Two rules read the birth; it is kept once, with its entities.
	r := toyExtract(t, "Liu Bei was born in Zhuo.", nil, nil)
	if got := strings.Join(triples(r), "|"); got != "Liu Bei born_in Zhuo" {
		t.Fatalf("triples: %s", got)
	}
	if got := strings.Join(entities(r), "|"); got != "person:Liu Bei|place:Zhuo" {
		t.Fatalf("entities: %s", got)
	}
	// A symmetric relation read both ways is one fact.
	r = toyExtract(t, "Guan Yu and Zhang Fei were brothers.", nil, nil)
	if got := strings.Join(triples(r), "|"); got != "Guan Yu sibling_of Zhang Fei" {
		t.Fatalf("triples: %s", got)
	}
	// The same fact in two sentences is two facts: their evidence differs.
	r = toyExtract(t, "Liu Bei was born in Zhuo. Liu Bei was born in Zhuo.", nil, nil)
	if len(r.Triples) != 2 || r.Triples[0].Evidence == r.Triples[1].Evidence {
		t.Fatalf("triples: %+v", r.Triples)
	}
}

func TestFinishSchema(t *testing.T) {
	sc := latintest.TinySchema(t)
	text := "Chen Shou wrote Sanguozhi. Chen Shou was born in 233. Chen Shou was born in Langya. Zhang Fei served Shu."
	r := toyExtract(t, text, nil, sc)
	if got := strings.Join(triples(r), "|"); got != "Chen Shou born_in Langya" {
		t.Fatalf("triples: %s", got)
	}
	for _, e := range r.Entities {
		if e.Type != "person" && e.Type != "place" {
			t.Errorf("entity %s %q outside the schema", e.Type, e.Text)
		}
	}
	// Under the general schema the same text yields all of it.
	r = toyExtract(t, text, nil, nil)
	want := "Chen Shou wrote Sanguozhi|Chen Shou born_in 233|Chen Shou born_in Langya|Zhang Fei member_of Shu"
	if got := strings.Join(triples(r), "|"); got != want {
		t.Fatalf("triples: %s", got)
	}
}

func TestFinishTypes(t *testing.T) {
	r := toyExtract(t, "Cao Cao was born in Qiao. Zhuge Liang , known as Kongming , was born in Langya. Wei fell. Shu fell.", nil, nil)
	got := strings.Join(entities(r), "|")
	// Qiao takes its slot's first type, Kongming the type of the head of its
	// alias; Wei stays untyped and is dropped, Shu keeps its guess.
	want := "person:Cao Cao|place:Qiao|person:Zhuge Liang|person:Kongming|place:Langya|organisation:Shu"
	if got != want {
		t.Fatalf("entities: %s", got)
	}
	for _, x := range r.Triples {
		if x.Relation == "alias_of" && x.AliasKind != "nickname" {
			t.Errorf("alias kind %q", x.AliasKind)
		}
	}
}

func TestFinishVetoAndDirect(t *testing.T) {
	r := toyExtract(t, "Sun Quan married Lady Sun to Liu Bei. Emperor Liu Xie was born in 181.", nil, nil)
	want := "Lady Sun spouse_of Liu Bei|Liu Xie held_office Emperor|Liu Xie born_in 181"
	if got := strings.Join(triples(r), "|"); got != want {
		t.Fatalf("triples: %s", got)
	}
}

func TestFinishEvidence(t *testing.T) {
	text := "  Zhang Fei was born in Zhuo.  Guan Yu and Zhang Fei were brothers.  "
	r := toyExtract(t, text, nil, nil)
	rs := []rune(text)
	for _, x := range r.Triples {
		ev := string(rs[x.Evidence.Start:x.Evidence.End])
		if ev != "Zhang Fei was born in Zhuo." && ev != "Guan Yu and Zhang Fei were brothers." {
			t.Errorf("evidence %q", ev)
		}
	}
	if len(r.Triples) != 2 {
		t.Fatalf("triples: %v", triples(r))
	}
}

func TestFinishRemembersNames(t *testing.T) {
	doc := extract.NewDocContext("d", "", nil)
	toyExtract(t, "Zhuge Liang , known as Kongming , was born in Langya. Wei Yan served Shu. Xu married Huang.", doc, nil)
	for name, canon := range map[string]string{"Zhuge Liang": "Zhuge Liang", "Kongming": "Zhuge Liang", "Langya": "Langya", "Wei Yan": "Wei Yan"} {
		if doc.Names[name] != canon {
			t.Errorf("%s: %q, want %q", name, doc.Names[name], canon)
		}
	}
	if doc.Types["Zhuge Liang"] != "person" || doc.Types["Langya"] != "place" {
		t.Errorf("types %v", doc.Types)
	}
	// One word is too little to be sure of a person's full name.
	if _, ok := doc.Names["Xu"]; ok {
		t.Errorf("single-word person recorded: %v", doc.Names)
	}
	// A later chunk resolves the short name and the alias.
	r := toyExtract(t, "Liang was born in 181.", doc, nil)
	if len(r.Entities) == 0 || r.Entities[0].Text != "Liang" || r.Entities[0].Name != "Zhuge Liang" {
		t.Fatalf("entities %+v", r.Entities)
	}
	if got := strings.Join(triples(r), "|"); got != "Zhuge Liang born_in 181" {
		t.Fatalf("triples: %s", got)
	}
}

func TestExtractEdges(t *testing.T) {
	if r := toyExtract(t, " \n\t ", nil, nil); len(r.Entities)+len(r.Triples) != 0 {
		t.Fatalf("blank text: %+v", r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := toyLang.Extract(ctx, extract.Input{Text: "Liu Bei was born in Zhuo."}, func(s *Sent) Reader { return toy{s} })
	if err == nil {
		t.Fatal("cancelled context not reported")
	}
}

func TestEncode(t *testing.T) {
	rs := []rune("Emperor Liu Xie quietly wrote , “ Shu ” * 10")
	s := NewSent(rs, toyLang.Tokenize(rs, 0, len(rs)), NewNames(extract.NewDocContext("", "", nil), toyLang.Names))
	toy{s}.build()
	enc, words := s.encode(0, len(s.Toks), toy{s})
	// The hidden office and the skipped adverb are left out, quotes and
	// emphasis too; untyped mentions are "u".
	if want := " @person#1  wrote  ,  “  @u#2  ”  @time#3 "; enc != want {
		t.Fatalf("got %q, want %q", enc, want)
	}
	if !words["wrote"] || words["quietly"] || len(words) != 4 {
		t.Fatalf("words %v", words)
	}
}

func TestWindows(t *testing.T) {
	// 450 words with a comma before every 40th.
	var sb strings.Builder
	for i := range 450 {
		if i%40 == 39 {
			sb.WriteString(", ")
		}
		sb.WriteString("w ")
	}
	rs := []rune(sb.String())
	s := NewSent(rs, toyLang.Tokenize(rs, 0, len(rs)), nil)
	n := len(s.Toks)
	ws := s.windows()
	if len(ws) < 3 || ws[0][0] != 0 || ws[len(ws)-1][1] != n {
		t.Fatalf("windows %v of %d", ws, n)
	}
	for i, w := range ws {
		if w[1]-w[0] > maxWindow || (i > 0 && w[0] != ws[i-1][1]) {
			t.Fatalf("windows %v", ws)
		}
		if w[1] < n && s.Toks[w[1]-1].Text != "," {
			t.Errorf("window %v does not end after a comma", w)
		}
	}
	// A mention over the comma where a window would end keeps it whole.
	s.Add(150, 170, "person", "")
	for _, w := range s.windows() {
		if w[0] > 150 && w[0] < 170 {
			t.Fatalf("window %v cuts a mention", w)
		}
	}
}

func TestNames(t *testing.T) {
	doc := extract.NewDocContext("d", "", nil)
	doc.Names["Sun Quan"], doc.Types["Sun Quan"] = "Sun Quan", "person"
	doc.Names["Sun Ce"], doc.Types["Sun Ce"] = "Sun Ce", "person"
	doc.Names["Jianye"], doc.Types["Jianye"] = "Jianye", "place"
	rules := NameRules{
		Shorts:   func(ws []string) []string { return []string{ws[0], strings.Join(ws[1:], " ")} },
		Key:      strings.ToLower,
		MaxShort: 1,
	}
	n := NewNames(doc, rules)
	if got := n.Person("QUAN"); got != "Sun Quan" {
		t.Errorf("QUAN: %q", got)
	}
	// A short form two people share stays unresolved, though it is known.
	if got := n.Short("Sun"); got != "" || !n.Known("Sun") {
		t.Errorf("Sun: %q", got)
	}
	if c, typ := n.Lookup("Jianye"); c != "Jianye" || typ != "place" || n.Person("Jianye") != "" {
		t.Errorf("Jianye: %q %q", c, typ)
	}
	n.record("Zhou Gongjin Yu", "person")
	// Longer than MaxShort: not looked up as a short form.
	if n.Short("gongjin yu") != "Zhou Gongjin Yu" || n.Person("Gongjin Yu") != "" {
		t.Errorf("long short form")
	}
	n.alias("Meilang", "Zhou Gongjin Yu")
	n.alias("Jianye", "Moling")
	if c, _ := n.Lookup("Meilang"); c != "Zhou Gongjin Yu" || doc.Names["Jianye"] != "Jianye" {
		t.Errorf("aliases: %v", doc.Names)
	}
	// A fresh index over the same document finds what was recorded.
	if NewNames(doc, rules).Short("Zhou") != "Zhou Gongjin Yu" {
		t.Errorf("record not kept in the document")
	}
}
