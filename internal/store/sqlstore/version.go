package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// versionWatch holds a connection of its own, which does nothing but
// learn whether any other connection (of this process or another) has
// committed since it last asked: SQLite's data_version on a connection
// that never writes, or PostgreSQL's notifications of commits.
type versionWatch struct {
	mu  sync.Mutex
	db  *sql.DB   // SQLite
	ask *sql.Stmt // PRAGMA data_version, prepared once: every page asks it
	pg  *pgx.Conn // PostgreSQL: listens on commitChannel
	n   int64
}

// DataVersion changes whenever a change to the database is committed, by
// this process or another. Caches of what was read compare it to know
// that they are still true.
func (s *DB) DataVersion(ctx context.Context) (int64, error) {
	w := &s.version
	w.mu.Lock()
	defer w.mu.Unlock()
	if s.db.d.postgres {
		return w.postgres(ctx, s.dsn)
	}
	if w.db == nil {
		q := url.Values{}
		q.Add("_pragma", "query_only(1)")
		q.Add("_pragma", "busy_timeout(10000)")
		db, err := sql.Open("sqlite", "file:"+s.path+"?"+q.Encode())
		if err != nil {
			return 0, fmt.Errorf("watch for changes: %w", err)
		}
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
		ask, err := db.PrepareContext(ctx, "PRAGMA data_version")
		if err != nil {
			db.Close()
			return 0, fmt.Errorf("watch for changes: %w", err)
		}
		w.db, w.ask = db, ask
	}
	if err := w.ask.QueryRowContext(ctx).Scan(&w.n); err != nil {
		return 0, fmt.Errorf("read data version: %w", err)
	}
	return w.n, nil
}

// postgres counts the commits announced on commitChannel. A commit that
// returned before this call has signalled the listening connection's
// server process, which sends the notification before it answers the
// next query: one round trip makes the count as current as SQLite's. A
// lost connection may have missed some, so a new one counts as a change.
func (w *versionWatch) postgres(ctx context.Context, dsn string) (int64, error) {
	if w.pg != nil {
		if _, err := w.pg.Exec(ctx, "SELECT 1"); err == nil {
			return w.n, nil
		}
		w.pg.Close(context.Background())
		w.pg = nil
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return 0, fmt.Errorf("watch for changes: %w", err)
	}
	cfg.OnNotification = func(*pgconn.PgConn, *pgconn.Notification) { w.n++ } // under w.mu: only queries under it receive
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return 0, fmt.Errorf("watch for changes: connect to %s: %w", Redact(dsn), err)
	}
	if _, err := c.Exec(ctx, "LISTEN "+commitChannel); err != nil {
		c.Close(context.Background())
		return 0, fmt.Errorf("watch for changes: %w", err)
	}
	w.pg = c
	w.n++
	return w.n, nil
}

func (w *versionWatch) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ask != nil {
		w.ask.Close()
	}
	if w.db != nil {
		w.db.Close()
	}
	if w.pg != nil {
		w.pg.Close(context.Background())
	}
}
