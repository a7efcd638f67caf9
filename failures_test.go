package annals

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/annals-project/annals/internal/llm/llmtest"
)

// An index job whose documents fail is done, and says how many failed.
func TestIndexJobCountsFailedDocuments(t *testing.T) {
	srv := llmtest.New(t)
	srv.Handle(func(llmtest.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Content: "今按：此段言刘备之子刘禅。"}
	})
	ws, states := runIndexJob(t, srv, "刘备子刘禅。", "诸葛亮子诸葛瞻。")
	last := states[len(states)-1]
	if last.State != JobDone || last.Failed != 2 || last.Written != 0 || last.Report == nil || len(last.Report.Failed) != 2 {
		t.Fatalf("job %+v", last)
	}
	fails, err := ws.FailedDocuments(context.Background())
	if err != nil || len(fails) != 2 {
		t.Fatalf("failed documents %+v, %v", fails, err)
	}
}

// While an LLM call waits to be retried, the job says so, and says it no
// more once it has finished.
func TestIndexJobSaysWhatItWaitsFor(t *testing.T) {
	srv := llmtest.New(t)
	srv.Script(llmtest.Reply{Status: 503, Header: map[string]string{"Retry-After": "1"}})
	srv.Handle(func(llmtest.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Content: "今按：此段言刘备之子刘禅。"}
	})
	_, states := runIndexJob(t, srv, "刘备子刘禅。")
	var waiting string
	for _, j := range states {
		if j.Waiting != "" {
			waiting = j.Waiting
		}
	}
	last := states[len(states)-1]
	if !strings.Contains(waiting, "attempt 2") || !strings.Contains(waiting, "HTTP 503") {
		t.Errorf("while the call waited, the job said %q", waiting)
	}
	if last.State == JobRunning || last.Waiting != "" {
		t.Errorf("finished job %+v", last)
	}
}

// runIndexJob indexes texts, a file each, as a server's index job with an
// LLM extractor at srv, and returns the workspace and the states the job
// went through, as a watcher saw them.
func runIndexJob(t *testing.T, srv *llmtest.Server, texts ...string) (*Workspace, []IndexJob) {
	t.Helper()
	t.Setenv("ANNALS_LLM_BASE_URL", srv.URL)
	t.Setenv("ANNALS_LLM_MODEL", "m")
	dir := t.TempDir()
	ws, err := Open(context.Background(), filepath.Join(dir, ".annals"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	root := filepath.Join(dir, "corpus")
	os.MkdirAll(root, 0o755)
	for i, text := range texts {
		os.WriteFile(filepath.Join(root, fmt.Sprintf("%c.txt", 'a'+i)), []byte(text), 0o644)
	}
	jobs, err := newIndexJobs(ws, []string{root})
	if err != nil {
		t.Fatal(err)
	}
	defer jobs.stop()
	job, err := jobs.start(".")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var states []IndexJob
	if err := jobs.watch(ctx, job.ID, time.Millisecond, func(j IndexJob) error { states = append(states, j); return nil }); err != nil {
		t.Fatal(err)
	}
	return ws, states
}
