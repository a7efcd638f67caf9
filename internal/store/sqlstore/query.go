package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

const entityColumns = "e.id, e.name, e.type, e.description, e.mentions"

// entityDest are the scan destinations of entityColumns.
func entityDest(e *kg.Entity) []any {
	return []any{&e.ID, &e.Name, &e.Type, &e.Description, &e.Mentions}
}

func scanEntities(rows *sql.Rows) ([]kg.Entity, error) {
	defer rows.Close()
	var out []kg.Entity
	for rows.Next() {
		var e kg.Entity
		if err := rows.Scan(entityDest(&e)...); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// FindEntities finds the entities a name refers to: by main name, by alias
// or by an extracted name, most mentioned first.
func (s *DB) FindEntities(ctx context.Context, name string) ([]kg.Entity, error) {
	rows, err := s.query(ctx, `SELECT `+entityColumns+` FROM entities e WHERE e.id IN (
			SELECT id FROM entities WHERE name = ?1
			UNION SELECT entity_id FROM aliases WHERE alias = ?1
			UNION SELECT entity_id FROM names WHERE name = ?1 AND entity_id IS NOT NULL)
		ORDER BY (e.name = ?1) DESC, e.mentions DESC LIMIT 20`, name)
	if err != nil {
		return nil, fmt.Errorf("find entity %q: %w", name, err)
	}
	out, err := scanEntities(rows)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(out))
	for i, e := range out {
		ids[i] = e.ID
	}
	aliases, err := s.aliasesOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Aliases = aliases[out[i].ID]
	}
	return out, nil
}

// Entity reads one entity with its aliases.
func (s *DB) Entity(ctx context.Context, id int64) (*kg.Entity, error) {
	rows, err := s.query(ctx, "SELECT "+entityColumns+" FROM entities e WHERE e.id = ?", id)
	if err != nil {
		return nil, err
	}
	list, err := scanEntities(rows)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("entity %d: %w", id, store.ErrNotFound)
	}
	e := list[0]
	e.Aliases, err = s.entityAliases(ctx, id)
	return &e, err
}

// ListEntities lists entities, most mentioned first.
func (s *DB) ListEntities(ctx context.Context, q store.EntityQuery) ([]kg.Entity, error) {
	where := []string{"1=1"}
	var args []any
	if q.Type != "" {
		where = append(where, "e.type = ?")
		args = append(args, q.Type)
	}
	if q.Prefix != "" {
		where = append(where, `e.name LIKE ? ESCAPE '\'`)
		args = append(args, likePrefix(q.Prefix))
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 100
	}
	args = append(args, limit, q.Offset)
	rows, err := s.db.QueryContext(ctx, "SELECT "+entityColumns+" FROM entities e WHERE "+strings.Join(where, " AND ")+
		" ORDER BY e.mentions DESC, e.name LIMIT ? OFFSET ?", args...)
	if err != nil {
		return nil, fmt.Errorf("list entities: %w", err)
	}
	return scanEntities(rows)
}

// Relations lists the relations an entity takes part in, best supported
// first, each with up to three evidence sentences.
func (s *DB) Relations(ctx context.Context, entityID int64, limit int) ([]kg.Relation, error) {
	return s.relations(ctx, entityID, nil, limit, 3, false)
}

// RelationList lists the relations an entity takes part in, best
// supported first, as Relations does but without their sentences:
// AttachEvidence reads those of the ones that need them.
func (s *DB) RelationList(ctx context.Context, entityID int64, limit int) ([]kg.Relation, error) {
	return s.relations(ctx, entityID, nil, limit, 0, false)
}

// AttachEvidence reads up to per evidence sentences for each of rels.
func (s *DB) AttachEvidence(ctx context.Context, rels []kg.Relation, per int) error {
	return attachEvidence(ctx, s.query, s.db.d, s.cited, rels, per)
}

