package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/llm/llmtest"
)

// runSplit executes the CLI in-process and returns stdout and stderr apart.
func runSplit(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRoot(&out, &errOut)
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	return out.String(), errOut.String(), err
}

// proseThenJSON is a model that answers in prose until good is set, then
// with the entities of 刘备子刘禅。
type proseThenJSON struct{ good atomic.Bool }

func (m *proseThenJSON) reply(llmtest.ChatRequest) llmtest.Reply {
	if !m.good.Load() {
		return llmtest.Reply{Content: "今按：此段言刘备之子刘禅，其事甚明，不烦列举。"}
	}
	return llmtest.Reply{Content: `{"entities":[{"text":"刘备","type":"人物"},{"text":"刘禅","type":"人物"}],"triples":[]}`}
}

func llmCorpus(t *testing.T, srv *llmtest.Server) (ws, corpus string) {
	t.Helper()
	t.Setenv("ANNALS_LLM_BASE_URL", srv.URL)
	t.Setenv("ANNALS_LLM_MODEL", "m")
	dir := t.TempDir()
	ws, corpus = filepath.Join(dir, ".annals"), filepath.Join(dir, "corpus")
	os.MkdirAll(corpus, 0o755)
	os.WriteFile(filepath.Join(corpus, "a.txt"), []byte("刘备子刘禅。"), 0o644)
	return ws, corpus
}

// A reply in prose fails its document: index says so, exits 4, caches
// nothing, and docs --failed lists it; once the model answers in JSON the
// next run extracts it and the failure goes.
func TestProseReplyFailsDocument(t *testing.T) {
	model := &proseThenJSON{}
	srv := llmtest.New(t)
	srv.Handle(model.reply)
	ws, corpus := llmCorpus(t, srv)

	out, errOut, err := runSplit(t, "-w", ws, "index", "--extractor", "llm", corpus)
	if !errors.Is(err, annals.ErrDocumentsFailed) || exitCode(err) != 4 ||
		err.Error() != "1 document(s) failed; `annals docs --failed` lists them; the next run retries them" {
		t.Fatalf("err = %v (exit %d)", err, exitCode(err))
	}
	if !strings.Contains(out, "read 1 documents") || !strings.Contains(out, "0 added") {
		t.Fatalf("the report is still printed:\n%s", out)
	}
	if !strings.Contains(errOut, "a.txt: failed (extract): chunk 1 of 1: the model's reply is not JSON: «今按") {
		t.Fatalf("warnings:\n%s", errOut)
	}
	docs := mustRun(t, "-w", ws, "docs", "--failed")
	for _, want := range []string{"a.txt  extract  1 attempt(s)", "the model's reply is not JSON: «今按", "1 document(s) failed"} {
		if !strings.Contains(docs, want) {
			t.Fatalf("docs --failed lacks %q:\n%s", want, docs)
		}
	}
	if docs := mustRun(t, "-w", ws, "docs"); strings.Contains(docs, "a.txt") {
		t.Fatalf("a failed document is listed as indexed:\n%s", docs)
	}
	var stats annals.CacheStats
	json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "cache", "stats")), &stats)
	if stats.Entries != 0 {
		t.Fatalf("a prose reply was cached: %+v", stats)
	}

	// --json still prints the report, which lists the failure; the
	// attempt is counted.
	out, _, err = runSplit(t, "-w", ws, "--json", "index", "--extractor", "llm", corpus)
	var rep struct {
		Index struct {
			Failed []struct{ Key, Step, Reason string } `json:"failed"`
		} `json:"index"`
	}
	if exitCode(err) != 4 || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Index.Failed) != 1 ||
		rep.Index.Failed[0].Key != "a.txt" || rep.Index.Failed[0].Step != "extract" {
		t.Fatalf("second run: %v\n%s", err, out)
	}
	var fails []annals.FailedDocument
	if err := json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "docs", "--failed")), &fails); err != nil ||
		len(fails) != 1 || fails[0].Attempts != 2 || fails[0].At == "" || !strings.HasPrefix(fails[0].Reason, "chunk 1 of 1: ") {
		t.Fatalf("docs --failed --json: %+v, %v", fails, err)
	}
	calls := srv.Calls()

	model.good.Store(true)
	mustRun(t, "-w", ws, "index", "--extractor", "llm", corpus)
	if srv.Calls() != calls+1 {
		t.Fatalf("the retry made %d calls, want 1", srv.Calls()-calls)
	}
	if out := mustRun(t, "-w", ws, "docs", "--failed"); !strings.Contains(out, "no failed documents") {
		t.Fatalf("docs --failed after the retry:\n%s", out)
	}
	if out := mustRun(t, "-w", ws, "--json", "docs", "--failed"); strings.TrimSpace(out) != "[]" {
		t.Fatalf("docs --failed --json after the retry: %s", out)
	}
	if out := mustRun(t, "-w", ws, "entity", "刘禅"); !strings.Contains(out, "刘禅") {
		t.Fatalf("entity 刘禅:\n%s", out)
	}

	// A new document that failed can be forgotten with rm.
	model.good.Store(false)
	os.WriteFile(filepath.Join(corpus, "b.txt"), []byte("刘禅，刘备子也。"), 0o644)
	if _, _, err := runSplit(t, "-w", ws, "index", "--extractor", "llm", corpus); exitCode(err) != 4 {
		t.Fatalf("b.txt: %v", err)
	}
	if out := mustRun(t, "-w", ws, "rm", "--yes", "b.txt"); !strings.Contains(out, "removed the failure of b.txt") {
		t.Fatalf("rm b.txt:\n%s", out)
	}
	if out := mustRun(t, "-w", ws, "docs", "--failed"); !strings.Contains(out, "no failed documents") {
		t.Fatalf("docs --failed after rm:\n%s", out)
	}
}

