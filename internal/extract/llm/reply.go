package llmextract

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/annals-project/annals/internal/llm"
)

// reply is what the model answered, before validation. Every field is as
// the model wrote it.
type reply struct {
	Translation string
	Entities    []rawEntity
	Analysis    string
	Framework   [][]string
	Triples     []rawTriple
	Attributes  []rawAttribute
	NewTypes    []rawProposal
}

type rawEntity struct{ Text, Type, Name string }

type rawTriple struct {
	Head, Relation, Tail string
	HeadType, TailType   string // only when the model volunteered them
	Evidence             string
}

// rawAttribute is (entity, has_attr, attribute: value) as the model wrote
// it.
type rawAttribute struct {
	Entity, EntityType string
	Attribute, Value   string
	Evidence           string
}

type rawProposal struct {
	Kind, Name, Description string
	Domain, Range           []string
	Confidence              float64
	Evidence                string
}

// How a reply was read.
const (
	readJSON      = "json"
	readRecovered = "recovered" // repaired JSON
	readTruncated = "truncated" // JSON cut off, the complete part kept
	readTuples    = "tuples"    // no JSON; (head, relation, tail) tuples
)

var errNoJSON = errors.New("no JSON in reply")

// parseReply reads a reply tolerantly: JSON, repaired JSON, truncated JSON,
// else tuples. An error means nothing usable was found.
func parseReply(content string) (reply, string, error) {
	if strings.TrimSpace(content) == "" {
		return reply{}, "", errEmptyReply
	}
	raw, how, err := findJSON(content)
	if err == nil {
		var v any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if dec.Decode(&v) == nil {
			if how == readTruncated {
				v = dropOpenItem(v, content)
			}
			if r, ok := decodeReply(v); ok {
				return r, how, nil
			}
		}
	}
	if ts := parseTuples(content); len(ts) > 0 {
		var r reply
		for _, t := range ts {
			if tr, ok := tupleTriple(t); ok {
				r.Triples = append(r.Triples, tr)
			}
		}
		r.splitAttributes()
		if len(r.Triples)+len(r.Attributes) > 0 {
			return r, readTuples, nil
		}
	}
	if err == nil {
		err = errNoJSON
	}
	return reply{}, "", err
}

var errEmptyReply = errors.New("empty reply")

// decodeReply maps a decoded JSON value onto a reply, accepting the shapes
// models produce besides the one asked for: other key names, arrays in
// place of objects, "name:type" strings.
func decodeReply(v any) (reply, bool) {
	var r reply
	switch x := v.(type) {
	case []any:
		// A bare list: of triples, or of tuples.
		r.Triples = triples(x)
		r.splitAttributes()
		return r, len(r.Triples)+len(r.Attributes) > 0
	case map[string]any:
		m := lowerKeys(x)
		if pick(m, replyKeys...) == nil {
			return r, false
		}
		r.Translation = str(pick(m, "translation", "modern", "译文"))
		r.Analysis = str(pick(m, "analysis", "reasoning", "分析"))
		r.Entities = entities(list(pick(m, "entities", "entity", "ner", "实体")))
		r.Framework = framework(list(pick(m, "framework", "schema", "frame", "框架")))
		r.Triples = triples(list(pick(m, "triples", "triplets", "relations", "三元组")))
		r.Attributes = attributes(pick(m, attributeKeys...))
		r.splitAttributes()
		r.NewTypes = proposals(list(pick(m, "new_types", "newtypes", "proposals", "new_schema")))
		return r, true
	}
	return r, false
}

// replyKeys are the keys that make an object a reply rather than, say, one
// entity found on its own.
var replyKeys = []string{"entities", "entity", "ner", "实体", "triples", "triplets", "relations", "三元组", "translation", "analysis", "framework", "new_types",
	"attributes", "attrs", "has_attr", "属性"}

// attributeKeys name the reply's list of attributes.
var attributeKeys = []string{"attributes", "attrs", "attribute", "has_attr", "属性"}

func lowerKeys(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[strings.ToLower(strings.TrimSpace(k))] = v
	}
	return out
}

func pick(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil {
			return v
		}
	}
	return nil
}

func list(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case map[string]any:
		return []any{x}
	}
	return nil
}

// str renders any JSON value as text: strings as they are, lists joined,
// anything else in its JSON form.
func str(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	case []any:
		parts := make([]string, 0, len(x))
		for _, e := range x {
			if s := str(e); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "\n")
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func strList(v any) []string {
	switch x := v.(type) {
	case []any:
		var out []string
		for _, e := range x {
			if s := strings.TrimSpace(str(e)); s != "" {
				out = append(out, s)
			}
		}
		return out
	case string:
		return splitTypes(x)
	}
	return nil
}

func splitTypes(s string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune("|,，、/;；", r) }) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func num(v any) float64 {
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		return f
	case float64:
		return x
	case string:
		s := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(x), "%"))
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0
		}
		if strings.HasSuffix(strings.TrimSpace(x), "%") {
			f /= 100
		}
		return f
	}
	return 0
}

