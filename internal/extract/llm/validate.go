package llmextract

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/schema"
	"github.com/annals-project/annals/internal/text"
)

// Reasons an item of a reply is dropped, as counted in Counts.Dropped.
const (
	DropEntityEmpty     = "entity_empty"
	DropEntityNotName   = "entity_not_a_name"
	DropEntityType      = "entity_unknown_type"
	DropEntityNotInText = "entity_not_in_text"
	DropTripleEmpty     = "triple_incomplete"
	DropTripleNotName   = "triple_not_a_name"
	DropRelation        = "triple_unknown_relation"
	DropTripleNotInText = "triple_not_in_text"
	DropUntyped         = "triple_untyped"
	DropDomainRange     = "triple_domain_range"
	DropSelf            = "triple_self"
	DropDuplicate       = "triple_duplicate"
	DropAttrEmpty       = "attribute_incomplete"
	DropAttrType        = "attribute_unknown_type"
	DropAttrNotName     = "attribute_not_a_name"
	DropAttrValue       = "attribute_not_a_value"
	DropAttrEntity      = "attribute_entity_not_named"
	DropAttrNotInText   = "attribute_not_in_text"
	DropAttrUntyped     = "attribute_untyped"
	DropAttrDuplicate   = "attribute_duplicate"
	DropProposal        = "proposal_invalid"
	DropProposalExists  = "proposal_exists"
)

// Names are short; a long "entity" is a sentence or an instruction.
const (
	maxEntityRunes = 40
	maxHanRunes    = 16
)

// nameLike reports whether s could be a name: short, and free of the
// punctuation that ends or divides clauses.
func nameLike(s string) bool {
	n := utf8.RuneCountInString(s)
	if n > maxEntityRunes || strings.ContainsAny(s, "，。；！？、：\n;!?") {
		return false
	}
	return n <= maxHanRunes || strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) < 0
}

const maxProposals = 5

// chunk is the text a reply is checked against, with the forms used to
// find names in it.
type chunk struct {
	runes []rune
	simp  []rune // each character simplified
	fold  []rune // simplified and lower-cased
	sents []kg.Span
}

func newChunk(s, lang string) *chunk {
	c := &chunk{runes: []rune(s)}
	c.simp = make([]rune, len(c.runes))
	c.fold = make([]rune, len(c.runes))
	for i, r := range c.runes {
		c.simp[i] = text.SimplifiedRune(r)
		c.fold[i] = unicode.ToLower(c.simp[i])
	}
	c.sents = text.Sentences(s, lang)
	return c
}

func (c *chunk) slice(sp kg.Span) string { return string(c.runes[sp.Start:sp.End]) }

// clean trims what models put around names: spaces, quotes, brackets.
func clean(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("\"'“”‘’「」『』《》〈〉`*", r)
	})
}

// key is the form names are compared in: simplified, lower-cased, NFC.
func key(s string) string {
	rs := []rune(norm.NFC.String(s))
	for i, r := range rs {
		rs[i] = unicode.ToLower(text.SimplifiedRune(r))
	}
	return string(rs)
}

func simplified(s string) string {
	rs := []rune(s)
	for i, r := range rs {
		rs[i] = text.SimplifiedRune(r)
	}
	return string(rs)
}

// find returns every occurrence of needle: matching simplified characters
// exactly, else ignoring case; in the needle's own normal form, else NFC,
// else NFD.
func (c *chunk) find(needle string) []kg.Span {
	needle = clean(needle)
	if needle == "" {
		return nil
	}
	variants := []string{needle}
	for _, v := range []string{norm.NFC.String(needle), norm.NFD.String(needle)} {
		if v != variants[0] && (len(variants) < 2 || v != variants[1]) {
			variants = append(variants, v)
		}
	}
	for _, fold := range []bool{false, true} {
		for _, v := range variants {
			if out := c.findRunes([]rune(v), fold); len(out) > 0 {
				return out
			}
		}
	}
	return nil
}

