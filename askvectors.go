package annals

import (
	"context"
	"fmt"

	"github.com/annals-project/annals/internal/embed"
	"github.com/annals-project/annals/internal/retrieve"
)

// The entity-vector and triple-vector routes: the question (with its
// options) embedded by the model that embedded the chunks, against the
// entities' stored vectors and the facts' texts embedded in memory.

// questionEmbedder is the embedder a question is embedded with to be
// compared with vs: the workspace's own model when it made them, else the
// endpoint's when one is configured now; nil when neither can.
func questionEmbedder(vs *vectorSet, run *llmRun) embed.Embedder {
	em := vs.em
	if em == nil && run != nil && run.cfg.EmbedModel != "" {
		em = embed.NewOpenAI(run.client, 0)
	}
	if em == nil || vs.vecs == nil || em.Name()+"@"+em.Version() != vs.model && vs.em != nil {
		return nil
	}
	return em
}

// nearest embeds text with em and returns the limit vectors of vs of
// highest cosine, by the ids vs holds.
func nearest(ctx context.Context, em embed.Embedder, vs *vectorSet, text string, limit int) ([]retrieve.Scored, error) {
	got, err := em.Embed(ctx, []string{text})
	if err != nil || len(got) != 1 {
		return nil, fmt.Errorf("embed the question: %w", err)
	}
	q := got[0]
	embed.Normalize(q)
	hits := vs.vecs.TopK(q, limit)
	out := make([]retrieve.Scored, len(hits))
	for i, h := range hits {
		out[i] = retrieve.Scored{ID: vs.ids[h.Index], Score: float64(h.Score)}
	}
	return out, nil
}

// entityVectors returns the current entity vectors, reading them when
// they are not in memory or have changed since.
func (w *Workspace) entityVectors(ctx context.Context) (*vectorSet, error) {
	gen, err := w.db.EntityVectorGeneration(ctx)
	if err != nil {
		return nil, err
	}
	return w.entityVecs.Get(gen, func() (*vectorSet, error) { return w.loadEntityVectors(ctx, gen) })
}

// stateEntityVectors names the packed copy of the entity vectors.
const stateEntityVectors = "entity_vectors"

// loadEntityVectors reads the stored entity vectors of the model most
// entities were embedded with, and that model when it is the workspace's
// own: from their packed copy while it is current, else row by row,
// writing the copy again for the next process (best effort), as the chunk
// vectors are read.
func (w *Workspace) loadEntityVectors(ctx context.Context, gen string) (*vectorSet, error) {
	snap, err := w.packedVectors(ctx, stateEntityVectors, gen, func(ctx context.Context, gen string) (embed.Snapshot, error) {
		ids, models, blobs, err := w.db.EntityVectorRows(ctx)
		if err != nil {
			return embed.Snapshot{Generation: gen}, err
		}
		return majorityVectors(gen, ids, models, blobs)
	})
	if err != nil {
		return nil, err
	}
	vs := &vectorSet{gen: gen, model: snap.Model, ids: snap.IDs, vecs: snap.Vectors}
	if vs.vecs == nil {
		return vs, nil
	}
	// Most often the chunks' model, read already.
	if cv, err := w.vectors(ctx); err == nil && cv.em != nil && cv.model == vs.model {
		vs.em = cv.em
	} else {
		vs.em = w.ownEmbedder(ctx, vs.model)
	}
	return vs, nil
}

// ownEmbedder is the workspace's own embedding model when it is model
// (name@version), else nil.
func (w *Workspace) ownEmbedder(ctx context.Context, model string) embed.Embedder {
	if blob, err := w.db.State(ctx, "embed_model"); err == nil && blob != nil {
		if m, err := embed.Load(blob); err == nil && m.Name()+"@"+m.Version() == model {
			return m
		}
	}
	return nil
}

