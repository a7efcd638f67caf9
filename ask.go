package annals

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/annals-project/annals/internal/answer"
	"github.com/annals-project/annals/internal/embed"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/retrieve"
	"github.com/annals-project/annals/internal/workspace"
)

// Answer is a question's answer with its citations, the items retrieval
// found and, in agent mode, the trace of its steps.
type (
	Answer         = answer.Answer
	AnswerOption   = answer.Option
	RetrievedItem  = retrieve.Item
	RetrieveResult = retrieve.Result
	Citation       = answer.Citation
	// ListEntry is one name of a list answer (a whole-corpus question).
	ListEntry = answer.ListEntry
)

// Answer modes.
const (
	ModeReject = answer.ModeReject
	ModeOpen   = answer.ModeOpen
)

// SuggestedEntitySim is a δ for the entity-vector route with the
// workspace's own embedder; the route is off unless one is given.
const SuggestedEntitySim = retrieve.SuggestedEntitySim

// AskOptions tune Ask.
type AskOptions struct {
	Mode     string         // ModeReject (default) or ModeOpen
	Options  []AnswerOption // a multiple-choice question's options
	Theta    float64        // drop options less plausible than this; 0 means 0.15, negative keeps all
	Agent    bool           // decompose the question and reflect
	MaxSteps int            // agent rounds; 0 means 4
	TopK     int            // evidence items for the answer; 0 means 15
	Delta    int            // ± years of the temporal window; negative means 1
	Limit    int            // items retrieval returns; 0 means 30
	// EntitySim is δ, the least cosine of an entity's vector with the
	// question's (and its options') for the entity-vector route; 0 (or
	// above 1) leaves the route off (see SuggestedEntitySim).
	EntitySim float64
	// NoDFS turns off the walk from the question's one entity;
	// TripleVector turns on the ranking of every fact by its vector.
	NoDFS, TripleVector bool
	// LLM asks the configured endpoint (or OPENAI_BASE_URL) even where the
	// settings do not name one; Offline never calls one.
	LLM, Offline bool
	MaxTokens    int // token budget of LLM calls; 0 means none
	// Stream, when set, is told the answer's text as an LLM writes it
	// (direct questions only; the agent and multiple choice give only
	// the result).
	Stream func(string)
	// Waiting, when set, is told while an LLM call waits for a retry or
	// for a slow reply, in a sentence (see IndexOptions.Waiting).
	Waiting func(string)
}

// Ask answers a question from the workspace's graph and texts, with
// citations: offline by default, with an LLM when one is configured.
func (w *Workspace) Ask(ctx context.Context, question string, opts AskOptions) (*Answer, error) {
	a, run, err := w.answerer(ctx, opts)
	if err != nil {
		return nil, err
	}
	ans, err := a.Ask(ctx, question, answer.Options{
		Mode: opts.Mode, TopK: opts.TopK, Choices: opts.Options, Theta: opts.Theta, Agent: opts.Agent,
		MaxSteps: opts.MaxSteps, Delta: opts.Delta, Limit: opts.Limit, Stream: opts.Stream,
		EntitySim: opts.EntitySim, NoDFS: opts.NoDFS, TripleVector: opts.TripleVector,
	})
	if _, ferr := w.finish(ctx, run, "ask"); ferr != nil {
		err = errors.Join(err, ferr)
	}
	return ans, err
}

// Retrieve runs the retrieval routes for a question without answering it.
func (w *Workspace) Retrieve(ctx context.Context, question string, limit, delta int) (*RetrieveResult, error) {
	return w.retriever(ctx, nil).Retrieve(ctx, question, retrieve.Options{Limit: limit, Delta: delta, T2S: w.Config.Normalize.T2S})
}

// optionalLLM opens the configured endpoint for a command that works
// without one: nil when offline is set, or when none is configured and
// the caller did not insist (want). waiting hears of calls that wait.
func (w *Workspace) optionalLLM(want, offline bool, maxTokens int, waiting func(string)) (*llmRun, error) {
	if offline {
		return nil, nil
	}
	cfg, err := w.Config.Endpoint(want, maxTokens)
	switch {
	case errors.Is(err, llm.ErrNotConfigured) && !want:
		return nil, nil
	case err != nil:
		return nil, err
	}
	meter := llm.NewMeter(maxTokens)
	c, err := newClient(cfg, w.db.Cache(), meter, waiting)
	if err != nil {
		return nil, err
	}
	return &llmRun{client: c, meter: meter, cfg: cfg}, nil
}

func (w *Workspace) answerer(ctx context.Context, opts AskOptions) (*answer.Answerer, *llmRun, error) {
	run, err := w.optionalLLM(opts.LLM, opts.Offline, opts.MaxTokens, opts.Waiting)
	if err != nil {
		return nil, nil, fmt.Errorf("ask with an LLM: %w", err)
	}
	a := &answer.Answerer{R: w.retriever(ctx, run), T2S: w.Config.Normalize.T2S, PromptDir: filepath.Join(w.Dir, "prompts"), Reader: &w.reader}
	if run != nil {
		a.LLM = run.client
	}
	return a, run, nil
}

