package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// MatchNames finds the entities named by any of texts: by canonical name,
// alias or a name an extractor gave, in one query.
func (s *DB) MatchNames(ctx context.Context, texts []string) ([]store.NameMatch, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	rows, err := s.query(ctx, `WITH q(t) AS (SELECT DISTINCT value FROM json_each(?)),
		hit(t, id) AS (
			SELECT q.t, e.id FROM q JOIN entities e ON e.name = q.t
			UNION SELECT q.t, a.entity_id FROM q JOIN aliases a ON a.alias = q.t
			UNION SELECT q.t, n.entity_id FROM q JOIN names n ON n.name = q.t WHERE n.entity_id IS NOT NULL)
		SELECT hit.t, `+entityColumns+` FROM hit JOIN entities e ON e.id = hit.id ORDER BY hit.t, e.mentions DESC`, termList(texts))
	if err != nil {
		return nil, fmt.Errorf("match names: %w", err)
	}
	defer rows.Close()
	var out []store.NameMatch
	for rows.Next() {
		var m store.NameMatch
		e := &m.Entity
		if err := rows.Scan(&m.Text, &e.ID, &e.Name, &e.Type, &e.Description, &e.Mentions); err != nil {
			return nil, err
		}
		m.ByName = e.Name == m.Text
		out = append(out, m)
	}
	return out, rows.Err()
}

// Aliases lists an entity's other names.
func (s *DB) Aliases(ctx context.Context, entityID int64) ([]kg.Alias, error) {
	return s.entityAliases(ctx, entityID)
}

// Edges lists the relations of an entity as edges to its neighbours, best
// supported first.
func (s *DB) Edges(ctx context.Context, entityID int64, limit int) ([]store.Edge, error) {
	return s.EdgesOf(ctx, entityID, nil, limit)
}

