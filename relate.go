package annals

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/relate"
	"github.com/annals-project/annals/internal/schema"
	"github.com/annals-project/annals/internal/store"
)

// Relation reasoning's results.
type (
	RelateResult = relate.Result
	Finding      = relate.Finding
	Feedback     = store.Feedback
)

// RelateOptions tune Relate.
type RelateOptions struct {
	Top    int // paths kept; 0 means 10
	Budget int // graph nodes visited at most; 0 means 200,000
	// Scoring is how paths are ranked: "normalised" (the default, "")
	// is BEKO's EF-IDF, each entity's path frequency over the sum of the
	// path's; "raw" leaves the frequency as it is.
	Scoring string
	NoFeed  bool // do not write what was found back into the graph
	// AddDocument also writes the verdict as a document of its own
	// (findings/relate/A与B.txt in the workspace) and indexes it, so that
	// its entities link to it (BEKO §4.4).
	AddDocument bool
	// LLM reads relations no pattern reads and verifies inferred facts
	// with the configured endpoint; Offline never calls one.
	LLM, Offline bool
	MaxTokens    int
	// Waiting, when set, is told while an LLM call waits for a retry or
	// for a slow reply, in a sentence (see IndexOptions.Waiting), and if
	// another process holds the workspace when AddDocument indexes.
	Waiting func(string)
}

// Related is what Relate found, with what it wrote back into the graph.
type Related struct {
	*RelateResult
	Feedback []Feedback `json:"feedback,omitempty"`
	Document string     `json:"document,omitempty"` // the key of the verdict's document, with AddDocument
}

func (w *Workspace) ekgGeneration(ctx context.Context) ([4]int64, error) {
	changes, maxChunk, err := w.db.ChunkGeneration(ctx)
	if err != nil {
		return [4]int64{}, err
	}
	maxRel, aligned, err := w.db.RelationGeneration(ctx)
	return [4]int64{changes, maxChunk, maxRel, aligned}, err
}

func (w *Workspace) ekg(ctx context.Context) (*relate.EKG, error) {
	gen, err := w.ekgGeneration(ctx)
	if err != nil {
		return nil, err
	}
	return w.relateGraph.Get(gen, func() (*relate.EKG, error) {
		g, err := relate.LoadEKG(ctx, w.db)
		if err != nil {
			return nil, fmt.Errorf("read the graph for relation reasoning: %w", err)
		}
		return g, nil
	})
}

// fedBack records that the structure in memory already holds a relation
// just written back, so that it is not read again for it.
func (w *Workspace) fedBack(relID int64) {
	w.relateGraph.Update(func(gen *[4]int64, _ *relate.EKG) { gen[2] = max(gen[2], relID) })
}

// Relate finds every relation annals can establish between the entities
// two names refer to, direct or through one other, each step with its
// evidence, and writes what it verified (and, apart, what it only
// inferred) back into the graph (BEKO, seed 002).
func (w *Workspace) Relate(ctx context.Context, a, b string, opts RelateOptions) (*Related, error) {
	ea, err := w.findEntities(ctx, a)
	if err != nil {
		return nil, err
	}
	eb, err := w.findEntities(ctx, b)
	if err != nil {
		return nil, err
	}
	return w.RelateIDs(ctx, ea[0].ID, eb[0].ID, opts)
}

