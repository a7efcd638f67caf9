package annals

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/annals-project/annals/internal/bio"
	"github.com/annals-project/annals/internal/retrieve"
)

// BioOptions tunes Bio.
type BioOptions struct {
	// Style is "modern" (the default) or "classical".
	Style string
	// Strict leaves out biography sentences a check failed on, instead of
	// marking them unverified.
	Strict bool
	// Exclude are documents, by key, the profile may not rest on (the
	// person's own chapter, to compare the biography with it).
	Exclude []string
	// LLM insists on the configured endpoint; Offline writes without one
	// even where one is configured. Otherwise a configured endpoint writes
	// the biography and checks it, and none means the offline writer.
	LLM, Offline bool
	// Rounds is the most rounds of checking and correcting each sentence
	// the model's biography goes through; 0 means 2.
	Rounds    int
	MaxTokens int          // the run's token budget; 0 means none
	Waiting   func(string) // told what an LLM call waits for
}

// maxNeighbours is how many of a person's kin and associates an LLM
// biography reads the shared passages of.
const maxNeighbours = 6

// Biography is a person's profile and a biography written from it.
type Biography struct {
	Name      string         `json:"name"`
	ID        int64          `json:"id"`
	Profile   *bio.Profile   `json:"profile"`
	Biography []bio.Sentence `json:"biography"`
	// Others are further people the name could mean.
	Others []Entity      `json:"others,omitempty"`
	Usage  BioUsage      `json:"usage"`
	Took   time.Duration `json:"took_ns"`
}

// BioUsage is what writing a biography cost in LLM calls and tokens; all
// zero offline.
type BioUsage struct {
	Calls            int `json:"calls"`
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// Bio reads the profile of the person a name refers to (names, dates,
// native place, kin, career, places, associates, each cited) and writes a
// biography from it, every sentence with its citations and checks.
func (w *Workspace) Bio(ctx context.Context, name string, opts BioOptions) (*Biography, error) {
	t0 := time.Now()
	switch opts.Style {
	case "", bio.Modern, bio.Classical:
	default:
		return nil, fmt.Errorf("biography style %q: use %s or %s", opts.Style, bio.Modern, bio.Classical)
	}
	found, err := w.findEntities(ctx, name)
	if err != nil {
		return nil, err
	}
	// The best match that is a person; the rest are named as others.
	at := -1
	for i, e := range found {
		if e.Type == "人物" || e.Type == "person" {
			at = i
			break
		}
	}
	if at < 0 {
		return nil, fmt.Errorf("%s names no person (%s is a %s): %w", name, found[0].Name, found[0].Type, ErrNotFound)
	}
	// A 字 two people share (孔明: 诸葛亮 and 胡昭) stays an entity of its
	// own, with only a few mentions: the biography is of the person far
	// more often meant.
	for i, o := range found {
		if i != at && (o.Type == "人物" || o.Type == "person") && o.Mentions >= 5*max(found[at].Mentions, 1) {
			at = i
		}
	}
	e := found[at]
	var others []Entity
	for i, o := range found {
		if i != at && (o.Type == "人物" || o.Type == "person") {
			others = append(others, o)
		}
	}
	p, err := bio.Read(ctx, w.db, e, bio.Options{Exclude: opts.Exclude})
	if err != nil {
		return nil, err
	}
	b := &Biography{Name: e.Name, ID: e.ID, Profile: p, Others: others}
	run, err := w.optionalLLM(opts.LLM, opts.Offline, opts.MaxTokens, opts.Waiting)
	if err != nil {
		return nil, fmt.Errorf("biography with an LLM: %w", err)
	}
	if run == nil {
		b.Biography = bio.Write(e.Name, p, opts.Style, opts.Strict)
		b.Took = time.Since(t0)
		return b, nil
	}
	var names []string
	for _, n := range p.Names {
		names = append(names, n.Text)
	}
	// about retrieves passages for a query that name every one of must,
	// outside the documents excluded.
	about := func(ctx context.Context, query string, limit int, must ...string) ([]bio.Citation, error) {
		res, err := w.retriever(ctx, run).Retrieve(ctx, query, retrieve.Options{Limit: limit, Delta: -1, T2S: w.Config.Normalize.T2S})
		if err != nil {
			return nil, err
		}
		var out []bio.Citation
		for _, it := range res.Items {
			if it.Citation == nil || slices.Contains(opts.Exclude, it.Citation.DocKey) {
				continue
			}
			if !slices.ContainsFunc(must, func(m string) bool { return !strings.Contains(it.Citation.Norm, m) }) {
				out = append(out, bio.Cite(*it.Citation))
			}
		}
		return out, nil
	}
	// Seed 003 retrieves the chunks of the person's neighbours in the graph
	// too: the passages his closest kin and associates share with him.
	var neighbours []bio.Citation
	for i, it := range append(slices.Clone(p.Kin), p.Associates...) {
		if i == maxNeighbours {
			break
		}
		found, err := about(ctx, e.Name+" "+it.Text, 3, e.Name, it.Text)
		if err != nil {
			return nil, fmt.Errorf("passages of %s and %s: %w", e.Name, it.Text, err)
		}
		neighbours = append(neighbours, found...)
	}
	lo := bio.LLMOptions{Client: run.client, PromptDir: filepath.Join(w.Dir, "prompts"), Style: opts.Style,
		Strict: opts.Strict, Rounds: opts.Rounds, Names: names, Neighbours: neighbours,
		More: func(ctx context.Context, text string) ([]bio.Citation, error) {
			// Knowledge lack: what retrieval finds about the person and the
			// sentence.
			return about(ctx, e.Name+" "+text, 8, e.Name)
		}}
	b.Biography, _, err = bio.Generate(ctx, e.Name, p, lo)
	rows, ferr := w.finish(ctx, run, "bio")
	for _, r := range rows {
		b.Usage.Calls += r.Calls
		b.Usage.PromptTokens += r.PromptTokens
		b.Usage.CompletionTokens += r.CompletionTokens
	}
	if err == nil {
		err = ferr
	}
	b.Took = time.Since(t0)
	return b, err
}
