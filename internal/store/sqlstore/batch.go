package sqlstore

import (
	"context"
	"database/sql"
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
	_, err := b.full.ExecContext(ctx, b.args...)
	b.args = b.args[:0]
	return err
}

// flush writes the rows queued.
func (b *batch) flush(ctx context.Context) error {
	if len(b.args) == 0 {
		return nil
	}
	_, err := b.tx.ExecContext(ctx, b.statement(len(b.args)/b.cols), b.args...)
	b.args = b.args[:0]
	return err
}

func (b *batch) statement(rows int) string {
	var s strings.Builder
	s.Grow(len(b.head) + rows*(len(b.row)+2) + len(b.suffix))
	s.WriteString(b.head)
	for i := range rows {
		if i > 0 {
			s.WriteString(", ")
		}
		s.WriteString(b.row)
	}
	s.WriteString(b.suffix)
	return s.String()
}

func (b *batch) close() {
	if b != nil && b.full != nil {
		b.full.Close()
	}
}
