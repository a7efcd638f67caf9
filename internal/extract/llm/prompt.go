package llmextract

import (
	"embed"
	"fmt"
	"sort"
	"strings"
	"text/template"

	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/schema"
)

//go:embed prompts/*.tmpl prompts/*.jsonl
var builtin embed.FS

// Languages with a prompt of their own; any other language uses English's.
var promptLangs = []string{"lzh", "zh", "vi", "en"}

// logicVersion changes when parsing or validation changes what is kept from
// the same reply.
const logicVersion = "2"

// PromptFile names the template for a language, both among the built-in
// templates and in Options.PromptDir.
func PromptFile(lang string) string { return "extract-" + promptLang(lang) + ".tmpl" }

func promptLang(lang string) string {
	for _, l := range promptLangs {
		if l == lang {
			return l
		}
	}
	return "en"
}

// DefaultPrompts returns the built-in templates by file name, for writing
// into a workspace's prompts folder as a starting point.
func DefaultPrompts() map[string]string {
	out := map[string]string{}
	for _, l := range promptLangs {
		b, err := builtin.ReadFile("prompts/" + PromptFile(l))
		if err == nil {
			out[PromptFile(l)] = string(b)
		}
	}
	return out
}

// prompt is one language's parsed template.
type prompt struct {
	tmpl   *template.Template
	hash   string // of the template text
	source string // file it came from, for error messages
}

var funcs = template.FuncMap{"join": strings.Join}

// loadPrompts reads the built-in templates, each replaced by a file of the
// same name in dir when one exists.
func loadPrompts(dir string) (map[string]*prompt, error) {
	out := map[string]*prompt{}
	for _, l := range promptLangs {
		name := PromptFile(l)
		t, err := llm.LoadTemplate(builtin, "prompts", name, dir, funcs)
		if err != nil {
			return nil, err
		}
		out[l] = &prompt{tmpl: t.Template, hash: t.Hash, source: t.Source}
	}
	return out, nil
}

// promptData is what the templates see.
type promptData struct {
	Lang        string
	Text        string
	EntityTypes []string
	Groups      []relGroup // relations by domain and range
	ByDomain    []domGroup // the same groups gathered by domain
	Attributes  []string
	Growth      bool
	Hints       []hint
	// Examples are the worked examples shown (none: zero-shot).
	Examples []shownExample
	// Known are facts the graph holds about the text's entities.
	Known []string
}

// relGroup lists the relations that share a domain and range, which keeps
// the schema short in the prompt.
// domGroup gathers the relation groups that share a domain.
type domGroup struct {
	Domain string
	Groups []relGroup
}

func byDomain(gs []relGroup) []domGroup {
	var out []domGroup
	idx := map[string]int{}
	for _, g := range gs {
		i, ok := idx[g.Domain]
		if !ok {
			i = len(out)
			idx[g.Domain] = i
			out = append(out, domGroup{Domain: g.Domain})
		}
		out[i].Groups = append(out[i].Groups, g)
	}
	return out
}

type relGroup struct {
	Domain, Range string // types joined by "|", "*" for any
	Names         []string
	Rels          []relView
}

// relView is one relation; Hint is its description when that says which
// way the relation reads (tail is a child of head), the part a prompt
// cannot leave out.
type relView struct{ Name, Desc, Hint string }

func directionHint(desc string) string {
	d := " " + strings.ToLower(desc) + " "
	if strings.Contains(d, " head ") || strings.Contains(d, " tail ") {
		return desc
	}
	return ""
}

type hint struct{ Short, Full string }

func groups(s *schema.Schema) []relGroup {
	var out []relGroup
	idx := map[string]int{}
	side := func(ts []string) string {
		if len(ts) == 0 {
			return "*"
		}
		return strings.Join(ts, "|")
	}
	for _, r := range s.RelationTypes {
		d, rg := side(r.Domain), side(r.Range)
		k := d + "\x00" + rg
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, relGroup{Domain: d, Range: rg})
		}
		out[i].Names = append(out[i].Names, r.Name)
		out[i].Rels = append(out[i].Rels, relView{Name: r.Name, Desc: r.Description, Hint: directionHint(r.Description)})
	}
	return out
}

// render fills one language's template.
func (p *prompt) render(d promptData) (system, user string, err error) {
	var sb strings.Builder
	if err := p.tmpl.ExecuteTemplate(&sb, "system", d); err != nil {
		return "", "", fmt.Errorf("prompt %s: %w", p.source, err)
	}
	system = sb.String()
	sb.Reset()
	if err := p.tmpl.ExecuteTemplate(&sb, "user", d); err != nil {
		return "", "", fmt.Errorf("prompt %s: %w", p.source, err)
	}
	return system, sb.String(), nil
}

// replySchema asks servers with structured output for the reply's shape;
// the enums bound types and relations to the schema where the server
// enforces them.
func replySchema(s *schema.Schema, growth bool) *llm.JSONSchema {
	str := map[string]any{"type": "string"}
	strs := map[string]any{"type": "array", "items": str}
	ent := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"text": str,
			"type": map[string]any{"type": "string", "enum": s.EntityTypeNames()},
			"name": str,
		},
		"required": []string{"text", "type"},
	}
	tri := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"head":     str,
			"relation": map[string]any{"type": "string", "enum": s.RelationTypeNames()},
			"tail":     str,
			"evidence": str,
		},
		"required": []string{"head", "relation", "tail"},
	}
	props := map[string]any{
		"translation": str,
		"entities":    map[string]any{"type": "array", "items": ent},
		"analysis":    str,
		"framework":   map[string]any{"type": "array", "items": strs},
		"triples":     map[string]any{"type": "array", "items": tri},
	}
	if len(s.AttributeTypes) > 0 {
		names := make([]string, len(s.AttributeTypes))
		for i, a := range s.AttributeTypes {
			names[i] = a.Name
		}
		props["attributes"] = map[string]any{"type": "array", "items": map[string]any{
			"type": "object",
			"properties": map[string]any{
				"entity":    str,
				"attribute": map[string]any{"type": "string", "enum": names},
				"value":     str,
				"evidence":  str,
			},
			"required": []string{"entity", "attribute", "value"},
		}}
	}
	if growth {
		props["new_types"] = map[string]any{"type": "array", "items": map[string]any{
			"type": "object",
			"properties": map[string]any{
				"kind":        map[string]any{"type": "string", "enum": []string{schema.KindEntity, schema.KindRelation, schema.KindAttribute}},
				"name":        str,
				"description": str,
				"domain":      strs,
				"range":       strs,
				"confidence":  map[string]any{"type": "number"},
				"evidence":    str,
			},
			"required": []string{"kind", "name", "confidence"},
		}}
	}
	return &llm.JSONSchema{Name: "extraction", Schema: map[string]any{
		"type":       "object",
		"properties": props,
		"required":   []string{"entities", "triples"},
	}}
}

// hints lists the document's short names that occur in the chunk, so that
// the model can give full names for them.
func hints(names map[string]string, contains func(string) bool) []hint {
	var out []hint
	for short, full := range names {
		if short != full && short != "" && full != "" && contains(short) {
			out = append(out, hint{short, full})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Short < out[j].Short })
	if len(out) > maxHints {
		out = out[:maxHints]
	}
	return out
}

const maxHints = 8
