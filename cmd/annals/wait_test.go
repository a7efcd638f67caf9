package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/llm/llmtest"
)

// A call the endpoint refuses for a while is retried, and the user hears
// of each wait on stderr while it lasts, not only when the command ends.
func TestLLMWaitsAreShown(t *testing.T) {
	srv := llmtest.New(t)
	t.Setenv("ANNALS_LLM_BASE_URL", srv.URL)
	t.Setenv("ANNALS_LLM_MODEL", "m")
	dir := t.TempDir()
	ws := filepath.Join(dir, ".annals")
	corpus := filepath.Join(dir, "corpus")
	os.MkdirAll(corpus, 0o755)
	os.WriteFile(filepath.Join(corpus, "a.txt"), []byte("诸葛亮，字孔明，琅邪阳都人也。"), 0o644)

	srv.Script(llmtest.Reply{Status: 503})
	out, _ := run(t, "-w", ws, "index", "--extractor", "llm", corpus)
	if !strings.Contains(out, "annals: waiting for the LLM (") || !strings.Contains(out, "): attempt 2 of 5 after HTTP 503, retry in ") ||
		!strings.Contains(out, " left\n") {
		t.Fatalf("index does not show the wait:\n%s", out)
	}

	srv.Script(llmtest.Reply{Status: 503})
	out, _ = run(t, "-w", ws, "ask", "--llm", "诸葛亮字什么？")
	if !strings.Contains(out, "annals: waiting for the LLM (") || !strings.Contains(out, "attempt 2 of 5 after HTTP 503") {
		t.Fatalf("ask does not show the wait:\n%s", out)
	}

	srv.Script(llmtest.Reply{Status: 429, Header: map[string]string{"Retry-After": "900"}})
	out, err := run(t, "-w", ws, "ask", "--llm", "孔明是谁？")
	if err == nil || !strings.Contains(err.Error(), "gave up after 1 attempt") || !strings.Contains(err.Error(), "llm.call_timeout_sec") {
		t.Fatalf("a retry past the call's time: err = %v\n%s", err, out)
	}
}
