package annals

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/llmdescribe"
	"github.com/annals-project/annals/internal/retrieve"
	"github.com/annals-project/annals/internal/store"
)

// DescribeOptions tunes Describe.
type DescribeOptions struct {
	// Names are the entities to describe; none means the Top most
	// mentioned (of Type, when set).
	Names []string
	Top   int // 0: 50
	Type  string
	// Clear takes the model's descriptions off the entities instead, so
	// that their pages show the one written from the facts again.
	Clear     bool
	MaxTokens int
	// Waiting is told while an LLM call waits (see IndexOptions.Waiting).
	Waiting func(string)
}

// Described is one entity's new description, or why it has none.
type Described struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
	FromFacts   string `json:"from_facts,omitempty"` // the description written offline, shown to the model as its draft
	Error       string `json:"error,omitempty"`
}

// describeFactsShown is how many of an entity's best-attested facts the
// model reads.
const describeFactsShown = 40

// Describe has the configured LLM write each entity's description from
// the facts the graph holds about it (HisGraphRAG's entity descriptions),
// and stores it: the entity's page shows it in place of the one written
// offline. An entity the model fails on keeps its description and says
// why; the run goes on.
func (w *Workspace) Describe(ctx context.Context, opts DescribeOptions) ([]Described, error) {
	ents, err := w.describeTargets(ctx, opts)
	if err != nil {
		return nil, err
	}
	var out []Described
	if opts.Clear {
		for _, e := range ents {
			if err := w.db.SetDescription(ctx, e.ID, ""); err != nil {
				return out, err
			}
			out = append(out, Described{ID: e.ID, Name: e.Name, Type: e.Type})
		}
		return out, nil
	}
	run, err := w.optionalLLM(true, false, opts.MaxTokens, opts.Waiting)
	if err != nil {
		return nil, fmt.Errorf("describe with an LLM: %w", err)
	}
	for _, e := range ents {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		d := Described{ID: e.ID, Name: e.Name, Type: e.Type}
		v, err := w.Entity(ctx, e.Name, EntityOptions{Relations: describeFactsShown})
		if err != nil {
			return out, err
		}
		// The Chinese schemas name their types in Chinese.
		in := llmdescribe.Input{Name: v.Name, Type: v.Type, Lang: "en", Draft: describe(v)}
		if strings.IndexFunc(v.Type, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0 {
			in.Lang = "zh"
		}
		d.FromFacts = in.Draft
		in.Facts = factSentences(v.Relations, in.Lang)
		text, err := llmdescribe.Write(ctx, run.client, filepath.Join(w.Dir, "prompts"), in)
		switch {
		case err == nil:
			if err := w.db.SetDescription(ctx, v.ID, text); err != nil {
				return out, err
			}
			d.Description = text
		case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
			return out, err
		default:
			d.Error = err.Error()
		}
		out = append(out, d)
	}
	_, err = w.finish(ctx, run, "describe")
	return out, err
}

// describeTargets are the entities opts names, or the most mentioned.
func (w *Workspace) describeTargets(ctx context.Context, opts DescribeOptions) ([]kg.Entity, error) {
	if len(opts.Names) == 0 {
		return w.db.ListEntities(ctx, store.EntityQuery{Type: opts.Type, Limit: orDefault(opts.Top, 50)})
	}
	var out []kg.Entity
	for _, n := range opts.Names {
		found, err := w.findEntities(ctx, n)
		if err != nil {
			return nil, err
		}
		out = append(out, found[0])
	}
	return out, nil
}

// factSentences says each fact as a sentence, with its earliest year.
func factSentences(rels []Relation, lang string) []string {
	var out []string
	for _, r := range rels {
		s := strings.TrimSpace(retrieve.RenderTriple(r, lang))
		if year, has := earliestYear(r); has {
			s += fmt.Sprintf(" (%d)", year)
		}
		out = append(out, s)
	}
	return out
}
