// Package sqlstore keeps a workspace's rows in a SQL database: by default
// the embedded SQLite file in the workspace (pure Go, WAL so readers never
// wait for the writer), or a PostgreSQL database shared by several
// servers. Every query is written once and runs on both (dialect.go);
// each engine has its own migrations.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/annals-project/annals/internal/cached"
	"net/url"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// DB is a workspace database.
type DB struct {
	db   conn
	path string // the SQLite file, or PostgreSQL's URL without its password
	dsn  string // PostgreSQL's URL; "" for SQLite
	// beforeCommit, when set, runs inside every document write just before
	// it commits; crash tests kill the process there.
	beforeCommit func()
	stmts        stmtCache
	version      versionWatch
	headCache    cached.Value[int64, []docHead] // by DataVersion
}

// SetBeforeCommit installs a hook that runs inside each document write,
// before it commits. For crash tests.
func (s *DB) SetBeforeCommit(f func()) { s.beforeCommit = f }

// Options tune OpenWith.
type Options struct {
	// MapBytes, above 0, has every connection read up to that much of
	// the file through a memory map: pages come from the operating
	// system's cache, shared by the connections, instead of being copied
	// into each one's own (an entity page read 1.7 times as fast). The
	// mapped pages count in the process's resident memory, so a long
	// write (indexing) goes without.
	MapBytes int64
}

// Open opens (creating if needed) the database at path and brings its schema
// up to date.
func Open(ctx context.Context, path string) (*DB, error) {
	return OpenWith(ctx, path, Options{})
}

// OpenWith is Open tuned by o.
func OpenWith(ctx context.Context, path string, o Options) (*DB, error) {
	q := url.Values{}
	for _, p := range []string{"journal_mode(WAL)", "foreign_keys(1)", "busy_timeout(10000)", "synchronous(NORMAL)", "cache_size(-65536)"} {
		q.Add("_pragma", p)
	}
	if o.MapBytes > 0 {
		q.Add("_pragma", fmt.Sprintf("mmap_size(%d)", o.MapBytes))
	}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4) // idle connections keep their prepared statements
	s := &DB{db: conn{DB: db, d: sqliteSQL}, path: path}
	if err := s.migrateSQLite(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Close releases the database.
func (s *DB) Close() error {
	s.stmts.close()
	s.version.close()
	return s.db.Close()
}

// SQL exposes the database for packages that add their own tables later.
func (s *DB) SQL() *sql.DB { return s.db.DB }

// Postgres says whether the workspace's rows are in PostgreSQL.
func (s *DB) Postgres() bool { return s.db.d.postgres }

// Version is the number of migrations the database has had.
func (s *DB) Version(ctx context.Context) (int, error) {
	q := "PRAGMA user_version"
	if s.db.d.postgres {
		q = "SELECT version FROM schema_version"
	}
	var v int
	if err := s.db.QueryRowContext(ctx, q).Scan(&v); err != nil {
		return 0, fmt.Errorf("read the schema version: %w", err)
	}
	return v, nil
}

func (s *DB) migrateSQLite(ctx context.Context) error {
	var version int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("read schema version of %s: %w", s.path, err)
	}
	if version > len(sqliteMigrations) {
		return fmt.Errorf("database %s has schema version %d, this annals knows %d: %w; upgrade annals", s.path, version, len(sqliteMigrations), ErrNewerSchema)
	}
	for i := version; i < len(sqliteMigrations); i++ {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, sqliteMigrations[i]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate %s to version %d: %w", s.path, i+1, err)
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", i+1)); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migrate %s to version %d: %w", s.path, i+1, err)
		}
	}
	return nil
}

// Meta reads a workspace-level setting; "" when unset.
func (s *DB) Meta(ctx context.Context, key string) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read meta %s: %w", key, err)
	}
	return v, nil
}

// SetMeta writes a workspace-level setting.
func (s *DB) SetMeta(ctx context.Context, key, value string) error {
	return setMeta(ctx, s.db, key, value)
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func setMeta(ctx context.Context, x execer, key, value string) error {
	_, err := x.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, value)
	if err != nil {
		return fmt.Errorf("write meta %s: %w", key, err)
	}
	return nil
}

func now() string { return time.Now().UTC().Format(time.RFC3339) }

// MetaDirty is set whenever documents or aliases change, and cleared when
// entity alignment has run over the new state.
const MetaDirty = "resolve_dirty"

// Query runs a query of the shared SQL (SQLite's parameters) on either
// engine, for tests and tools that read the tables directly.
func (s *DB) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return s.db.QueryContext(ctx, q, args...)
}

// QueryRow is Query for one row.
func (s *DB) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return s.db.QueryRowContext(ctx, q, args...)
}

// Exec runs a statement of the shared SQL on either engine.
func (s *DB) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return s.db.ExecContext(ctx, q, args...)
}
