package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mattn/go-runewidth"
	"github.com/spf13/cobra"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/encoding/unicode"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/schema"
)

// run executes the CLI in-process and returns what it printed.
func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRoot(&out, &errOut)
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	return out.String() + errOut.String(), err
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, err := run(t, args...)
	if err != nil {
		t.Fatalf("annals %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func TestQuickstartBuildsACitedGraph(t *testing.T) {
	dir := t.TempDir()
	out := mustRun(t, "quickstart", dir)
	for _, want := range []string{"诸葛亮 [人物]", "孔明(字)", "《三国人物·蜀·", "What next"} {
		if !strings.Contains(out, want) {
			t.Errorf("quickstart output lacks %q:\n%s", want, out)
		}
	}
	ws := filepath.Join(dir, ".annals")

	// The 字 finds the person, and every fact carries a cited sentence
	// whose offsets point into its document.
	var view struct {
		Name      string `json:"name"`
		Type      string `json:"type"`
		Relations []struct {
			Relation string `json:"relation"`
			Tail     string `json:"tail"`
			Evidence []struct {
				Cite     string `json:"cite"`
				Sentence string `json:"sentence"`
				Start    int    `json:"start"`
				End      int    `json:"end"`
			} `json:"evidence"`
		} `json:"relations"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "entity", "孔明")), &view); err != nil {
		t.Fatal(err)
	}
	if view.Name != "诸葛亮" || view.Type != "人物" || len(view.Relations) == 0 {
		t.Fatalf("entity 孔明 = %+v", view)
	}
	for _, r := range view.Relations {
		if len(r.Evidence) == 0 || r.Evidence[0].Sentence == "" || !strings.HasPrefix(r.Evidence[0].Cite, "《") ||
			len([]rune(r.Evidence[0].Sentence)) != r.Evidence[0].End-r.Evidence[0].Start {
			t.Fatalf("relation without a proper citation: %+v", r)
		}
	}

	// The text view prints the attributes with their sentences.
	if out := mustRun(t, "-w", ws, "entity", "孔明"); !strings.Contains(out, "  字: 孔明\n      「") || strings.Count(out, "字: 孔明") != 1 {
		t.Fatalf("entity 孔明: want its 字 once, with the sentence that states it:\n%s", out)
	}

	// Running it again re-indexes nothing.
	var again struct {
		Index struct{ Unchanged, Added int } `json:"index"`
	}
	json.Unmarshal([]byte(mustRun(t, "--json", "quickstart", dir)), &again)
	if again.Index.Added != 0 || again.Index.Unchanged == 0 {
		t.Fatalf("second quickstart should change nothing: %+v", again)
	}

	// entities --type, docs, stats, rm.
	if out := mustRun(t, "-w", ws, "entities", "--type", "职官", "-n", "5"); !strings.Contains(out, "职官") {
		t.Fatalf("entities --type 职官:\n%s", out)
	}
	docs := mustRun(t, "-w", ws, "docs")
	if !strings.Contains(docs, "三国人物/蜀/诸葛亮/text.txt") || !strings.Contains(docs, "english/three-kingdoms.md") {
		t.Fatalf("docs:\n%s", docs)
	}
	var before, after struct{ Documents, Evidence int }
	json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "stats")), &before)
	mustRun(t, "-w", ws, "rm", "--yes", "三国人物/蜀/诸葛亮")
	json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "stats")), &after)
	if after.Documents != before.Documents-1 || after.Evidence >= before.Evidence {
		t.Fatalf("rm: before %+v after %+v", before, after)
	}
	if _, err := run(t, "-w", ws, "entity", "不存在的人"); err == nil {
		t.Fatal("unknown entity should be an error")
	}
}

func TestExtractJSONLines(t *testing.T) {
	in := "關羽，字雲長，河东解人也。"
	f := filepath.Join(t.TempDir(), "in.txt")
	os.WriteFile(f, []byte(in), 0o644)
	out := mustRun(t, "--json", "extract", f)
	runes := []rune(in)
	var sawAlias, sawNative, sawZi bool
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var kind struct{ Kind string }
		json.Unmarshal(sc.Bytes(), &kind)
		switch kind.Kind {
		case "entity":
			var e extract.EntityLine
			json.Unmarshal(sc.Bytes(), &e)
			if string(runes[e.Start:e.End]) != e.Text {
				t.Fatalf("entity offsets do not point into the input: %+v", e)
			}
		case "triple":
			var tr extract.TripleLine
			json.Unmarshal(sc.Bytes(), &tr)
			if string(runes[tr.EvidenceStart:tr.EvidenceEnd]) != tr.Evidence {
				t.Fatalf("evidence offsets wrong: %+v", tr)
			}
			sawAlias = sawAlias || (tr.Relation == "别称" && tr.Head == "关羽" && tr.Tail == "云长")
			sawNative = sawNative || tr.Relation == "籍贯"
		case "attribute":
			var a extract.AttributeLine
			json.Unmarshal(sc.Bytes(), &a)
			if string(runes[a.ValueStart:a.ValueEnd]) != a.Value || string(runes[a.EvidenceStart:a.EvidenceEnd]) != a.Evidence ||
				string(runes[a.EntityStart:a.EntityEnd]) != "關羽" {
				t.Fatalf("attribute offsets wrong: %+v", a)
			}
			sawZi = sawZi || (a.Entity == "关羽" && a.Attribute == "字" && a.Value == "雲長")
		default:
			t.Fatalf("unexpected line %s", sc.Text())
		}
	}
	if !sawAlias || !sawNative || !sawZi {
		t.Fatalf("want 别称 关羽→云长, 籍贯 and the attribute 字 雲長 from traditional input:\n%s", out)
	}
}

// --name reads a name the recogniser misses as a person.
func TestExtractGivenNames(t *testing.T) {
	f := filepath.Join(t.TempDir(), "in.txt")
	os.WriteFile(f, []byte("助挞懒击辽都统马哥。"), 0o644)
	out := mustRun(t, "--json", "extract", "--name", "马哥", f)
	if !strings.Contains(out, `"text":"马哥","type":"人物"`) {
		t.Errorf("马哥 given by --name is not a person:\n%s", out)
	}
}

func TestIndexSkipsBadFilesAndSaysWhy(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "good.txt"), []byte("诸葛亮，字孔明，琅邪阳都人也。"), 0o644)
	os.WriteFile(filepath.Join(root, "empty.txt"), nil, 0o644)
	os.WriteFile(filepath.Join(root, "image.txt"), []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x00\x10"), 0o644)
	out := mustRun(t, "-w", filepath.Join(t.TempDir(), "ws"), "index", root)
	for _, want := range []string{"empty.txt: skipped", "image.txt: skipped", "read 1 documents"} {
		if !strings.Contains(out, want) {
			t.Errorf("index output lacks %q:\n%s", want, out)
		}
	}
	if _, err := run(t, "-w", filepath.Join(t.TempDir(), "ws2"), "index", filepath.Join(root, "missing")); err == nil {
		t.Fatal("a missing path must be an error")
	}
}

// binary builds the annals command once for the tests that need a process
// to kill.
func binary(t testing.TB) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "annals")
	cmd := exec.Command("go", "build", "-o", exe, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return exe
}

// peopleCorpus writes 150 short biographies, three batches of indexing
// (64 documents each), and returns their folder.
func peopleCorpus(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	people := []string{"刘备", "关羽", "张飞", "赵云", "马超", "黄忠", "魏延", "姜维"}
	for i := 0; i < 150; i++ {
		a, b := people[i%len(people)], people[(i+3)%len(people)]
		body := fmt.Sprintf("%s，字子%d，涿郡人也。%s拜偏将军，封亭侯。%s子%s嗣。", a, i, a, a, b)
		os.WriteFile(filepath.Join(root, fmt.Sprintf("doc%03d.txt", i)), []byte(body), 0o644)
	}
	return root
}

type counts struct {
	Documents, Chunks, Entities, Mentions, Relations, Evidence, Aliases int
}

func statsOf(t *testing.T, exe, ws string) counts {
	t.Helper()
	out, err := exec.Command(exe, "-w", ws, "--json", "stats").Output()
	if err != nil {
		t.Fatalf("stats: %v", err)
	}
	var c counts
	if err := json.Unmarshal(out, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestKilledIndexResumes kills the indexer inside a write transaction and
// just after a commit, then checks that the next run finishes the job and
// ends with exactly the graph of an uninterrupted run.
func TestKilledIndexResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	exe := binary(t)
	root := peopleCorpus(t)
	clean := filepath.Join(t.TempDir(), "clean")
	if out, err := exec.Command(exe, "-w", clean, "-q", "index", root).CombinedOutput(); err != nil {
		t.Fatalf("clean index: %v\n%s", err, out)
	}
	want := statsOf(t, exe, clean)
	if want.Documents != 150 {
		t.Fatalf("clean run: %+v", want)
	}
	for _, fault := range []string{"before-commit:2", "after-commit:1"} {
		t.Run(fault, func(t *testing.T) {
			ws := filepath.Join(t.TempDir(), "ws")
			cmd := exec.Command(exe, "-w", ws, "-q", "index", root)
			cmd.Env = append(os.Environ(), "ANNALS_FAULT="+fault)
			err := cmd.Run()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != -1 {
				t.Fatalf("the fault should kill the process, got %v", err)
			}
			partial := statsOf(t, exe, ws)
			if partial.Documents != 64 {
				t.Fatalf("after the kill the database should hold whole batches only (64 documents): %+v", partial)
			}
			out, err := exec.Command(exe, "-w", ws, "--json", "index", root).Output()
			if err != nil {
				t.Fatalf("resume: %v", err)
			}
			var rep struct {
				Index struct{ Added, Unchanged int } `json:"index"`
			}
			json.Unmarshal(out, &rep)
			if rep.Index.Added != 86 || rep.Index.Unchanged != 64 {
				t.Fatalf("resume should add only what was missing: %+v", rep.Index)
			}
			if got := statsOf(t, exe, ws); got != want {
				t.Fatalf("resumed graph differs from an uninterrupted run:\n got  %+v\n want %+v", got, want)
			}
		})
	}
}

func TestIndexDetectsEncodingsAndFindsTraditionalNames(t *testing.T) {
	root := t.TempDir()
	bio := "諸葛亮，字孔明，琅邪陽都人也。亮躬耕隴畝。"
	encode := func(e interface{ NewEncoder() *encoding.Encoder }, s string) []byte {
		b, err := e.NewEncoder().Bytes([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	os.WriteFile(filepath.Join(root, "big5.txt"), encode(traditionalchinese.Big5, bio), 0o644)
	os.WriteFile(filepath.Join(root, "gbk.txt"), encode(simplifiedchinese.GB18030, "关羽，字云长，河东解人也。"), 0o644)
	os.WriteFile(filepath.Join(root, "utf16.txt"), encode(unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), "张飞，字益德，涿郡人也。"), 0o644)
	ws := filepath.Join(t.TempDir(), "ws")
	mustRun(t, "-w", ws, "-q", "index", root)
	var docs []struct{ Key, Encoding, Lang string }
	json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "docs")), &docs)
	got := map[string]string{}
	for _, d := range docs {
		got[d.Key] = d.Encoding
	}
	if got["big5.txt"] != "big5" || got["gbk.txt"] != "gb18030" || got["utf16.txt"] != "utf-16le" {
		t.Fatalf("encodings: %v", got)
	}
	for _, name := range []string{"諸葛亮", "诸葛亮", "孔明", "云长", "張飛"} {
		if _, err := run(t, "-w", ws, "entity", name); err != nil {
			t.Errorf("entity %s: %v", name, err)
		}
	}
	out := mustRun(t, "-w", ws, "entity", "诸葛亮")
	if !strings.Contains(out, "「諸葛亮，字孔明，琅邪陽都人也。」") {
		t.Fatalf("evidence should quote the traditional original:\n%s", out)
	}
}

func TestFlagsOverrideSettings(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("諸葛亮，字孔明。"), 0o644)
	ws := filepath.Join(t.TempDir(), "ws")
	mustRun(t, "-w", ws, "init")
	os.WriteFile(filepath.Join(ws, "annals.yaml"), []byte("normalize:\n  t2s: true\n"), 0o644)
	mustRun(t, "-w", ws, "-q", "index", "--t2s", "off", root)
	if _, err := run(t, "-w", ws, "entity", "诸葛亮"); err == nil {
		t.Fatal("with --t2s off the name should stay traditional")
	}
	// Back to the setting (on): the ingest step's version changed, so the
	// document is normalised and extracted again.
	var rep struct {
		Index struct{ Updated int } `json:"index"`
	}
	json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "index", root)), &rep)
	if rep.Index.Updated != 1 {
		t.Fatalf("turning t2s back on should update the document: %+v", rep)
	}
	mustRun(t, "-w", ws, "entity", "諸葛亮")
	if _, err := run(t, "-w", ws, "index", "--t2s", "maybe", root); err == nil {
		t.Fatal("--t2s maybe should be refused")
	}
}

func TestMergeAndUndo(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("曹操，字孟德，沛国谯人也。魏武拜丞相。"), 0o644)
	ws := filepath.Join(t.TempDir(), "ws")
	mustRun(t, "-w", ws, "-q", "index", root)
	if _, err := run(t, "-w", ws, "merge", "曹操", "无此人"); err == nil {
		t.Fatal("merging an unknown name must fail")
	}
	out := mustRun(t, "-w", ws, "merge", "曹操", "魏武", "--reason", "posthumous style")
	if !strings.Contains(out, "merge 1: 曹操 ← 魏武") {
		t.Fatalf("merge: %s", out)
	}
	var v struct {
		Name    string
		Aliases []struct{ Name, Kind, Source string }
	}
	json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "entity", "魏武")), &v)
	if v.Name != "曹操" {
		t.Fatalf("魏武 should now be 曹操: %+v", v)
	}
	var fromMerge bool
	for _, a := range v.Aliases {
		fromMerge = fromMerge || (a.Name == "魏武" && a.Source == "merge:1")
	}
	if !fromMerge {
		t.Fatalf("the alias should name its merge: %+v", v.Aliases)
	}
	if out := mustRun(t, "-w", ws, "merge"); !strings.Contains(out, "posthumous style") {
		t.Fatalf("merge list: %s", out)
	}
	mustRun(t, "-w", ws, "merge", "--undo", "1")
	json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "entity", "魏武")), &v)
	if v.Name != "魏武" {
		t.Fatalf("after undo 魏武 is its own entity again: %+v", v)
	}
	if _, err := run(t, "-w", ws, "merge", "--undo", "1"); err == nil {
		t.Fatal("undoing twice must fail")
	}
}

func TestSchemaShowsDirections(t *testing.T) {
	out := mustRun(t, "schema")
	if !strings.Contains(out, "子女") || !strings.Contains(out, "人物 → 职官") {
		t.Fatalf("schema:\n%s", out)
	}
	if out := mustRun(t, "schema", "--lang", "en"); !strings.Contains(out, "parent_of") {
		t.Fatalf("schema --lang en:\n%s", out)
	}
}

func TestDateConvertsAndChecks(t *testing.T) {
	var got struct {
		Times []struct {
			Year     int
			Resolved bool
			Dynasty  string
		}
	}
	json.Unmarshal([]byte(mustRun(t, "--json", "date", "十二年", "--dynasty", "蜀汉", "--context", "建兴元年，封亮武乡侯。")), &got)
	if len(got.Times) != 1 || !got.Times[0].Resolved || got.Times[0].Year != 234 || got.Times[0].Dynasty != "蜀汉" {
		t.Fatalf("十二年 after 建兴 in a 蜀汉 text is 234: %+v", got)
	}
	if out := mustRun(t, "date", "孝景中元年"); !strings.Contains(out, "149 BCE") {
		t.Fatalf("孝景中元年 is 149 BCE:\n%s", out)
	}
	var chk struct{ Agrees bool }
	json.Unmarshal([]byte(mustRun(t, "--json", "date", "建兴十二年", "--check", "234")), &chk)
	if !chk.Agrees {
		t.Fatal("建兴十二年 agrees with 234")
	}
	// A disagreement is printed and exits 1, as test(1) does.
	out, _, code := execArgs(t, "--json", "date", "建兴十二年", "--dynasty", "蜀汉", "--check", "235")
	json.Unmarshal([]byte(out), &chk)
	if chk.Agrees || code != exitError {
		t.Fatalf("建兴十二年 of 蜀汉 does not agree with 235: agrees %v, exit %d", chk.Agrees, code)
	}
	if out, _, code := execArgs(t, "date", "建兴十二年", "--dynasty", "蜀汉", "--check", "235"); code != exitError || !strings.Contains(out, "does not agree") {
		t.Fatalf("date --check 235 in text: exit %d\n%s", code, out)
	}
	if _, err := run(t, "date", "天下大乱"); err == nil {
		t.Fatal("text without a date should say so")
	}
	// A year in numerals is read the other way: what the histories call it.
	if out := mustRun(t, "date", "208"); !strings.Contains(out, "建安十三年") || !strings.Contains(out, "献帝") {
		t.Fatalf("208 is 建安十三年 of 献帝:\n%s", out)
	}
	var named struct {
		Year  int
		Names []struct{ Name string }
	}
	json.Unmarshal([]byte(mustRun(t, "--json", "date", "公元前160年")), &named)
	if named.Year != -159 || len(named.Names) == 0 || named.Names[0].Name != "孝文后元四年" {
		t.Fatalf("160 BCE is 孝文后元四年: %+v", named)
	}
	if _, err := run(t, "date", "3000"); err == nil {
		t.Fatal("a year no count of the table reaches should exit non-zero")
	}
}

func TestTimelineJSON(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, "-q", "quickstart", dir)
	ws := filepath.Join(dir, ".annals")
	var got struct {
		Items []struct {
			Year       int             `json:"year"`
			EndYear    *int            `json:"end_year"`
			Precision  string          `json:"precision"`
			Expression string          `json:"expression"`
			Fact       json.RawMessage `json:"fact"`
			Citation   struct {
				Cite     string `json:"cite"`
				Sentence string `json:"sentence"`
			} `json:"citation"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "timeline", "孙权")), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Items) == 0 || got.Items[0].Precision == "" || got.Items[0].Citation.Sentence == "" || len(got.Items[0].Fact) == 0 {
		t.Fatalf("timeline items: %+v", got)
	}
	if out := mustRun(t, "-w", ws, "timeline", "--from", "-200", "--to", "-100"); strings.Contains(out, "「") {
		t.Fatalf("nothing in the demo happens in 201–101 BCE:\n%s", out)
	}
}

