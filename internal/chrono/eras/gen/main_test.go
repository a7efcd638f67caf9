package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The committed table must be what the generator makes of the dump. The
// dump lives outside the module, so this check runs where it is present;
// the package's own tests use the committed table and always run.
func TestTableUpToDate(t *testing.T) {
	dump := "../../../../../shared/data/eras/dila_authority_time_chinese.sql"
	if _, err := os.Stat(dump); err != nil {
		t.Skip("DILA dump not present:", err)
	}
	out := filepath.Join(t.TempDir(), "table.json")
	if err := run(dump, out, true); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../table.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("table.json is stale: run go generate in internal/chrono/eras")
	}
}
