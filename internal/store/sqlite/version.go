package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"sync"
)

// versionWatch holds a connection of its own, which does nothing but ask
// SQLite whether any other connection (of this process or another) has
// committed since it last asked.
type versionWatch struct {
	once sync.Once
	db   *sql.DB
	err  error
	mu   sync.Mutex
	n    int64
}

// DataVersion changes whenever a change to the database is committed,
// by this process or another (SQLite's data_version, read on a connection
// that never writes). Caches of what was read compare it to know that
// they are still true.
func (s *DB) DataVersion(ctx context.Context) (int64, error) {
	w := &s.version
	w.once.Do(func() {
		q := url.Values{}
		q.Add("_pragma", "query_only(1)")
		q.Add("_pragma", "busy_timeout(10000)")
		w.db, w.err = sql.Open("sqlite", "file:"+s.path+"?"+q.Encode())
		if w.err == nil {
			w.db.SetMaxOpenConns(1)
			w.db.SetMaxIdleConns(1)
		}
	})
	if w.err != nil {
		return 0, fmt.Errorf("watch for changes: %w", w.err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.db.QueryRowContext(ctx, "PRAGMA data_version").Scan(&w.n); err != nil {
		return 0, fmt.Errorf("read data version: %w", err)
	}
	return w.n, nil
}

func (w *versionWatch) close() {
	if w.db != nil {
		w.db.Close()
	}
}