// execArgs runs the command line as main does and returns what went to
// standard output and standard error, and the exit status.
func execArgs(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = execute(context.Background(), args, &out, &errOut)
	return out.String(), errOut.String(), code
}

// demoWorkspace indexes the built-in demo and returns its workspace.
func demoWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	mustRun(t, "-q", "quickstart", dir)
	return filepath.Join(dir, ".annals")
}

func TestVersionFlag(t *testing.T) {
	out, _, code := execArgs(t, "--version")
	if code != 0 || out != "annals "+buildVersion()+"\n" {
		t.Fatalf("--version printed %q, exit %d; want %q", out, code, "annals "+buildVersion())
	}
}

// The exit statuses of the table in --help: 2 for a wrong command line, 3
// for what does not exist, in text and in JSON alike.
func TestExitCodesOfCommandLines(t *testing.T) {
	ws := demoWorkspace(t)
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"no-such-command"}, exitUsage},
		{[]string{"index", "--no-such-flag", "x"}, exitUsage},
		{[]string{"-w", ws, "entity"}, exitUsage},
		{[]string{"-w", ws, "entities", "--limit", "many"}, exitUsage},
		{[]string{"-w", ws, "entity", "不存在的人"}, exitNotFound},
		{[]string{"-w", ws, "rm", "--yes", "no/such/document"}, exitNotFound},
		{[]string{"-w", ws, "entities", "-n", "1"}, 0},
	} {
		for _, asJSON := range []bool{false, true} {
			args := c.args
			if asJSON {
				args = append([]string{"--json"}, args...)
			}
			_, stderr, code := execArgs(t, args...)
			if code != c.code {
				t.Errorf("annals %s: exit %d, want %d (%s)", strings.Join(args, " "), code, c.code, stderr)
			}
		}
	}
	if _, stderr, _ := execArgs(t, "index", "--no-such-flag", "x"); !strings.Contains(stderr, "annals index --help") {
		t.Errorf("a usage error should point to --help: %q", stderr)
	}
}

