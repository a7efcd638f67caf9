package sqlstore

import (
	"context"
	"testing"
)

func TestDataVersionChangesOnEveryCommit(t *testing.T) {
	eachEngine(t, func(t *testing.T, ctx context.Context, s *DB) {
		v0, err := s.DataVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := s.DataVersion(ctx); v != v0 {
			t.Fatalf("no commit, yet the version moved: %d → %d", v0, v)
		}
		if _, err := s.db.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES ('probe', '1') ON CONFLICT(key) DO UPDATE SET value = excluded.value"); err != nil {
			t.Fatal(err)
		}
		v1, _ := s.DataVersion(ctx)
		if v1 == v0 {
			t.Fatal("a commit of this process did not move the version")
		}
		// A transaction that only reads moves nothing.
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var value string
		if err := tx.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", "probe").Scan(&value); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if v, _ := s.DataVersion(ctx); v != v1 {
			t.Fatalf("a read moved the version: %d → %d", v1, v)
		}
		// Another process is another connection: a second handle stands in,
		// writing in a transaction.
		other := reopen(t, s)
		tx, err = other.db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.ExecContext(ctx, "UPDATE meta SET value = '2' WHERE key = 'probe'"); err != nil {
			t.Fatal(err)
		}
		if v, _ := s.DataVersion(ctx); v != v1 {
			t.Fatalf("an uncommitted write moved the version: %d → %d", v1, v)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if v2, _ := s.DataVersion(ctx); v2 == v1 {
			t.Fatal("a commit by another connection did not move the version")
		}
	})
}
