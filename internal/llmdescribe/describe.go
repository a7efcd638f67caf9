// Package llmdescribe writes an entity's description with a model: a
// sentence or two merged from the facts the graph holds about it, as
// HisGraphRAG stores a description with every entity. The offline
// description (written from the same facts by rule) is given as a draft;
// the model may only restate what the facts say.
package llmdescribe

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"strings"
	"text/template"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/llm"
)

//go:embed prompts/*.tmpl
var builtin embed.FS

// Step names the calls for usage accounting.
const Step = "describe"

// MaxRunes bounds a description: a longer reply is refused, not cut.
const MaxRunes = 300

// Input is what the model is shown about one entity.
type Input struct {
	Name  string
	Type  string
	Lang  string   // the language to write in: "zh" for the Chinese schemas, else English
	Facts []string // the best-attested facts, each a sentence, with its year where dated
	Draft string   // the offline description, "" when the facts said too little
}

// ErrNoFacts is returned for an entity the graph knows nothing about:
// there is nothing to describe, and the model is not asked.
var ErrNoFacts = errors.New("no facts to describe it from")

// Write asks the model for in's description. promptDir holds the
// workspace's prompt overrides.
func Write(ctx context.Context, c llm.Client, promptDir string, in Input) (string, error) {
	if len(in.Facts) == 0 {
		return "", fmt.Errorf("describe %s: %w", in.Name, ErrNoFacts)
	}
	t, err := llm.LoadTemplate(builtin, "prompts", "describe.tmpl", promptDir, template.FuncMap{})
	if err != nil {
		return "", err
	}
	var out struct {
		Description *string `json:"description"`
	}
	if _, err := llm.ChatJSON(ctx, c, t, Step, in, &out); err != nil {
		return "", fmt.Errorf("describe %s: %w", in.Name, err)
	}
	if out.Description == nil {
		return "", fmt.Errorf("describe %s: the model's reply has no \"description\"", in.Name)
	}
	d := strings.Join(strings.Fields(*out.Description), " ")
	switch n := utf8.RuneCountInString(d); {
	case n == 0:
		return "", fmt.Errorf("describe %s: the model's description is empty", in.Name)
	case n > MaxRunes:
		return "", fmt.Errorf("describe %s: the model's description is %d characters long; at most %d are kept", in.Name, n, MaxRunes)
	}
	return d, nil
}
