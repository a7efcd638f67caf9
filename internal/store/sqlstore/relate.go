package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// EKGLinks lists which entity is mentioned in which chunk, once per pair,
// by entity then chunk. The two tables are read as they are and joined,
// deduplicated and sorted here: quicker than asking SQLite to sort a
// quarter of a million rows.
func (s *DB) EKGLinks(ctx context.Context) ([]store.EKGLink, error) {
	entityOf := map[int64]int64{}
	rows, err := s.db.QueryContext(ctx, "SELECT id, entity_id FROM names WHERE entity_id IS NOT NULL")
	if err != nil {
		return nil, fmt.Errorf("read entity–chunk links: %w", err)
	}
	for rows.Next() {
		var n, e int64
		if err := rows.Scan(&n, &e); err != nil {
			rows.Close()
			return nil, err
		}
		entityOf[n] = e
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = s.db.QueryContext(ctx, "SELECT name_id, chunk_id FROM mentions")
	if err != nil {
		return nil, fmt.Errorf("read entity–chunk links: %w", err)
	}
	defer rows.Close()
	var out []store.EKGLink
	for rows.Next() {
		var n, c int64
		if err := rows.Scan(&n, &c); err != nil {
			return nil, err
		}
		if e, ok := entityOf[n]; ok {
			out = append(out, store.EKGLink{Entity: e, Chunk: c})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b store.EKGLink) int {
		return cmp.Or(cmp.Compare(a.Entity, b.Entity), cmp.Compare(a.Chunk, b.Chunk))
	})
	return slices.Compact(out), nil
}

// RelationEdges lists every relation by ids.
func (s *DB) RelationEdges(ctx context.Context) ([]store.RelationEdge, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, head_id, type, tail_id, status, support FROM relations ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("read relations: %w", err)
	}
	defer rows.Close()
	var out []store.RelationEdge
	for rows.Next() {
		var e store.RelationEdge
		if err := rows.Scan(&e.ID, &e.Head, &e.Type, &e.Tail, &e.Status, &e.Support); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// EntityTypes maps every entity to its type.
func (s *DB) EntityTypes(ctx context.Context) (map[int64]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, type FROM entities")
	if err != nil {
		return nil, fmt.Errorf("read entity types: %w", err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var t string
		if err := rows.Scan(&id, &t); err != nil {
			return nil, err
		}
		out[id] = t
	}
	return out, rows.Err()
}

// EntityNames lists, for each entity, every name it goes by in the texts:
// its canonical name first, then the names extractors aligned to it and
// its aliases.
func (s *DB) EntityNames(ctx context.Context, ids []int64) (map[int64][]string, error) {
	rows, err := s.query(ctx, `SELECT e.id, e.name, 0 FROM entities e WHERE e.id IN (SELECT CAST(value AS BIGINT) FROM json_each(?1))
		UNION SELECT n.entity_id, n.name, 1 FROM names n WHERE n.entity_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?1))
		UNION SELECT a.entity_id, a.alias, 2 FROM aliases a WHERE a.entity_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?1))
		ORDER BY 1, 3, 2`, idList(ids))
	if err != nil {
		return nil, fmt.Errorf("read entity names: %w", err)
	}
	defer rows.Close()
	out := map[int64][]string{}
	for rows.Next() {
		var id int64
		var name string
		var rank int
		if err := rows.Scan(&id, &name, &rank); err != nil {
			return nil, err
		}
		if !containsString(out[id], name) {
			out[id] = append(out[id], name)
		}
	}
	return out, rows.Err()
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// AddFeedback writes a fact that relation reasoning established: the
// relation with its status and the query, and the feedback row that keeps
// its evidence. A fact already fed back with the same status and still in
// force is not added twice (New is false).
func (s *DB) AddFeedback(ctx context.Context, fb store.Feedback) (store.Feedback, error) {
	if fb.Status != kg.StatusVerified && fb.Status != kg.StatusInferred {
		return fb, fmt.Errorf("feedback status %q: want %s or %s", fb.Status, kg.StatusVerified, kg.StatusInferred)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fb, err
	}
	defer tx.Rollback()
	if fb, err = keepFact(ctx, tx, fb, "relate"); err != nil || !fb.New {
		return fb, err
	}
	return fb, tx.Commit()
}

// keepFact writes, in tx, a fact that no extractor stands behind (fed
// back by reasoning, or imported): its relation, made with extractor if
// new, and the feedback row that keeps its evidence, unless one in force
// holds it already (New false).
func keepFact(ctx context.Context, tx *txn, fb store.Feedback, extractor string) (store.Feedback, error) {
	ev, err := json.Marshal(fb.Evidence)
	if err != nil {
		return fb, err
	}
	at := now()
	if _, err := tx.ExecContext(ctx, `INSERT INTO relations(head_id, type, tail_id, status, score, extractor, query, created_at, support)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(head_id, type, tail_id, status) DO NOTHING`,
		fb.HeadID, fb.Type, fb.TailID, fb.Status, fb.Score, extractor, fb.Query, at, len(fb.Evidence)); err != nil {
		return fb, fmt.Errorf("add relation %s: %w", fb.Type, err)
	}
	if err := tx.QueryRowContext(ctx, "SELECT id FROM relations WHERE head_id = ? AND type = ? AND tail_id = ? AND status = ?",
		fb.HeadID, fb.Type, fb.TailID, fb.Status).Scan(&fb.RelationID); err != nil {
		return fb, fmt.Errorf("find relation %s: %w", fb.Type, err)
	}
	var existing int64
	err = tx.QueryRowContext(ctx, "SELECT id FROM feedback WHERE relation_id = ? AND reverted_at IS NULL ORDER BY id LIMIT 1", fb.RelationID).Scan(&existing)
	switch {
	case err == nil:
		fb.ID, fb.New = existing, false
		return fb, nil
	case !errors.Is(err, sql.ErrNoRows):
		return fb, err
	}
	err = tx.QueryRowContext(ctx, `INSERT INTO feedback(relation_id, head_id, type, tail_id, status, query, via, evidence, created_at)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, fb.RelationID, fb.HeadID, fb.Type, fb.TailID, fb.Status, fb.Query,
		strings.Join(fb.Via, "/"), string(ev), at).Scan(&fb.ID)
	if err != nil {
		return fb, fmt.Errorf("record the evidence of relation %s: %w", fb.Type, err)
	}
	fb.Created, fb.New = at, true
	return fb, nil
}

// Feedback lists what relation reasoning wrote back, newest first; reverted
// rows too when all is set.
func (s *DB) Feedback(ctx context.Context, all bool) ([]store.Feedback, error) {
	q := `SELECT f.id, COALESCE(f.relation_id, 0), f.head_id, COALESCE(h.name, ''), f.type, f.tail_id, COALESCE(t.name, ''),
			f.status, f.query, f.via, f.evidence, f.created_at, COALESCE(f.reverted_at, '')
		FROM feedback f LEFT JOIN entities h ON h.id = f.head_id LEFT JOIN entities t ON t.id = f.tail_id`
	if !all {
		q += " WHERE f.reverted_at IS NULL"
	}
	rows, err := s.db.QueryContext(ctx, q+" ORDER BY f.id DESC")
	if err != nil {
		return nil, fmt.Errorf("list feedback: %w", err)
	}
	defer rows.Close()
	var out []store.Feedback
	for rows.Next() {
		var f store.Feedback
		var via, ev string
		if err := rows.Scan(&f.ID, &f.RelationID, &f.HeadID, &f.Head, &f.Type, &f.TailID, &f.Tail, &f.Status, &f.Query,
			&via, &ev, &f.Created, &f.Reverted); err != nil {
			return nil, err
		}
		if via != "" {
			f.Via = strings.Split(via, "/")
		}
		if err := json.Unmarshal([]byte(ev), &f.Evidence); err != nil {
			return nil, fmt.Errorf("feedback %d: evidence: %w", f.ID, err)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// RevertFeedback takes a fed-back fact out of the graph: the feedback row
// is marked reverted, and the relation goes when no other feedback in
// force holds it.
func (s *DB) RevertFeedback(ctx context.Context, id int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var rel sql.NullInt64
	var reverted sql.NullString
	err = tx.QueryRowContext(ctx, "SELECT relation_id, reverted_at FROM feedback WHERE id = ?", id).Scan(&rel, &reverted)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("feedback %d (annals feedback list shows them): %w", id, store.ErrNotFound)
	}
	if err != nil {
		return err
	}
	if reverted.Valid {
		return fmt.Errorf("feedback %d was reverted at %s", id, reverted.String)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE feedback SET reverted_at = ? WHERE id = ?", now(), id); err != nil {
		return err
	}
	if rel.Valid {
		if _, err := tx.ExecContext(ctx, `DELETE FROM relations WHERE id = ? AND status != 'extracted'
			AND NOT EXISTS (SELECT 1 FROM feedback WHERE relation_id = ? AND reverted_at IS NULL)`, rel.Int64, rel.Int64); err != nil {
			return fmt.Errorf("remove fed-back relation: %w", err)
		}
	}
	return tx.Commit()
}

// feedbackEvidence reads the evidence of fed-back relations, for those of
// rels that the evidence table has none for.
func feedbackEvidence(ctx context.Context, query queryFunc, rels []kg.Relation, per int) error {
	var ids []int64
	byID := map[int64]int{}
	for i, r := range rels {
		if r.Status != kg.StatusExtracted && len(r.Evidence) == 0 {
			ids = append(ids, r.ID)
			byID[r.ID] = i
		}
	}
	if len(ids) == 0 {
		return nil
	}
	rows, err := query(ctx, `SELECT relation_id, evidence FROM feedback
		WHERE relation_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?)) AND reverted_at IS NULL ORDER BY id`, idList(ids))
	if err != nil {
		return fmt.Errorf("read fed-back evidence: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var ev string
		if err := rows.Scan(&id, &ev); err != nil {
			return err
		}
		var evs []kg.Evidence
		if err := json.Unmarshal([]byte(ev), &evs); err != nil {
			return fmt.Errorf("fed-back evidence of relation %d: %w", id, err)
		}
		r := &rels[byID[id]]
		for _, e := range evs {
			if len(r.Evidence) < per {
				r.Evidence = append(r.Evidence, e)
			}
		}
	}
	return rows.Err()
}

// RelationGeneration says, cheaply, which relations the workspace holds:
// the highest relation id (facts fed back add relations) and how many
// alignments have written anything (they move names between entities and
// rewrite relations without always adding one).
func (s *DB) RelationGeneration(ctx context.Context) (maxID, aligned int64, err error) {
	err = s.queryRow(ctx, `SELECT COALESCE((SELECT max(id) FROM relations), 0),
		COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = ?), 0)`, metaAligned).Scan(&maxID, &aligned)
	if err != nil {
		err = fmt.Errorf("read relations: %w", err)
	}
	return maxID, aligned, err
}
