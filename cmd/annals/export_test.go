package main

import (
	"archive/zip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExportWritesFilesAndImportReadsThemBack(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, "quickstart", dir)
	ws := filepath.Join(dir, ".annals")
	var st struct {
		Entities  int `json:"entities"`
		Relations int `json:"relations"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "-w", ws, "stats", "--json")), &st); err != nil {
		t.Fatal(err)
	}

	out := mustRun(t, "-w", ws, "export", "--format", "graphml")
	if !strings.HasPrefix(out, "<?xml") || strings.Count(out, "<node ") != st.Entities || strings.Count(out, "<edge ") != st.Relations {
		t.Fatalf("graphml to standard output: %d nodes, %d edges; stats %+v", strings.Count(out, "<node "), strings.Count(out, "<edge "), st)
	}
	if _, err := run(t, "-w", ws, "export", "--format", "csv"); err == nil || !strings.Contains(err.Error(), "-o FOLDER") {
		t.Fatalf("csv to standard output: %v", err)
	}
	if _, err := run(t, "-w", ws, "export", "--format", "gexf", "-o", filepath.Join(dir, "x")); err == nil {
		t.Fatal("an unknown format was written")
	}
	if _, err := run(t, "-w", ws, "export", "--format", "jsonl", "--depth", "2"); err == nil || !strings.Contains(err.Error(), "--around") {
		t.Fatalf("--depth without --around: %v", err)
	}

	// An existing folder takes a single file's format too.
	mustRun(t, "-w", ws, "export", "--format", "graphml", "-o", dir)
	if _, err := os.Stat(filepath.Join(dir, "annals.graphml")); err != nil {
		t.Fatalf("graphml into a folder: %v", err)
	}
	archive := filepath.Join(dir, "neo4j.zip")
	mustRun(t, "-w", ws, "export", "--format", "neo4j", "-o", archive)
	z, err := zip.OpenReader(archive)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range z.File {
		names = append(names, f.Name)
	}
	z.Close()
	if strings.Join(names, " ") != "nodes.csv relationships.csv import.sh graph.cypher" {
		t.Fatalf("neo4j archive: %v", names)
	}
	mustRun(t, "-w", ws, "export", "--format", "csv", "-o", filepath.Join(dir, "tables"), "--type", "人物", "--relation", "子女,同胞")
	rel, err := os.ReadFile(filepath.Join(dir, "tables", "relations.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(rel)), "\n")[1:] {
		if !strings.Contains(line, ",子女,") && !strings.Contains(line, ",同胞,") {
			t.Errorf("a relation the filter leaves out: %s", line)
		}
	}

	facts := filepath.Join(dir, "facts.jsonl")
	mustRun(t, "-w", ws, "export", "--format", "jsonl", "-o", facts, "--around", "孔明")
	out = mustRun(t, "-w", ws, "import", "--format", "jsonl", facts)
	if !strings.Contains(out, "added 0 facts") || strings.Contains(out, "skipped ") {
		t.Fatalf("importing a workspace's own facts adds nothing: %s", out)
	}
	os.WriteFile(facts, []byte("{\"head\": 1}\n"), 0o644)
	if _, err := run(t, "-w", ws, "import", "--format", "jsonl", facts); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("a bad file: %v", err)
	}
	if _, err := run(t, "-w", ws, "import", "--format", "csv", facts); err == nil {
		t.Fatal("import read a format it does not know")
	}
}