func (c *chunk) findRunes(nr []rune, fold bool) []kg.Span {
	hay := c.simp
	for i, r := range nr {
		nr[i] = text.SimplifiedRune(r)
		if fold {
			nr[i] = unicode.ToLower(nr[i])
		}
	}
	if fold {
		hay = c.fold
	}
	var out []kg.Span
	n := len(nr)
	for i := 0; i+n <= len(hay); i++ {
		if hay[i] != nr[0] || !equalRunes(hay[i:i+n], nr) {
			continue
		}
		// Latin-script names match whole words only: Wu is not in Wuchang.
		if wordRune(nr[0]) && i > 0 && wordRune(c.runes[i-1]) {
			continue
		}
		if wordRune(nr[n-1]) && i+n < len(hay) && wordRune(c.runes[i+n]) {
			continue
		}
		out = append(out, kg.Span{Start: i, End: i + n})
	}
	return out
}

func equalRunes(a, b []rune) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func wordRune(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)) && !unicode.Is(unicode.Han, r)
}

// sentAt returns the index of the sentence holding code point p, or -1.
func (c *chunk) sentAt(p int) int {
	i := sort.Search(len(c.sents), func(i int) bool { return c.sents[i].End > p })
	if i < len(c.sents) && c.sents[i].Start <= p {
		return i
	}
	return -1
}

// evidence is the sentence holding both spans, else the run of sentences
// from the one holding the first to the one holding the last.
func (c *chunk) evidence(a, b kg.Span) kg.Span {
	lo, hi := min(a.Start, b.Start), max(a.End, b.End)
	i, j := c.sentAt(lo), c.sentAt(hi-1)
	if i < 0 || j < 0 {
		return kg.Span{Start: lo, End: hi}
	}
	return kg.Span{Start: min(lo, c.sents[i].Start), End: max(hi, c.sents[j].End)}
}

// validator turns a reply into facts, keeping only what the chunk and the
// schema support.
type validator struct {
	c       *chunk
	s       *schema.Schema
	doc     *extract.DocContext
	dropped map[string]int

	known map[string]bool // canonical names the document has seen
}

func (v *validator) drop(reason string) { v.dropped[reason]++ }

// entityType maps a type as the model wrote it onto a schema type.
func (v *validator) entityType(t string) (string, bool) {
	t = clean(t)
	if t == "" {
		return "", false
	}
	if v.s.HasEntityType(t) {
		return t, true
	}
	k := key(t)
	if k == "organization" {
		k = "organisation"
	}
	for _, n := range v.s.EntityTypeNames() {
		if key(n) == k {
			return n, true
		}
	}
	return "", false
}

// relation maps a relation as the model wrote it onto a schema relation.
func (v *validator) relation(r string) (string, bool) {
	r = clean(r)
	if r == "" {
		return "", false
	}
	if v.s.Relation(r) != nil {
		return r, true
	}
	k := strings.NewReplacer(" ", "_", "-", "_").Replace(key(r))
	for _, n := range v.s.RelationTypeNames() {
		if key(n) == k {
			return n, true
		}
	}
	return "", false
}

// isKnown reports whether name is a canonical name the document has met.
func (v *validator) isKnown(name string) bool {
	if v.doc == nil {
		return false
	}
	if v.known == nil {
		v.known = map[string]bool{}
		for _, full := range v.doc.Names {
			v.known[full] = true
		}
		for n := range v.doc.Types {
			v.known[n] = true
		}
	}
	return v.known[name]
}

// canonical is the full name a surface refers to when it differs from the
// surface: the model's, if the chunk or the document bears it out, else
// the document's.
func (v *validator) canonical(surface, given string) string {
	given = simplified(clean(given))
	// A full name counts when the chunk or the document bears it out, or
	// when it contains the short form (维 of 姜维).
	n := utf8.RuneCountInString(given)
	if given != "" && key(given) != key(surface) && n <= maxEntityRunes && !strings.ContainsAny(given, "，。；！？、;!?\n") &&
		(strings.Contains(key(given), key(surface)) && n <= 2*utf8.RuneCountInString(surface)+4 ||
			len(v.c.find(given)) > 0 || v.isKnown(given)) {
		return given
	}
	if v.doc != nil {
		if full, ok := v.doc.Names[surface]; ok && full != surface {
			return full
		}
	}
	return ""
}

type mention struct {
	extract.Entity
	order int
}