// RelateIDs is Relate for two entity ids.
func (w *Workspace) RelateIDs(ctx context.Context, a, b int64, opts RelateOptions) (*Related, error) {
	if a == b {
		return nil, fmt.Errorf("relate: both names refer to the same entity (%d)", a)
	}
	if err := relate.CheckScoring(opts.Scoring); err != nil {
		return nil, fmt.Errorf("relate: %w", err)
	}
	g, err := w.ekg(ctx)
	if err != nil {
		return nil, err
	}
	r := &relate.Relater{Src: w.db, EKG: g}
	run, err := w.relateJudge(r, opts)
	if err != nil {
		return nil, err
	}
	res, err := r.Relate(ctx, a, b, relate.Options{SearchOptions: relate.SearchOptions{MaxPaths: opts.Top, Budget: opts.Budget, Scoring: opts.Scoring}})
	if run != nil {
		if _, ferr := w.finish(ctx, run, "relate"); ferr != nil && err == nil {
			err = ferr
		}
	}
	if err != nil {
		return nil, err
	}
	out := &Related{RelateResult: res}
	if opts.NoFeed {
		return out, nil
	}
	// Only what verification accepted is written: the findings between
	// the two and the triples of every step along the paths (BEKO §4.4).
	query := fmt.Sprintf("relate %s %s", res.Head.Name, res.Tail.Name)
	for _, f := range append(slices.Clip(res.Findings), res.Steps...) {
		if f.Status != kg.StatusVerified {
			continue // a fact already, or not verified
		}
		fb, err := w.db.AddFeedback(ctx, store.Feedback{HeadID: f.HeadID, Head: f.Head, Type: f.Type, TailID: f.TailID, Tail: f.Tail,
			Status: f.Status, Query: query, Via: f.Via, Evidence: f.Evidence})
		if err != nil {
			return nil, fmt.Errorf("feed back %s: %w", f.Text, err)
		}
		if fb.New {
			g.Add(store.RelationEdge{ID: fb.RelationID, Head: fb.HeadID, Tail: fb.TailID, Type: fb.Type, Status: fb.Status})
			w.fedBack(fb.RelationID)
		}
		out.Feedback = append(out.Feedback, fb)
	}
	if opts.AddDocument && len(res.Findings) > 0 {
		if out.Document, err = w.addFinding(ctx, res, opts.Waiting); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// addFinding writes the verdict and its evidence as a document under the
// workspace's findings folder and indexes that folder.
func (w *Workspace) addFinding(ctx context.Context, res *RelateResult, waiting func(string)) (string, error) {
	root := filepath.Join(w.Dir, "findings")
	name := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>|`, r) {
			return '_'
		}
		return r
	}, res.Head.Name+"与"+res.Tail.Name) + ".txt"
	var b strings.Builder
	b.WriteString(res.Verdict + "\n")
	for _, f := range res.Findings {
		for _, ev := range f.Evidence {
			fmt.Fprintf(&b, "%s %s\n", ev.Cite, ev.Sentence)
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "relate"), 0o755); err != nil {
		return "", fmt.Errorf("add the verdict as a document: %w", err)
	}
	if err := os.WriteFile(filepath.Join(root, "relate", name), []byte(b.String()), 0o644); err != nil {
		return "", fmt.Errorf("add the verdict as a document: %w", err)
	}
	if _, err := w.Index(ctx, []string{root}, IndexOptions{Waiting: waiting}); err != nil {
		return "", fmt.Errorf("index the verdict's document: %w", err)
	}
	return "relate/" + name, nil
}

// FeedbackList lists the facts relation reasoning wrote back, newest
// first; reverted ones too when all is set.
func (w *Workspace) FeedbackList(ctx context.Context, all bool) ([]Feedback, error) {
	return w.db.Feedback(ctx, all)
}

// RevertFeedback takes a fed-back fact out of the graph.
func (w *Workspace) RevertFeedback(ctx context.Context, id int64) error {
	list, err := w.db.Feedback(ctx, false)
	if err != nil {
		return err
	}
	if err := w.db.RevertFeedback(ctx, id); err != nil {
		return err
	}
	w.relateGraph.Update(func(_ *[4]int64, g *relate.EKG) {
		for _, f := range list {
			if f.ID == id {
				g.Remove(f.RelationID)
			}
		}
	})
	return nil
}

// relateJudge gives r a model to read relations and verify findings when
// one is configured (or asked for); it returns the run to account for.
func (w *Workspace) relateJudge(r *relate.Relater, opts RelateOptions) (*llmRun, error) {
	run, err := w.optionalLLM(opts.LLM, opts.Offline, opts.MaxTokens, opts.Waiting)
	if err != nil || run == nil {
		if err != nil {
			err = fmt.Errorf("relate with an LLM: %w", err)
		}
		return nil, err
	}
	// The workspace's schema, or both shipped ones when it chooses by
	// language.
	var types []string
	names := []string{w.Config.Schema}
	if w.Config.Schema == "" {
		names = schema.Shipped()
	}
	for _, n := range names {
		sc, err := schema.Load(n)
		if err != nil {
			return nil, err
		}
		types = append(types, sc.RelationTypeNames()...)
	}
	r.Judge = &relate.LLMJudge{Client: run.client, Types: types, PromptDir: filepath.Join(w.Dir, "prompts")}
	return run, nil
}

// RelatePair is one pair of a batch: two names, and for evaluation the
// relation types that hold between them.
type RelatePair struct {
	Head string   `json:"head"`
	Tail string   `json:"tail"`
	Gold []string `json:"relations,omitempty"`
}

// RelateRound is what one round of a batch did.
type RelateRound struct {
	N            int     `json:"round"`
	Pairs        int     `json:"pairs"`
	Connected    int     `json:"connected"`    // pairs with a path whose every step states a relation
	Connectivity float64 `json:"connectivity"` // Connected / Pairs
	Added        int     `json:"added"`        // verified facts written back that the graph did not hold
	Steps        int     `json:"steps"`        // of them, triples of a step along a path rather than between the pair
	Rejected     int     `json:"rejected"`     // findings and steps verification refused, not written
	Unknown      int     `json:"unknown"`      // pairs whose names name no entity
}

// samePair says whether a fed-back fact joins the two entities a
// question related.
func samePair(f Feedback, a, b int64) bool {
	return (f.HeadID == a && f.TailID == b) || (f.HeadID == b && f.TailID == a)
}

// RelateRounds relates every pair, round after round, feeding back what
// each round finds (BEKO's multi-round enhancement), and reports each
// round. each, when set, sees every pair's result (nil for an unknown
// name).
func (w *Workspace) RelateRounds(ctx context.Context, pairs []RelatePair, rounds int, opts RelateOptions,
	each func(round, i int, res *Related)) ([]RelateRound, error) {
	if rounds <= 0 {
		rounds = 1
	}
	var out []RelateRound
	for n := 1; n <= rounds; n++ {
		rd := RelateRound{N: n, Pairs: len(pairs)}
		for i, p := range pairs {
			if err := ctx.Err(); err != nil {
				return out, err
			}
			res, err := w.Relate(ctx, p.Head, p.Tail, opts)
			switch {
			case errors.Is(err, ErrNotFound):
				rd.Unknown++
				res = nil
			case err != nil:
				return out, fmt.Errorf("round %d, pair %d (%s, %s): %w", n, i+1, p.Head, p.Tail, err)
			default:
				if len(res.Paths) > 0 {
					rd.Connected++
				}
				for _, f := range res.Feedback {
					if f.New {
						rd.Added++
						if !samePair(f, res.Head.ID, res.Tail.ID) {
							rd.Steps++
						}
					}
				}
				for _, f := range append(slices.Clip(res.Findings), res.Steps...) {
					if f.Rejected != "" {
						rd.Rejected++
					}
				}
			}
			if each != nil {
				each(n, i, res)
			}
		}
		if rd.Pairs > 0 {
			rd.Connectivity = float64(rd.Connected) / float64(rd.Pairs)
		}
		out = append(out, rd)
	}
	return out, nil
}