func entities(items []any) []rawEntity {
	var out []rawEntity
	for _, it := range items {
		switch x := it.(type) {
		case map[string]any:
			m := lowerKeys(x)
			e := rawEntity{
				Text: str(pick(m, "text", "mention", "entity", "surface")),
				Type: str(pick(m, "type", "label", "entity_type", "类型")),
				Name: str(pick(m, "name", "full_name", "canonical")),
			}
			if e.Text == "" {
				e.Text, e.Name = e.Name, ""
			}
			out = append(out, e)
		case string:
			t, typ := splitTyped(x)
			out = append(out, rawEntity{Text: t, Type: typ})
		case []any:
			if len(x) >= 2 {
				out = append(out, rawEntity{Text: str(x[0]), Type: str(x[1])})
			}
		}
	}
	return out
}

func framework(items []any) [][]string {
	var out [][]string
	for _, it := range items {
		switch x := it.(type) {
		case []any:
			out = append(out, strList(x))
		case string:
			s := strings.Trim(strings.TrimSpace(x), "()（）[]")
			out = append(out, splitTypes(s))
		case map[string]any:
			m := lowerKeys(x)
			out = append(out, []string{str(pick(m, "head", "head_type", "domain")), str(pick(m, "relation")), str(pick(m, "tail", "tail_type", "range"))})
		}
	}
	return out
}

func triples(items []any) []rawTriple {
	return readItems(items, func(x map[string]any) []rawTriple {
		m := lowerKeys(x)
		t := rawTriple{
			Head:     str(pick(m, "head", "subject", "h", "头")),
			Relation: str(pick(m, "relation", "predicate", "rel", "r", "关系")),
			Tail:     str(pick(m, "tail", "object", "t", "尾")),
			HeadType: str(pick(m, "head_type", "subject_type")),
			TailType: str(pick(m, "tail_type", "object_type")),
			Evidence: str(pick(m, "evidence", "quote", "sentence")),
		}
		if t.HeadType == "" {
			t.Head, t.HeadType = splitTyped(t.Head)
		}
		if t.TailType == "" {
			t.Tail, t.TailType = splitTyped(t.Tail)
		}
		if hasAttr(t.Relation) && t.Tail == "" {
			// {"head":…,"relation":"has_attr","attribute":"字","value":"孔明"}
			t.Tail, t.TailType = str(pick(m, attrNameKeys...)), str(pick(m, attrValueKeys...))
		}
		return []rawTriple{t}
	}, tupleTriple)
}

// splitAttributes moves the triples whose relation is has_attr to the
// attributes: (诸葛亮, has_attr, 字:孔明) is the attribute 字 of 诸葛亮.
// The tail was split like a typed name, so the attribute and the value
// may come in either order; validation tells them apart.
func (r *reply) splitAttributes() {
	kept := r.Triples[:0]
	for _, t := range r.Triples {
		if !hasAttr(t.Relation) {
			kept = append(kept, t)
			continue
		}
		a := rawAttribute{Entity: t.Head, EntityType: t.HeadType, Attribute: t.Tail, Value: t.TailType, Evidence: t.Evidence}
		if a.Value == "" {
			a.Attribute, a.Value = splitAttr(t.Tail)
		}
		r.Attributes = append(r.Attributes, a)
	}
	r.Triples = kept
}

// hasAttr says whether a relation as the model wrote it is the has_attr
// of Youtu-GraphRAG's schema rather than a relation of its own.
func hasAttr(rel string) bool {
	switch strings.ToLower(strings.NewReplacer(" ", "_", "-", "_").Replace(strings.TrimSpace(rel))) {
	case "has_attr", "has_attribute", "hasattr", "hasattribute", "attribute", "attr", "属性":
		return true
	}
	return false
}

// attributes reads the reply's attributes in the shapes models write:
// {"entity","attribute","value","evidence"} objects (other key names
// too), {"entity":"诸葛亮","字":"孔明"} objects, an object keyed by entity
// ({"诸葛亮":{"字":"孔明"}}), [entity, attribute, value] lists and
// "(entity, attribute, value)" strings.
func attributes(v any) []rawAttribute {
	var items []any
	switch x := v.(type) {
	case []any:
		items = x
	case map[string]any:
		items = []any{x}
	case string:
		items = []any{x}
	}
	return readItems(items, attributeObject, tupleAttribute)
}

