package qa

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLoadTwoWiki(t *testing.T) {
	qs, err := Load(filepath.Join("testdata", "2wiki.json"), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 2 {
		t.Fatalf("%d questions, want 2", len(qs))
	}
	q := qs[0]
	if q.ID != "w1" || q.Answer != "Hiển Khánh" || q.Type != "compositional" || len(q.Context) != 2 || !q.Context[1].Supporting {
		t.Fatalf("first question: %+v", q)
	}
	want := []Triple{{"Lý dynasty", "founded by", "Lý Công Uẩn"}, {"Lý Công Uẩn", "father", "Hiển Khánh"}}
	if !reflect.DeepEqual(q.Evidence, want) {
		t.Fatalf("evidence %+v, want %+v", q.Evidence, want)
	}
	// An evidence that is not a triple is an error that says where.
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`[{"_id":"x","question":"q","answer":"a","context":[],"supporting_facts":[],"evidences":[["a","b"]]}]`), 0o644)
	if _, err := Load(bad, ""); err == nil || !strings.Contains(err.Error(), "evidence 1") {
		t.Fatalf("a two-part evidence: %v", err)
	}
}

func TestLoadGraphRAGBench(t *testing.T) {
	mc, err := Load(filepath.Join("testdata", "MC.jsonl"), "")
	if err != nil {
		t.Fatal(err)
	}
	// Options from the question's lettered lines, the question cut before them.
	if q := mc[0]; q.Question != "Which office did 诸葛亮 hold under 刘备 in 221?" || q.Answer != "A" || len(q.Options) != 4 ||
		q.Options[3] != (Option{Letter: "D", Text: "大将军"}) || q.Type != "Three Kingdoms / Offices" {
		t.Fatalf("lettered lines: %+v", q)
	}
	// Options given apart, the answer given as an option's text.
	if q := mc[1]; q.Answer != "A" || len(q.Options) != 3 || q.Options[1].Text != "南阳" {
		t.Fatalf("options apart: %+v", q)
	}
	ms, err := Load(filepath.Join("testdata", "MS.jsonl"), "")
	if err != nil {
		t.Fatal(err)
	}
	if q := ms[0]; q.MultipleChoice() || !reflect.DeepEqual(q.Expected, []string{"诸葛瞻", "诸葛乔"}) {
		t.Fatalf("multi-select: %+v", q)
	}
	oe, err := Load(filepath.Join("testdata", "OE.jsonl"), "")
	if err != nil {
		t.Fatal(err)
	}
	if q := oe[0]; q.MultipleChoice() || !strings.HasPrefix(q.Answer, "Because 徐庶") {
		t.Fatalf("open-ended: %+v", q)
	}
	// The format is told by the capitalised keys; the lower-case JSON
	// lines stay the project's own.
	if f, _ := guessFormat("x.jsonl", []byte(`{"question":"q","answer":"a"}`)); f != FormatJSONL {
		t.Fatalf("lower-case keys read as %s", f)
	}
	bad := filepath.Join(t.TempDir(), "MC.jsonl")
	os.WriteFile(bad, []byte(`{"Question":"q\nA. x\nB. y","Answer":"E"}`+"\n"), 0o644)
	if _, err := Load(bad, ""); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("an answer that is no option: %v", err)
	}
}
