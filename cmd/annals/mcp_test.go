package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPOverTheDemo runs `annals mcp` on the demo workspace as a client
// would: the handshake, then an entity and a question, each answer cited.
func TestMCPOverTheDemo(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, "-q", "quickstart", dir)
	ws := filepath.Join(dir, ".annals")

	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"entity","arguments":{"name":"诸葛亮"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ask","arguments":{"question":"诸葛亮字什么？"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"entity","arguments":{"name":"不存在的人"}}}`,
	}
	var out, errOut bytes.Buffer
	root := newRoot(&out, &errOut)
	root.SetIn(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	root.SetArgs([]string{"-w", ws, "mcp"})
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("annals mcp: %v\n%s", err, errOut.String())
	}

	replies := map[string]json.RawMessage{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Result  json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.JSONRPC != "2.0" || r.Result == nil {
			t.Fatalf("not a JSON-RPC result (stdout holds only messages): %v\n%s", err, l)
		}
		replies[string(r.ID)] = r.Result
	}
	if len(replies) != 4 {
		t.Fatalf("want 4 replies, got %d:\n%s", len(replies), out.String())
	}
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct{ Name string }
	}
	json.Unmarshal(replies["1"], &init)
	if init.ProtocolVersion != "2025-06-18" || init.ServerInfo.Name != "annals" {
		t.Fatalf("initialize: %s", replies["1"])
	}
	text := func(id string) (string, bool) {
		var res struct {
			Content []struct{ Type, Text string }
			IsError bool `json:"isError"`
		}
		if err := json.Unmarshal(replies[id], &res); err != nil || len(res.Content) != 1 || res.Content[0].Type != "text" {
			t.Fatalf("id %s: not a tool result: %s", id, replies[id])
		}
		return res.Content[0].Text, res.IsError
	}

	ent, isErr := text("2")
	var view struct {
		Name       string              `json:"name"`
		Attributes map[string][]string `json:"attributes"`
		Relations  []struct {
			Evidence []struct {
				Cite     string `json:"cite"`
				Sentence string `json:"sentence"`
			} `json:"evidence"`
		} `json:"relations"`
	}
	if err := json.Unmarshal([]byte(ent), &view); err != nil || isErr {
		t.Fatalf("entity: %v %v\n%s", err, isErr, ent)
	}
	// 孔明 is his 字, and the facts cite the sentence that says so.
	cited := false
	for _, r := range view.Relations {
		for _, e := range r.Evidence {
			cited = cited || strings.HasPrefix(e.Cite, "《") && strings.Contains(e.Sentence, "字孔明")
		}
	}
	if view.Name != "诸葛亮" || strings.Join(view.Attributes["字"], ",") != "孔明" || !cited {
		t.Fatalf("entity 诸葛亮 should give 孔明 as his 字, with a cited sentence:\n%s", ent)
	}

	ask, isErr := text("3")
	var ans struct {
		Answer    string `json:"answer"`
		Answered  bool   `json:"answered"`
		Citations []struct {
			Cite     string `json:"cite"`
			Sentence string `json:"sentence"`
		} `json:"citations"`
	}
	if err := json.Unmarshal([]byte(ask), &ans); err != nil || isErr {
		t.Fatalf("ask: %v %v\n%s", err, isErr, ask)
	}
	if !ans.Answered || !strings.Contains(ans.Answer, "孔明") || len(ans.Citations) == 0 ||
		!strings.HasPrefix(ans.Citations[0].Cite, "《") || !strings.Contains(ans.Citations[0].Sentence, "孔明") {
		t.Fatalf("ask 诸葛亮字什么？ should answer 孔明 with a citation:\n%s", ask)
	}

	if msg, isErr := text("4"); !isErr || !strings.Contains(msg, "not found") {
		t.Fatalf("an unknown entity is a tool error: %v %s", isErr, msg)
	}
	if !strings.Contains(errOut.String(), "annals mcp:") {
		t.Errorf("logs go to stderr: %q", errOut.String())
	}
}

func TestMCPNeedsAWorkspace(t *testing.T) {
	if _, err := run(t, "-w", filepath.Join(t.TempDir(), "none"), "mcp"); err == nil || !strings.Contains(err.Error(), "no workspace") {
		t.Fatalf("want a missing-workspace error, got %v", err)
	}
}
