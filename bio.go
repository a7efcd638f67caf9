package annals

import (
	"context"
	"fmt"
	"time"

	"github.com/annals-project/annals/internal/bio"
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
}

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
	return &Biography{Name: e.Name, ID: e.ID, Profile: p, Biography: bio.Write(e.Name, p, opts.Style, opts.Strict),
		Others: others, Took: time.Since(t0)}, nil
}
