package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// SearchArgs are the search tool's arguments.
type SearchArgs struct {
	Text   string `json:"text"`
	Limit  int    `json:"limit"`
	Offset int    `json:"offset"`
}

// EntityArgs are the entity tool's arguments.
type EntityArgs struct {
	Name      string `json:"name"`
	Relations int    `json:"relations"`
	Mentions  int    `json:"mentions"`
}

// Option is a multiple-choice question's option.
type Option struct {
	Letter string `json:"letter"`
	Text   string `json:"text"`
}

// AskArgs are the ask tool's arguments.
type AskArgs struct {
	Question string   `json:"question"`
	Mode     string   `json:"mode"`
	Options  []Option `json:"options"`
	Agent    bool     `json:"agent"`
}

// RelateArgs are the relate tool's arguments.
type RelateArgs struct {
	Head       string `json:"head"`
	Tail       string `json:"tail"`
	Top        int    `json:"top"`
	NoFeedback bool   `json:"no_feedback"`
}

// TimelineArgs are the timeline tool's arguments: a name, or a window of
// years (From or To set), or both.
type TimelineArgs struct {
	Name  string `json:"name"`
	From  *int   `json:"from"`
	To    *int   `json:"to"`
	Type  string `json:"type"`
	Limit int    `json:"limit"`
}

// tool is one tool: its schema, the defaults of its arguments, a check the
// schema cannot express and the backend call.
type tool struct {
	name, title, description string
	schema                   *Schema
	readOnly                 bool
	// parseArgs decodes validated arguments over the defaults.
	parseArgs func(normalised []byte) (any, error)
	call      func(ctx context.Context, b Backend, args any) (any, error)
}

// parse validates raw arguments against the tool's schema and decodes them.
func (t *tool) parse(raw json.RawMessage) (any, error) {
	var v any = map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		dec := json.NewDecoder(strings.NewReader(string(raw)))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("arguments: %v", err)
		}
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, errors.New("the arguments must be an object")
	}
	norm, err := t.schema.validate(v, "")
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(norm)
	if err != nil {
		return nil, err
	}
	return t.parseArgs(b)
}

// newTool makes a tool whose arguments decode into A, starting from
// defaults, then pass check.
func newTool[A any](name, title, description string, schema *Schema, readOnly bool, defaults A,
	check func(*A) error, call func(context.Context, Backend, A) (any, error)) *tool {
	return &tool{
		name: name, title: title, description: description, schema: schema, readOnly: readOnly,
		parseArgs: func(b []byte) (any, error) {
			a := defaults
			if err := json.Unmarshal(b, &a); err != nil {
				return nil, err
			}
			if check != nil {
				if err := check(&a); err != nil {
					return nil, err
				}
			}
			return a, nil
		},
		call: func(ctx context.Context, b Backend, a any) (any, error) { return call(ctx, b, a.(A)) },
	}
}

// field is an argument's name and value.
type field struct{ name, value string }

// nonBlank checks that required strings say something.
func nonBlank(fields ...field) error {
	for _, f := range fields {
		if strings.TrimSpace(f.value) == "" {
			return fmt.Errorf("%q is empty", f.name)
		}
	}
	return nil
}

