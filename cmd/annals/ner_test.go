package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A model trained from a file of either format tags what it learnt, and
// eval ner scores it.
func TestTrainAndEvalNER(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "own.txt")
	conll := filepath.Join(dir, "chisiec.txt")
	var lines []string
	var tags []string
	for i, p := range []string{"曹操", "刘备", "孙权", "袁绍", "吕布", "张辽"} {
		q := []string{"许", "洛阳", "长安", "成都", "建业", "下邳"}[i]
		lines = append(lines, "x:"+p+"\t["+p+"|人物]还["+q+"|地点]。")
		rs := []rune(p)
		tags = append(tags, string(rs[0])+"\tB-PER", string(rs[1])+"\tE-PER", "还\tO")
		for k, r := range []rune(q) {
			tag := "S-LOC"
			if len([]rune(q)) > 1 {
				tag = map[int]string{0: "B-LOC", len([]rune(q)) - 1: "E-LOC"}[k]
			}
			tags = append(tags, string(r)+"\t"+tag)
		}
		tags = append(tags, "。\tO", "")
	}
	os.WriteFile(own, []byte("# a comment\n"+strings.Join(lines, "\n")+"\n"), 0o644)
	os.WriteFile(conll, []byte(strings.Join(tags, "\n")), 0o644)
	var evals []string
	for _, data := range []string{own, conll} {
		model := filepath.Join(dir, filepath.Base(data)+".ner")
		out := mustRun(t, "train", "ner", "--rules=false", "--data", data, "--out", model)
		if !strings.Contains(out, "trained on 6 sentences (人物 地点)") {
			t.Fatalf("train on %s: %s", data, out)
		}
		out = mustRun(t, "eval", "ner", "--model", model, "--data", data)
		if !regexp.MustCompile(`人物 +gold     6  found     6  P 1\.000  R 1\.000`).MatchString(out) {
			t.Errorf("eval of %s on its own training data: %s", data, out)
		}
		evals = append(evals, out)
	}
	// The same sentences in the two formats make the same model.
	if evals[0] != evals[1] {
		t.Errorf("the formats disagree:\n%s\n%s", evals[0], evals[1])
	}
	// Two annotators: the second misses one name of six sentences' twelve.
	other := filepath.Join(dir, "other.txt")
	os.WriteFile(other, []byte(strings.Replace(strings.Join(lines, "\n"), "[许|地点]", "许", 1)+"\n"), 0o644)
	if out := mustRun(t, "eval", "ner", "--data", own, "--against", other); !strings.Contains(out, "6 sentences: precision 1.000, recall 0.917") {
		t.Errorf("agreement: %s", out)
	}
	if _, err := run(t, "eval", "ner", "--model", own, "--data", own); err == nil || !strings.Contains(err.Error(), "not an annals name model") {
		t.Errorf("a text file as the model: %v", err)
	}
}

// Without --model, eval ner scores the embedded model; on a CoNLL file it
// scores by CHisIEC's conventions: the rank is an office there, and the
// office held at a place is the place and the office.
func TestEvalNERShippedOnCoNLL(t *testing.T) {
	var lines []string
	for _, ct := range []string{"乃 O", "除 O", "华 B-LOC", "州 E-LOC", "刺 B-OFI", "史 E-OFI", "王 B-PER", "罴 E-PER",
		"， O", "封 O", "万 B-OFI", "年 I-OFI", "县 I-OFI", "伯 E-OFI", "。 O"} {
		lines = append(lines, strings.Replace(ct, " ", "\t", 1))
	}
	data := filepath.Join(t.TempDir(), "test.txt")
	os.WriteFile(data, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	out := mustRun(t, "eval", "ner", "--data", data)
	if !strings.Contains(out, "1 sentences: precision 1.000, recall 1.000") {
		t.Errorf("the embedded model scored by CHisIEC's conventions: %s", out)
	}
}
