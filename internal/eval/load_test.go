package eval

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Handmade fixtures in the published formats; the sentences are invented.
const (
	fixtureCCLUE = `{"text": "韩甲伐燕，杀燕将乙。", "spo_list": {"predicate": "讨伐", "object_type": "ORG", "subject_type": "PER", "object": "燕", "subject": "韩甲"}}
{"text": "魏丙，字子丁，魏国人也。", "spo_list": {"predicate": "字", "object_type": "PER", "subject_type": "PER", "object": "子丁", "subject": "魏丙"}}
{"text": "韩甲伐燕，杀燕将乙。", "spo_list": {"predicate": "杀", "object_type": "PER", "subject_type": "PER", "object": "乙", "subject": "韩甲"}}

{"text": "魏丙，字子丁，魏国人也。", "spo_list": {"predicate": "出生地", "object_type": "LOC", "subject_type": "PER", "object": "魏国", "subject": "魏丙"}}
{"text": "某己父某庚，葬某山。", "spo_list": {"predicate": "父", "object_type": "PER", "subject_type": "PER", "object": "某庚", "subject": "某己"}}
{"text": "某己父某庚，葬某山。", "spo_list": {"predicate": "葬于", "object_type": "LOC", "subject_type": "PER", "object": "某山", "subject": "某庚"}}
{"text": "韩甲伐燕，杀燕将乙。", "spo_list": {"predicate": "杀", "object_type": "PER", "subject_type": "PER", "object": "乙", "subject": "韩甲"}}
{"text": "吴辛仕楚。", "spo_list": [{"predicate": "隶属于", "object_type": "ORG", "subject_type": "PER", "object": "楚", "subject": "吴辛"}]}
`
	// The spans of 赵城 and 长安 are written in traditional characters, as
	// the published file does; scoring must go by offsets.
	fixtureCHisIECRE = `[
{"tokens": "王甲之子王乙，为太守。", "entities": [{"type": "PER", "start": 0, "end": 2, "span": "王甲"}, {"type": "PER", "start": 4, "end": 6, "span": "王乙"}, {"type": "OFI", "start": 8, "end": 10, "span": "太守"}], "relations": [{"type": "父母", "head": 0, "tail": 1}, {"type": "任职", "head": 1, "tail": 2}], "orig_id": 7},
{"tokens": "李丙与李丁同僚，攻赵城。", "entities": [{"type": "PER", "start": 0, "end": 2, "span": "李丙"}, {"type": "PER", "start": 3, "end": 5, "span": "李丁"}, {"type": "LOC", "start": 9, "end": 11, "span": "趙城"}], "relations": [{"type": "同僚", "head": 0, "tail": 1}, {"type": "敌对攻伐", "head": 0, "tail": 2}], "orig_id": 8},
{"tokens": "陈戊归长安。", "entities": [{"type": "PER", "start": 0, "end": 2, "span": "陳戊"}, {"type": "LOC", "start": 3, "end": 5, "span": "長安"}], "relations": [{"type": "到达", "head": 0, "tail": 1}], "orig_id": 9},
{"tokens": "周己，字子庚，兄周辛。", "entities": [{"type": "PER", "start": 0, "end": 2, "span": "周己"}, {"type": "PER", "start": 4, "end": 6, "span": "子庚"}, {"type": "PER", "start": 8, "end": 10, "span": "周辛"}], "relations": [{"type": "别名", "head": 0, "tail": 1}, {"type": "兄弟", "head": 2, "tail": 0}], "orig_id": 10}
]`
	fixtureCHisIECNER = "王\tB-PER\n甲\tE-PER\n为\tO\n广\tB-OFI\n州\tI-OFI\n刺\tI-OFI\n史\tE-OFI\n\n" +
		"乙\tS-PER\n入\tO\n丙\tB-LOC\n城\tE-LOC\n\n" +
		"丁\tS-PER\n著\tO\n某\tB-BOOK\n书\tE-BOOK\n\n" +
		"戊\tS-PER\n封\tO\n某\tB-OFI\n侯\tE-OFI\n"
)

