package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/annals-project/annals/internal/store/sqlstore/sqltest"
)

func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s\n%s", u, resp.Status, body)
	}
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
}

// Two servers and an indexer on one PostgreSQL database: while the
// indexer commits batch after batch, each server sees whole batches only,
// never fewer documents than before; once it is done, both answer alike
// and hold all that an index into SQLite holds.
func TestTwoServersAndAnIndexerShareOneDatabase(t *testing.T) {
	store := sqltest.PostgresURL(t)
	exe := binary(t)
	root := peopleCorpus(t)
	embedded := filepath.Join(t.TempDir(), "embedded")
	if out, err := exec.Command(exe, "-w", embedded, "-q", "index", root).CombinedOutput(); err != nil {
		t.Fatalf("index into SQLite: %v\n%s", err, out)
	}
	want := statsOf(t, exe, embedded)

	env := []string{"ANNALS_STORE=" + store}
	servers := []string{serveWith(t, exe, t.TempDir(), env), serveWith(t, exe, t.TempDir(), env)}
	index := exec.Command(exe, "-w", filepath.Join(t.TempDir(), "indexer"), "-q", "index", root)
	index.Env = append(os.Environ(), "ANNALS_STORE="+store)
	var indexOut strings.Builder
	index.Stdout, index.Stderr = &indexOut, &indexOut
	if err := index.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- index.Wait() }()

	seen := make([]int, len(servers))
	states := map[int]bool{}
	watch := func() {
		for i, s := range servers {
			var st counts
			getJSON(t, s+"/api/stats", &st)
			if st.Documents < seen[i] {
				t.Fatalf("server %d went back from %d to %d documents", i, seen[i], st.Documents)
			}
			if st.Documents%64 != 0 && st.Documents != 150 {
				t.Fatalf("server %d sees %d documents: part of a batch", i, st.Documents)
			}
			seen[i] = st.Documents
			states[st.Documents] = true
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for running := true; running; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("index: %v\n%s", err, indexOut.String())
			}
			running = false
		case <-ctx.Done():
			t.Fatal("the index did not finish")
		case <-time.After(20 * time.Millisecond):
		}
		watch()
	}
	t.Logf("document counts the servers saw: %v", states)
	var pages [2]map[string]any
	for i, s := range servers {
		var st counts
		getJSON(t, s+"/api/stats", &st)
		if st != want {
			t.Errorf("server %d holds %+v; indexed into SQLite: %+v", i, st, want)
		}
		getJSON(t, s+"/api/entity/"+url.PathEscape("刘备"), &pages[i])
	}
	a, _ := json.Marshal(pages[0])
	b, _ := json.Marshal(pages[1])
	if string(a) != string(b) || !strings.Contains(string(a), "偏将军") {
		t.Fatalf("the servers' pages of 刘备 differ or lack his office:\n%s\n%s", a, b)
	}
}
