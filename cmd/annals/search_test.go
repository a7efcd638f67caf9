package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestSearchShowsEveryOccurrenceInContext(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, "quickstart", dir)
	ws := filepath.Join(dir, ".annals")

	out := mustRun(t, "-w", ws, "search", "諸葛亮", "--context", "6")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	if !strings.HasSuffix(last, " occurrences") || len(lines) < 3 {
		t.Fatalf("want KWIC lines and a count:\n%s", out)
	}
	// The matches line up: each is preceded by the same width of context.
	col := -1
	for _, l := range lines[:len(lines)-1] {
		if !strings.Contains(l, "【诸葛亮】") || !strings.Contains(l, "《") {
			t.Fatalf("line without the match or a citation: %q", l)
		}
		w := displayWidth(l[:strings.Index(l, "【")])
		if col >= 0 && w != col {
			t.Fatalf("matches not aligned (%d vs %d columns):\n%s", w, col, out)
		}
		col = w
	}

	var c struct {
		Total       int `json:"total"`
		Occurrences []struct {
			DocKey string `json:"doc_key"`
			Cite   string `json:"cite"`
			Start  int    `json:"start"`
			End    int    `json:"end"`
			Match  string `json:"match"`
			Left   string `json:"left"`
			Right  string `json:"right"`
		} `json:"occurrences"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "search", "诸葛亮", "--limit", "2", "--offset", "1")), &c); err != nil {
		t.Fatal(err)
	}
	if c.Total != len(lines)-1 || len(c.Occurrences) != 2 {
		t.Fatalf("JSON page: total %d (text said %d), %d occurrences", c.Total, len(lines)-1, len(c.Occurrences))
	}
	for _, o := range c.Occurrences {
		if o.Match != "诸葛亮" || o.End-o.Start != 3 || o.Cite == "" || o.DocKey == "" || o.Left == "" {
			t.Fatalf("occurrence: %+v", o)
		}
	}
	if out := mustRun(t, "-w", ws, "search", "诸葛亮", "-n", "1", "--offset", "1"); !strings.Contains(out, "occurrences, showing 2–2") {
		t.Fatalf("a page says which:\n%s", out)
	}
	if out := mustRun(t, "-w", ws, "search", "Zhuge", "Liang"); !strings.Contains(out, "【Zhuge Liang】") {
		t.Fatalf("several words are one query:\n%s", out)
	}
	if out := mustRun(t, "-w", ws, "search", "司马懿登月"); strings.TrimSpace(out) != "0 occurrences" {
		t.Fatalf("nothing found:\n%s", out)
	}
	if out, err := run(t, "-w", ws, "search", " "); err == nil {
		t.Fatalf("an empty query should fail:\n%s", out)
	}
}