// run validates a reply against the chunk.
func (v *validator) run(r reply) extract.Result {
	types := map[string][]string{}    // surface key → types the reply gave it
	surfaces := map[string][]string{} // canonical key → surfaces that name it
	var cands []mention
	for i, e := range r.Entities {
		t := clean(e.Text)
		switch {
		case t == "":
			v.drop(DropEntityEmpty)
			continue
		case !nameLike(t):
			v.drop(DropEntityNotName)
			continue
		}
		typ, ok := v.entityType(e.Type)
		if !ok {
			v.drop(DropEntityType)
			continue
		}
		occ := v.c.find(t)
		if len(occ) == 0 {
			v.drop(DropEntityNotInText)
			continue
		}
		k := key(t)
		types[k] = appendNew(types[k], typ)
		for _, sp := range occ {
			surface := v.c.slice(sp)
			name := v.canonical(surface, e.Name)
			if name != "" {
				surfaces[key(name)] = appendNew(surfaces[key(name)], surface)
			}
			cands = append(cands, mention{extract.Entity{Text: surface, Type: typ, Span: sp, Name: name}, i})
		}
	}
	mentions := longestFirst(cands)
	// A triple whose relation is an attribute type is an attribute
	// (诸葛亮, 字, 孔明); an attribute named as a relation is a triple
	// (司马光, 籍贯, 陕州夏县): the relation reaches an entity.
	var rawTriples []rawTriple
	var rawAttrs []rawAttribute
	for _, rt := range r.Triples {
		if _, ok := v.relation(rt.Relation); !ok {
			if _, ok := v.attribute(rt.Relation); ok {
				rawAttrs = append(rawAttrs, rawAttribute{Entity: rt.Head, EntityType: rt.HeadType, Attribute: rt.Relation, Value: rt.Tail, Evidence: rt.Evidence})
				continue
			}
		}
		rawTriples = append(rawTriples, rt)
	}
	for _, ra := range r.Attributes {
		_, isAttr := v.attribute(ra.Attribute)
		if rel, ok := v.relation(ra.Attribute); ok && !isAttr {
			rawTriples = append(rawTriples, rawTriple{Head: ra.Entity, HeadType: ra.EntityType, Relation: rel, Tail: ra.Value, Evidence: ra.Evidence})
			continue
		}
		rawAttrs = append(rawAttrs, ra)
	}
	// Types written with triple ends count for every use of the name.
	for _, rt := range rawTriples {
		for _, e := range [][2]string{{rt.Head, rt.HeadType}, {rt.Tail, rt.TailType}} {
			if typ, ok := v.entityType(e[1]); ok && clean(e[0]) != "" {
				k := key(clean(e[0]))
				types[k] = appendNew(types[k], typ)
			}
		}
	}

	var res extract.Result
	seen := map[tkey]bool{}
	for _, rt := range rawTriples {
		h, t := clean(rt.Head), clean(rt.Tail)
		if h == "" || t == "" || clean(rt.Relation) == "" {
			v.drop(DropTripleEmpty)
			continue
		}
		if !nameLike(h) || !nameLike(t) {
			v.drop(DropTripleNotName)
			continue
		}
		rel, ok := v.relation(rt.Relation)
		if !ok {
			v.drop(DropRelation)
			continue
		}
		hOcc, hName := v.locate(h, surfaces)
		tOcc, tName := v.locate(t, surfaces)
		if len(hOcc) == 0 || len(tOcc) == 0 {
			v.drop(DropTripleNotInText)
			continue
		}
		hs, ts, ok := v.pair(hOcc, tOcc, mentions, rt.Evidence)
		if !ok {
			v.drop(DropSelf)
			continue
		}
		rtype := v.s.Relation(rel)
		hTypes := v.typesFor(v.c.slice(hs), hName, rt.HeadType, types)
		tTypes := v.typesFor(v.c.slice(ts), tName, rt.TailType, types)
		// An end the reply left untyped may take the relation's only type
		// for that side, but only when the other end is typed: with both
		// guessed, a reversed triple would pass the domain and range check.
		if len(hTypes) == 0 && len(tTypes) > 0 && len(rtype.Domain) == 1 {
			hTypes = rtype.Domain
		}
		if len(tTypes) == 0 && len(hTypes) > 0 && len(rtype.Range) == 1 {
			tTypes = rtype.Range
		}
		if len(hTypes) == 0 || len(tTypes) == 0 {
			v.drop(DropUntyped)
			continue
		}
		ht, tt, ok := v.allowed(hTypes, rel, tTypes)
		if !ok {
			v.drop(DropDomainRange)
			continue
		}
		head := v.entityAt(hs, ht, hName, mentions)
		tail := v.entityAt(ts, tt, tName, mentions)
		alias := rel == "别称" || rel == "alias_of"
		if alias {
			// An alias is the name as written, not whom it resolves to.
			tail.Name = ""
			if key(head.Text) == key(tail.Text) {
				v.drop(DropSelf)
				continue
			}
		} else if key(head.Canonical()) == key(tail.Canonical()) {
			v.drop(DropSelf)
			continue
		}
		k := tkey{hs, ts, rel}
		if rtype.Symmetric && ts.Start < hs.Start {
			k = tkey{ts, hs, rel}
		}
		if seen[k] {
			v.drop(DropDuplicate)
			continue
		}
		seen[k] = true
		tr := extract.Triple{Head: head, Relation: rel, Tail: tail, Evidence: v.c.evidence(hs, ts)}
		if alias {
			tr.AliasKind = v.aliasKind(ts)
		}
		res.Triples = append(res.Triples, tr)
		mentions = addMention(mentions, head)
		mentions = addMention(mentions, tail)
	}
	mentions = v.attributes(r, rawAttrs, surfaces, types, mentions, seen, &res)
	sort.SliceStable(mentions, func(i, j int) bool { return mentions[i].Start < mentions[j].Start })
	for _, m := range mentions {
		res.Entities = append(res.Entities, m.Entity)
	}
	sort.SliceStable(res.Triples, func(a, b int) bool {
		ta, tb := res.Triples[a], res.Triples[b]
		if ta.Evidence.Start != tb.Evidence.Start {
			return ta.Evidence.Start < tb.Evidence.Start
		}
		return ta.Head.Start < tb.Head.Start
	})
	sort.SliceStable(res.Attributes, func(a, b int) bool {
		x, y := res.Attributes[a], res.Attributes[b]
		if x.Evidence.Start != y.Evidence.Start {
			return x.Evidence.Start < y.Evidence.Start
		}
		return x.At.Start < y.At.Start
	})
	v.learn(res)
	return res
}

