package sqlstore

// PostgreSQL: for deployments where several servers and an indexer share
// one graph. The tables are SQLite's; what differs is opening, migrating,
// the writer lock (an advisory lock) and how other processes' commits are
// noticed (LISTEN/NOTIFY).

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// IsPostgresURL says whether a store setting names a PostgreSQL database
// (postgres://… or postgresql://…).
func IsPostgresURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// OpenPostgres connects to the PostgreSQL database at dsn (a postgres://
// URL) and brings its schema up to date. The queries are the ones SQLite
// runs, through PostgreSQL's dialect.
func OpenPostgres(ctx context.Context, dsn string) (*DB, error) {
	if !IsPostgresURL(dsn) {
		return nil, fmt.Errorf("store %q: want postgres://USER:PASSWORD@HOST:PORT/DATABASE", Redact(dsn))
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", Redact(dsn), err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to %s: %w", Redact(dsn), err)
	}
	s := &DB{db: conn{DB: db, d: postgresSQL}, path: Redact(dsn), dsn: dsn}
	if err := s.migratePostgres(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Redact hides the password of a database URL, for messages.
func Redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "(a database URL that does not parse)"
	}
	return u.Redacted()
}

// Advisory lock keys: one serialises migrations, one is the writer lock.
// Any number a deployment's other programs do not use would do.
const (
	migrateLock = 0x616e6e616c730001 // "annals" 1
	writerLock  = 0x616e6e616c730002 // "annals" 2
)

// ErrNewerSchema is returned when the database was migrated by a newer
// annals than this one.
var ErrNewerSchema = errors.New("the database's schema is newer than this annals")

// migrate applies the migrations not yet applied, under an advisory lock,
// so that processes opening one new database at once migrate it once.
func (s *DB) migratePostgres(ctx context.Context) error {
	tx, err := s.db.DB.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", int64(migrateLock)); err != nil {
		return fmt.Errorf("migrate: lock: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	var version int
	err = tx.QueryRowContext(ctx, "SELECT version FROM schema_version").Scan(&version)
	if errors.Is(err, sql.ErrNoRows) {
		_, err = tx.ExecContext(ctx, "INSERT INTO schema_version VALUES (0)")
	}
	if err != nil {
		return fmt.Errorf("migrate: read the schema version: %w", err)
	}
	if version > len(postgresMigrations) {
		return fmt.Errorf("schema version %d, this annals knows %d: %w; upgrade annals", version, len(postgresMigrations), ErrNewerSchema)
	}
	for i := version; i < len(postgresMigrations); i++ {
		if _, err := tx.ExecContext(ctx, postgresMigrations[i]); err != nil {
			return fmt.Errorf("migrate to version %d: %w", i+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, "UPDATE schema_version SET version = $1", len(postgresMigrations)); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// Lock is the writer lock, held on a connection of its own: PostgreSQL
// releases it when that connection ends, so a killed indexer leaves no
// stale lock behind.
type Lock struct {
	conn *sql.Conn
}

// lockPoll is how often a waiting writer asks for the lock again.
const lockPoll = 200 * time.Millisecond

// WriterLock takes the lock that one writer at a time holds (an index
// run, an alignment). While another holds it, waiting is told once, and
// it waits until ctx ends.
func (s *DB) WriterLock(ctx context.Context, waiting func(string)) (*Lock, error) {
	if !s.db.d.postgres {
		return nil, errors.New("writer lock: a SQLite workspace is locked through its folder")
	}
	conn, err := s.db.DB.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("writer lock: %w", err)
	}
	told := false
	for {
		var got bool
		if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", int64(writerLock)).Scan(&got); err != nil {
			conn.Close()
			return nil, fmt.Errorf("writer lock: %w", err)
		}
		if got {
			return &Lock{conn: conn}, nil
		}
		if !told && waiting != nil {
			waiting("another process is writing to this database")
			told = true
		}
		select {
		case <-ctx.Done():
			conn.Close()
			return nil, fmt.Errorf("writer lock: another process is writing to this database: %w", ctx.Err())
		case <-time.After(lockPoll):
		}
	}
}

// Unlock releases the writer lock.
func (l *Lock) Unlock() error {
	_, err := l.conn.ExecContext(context.Background(), "SELECT pg_advisory_unlock($1)", int64(writerLock))
	if cerr := l.conn.Close(); err == nil {
		err = cerr
	}
	return err
}