var tools = []*tool{
	newTool("search", "Concordance search",
		"Find every occurrence of a word or string of characters in the corpus (a concordance), in document order: "+
			"each with the text on either side, the citation of its document (e.g. 《三国志·蜀书·诸葛亮传》) and the "+
			"match's code-point offsets [start,end) in the original document, plus the total count. Traditional "+
			"characters also find their simplified forms. Page with limit and offset.",
		object(map[string]*Schema{
			"text":   str("The word or characters to find, e.g. 诸葛亮 or \"Zhuge Liang\"."),
			"limit":  integer("Most occurrences to return.", 1, 1000, 20),
			"offset": integer("Occurrences to skip, for the next page.", 0, 1_000_000, 0),
		}, "text"), true,
		SearchArgs{Limit: 20},
		func(a *SearchArgs) error { return nonBlank(field{"text", a.Text}) },
		func(ctx context.Context, b Backend, a SearchArgs) (any, error) { return b.Search(ctx, a) }),

	newTool("entity", "Look up an entity",
		"Look up a person, place, office, title, group or work by its name or any alias (字, 号, traditional or "+
			"simplified characters) and return it with its names by kind, its facts (relations), each with the "+
			"sentences that state it and their citations, where it is named, the years of birth and death where "+
			"the texts date them, and other entities the name could also mean. Fails when nothing has that name.",
		object(map[string]*Schema{
			"name":      str("A name or alias, e.g. 诸葛亮, 孔明 or 卧龙."),
			"relations": integer("Most facts to return.", 1, 1000, 50),
			"mentions":  integer("Most places where the entity is named to return.", 1, 1000, 10),
		}, "name"), true,
		EntityArgs{Relations: 50, Mentions: 10},
		func(a *EntityArgs) error { return nonBlank(field{"name", a.Name}) },
		func(ctx context.Context, b Backend, a EntityArgs) (any, error) { return b.Entity(ctx, a) }),

	newTool("ask", "Answer a question with citations",
		"Answer a question from the knowledge graph and the texts, citing the sentences the answer rests on. "+
			"Offline (the default unless the workspace configures an LLM) the answer is extractive: the facts that "+
			"answer it, else the sentence that best does, else it says it is unable to answer (answered: false). "+
			"For a multiple-choice question give the options; the chosen letter is in choice. "+
			"Returns the answer, the citations, the evidence items retrieval found and, with agent, the steps taken.",
		object(map[string]*Schema{
			"question": str("The question, e.g. 诸葛亮字什么？"),
			"mode": {Type: "string", Enum: []string{"reject", "open"}, Default: "reject",
				Description: "reject: answer only from the evidence; open: an LLM may add what it knows, marked as such (no effect offline)."},
			"options": {Type: "array", MaxItems: ptr(26), Description: "The options of a multiple-choice question.",
				Items: object(map[string]*Schema{
					"letter": {Type: "string", MinLength: ptr(1), MaxLength: ptr(8), Description: "The option's letter: A, B, C …"},
					"text":   str("The option's text."),
				}, "letter", "text")},
			"agent": {Type: "boolean", Default: false,
				Description: "Decompose the question into steps and reflect on each (for questions that chain facts)."},
		}, "question"), true,
		AskArgs{Mode: "reject"},
		func(a *AskArgs) error {
			if err := nonBlank(field{"question", a.Question}); err != nil {
				return err
			}
			seen := map[string]bool{}
			for i, o := range a.Options {
				letter := strings.ToUpper(strings.TrimSpace(o.Letter))
				if letter == "" || strings.TrimSpace(o.Text) == "" {
					return fmt.Errorf("options[%d]: a letter and a text", i)
				}
				if seen[letter] {
					return fmt.Errorf("options[%d]: letter %s given twice", i, letter)
				}
				seen[letter] = true
				a.Options[i] = Option{Letter: letter, Text: strings.TrimSpace(o.Text)}
			}
			return nil
		},
		func(ctx context.Context, b Backend, a AskArgs) (any, error) { return b.Ask(ctx, a) }),

	newTool("relate", "How are two entities related?",
		"Find every relation that can be established between the entities two names refer to, directly or "+
			"through one other entity: paths ranked by EF-IDF, each step with the relation and its evidence, "+
			"steps composed (father's father → grandfather) and fused into one verdict. By default it only reads; "+
			"with no_feedback false it also writes what it verified (and, apart, what it only inferred) back into "+
			"the graph.",
		object(map[string]*Schema{
			"head": str("The first name, e.g. 曹操."),
			"tail": str("The second name, e.g. 司马懿."),
			"top":  integer("Most paths to keep, best first.", 1, 100, 10),
			"no_feedback": {Type: "boolean", Default: true,
				Description: "Do not write the facts found back into the graph (the default); false stores them, revertible with `annals feedback`."},
		}, "head", "tail"), false,
		RelateArgs{Top: 10, NoFeedback: true},
		func(a *RelateArgs) error { return nonBlank(field{"head", a.Head}, field{"tail", a.Tail}) },
		func(ctx context.Context, b Backend, a RelateArgs) (any, error) { return b.Relate(ctx, a) }),

	newTool("timeline", "Dated facts in year order",
		"List dated facts in year order, each with the sentence that states it, its citation and how its year "+
			"was found: a person's (name), or every fact within a window of years (from and/or to), or a person's "+
			"within a window. Years are astronomical: -121 is 122 BCE. Give a name, a window, or both.",
		object(map[string]*Schema{
			"name":  {Type: "string", Description: "A name or alias, e.g. 孙权; empty or absent for every entity's facts in the window."},
			"from":  integer("First year of the window (astronomical: -121 is 122 BCE).", -10000, 10000, nil),
			"to":    integer("Last year of the window.", -10000, 10000, nil),
			"type":  {Type: "string", Description: "Only facts of this relation type, e.g. 死亡时间 or born_in."},
			"limit": integer("Most facts to return.", 1, 5000, 200),
		}), true,
		TimelineArgs{Limit: 200},
		func(a *TimelineArgs) error {
			a.Name, a.Type = strings.TrimSpace(a.Name), strings.TrimSpace(a.Type)
			if a.Name == "" && a.From == nil && a.To == nil {
				return errors.New(`give a "name", or a window of years ("from", "to"), or both`)
			}
			if a.From != nil && a.To != nil && *a.From > *a.To {
				return fmt.Errorf(`"from" (%d) is after "to" (%d)`, *a.From, *a.To)
			}
			return nil
		},
		func(ctx context.Context, b Backend, a TimelineArgs) (any, error) { return b.Timeline(ctx, a) }),
}

func findTool(name string) *tool {
	for _, t := range tools {
		if t.name == name {
			return t
		}
	}
	return nil
}

func toolNames() string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.name
	}
	return strings.Join(names, ", ")
}