// Under --json an error is one JSON object on standard error, and standard
// output stays empty.
func TestJSONErrors(t *testing.T) {
	ws := demoWorkspace(t)
	for _, args := range [][]string{
		{"--json", "-w", ws, "entity", "不存在的人"},
		{"-w", ws, "entity", "--json", "--relations", "x", "诸葛亮"},
		{"--json", "no-such-command"},
	} {
		stdout, stderr, code := execArgs(t, args...)
		if code == 0 || stdout != "" {
			t.Fatalf("annals %s: exit %d, stdout %q", strings.Join(args, " "), code, stdout)
		}
		var e struct {
			Error string `json:"error"`
			Code  int    `json:"code"`
		}
		dec := json.NewDecoder(strings.NewReader(stderr))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil || e.Error == "" || e.Code != code || strings.Contains(e.Error, "annals:") {
			t.Fatalf("annals %s: stderr %q is not {\"error\", \"code\"} with the exit status %d (%v)", strings.Join(args, " "), stderr, code, err)
		}
	}
	// Without --json the error stays a line of text.
	if _, stderr, _ := execArgs(t, "-w", ws, "entity", "不存在的人"); !strings.HasPrefix(stderr, "annals: ") {
		t.Fatalf("text error: %q", stderr)
	}
}

// Every list in --json output is [] when empty, never null.
func TestJSONListsAreNeverNull(t *testing.T) {
	ws := demoWorkspace(t)
	if out := mustRun(t, "-w", ws, "--json", "feedback", "list"); strings.TrimSpace(out) != "[]" {
		t.Fatalf("feedback list --json with nothing written back = %q, want []", out)
	}
	// Nulls are left only to values that are not lists: a score or an end
	// year that is not known.
	scalars := map[string]bool{"score": true, "end_year": true}
	for _, args := range [][]string{
		{"entities", "--prefix", "无此前缀"},
		{"docs", "--failed"},
		{"timeline", "诸葛亮"},
		{"timeline", "--from", "-200", "--to", "-100"},
		{"search", "无此文字无此文字"},
		{"communities"},
		{"stats"},
		{"schema"},
		{"index", filepath.Join(filepath.Dir(ws), "corpus")},
	} {
		out := mustRun(t, append([]string{"-w", ws, "--json"}, args...)...)
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("annals --json %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		for _, k := range nullKeys(v, "") {
			if !scalars[k[strings.LastIndex(k, ".")+1:]] {
				t.Errorf("annals --json %s prints null at %s", strings.Join(args, " "), k)
			}
		}
	}
}