// EdgesOf is Edges bounded to some relation types (none: all), so that a
// type the best-supported edges crowd out can still be listed.
func (s *DB) EdgesOf(ctx context.Context, entityID int64, types []string, limit int) ([]store.Edge, error) {
	rows, err := s.query(ctx, `
		SELECT id, type, tail_id, 1, support, status FROM relations
		WHERE head_id = ?1 AND (json_array_length(?3) = 0 OR type IN (SELECT value FROM json_each(?3)))
		UNION ALL SELECT id, type, head_id, 0, support, status FROM relations
		WHERE tail_id = ?1 AND head_id != ?1 AND (json_array_length(?3) = 0 OR type IN (SELECT value FROM json_each(?3)))
		ORDER BY 5 DESC, 1 LIMIT ?2`, entityID, limit, termList(types))
	if err != nil {
		return nil, fmt.Errorf("read edges: %w", err)
	}
	defer rows.Close()
	var out []store.Edge
	for rows.Next() {
		var e store.Edge
		if err := rows.Scan(&e.RelationID, &e.Type, &e.Other, &e.Forward, &e.Support, &e.Status); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// EdgeTypeCounts counts an entity's relations by type, both directions.
func (s *DB) EdgeTypeCounts(ctx context.Context, entityID int64) (map[string]int, error) {
	rows, err := s.query(ctx, `
		SELECT type, count(*) FROM relations WHERE head_id = ?1 OR tail_id = ?1 GROUP BY type`, entityID)
	if err != nil {
		return nil, fmt.Errorf("count edges: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var t string
		var n int
		if err := rows.Scan(&t, &n); err != nil {
			return nil, err
		}
		out[t] = n
	}
	return out, rows.Err()
}

// RelationsByID reads relations with up to per evidence sentences each, in
// the order of ids.
func (s *DB) RelationsByID(ctx context.Context, ids []int64, per int) ([]kg.Relation, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := s.query(ctx, `
		SELECT r.id, r.head_id, h.name, h.type, r.type, r.tail_id, t.name, t.type, r.status, r.score, r.extractor
		FROM relations r JOIN entities h ON h.id = r.head_id JOIN entities t ON t.id = r.tail_id
		WHERE r.id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`, idList(ids))
	if err != nil {
		return nil, fmt.Errorf("read relations: %w", err)
	}
	byID := map[int64]kg.Relation{}
	for rows.Next() {
		var r kg.Relation
		var score sql.NullFloat64
		if err := rows.Scan(&r.ID, &r.HeadID, &r.Head, &r.HeadType, &r.Type, &r.TailID, &r.Tail, &r.TailType,
			&r.Status, &score, &r.Extractor); err != nil {
			rows.Close()
			return nil, err
		}
		if score.Valid {
			v := score.Float64
			r.Score = &v
		}
		byID[r.ID] = r
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]kg.Relation, 0, len(byID))
	for _, id := range ids {
		if r, ok := byID[id]; ok {
			out = append(out, r)
		}
	}
	if err := attachEvidence(ctx, s.query, s.db.d, s.cited, out, per); err != nil {
		return nil, err
	}
	return out, nil
}

// EntityChunks lists chunks that mention an entity, most mentions first.
func (s *DB) EntityChunks(ctx context.Context, entityID int64, limit int) ([]int64, error) {
	ids, err := s.ids(ctx, `SELECT m.chunk_id FROM mentions m JOIN names n ON n.id = m.name_id
		WHERE n.entity_id = ? GROUP BY m.chunk_id ORDER BY COUNT(*) DESC, m.chunk_id LIMIT ?`, entityID, limit)
	if err != nil {
		return nil, fmt.Errorf("chunks of entity %d: %w", entityID, err)
	}
	return ids, nil
}

// Passages reads chunks with what citing them needs, in the order of ids.
func (s *DB) Passages(ctx context.Context, ids []int64) ([]store.Passage, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := s.query(ctx, `
		SELECT c.id, c.doc_id, d.key, d.title, d.section, d.lang, c.start, c.end,
			CASE WHEN c.orig IS NOT NULL THEN c.orig WHEN d.norm IS NULL THEN c.text
				ELSE substr(d.text, c.start + 1, c.end - c.start) END, c.text,
			d.offmap IS NOT NULL
		FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE c.id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`, idList(ids))
	if err != nil {
		return nil, fmt.Errorf("read passages: %w", err)
	}
	byID := map[int64]store.Passage{}
	var mapped []int64
	for rows.Next() {
		var p store.Passage
		var title, section string
		var hasMap bool
		if err := rows.Scan(&p.ChunkID, &p.DocID, &p.DocKey, &title, &section, &p.Lang, &p.Start, &p.End, &p.Text, &p.Norm, &hasMap); err != nil {
			rows.Close()
			return nil, err
		}
		p.Cite = kg.Cite(splitSection(section), title, p.DocKey)
		byID[p.ChunkID] = p
		if hasMap {
			mapped = append(mapped, p.ChunkID)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Where normalisation changed lengths, map each normalised position back.
	for _, id := range mapped {
		p := byID[id]
		var b []byte
		if err := s.db.QueryRowContext(ctx, "SELECT offmap FROM documents WHERE id = ?", p.DocID).Scan(&b); err != nil {
			return nil, fmt.Errorf("read offsets of document %d: %w", p.DocID, err)
		}
		m := decodeOffsets(b)
		ns := normOffset(m, p.Start)
		n := len([]rune(p.Norm))
		p.Orig = make([]int, n+1)
		for i := range p.Orig {
			if ns+i < len(m) {
				p.Orig[i] = int(m[ns+i])
			} else {
				p.Orig[i] = p.End
			}
		}
		byID[id] = p
	}
	out := make([]store.Passage, 0, len(byID))
	for _, id := range ids {
		if p, ok := byID[id]; ok {
			out = append(out, p)
		}
	}
	return out, nil
}

// AliasEvidence lists the sentences that give an entity another name of one
// of the kinds (字, 号 …; all kinds when none are given).
func (s *DB) AliasEvidence(ctx context.Context, entityID int64, kinds []string) ([]store.AliasEvidence, error) {
	// From the entity's names to the sentences that name them, so only
	// its own alias sentences are read.
	rows, err := s.query(ctx, `SELECT t.name, e.alias_kind, e.doc_id, d.key, d.title, d.section, e.chunk_id, e.start, e.end,
			e.head_start, e.head_end, e.tail_start, e.tail_end, e.sentence, COALESCE(e.sentence_norm, e.sentence)
		FROM names h JOIN evidence e ON e.head_name = h.id JOIN names t ON t.id = e.tail_name JOIN documents d ON d.id = e.doc_id
		WHERE h.entity_id = ?1 AND e.alias_kind != '' AND e.kept = 1
			AND (json_array_length(?2) = 0 OR e.alias_kind IN (SELECT value FROM json_each(?2)))
		ORDER BY d.key, e.start LIMIT 50`, entityID, termList(kinds))
	if err != nil {
		return nil, fmt.Errorf("read alias evidence: %w", err)
	}
	defer rows.Close()
	var out []store.AliasEvidence
	for rows.Next() {
		var a store.AliasEvidence
		ev := &a.Evidence
		var title, section string
		if err := rows.Scan(&a.Alias, &a.Kind, &ev.DocID, &ev.DocKey, &title, &section, &ev.ChunkID, &ev.Start, &ev.End,
			&ev.Head.Start, &ev.Head.End, &ev.Tail.Start, &ev.Tail.End, &ev.Sentence, &ev.Norm); err != nil {
			return nil, err
		}
		ev.Cite = kg.Cite(splitSection(section), title, ev.DocKey)
		out = append(out, a)
	}
	return out, rows.Err()
}

// NameUses counts the mentions of an entity by the name written and the
// part of the corpus (a document's section without its chapter), most
// used first, at most limit, each with its first mention.
func (s *DB) NameUses(ctx context.Context, entityID int64, limit int) ([]store.NameUse, error) {
	rows, err := s.query(ctx, `SELECT m.surface, d.section, count(*), min(m.id) FROM mentions m
		JOIN names n ON n.id = m.name_id JOIN documents d ON d.id = m.doc_id
		WHERE n.entity_id = ? GROUP BY m.surface, d.section`, entityID)
	if err != nil {
		return nil, fmt.Errorf("count an entity's names by part: %w", err)
	}
	defer rows.Close()
	type use struct{ n, first int64 }
	byPart := map[[2]string]*use{}
	for rows.Next() {
		var name, section string
		var n, first int64
		if err := rows.Scan(&name, &section, &n, &first); err != nil {
			return nil, err
		}
		part := section
		if i := strings.LastIndex(section, "/"); i > 0 {
			part = section[:i]
		}
		k := [2]string{name, part}
		if u := byPart[k]; u != nil {
			u.n += n
			u.first = min(u.first, first)
		} else {
			byPart[k] = &use{n, first}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	out := make([]store.NameUse, 0, len(byPart))
	for k, u := range byPart {
		out = append(out, store.NameUse{Name: k[0], Part: k[1], Mentions: int(u.n), First: kg.Mention{EntityID: u.first}})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Mentions != b.Mentions {
			return a.Mentions > b.Mentions
		}
		return a.First.EntityID < b.First.EntityID
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	// The first mentions, read in one query (EntityID held their ids).
	ids := make([]int64, len(out))
	at := make(map[int64]int, len(out))
	for i, u := range out {
		ids[i], at[u.First.EntityID] = u.First.EntityID, i
	}
	ms, err := s.query(ctx, `SELECT m.id, m.doc_id, m.chunk_id, m.start, m.end, m.surface, d.key, d.title, d.section,
			substr(c.text, max(m.start - c.start - 20, 0) + 1, m.end - c.start - max(m.start - c.start - 20, 0) + 20)
		FROM mentions m JOIN documents d ON d.id = m.doc_id JOIN chunks c ON c.id = m.chunk_id
		WHERE m.id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`, idList(ids))
	if err != nil {
		return nil, fmt.Errorf("read first mentions: %w", err)
	}
	defer ms.Close()
	for ms.Next() {
		var id int64
		m := kg.Mention{EntityID: entityID}
		var title, section string
		if err := ms.Scan(&id, &m.DocID, &m.ChunkID, &m.Start, &m.End, &m.Surface, &m.DocKey, &title, &section, &m.Context); err != nil {
			return nil, err
		}
		m.Cite = kg.Cite(splitSection(section), title, m.DocKey)
		out[at[id]].First = m
	}
	return out, ms.Err()
}

// EntitiesByID reads entities (without their aliases) by id.
func (s *DB) EntitiesByID(ctx context.Context, ids []int64) ([]kg.Entity, error) {
	rows, err := s.query(ctx, "SELECT "+entityColumns+" FROM entities e WHERE e.id IN (SELECT CAST(value AS BIGINT) FROM json_each(?)) ORDER BY e.id", idList(ids))
	if err != nil {
		return nil, fmt.Errorf("read entities: %w", err)
	}
	return scanEntities(rows)
}

// EntitiesNamedEnding lists the entities of type typ whose main names end
// with one of suffixes (which hold no LIKE wildcards), most mentioned
// first.
func (s *DB) EntitiesNamedEnding(ctx context.Context, typ string, suffixes []string, limit int) ([]kg.Entity, error) {
	if len(suffixes) == 0 {
		return nil, nil
	}
	args := []any{typ}
	var like []string
	for _, suf := range suffixes {
		like = append(like, "e.name LIKE ?")
		args = append(args, "%"+suf)
	}
	rows, err := s.query(ctx, "SELECT "+entityColumns+" FROM entities e WHERE e.type = ? AND ("+strings.Join(like, " OR ")+
		") ORDER BY e.mentions DESC, e.id LIMIT ?", append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("find entities by the end of their names: %w", err)
	}
	return scanEntities(rows)
}

// DocumentMentions lists every entity mention of a document in text order,
// with the entity each is aligned to (0 for a name not aligned).
func (s *DB) DocumentMentions(ctx context.Context, docID int64) ([]store.DocMention, error) {
	rows, err := s.query(ctx, `SELECT m.start, m.end, m.surface, COALESCE(e.id, 0), COALESCE(e.name, n.name), COALESCE(e.type, n.type)
		FROM mentions m JOIN names n ON n.id = m.name_id LEFT JOIN entities e ON e.id = n.entity_id
		WHERE m.doc_id = ? ORDER BY m.start, m.end`, docID)
	if err != nil {
		return nil, fmt.Errorf("read the mentions of document %d: %w", docID, err)
	}
	defer rows.Close()
	var out []store.DocMention
	for rows.Next() {
		var m store.DocMention
		if err := rows.Scan(&m.Start, &m.End, &m.Surface, &m.EntityID, &m.Name, &m.Type); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// RelationYears gives the earliest year the evidence of each relation is
// dated to, for those dated at all.
func (s *DB) RelationYears(ctx context.Context, ids []int64) (map[int64]int, error) {
	out := map[int64]int{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.query(ctx, `SELECT relation_id, min(year) FROM evidence
		WHERE relation_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?)) AND year IS NOT NULL GROUP BY relation_id`, idList(ids))
	if err != nil {
		return nil, fmt.Errorf("read the years of relations: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var y int
		if err := rows.Scan(&id, &y); err != nil {
			return nil, err
		}
		out[id] = y
	}
	return out, rows.Err()
}

// MentionsIn lists the mentions inside [start, end) of a document, in
// order, each with its type and the name of the entity it stands for.
func (s *DB) MentionsIn(ctx context.Context, docID int64, start, end int) ([]store.TypedMention, error) {
	rows, err := s.query(ctx, `SELECT m.start, m.end, m.surface, n.type, COALESCE(e.name, n.name), COALESCE(n.entity_id, 0)
		FROM mentions m JOIN names n ON n.id = m.name_id LEFT JOIN entities e ON e.id = n.entity_id
		WHERE m.doc_id = ? AND m.start >= ? AND m.end <= ? ORDER BY m.start, m.end`, docID, start, end)
	if err != nil {
		return nil, fmt.Errorf("read mentions: %w", err)
	}
	defer rows.Close()
	var out []store.TypedMention
	for rows.Next() {
		var m store.TypedMention
		if err := rows.Scan(&m.Start, &m.End, &m.Surface, &m.Type, &m.Name, &m.EntityID); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
