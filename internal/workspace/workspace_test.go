package workspace

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFindNearestParent(t *testing.T) {
	t.Setenv("ANNALS_WORKSPACE", "")
	root := t.TempDir()
	ws := filepath.Join(root, DirName)
	deep := filepath.Join(root, "a", "b")
	os.MkdirAll(ws, 0o755)
	os.MkdirAll(deep, 0o755)
	if got := Find("", deep); got != ws {
		t.Fatalf("Find = %s, want %s", got, ws)
	}
	t.Setenv("ANNALS_WORKSPACE", filepath.Join(root, "env"))
	if got := Find("", deep); got != filepath.Join(root, "env") {
		t.Fatalf("env should win over search: %s", got)
	}
	if got := Find(filepath.Join(root, "flag"), deep); got != filepath.Join(root, "flag") {
		t.Fatalf("flag should win: %s", got)
	}
}

func TestInitKeepsExistingConfig(t *testing.T) {
	dir := filepath.Join(t.TempDir(), DirName)
	if err := Init(dir); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "annals.yaml")
	os.WriteFile(cfg, []byte("workers: 3\n"), 0o644)
	if err := Init(dir); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(cfg); string(b) != "workers: 3\n" {
		t.Fatal("Init overwrote annals.yaml")
	}
}

func TestSecondWriterIsToldWhoHoldsTheLock(t *testing.T) {
	dir := t.TempDir()
	l, err := TryLock(dir, "annals index corpus")
	if err != nil {
		t.Fatal(err)
	}
	_, err = TryLock(dir, "annals rm x")
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "annals index corpus") {
		t.Fatalf("want ErrLocked naming the holder, got %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	var told string
	if _, err := WaitLock(ctx, dir, "w", func(s string) { told = s }); err == nil || told == "" {
		t.Fatalf("WaitLock should wait, tell, then give up with ctx: %v %q", err, told)
	}
	l.Unlock()
	l2, err := TryLock(dir, "again")
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	l2.Unlock()
}
