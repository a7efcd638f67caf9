package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/annals-project/annals/internal/index"
)

// copyTables are the tables a copy carries, parents before the tables
// that refer to them. chunk_terms, the lexical index, is each engine's
// own and is carried apart.
var copyTables = []string{
	"meta", "documents", "chunks", "steps", "entities", "names", "mentions", "relations", "evidence",
	"entity_attributes", "aliases", "alias_dict", "llm_cache", "llm_usage", "state", "regex_patterns", "chunk_vectors",
	"entity_vectors", "merges", "chunk_years", "feedback", "failures", "communities", "community_members",
}

// identityTables have an id the database assigns, which PostgreSQL must
// be told to go on from after rows come in with theirs.
var identityTables = []string{
	"documents", "chunks", "entities", "names", "mentions", "relations", "evidence", "entity_attributes",
	"aliases", "alias_dict", "llm_usage", "merges", "feedback", "communities",
}

// ErrNotEmpty is returned by CopyTo when the destination holds documents
// or entities already.
var ErrNotEmpty = errors.New("the destination is not empty")

// CopyTo copies every row of the store into dst, an empty store of
// either engine, as one snapshot read and one transaction written: a
// copy that fails leaves dst as it was. Ids are kept, so citations and
// links stay true. Each table is reported to progress as it is done.
func (s *DB) CopyTo(ctx context.Context, dst *DB, progress func(table string, rows int)) error {
	var n int
	if err := dst.db.QueryRowContext(ctx, "SELECT (SELECT count(*) FROM documents) + (SELECT count(*) FROM entities)").Scan(&n); err != nil {
		return fmt.Errorf("copy: look at the destination: %w", err)
	}
	if n > 0 {
		return fmt.Errorf("copy to %s: %w (it holds %d documents and entities)", dst.path, ErrNotEmpty, n)
	}
	opts := &sql.TxOptions{ReadOnly: true}
	if s.db.d.postgres {
		opts.Isolation = sql.LevelRepeatableRead // one snapshot for every table
	}
	src, err := s.db.BeginTx(ctx, opts)
	if err != nil {
		return fmt.Errorf("copy: %w", err)
	}
	defer src.Rollback()
	out, err := dst.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("copy: %w", err)
	}
	defer out.Rollback()
	for _, table := range copyTables {
		rows, err := copyTable(ctx, src, out, table)
		if err != nil {
			return fmt.Errorf("copy table %s: %w", table, err)
		}
		if progress != nil {
			progress(table, rows)
		}
	}
	rows, err := copyTerms(ctx, src, out)
	if err != nil {
		return fmt.Errorf("copy the lexical index: %w", err)
	}
	if progress != nil {
		progress("chunk_terms", rows)
	}
	if dst.db.d.postgres {
		for _, table := range identityTables {
			if _, err := out.ExecContext(ctx, "SELECT setval(pg_get_serial_sequence('"+table+"', 'id'), COALESCE(max(id), 0) + 1, false) FROM "+table); err != nil {
				return fmt.Errorf("copy: continue the ids of %s: %w", table, err)
			}
		}
	}
	if err := out.Commit(); err != nil {
		return fmt.Errorf("copy: commit: %w", err)
	}
	return nil
}

// copyTable copies one table's rows, column by name.
func copyTable(ctx context.Context, src, out *txn, table string) (int, error) {
	rows, err := src.QueryContext(ctx, "SELECT * FROM "+table)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = c
		if c == "end" {
			quoted[i] = `"end"` // a reserved word in PostgreSQL
		}
	}
	b := newBatch(out, "INSERT INTO "+table+"("+strings.Join(quoted, ", ")+") VALUES ",
		"("+valuesList("?", len(cols))+")", "")
	defer b.close()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		if err := b.add(ctx, vals...); err != nil {
			return n, err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return n, err
	}
	return n, b.flush(ctx)
}

// copyTerms copies the lexical index: which chunks it holds, whose terms
// are made again from their text (SQLite's FTS5 table keeps none).
func copyTerms(ctx context.Context, src, out *txn) (int, error) {
	q := "SELECT c.id, c.text FROM chunk_terms t JOIN chunks c ON c.id = t.rowid"
	if src.d.postgres {
		q = "SELECT c.id, c.text FROM chunk_terms t JOIN chunks c ON c.id = t.chunk_id"
	}
	rows, err := src.QueryContext(ctx, q)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	st, err := out.PrepareContext(ctx, out.d.insertTerms)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	n := 0
	var terms []byte
	for rows.Next() {
		var id int64
		var text string
		if err := rows.Scan(&id, &text); err != nil {
			return n, err
		}
		terms = index.AppendText(terms[:0], text)
		if _, err := st.ExecContext(ctx, id, string(terms)); err != nil {
			return n, err
		}
		n++
	}
	return n, rows.Err()
}