// nearestEntities embeds the text with the model that embedded the
// entities (their names and aliases) and returns the entities of highest
// cosine.
func (w *Workspace) nearestEntities(ctx context.Context, run *llmRun, text string, limit int) ([]retrieve.Scored, error) {
	vs, err := w.entityVectors(ctx)
	if err != nil {
		return nil, err
	}
	if vs.vecs == nil {
		return nil, retrieve.Unavailable("no entity vectors: annals index stores them (its embed step)")
	}
	em := questionEmbedder(vs, run)
	if em == nil {
		return nil, retrieve.Unavailable("the entity vectors are " + vs.model + "'s, which is not at hand: configure its endpoint")
	}
	return nearest(ctx, em, vs, text, limit)
}

// factVectors are the facts' texts (retrieve.TripleText) embedded by the
// workspace's own model, built in memory on the first question that needs
// them and again when the relations, the chunks or the model change: no
// vector of a fact is stored.
func (w *Workspace) factVectors(ctx context.Context) (*vectorSet, error) {
	cv, err := w.vectors(ctx)
	if err != nil {
		return nil, err
	}
	if cv.vecs == nil || cv.em == nil {
		return &vectorSet{}, nil
	}
	rel, err := w.ekgGeneration(ctx)
	if err != nil {
		return nil, err
	}
	gen := fmt.Sprintf("%v/%s", rel, cv.model)
	return w.factVecs.Get(gen, func() (*vectorSet, error) {
		rels, err := w.db.FactNames(ctx)
		if err != nil {
			return nil, err
		}
		vs := &vectorSet{gen: gen, model: cv.model, em: cv.em}
		if len(rels) == 0 {
			return vs, nil
		}
		vs.ids = make([]int64, len(rels))
		for i, r := range rels {
			vs.ids[i] = r.ID
		}
		// Embedded a batch at a time, each copied into the matrix.
		const batch = 4096
		var vecs [][]float32
		vs.vecs, err = embed.NewMatrixFunc(len(rels), cv.em.Dim(), func(i int, v []float32) error {
			if i%batch == 0 {
				texts := make([]string, 0, batch)
				for _, r := range rels[i:min(i+batch, len(rels))] {
					texts = append(texts, retrieve.TripleText(r))
				}
				if vecs, err = cv.em.Embed(ctx, texts); err != nil {
					return fmt.Errorf("embed the facts: %w", err)
				}
			}
			copy(v, vecs[i%batch])
			return nil
		})
		if err != nil {
			return nil, err
		}
		return vs, nil
	})
}

// nearestFacts returns the facts whose texts are nearest the text's.
// Only the workspace's own model embeds them: an endpoint's would be
// asked for every fact of the graph.
func (w *Workspace) nearestFacts(ctx context.Context, text string, limit int) ([]retrieve.Scored, error) {
	vs, err := w.factVectors(ctx)
	if err != nil {
		return nil, err
	}
	if vs.vecs == nil {
		return nil, retrieve.Unavailable("no fact vectors: they are built with the workspace's own embedding model, which annals index trains (its embed step)")
	}
	return nearest(ctx, vs.em, vs, text, limit)
}

// majorityVectors decodes the vectors of the model most rows have, as a
// snapshot of generation gen; it has no vectors when there are none.
func majorityVectors(gen string, ids []int64, models []string, blobs [][]byte) (embed.Snapshot, error) {
	snap := embed.Snapshot{Generation: gen}
	if len(ids) == 0 {
		return snap, nil
	}
	count := map[string]int{}
	for _, m := range models {
		count[m]++
	}
	for m, n := range count {
		if n > count[snap.Model] || n == count[snap.Model] && m < snap.Model {
			snap.Model = m
		}
	}
	// The vectors of that model and of the first one's length, decoded
	// straight into the matrix.
	var keep []int
	for i, b := range blobs {
		if models[i] != snap.Model || len(b) == 0 || len(b)%4 != 0 || len(keep) > 0 && len(b) != len(blobs[keep[0]]) {
			continue
		}
		keep = append(keep, i)
		snap.IDs = append(snap.IDs, ids[i])
	}
	if len(keep) == 0 {
		snap.IDs = nil
		return snap, nil
	}
	var err error
	snap.Vectors, err = embed.NewMatrixFunc(len(keep), len(blobs[keep[0]])/4, func(i int, v []float32) error {
		return embed.DecodeInto(v, blobs[keep[i]])
	})
	return snap, err
}