// Facts lists the relations an entity takes part in, those of the given
// types first, then best supported first, each with the first sentence
// found for it: what ranking them for a question needs, read quicker
// than Relations.
func (s *DB) Facts(ctx context.Context, entityID int64, types []string, limit int) ([]kg.Relation, error) {
	return s.relations(ctx, entityID, types, limit, 1, false)
}

// Statements are an entity's relations of the given types only, where it
// is the head or the tail, best supported first, each with up to per
// evidence sentences.
func (s *DB) Statements(ctx context.Context, entityID int64, types []string, per int) ([]kg.Relation, error) {
	if len(types) == 0 {
		return nil, nil
	}
	return s.relations(ctx, entityID, types, 200, per, true)
}

// relationsSQL ranks an entity's relations (?1), those of the types asked
// (?3, only those if ?4) first, and joins the names of the first ?2.
func relationsSQL(typed bool) string {
	both := `SELECT id, head_id, type, tail_id, status, score, extractor, support FROM relations WHERE head_id = ?1
		UNION ALL
		SELECT id, head_id, type, tail_id, status, score, extractor, support FROM relations WHERE tail_id = ?1 AND head_id != ?1`
	ranked := both + ` ORDER BY support DESC, type, id LIMIT ?2`
	if typed {
		ranked = `SELECT *, type IN (SELECT value FROM json_each(?3)) AS asked FROM (` + both + `) u
			WHERE NOT ?4 OR type IN (SELECT value FROM json_each(?3))
			ORDER BY asked DESC, support DESC, type, id LIMIT ?2`
	}
	return `SELECT r.id, r.head_id, h.name, h.type, r.type, r.tail_id, t.name, t.type, r.status, r.score, r.extractor, r.support
		FROM (` + ranked + `) r JOIN entities h ON h.id = r.head_id JOIN entities t ON t.id = r.tail_id`
}