// retriever wires the routes to the workspace: BM25 over chunks, and the
// nearest chunks by the vectors the index step stored.
func (w *Workspace) retriever(ctx context.Context, run *llmRun) *retrieve.Retriever {
	src := askSource{DB: w.db, w: w}
	if gen, err := w.ekgGeneration(ctx); err == nil {
		src.graph, _ = w.relateGraph.Held(gen) // never loaded for one question: a fresh process would pay for all
	}
	r := &retrieve.Retriever{Src: src}
	r.Lexical = func(ctx context.Context, text string, limit int) ([]retrieve.Scored, error) {
		hits, err := w.rankChunks(ctx, text, limit)
		if err != nil {
			return nil, err
		}
		out := make([]retrieve.Scored, len(hits))
		for i, h := range hits {
			out[i] = retrieve.Scored{ID: h.ChunkID, Score: h.Score}
		}
		return out, nil
	}
	r.Vectors = func(ctx context.Context, text string, limit int) ([]retrieve.Scored, error) {
		return w.nearestChunks(ctx, run, text, limit)
	}
	r.Entities = func(ctx context.Context, text string, limit int) ([]retrieve.Scored, error) {
		return w.nearestEntities(ctx, run, text, limit)
	}
	r.Triples = w.nearestFacts
	return r
}

// vectorSet is one generation of stored vectors (chunks', entities' or
// facts'), with the model that made them.
type vectorSet struct {
	gen   string
	model string
	em    embed.Embedder // the workspace's own model, when it made them
	ids   []int64
	vecs  *embed.Matrix
}

// vectors returns the current chunk vectors, reading them when they are
// not in memory or have changed since.
func (w *Workspace) vectors(ctx context.Context) (*vectorSet, error) {
	gen, err := w.db.ChunkVectorGeneration(ctx)
	if err != nil {
		return nil, err
	}
	return w.chunkVectors.Get(gen, func() (*vectorSet, error) { return w.loadChunkVectors(ctx, gen) })
}

// nearestChunks embeds the text with the model that embedded the chunks
// and returns the chunks of highest cosine. Without usable vectors (none
// stored, or an endpoint's model and no endpoint now) it returns nothing.
func (w *Workspace) nearestChunks(ctx context.Context, run *llmRun, text string, limit int) ([]retrieve.Scored, error) {
	lv, err := w.vectors(ctx)
	if err != nil {
		return nil, err
	}
	em := questionEmbedder(lv, run)
	if em == nil {
		return nil, nil
	}
	return nearest(ctx, em, lv, text, limit)
}

// stateChunkVectors names the packed copy of the chunk vectors.
const stateChunkVectors = "chunk_vectors"

// loadChunkVectors reads the chunk vectors of the model most chunks were
// embedded with, and that model when it is the workspace's own. They are
// read from their packed copy while it is current; otherwise row by row,
// and the copy is written again for the next process (best effort: a
// reader that cannot write still answers).
func (w *Workspace) loadChunkVectors(ctx context.Context, gen string) (*vectorSet, error) {
	snap, err := w.packedVectors(ctx, stateChunkVectors, gen, w.readChunkVectors)
	if err != nil {
		return nil, err
	}
	cv := &vectorSet{gen: gen, model: snap.Model, ids: snap.IDs, vecs: snap.Vectors}
	if cv.vecs == nil {
		return cv, nil
	}
	cv.em = w.ownEmbedder(ctx, cv.model)
	return cv, nil
}

// packedVectors reads the vectors of generation gen from a packed copy
// while it is current: first the workspace's cache file (state.vec), read
// in one call and searched where it lies; then the state row named state,
// which every machine sharing a PostgreSQL store can read; else it reads
// them with read and writes both copies again for the next process (best
// effort: a reader that cannot write still answers).
func (w *Workspace) packedVectors(ctx context.Context, state, gen string, read func(context.Context, string) (embed.Snapshot, error)) (embed.Snapshot, error) {
	path := workspace.CachePath(w.Dir, state+".vec")
	if data, err := os.ReadFile(path); err == nil {
		if snap, err := embed.ViewSnapshot(data); err == nil && snap.Generation == gen {
			return snap, nil
		}
	}
	blob, err := w.db.State(ctx, state)
	if err != nil {
		return embed.Snapshot{}, err
	}
	if snap, err := embed.ViewSnapshot(blob); err == nil && snap.Generation == gen {
		_ = workspace.WriteCache(path, blob)
		return snap, nil
	}
	snap, err := read(ctx, gen)
	if err != nil {
		return snap, err
	}
	if snap.Vectors != nil {
		if blob, err := snap.MarshalBinary(); err == nil {
			_ = w.db.SetState(ctx, state, blob)
			_ = workspace.WriteCache(path, blob)
		}
	}
	return snap, nil
}

// readChunkVectors reads the stored chunk vectors of the model most
// chunks were embedded with; the snapshot has no vectors when none are
// stored.
func (w *Workspace) readChunkVectors(ctx context.Context, gen string) (embed.Snapshot, error) {
	ids, models, blobs, err := w.db.ChunkVectors(ctx)
	if err != nil {
		return embed.Snapshot{Generation: gen}, err
	}
	return majorityVectors(gen, ids, models, blobs)
}
