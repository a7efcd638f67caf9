package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// Names lists the extracted names that some mention, evidence or attribute
// still uses, with their mention counts.
func (s *DB) Names(ctx context.Context) ([]store.NameRef, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT n.id, n.name, n.type, COALESCE(n.entity_id, 0), COALESCE(m.c, 0)
		FROM names n LEFT JOIN (SELECT name_id, count(*) AS c FROM mentions GROUP BY name_id) m ON m.name_id = n.id
		WHERE m.c > 0 OR n.id IN (SELECT head_name FROM evidence) OR n.id IN (SELECT tail_name FROM evidence)
			OR n.id IN (SELECT name_id FROM entity_attributes)`)
	if err != nil {
		return nil, fmt.Errorf("list names: %w", err)
	}
	defer rows.Close()
	var out []store.NameRef
	for rows.Next() {
		var n store.NameRef
		if err := rows.Scan(&n.ID, &n.Name, &n.Type, &n.EntityID, &n.Mentions); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// AliasFacts lists imported dictionary aliases and aliases read in the text
// (evidence rows that carry an alias kind).
func (s *DB) AliasFacts(ctx context.Context) ([]store.AliasFact, error) {
	var out []store.AliasFact
	rows, err := s.db.QueryContext(ctx, "SELECT main, alias, source FROM alias_dict ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("list dictionary aliases: %w", err)
	}
	for rows.Next() {
		f := store.AliasFact{Kind: "dictionary"}
		if err := rows.Scan(&f.Main, &f.Alias, &f.Source); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, f)
	}
	rows.Close()
	rows, err = s.db.QueryContext(ctx, `
		SELECT h.name, t.name, e.alias_kind, d.key, e.head_start, e.doc_id
		FROM evidence e JOIN names h ON h.id = e.head_name JOIN names t ON t.id = e.tail_name
		JOIN documents d ON d.id = e.doc_id
		WHERE e.alias_kind != '' ORDER BY e.doc_id, e.start`)
	if err != nil {
		return nil, fmt.Errorf("list aliases read in the text: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var f store.AliasFact
		var key string
		var at int
		if err := rows.Scan(&f.Main, &f.Alias, &f.Kind, &key, &at, &f.DocID); err != nil {
			return nil, err
		}
		f.Source = fmt.Sprintf("text:%s@%d", key, at)
		out = append(out, f)
	}
	return out, rows.Err()
}

// AddDictionaryAliases stores aliases from a dictionary file; it returns how
// many were new.
func (s *DB) AddDictionaryAliases(ctx context.Context, source string, facts []store.AliasFact) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, "INSERT INTO alias_dict(main, alias, source) VALUES(?, ?, ?) ON CONFLICT DO NOTHING")
	if err != nil {
		return 0, err
	}
	defer st.Close()
	added := 0
	for _, f := range facts {
		src := f.Source
		if src == "" {
			src = source
		}
		res, err := st.ExecContext(ctx, f.Main, f.Alias, src)
		if err != nil {
			return 0, fmt.Errorf("store alias %s:%s: %w", f.Main, f.Alias, err)
		}
		if n, _ := res.RowsAffected(); n > 0 {
			added++
		}
	}
	if err := setMeta(ctx, tx, MetaDirty, "1"); err != nil {
		return 0, err
	}
	return added, tx.Commit()
}

// ApplyResolution brings the name → entity map, the entities, their
// aliases and the extracted relations in line with a corpus-wide alignment,
// in one transaction, and returns how many rows it wrote. It writes only
// what differs from what is stored: names that moved, entities that came
// or went, aliases gained or lost, and the relations of evidence that is
// new or whose names moved. Aligning an unchanged corpus writes nothing.
// Entity ids survive as long as an entity keeps its name and type, so facts
// added by people or by reasoning stay attached.
func (s *DB) ApplyResolution(ctx context.Context, r store.Resolution) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	a := &applier{tx: tx}
	if err := a.load(ctx); err != nil {
		return 0, fmt.Errorf("read the stored alignment: %w", err)
	}
	if err := a.apply(ctx, r); err != nil {
		return 0, err
	}
	if err := a.relink(ctx); err != nil {
		return 0, fmt.Errorf("apply alignment: %w", err)
	}
	if a.written > 0 {
		if err := bump(ctx, tx, metaAligned); err != nil {
			return 0, err
		}
	}
	if err := setMeta(ctx, tx, MetaDirty, "0"); err != nil {
		return 0, err
	}
	return a.written, tx.Commit()
}

// metaAligned counts the alignments that wrote anything, which readers
// that hold the graph in memory compare (RelationGeneration).
const metaAligned = "aligned_version"

type aliasRow struct{ alias, kind, source string }

// applier holds the stored alignment while a new one is written over it.
type applier struct {
	tx       *txn
	entities map[nameKey]int64           // (name, type) → entity
	names    map[int64]int64             // name → entity, where it has one
	aliases  map[int64]map[aliasRow]bool // entity → its aliases
	touched  map[int64]bool              // entities whose names changed
	moved    []int64                     // names whose entity changed
	written  int
}

func (a *applier) load(ctx context.Context) error {
	a.entities, a.names, a.aliases = map[nameKey]int64{}, map[int64]int64{}, map[int64]map[aliasRow]bool{}
	rows, err := a.tx.QueryContext(ctx, "SELECT id, name, type FROM entities")
	if err != nil {
		return err
	}
	for rows.Next() {
		var id int64
		var k nameKey
		if err := rows.Scan(&id, &k.name, &k.typ); err != nil {
			rows.Close()
			return err
		}
		a.entities[k] = id
	}
	rows.Close()
	if rows, err = a.tx.QueryContext(ctx, "SELECT id, entity_id FROM names WHERE entity_id IS NOT NULL"); err != nil {
		return err
	}
	for rows.Next() {
		var id, eid int64
		if err := rows.Scan(&id, &eid); err != nil {
			rows.Close()
			return err
		}
		a.names[id] = eid
	}
	rows.Close()
	if rows, err = a.tx.QueryContext(ctx, "SELECT entity_id, alias, kind, source FROM aliases"); err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var eid int64
		var al aliasRow
		if err := rows.Scan(&eid, &al.alias, &al.kind, &al.source); err != nil {
			return err
		}
		if a.aliases[eid] == nil {
			a.aliases[eid] = map[aliasRow]bool{}
		}
		a.aliases[eid][al] = true
	}
	return rows.Err()
}

// exec runs a write and counts the rows it changed.
func (a *applier) exec(ctx context.Context, st *sql.Stmt, args ...any) error {
	res, err := st.ExecContext(ctx, args...)
	if err != nil {
		return err
	}
	n, _ := res.RowsAffected()
	a.written += int(n)
	return nil
}

func (a *applier) apply(ctx context.Context, r store.Resolution) error {
	dropAlias, err := a.tx.PrepareContext(ctx, "DELETE FROM aliases WHERE entity_id = ? AND alias = ? AND kind = ? AND source = ?")
	if err != nil {
		return fmt.Errorf("prepare alignment: %w", err)
	}
	defer dropAlias.Close()
	dropEntity, err := a.tx.PrepareContext(ctx, `DELETE FROM entities WHERE id = ?
		AND NOT EXISTS (SELECT 1 FROM relations WHERE head_id = ?1 AND status != 'extracted')
		AND NOT EXISTS (SELECT 1 FROM relations WHERE tail_id = ?1 AND status != 'extracted')`)
	if err != nil {
		return fmt.Errorf("prepare alignment: %w", err)
	}
	defer dropEntity.Close()
	// Names and aliases are written 256 to a statement: on a new corpus
	// there is one of each per name, and on PostgreSQL each statement is a
	// round trip.
	setName := newBatch(a.tx, "UPDATE names SET entity_id = v.column2 FROM (VALUES ",
		"(CAST(? AS BIGINT), CAST(? AS BIGINT))", ") AS v WHERE names.id = v.column1")
	defer setName.close()
	addAlias := newBatch(a.tx, "INSERT INTO aliases(entity_id, alias, kind, source) VALUES ", "(?, ?, ?, ?)", " ON CONFLICT DO NOTHING")
	defer addAlias.close()
	if err := a.addEntities(ctx, r.Entities); err != nil {
		return err
	}
	kept := map[int64]bool{}
	for _, e := range r.Entities {
		id := a.entities[nameKey{e.Name, e.Type}]
		kept[id] = true
		for _, nid := range e.NameIDs {
			if old, ok := a.names[nid]; !ok || old != id {
				if err := setName.add(ctx, nid, id); err != nil {
					return fmt.Errorf("align names: %w", err)
				}
				a.moved = append(a.moved, nid)
			}
			delete(a.names, nid)
		}
		want := map[aliasRow]bool{}
		for _, al := range e.Aliases {
			row := aliasRow{al.Name, al.Kind, al.Source}
			want[row] = true
			if !a.aliases[id][row] {
				if err := addAlias.add(ctx, id, row.alias, row.kind, row.source); err != nil {
					return fmt.Errorf("store aliases: %w", err)
				}
			}
		}
		for row := range a.aliases[id] {
			if !want[row] {
				if err := a.exec(ctx, dropAlias, id, row.alias, row.kind, row.source); err != nil {
					return fmt.Errorf("drop alias %s: %w", row.alias, err)
				}
			}
		}
	}
	// Names no entity claims any more (nothing uses them) lose theirs.
	for nid := range a.names {
		if err := setName.add(ctx, nid, nil); err != nil {
			return fmt.Errorf("unalign names: %w", err)
		}
		a.moved = append(a.moved, nid)
	}
	if err := setName.flush(ctx); err != nil {
		return fmt.Errorf("align names: %w", err)
	}
	if err := addAlias.flush(ctx); err != nil {
		return fmt.Errorf("store aliases: %w", err)
	}
	a.written += setName.affected + addAlias.affected
	// Entities nobody refers to any more go, unless a person or reasoning
	// attached a fact to them; their aliases go with them.
	for _, id := range a.entities {
		if !kept[id] {
			if err := a.exec(ctx, dropEntity, id); err != nil {
				return fmt.Errorf("drop entity %d: %w", id, err)
			}
		}
	}
	return nil
}

// addEntities stores the entities of the alignment that are not stored
// yet, 256 to a statement, and learns their ids.
func (a *applier) addEntities(ctx context.Context, es []store.ResolvedEntity) error {
	var todo []nameKey
	for _, e := range es {
		k := nameKey{e.Name, e.Type}
		if _, ok := a.entities[k]; !ok {
			a.entities[k] = 0 // queued: an alignment names each entity once, but be sure
			todo = append(todo, k)
		}
	}
	n, err := idsByKey(ctx, a.tx, todo, "", "INSERT INTO entities(name, type) VALUES %s RETURNING id, name, type", a.entities)
	a.written += n
	if err != nil {
		return fmt.Errorf("store entities: %w", err)
	}
	return nil
}

// relink brings the extracted relations in line with the names' entities:
// the evidence that is new or whose names moved is linked again, and the
// counts that follow are written where they changed.
func (a *applier) relink(ctx context.Context) error {
	moved := idList(a.moved)
	// Evidence to link: not linked yet (new, or its ends were one entity),
	// or one of its names moved.
	const relink = `(e.relation_id IS NULL OR e.head_name IN (SELECT CAST(value AS BIGINT) FROM json_each(?1))
		OR e.tail_name IN (SELECT CAST(value AS BIGINT) FROM json_each(?1)))`
	stmts := []struct {
		q    string
		args []any
	}{
		{`DELETE FROM names WHERE entity_id IS NULL AND id NOT IN (SELECT name_id FROM mentions)
			AND id NOT IN (SELECT head_name FROM evidence) AND id NOT IN (SELECT tail_name FROM evidence)
			AND id NOT IN (SELECT name_id FROM entity_attributes)`, nil},
		// Mention counts change with names that moved and with documents
		// written or removed, so all are counted; only changes are written.
		{`UPDATE entities SET mentions = c.n FROM (SELECT n.entity_id AS id, count(*) AS n
				FROM mentions m JOIN names n ON n.id = m.name_id WHERE n.entity_id IS NOT NULL GROUP BY n.entity_id
				UNION ALL SELECT e.id, 0 FROM entities e WHERE NOT EXISTS (SELECT 1 FROM names n
					WHERE n.entity_id = e.id AND EXISTS (SELECT 1 FROM mentions WHERE name_id = n.id))) AS c
			WHERE entities.id = c.id AND entities.mentions != c.n`, nil},
		// Extracted relations are a view of the evidence under the names'
		// entities. An alias relation whose two ends became one entity is an
		// alias, not an edge, and is kept as such in the aliases table.
		{`INSERT INTO relations(head_id, type, tail_id, status, score, extractor, created_at)
			SELECT h.entity_id, e.rtype, t.entity_id, 'extracted', MAX(e.score), MIN(e.extractor), ?2
			FROM evidence e JOIN names h ON h.id = e.head_name JOIN names t ON t.id = e.tail_name
			WHERE ` + relink + ` AND h.entity_id IS NOT NULL AND t.entity_id IS NOT NULL AND h.entity_id != t.entity_id AND e.kept = 1
			GROUP BY h.entity_id, e.rtype, t.entity_id
			ON CONFLICT(head_id, type, tail_id, status) DO NOTHING`, []any{moved, now()}},
		{`UPDATE evidence AS e SET relation_id = (SELECT r.id FROM relations r, names h, names t
			WHERE h.id = e.head_name AND t.id = e.tail_name AND r.head_id = h.entity_id
			AND r.tail_id = t.entity_id AND r.type = e.rtype AND r.status = 'extracted' AND e.kept = 1)
			WHERE ` + relink + ` AND relation_id IS DISTINCT FROM (SELECT r.id FROM relations r, names h, names t
			WHERE h.id = e.head_name AND t.id = e.tail_name AND r.head_id = h.entity_id
			AND r.tail_id = t.entity_id AND r.type = e.rtype AND r.status = 'extracted' AND e.kept = 1)`, []any{moved}},
		// Relations no evidence supports any more (their evidence moved, or
		// went with its document) go.
		{`DELETE FROM relations WHERE status = 'extracted'
			AND id NOT IN (SELECT relation_id FROM evidence WHERE relation_id IS NOT NULL)`, nil},
		// Support counts for every relation; the score and extractor of an
		// extracted one are those of its evidence.
		{`UPDATE relations SET support = s.n,
				score = CASE WHEN relations.status = 'extracted' THEN s.score ELSE relations.score END,
				extractor = CASE WHEN relations.status = 'extracted' AND s.n > 0 THEN s.extractor ELSE relations.extractor END
			FROM (SELECT relation_id AS id, count(*) AS n, MAX(score) AS score, MIN(extractor) AS extractor
				FROM evidence WHERE relation_id IS NOT NULL GROUP BY relation_id
				UNION ALL SELECT r.id, 0, NULL, NULL FROM relations r
				WHERE NOT EXISTS (SELECT 1 FROM evidence WHERE relation_id = r.id)) AS s
			WHERE relations.id = s.id AND (relations.support != s.n OR relations.status = 'extracted'
				AND (relations.score IS DISTINCT FROM s.score OR s.n > 0 AND relations.extractor != s.extractor))`, nil},
	}
	for _, st := range stmts {
		res, err := a.tx.ExecContext(ctx, st.q, st.args...)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		a.written += int(n)
	}
	return nil
}

// entityAliases loads the aliases of one entity.
func (s *DB) entityAliases(ctx context.Context, id int64) ([]kg.Alias, error) {
	got, err := s.aliasesOf(ctx, []int64{id})
	return got[id], err
}

// aliasesOf loads the aliases of each of the entities ids, in one query.
func (s *DB) aliasesOf(ctx context.Context, ids []int64) (map[int64][]kg.Alias, error) {
	rows, err := s.query(ctx, `SELECT entity_id, alias, kind, source FROM aliases
		WHERE entity_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?)) ORDER BY entity_id, kind, alias`, idList(ids))
	if err != nil {
		return nil, fmt.Errorf("read aliases: %w", err)
	}
	defer rows.Close()
	out := map[int64][]kg.Alias{}
	for rows.Next() {
		var id int64
		var a kg.Alias
		if err := rows.Scan(&id, &a.Name, &a.Kind, &a.Source); err != nil {
			return nil, err
		}
		out[id] = append(out[id], a)
	}
	return out, rows.Err()
}
