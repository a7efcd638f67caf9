package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEvalRelate(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	corpus := write("corpus.json", `[{"title": "孙氏", "text": "孙坚之子孙策，勇而有谋。孙策之弟孙权，字仲谋。"}]`)
	pairs := write("pairs.jsonl", `{"head": "孙坚", "tail": "孙策", "relations": ["子女"]}
{"head": "孙权", "tail": "孙策", "relations": ["同胞"]}
{"head": "孙坚", "tail": "孙权"}
`)

	if _, err := run(t, "eval", "relate", "--dataset", pairs, "--format", "jsonl"); err == nil || !strings.Contains(err.Error(), "--corpus") {
		t.Errorf("jsonl without --corpus: error %v, want one naming --corpus", err)
	}

	keep := filepath.Join(dir, "kept")
	out := mustRun(t, "eval", "relate", "--dataset", pairs, "--corpus", corpus, "--rounds", "2", "--keep", keep, "--json")
	var rep struct {
		Pairs   int `json:"pairs"`
		LeftOut struct {
			NoGold int `json:"pairs_without_gold"`
		} `json:"left_out"`
		Scoring string `json:"scoring"`
		Rounds  []struct {
			Scoring string `json:"scoring"`
			Round   int    `json:"round"`
			Micro   struct {
				Gold, Predicted, Correct int
			} `json:"micro"`
		} `json:"rounds"`
		ByType []struct {
			Type    string `json:"type"`
			Correct int    `json:"correct"`
		} `json:"by_type"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// Two rounds under each scoring, the default's first.
	if rep.Pairs != 3 || rep.LeftOut.NoGold != 1 || len(rep.Rounds) != 4 || rep.Scoring != "normalised" {
		t.Fatalf("pairs %d, without gold %d, rounds %d, scoring %q; want 3, 1, 4, normalised\n%s",
			rep.Pairs, rep.LeftOut.NoGold, len(rep.Rounds), rep.Scoring, out)
	}
	for i, scoring := range []string{"normalised", "normalised", "raw", "raw"} {
		rd := rep.Rounds[i]
		if rd.Scoring != scoring || rd.Round != i%2+1 {
			t.Errorf("row %d: %s round %d, want %s round %d", i, rd.Scoring, rd.Round, scoring, i%2+1)
		}
		if rd.Round == 2 && (rd.Micro.Gold != 2 || rd.Micro.Correct != 2) {
			t.Errorf("%s round 2 micro %+v: want both gold types found\n%s", scoring, rd.Micro, out)
		}
	}
	if _, err := os.Stat(filepath.Join(keep, ".annals")); err != nil {
		t.Errorf("--keep: %v", err)
	}

	// Text, with --limit: one pair, the rest counted out.
	out = mustRun(t, "eval", "relate", "--dataset", pairs, "--corpus", corpus, "--limit", "1", "--rounds", "1")
	for _, want := range []string{"1 pairs", "2 pairs past --limit", "子女", "macro", "micro", "scoring", "normalised  ", "raw  ", "round 1, normalised scoring"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	// --scoring: one scoring only.
	out = mustRun(t, "eval", "relate", "--dataset", pairs, "--corpus", corpus, "--rounds", "1", "--scoring", "raw", "--json")
	rep.Rounds = nil
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.Rounds) != 1 || rep.Rounds[0].Scoring != "raw" || rep.Scoring != "raw" {
		t.Errorf("--scoring raw: scoring %q, rounds %+v; want one raw round\n%s", rep.Scoring, rep.Rounds, out)
	}
	if _, err := run(t, "eval", "relate", "--dataset", pairs, "--corpus", corpus, "--scoring", "tfidf"); err == nil || !strings.Contains(err.Error(), "--scoring") {
		t.Errorf("--scoring tfidf: error %v, want one naming --scoring", err)
	}
}

// relate --scoring ranks by either EF-IDF; --explain shows both EFs.
func TestRelateScoring(t *testing.T) {
	ws := demoWorkspace(t)
	for _, scoring := range []string{"normalised", "raw"} {
		out := mustRun(t, "-w", ws, "relate", "刘备", "关羽", "--no-feedback", "--explain", "--scoring", scoring)
		if !strings.Contains(out, "EF-IDF") || !strings.Contains(out, "ef_norm=") {
			t.Errorf("--scoring %s --explain: no EF-IDF with ef_norm:\n%s", scoring, out)
		}
	}
	out := mustRun(t, "-w", ws, "--json", "relate", "刘备", "关羽", "--no-feedback", "--explain")
	var res struct {
		Paths []struct {
			Score   float64 `json:"score"`
			Explain []struct {
				EF     int     `json:"ef"`
				EFNorm float64 `json:"ef_norm"`
			} `json:"explain"`
		} `json:"paths"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(res.Paths) == 0 {
		t.Fatalf("no path between 刘备 and 关羽:\n%s", out)
	}
	for _, p := range res.Paths {
		sum := 0.0
		for _, e := range p.Explain {
			sum += e.EFNorm
		}
		if sum < 1-1e-9 || sum > 1+1e-9 {
			t.Errorf("a path's ef_norm sum to %v, want 1: %+v", sum, p)
		}
	}
	if _, err := run(t, "-w", ws, "relate", "刘备", "关羽", "--no-feedback", "--scoring", "tfidf"); err == nil || !strings.Contains(err.Error(), "tfidf") {
		t.Errorf("--scoring tfidf: error %v, want one naming it", err)
	}
}

func TestEvalRelateCHisIECFormat(t *testing.T) {
	dir := t.TempDir()
	// An invented record in the CHisIEC format; spans traditional.
	data := `[{"tokens": "孙坚之子孙策，与孙权同伐某城。", "entities": [
  {"type": "PER", "start": 0, "end": 2, "span": "孫堅"},
  {"type": "PER", "start": 4, "end": 6, "span": "孫策"},
  {"type": "PER", "start": 8, "end": 10, "span": "孫權"}],
 "relations": [
  {"type": "父母", "head": 0, "tail": 1, "head_span": "孫堅", "tail_span": "孫策"},
  {"type": "同僚", "head": 1, "tail": 2, "head_span": "孫策", "tail_span": "孫權"}]}]`
	p := filepath.Join(dir, "re.json")
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	out := mustRun(t, "eval", "relate", "--dataset", p, "--rounds", "1") // the format from the file
	for _, want := range []string{"1 pairs", "2 gold relations read", "同僚 1", "skipped: 1 pairs", "子女"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
