package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"math"

	"github.com/annals-project/annals/internal/kg"
)

// Graph reads the whole graph: every entity with its aliases, and every
// relation with all its evidence, in id order. It is what an export
// writes, read in a few scans rather than entity by entity.
func (s *DB) Graph(ctx context.Context) ([]kg.Entity, []kg.Relation, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, nil, fmt.Errorf("read the graph: %w", err)
	}
	defer tx.Rollback() // one snapshot: an index committing meanwhile is not half seen
	rows, err := tx.QueryContext(ctx, "SELECT "+entityColumns+" FROM entities e ORDER BY e.id")
	if err != nil {
		return nil, nil, fmt.Errorf("read entities: %w", err)
	}
	ents, err := scanEntities(rows)
	if err != nil {
		return nil, nil, fmt.Errorf("read entities: %w", err)
	}
	byID := make(map[int64]int, len(ents))
	for i, e := range ents {
		byID[e.ID] = i
	}
	rows, err = tx.QueryContext(ctx, "SELECT entity_id, alias, kind, source FROM aliases ORDER BY entity_id, kind, alias, source")
	if err != nil {
		return nil, nil, fmt.Errorf("read aliases: %w", err)
	}
	for rows.Next() {
		var id int64
		var a kg.Alias
		if err := rows.Scan(&id, &a.Name, &a.Kind, &a.Source); err != nil {
			rows.Close()
			return nil, nil, fmt.Errorf("read aliases: %w", err)
		}
		if i, ok := byID[id]; ok {
			ents[i].Aliases = append(ents[i].Aliases, a)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("read aliases: %w", err)
	}
	rows, err = tx.QueryContext(ctx, "SELECT id, head_id, type, tail_id, status, score, extractor FROM relations ORDER BY id")
	if err != nil {
		return nil, nil, fmt.Errorf("read relations: %w", err)
	}
	var rels []kg.Relation
	for rows.Next() {
		var r kg.Relation
		var score sql.NullFloat64
		if err := rows.Scan(&r.ID, &r.HeadID, &r.Type, &r.TailID, &r.Status, &score, &r.Extractor); err != nil {
			rows.Close()
			return nil, nil, fmt.Errorf("read relations: %w", err)
		}
		if score.Valid {
			v := score.Float64
			r.Score = &v
		}
		h, hok := byID[r.HeadID]
		t, tok := byID[r.TailID]
		if !hok || !tok {
			continue // cannot happen within one snapshot; never misname an end
		}
		r.Head, r.HeadType = ents[h].Name, ents[h].Type
		r.Tail, r.TailType = ents[t].Name, ents[t].Type
		rels = append(rels, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("read relations: %w", err)
	}
	// The evidence goes through the same reading as an entity page's,
	// within the snapshot.
	cite := func(ctx context.Context, ids []int64) (map[int64]docCitation, error) {
		return citations(ctx, tx.QueryContext, ids)
	}
	if err := attachEvidence(ctx, tx.QueryContext, tx.d, cite, rels, math.MaxInt32); err != nil {
		return nil, nil, err
	}
	return ents, rels, nil
}
