package regex

import (
	"encoding/json"
	"fmt"
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/schema"
	"github.com/annals-project/annals/internal/text"
)

// Pattern is a regular expression for one writing pattern together with
// what its named groups mean in a schema.
//
// Go's regexp accepts only ASCII letters, digits and _ in group names, so
// the meaning is not encoded in the names: Groups maps each named group to
// an entity type, and Relations lists the triples read between groups, for
// example
//
//	{"regex": "(?P<p>\\p{Han}{2,3})，字(?P<z>\\p{Han}{1,2})，",
//	 "groups": {"p": "人物", "z": "人物"},
//	 "relations": [{"head": "p", "relation": "别称", "tail": "z", "alias_kind": "字"}]}
//
// Every named group is a slot; unnamed groups are ignored.
type Pattern struct {
	Regex     string            `json:"regex"`
	Groups    map[string]string `json:"groups"`
	Relations []Edge            `json:"relations"`
	// Schema names the schema the types belong to; the pattern is tried
	// only on inputs bound by it.
	Schema string `json:"schema,omitempty"`
	// Lang is the language it was written for (lzh and zh count as one).
	Lang string `json:"lang,omitempty"`
	// Example is text the pattern matched, shown to the LLM beside it.
	Example string `json:"example,omitempty"`
	// Source is where the pattern came from: seed or llm.
	Source string `json:"source,omitempty"`
}

// Edge is one relation a pattern reads: head group → relation → tail group.
type Edge struct {
	Head      string `json:"head"`
	Relation  string `json:"relation"`
	Tail      string `json:"tail"`
	AliasKind string `json:"alias_kind,omitempty"` // 字, 号 … on an alias relation
}

// key identifies a pattern by what it does.
func (p Pattern) key() string {
	names := make([]string, 0, len(p.Groups))
	for g := range p.Groups {
		names = append(names, g)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(p.Schema)
	b.WriteByte(0)
	b.WriteString(p.Regex)
	for _, g := range names {
		fmt.Fprintf(&b, "\x00%s=%s", g, p.Groups[g])
	}
	e, _ := json.Marshal(p.Relations)
	b.Write(e)
	return b.String()
}

// Limits on what the LLM may hand us.
const (
	maxRegexBytes = 2048
	// maxInsts bounds the compiled program: matching costs up to its size
	// per character, and \p{Han}{1000} is short to write but large to run.
	maxInsts   = 4000
	maxMatches = 4096 // per chunk and pattern
)

// failure is why a pattern was refused; kind picks the counter.
type failure struct {
	kind int
	msg  string
}

const (
	failCompile = iota
	failReject
	failNoMatch
)

func (f *failure) Error() string { return f.msg }

func reject(format string, a ...any) *failure {
	return &failure{kind: failReject, msg: fmt.Sprintf(format, a...)}
}

// compile parses and checks the schema-independent part of a pattern.
func compile(p Pattern) (*regexp.Regexp, *failure) {
	if strings.TrimSpace(p.Regex) == "" {
		return nil, reject("the reply has no regex")
	}
	if len(p.Regex) > maxRegexBytes {
		return nil, reject("the regex is longer than %d bytes", maxRegexBytes)
	}
	// Parse first: the size check is cheaper than compiling a huge program.
	tree, err := syntax.Parse(p.Regex, syntax.Perl)
	if err != nil {
		return nil, &failure{kind: failCompile, msg: fmt.Sprintf("the regex does not compile: %v", err)}
	}
	if prog, err := syntax.Compile(tree.Simplify()); err != nil || len(prog.Inst) > maxInsts {
		return nil, reject("the regex is too complex; use shorter repetition counts")
	}
	re, err := regexp.Compile(p.Regex)
	if err != nil {
		return nil, &failure{kind: failCompile, msg: fmt.Sprintf("the regex does not compile: %v", err)}
	}
	if re.MatchString("") {
		return nil, reject("the regex matches the empty string")
	}
	if !cue(tree) {
		return nil, reject("the regex has no fixed word outside its named groups, so it would match any text; spell out the formula's own words (字, 拜, 为 …) literally")
	}
	return re, nil
}

// cue reports whether every match of re must contain a fixed letter that no
// named group captures: the formula's own words (字, 人, 拜). A regex
// without one matches prose at large, not a writing pattern.
func cue(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if unicode.IsLetter(r) {
				return true
			}
		}
	case syntax.OpCharClass:
		// A short list of letters (卒|薨 parses as [卒薨]) is still a cue;
		// a range like \p{Han} is not.
		n := 0
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			n += int(hi-lo) + 1
			if n > 16 {
				return false
			}
			for r := lo; r <= hi; r++ {
				if !unicode.IsLetter(r) {
					return false
				}
			}
		}
		return n > 0
	case syntax.OpCapture:
		return re.Name == "" && cue(re.Sub[0])
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if cue(s) {
				return true
			}
		}
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			if !cue(s) {
				return false
			}
		}
		return len(re.Sub) > 0
	case syntax.OpPlus:
		return cue(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min >= 1 && cue(re.Sub[0])
	}
	return false
}