// nullKeys lists where v holds null, as dotted paths ("" for v itself).
func nullKeys(v any, at string) []string {
	switch x := v.(type) {
	case nil:
		return []string{at}
	case map[string]any:
		var out []string
		for k, e := range x {
			out = append(out, nullKeys(e, at+"."+k)...)
		}
		return out
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, nullKeys(e, at+"[]")...)
		}
		return out
	}
	return nil
}

func TestEmptyLists(t *testing.T) {
	type inner struct {
		Names []string
		Raw   json.RawMessage
		Bytes []byte
	}
	type outer struct {
		List  []inner
		Ptr   *inner
		Map   map[string][]int
		Any   any
		Value inner
		End   *int
	}
	v := outer{List: []inner{{}}, Ptr: &inner{}, Map: map[string][]int{"a": nil}, Any: []string(nil)}
	data, err := json.Marshal(emptyLists(v))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"List":[{"Names":[],"Raw":null,"Bytes":null}],"Ptr":{"Names":[],"Raw":null,"Bytes":null},"Map":{"a":[]},"Any":[],"Value":{"Names":[],"Raw":null,"Bytes":null},"End":null}`
	if string(data) != want {
		t.Fatalf("emptyLists:\n got  %s\n want %s", data, want)
	}
	if data, _ := json.Marshal(emptyLists([]string(nil))); string(data) != "[]" {
		t.Fatalf("a nil list alone = %s", data)
	}
}

// date exits 3 when nothing could be placed in a year, in text and JSON
// alike, and says why; a year past its era's end is given with a note.
func TestDateExitCodesAndNotes(t *testing.T) {
	// 3000 in numerals is a year no era or sovereign of the table counts.
	for _, expr := range []string{"3000", "甲子", "天下大乱"} {
		_, _, text := execArgs(t, "date", expr)
		out, _, js := execArgs(t, "--json", "date", expr)
		if text != exitNotFound || js != exitNotFound {
			t.Errorf("date %s: exit %d in text, %d in JSON; want %d both", expr, text, js, exitNotFound)
		}
		if expr == "甲子" && !strings.Contains(out, `"notes"`) {
			t.Errorf("date --json 甲子 should say why it stays unresolved:\n%s", out)
		}
	}
	// 208 is 建安十三年, in text and JSON alike.
	if _, _, text := execArgs(t, "date", "208"); text != 0 {
		t.Errorf("date 208: exit %d in text, want 0", text)
	}
	if _, _, js := execArgs(t, "--json", "date", "208"); js != 0 {
		t.Errorf("date 208: exit %d in JSON, want 0", js)
	}
	out, _, code := execArgs(t, "date", "甲子")
	if !strings.Contains(out, "note: ") || !strings.Contains(out, "sexagenary day") {
		t.Errorf("date 甲子 (exit %d) should say why it stays unresolved:\n%s", code, out)
	}
	out, _, code = execArgs(t, "date", "建安三十年")
	if code != 0 || !strings.Contains(out, "225") || !strings.Contains(out, "ended in 220") {
		t.Errorf("date 建安三十年: exit %d, want 225 and a note that 建安 ended in 220:\n%s", code, out)
	}
	var got struct {
		Times []struct {
			Year  int
			Notes []string
		}
	}
	out, _, code = execArgs(t, "--json", "date", "建安三十年")
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || len(got.Times) != 1 || got.Times[0].Year != 225 ||
		len(got.Times[0].Notes) == 0 || !strings.Contains(got.Times[0].Notes[0], "220") {
		t.Errorf("date --json 建安三十年: exit %d, %+v (%v)", code, got, err)
	}
	if _, _, code := execArgs(t, "date", "建兴十二年"); code != 0 {
		t.Errorf("date 建兴十二年 has candidates and should exit 0, got %d", code)
	}
}

// An entity type that no schema and no entity has is an error naming the
// types there are.
func TestEntitiesUnknownType(t *testing.T) {
	ws := demoWorkspace(t)
	_, stderr, code := execArgs(t, "-w", ws, "entities", "--type", "官职")
	if code != exitUsage || !strings.Contains(stderr, "官职") || !strings.Contains(stderr, "职官") || !strings.Contains(stderr, "人物") {
		t.Fatalf("entities --type 官职: exit %d, %q", code, stderr)
	}
	// A type of the schema that no entity has is no error.
	if out, stderr, code := execArgs(t, "-w", ws, "--json", "entities", "--type", "concept"); code != 0 || strings.TrimSpace(out) != "[]" {
		t.Fatalf("entities --type concept: exit %d, %q %q", code, out, stderr)
	}
}

// No flag's help says its default twice: a usage string that names a
// default must belong to a flag whose own default cobra does not print.
func TestHelpSaysDefaultsOnce(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, line := range strings.Split(c.LocalFlags().FlagUsages(), "\n") {
			if strings.Count(line, "(default") > 1 {
				t.Errorf("%s: %s", c.CommandPath(), strings.TrimSpace(line))
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot(io.Discard, io.Discard))
	out := mustRun(t, "ask", "--help")
	if !strings.Contains(out, "--delta") || strings.Contains(out, "(default 1) (default") {
		t.Fatalf("ask --help:\n%s", out)
	}
}

// schema's columns line up on a terminal, where a Chinese character takes
// two columns: each description starts at the same display column.
func TestSchemaColumnsAlignWithChinese(t *testing.T) {
	out := mustRun(t, "-w", filepath.Join(t.TempDir(), "none"), "schema")
	s, err := schema.Load(schema.ZhHistory)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	column := func(section, name, desc string) int {
		for _, l := range lines {
			if strings.HasPrefix(l, "  "+name+" ") && strings.HasSuffix(l, desc) {
				return runewidth.StringWidth(l[:len(l)-len(desc)])
			}
		}
		t.Fatalf("%s %s: no line ending %q in\n%s", section, name, desc, out)
		return 0
	}
	want := -1
	for _, e := range s.EntityTypes {
		if c := column("entity type", e.Name, e.Description); want >= 0 && c != want {
			t.Errorf("entity type %s: description at column %d, others at %d:\n%s", e.Name, c, want, out)
		} else {
			want = c
		}
	}
	want = -1
	for _, r := range s.RelationTypes {
		if r.Description == "" {
			continue
		}
		if c := column("relation type", r.Name, r.Description); want >= 0 && c != want {
			t.Errorf("relation type %s: description at column %d, others at %d:\n%s", r.Name, c, want, out)
		} else {
			want = c
		}
	}
}

// runWith executes the CLI in-process with in as standard input, answering
// on a terminal when terminal is set, and returns standard output, standard
// error and the exit status.
func runWith(t *testing.T, in string, terminal bool, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	root, a := newApp(strings.NewReader(in), &out, &errOut)
	a.canAsk = func() bool { return terminal }
	code := executeRoot(context.Background(), root, args, &errOut)
	return out.String(), errOut.String(), code
}

func documentsIn(t *testing.T, ws string) int {
	t.Helper()
	var st struct{ Documents int }
	if err := json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "stats")), &st); err != nil {
		t.Fatal(err)
	}
	return st.Documents
}

// rm lists with --dry-run and removes nothing; it asks on a terminal, and
// without one refuses unless --yes is given.
func TestRmAsksOrRefuses(t *testing.T) {
	ws := demoWorkspace(t)
	before := documentsIn(t, ws)
	doc, other := "三国人物/蜀/诸葛亮", "english/red-cliffs.txt"

	out, _, code := runWith(t, "", false, "-w", ws, "rm", "--dry-run", doc, other)
	if code != 0 || !strings.Contains(out, "would remove 三国人物/蜀/诸葛亮/text.txt") || !strings.Contains(out, "would remove "+other) {
		t.Fatalf("rm --dry-run: exit %d\n%s", code, out)
	}
	var dry struct {
		DryRun      bool                   `json:"dry_run"`
		WouldRemove []struct{ Key string } `json:"would_remove"`
	}
	out, _, _ = runWith(t, "", false, "-w", ws, "--json", "rm", "--dry-run", doc)
	if json.Unmarshal([]byte(out), &dry) != nil || !dry.DryRun || len(dry.WouldRemove) != 1 {
		t.Fatalf("rm --dry-run --json:\n%s", out)
	}
	if n := documentsIn(t, ws); n != before {
		t.Fatalf("--dry-run removed %d documents", before-n)
	}

	// No terminal and no --yes: refused, nothing removed.
	_, stderr, code := runWith(t, "y\n", false, "-w", ws, "rm", doc)
	if code != exitUsage || !strings.Contains(stderr, "--yes") {
		t.Fatalf("rm without a terminal or --yes: exit %d, %q", code, stderr)
	}
	// On a terminal, anything but yes keeps them.
	_, stderr, code = runWith(t, "n\n", true, "-w", ws, "rm", doc, other)
	if code == 0 || !strings.Contains(stderr, "remove 2 document(s)") || !strings.Contains(stderr, "[y/N]") {
		t.Fatalf("rm answered no: exit %d, %q", code, stderr)
	}
	if n := documentsIn(t, ws); n != before {
		t.Fatalf("refused or declined, rm still removed %d documents", before-n)
	}
	// Yes removes them, in one go.
	out, _, code = runWith(t, "y\n", true, "-w", ws, "rm", doc, other)
	if code != 0 || strings.Count(out, "removed ") != 2 {
		t.Fatalf("rm answered yes: exit %d\n%s", code, out)
	}
	if n := documentsIn(t, ws); n != before-2 {
		t.Fatalf("rm of two documents left %d of %d", n, before)
	}
	// A name that finds nothing removes nothing, the others included.
	if _, _, code := runWith(t, "", false, "-w", ws, "rm", "--yes", "english/three-kingdoms.md", "no/such"); code != exitNotFound {
		t.Fatalf("rm of a missing document: exit %d", code)
	}
	if n := documentsIn(t, ws); n != before-2 {
		t.Fatalf("a missing name should remove nothing: %d of %d left", n, before)
	}
}

// aliases import refuses a file with main names that match no entity,
// saying which and where, and imports nothing of it.
func TestAliasesImportRefusesUnknownMainNames(t *testing.T) {
	ws := demoWorkspace(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("诸葛亮:卧龙先生甲\n无此人甲:某甲\n# a comment\n無此人乙：某乙、某丙\n"), 0o644)
	_, stderr, code := execArgs(t, "-w", ws, "aliases", "import", bad)
	if code == 0 || !strings.Contains(stderr, "无此人甲 (line 2)") || !strings.Contains(stderr, "无此人乙 (line 4)") ||
		strings.Contains(stderr, "诸葛亮 (line") || !strings.Contains(stderr, "nothing was imported") {
		t.Fatalf("aliases import of unknown names: exit %d, %q", code, stderr)
	}
	if _, _, code := execArgs(t, "-w", ws, "entity", "卧龙先生甲"); code != exitNotFound {
		t.Fatalf("the refused file's aliases were imported (entity 卧龙先生甲 exit %d)", code)
	}
	// --allow-unknown imports it all the same.
	mustRun(t, "-w", ws, "aliases", "import", "--allow-unknown", bad)
	var v struct{ Name string }
	json.Unmarshal([]byte(mustRun(t, "-w", ws, "--json", "entity", "卧龙先生甲")), &v)
	if v.Name != "诸葛亮" {
		t.Fatalf("卧龙先生甲 should now be 诸葛亮: %+v", v)
	}
	// A file of known names imports without the flag.
	good := filepath.Join(dir, "good.txt")
	os.WriteFile(good, []byte("曹操:魏武乙\n"), 0o644)
	if out := mustRun(t, "-w", ws, "aliases", "import", good); !strings.Contains(out, "1 new") {
		t.Fatalf("aliases import of known names:\n%s", out)
	}
	// A file not in the format at all (a table, say) is an error, not an
	// import of nothing.
	table := filepath.Join(dir, "table.tsv")
	os.WriteFile(table, []byte("曹操\t孟德\n刘备\t玄德\n"), 0o644)
	if _, stderr, code := execArgs(t, "-w", ws, "aliases", "import", table); code == 0 || !strings.Contains(stderr, "no line could be read") {
		t.Fatalf("aliases import of a file in another format: exit %d, %q", code, stderr)
	}
}

// progressLines runs the CLI with its progress drawn into a buffer and
// returns the lines drawn.
func progressLines(t *testing.T, args ...string) []string {
	t.Helper()
	var out, errOut, prog bytes.Buffer
	root, a := newApp(strings.NewReader(""), &out, &errOut)
	a.progressTo = &prog
	root.SetArgs(args)
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("annals %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	var lines []string
	for _, l := range strings.Split(prog.String(), "\r") {
		if l = strings.TrimSuffix(l, "\x1b[K"); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

func anyLine(lines []string, parts ...string) bool {
	for _, l := range lines {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(l, p)
		}
		if all {
			return true
		}
	}
	return false
}

// index shows the documents' total and the name of every step, the corpus
// steps after the documents included; rm and aliases import show theirs.
func TestProgressNamesEveryStep(t *testing.T) {
	ws := demoWorkspace(t)
	corpus := filepath.Join(filepath.Dir(ws), "corpus")
	n := documentsIn(t, ws)
	fresh := filepath.Join(t.TempDir(), "ws")
	lines := progressLines(t, "-w", fresh, "index", corpus)
	total := fmt.Sprintf("/%d docs", n)
	for _, step := range []string{"reading and extracting documents", "align", "embed", "date", "communities"} {
		if !anyLine(lines, "indexing: ", step, total) {
			t.Errorf("no progress line names %q with the total %q:\n%s", step, total, strings.Join(lines, "\n"))
		}
	}
	if anyLine(lines, "/-") {
		t.Errorf("a progress line without its total:\n%s", strings.Join(lines, "\n"))
	}
	lines = progressLines(t, "-w", fresh, "rm", "--yes", "english/red-cliffs.txt")
	if !anyLine(lines, "removing: removing english/red-cliffs.txt", "0/1 docs") || !anyLine(lines, "removing: align", "1/1 docs") {
		t.Errorf("rm progress:\n%s", strings.Join(lines, "\n"))
	}
	lines = progressLines(t, "-w", fresh, "aliases", "import", filepath.Join(filepath.Dir(ws), "aliases.txt"))
	for _, step := range []string{"reading ", "checking the main names", "storing the aliases", "align"} {
		if !anyLine(lines, "importing aliases: "+step) {
			t.Errorf("aliases import progress lacks %q:\n%s", step, strings.Join(lines, "\n"))
		}
	}
}

// The progress line draws a step at once, with the count and its total.
func TestProgressLine(t *testing.T) {
	var buf bytes.Buffer
	p := startProgress(&buf, 100, "indexing", "docs", 0)
	p.Set(444, 1000)
	p.Step("communities")
	if got := buf.String(); !strings.Contains(got, "indexing: communities") || !strings.Contains(got, "444/1000 docs") || !strings.Contains(got, "█") {
		t.Fatalf("progress line: %q", got)
	}
	p.Wait("waiting for the LLM (extract): attempt 2 of 5")
	if got := buf.String(); !strings.HasSuffix(got, "\x1b[K") || !strings.Contains(got[strings.LastIndex(got, "\r"):], "waiting for the LLM") {
		t.Fatalf("a wait should show in place of the step: %q", got)
	}
	p.Above(func() { buf.WriteString("warning: x\n") })
	if !strings.HasSuffix(buf.String(), "\r\x1b[Kwarning: x\n") {
		t.Fatalf("a warning should print on a cleared line: %q", buf.String())
	}
	p.Finish()
	p.Finish()
	narrow := startProgress(&bytes.Buffer{}, 30, "indexing", "docs", 0)
	narrow.Step("三国人物/蜀/诸葛亮/text.txt 三国人物/蜀/诸葛亮/text.txt")
	if w := runewidth.StringWidth(narrow.line(time.Now())); w > 29 {
		t.Fatalf("a progress line %d columns wide on a terminal of 30", w)
	}
	var none *progress
	none.Step("x")
	none.Set(1, 2)
	none.Wait("x")
	none.Finish()
	ran := false
	none.Above(func() { ran = true })
	if !ran {
		t.Fatal("a nil progress must still print above")
	}
}

// quickstart's next steps are command lines that work: go run's when the
// program came from go run (and is gone once it exits), "annals" when
// that is this program on PATH, else the program's path.
func TestQuickstartNamesARunnableCommand(t *testing.T) {
	cwd, _ := os.Getwd()
	root := moduleRoot(cwd)
	if root == "" {
		t.Fatalf("no module root above %s", cwd)
	}
	none := func(string) (string, error) { return "", exec.ErrNotFound }
	for _, c := range []struct{ exe, cwd, want string }{
		{"/tmp/go-build2891/b001/exe/annals", root, "go run ./cmd/annals"},
		{"/home/u/.cache/go-build/f6/f6cd8a-d/annals", filepath.Join(root, "internal"), "go run ../cmd/annals"},
		{"/tmp/go-build2891/b001/exe/annals", filepath.Join(root, "cmd", "annals"), "go run ."},
		{"/opt/my tools/annals", root, "'/opt/my tools/annals'"},
		{"/usr/local/bin/annals", root, "/usr/local/bin/annals"},
	} {
		if got := commandFor(c.exe, c.cwd, none); got != c.want {
			t.Errorf("commandFor(%s, %s) = %q, want %q", c.exe, c.cwd, got, c.want)
		}
	}
	exe := filepath.Join(t.TempDir(), "annals")
	os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755)
	onPath := func(string) (string, error) { return exe, nil }
	if got := commandFor(exe, root, onPath); got != "annals" {
		t.Errorf("the annals on PATH is this program: %q, want annals", got)
	}
	elsewhere := func(string) (string, error) { return "/bin/sh", nil }
	if got := commandFor(exe, root, elsewhere); got != exe {
		t.Errorf("another annals on PATH: %q, want %s", got, exe)
	}

	dir := t.TempDir()
	out := mustRun(t, "-q", "quickstart", dir)
	self := commandLine()
	next := out[strings.Index(out, "What next:"):]
	for _, line := range strings.Split(strings.TrimSpace(next), "\n")[1:] {
		if l := strings.TrimSpace(line); !strings.HasPrefix(l, self+" ") && !strings.Contains(l, "| "+self+" extract") {
			t.Errorf("a next step that does not start with %q: %q", self, l)
		}
	}
}
