package sqlite

import (
	"context"
	"fmt"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// Names lists the extracted names that some mention or evidence still uses,
// with their mention counts.
func (s *DB) Names(ctx context.Context) ([]store.NameRef, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT n.id, n.name, n.type, COALESCE(n.entity_id, 0), COALESCE(m.c, 0)
		FROM names n LEFT JOIN (SELECT name_id, count(*) AS c FROM mentions GROUP BY name_id) m ON m.name_id = n.id
		WHERE m.c > 0 OR n.id IN (SELECT head_name FROM evidence) OR n.id IN (SELECT tail_name FROM evidence)`)
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
	st, err := tx.PrepareContext(ctx, "INSERT OR IGNORE INTO alias_dict(main, alias, source) VALUES(?, ?, ?)")
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

// ApplyResolution rewrites the name → entity map, the entities, their
// aliases and the extracted relations from a corpus-wide alignment, in one
// transaction. Entity ids survive as long as an entity keeps its name and
// type, so facts added by people or by reasoning stay attached.
func (s *DB) ApplyResolution(ctx context.Context, r store.Resolution) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmts := []string{
		"CREATE TEMP TABLE IF NOT EXISTS keep_entities (id INTEGER PRIMARY KEY)",
		"DELETE FROM keep_entities",
		"UPDATE names SET entity_id = NULL",
		"DELETE FROM aliases",
	}
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("prepare alignment: %w", err)
		}
	}
	upsert, err := tx.PrepareContext(ctx, `INSERT INTO entities(name, type) VALUES(?, ?)
		ON CONFLICT(name, type) DO UPDATE SET name = excluded.name RETURNING id`)
	if err != nil {
		return err
	}
	defer upsert.Close()
	keep, _ := tx.PrepareContext(ctx, "INSERT OR IGNORE INTO keep_entities(id) VALUES(?)")
	defer keep.Close()
	setName, _ := tx.PrepareContext(ctx, "UPDATE names SET entity_id = ? WHERE id = ?")
	defer setName.Close()
	addAlias, _ := tx.PrepareContext(ctx, "INSERT OR IGNORE INTO aliases(entity_id, alias, kind, source) VALUES(?, ?, ?, ?)")
	defer addAlias.Close()
	for _, e := range r.Entities {
		var id int64
		if err := upsert.QueryRowContext(ctx, e.Name, e.Type).Scan(&id); err != nil {
			return fmt.Errorf("store entity %s: %w", e.Name, err)
		}
		if _, err := keep.ExecContext(ctx, id); err != nil {
			return err
		}
		for _, nid := range e.NameIDs {
			if _, err := setName.ExecContext(ctx, id, nid); err != nil {
				return err
			}
		}
		for _, a := range e.Aliases {
			if _, err := addAlias.ExecContext(ctx, id, a.Name, a.Kind, a.Source); err != nil {
				return err
			}
		}
	}
	stmts = []string{
		// Entities nobody refers to any more go, unless a person or reasoning
		// attached a fact to them.
		`DELETE FROM entities WHERE id NOT IN (SELECT id FROM keep_entities)
			AND id NOT IN (SELECT head_id FROM relations WHERE status != 'extracted')
			AND id NOT IN (SELECT tail_id FROM relations WHERE status != 'extracted')`,
		`DELETE FROM names WHERE entity_id IS NULL AND id NOT IN (SELECT name_id FROM mentions)
			AND id NOT IN (SELECT head_name FROM evidence) AND id NOT IN (SELECT tail_name FROM evidence)`,
		`UPDATE entities SET mentions = COALESCE((SELECT count(*) FROM mentions m JOIN names n ON n.id = m.name_id
			WHERE n.entity_id = entities.id), 0)`,
		// Extracted relations are a view of the evidence under the new map. An
		// alias relation whose two ends became one entity is an alias, not an
		// edge, and is kept as such in the aliases table.
		`INSERT INTO relations(head_id, type, tail_id, status, score, extractor, created_at)
			SELECT h.entity_id, e.rtype, t.entity_id, 'extracted', MAX(e.score), MIN(e.extractor), '` + now() + `'
			FROM evidence e JOIN names h ON h.id = e.head_name JOIN names t ON t.id = e.tail_name
			WHERE h.entity_id IS NOT NULL AND t.entity_id IS NOT NULL AND h.entity_id != t.entity_id AND e.kept = 1
			GROUP BY h.entity_id, e.rtype, t.entity_id
			ON CONFLICT(head_id, type, tail_id, status) DO UPDATE SET score = excluded.score, extractor = excluded.extractor`,
		`UPDATE evidence SET relation_id = (SELECT r.id FROM relations r, names h, names t
			WHERE h.id = evidence.head_name AND t.id = evidence.tail_name AND r.head_id = h.entity_id
			AND r.tail_id = t.entity_id AND r.type = evidence.rtype AND r.status = 'extracted' AND evidence.kept = 1)`,
		`DELETE FROM relations WHERE status = 'extracted'
			AND id NOT IN (SELECT relation_id FROM evidence WHERE relation_id IS NOT NULL)`,
		`UPDATE relations SET support = (SELECT count(*) FROM evidence WHERE relation_id = relations.id)`,
		"DELETE FROM keep_entities",
	}
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("apply alignment: %w", err)
		}
	}
	if err := setMeta(ctx, tx, MetaDirty, "0"); err != nil {
		return err
	}
	return tx.Commit()
}

// entityAliases loads the aliases of one entity.
func (s *DB) entityAliases(ctx context.Context, id int64) ([]kg.Alias, error) {
	rows, err := s.query(ctx, "SELECT alias, kind, source FROM aliases WHERE entity_id = ? ORDER BY kind, alias", id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []kg.Alias
	for rows.Next() {
		var a kg.Alias
		if err := rows.Scan(&a.Name, &a.Kind, &a.Source); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}
