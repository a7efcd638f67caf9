package pipeline

import (
	"context"
	"fmt"
	"strconv"

	"github.com/annals-project/annals/internal/embed"
	"github.com/annals-project/annals/internal/store"
)

// embedBatch is how many texts go to the embedder at once.
const embedBatch = 256

// Embedding state kept in the workspace.
const (
	stateEmbedModel = "embed_model" // the trained offline model
	stateEmbedChars = "embed_chars" // corpus size it was trained on
)

// EmbedStore keeps the vectors of chunks and entities, by embedding model,
// and the offline model learned from the corpus.
type EmbedStore interface {
	Unembedded(ctx context.Context, kind, model string, after int64, limit int) ([]store.VectorItem, error)
	PutVectors(ctx context.Context, kind, model string, ids []int64, vecs [][]byte) error
	ChunkTexts(ctx context.Context) ([]string, error)
	State(ctx context.Context, name string) ([]byte, error)
	SetState(ctx context.Context, name string, value []byte) error
	Stats(ctx context.Context) (*store.Stats, error)
}

// EmbedReport says what the embedding step did.
type EmbedReport struct {
	Model    string `json:"model"`
	Trained  bool   `json:"trained"` // the offline model was (re)trained
	Chunks   int    `json:"chunks"`  // chunks embedded by this run
	Entities int    `json:"entities"`
}

// Embed gives every chunk and entity a vector from em; with em nil, from the
// offline model learned from the corpus itself, trained when there is none
// or the corpus has doubled since. Only what has no vector from the current
// model is embedded, so an unchanged workspace costs two queries.
func Embed(ctx context.Context, db EmbedStore, em embed.Embedder) (*EmbedReport, error) {
	rep := &EmbedReport{}
	for _, kind := range []string{"chunk", "entity"} {
		var after int64 // the last id embedded: batches go on from there
		for {
			if em == nil {
				var err error
				if em, rep.Trained, err = offlineEmbedder(ctx, db); err != nil {
					return rep, err
				}
			}
			model := em.Name() + "@" + em.Version()
			rep.Model = model
			items, err := db.Unembedded(ctx, kind, model, after, embedBatch)
			if err != nil {
				return rep, err
			}
			if len(items) == 0 {
				break
			}
			texts := make([]string, len(items))
			ids := make([]int64, len(items))
			for i, it := range items {
				texts[i], ids[i] = it.Text, it.ID
			}
			after = ids[len(ids)-1]
			vecs, err := em.Embed(ctx, texts)
			if err != nil {
				return rep, fmt.Errorf("embed %ss: %w", kind, err)
			}
			enc := make([][]byte, len(vecs))
			for i, v := range vecs {
				enc[i] = embed.Encode(v)
			}
			if err := db.PutVectors(ctx, kind, model, ids, enc); err != nil {
				return rep, err
			}
			if kind == "chunk" {
				rep.Chunks += len(items)
			} else {
				rep.Entities += len(items)
			}
		}
	}
	return rep, nil
}

// offlineEmbedder loads the workspace's learned model, training it first
// when there is none or the corpus has doubled since it was trained.
func offlineEmbedder(ctx context.Context, db EmbedStore) (embed.Embedder, bool, error) {
	blob, err := db.State(ctx, stateEmbedModel)
	if err != nil {
		return nil, false, err
	}
	st, err := db.Stats(ctx)
	if err != nil {
		return nil, false, err
	}
	trainedOn := 0
	if s, err := db.State(ctx, stateEmbedChars); err == nil && s != nil {
		trainedOn, _ = strconv.Atoi(string(s))
	}
	if blob != nil && st.Characters < 2*trainedOn+1 {
		m, err := embed.Load(blob)
		if err == nil {
			return m, false, nil
		}
		// An unreadable model is retrained rather than fatal.
	}
	texts, err := db.ChunkTexts(ctx)
	if err != nil {
		return nil, false, err
	}
	m, err := embed.Default(ctx, texts)
	if err != nil {
		return nil, false, fmt.Errorf("train the offline embedder: %w", err)
	}
	data, err := m.MarshalBinary()
	if err != nil {
		return nil, false, err
	}
	if err := db.SetState(ctx, stateEmbedModel, data); err != nil {
		return nil, false, err
	}
	if err := db.SetState(ctx, stateEmbedChars, []byte(strconv.Itoa(st.Characters))); err != nil {
		return nil, false, err
	}
	return m, true, nil
}