func (s *DB) relations(ctx context.Context, entityID int64, types []string, limit, per int, only bool) ([]kg.Relation, error) {
	if limit <= 0 {
		limit = 50
	}
	// Ranked and cut before the names are joined, so a much-connected
	// entity costs only the relations kept; put back in order here, not
	// by a second sort in SQL.
	args := []any{entityID, limit}
	if len(types) > 0 {
		args = append(args, termList(types), only)
	}
	rows, err := s.query(ctx, relationsSQL(len(types) > 0), args...)
	if err != nil {
		return nil, fmt.Errorf("list relations: %w", err)
	}
	var out []kg.Relation
	for rows.Next() {
		var r kg.Relation
		var score sql.NullFloat64
		if err := rows.Scan(&r.ID, &r.HeadID, &r.Head, &r.HeadType, &r.Type, &r.TailID, &r.Tail, &r.TailType,
			&r.Status, &score, &r.Extractor, &r.Support); err != nil {
			rows.Close()
			return nil, err
		}
		if score.Valid {
			v := score.Float64
			r.Score = &v
		}
		out = append(out, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	asked := func(r kg.Relation) bool { return slices.Contains(types, r.Type) }
	slices.SortFunc(out, func(a, b kg.Relation) int {
		if x, y := asked(a), asked(b); x != y {
			return cmp.Compare(b2i(y), b2i(x))
		}
		return cmp.Or(cmp.Compare(b.Support, a.Support), strings.Compare(a.Type, b.Type), cmp.Compare(a.ID, b.ID))
	})
	if per > 0 {
		if err := attachEvidence(ctx, s.query, s.db.d, s.cited, out, per); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// queryFunc runs a query: a DB's cached statements, or a transaction's.
type queryFunc func(ctx context.Context, q string, args ...any) (*sql.Rows, error)

// citeFunc finds how each of the documents ids is cited.
type citeFunc func(ctx context.Context, ids []int64) (map[int64]docCitation, error)

// attachEvidence reads up to per evidence sentences for every relation in
// one query.
func attachEvidence(ctx context.Context, query queryFunc, d *dialect, cite citeFunc, rels []kg.Relation, per int) error {
	if len(rels) == 0 {
		return nil
	}
	byID := make(map[int64]int, len(rels))
	ids := make([]int64, len(rels))
	for i, r := range rels {
		byID[r.ID] = i
		ids[i] = r.ID
	}
	cols := `e.id, e.relation_id, e.doc_id, e.chunk_id, e.start, e.end, e.head_start, e.head_end,
		e.tail_start, e.tail_end, e.sentence, e.sentence_norm, e.year, COALESCE(e.precision, ''),
		COALESCE(e.reign, ''), COALESCE(e.reign_year, 0)`
	// The first sentences stored for each, read through the relation's
	// index in id order (the order documents were indexed in): a relation
	// stated in hundreds of places costs only the few kept. They are put
	// in order here, not by SQL, which would copy every row, sentences
	// and all, into a sorter first; their documents are read once each.
	rows, err := query(ctx, `SELECT `+cols+` FROM `+d.firstEvidence, idList(ids), per)
	if err != nil {
		return fmt.Errorf("read evidence: %w", err)
	}
	defer rows.Close()
	type read struct {
		id, relation int64
		ev           kg.Evidence
	}
	var got []read
	var docs []int64
	for rows.Next() {
		var ev kg.Evidence
		var eid, rid int64
		var norm sql.NullString
		var year sql.NullInt64
		if err := rows.Scan(&eid, &rid, &ev.DocID, &ev.ChunkID, &ev.Start, &ev.End,
			&ev.Head.Start, &ev.Head.End, &ev.Tail.Start, &ev.Tail.End, &ev.Sentence, &norm, &year, &ev.Precision,
			&ev.Reign, &ev.ReignYear); err != nil {
			return err
		}
		ev.Norm = ev.Sentence
		if norm.Valid {
			ev.Norm = norm.String
		}
		if year.Valid {
			y := int(year.Int64)
			ev.Year = &y
		} else {
			ev.Precision = ""
		}
		got = append(got, read{eid, rid, ev})
		docs = append(docs, ev.DocID)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows.Close()
	slices.Sort(docs)
	cites, err := cite(ctx, slices.Compact(docs))
	if err != nil {
		return err
	}
	slices.SortFunc(got, func(a, b read) int { return cmp.Compare(a.id, b.id) })
	for _, r := range got {
		c := cites[r.ev.DocID]
		r.ev.DocKey, r.ev.Cite = c.key, c.cite
		i := byID[r.relation]
		rels[i].Evidence = append(rels[i].Evidence, r.ev)
	}
	// Facts that relation reasoning fed back keep their sentences apart.
	return feedbackEvidence(ctx, query, rels, per)
}

// docCitation is how a document is cited: its key and its citation.
type docCitation struct{ key, cite string }

// citations reads the key and citation of each document in ids, once each.
func citations(ctx context.Context, query queryFunc, ids []int64) (map[int64]docCitation, error) {
	out := map[int64]docCitation{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := query(ctx, `SELECT id, key, title, section FROM documents WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`, idList(ids))
	if err != nil {
		return nil, fmt.Errorf("read the documents cited: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var key, title, section string
		if err := rows.Scan(&id, &key, &title, &section); err != nil {
			return nil, err
		}
		out[id] = docCitation{key, kg.Cite(splitSection(section), title, key)}
	}
	return out, rows.Err()
}

func splitSection(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "/")
}

// Mentions lists where an entity is named, in document order.
func (s *DB) Mentions(ctx context.Context, entityID int64, limit int) ([]kg.Mention, error) {
	if limit <= 0 {
		limit = 20
	}
	rows, err := s.query(ctx, `
		SELECT m.doc_id, m.chunk_id, m.start, m.end, m.surface,
			substr(c.text, max(m.start - c.start - 20, 0) + 1, m.end - c.start - max(m.start - c.start - 20, 0) + 20), m.year
		FROM (SELECT m.* FROM mentions m JOIN names n ON n.id = m.name_id
			WHERE n.entity_id = ? ORDER BY m.doc_id, m.start LIMIT ?) m
		JOIN chunks c ON c.id = m.chunk_id
		ORDER BY m.doc_id, m.start`, entityID, limit)
	if err != nil {
		return nil, fmt.Errorf("list mentions: %w", err)
	}
	defer rows.Close()
	var out []kg.Mention
	var docs []int64
	for rows.Next() {
		m := kg.Mention{EntityID: entityID}
		var year sql.NullInt64
		if err := rows.Scan(&m.DocID, &m.ChunkID, &m.Start, &m.End, &m.Surface, &m.Context, &year); err != nil {
			return nil, err
		}
		if year.Valid {
			y := int(year.Int64)
			m.Year = &y
		}
		out = append(out, m)
		docs = append(docs, m.DocID)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	cites, err := s.cited(ctx, slices.Compact(docs)) // in document order already
	if err != nil {
		return nil, err
	}
	for i := range out {
		c := cites[out[i].DocID]
		out[i].DocKey, out[i].Cite = c.key, c.cite
	}
	return out, nil
}

// Attributes lists what the texts say of an entity as attributes (字 孔明,
// 生卒 1019年—1086年): one per attribute and value, with the first
// sentence that states it and the number that do, each attribute's values
// together, in the order the texts first state them. At most limit rows
// are read (0: 500).
func (s *DB) Attributes(ctx context.Context, entityID int64, limit int) ([]kg.Attribute, error) {
	if limit <= 0 {
		limit = 500
	}
	rows, err := s.query(ctx, `
		SELECT a.attribute, a.value, a.doc_id, a.chunk_id, a.start, a.end, a.name_start, a.name_end,
			a.value_start, a.value_end, a.sentence, a.sentence_norm, a.extractor, e.name
		FROM (SELECT a.* FROM entity_attributes a JOIN names n ON n.id = a.name_id
			WHERE n.entity_id = ? ORDER BY a.id LIMIT ?) a
		JOIN entities e ON e.id = ?
		ORDER BY a.id`, entityID, limit, entityID)
	if err != nil {
		return nil, fmt.Errorf("list attributes: %w", err)
	}
	type vkey struct{ kind, value string }
	var out []kg.Attribute
	at := map[vkey]int{}
	var docs []int64
	for rows.Next() {
		var a kg.Attribute
		var ev kg.Evidence
		var norm sql.NullString
		if err := rows.Scan(&a.Kind, &a.Value, &ev.DocID, &ev.ChunkID, &ev.Start, &ev.End, &ev.Head.Start, &ev.Head.End,
			&ev.Tail.Start, &ev.Tail.End, &ev.Sentence, &norm, &a.Extractor, &a.Entity); err != nil {
			rows.Close()
			return nil, err
		}
		k := vkey{a.Kind, a.Value}
		if i, ok := at[k]; ok {
			out[i].Support++
			continue
		}
		ev.Norm = ev.Sentence
		if norm.Valid {
			ev.Norm = norm.String
		}
		a.EntityID, a.Evidence, a.Support = entityID, &ev, 1
		at[k] = len(out)
		out = append(out, a)
		docs = append(docs, ev.DocID)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.Sort(docs)
	cites, err := s.cited(ctx, slices.Compact(docs))
	if err != nil {
		return nil, err
	}
	first := map[string]int{}
	for i := range out {
		c := cites[out[i].Evidence.DocID]
		out[i].Evidence.DocKey, out[i].Evidence.Cite = c.key, c.cite
		if _, ok := first[out[i].Kind]; !ok {
			first[out[i].Kind] = i
		}
	}
	slices.SortStableFunc(out, func(a, b kg.Attribute) int { return cmp.Compare(first[a.Kind], first[b.Kind]) })
	return out, nil
}

// Stats counts what the workspace holds.
func (s *DB) Stats(ctx context.Context) (*store.Stats, error) {
	st := &store.Stats{EntityTypes: map[string]int{}, Relation: map[string]int{}, Languages: map[string]int{}, Status: map[string]int{}}
	counts := []struct {
		q   string
		dst *int
	}{
		{"SELECT count(*), COALESCE(sum(chars), 0) FROM documents", nil},
		{"SELECT count(*) FROM chunks", &st.Chunks},
		{"SELECT count(*) FROM entities", &st.Entities},
		{"SELECT count(*) FROM mentions", &st.Mentions},
		{"SELECT count(*) FROM relations", &st.Relations},
		{"SELECT count(*) FROM evidence", &st.Evidence},
		{"SELECT count(*) FROM aliases", &st.Aliases},
	}
	for _, c := range counts {
		var err error
		if c.dst == nil {
			err = s.db.QueryRowContext(ctx, c.q).Scan(&st.Documents, &st.Characters)
		} else {
			err = s.db.QueryRowContext(ctx, c.q).Scan(c.dst)
		}
		if err != nil {
			return nil, fmt.Errorf("count: %w", err)
		}
	}
	groups := []struct {
		q   string
		dst map[string]int
	}{
		{"SELECT type, count(*) FROM entities GROUP BY type", st.EntityTypes},
		{"SELECT type, count(*) FROM relations GROUP BY type", st.Relation},
		{"SELECT lang, count(*) FROM documents GROUP BY lang", st.Languages},
		{"SELECT status, count(*) FROM relations GROUP BY status", st.Status},
	}
	for _, g := range groups {
		rows, err := s.db.QueryContext(ctx, g.q)
		if err != nil {
			return nil, fmt.Errorf("count: %w", err)
		}
		for rows.Next() {
			var k string
			var n int
			if err := rows.Scan(&k, &n); err != nil {
				rows.Close()
				return nil, err
			}
			g.dst[k] = n
		}
		rows.Close()
	}
	return st, nil
}

// IsNotFound reports whether err says something does not exist.
func IsNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }

// AliasMatch is an entity found by the start of one of its aliases.
type AliasMatch struct {
	Entity kg.Entity
	Alias  kg.Alias
}

// EntitiesByAliasPrefix finds entities by the start of an alias (孔 finds
// 诸葛亮 by 孔明), of one type or any, most mentioned first, each once
// with its shortest matching alias. The prefix is compared as a range of
// the alias index, so it costs the aliases that match.
func (s *DB) EntitiesByAliasPrefix(ctx context.Context, prefix, typ string, limit int) ([]AliasMatch, error) {
	if prefix == "" {
		return nil, nil
	}
	rows, err := s.query(ctx, `SELECT `+entityColumns+`, a.alias, a.kind, a.source
		FROM (SELECT entity_id, alias, kind, source, row_number() OVER (PARTITION BY entity_id ORDER BY length(alias), alias) AS rn
			FROM aliases WHERE alias >= ?1 AND alias < ?1 || char(1114111)) a
		JOIN entities e ON e.id = a.entity_id
		WHERE a.rn = 1 AND (?2 = '' OR e.type = ?2)
		ORDER BY e.mentions DESC, e.id LIMIT ?3`, prefix, typ, limit)
	if err != nil {
		return nil, fmt.Errorf("find entities by alias prefix %q: %w", prefix, err)
	}
	defer rows.Close()
	var out []AliasMatch
	for rows.Next() {
		var m AliasMatch
		e := &m.Entity
		if err := rows.Scan(&e.ID, &e.Name, &e.Type, &e.Description, &e.Mentions, &m.Alias.Name, &m.Alias.Kind, &m.Alias.Source); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// SetDescription stores an entity's description (written by a model);
// "" clears it, so that the one written from the facts shows again.
func (s *DB) SetDescription(ctx context.Context, id int64, description string) error {
	res, err := s.db.ExecContext(ctx, "UPDATE entities SET description = ? WHERE id = ?", description, id)
	if err != nil {
		return fmt.Errorf("set the description of entity %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("entity %d: %w", id, store.ErrNotFound)
	}
	return nil
}