type tkey struct {
	h, t kg.Span
	r    string
}

// attributes validates the reply's attributes: a type of the schema, an
// entity the reply names and the chunk holds, a value found in the chunk.
// An attribute that is a name (字 孔明) is also an alias triple of its kind,
// as the alias relation of the schema, so that the name finds the entity.
func (v *validator) attributes(r reply, raw []rawAttribute, surfaces, types map[string][]string, mentions []mention, seen map[tkey]bool, res *extract.Result) []mention {
	if len(raw) == 0 {
		return mentions
	}
	named := map[string]bool{}
	for _, e := range r.Entities {
		named[key(clean(e.Text))] = true
		named[key(clean(e.Name))] = true
	}
	for _, t := range r.Triples {
		named[key(clean(t.Head))] = true
		named[key(clean(t.Tail))] = true
	}
	delete(named, "")
	type akey struct {
		entity, name string
		at           kg.Span
	}
	done := map[akey]bool{}
	aliasRel := ""
	for _, rel := range []string{"别称", "alias_of"} {
		if v.s.Relation(rel) != nil {
			aliasRel = rel
			break
		}
	}
	for _, ra := range raw {
		ent, val, an := clean(ra.Entity), clean(ra.Value), clean(ra.Attribute)
		if ent == "" || val == "" || an == "" {
			v.drop(DropAttrEmpty)
			continue
		}
		name, ok := v.attribute(an)
		if !ok {
			// Written the other way round: 孔明(字).
			if name, ok = v.attribute(val); ok {
				val = an
			}
		}
		if !ok {
			v.drop(DropAttrType)
			continue
		}
		if !nameLike(ent) {
			v.drop(DropAttrNotName)
			continue
		}
		if !valueLike(val) {
			v.drop(DropAttrValue)
			continue
		}
		if !named[key(ent)] {
			v.drop(DropAttrEntity)
			continue
		}
		eOcc, eName := v.locate(ent, surfaces)
		vOcc := v.c.find(val)
		if len(eOcc) == 0 || len(vOcc) == 0 {
			v.drop(DropAttrNotInText)
			continue
		}
		es, vs, ok := v.pair(eOcc, vOcc, mentions, ra.Evidence)
		if !ok {
			v.drop(DropAttrNotInText)
			continue
		}
		ts := v.typesFor(v.c.slice(es), eName, ra.EntityType, types)
		if len(ts) == 0 {
			for _, m := range mentions {
				if m.Span == es {
					ts = []string{m.Type}
				}
			}
		}
		if len(ts) == 0 {
			v.drop(DropAttrUntyped)
			continue
		}
		entity := v.entityAt(es, ts[0], eName, mentions)
		value := v.c.slice(vs)
		if key(entity.Canonical()) == key(value) || key(entity.Text) == key(value) {
			v.drop(DropSelf)
			continue
		}
		k := akey{key(entity.Canonical()), name, vs}
		if done[k] {
			v.drop(DropAttrDuplicate)
			continue
		}
		done[k] = true
		ev := v.c.evidence(es, vs)
		res.Attributes = append(res.Attributes, extract.Attribute{Entity: entity, Name: name, Value: value, At: vs, Evidence: ev})
		mentions = addMention(mentions, entity)
		if !extract.IsNameKind(name) || aliasRel == "" || !v.s.Allows(entity.Type, aliasRel, entity.Type) {
			continue
		}
		tk := tkey{es, vs, aliasRel}
		if seen[tk] {
			for i := range res.Triples {
				t := &res.Triples[i]
				if t.Head.Span == es && t.Tail.Span == vs && t.Relation == aliasRel && t.AliasKind == "" {
					t.AliasKind = name
				}
			}
			continue
		}
		seen[tk] = true
		tail := extract.Entity{Text: value, Type: entity.Type, Span: vs}
		res.Triples = append(res.Triples, extract.Triple{Head: entity, Relation: aliasRel, Tail: tail, Evidence: ev, AliasKind: name})
		mentions = addMention(mentions, tail)
	}
	return mentions
}