// writeFixtures lays the fixtures out like the shared data folder, as the
// test split.
func writeFixtures(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"chisiec/ner_test.txt":        fixtureCHisIECNER,
		"chisiec/re_coling_test.json": fixtureCHisIECRE,
		"cclue/test_data.json":        fixtureCCLUE,
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestParseCCLUEGroupsByText(t *testing.T) {
	exs, err := parseCCLUE(strings.NewReader(fixtureCCLUE), "fixture.json")
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	var counts []int
	for _, ex := range exs {
		texts = append(texts, ex.Text)
		counts = append(counts, len(ex.Triples))
	}
	wantTexts := []string{"韩甲伐燕，杀燕将乙。", "魏丙，字子丁，魏国人也。", "某己父某庚，葬某山。", "吴辛仕楚。"}
	if strings.Join(texts, "/") != strings.Join(wantTexts, "/") {
		t.Fatalf("texts %q, want %q", texts, wantTexts)
	}
	// The repeated 杀 line is one triple.
	if want := []int{2, 2, 2, 1}; !equalInts(counts, want) {
		t.Fatalf("triples per text %v, want %v", counts, want)
	}
	if exs[0].ID != "fixture.json:1" || exs[2].ID != "fixture.json:6" {
		t.Errorf("ids %q %q", exs[0].ID, exs[2].ID)
	}
	g := exs[2].Triples[0]
	if g.Head.Text != "某己" || g.Relation != "父" || g.Tail.Text != "某庚" || g.Tail.Type != "PER" || g.Head.Start != -1 {
		t.Errorf("first triple %+v", g)
	}
	if _, err := parseCCLUE(strings.NewReader("{\"text\": \"甲\", \"spo_list\": {}}\nnot json\n"), "bad.json"); err == nil || !strings.Contains(err.Error(), "bad.json:2") {
		t.Errorf("error %v does not name bad.json:2", err)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestParseCHisIECRE(t *testing.T) {
	exs, err := ParseCHisIECRE(strings.NewReader(fixtureCHisIECRE), "fixture.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 4 {
		t.Fatalf("%d examples", len(exs))
	}
	tr := exs[1].Triples[1]
	// Entity text comes from the simplified tokens, not the span.
	if tr.Relation != "敌对攻伐" || tr.Head.Text != "李丙" || tr.Tail.Text != "赵城" || tr.Tail.Start != 9 || tr.Tail.End != 11 {
		t.Errorf("triple %+v", tr)
	}
	if exs[3].ID != "fixture.json[3] orig_id=10" {
		t.Errorf("id %q", exs[3].ID)
	}
	for _, bad := range []string{
		`[{"tokens": "甲乙", "entities": [{"type": "PER", "start": 1, "end": 3}], "relations": []}]`,
		`[{"tokens": "甲乙", "entities": [{"type": "PER", "start": 0, "end": 1}], "relations": [{"type": "兄弟", "head": 0, "tail": 1}]}]`,
		`{"tokens": "甲"}`,
	} {
		if _, err := ParseCHisIECRE(strings.NewReader(bad), "bad.json"); err == nil {
			t.Errorf("no error for %s", bad)
		}
	}
}

func TestLoadersFindFixtures(t *testing.T) {
	dir := writeFixtures(t)
	ner, err := LoadCHisIECNER(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	if len(ner) != 4 || ner[0].ID != "ner_test.txt:1" || len(ner[0].Entities) != 2 {
		t.Errorf("NER %+v", ner)
	}
	re, err := LoadCHisIECRE(dir, "test")
	if err != nil || len(re) != 4 {
		t.Errorf("RE: %d examples, %v", len(re), err)
	}
	cc, err := LoadCCLUE(dir, "test")
	if err != nil || len(cc) != 4 {
		t.Errorf("C-CLUE: %d examples, %v", len(cc), err)
	}
}

func TestLoadersNameMissingFiles(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		load func(string, string) ([]Example, error)
		file string
	}{
		{LoadCHisIECNER, "ner_dev.txt"},
		{LoadCHisIECRE, "re_coling_train_dev.json"},
		{LoadCCLUE, "dev_data.json"},
	} {
		_, err := tc.load(dir, "dev")
		if err == nil || !errors.Is(err, ErrDataAbsent) || !strings.Contains(err.Error(), tc.file) {
			t.Errorf("error %v: want ErrDataAbsent naming %s", err, tc.file)
		}
		if _, err := tc.load(dir, "validation"); err == nil || !strings.Contains(err.Error(), "unknown split") {
			t.Errorf("error %v for an unknown split", err)
		}
	}
}

func TestDataDir(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("ANNALS_DATA", dir)
	if got, err := DataDir(); err != nil || got != dir {
		t.Errorf("DataDir() = %q, %v; want %q", got, err, dir)
	}
	t.Setenv("ANNALS_DATA", filepath.Join(dir, "absent"))
	if _, err := DataDir(); !errors.Is(err, ErrDataAbsent) {
		t.Errorf("error %v, want ErrDataAbsent", err)
	}

	// Search upward: root/work/project/sub finds root/work/shared/data.
	t.Setenv("ANNALS_DATA", "")
	root := t.TempDir()
	want := filepath.Join(root, "work", "shared", "data")
	sub := filepath.Join(root, "work", "project", "sub")
	for _, d := range []string{want, sub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(sub)
	got, err := DataDir()
	if err != nil {
		t.Fatal(err)
	}
	if g, _ := filepath.EvalSymlinks(got); g != mustEval(t, want) {
		t.Errorf("DataDir() = %q, want %q", got, want)
	}
}

func mustEval(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
