package annals_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/llm/llmtest"
)

// A whole-corpus question gets a short list of names, not a passage:
// each name cited by a sentence that names it, the named lord's enemies
// left out, and one sentence saying what the list is.
func TestGlobalQuestionsAnswerWithCitedNames(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	for _, tc := range []struct {
		q            string
		want, absent []string
	}{
		{"刘备手下的将领有哪些？", []string{"关羽", "张飞"}, []string{"刘备", "曹操", "孙权"}},
		{"孙权的部将有哪些？", []string{"周瑜"}, []string{"孙权", "曹操", "刘备"}},
	} {
		ans, err := ws.Ask(ctx, tc.q, annals.AskOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !ans.Answered || ans.Method != "global" || ans.Analysis.Type != "global" {
			t.Fatalf("%s: method %q, type %q: %s", tc.q, ans.Method, ans.Analysis.Type, ans.Answer)
		}
		var names []string
		for _, e := range ans.List {
			names = append(names, e.Name)
			if e.Citation < 1 || e.Citation > len(ans.Citations) {
				t.Errorf("%s: %s has no citation (%d of %d)", tc.q, e.Name, e.Citation, len(ans.Citations))
				continue
			}
			// The full name, or the given name the text goes on with (瑜).
			given := string([]rune(e.Name)[utf8.RuneCountInString(e.Name)-1:])
			if s := ans.Citations[e.Citation-1].Sentence; !strings.Contains(s, e.Name) && !strings.Contains(s, given) {
				t.Errorf("%s: %s cited by a sentence that does not name it: %s", tc.q, e.Name, s)
			}
		}
		if len(names) == 0 || len(names) > 5 {
			t.Fatalf("%s: %d names: %v", tc.q, len(names), names)
		}
		for _, w := range tc.want {
			if !slices.Contains(names, w) {
				t.Errorf("%s: %v lacks %s", tc.q, names, w)
			}
		}
		for _, a := range tc.absent {
			if slices.Contains(names, a) {
				t.Errorf("%s: %v holds %s", tc.q, names, a)
			}
		}
		first, _, _ := strings.Cut(ans.Answer, "。")
		if utf8.RuneCountInString(first) > 60 || !strings.Contains(ans.Answer, "并非完整名单") {
			t.Errorf("%s: not a short list with its framing: %s", tc.q, ans.Answer)
		}
	}
}

// A question about one entity's relatives stays a fact question, even
// worded as a list.
func TestKinListStaysAFactQuestion(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	ans, err := ws.Ask(ctx, "孙坚的儿子有哪些？", annals.AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Analysis.Type != "kin" || ans.Method != "fact" {
		t.Fatalf("type %q, method %q: %s", ans.Analysis.Type, ans.Method, ans.Answer)
	}
	if len(ans.List) == 0 || !slices.ContainsFunc(ans.List, func(e annals.ListEntry) bool { return e.Name == "孙权" || e.Name == "孙策" }) {
		t.Errorf("list %+v: want 孙权 or 孙策", ans.List)
	}
}

// With a model, a whole-corpus question is answered map-reduce: one map
// call per part of the evidence (the best communities' reports, the
// search's members), then one reduce call over the points; names come
// with the sentences the points cite, and numbers no part offered are
// dropped.
// shownNumber finds the first evidence number a map prompt shows, and
// citedNumber the first one a reduce prompt's points cite: what a fake
// model's replies cite.
var (
	shownNumber = regexp.MustCompile(`\n\[(\d+)\]`)
	citedNumber = regexp.MustCompile(`evidence: \[(\d+)\]`)
)

func TestGlobalQuestionWithLLMMapReduce(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t)
	ws := askWorkspace(t, srv)
	var maps atomic.Int32
	srv.Handle(func(req llmtest.ChatRequest) llmtest.Reply {
		sys, user := req.Messages[0].Content, req.Messages[len(req.Messages)-1].Content
		switch {
		case strings.HasPrefix(sys, "You read one part"):
			maps.Add(1)
			if !strings.Contains(user, "Question: 刘备手下的将领有哪些？") || !strings.Contains(user, "[") {
				t.Errorf("map prompt: %s", user)
			}
			// Cite the first sentence this part shows, and one it does not.
			n := shownNumber.FindStringSubmatch(user)[1]
			return llmtest.Reply{Content: `{"points":[{"names":["关羽"],"text":"关羽随刘备","citations":[` + n + `,999],"score":80}]}`}
		case strings.HasPrefix(sys, "You answer a question about a group"):
			if !strings.Contains(user, "关羽") || strings.Contains(user, "[999]") {
				t.Errorf("reduce prompt: %s", user)
			}
			cited := citedNumber.FindStringSubmatch(user)
			if cited == nil {
				t.Errorf("reduce prompt cites nothing: %s", user)
				return llmtest.Reply{Content: `{"unable":true}`}
			}
			return llmtest.Reply{Content: `{"names":["关羽"],"answer":"刘备手下的将领有关羽等。","citations":[` + cited[1] + `]}`}
		}
		return llmtest.Reply{Content: `{}`}
	})
	ans, err := ws.Ask(ctx, "刘备手下的将领有哪些？", annals.AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !ans.Answered || ans.Method != "llm-global" || len(ans.List) != 1 || ans.List[0].Name != "关羽" || ans.List[0].Citation != 1 || len(ans.Citations) != 1 {
		t.Fatalf("answer %+v, list %+v, citations %d", ans.Answer, ans.List, len(ans.Citations))
	}
	if maps.Load() < 1 || srv.Calls() != int(maps.Load())+1 {
		t.Errorf("%d map calls, %d calls in all: want one reduce", maps.Load(), srv.Calls())
	}

	// Parts that say nothing of the group: unable, and no reduce call.
	srv.Handle(func(req llmtest.ChatRequest) llmtest.Reply {
		if strings.HasPrefix(req.Messages[0].Content, "You answer a question about a group") {
			t.Error("reduce called with no points")
		}
		return llmtest.Reply{Content: `{"points":[]}`}
	})
	ans, err = ws.Ask(ctx, "孙权的部将有哪些？", annals.AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Answered || !strings.HasPrefix(ans.Answer, "无法回答") {
		t.Errorf("no points: %+v", ans.Answer)
	}
}

// Anonymised evaluation asks again over a copy of the corpus whose person
// names are pseudonyms, and scores the answers with the names put back.
func TestEvaluateQAAnonymized(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	qs := []annals.QAQuestion{
		{ID: "z", Question: "诸葛亮字什么？", Answer: "孔明"},
		{ID: "g", Question: "刘备手下的将领有哪些？", Answer: "关羽", Type: "global", Expected: []string{"关羽", "张飞", "赵云", "马超", "黄忠"}},
	}
	dir := t.TempDir()
	rep, err := ws.EvaluateQAAnonymized(ctx, qs, annals.QAEvalOptions{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if rep.N != 2 || rep.Errors != 0 {
		t.Fatalf("report %+v", rep.Summary)
	}
	var hidden strings.Builder
	err = filepath.WalkDir(filepath.Join(dir, "corpus"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		// The documents' names are hidden with their text (诸葛亮/text.txt).
		hidden.WriteString(path + "\n")
		hidden.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if hidden.Len() == 0 || strings.Contains(hidden.String(), "诸葛亮") || strings.Contains(hidden.String(), "关羽") {
		t.Fatalf("names left in the anonymised corpus (%d bytes)", hidden.Len())
	}
	// Answers come back in the real names: the courtesy name is read
	// from the pseudonymised text and revealed.
	if r := rep.Results[0]; !r.Contains {
		t.Errorf("anonymised 字 question: %+v", r)
	}
	for _, r := range rep.Results {
		t.Logf("%s → %s %v", r.Question, r.Predicted, r.Listed)
	}
}