// A reply cut off at the token limit fails its document too, saying which
// setting to change.
func TestCutOffReplyFailsDocument(t *testing.T) {
	srv := llmtest.New(t)
	srv.Handle(func(llmtest.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Content: `{"entities":[{"text":"刘备","type":"人物"}],"triples":[]}`, FinishReason: "length"}
	})
	ws, corpus := llmCorpus(t, srv)
	_, errOut, err := runSplit(t, "-w", ws, "index", "--extractor", "llm", corpus)
	if exitCode(err) != 4 {
		t.Fatalf("err = %v", err)
	}
	want := "a.txt: failed (extract): chunk 1 of 1: the reply was cut off at the token limit (max_tokens 1500): raise llm.max_tokens or lower chunk.max_chars"
	if !strings.Contains(errOut, want) {
		t.Fatalf("warnings lack %q:\n%s", want, errOut)
	}
	if docs := mustRun(t, "-w", ws, "docs"); strings.Contains(docs, "a.txt") {
		t.Fatalf("the salvaged entity counted the document as done:\n%s", docs)
	}
	var st struct{ Entities int }
	json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "stats")), &st)
	if st.Entities != 0 {
		t.Fatalf("%d entities stored from a cut-off reply", st.Entities)
	}
	// llm.max_tokens reaches the extractor.
	t.Setenv("ANNALS_LLM_MAX_TOKENS", "3000")
	runSplit(t, "-w", ws, "index", "--extractor", "llm", corpus)
	reqs := srv.Requests()
	if reqs[len(reqs)-1].MaxTokens != 3000 {
		t.Fatalf("max_tokens sent: %d", reqs[len(reqs)-1].MaxTokens)
	}
}

// Exit statuses: 4 for failed documents, 3 for not found, 1 otherwise; a
// file skipped as unreadable is no failure.
func TestExitCodes(t *testing.T) {
	for _, c := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{errors.New("boom"), 1},
		{annals.ErrNotFound, 3},
		{usageErrorf("bad flag"), 2},
		{fmt.Errorf("wrapped: %w", usageErrorf("bad flag")), 2},
		{notFoundError{"no such date"}, 3},
		{annals.IndexFailures(&annals.IndexReport{Failed: []annals.IndexFailure{{Key: "a", Step: "extract", Reason: "x"}}}), 4},
	} {
		if got := exitCode(c.err); got != c.want {
			t.Errorf("exitCode(%v) = %d, want %d", c.err, got, c.want)
		}
	}
	if annals.IndexFailures(&annals.IndexReport{Skipped: []string{"empty.txt: skipped"}}) != nil {
		t.Fatal("a skipped file is a failure")
	}
}

// The binary exits 4 when a document failed, after printing the report,
// and says so on stderr.
func TestIndexExitStatusWhenDocumentsFail(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	srv := llmtest.New(t)
	srv.Handle((&proseThenJSON{}).reply)
	ws, corpus := llmCorpus(t, srv)
	cmd := exec.Command(binary(t), "-w", ws, "-q", "index", "--extractor", "llm", corpus)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 4 {
		t.Fatalf("exit: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "read 1 documents") ||
		!strings.HasSuffix(stderr.String(), "annals: 1 document(s) failed; `annals docs --failed` lists them; the next run retries them\n") {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
}

func TestCacheStatsAndClear(t *testing.T) {
	srv := llmtest.New(t)
	model := &proseThenJSON{}
	model.good.Store(true)
	srv.Handle(model.reply)
	ws, corpus := llmCorpus(t, srv)
	os.WriteFile(filepath.Join(corpus, "b.txt"), []byte("刘禅，刘备子也。"), 0o644)
	mustRun(t, "-w", ws, "index", "--extractor", "llm", corpus)
	mustRun(t, "-w", ws, "index", "--extractor", "ekg", filepath.Join(corpus, "a.txt"))

	var st annals.CacheStats
	if err := json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "cache", "stats")), &st); err != nil {
		t.Fatal(err)
	}
	by := map[string]int{}
	for _, s := range st.Steps {
		by[s.Step] = s.Entries
		if s.Bytes <= 0 {
			t.Fatalf("step without bytes: %+v", st)
		}
	}
	if by["extract"] != 2 || by["ner"] != 1 || st.Entries != 3 {
		t.Fatalf("cache stats %+v", st)
	}
	text := mustRun(t, "-w", ws, "cache", "stats")
	for _, want := range []string{"step", "extract", "ner", "total"} {
		if !strings.Contains(text, want) {
			t.Fatalf("cache stats lacks %q:\n%s", want, text)
		}
	}
	if out := mustRun(t, "-w", ws, "cache", "clear", "--step", "extract"); !strings.Contains(out, "cleared 2 cached entries of step extract") {
		t.Fatalf("clear --step:\n%s", out)
	}
	json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "cache", "stats")), &st)
	if st.Entries != 1 || len(st.Steps) != 1 || st.Steps[0].Step != "ner" {
		t.Fatalf("after clear --step extract: %+v", st)
	}
	var cleared struct{ Cleared int }
	json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "cache", "clear")), &cleared)
	if cleared.Cleared != 1 {
		t.Fatalf("clear: %+v", cleared)
	}
	if out := mustRun(t, "-w", ws, "cache", "stats"); !strings.Contains(out, "total") || !strings.Contains(out, " 0 ") {
		t.Fatalf("stats of an empty cache:\n%s", out)
	}
	if _, err := run(t, "-w", ws, "cache", "clear", "--step", ""); err == nil {
		t.Fatal("--step with no name should be an error")
	}
}
