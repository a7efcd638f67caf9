package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/llm/llmtest"
)

var alignGroup = regexp.MustCompile(`(?m)^Group (\d+) \(`)

// sameCaoCao answers an alignment prompt: 曹操 and 曹孟德 are one person
// wherever a group holds both; nothing else merges.
func sameCaoCao(r llmtest.ChatRequest) llmtest.Reply {
	msg := r.Messages[len(r.Messages)-1].Content
	var entries []string
	locs := alignGroup.FindAllStringSubmatchIndex(msg, -1)
	for i, loc := range locs {
		end := len(msg)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		body, id := msg[loc[0]:end], msg[loc[2]:loc[3]]
		if strings.Contains(body, "* 曹操") && strings.Contains(body, "* 曹孟德") {
			entries = append(entries, `{"id":`+id+`,"merge":[["曹孟德","曹操"]],"canonical":"曹操","reason":"孟德 is 曹操's 字"}`)
		} else {
			entries = append(entries, `{"id":`+id+`,"merge":[],"reason":"different people"}`)
		}
	}
	return llmtest.Reply{Content: `{"groups":[` + strings.Join(entries, ",") + `]}`}
}

func TestAlignCommand(t *testing.T) {
	srv := llmtest.New(t)
	srv.Handle(sameCaoCao)
	t.Setenv("ANNALS_LLM_BASE_URL", srv.URL)
	t.Setenv("ANNALS_LLM_MODEL", "m")
	dir := t.TempDir()
	ws := filepath.Join(dir, ".annals")
	corpus := filepath.Join(dir, "corpus")
	os.MkdirAll(corpus, 0o755)
	os.WriteFile(filepath.Join(corpus, "a.txt"), []byte("曹操征张绣。曹操还许。"), 0o644)
	os.WriteFile(filepath.Join(corpus, "b.txt"), []byte("曹孟德击袁绍。曹孟德还许。"), 0o644)
	mustRun(t, "-w", ws, "index", "--extractor", "pattern", corpus)
	if srv.Calls() != 0 {
		t.Fatalf("the pattern extractor called the LLM %d times", srv.Calls())
	}

	// A budget too small for one call stops cleanly, before any call.
	if out := mustRun(t, "-w", ws, "align", "--max-tokens", "10"); !strings.Contains(out, "stopped early") || srv.Calls() != 0 {
		t.Fatalf("align over budget made %d calls:\n%s", srv.Calls(), out)
	}

	var rep struct {
		Calls  int `json:"calls"`
		Merges []struct {
			Canonical string   `json:"canonical"`
			Names     []string `json:"names"`
			Source    string   `json:"source"`
		} `json:"merges"`
		Usage []struct {
			Step string `json:"step"`
		} `json:"llm_usage"`
	}
	out := mustRun(t, "-w", ws, "--json", "align", "--type", "人物", "--batch", "4")
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Calls != 1 || len(rep.Merges) != 1 || rep.Merges[0].Canonical != "曹操" || rep.Merges[0].Source != "llm:m" ||
		len(rep.Usage) != 1 || rep.Usage[0].Step != "align" {
		t.Fatalf("align report:\n%s", out)
	}
	var view struct{ Name string }
	json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "entity", "曹孟德")), &view)
	if view.Name != "曹操" {
		t.Fatalf("曹孟德 should now be 曹操, got %q", view.Name)
	}
	if out := mustRun(t, "-w", ws, "merge"); !strings.Contains(out, "by llm:m") || !strings.Contains(out, "曹孟德") {
		t.Fatalf("merge list:\n%s", out)
	}

	// Nothing changed: nothing is asked, and the text report says so.
	out = mustRun(t, "-w", ws, "align")
	if srv.Calls() != 1 || !strings.Contains(out, "0 calls") {
		t.Fatalf("second align made %d calls:\n%s", srv.Calls(), out)
	}
	var stats struct {
		Usage []struct {
			Step  string `json:"step"`
			Calls int    `json:"calls"`
		} `json:"llm_usage"`
	}
	json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "stats")), &stats)
	if len(stats.Usage) == 0 || stats.Usage[0].Step != "align" || stats.Usage[0].Calls != 1 {
		t.Fatalf("recorded usage: %+v", stats.Usage)
	}

	// Without an endpoint the command says what to set.
	t.Setenv("ANNALS_LLM_BASE_URL", "")
	t.Setenv("OPENAI_BASE_URL", "")
	if _, err := run(t, "-w", ws, "align"); err == nil || !strings.Contains(err.Error(), "ANNALS_LLM_BASE_URL") {
		t.Fatalf("align without an endpoint: %v", err)
	}
}
