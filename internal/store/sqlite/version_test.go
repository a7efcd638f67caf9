package sqlite

import (
	"context"
	"path/filepath"
	"testing"
)

func TestDataVersionChangesOnEveryCommit(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "annals.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
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
	// Another process is another connection: a second handle stands in.
	other, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.db.ExecContext(ctx, "UPDATE meta SET value = '2' WHERE key = 'probe'"); err != nil {
		t.Fatal(err)
	}
	if v2, _ := s.DataVersion(ctx); v2 == v1 {
		t.Fatal("a commit by another connection did not move the version")
	}
}