// attrSynonyms are other words models use for the shipped schemas'
// attribute types.
var attrSynonyms = map[string][]string{
	"courtesy_name":   {"字"},
	"zi":              {"字", "courtesy_name"},
	"art_name":        {"号"},
	"hao":             {"号"},
	"posthumous_name": {"谥号"},
	"谥":               {"谥号", "posthumous_name"},
	"temple_name":     {"庙号"},
	"小字":              {"小名"},
	"childhood_name":  {"小名"},
	"生卒年":             {"生卒", "lifespan"},
	"lifespan":        {"生卒"},
	"字":               {"courtesy_name"},
	"谥号":              {"posthumous_name"},
	"庙号":              {"temple_name"},
	"名":               {"birth_name"},
	"tự":              {"courtesy_name"},
	"tên_thật":        {"birth_name"},
	"tên_húy":         {"birth_name"},
	"miếu_hiệu":       {"temple_name"},
	"thụy_hiệu":       {"posthumous_name"},
	"thụy":            {"posthumous_name"},
}

// attribute maps an attribute type as the model wrote it onto one of the
// schema's.
func (v *validator) attribute(a string) (string, bool) {
	a = clean(a)
	if a == "" || len(v.s.AttributeTypes) == 0 {
		return "", false
	}
	k := strings.NewReplacer(" ", "_", "-", "_").Replace(key(a))
	for _, t := range v.s.AttributeTypes {
		if t.Name == a || key(t.Name) == k {
			return t.Name, true
		}
	}
	for _, syn := range attrSynonyms[k] {
		for _, t := range v.s.AttributeTypes {
			if t.Name == syn {
				return t.Name, true
			}
		}
	}
	return "", false
}

