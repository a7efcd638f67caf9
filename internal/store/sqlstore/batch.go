package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// batchRows is how many rows one batched INSERT carries: well under
// SQLite's 32,766 parameters for the widest table (evidence, 17 columns).
const batchRows = 256

// batch gathers the rows of one INSERT and writes them many at a time:
// one statement for 256 mentions instead of 256, which is most of what
// writing costs on PostgreSQL, where each statement is a round trip.
type batch struct {
	tx           *txn
	head, suffix string // INSERT INTO t(cols) VALUES … ON CONFLICT …
	row          string // (?, ?, …)
	cols         int
	args         []any
	full         *sql.Stmt // the statement of a full batch, prepared once
	affected     int       // rows the statements written so far changed
}

func newBatch(tx *txn, head, row, suffix string) *batch {
	return &batch{tx: tx, head: head, row: row, suffix: suffix, cols: strings.Count(row, "?")}
}

// add queues a row, writing the batch when it is full.
func (b *batch) add(ctx context.Context, args ...any) error {
	b.args = append(b.args, args...)
	if len(b.args) < batchRows*b.cols {
		return nil
	}
	if b.full == nil {
		st, err := b.tx.PrepareContext(ctx, b.statement(batchRows))
		if err != nil {
			return err
		}
		b.full = st
	}
	res, err := b.full.ExecContext(ctx, b.args...)
	b.args = b.args[:0]
	return b.count(res, err)
}

// flush writes the rows queued.
func (b *batch) flush(ctx context.Context) error {
	if len(b.args) == 0 {
		return nil
	}
	res, err := b.tx.ExecContext(ctx, b.statement(len(b.args)/b.cols), b.args...)
	b.args = b.args[:0]
	return b.count(res, err)
}

func (b *batch) count(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	n, _ := res.RowsAffected()
	b.affected += int(n)
	return nil
}

func (b *batch) statement(rows int) string {
	return b.head + valuesList(b.row, rows) + b.suffix
}

// valuesList repeats one row of placeholders, "(?, ?)", rows times, comma
// separated: the body of a VALUES list.
func valuesList(row string, rows int) string {
	var s strings.Builder
	s.Grow(rows * (len(row) + 2))
	for i := range rows {
		if i > 0 {
			s.WriteString(", ")
		}
		s.WriteString(row)
	}
	return s.String()
}

func (b *batch) close() {
	if b != nil && b.full != nil {
		b.full.Close()
	}
}

// idsByKey reads the ids of (name, type) keys, 256 keys to a statement:
// for each batch it runs first (when not "") and then query, each with the
// batch's VALUES list in place of %s, and puts the (id, name, type) rows
// query returns into ids. It returns how many rows it read.
func idsByKey(ctx context.Context, tx *txn, keys []nameKey, first, query string, ids map[nameKey]int64) (int, error) {
	read := 0
	for len(keys) > 0 {
		part := keys[:min(len(keys), batchRows)]
		keys = keys[len(part):]
		args := make([]any, 0, 2*len(part))
		for _, k := range part {
			args = append(args, k.name, k.typ)
		}
		values := valuesList("(?, ?)", len(part))
		if first != "" {
			if _, err := tx.ExecContext(ctx, fmt.Sprintf(first, values), args...); err != nil {
				return read, err
			}
		}
		rows, err := tx.QueryContext(ctx, fmt.Sprintf(query, values), args...)
		if err != nil {
			return read, err
		}
		for rows.Next() {
			var id int64
			var k nameKey
			if err := rows.Scan(&id, &k.name, &k.typ); err != nil {
				rows.Close()
				return read, err
			}
			ids[k] = id
			read++
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return read, err
		}
	}
	return read, nil
}
