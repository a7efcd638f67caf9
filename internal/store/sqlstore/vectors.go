package sqlstore

import (
	"context"
	"fmt"
	"strings"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// Unembedded lists up to limit chunks ("chunk") or entities ("entity") that
// have no vector from model, of ids above after (so that a caller working
// through them in batches never rereads what it did). An entity's text is
// its name and aliases.
func (s *DB) Unembedded(ctx context.Context, kind, model string, after int64, limit int) ([]store.VectorItem, error) {
	var q string
	switch kind {
	case "chunk":
		q = `SELECT c.id, c.text FROM chunks c LEFT JOIN chunk_vectors v ON v.chunk_id = c.id AND v.model = ?
			WHERE v.chunk_id IS NULL AND c.id > ? ORDER BY c.id LIMIT ?`
	case "entity":
		q = `SELECT e.id, e.name || COALESCE(' ' || (SELECT group_concat(DISTINCT a.alias) FROM aliases a WHERE a.entity_id = e.id), '')
			FROM entities e LEFT JOIN entity_vectors v ON v.entity_id = e.id AND v.model = ?
			WHERE v.entity_id IS NULL AND e.id > ? ORDER BY e.id LIMIT ?`
	default:
		return nil, fmt.Errorf("unknown vector kind %q", kind)
	}
	rows, err := s.db.QueryContext(ctx, q, model, after, limit)
	if err != nil {
		return nil, fmt.Errorf("list %ss to embed: %w", kind, err)
	}
	defer rows.Close()
	var out []store.VectorItem
	for rows.Next() {
		var it store.VectorItem
		if err := rows.Scan(&it.ID, &it.Text); err != nil {
			return nil, err
		}
		it.Text = strings.ReplaceAll(it.Text, ",", " ")
		out = append(out, it)
	}
	return out, rows.Err()
}

// PutVectors stores encoded vectors of chunks or entities from model,
// replacing those of another model.
func (s *DB) PutVectors(ctx context.Context, kind, model string, ids []int64, vecs [][]byte) error {
	table, col := "chunk_vectors", "chunk_id"
	if kind == "entity" {
		table, col = "entity_vectors", "entity_id"
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// The ids are distinct: one statement may not upsert a row twice.
	b := newBatch(tx, "INSERT INTO "+table+"("+col+", model, vec) VALUES ", "(?, ?, ?)",
		" ON CONFLICT("+col+") DO UPDATE SET model = excluded.model, vec = excluded.vec")
	defer b.close()
	for i, id := range ids {
		if err := b.add(ctx, id, model, vecs[i]); err != nil {
			return fmt.Errorf("store %s vector: %w", kind, err)
		}
	}
	if err := b.flush(ctx); err != nil {
		return fmt.Errorf("store %s vectors: %w", kind, err)
	}
	counter := metaChunkVectors
	if kind == "entity" {
		counter = metaEntityVectors
	}
	if err := bump(ctx, tx, counter); err != nil {
		return err
	}
	return tx.Commit()
}

// metaChunkVectors and metaEntityVectors count the writes of chunk and
// entity vectors.
const (
	metaChunkVectors  = "chunk_vectors_version"
	metaEntityVectors = "entity_vectors_version"
)

// EntityVectorGeneration names the state of the entity vectors, cheaply
// (no table is counted): it changes whenever entity vectors are written,
// an entity is added, alignments rewrite entities, or chunks (and the
// entities only they named) are written or removed. A vector whose entity
// has gone since is only read in vain.
func (s *DB) EntityVectorGeneration(ctx context.Context) (string, error) {
	var writes, maxID, aligned, chunks int64
	err := s.queryRow(ctx, `SELECT COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = ?), 0),
		COALESCE((SELECT max(id) FROM entities), 0),
		COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = ?), 0),
		COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = ?), 0)`,
		metaEntityVectors, metaAligned, metaChunks).Scan(&writes, &maxID, &aligned, &chunks)
	if err != nil {
		return "", fmt.Errorf("read the entity vectors' generation: %w", err)
	}
	return fmt.Sprintf("%d/%d/%d/%d", writes, maxID, aligned, chunks), nil
}

// EntityVectorRows reads every entity vector with the model that made it.
func (s *DB) EntityVectorRows(ctx context.Context) (ids []int64, models []string, vecs [][]byte, err error) {
	return s.vectorRows(ctx, "entity")
}

// FactNames lists every relation with its type and the names of its two
// ends (no evidence), in id order: what a fact's text is made of.
func (s *DB) FactNames(ctx context.Context) ([]kg.Relation, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT r.id, r.head_id, h.name, r.type, r.tail_id, t.name
		FROM relations r JOIN entities h ON h.id = r.head_id JOIN entities t ON t.id = r.tail_id ORDER BY r.id`)
	if err != nil {
		return nil, fmt.Errorf("read relations: %w", err)
	}
	defer rows.Close()
	var out []kg.Relation
	for rows.Next() {
		var r kg.Relation
		if err := rows.Scan(&r.ID, &r.HeadID, &r.Head, &r.Type, &r.TailID, &r.Tail); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// ChunkVectorGeneration names the state of the chunk vectors: it changes
// whenever a chunk or a chunk vector is written or removed, so a copy of
// the vectors made under one generation is current while it stays.
func (s *DB) ChunkVectorGeneration(ctx context.Context) (string, error) {
	var chunks, maxID, vectors int64
	err := s.queryRow(ctx, `SELECT COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = ?), 0),
		COALESCE((SELECT max(id) FROM chunks), 0),
		COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = ?), 0)`, metaChunks, metaChunkVectors).Scan(&chunks, &maxID, &vectors)
	if err != nil {
		return "", fmt.Errorf("read the chunk vectors' generation: %w", err)
	}
	return fmt.Sprintf("%d/%d/%d", chunks, maxID, vectors), nil
}

// ChunkTexts streams every chunk's text, for training an embedder on the
// corpus.
func (s *DB) ChunkTexts(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT text FROM chunks ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("read chunks: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// VectorCounts says how many chunks and entities have a vector from model.
func (s *DB) VectorCounts(ctx context.Context, model string) (chunks, entities int, err error) {
	if err = s.db.QueryRowContext(ctx, "SELECT count(*) FROM chunk_vectors WHERE model = ?", model).Scan(&chunks); err != nil {
		return
	}
	err = s.db.QueryRowContext(ctx, "SELECT count(*) FROM entity_vectors WHERE model = ?", model).Scan(&entities)
	return
}

// EntityVectors reads every stored entity vector, whatever model made it.
func (s *DB) EntityVectors(ctx context.Context) (map[int64][]byte, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT entity_id, vec FROM entity_vectors")
	if err != nil {
		return nil, fmt.Errorf("read entity vectors: %w", err)
	}
	defer rows.Close()
	out := map[int64][]byte{}
	for rows.Next() {
		var id int64
		var v []byte
		if err := rows.Scan(&id, &v); err != nil {
			return nil, err
		}
		out[id] = v
	}
	return out, rows.Err()
}

// ChunkVectors reads every chunk vector with the model that made it.
func (s *DB) ChunkVectors(ctx context.Context) (ids []int64, models []string, vecs [][]byte, err error) {
	return s.vectorRows(ctx, "chunk")
}

// vectorRows reads every vector of a kind ("chunk" or "entity"), in id
// order, with the model that made it.
func (s *DB) vectorRows(ctx context.Context, kind string) (ids []int64, models []string, vecs [][]byte, err error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+kind+"_id, model, vec FROM "+kind+"_vectors ORDER BY "+kind+"_id")
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read %s vectors: %w", kind, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var m string
		var v []byte
		if err := rows.Scan(&id, &m, &v); err != nil {
			return nil, nil, nil, err
		}
		ids, models, vecs = append(ids, id), append(models, m), append(vecs, v)
	}
	return ids, models, vecs, rows.Err()
}