// valueLike reports whether s could be an attribute's value: short, and
// not a sentence.
func valueLike(s string) bool {
	return utf8.RuneCountInString(s) <= maxEntityRunes && !strings.ContainsAny(s, "。；！？\n;!?")
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// longestFirst keeps, where mentions overlap, the longest (then the
// earliest listed): 诸葛亮 rather than the 亮 inside it.
func longestFirst(cands []mention) []mention {
	sort.SliceStable(cands, func(i, j int) bool {
		li, lj := cands[i].Span.Len(), cands[j].Span.Len()
		if li != lj {
			return li > lj
		}
		if cands[i].Start != cands[j].Start {
			return cands[i].Start < cands[j].Start
		}
		return cands[i].order < cands[j].order
	})
	var out []mention
	for _, c := range cands {
		out = addMention(out, c.Entity)
	}
	return out
}

func overlaps(a, b kg.Span) bool { return a.Start < b.End && b.Start < a.End }

// addMention adds e unless it overlaps a mention already there.
func addMention(ms []mention, e extract.Entity) []mention {
	for _, m := range ms {
		if overlaps(m.Span, e.Span) {
			return ms
		}
	}
	return append(ms, mention{Entity: e, order: len(ms)})
}

// locate finds a triple end in the chunk: as written, else through the
// surfaces the reply or the document gave for that full name. The second
// result is the full name when it was found that way.
func (v *validator) locate(s string, surfaces map[string][]string) ([]kg.Span, string) {
	if occ := v.c.find(s); len(occ) > 0 {
		return occ, ""
	}
	var occ []kg.Span
	for _, sf := range surfaces[key(s)] {
		occ = append(occ, v.c.find(sf)...)
	}
	if len(occ) == 0 && v.doc != nil {
		full := simplified(s)
		for short, f := range v.doc.Names {
			if f == full && short != f {
				occ = append(occ, v.c.find(short)...)
			}
		}
	}
	if len(occ) == 0 {
		return nil, ""
	}
	return occ, simplified(s)
}

// pair picks the occurrences of head and tail that the triple most likely
// reads: inside the quoted evidence when there is one, in the same or the
// nearest sentence, standing alone rather than inside a longer name,
// closest together.
func (v *validator) pair(hOcc, tOcc []kg.Span, ms []mention, quote string) (kg.Span, kg.Span, bool) {
	var quotes []kg.Span
	if q := clean(quote); utf8.RuneCountInString(q) >= 2 {
		quotes = v.c.find(q)
	}
	inQuote := func(a, b kg.Span) int {
		for _, q := range quotes {
			if q.Contains(a) && q.Contains(b) {
				return 0
			}
		}
		return 1
	}
	// Burial and sentence depend on one occurrence only: work them out once
	// per occurrence, not once per pair (names repeat often in a chunk).
	buried := func(s kg.Span) int {
		for _, m := range ms {
			if m.Span != s && m.Span.Contains(s) {
				return 1
			}
		}
		return 0
	}
	type occ struct {
		kg.Span
		sent, buried int
	}
	prep := func(spans []kg.Span) []occ {
		out := make([]occ, len(spans))
		for i, s := range spans {
			out[i] = occ{Span: s, sent: v.c.sentAt(s.Start), buried: buried(s)}
		}
		return out
	}
	hs, ts := prep(hOcc), prep(tOcc)
	best := [4]int{-1}
	var bh, bt kg.Span
	for _, h := range hs {
		for _, t := range ts {
			if overlaps(h.Span, t.Span) {
				continue
			}
			dist := max(h.Start, t.Start) - min(h.End, t.End)
			cost := [4]int{inQuote(h.Span, t.Span), abs(h.sent - t.sent), h.buried + t.buried, dist}
			if best[0] < 0 || less(cost, best) {
				best, bh, bt = cost, h.Span, t.Span
			}
		}
	}
	return bh, bt, best[0] >= 0
}

func less(a, b [4]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// typesFor lists the types a triple end may have, most trusted first: the
// one written with the triple, those the reply's entity list gave, the one
// the document remembers.
func (v *validator) typesFor(surface, name, explicit string, types map[string][]string) []string {
	var out []string
	if t, ok := v.entityType(explicit); ok {
		out = append(out, t)
	}
	for _, t := range types[key(surface)] {
		out = appendNew(out, t)
	}
	if name != "" {
		for _, t := range types[key(name)] {
			out = appendNew(out, t)
		}
	}
	if v.doc != nil {
		c := name
		if c == "" {
			c = surface
			if full, ok := v.doc.Names[surface]; ok {
				c = full
			}
		}
		if t, ok := v.entityType(v.doc.Types[c]); ok {
			out = appendNew(out, t)
		}
	}
	return out
}

func (v *validator) allowed(hTypes []string, rel string, tTypes []string) (string, string, bool) {
	for _, h := range hTypes {
		for _, t := range tTypes {
			if v.s.Allows(h, rel, t) {
				return h, t, true
			}
		}
	}
	return "", "", false
}

// entityAt is the entity for a triple end at sp.
func (v *validator) entityAt(sp kg.Span, typ, name string, ms []mention) extract.Entity {
	e := extract.Entity{Text: v.c.slice(sp), Type: typ, Span: sp, Name: name}
	if e.Name == "" {
		for _, m := range ms {
			if m.Span == sp {
				e.Name = m.Name
				break
			}
		}
	}
	if e.Name == "" {
		e.Name = v.canonical(e.Text, "")
	}
	if e.Name == e.Text {
		e.Name = ""
	}
	return e
}

// aliasKind reads the word before an alias: 字孔明, 号卧龙, 谥忠武.
func (v *validator) aliasKind(tail kg.Span) string {
	before := string(v.c.simp[max(0, tail.Start-2):tail.Start])
	switch {
	case strings.HasSuffix(before, "小字"), strings.HasSuffix(before, "小名"):
		return "小名"
	case strings.HasSuffix(before, "字"):
		return "字"
	case strings.HasSuffix(before, "号"):
		return "号"
	case strings.HasSuffix(before, "谥"), strings.HasSuffix(before, "谥曰"), strings.HasSuffix(before, "谥为"):
		return "谥号"
	}
	return ""
}

// learn records in the document context the full names and types this
// chunk established, for the chunks after it.
func (v *validator) learn(res extract.Result) {
	if v.doc == nil {
		return
	}
	if v.doc.Names == nil {
		v.doc.Names = map[string]string{}
	}
	if v.doc.Types == nil {
		v.doc.Types = map[string]string{}
	}
	add := func(e extract.Entity) {
		c := e.Canonical()
		if _, ok := v.doc.Names[e.Text]; !ok && e.Text != "" {
			v.doc.Names[e.Text] = c
		}
		if _, ok := v.doc.Types[c]; !ok && e.Type != "" && e.Type != "时间" && e.Type != "time" {
			v.doc.Types[c] = e.Type
		}
	}
	// An alias names its head: 鹏举 → 岳飞 for the chunks that follow.
	for _, t := range res.Triples {
		if t.Relation == "别称" || t.Relation == "alias_of" {
			if _, ok := v.doc.Names[t.Tail.Text]; !ok {
				v.doc.Names[t.Tail.Text] = t.Head.Canonical()
			}
		}
	}
	for _, e := range res.Entities {
		add(e)
	}
	for _, t := range res.Triples {
		add(t.Head)
		add(t.Tail)
	}
}

// proposals validates schema proposals: a known kind, a short name the
// schema lacks, a confidence in [0,1]; evidence only when the chunk holds
// it.
func (v *validator) proposals(raw []rawProposal, chunkID string) []schema.Proposal {
	var out []schema.Proposal
	attrs := map[string]bool{}
	for _, a := range v.s.AttributeTypes {
		attrs[a.Name] = true
	}
	for _, p := range raw {
		if len(out) == maxProposals {
			v.drop(DropProposal)
			continue
		}
		kind := strings.ToLower(clean(p.Kind))
		switch {
		case strings.HasPrefix(kind, "entity"):
			kind = schema.KindEntity
		case strings.HasPrefix(kind, "relation"):
			kind = schema.KindRelation
		case strings.HasPrefix(kind, "attr"):
			kind = schema.KindAttribute
		default:
			v.drop(DropProposal)
			continue
		}
		name := clean(p.Name)
		if name == "" || utf8.RuneCountInString(name) > 32 || strings.ContainsAny(name, "\n{}") {
			v.drop(DropProposal)
			continue
		}
		if kind == schema.KindEntity && v.s.HasEntityType(name) || kind == schema.KindRelation && v.s.Relation(name) != nil || kind == schema.KindAttribute && attrs[name] {
			v.drop(DropProposalExists)
			continue
		}
		conf := p.Confidence
		if conf > 1 && conf <= 100 {
			conf /= 100 // a percentage
		}
		if conf < 0 || conf > 1 || conf != conf {
			v.drop(DropProposal)
			continue
		}
		sp := schema.Proposal{Kind: kind, Name: name, Description: truncate(clean(p.Description), 200), Confidence: conf, Chunk: chunkID}
		if kind == schema.KindRelation {
			sp.Domain, sp.Range = v.typeList(p.Domain), v.typeList(p.Range)
		}
		if ev := clean(p.Evidence); ev != "" {
			if occ := v.c.find(ev); len(occ) > 0 {
				sp.Evidence = v.c.slice(occ[0])
			}
		}
		out = append(out, sp)
	}
	return out
}

// typeList maps types onto the schema's where it can and keeps the rest,
// which may be types proposed alongside.
func (v *validator) typeList(ts []string) []string {
	var out []string
	for _, t := range ts {
		if n, ok := v.entityType(t); ok {
			out = appendNew(out, n)
		} else if t = clean(t); t != "" && utf8.RuneCountInString(t) <= 32 {
			out = appendNew(out, t)
		}
	}
	return out
}

func truncate(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n])
}
