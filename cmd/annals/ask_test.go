package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAskCommand(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, "-q", "quickstart", dir)
	ws := filepath.Join(dir, ".annals")
	out := mustRun(t, "-w", ws, "ask", "诸葛亮字什么？")
	if !strings.Contains(out, "孔明") || !strings.Contains(out, "[1] 《") {
		t.Fatalf("a cited answer:\n%s", out)
	}
	var ans struct {
		Answer    string           `json:"answer"`
		Mode      string           `json:"mode"`
		Citations []map[string]any `json:"citations"`
		Items     []struct {
			Routes []string `json:"routes"`
			Score  float64  `json:"score"`
		} `json:"items"`
		Usage map[string]any `json:"usage"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "ask", "孔明卒于何处？")), &ans); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ans.Answer, "五丈原") || ans.Mode != "reject" || len(ans.Citations) == 0 || len(ans.Items) == 0 || len(ans.Items[0].Routes) == 0 || ans.Usage == nil {
		t.Fatalf("--json answer: %+v", ans)
	}
	out = mustRun(t, "-w", ws, "ask", "诸葛亮病卒于何地军中？", "--option", "A=赤壁", "--option", "B=五丈原")
	if !strings.Contains(out, "* B. 五丈原") {
		t.Fatalf("the chosen option is marked:\n%s", out)
	}
	if _, err := run(t, "-w", ws, "ask", "谁？", "--option", "nonsense"); err == nil || !strings.Contains(err.Error(), "LETTER=TEXT") {
		t.Fatalf("a malformed option: %v", err)
	}
	qs := filepath.Join(dir, "q.jsonl")
	os.WriteFile(qs, []byte(`{"id":"q1","question":"诸葛亮病卒于何地军中？","options":["赤壁","五丈原"],"answer":"B"}`+"\n"+
		`{"id":"q2","question":"诸葛亮字什么？","answer":"孔明"}`+"\n"), 0o644)
	out = mustRun(t, "-w", ws, "--json", "ask", "--file", qs)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"choice":"B"`) || !strings.Contains(lines[1], "孔明") {
		t.Fatalf("one answer line per question:\n%s", out)
	}
}

// An answer read from the sentences at question time says so.
func TestAskSaysWhenAnAnswerWasRead(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join(dir, "corpus")
	os.MkdirAll(corpus, 0o755)
	os.WriteFile(filepath.Join(corpus, "a.txt"), []byte("丁亥，江西左丞火你赤以兵平富州、临江，遂引兵复瑞州。"), 0o644)
	ws := filepath.Join(dir, ".annals")
	mustRun(t, "-q", "-w", ws, "index", corpus)
	out := mustRun(t, "-w", ws, "ask", "火你赤攻打过哪里？")
	if !strings.Contains(out, "富州") || !strings.Contains(out, "read from the sentences") || !strings.Contains(out, "[1] 《") {
		t.Fatalf("a read answer, cited and marked as read:\n%s", out)
	}
}