// readItems reads a reply's list of items in the shapes models write:
// objects (read by object), lists of strings and "(a, b, c)" strings
// (read by tuple), dropping what neither reads.
func readItems[T any](items []any, object func(map[string]any) []T, tuple func([]string) (T, bool)) []T {
	var out []T
	for _, it := range items {
		switch x := it.(type) {
		case map[string]any:
			out = append(out, object(x)...)
		case []any:
			parts := make([]string, len(x))
			for i, e := range x {
				parts[i] = str(e)
			}
			if v, ok := tuple(parts); ok {
				out = append(out, v)
			}
		case string:
			for _, tu := range parseTuples(x) {
				if v, ok := tuple(tu); ok {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

var (
	attrEntityKeys = []string{"entity", "head", "subject", "name", "e", "实体"}
	attrNameKeys   = []string{"attribute", "attr", "attribute_type", "key", "kind", "relation", "属性"}
	attrValueKeys  = []string{"value", "tail", "object", "val", "v", "值"}
	attrOtherKeys  = []string{"evidence", "quote", "sentence", "entity_type", "head_type", "type", "confidence", "score"}
)

func attributeObject(x map[string]any) []rawAttribute {
	m := lowerKeys(x)
	ent := pick(m, attrEntityKeys...)
	if ent == nil {
		// Keyed by entity: {"诸葛亮": {"字": "孔明"}}.
		var out []rawAttribute
		for k, val := range x {
			if sub, ok := val.(map[string]any); ok {
				sub = lowerKeys(sub)
				if pick(sub, attrEntityKeys...) == nil {
					sub["entity"] = k
				}
				out = append(out, attributeObject(sub)...)
			}
		}
		return out
	}
	a := rawAttribute{
		Entity:     str(ent),
		EntityType: str(pick(m, "entity_type", "head_type", "type")),
		Attribute:  str(pick(m, attrNameKeys...)),
		Value:      str(pick(m, attrValueKeys...)),
		Evidence:   str(pick(m, "evidence", "quote", "sentence")),
	}
	if a.EntityType == "" {
		a.Entity, a.EntityType = splitTyped(a.Entity)
	}
	if a.Attribute != "" || a.Value != "" {
		if hasAttr(a.Attribute) {
			// (entity, has_attr, 字:孔明)
			a.Attribute, a.Value = splitAttr(a.Value)
		}
		return []rawAttribute{a}
	}
	// {"entity":"诸葛亮","字":"孔明","号":"卧龙"}: every other key an
	// attribute.
	var out []rawAttribute
	for k, val := range m {
		if slices.Contains(attrEntityKeys, k) || slices.Contains(attrOtherKeys, k) {
			continue
		}
		b := a
		b.Attribute, b.Value = k, str(val)
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Attribute < out[j].Attribute })
	if len(out) == 0 {
		// An entity and nothing said of it: kept, for validation to count.
		out = append(out, a)
	}
	return out
}

// tupleAttribute reads (entity, attribute, value), (entity, has_attr,
// attribute, value) or (entity, has_attr, attribute:value).
func tupleAttribute(p []string) (rawAttribute, bool) {
	for i := range p {
		p[i] = strings.TrimSpace(p[i])
	}
	switch {
	case len(p) == 4 && hasAttr(p[1]):
		return rawAttribute{Entity: p[0], Attribute: p[2], Value: p[3]}, true
	case len(p) == 3 && hasAttr(p[1]):
		a, v := splitAttr(p[2])
		return rawAttribute{Entity: p[0], Attribute: a, Value: v}, true
	case len(p) == 3:
		return rawAttribute{Entity: p[0], Attribute: p[1], Value: p[2]}, true
	case len(p) > 0:
		// Too short or too long to read: kept, for validation to count.
		return rawAttribute{Entity: p[0]}, true
	}
	return rawAttribute{}, false
}

// splitAttr splits "字:孔明", "字：孔明" or "字=孔明" into attribute and
// value.
func splitAttr(s string) (string, string) {
	i := strings.IndexAny(s, ":：=")
	if i <= 0 {
		return "", s
	}
	w := 1
	if strings.HasPrefix(s[i:], "：") {
		w = len("：")
	}
	return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+w:])
}

// tupleTriple reads (head, relation, tail) or (head, head type, relation,
// tail, tail type), ends optionally written "name:type".
func tupleTriple(p []string) (rawTriple, bool) {
	switch len(p) {
	case 3:
		h, ht := splitTyped(p[0])
		t, tt := splitTyped(p[2])
		return rawTriple{Head: h, HeadType: ht, Relation: strings.TrimSpace(p[1]), Tail: t, TailType: tt}, true
	case 4:
		// (entity, has_attr, attribute, value), which splitAttributes
		// makes an attribute.
		if hasAttr(p[1]) {
			return rawTriple{Head: strings.TrimSpace(p[0]), Relation: strings.TrimSpace(p[1]), Tail: strings.TrimSpace(p[2]), TailType: strings.TrimSpace(p[3])}, true
		}
	case 5:
		return rawTriple{Head: strings.TrimSpace(p[0]), HeadType: strings.TrimSpace(p[1]), Relation: strings.TrimSpace(p[2]),
			Tail: strings.TrimSpace(p[3]), TailType: strings.TrimSpace(p[4])}, true
	}
	return rawTriple{}, false
}

// splitTyped splits "张仪:人物", "张仪：人物" or "张仪(人物)" into text and
// type; a string without a type comes back whole.
func splitTyped(s string) (string, string) {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, ")") || strings.HasSuffix(s, "）") {
		i := strings.LastIndexAny(s, "(（")
		if i > 0 {
			inner := strings.TrimSpace(strings.TrimRight(s[i:], ")）"))
			inner = strings.TrimLeft(inner, "(（")
			if inner != "" {
				return strings.TrimSpace(s[:i]), strings.TrimSpace(inner)
			}
		}
	}
	i := strings.LastIndexAny(s, ":：")
	if i > 0 {
		w := 1
		if strings.HasPrefix(s[i:], "：") {
			w = len("：")
		}
		if typ := strings.TrimSpace(s[i+w:]); typ != "" && !strings.ContainsAny(typ, " ") && strings.IndexFunc(typ, unicode.IsLetter) >= 0 {
			return strings.TrimSpace(s[:i]), typ
		}
	}
	return s, ""
}

func proposals(items []any) []rawProposal {
	var out []rawProposal
	for _, it := range items {
		x, ok := it.(map[string]any)
		if !ok {
			continue
		}
		m := lowerKeys(x)
		out = append(out, rawProposal{
			Kind:        str(pick(m, "kind", "type")),
			Name:        str(pick(m, "name")),
			Description: str(pick(m, "description", "desc")),
			Domain:      strList(pick(m, "domain", "head")),
			Range:       strList(pick(m, "range", "tail")),
			Confidence:  num(pick(m, "confidence", "score")),
			Evidence:    str(pick(m, "evidence", "quote")),
		})
	}
	return out
}

// findJSON locates the JSON value in a reply and says how it was read.
func findJSON(s string) (json.RawMessage, string, error) {
	raw, err := llm.ExtractJSON(s)
	switch {
	case err == nil:
		if t := strings.TrimSpace(s); json.Valid([]byte(t)) {
			return raw, readJSON, nil
		}
		return raw, readRecovered, nil
	case errors.Is(err, llm.ErrTruncated) && raw != nil:
		return raw, readTruncated, nil
	}
	return nil, "", err
}

// parseTuples reads tuples from free text.
func parseTuples(s string) [][]string { return llm.ParseTuples(s) }

var thinkRE = regexp.MustCompile(`(?s)<think>.*?</think>`)

// openItem reports whether a reply cut off inside a string nested in a
// list, and names the top-level member holding that list ("" for a bare
// list). Repair keeps such a string as far as it got, which may be half a
// name (曹 of 曹操), so the item holding it cannot be trusted.
func openItem(s string) (member string, open bool) {
	s = thinkRE.ReplaceAllString(s, "")
	i := strings.IndexAny(s, "{[")
	if i < 0 {
		return "", false
	}
	depth, inStr, esc := 0, false, false
	var cur strings.Builder
	last := ""
	for ; i < len(s); i++ {
		c := s[i]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
				if depth == 1 {
					last = cur.String()
				}
			default:
				if depth == 1 {
					cur.WriteByte(c)
				}
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
			cur.Reset()
		case ':':
			if depth == 1 {
				member = strings.ToLower(strings.TrimSpace(last))
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
	}
	if !inStr || depth < 2 {
		return "", false
	}
	if s[strings.IndexAny(s, "{[")] == '[' {
		member = ""
	}
	return member, true
}

// dropOpenItem removes the item a truncated reply was writing when it was
// cut off inside a string.
func dropOpenItem(v any, content string) any {
	member, open := openItem(content)
	if !open {
		return v
	}
	switch x := v.(type) {
	case []any:
		if len(x) > 0 {
			return x[:len(x)-1]
		}
	case map[string]any:
		for k, val := range x {
			if strings.ToLower(strings.TrimSpace(k)) != member {
				continue
			}
			if l, ok := val.([]any); ok && len(l) > 0 {
				x[k] = l[:len(l)-1]
			}
		}
	}
	return v
}
