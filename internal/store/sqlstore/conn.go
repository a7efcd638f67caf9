package sqlstore

import (
	"context"
	"database/sql"
)

// conn is the database as the queries of this package see it: every
// statement text passes through the engine's dialect on its way to the
// driver, so one query, written once, runs on SQLite and on PostgreSQL.
type conn struct {
	*sql.DB
	d *dialect
}

func (c conn) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	res, err := c.DB.ExecContext(ctx, c.d.sql(q), args...)
	if err == nil {
		err = c.d.committed(ctx, c.DB)
	}
	return res, err
}

func (c conn) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return c.DB.QueryContext(ctx, c.d.sql(q), args...)
}

func (c conn) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	return c.DB.QueryRowContext(ctx, c.d.sql(q), args...)
}

func (c conn) PrepareContext(ctx context.Context, q string) (*sql.Stmt, error) {
	return c.DB.PrepareContext(ctx, c.d.sql(q))
}

// BeginTx starts a transaction whose statements pass through the dialect.
func (c conn) BeginTx(ctx context.Context, o *sql.TxOptions) (*txn, error) {
	tx, err := c.DB.BeginTx(ctx, o)
	if err != nil {
		return nil, err
	}
	return &txn{Tx: tx, d: c.d, db: c.DB}, nil
}

// txn is a transaction of conn. It remembers whether it wrote, so that
// committing a write can tell the other processes (PostgreSQL's NOTIFY).
type txn struct {
	*sql.Tx
	d     *dialect
	db    *sql.DB
	wrote bool
}

func (t *txn) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	t.wrote = true
	return t.Tx.ExecContext(ctx, t.d.sql(q), args...)
}

func (t *txn) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return t.Tx.QueryContext(ctx, t.d.sql(q), args...)
}

func (t *txn) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	return t.Tx.QueryRowContext(ctx, t.d.sql(q), args...)
}

// PrepareContext prepares a statement of the transaction; statements
// prepared in a transaction are taken to write.
func (t *txn) PrepareContext(ctx context.Context, q string) (*sql.Stmt, error) {
	t.wrote = true
	return t.Tx.PrepareContext(ctx, t.d.sql(q))
}

// Commit commits, then tells the other processes that the data changed
// when the transaction wrote.
func (t *txn) Commit() error {
	if t.wrote {
		if err := t.d.beforeCommit(t.Tx); err != nil {
			t.Tx.Rollback()
			return err
		}
	}
	return t.Tx.Commit()
}
