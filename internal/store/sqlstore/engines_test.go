package sqlstore

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/annals-project/annals/internal/store/sqlstore/sqltest"
)

// eachEngine runs fn as a subtest on an empty store of each engine:
// SQLite always, PostgreSQL where sqltest has a server to make databases
// in. What these tests check, both engines must do alike.
func eachEngine(t *testing.T, fn func(t *testing.T, ctx context.Context, db *DB)) {
	t.Run("sqlite", func(t *testing.T) {
		ctx, db := openTest(t)
		fn(t, ctx, db)
	})
	t.Run("postgres", func(t *testing.T) {
		ctx := context.Background()
		db, err := OpenPostgres(ctx, sqltest.PostgresURL(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		fn(t, ctx, db)
	})
}

func openTest(t *testing.T) (context.Context, *DB) {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return ctx, db
}

// reopen opens a second handle on db's store, as another process would.
func reopen(t *testing.T, db *DB) *DB {
	t.Helper()
	ctx := context.Background()
	var other *DB
	var err error
	if db.Postgres() {
		other, err = OpenPostgres(ctx, db.dsn)
	} else {
		other, err = Open(ctx, db.path)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	return other
}