// binding is a compiled pattern read against one schema.
type binding struct {
	re    *regexp.Regexp
	types []string // entity type by submatch index; "" for unnamed groups
	edges []edge
}

type edge struct {
	h, t      int
	rel, kind string
}

// bind maps the pattern's groups and relations onto sch. Every named group
// must have a type the schema knows and every listed group must exist;
// relations that the schema does not allow between the groups' types are
// dropped, and a pattern left with none is refused, since it reads no fact.
func bind(re *regexp.Regexp, p Pattern, sch *schema.Schema) (*binding, *failure) {
	b := &binding{re: re, types: make([]string, re.NumSubexp()+1)}
	index := map[string]int{}
	for i, name := range re.SubexpNames() {
		if name == "" {
			continue
		}
		if _, dup := index[name]; dup {
			return nil, reject("group name %q is used twice", name)
		}
		index[name] = i
		typ, ok := p.Groups[name]
		if !ok {
			return nil, reject("group %q has no entry in groups", name)
		}
		if !sch.HasEntityType(typ) {
			return nil, reject("group %q: %q is not an entity type (use one of %s)", name, typ, strings.Join(sch.EntityTypeNames(), ", "))
		}
		b.types[i] = typ
	}
	if len(index) == 0 {
		return nil, reject("the regex has no named groups")
	}
	for g := range p.Groups {
		if _, ok := index[g]; !ok {
			return nil, reject("groups names %q, which the regex does not define", g)
		}
	}
	var why []string
	type ekey struct {
		h, t int
		rel  string
	}
	seen := map[ekey]bool{}
	for _, e := range p.Relations {
		h, hok := index[e.Head]
		t, tok := index[e.Tail]
		switch {
		case !hok || !tok || h == t:
			why = append(why, fmt.Sprintf("%s %s %s: head and tail must be two different groups", e.Head, e.Relation, e.Tail))
		case sch.Relation(e.Relation) == nil:
			why = append(why, fmt.Sprintf("%q is not a relation of the schema", e.Relation))
		case !sch.Allows(b.types[h], e.Relation, b.types[t]):
			why = append(why, fmt.Sprintf("%s does not go from %s to %s", e.Relation, b.types[h], b.types[t]))
		case seen[ekey{h, t, e.Relation}]:
		default:
			seen[ekey{h, t, e.Relation}] = true
			b.edges = append(b.edges, edge{h: h, t: t, rel: e.Relation, kind: aliasKind(sch, e)})
		}
	}
	if len(b.edges) == 0 {
		msg := "no relation fits the schema"
		if len(why) > 0 {
			msg += ": " + strings.Join(why, "; ")
		}
		return nil, reject("%s", msg)
	}
	return b, nil
}

func isAlias(rel string) bool { return rel == "别称" || rel == "alias_of" }

// aliasKind keeps the kind of an alias only when the schema names it as an
// attribute that is a name, so a reply cannot invent kinds.
func aliasKind(sch *schema.Schema, e Edge) string {
	if !isAlias(e.Relation) || e.AliasKind == "" {
		return ""
	}
	for _, a := range sch.AttributeTypes {
		if a.Name == e.AliasKind && extract.IsNameKind(a.Name) {
			return a.Name
		}
	}
	return ""
}

// chunk is the text a pattern is applied to, with its offset tables.
type chunk struct {
	s     string
	runes []rune
	pos   []int // byte offset → code point offset
	sents []kg.Span
	doc   *extract.DocContext
}

func newChunk(in extract.Input) *chunk {
	c := &chunk{s: in.Text, runes: []rune(in.Text), pos: make([]int, len(in.Text)+1), doc: in.Doc}
	// Invalid bytes decode one at a time as U+FFFD, as []rune does, so the
	// two tables agree; a byte inside a character maps to that character.
	n := 0
	for b := 0; b < len(c.s); {
		_, w := utf8.DecodeRuneInString(c.s[b:])
		for k := 0; k < w; k++ {
			c.pos[b+k] = n
		}
		n++
		b += w
	}
	c.pos[len(c.s)] = n
	lang := in.Lang
	if lang == "" {
		lang = text.DetectLanguage(in.Text)
	}
	c.sents = text.Sentences(in.Text, lang)
	return c
}

// sentence is the index of the sentence holding code point p, or -1.
func (c *chunk) sentence(p int) int {
	i := sort.Search(len(c.sents), func(i int) bool { return c.sents[i].End > p })
	if i < len(c.sents) && c.sents[i].Start <= p {
		return i
	}
	return -1
}

