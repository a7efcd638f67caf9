package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEscapeControl(t *testing.T) {
	for in, want := range map[string]string{
		"诸葛亮":                      "诸葛亮",
		"Nguyễn Trãi":              "Nguyễn Trãi",
		"赤\x1b[31m壁":               `赤\x1b[31m壁`,
		"两行\n名字\r\t":               `两行\n名字\r\t`,
		"del\x7f bell\x07 nul\x00": `del\x7f bell\x07 nul\x00`,
		"c1 \u009b31m \u0085":      `c1 \u009b31m \u0085`,
		"bad \xff\x9b byte":        `bad \xff\x9b byte`,
	} {
		if got := escapeControl(in, false); got != want {
			t.Errorf("escapeControl(%q) = %q, want %q", in, got, want)
		}
	}
	if got := escapeControl("第一行\n\t第二行\x1b[2J", true); got != "第一行\n\t第二行\\x1b[2J" {
		t.Errorf("keeping lines: %q", got)
	}
	got := fmt.Sprintf("%-7s|%q|%d|%s|%v|%s|%s", plainArgs([]any{"a\x1bb", "x\x1b", 42, errors.New("e\nf"),
		[]string{"p\x1b"}, lines("l1\nl2\x1b"), struct{ fmt.Stringer }{}.Stringer})...)
	if want := `a\x1bb |"x\x1b"|42|e\nf|[p\x1b]|` + "l1\nl2\\x1b|%!s(<nil>)"; got != want {
		t.Errorf("printf arguments: %q, want %q", got, want)
	}
}

// Names of files, titles, sections and sentences come from the corpus;
// what the text output prints of them reaches the terminal with no escape
// sequence and no line break of their own.
func TestCorpusTextIsEscapedInOutput(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, ".annals")
	corpus := filepath.Join(dir, "corpus")
	book := filepath.Join(corpus, "蜀\x1b]0;title\x07书")
	if err := os.MkdirAll(book, 0o755); err != nil {
		t.Fatal(err)
	}
	name := "诸葛\x1b[31m亮传\n伪造的一行.txt"
	if err := os.WriteFile(filepath.Join(book, name), []byte("诸葛亮，字孔明，琅邪阳都人也。\x1b[31m亮躬耕陇亩。"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(corpus, "\x1b[2J空.txt"), nil, 0o644)

	outputs := map[string]string{}
	outputs["index"] = mustRun(t, "-w", ws, "index", corpus)
	if !strings.Contains(outputs["index"], `\x1b[2J空.txt`) {
		t.Errorf("the skipped file's warning does not name it, escaped:\n%s", outputs["index"])
	}
	outputs["docs"] = mustRun(t, "-w", ws, "docs")
	if !strings.Contains(outputs["docs"], `蜀\x1b]0;title\x07书/诸葛\x1b[31m亮传\n伪造的一行.txt`) {
		t.Errorf("docs does not show the key escaped:\n%s", outputs["docs"])
	}
	outputs["entity"] = mustRun(t, "-w", ws, "entity", "孔明")
	if !strings.Contains(outputs["entity"], `诸葛\x1b[31m亮传\n伪造的一行`) {
		t.Errorf("entity does not cite the title escaped:\n%s", outputs["entity"])
	}
	outputs["search"] = mustRun(t, "-w", ws, "search", "亮")
	outputs["timeline"] = mustRun(t, "-w", ws, "timeline", "诸葛亮")
	outputs["ask"] = mustRun(t, "-w", ws, "ask", "诸葛亮字什么？")
	outputs["rm"], _ = run(t, "-w", ws, "rm", "no\x1b[31msuch")
	for cmd, out := range outputs {
		if strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("%s printed a raw control character:\n%q", cmd, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "伪造的一行") {
				t.Errorf("%s printed a line the file name made:\n%s", cmd, out)
			}
		}
	}
}
