package qa

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func fixture(name string) string { return filepath.Join("testdata", name) }

func letters(opts []Option) string {
	var b strings.Builder
	for _, o := range opts {
		b.WriteString(o.Letter)
	}
	return b.String()
}

func TestLoadJSONLMultipleChoice(t *testing.T) {
	qs, err := Load(fixture("mcq.jsonl"), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 4 {
		t.Fatalf("%d questions, want 4", len(qs))
	}
	wantIDs := []string{"vi-1", "2", "mcq.jsonl:4", "en-4"}
	wantAnswers := []string{"B", "C", "B", "C"}
	wantLetters := []string{"ABCD", "ABCD", "ABCD", "ABC"}
	wantTypes := []string{"Nguyên nhân", "Kết quả", "时间", ""}
	wantContexts := []int{1, 2, 0, 1}
	for i, q := range qs {
		if q.ID != wantIDs[i] || q.Answer != wantAnswers[i] || letters(q.Options) != wantLetters[i] ||
			q.Type != wantTypes[i] || len(q.Context) != wantContexts[i] {
			t.Errorf("question %d: id %q answer %q options %q type %q %d passages; want %q %q %q %q %d",
				i, q.ID, q.Answer, letters(q.Options), q.Type, len(q.Context),
				wantIDs[i], wantAnswers[i], wantLetters[i], wantTypes[i], wantContexts[i])
		}
		if !q.MultipleChoice() {
			t.Errorf("question %d is not multiple choice", i)
		}
	}
	// The object form is sorted by letter, its lower-case key read as A.
	if qs[1].Options[0] != (Option{"A", "Hoa Lư"}) || qs[1].Options[2] != (Option{"C", "Cổ Loa"}) {
		t.Errorf("object options %+v", qs[1].Options)
	}
	// "B. …" prefixes on every option are dropped.
	if qs[2].Options[1].Text != "前221年" {
		t.Errorf("prefixed option read as %q", qs[2].Options[1].Text)
	}
	if qs[3].Context[0].Title != "Constantinople" || !strings.HasPrefix(qs[3].Context[0].Text, "In 330") {
		t.Errorf("object context %+v", qs[3].Context[0])
	}
	if !strings.HasPrefix(qs[0].Question, "Quân Trần") {
		t.Errorf("BOM not stripped: %q", qs[0].Question)
	}
}

func TestLoadJSONLFree(t *testing.T) {
	qs, err := Load(fixture("free.jsonl"), "jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := []Question{
		{ID: "f1", Answer: "Trần Hưng Đạo", Aliases: []string{"Trần Quốc Tuấn", "Hung Dao"}, Type: "person"},
		{ID: "f2", Answer: "1453", Aliases: []string{"AD 1453"}, Type: "year"},
		{ID: "f3", Answer: "the Wei River", Aliases: []string{"Wei"}},
		{ID: "f4", Answer: "司马迁", Type: "person", Context: []Passage{{Text: "司马迁继承父亲司马谈的遗志，撰写《史记》。"}}},
		{ID: "f5", Answer: "3"},
	}
	if len(qs) != len(want) {
		t.Fatalf("%d questions, want %d", len(qs), len(want))
	}
	for i, q := range qs {
		if q.Question == "" || q.MultipleChoice() {
			t.Errorf("question %d: %+v", i, q)
		}
		q.Question = ""
		if !reflect.DeepEqual(q, want[i]) {
			t.Errorf("question %d:\n got %+v\nwant %+v", i, q, want[i])
		}
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, path, format string
		want               []string // substrings of the error
	}{
		{"answer matching no option", fixture("bad_answer.jsonl"), "", []string{"line 2", `"E"`, "A, B"}},
		{"malformed line", fixture("bad_json.jsonl"), "", []string{"line 3"}},
		{"missing question", fixture("no_question.jsonl"), "", []string{"line 2: no question"}},
		{"empty file", fixture("empty.jsonl"), "", []string{"empty"}},
		{"missing musique answer", fixture("musique_no_answer.json"), "", []string{"record 2 (line 3)", "2hop__3_4", "no answer"}},
		{"missing file", filepath.Join(dir, "absent.jsonl"), "", []string{"absent.jsonl"}},
		{"unknown format", fixture("free.jsonl"), "csv", []string{`unknown format "csv"`}},
		{"no answer", write("a.jsonl", `{"question": "Q?"}`), "", []string{"line 1: no answer"}},
		{"duplicate ids", write("b.jsonl", "{\"id\": \"x\", \"question\": \"Q?\", \"answer\": \"a\"}\n{\"id\": \"x\", \"question\": \"R?\", \"answer\": \"b\"}\n"), "", []string{"line 2", `id "x" already used on line 1`}},
		{"options of numbers", write("c.jsonl", `{"question": "Q?", "options": [1, 2], "answer": "A"}`), "", []string{"line 1: options"}},
		{"option key not a letter", write("d.jsonl", `{"question": "Q?", "options": {"first": "x", "B": "y"}, "answer": "B"}`), "", []string{`key "first"`}},
		{"empty option", write("e.jsonl", `{"question": "Q?", "options": ["x", " "], "answer": "A"}`), "", []string{"option B is empty"}},
		{"ambiguous answer text", write("f.jsonl", `{"question": "Q?", "options": ["same", "Same!"], "answer": "SAME"}`), "", []string{"options A and B"}},
		{"two answers to multiple choice", write("g.jsonl", `{"question": "Q?", "options": ["x", "y"], "answer": ["A", "B"]}`), "", []string{"takes one"}},
		{"question not a string", write("h.jsonl", `{"question": 7, "answer": "x"}`), "", []string{"line 1"}},
		{"line not an object", write("i.jsonl", "{\"question\": \"Q?\", \"answer\": \"x\"}\n[1, 2]\n"), "", []string{"line 2"}},
		{"bad context", write("j.jsonl", `{"question": "Q?", "answer": "x", "context": [3]}`), "", []string{"context: passage 1"}},
		{"array of unknown records", write("k.json", `[{"question": "Q?", "answer": "x"}]`), "", []string{"cannot tell the format", "answer, question"}},
		{"empty array", write("l.json", "[]"), "", []string{"array is empty"}},
		{"data after the array", write("m.json", "[{\"id\": \"1\", \"question\": \"Q?\", \"answer\": \"x\", \"paragraphs\": []}]\n]"), "musique", []string{"line 2", "after the array"}},
		{"truncated array", write("n.json", "[\n{\"_id\": \"1\", \"question\": \"Q?\", \"answer\": \"x\", \"context\": []},\n{\"_id\": \"2\""), "hotpotqa", []string{"line 3"}},
		{"hotpotqa context not pairs", write("o.json", `[{"_id": "1", "question": "Q?", "answer": "x", "supporting_facts": [], "context": [["t"]]}]`), "", []string{"record 1 (line 1)", "context 1"}},
		{"not JSON", write("p.json", "question,answer\n"), "", []string{"give the format"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			qs, err := Load(tt.path, tt.format)
			if err == nil {
				t.Fatalf("no error; loaded %+v", qs)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

func TestLoadMuSiQue(t *testing.T) {
	qs, err := Load(fixture("musique.json"), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 2 {
		t.Fatalf("%d questions, want 2", len(qs))
	}
	q := qs[0]
	if q.ID != "2hop__11_22" || q.Type != "2hop" || q.Answer != "Bạch Đằng River" ||
		!reflect.DeepEqual(q.Aliases, []string{"Bach Dang", "Bạch Đằng"}) || q.MultipleChoice() {
		t.Errorf("first question %+v", q)
	}
	if len(q.Context) != 3 || q.Context[0].Title != "Hịch tướng sĩ" || !q.Context[0].Supporting || q.Context[1].Supporting {
		t.Errorf("first context %+v", q.Context)
	}
	if qs[1].Type != "3hop1" || qs[1].Aliases != nil {
		t.Errorf("second question %+v", qs[1])
	}
}

func TestLoadHotpotQA(t *testing.T) {
	qs, err := Load(fixture("hotpotqa.json"), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 2 || qs[0].ID != "h1" || qs[0].Type != "comparison" || qs[1].Type != "bridge" || qs[0].Answer != "Song dynasty" {
		t.Fatalf("questions %+v", qs)
	}
	want := []Passage{
		{Title: "Lý dynasty", Text: "The Lý dynasty ruled Đại Việt from 1009. Its capital was Thăng Long.", Supporting: true},
		{Title: "Song dynasty", Text: "The Song dynasty was founded in 960.", Supporting: true},
		{Title: "Hoa Lư", Text: "Hoa Lư was the capital before Thăng Long."},
	}
	if !reflect.DeepEqual(qs[0].Context, want) {
		t.Errorf("context\n got %+v\nwant %+v", qs[0].Context, want)
	}
}

func TestCorpus(t *testing.T) {
	qs, err := Load(fixture("musique.json"), "musique")
	if err != nil {
		t.Fatal(err)
	}
	ps := Corpus(qs)
	var keys []string
	for _, p := range ps {
		keys = append(keys, p.Key)
		if p.Supporting {
			t.Errorf("pooled passage %s marked supporting", p.Key)
		}
	}
	want := []string{
		"passages/0001-Hịch-tướng-sĩ",
		"passages/0002-Bạch-Đằng-River",
		"passages/0003-Battle-of-Bạch-Đằng-1288",
		"passages/0004-Hạ-Long-Bay",
	}
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("keys %q, want %q", keys, want)
	}
	// Untitled passages are named by their first words, at most 40 runes.
	mcq, err := Load(fixture("mcq.jsonl"), "")
	if err != nil {
		t.Fatal(err)
	}
	ps = Corpus(mcq)
	if len(ps) != 4 {
		t.Fatalf("%d passages, want 4", len(ps))
	}
	if ps[0].Key != "passages/0001-Năm-1288-quân-Trần-đóng-cọc-trên-sông" {
		t.Errorf("untitled key %q", ps[0].Key)
	}
	keyRE := regexp.MustCompile(`^passages/\d{4}(-[\p{L}\p{N}]+)*$`)
	for _, p := range ps {
		if !keyRE.MatchString(p.Key) || len([]rune(p.Key)) > len("passages/0000-")+40 {
			t.Errorf("key %q is not file-like", p.Key)
		}
	}
	if got := Corpus(append(mcq, mcq...)); !reflect.DeepEqual(got, ps) {
		t.Errorf("repeated questions changed the corpus")
	}
}

func TestLoadCorpus(t *testing.T) {
	ps, err := LoadCorpus(fixture("musique_corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 3 || ps[1].Key != "passages/0002-Bạch-Đằng-River" {
		t.Errorf("musique corpus %+v", ps)
	}
	ps, err = LoadCorpus(fixture("hotpotqa_corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Passage{
		{Key: "passages/0001-Song-dynasty", Title: "Song dynasty", Text: "The Song dynasty was founded in 960."},
		{Key: "passages/0002-Lý-dynasty", Title: "Lý dynasty", Text: "The Lý dynasty ruled Đại Việt from 1009. Its capital was Thăng Long."},
		{Key: "passages/0003-Hoa-Lư", Title: "Hoa Lư", Text: "Hoa Lư was the capital before Thăng Long."},
	}
	if !reflect.DeepEqual(ps, want) {
		t.Errorf("hotpotqa corpus\n got %+v\nwant %+v", ps, want)
	}
	for _, name := range []string{"empty.jsonl", "free.jsonl"} {
		if _, err := LoadCorpus(fixture(name)); err == nil {
			t.Errorf("LoadCorpus(%s): no error", name)
		}
	}
}

func TestChance(t *testing.T) {
	mcq, err := Load(fixture("mcq.jsonl"), "")
	if err != nil {
		t.Fatal(err)
	}
	free, err := Load(fixture("free.jsonl"), "")
	if err != nil {
		t.Fatal(err)
	}
	want := (3*0.25 + 1.0/3) / 4 // three questions of four options, one of three
	if got := Chance(append(mcq, free...)); math.Abs(got-want) > 1e-12 {
		t.Errorf("Chance = %v, want %v", got, want)
	}
	if got := Chance(free); got != 0 {
		t.Errorf("Chance of free answers = %v, want 0", got)
	}
}

func FuzzLoadJSONL(f *testing.F) {
	for _, name := range []string{"mcq.jsonl", "free.jsonl", "bad_answer.jsonl", "bad_json.jsonl", "no_question.jsonl"} {
		b, err := os.ReadFile(fixture(name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"question": "Q?", "options": {"(a)": "x", "b.": "y"}, "answer": "B) y"}`))
	f.Add([]byte("\xef\xbb\xbf{\"question\": \"\xff\", \"answer\": [1, \"x\"], \"context\": [{\"title\": 1}]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		qs, err := parseJSONL(data, "fuzz.jsonl")
		if err != nil {
			return
		}
		for _, q := range qs {
			if q.Question == "" || q.ID == "" || q.Answer == "" {
				t.Fatalf("incomplete question %+v", q)
			}
			if q.MultipleChoice() && !strings.Contains(letters(q.Options), q.Answer) {
				t.Fatalf("answer %q is not among options %q", q.Answer, letters(q.Options))
			}
		}
		Corpus(qs)
	})
}

// FuzzLoadJSONArrays feeds arbitrary bytes to the JSON-array readers.
func FuzzLoadJSONArrays(f *testing.F) {
	for _, name := range []string{"musique.json", "hotpotqa.json", "musique_corpus.json", "hotpotqa_corpus.json", "musique_no_answer.json"} {
		b, err := os.ReadFile(fixture(name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = guessFormat("fuzz.json", data)
		for _, parse := range []func([]byte, string) ([]Question, error){parseMuSiQue, parseHotpotQA} {
			if qs, err := parse(data, "fuzz.json"); err == nil {
				Corpus(qs)
			}
		}
		_, _ = parseCorpus(data)
	})
}