// evidence is the sentences from the one holding a to the one holding b-1.
func (c *chunk) evidence(a, b int) kg.Span {
	sp := kg.Span{Start: a, End: b}
	if i := c.sentence(a); i >= 0 {
		sp.Start = min(sp.Start, c.sents[i].Start)
	}
	if i := c.sentence(b - 1); i >= 0 {
		sp.End = max(sp.End, c.sents[i].End)
	}
	return sp
}

// breaks are characters no entity contains: a capture holding one has run
// past the name it was meant to hold.
const breaks = "\n\r\t。！？；，、：「」『』“”（）《》【】!?;,()"

// mention turns the bytes [b0,b1) of a capture into a mention, or reports
// that they hold no plausible one.
func (c *chunk) mention(b0, b1 int, typ string, maxRunes int) (extract.Entity, bool) {
	for b0 < b1 {
		r, w := utf8.DecodeRuneInString(c.s[b0:b1])
		if !unicode.IsSpace(r) {
			break
		}
		b0 += w
	}
	for b1 > b0 {
		r, w := utf8.DecodeLastRuneInString(c.s[b0:b1])
		if !unicode.IsSpace(r) {
			break
		}
		b1 -= w
	}
	start, end := c.pos[b0], c.pos[b1]
	if start >= end || end-start > maxRunes {
		return extract.Entity{}, false
	}
	rs := c.runes[start:end]
	word := false
	for _, r := range rs {
		if strings.ContainsRune(breaks, r) || r == utf8.RuneError {
			return extract.Entity{}, false
		}
		word = word || unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	if !word {
		return extract.Entity{}, false
	}
	e := extract.Entity{Text: string(rs), Type: typ, Span: kg.Span{Start: start, End: end}}
	if c.doc != nil {
		if n := c.doc.Names[e.Text]; n != "" && n != e.Text {
			e.Name = n
		}
	}
	return e, true
}

// limits bound what one application may claim.
type limits struct {
	maxRunes    int     // longest mention
	maxCoverage float64 // largest share of the chunk inside captures
}

// apply runs the pattern over the chunk. Byte offsets from the regexp are
// turned into code points here, once.
func (b *binding) apply(c *chunk, lim limits) (extract.Result, *failure) {
	var res extract.Result
	ms := b.re.FindAllStringSubmatchIndex(c.s, maxMatches)
	if len(ms) == 0 {
		return res, &failure{kind: failNoMatch, msg: "the regex matches nothing in the passage"}
	}
	covered := make([]bool, len(c.runes))
	ncovered := 0
	type ekey struct {
		sp  kg.Span
		typ string
	}
	seen := map[ekey]bool{}
	type tkey struct {
		h, t kg.Span
		rel  string
	}
	said := map[tkey]bool{}
	got := make([]*extract.Entity, len(b.types))
	for _, m := range ms {
		if m[0] == m[1] {
			return extract.Result{}, reject("the regex matches empty text inside the passage")
		}
		for g := range got {
			got[g] = nil
		}
		for g := 1; g < len(b.types); g++ {
			if b.types[g] == "" || m[2*g] < 0 {
				continue
			}
			e, ok := c.mention(m[2*g], m[2*g+1], b.types[g], lim.maxRunes)
			if !ok {
				continue
			}
			got[g] = &e
			for i := e.Start; i < e.End; i++ {
				if !covered[i] {
					covered[i] = true
					ncovered++
				}
			}
			if k := (ekey{e.Span, e.Type}); !seen[k] {
				seen[k] = true
				res.Entities = append(res.Entities, e)
			}
		}
		for _, ed := range b.edges {
			h, t := got[ed.h], got[ed.t]
			if h == nil || t == nil || h.Span == t.Span || said[tkey{h.Span, t.Span, ed.rel}] {
				continue
			}
			said[tkey{h.Span, t.Span, ed.rel}] = true
			tail := *t
			if isAlias(ed.rel) {
				// An alias is the name as written, not whom it resolves to.
				tail.Name = ""
			}
			res.Triples = append(res.Triples, extract.Triple{
				Head: *h, Relation: ed.rel, Tail: tail, AliasKind: ed.kind,
				Evidence: c.evidence(min(h.Start, t.Start), max(h.End, t.End)),
			})
		}
	}
	if float64(ncovered) > lim.maxCoverage*float64(len(c.runes)) {
		return extract.Result{}, reject("the regex is too broad: its groups capture %d of the passage's %d characters", ncovered, len(c.runes))
	}
	if len(res.Triples) == 0 {
		return extract.Result{}, &failure{kind: failNoMatch, msg: "the regex matches, but no match yields a relation with plausible names in both groups"}
	}
	return res, nil
}
