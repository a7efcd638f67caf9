package bio

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/llm/llmtest"
)

// sourceNumbers reads the numbered sources of a prompt: text → number.
func sourceNumbers(prompt string) map[string]int {
	out := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^\[(\d+)\] (.*)$`).FindAllStringSubmatch(prompt, -1) {
		n, _ := strconv.Atoi(m[1])
		out[m[2]] = n
	}
	return out
}

// numberOf is the number of the source that holds s.
func numberOf(srcs map[string]int, s string) int {
	for text, n := range srcs {
		if strings.Contains(text, s) {
			return n
		}
	}
	return 0
}

func reply(v any) llmtest.Reply {
	b, _ := json.Marshal(v)
	return llmtest.Reply{Content: string(b)}
}

// A scripted model writes four sentences: one right, one with the wrong
// year, one with an office the sources do not give, one with nothing the
// sources say. The checks and solvers leave three right and drop one.
func TestGenerateChecksAndCorrectsEachSentence(t *testing.T) {
	srv := llmtest.New(t)
	verifies := map[string]int{}
	srv.Handle(func(r llmtest.ChatRequest) llmtest.Reply {
		system, user := r.Messages[0].Content, r.Messages[len(r.Messages)-1].Content
		srcs := sourceNumbers(user)
		switch {
		case strings.Contains(system, "You write a short biography"):
			return reply(map[string]any{"sentences": []map[string]any{
				{"text": "诸葛亮，字孔明，琅邪阳都人。", "sources": []int{numberOf(srcs, "字孔明")}},
				{"text": "公元235年，诸葛亮卒于五丈原。", "sources": []int{numberOf(srcs, "五丈原")}},
				{"text": "诸葛亮曾任大司马。", "sources": []int{numberOf(srcs, "丞相")}},
				{"text": "诸葛亮好为梁父吟。", "sources": []int{99}},
			}})
		case strings.Contains(system, "You check one sentence"):
			sentence := regexp.MustCompile(`Sentence: (.*)`).FindStringSubmatch(user)[1]
			verifies[sentence]++
			verdict := map[string]any{"fact": sentence, "verdict": "supported", "source": 1}
			switch {
			case strings.Contains(sentence, "235"):
				verdict["verdict"], verdict["error"] = "unsupported", "era"
			case strings.Contains(sentence, "大司马"), strings.Contains(sentence, "梁父吟"):
				verdict["verdict"] = "not_included"
			}
			return reply(map[string]any{"facts": []any{verdict}})
		case strings.Contains(system, "You correct one sentence"):
			if strings.Contains(user, "梁父吟") {
				return reply(map[string]any{"text": "", "sources": []int{}})
			}
			return reply(map[string]any{"text": "诸葛亮曾任丞相。", "sources": []int{numberOf(srcs, "丞相")}})
		}
		t.Errorf("an unexpected prompt: %.80s", system)
		return llmtest.Reply{Content: "{}"}
	})
	c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "fake", Concurrency: 1, MaxRetries: -1}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Read(context.Background(), zhuge(), kg.Entity{ID: self, Name: "诸葛亮", Type: "人物"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, usage, err := Generate(context.Background(), "诸葛亮", p, LLMOptions{Client: c, Style: Modern})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, s := range out {
		texts = append(texts, s.Text)
		if !s.Verified || len(s.Citations) == 0 || len(s.Checks) == 0 {
			t.Errorf("%q: verified %v, %d citations, checks %+v", s.Text, s.Verified, len(s.Citations), s.Checks)
		}
	}
	if got := strings.Join(texts, ""); got != "诸葛亮，字孔明，琅邪阳都人。公元234年，诸葛亮卒于五丈原。诸葛亮曾任丞相。" {
		t.Errorf("biography: %s", got)
	}
	// The wrong year failed its first check and passed its second.
	if verifies["公元235年，诸葛亮卒于五丈原。"] != 1 || verifies["公元234年，诸葛亮卒于五丈原。"] != 1 {
		t.Errorf("checks: %v", verifies)
	}
	if srv.Calls() == 0 || usage.PromptTokens+usage.CompletionTokens == 0 && !usage.Estimated {
		t.Errorf("usage %+v over %d calls", usage, srv.Calls())
	}
}

// A model that answers with what is not JSON fails the biography with an
// error that says so; an endpoint down fails it too.
func TestGenerateReportsABadModel(t *testing.T) {
	srv := llmtest.New(t)
	srv.Handle(func(llmtest.ChatRequest) llmtest.Reply { return llmtest.Reply{Content: "我不知道"} })
	c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "fake", Concurrency: 1, MaxRetries: -1}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := Read(context.Background(), zhuge(), kg.Entity{ID: self, Name: "诸葛亮", Type: "人物"}, Options{})
	if _, _, err := Generate(context.Background(), "诸葛亮", p, LLMOptions{Client: c}); err == nil || !strings.Contains(err.Error(), "诸葛亮") {
		t.Errorf("a reply that is not JSON: %v", err)
	}
}

func TestFixEraSetsTheSourcesYear(t *testing.T) {
	y := 234
	g := &generator{srcs: []source{newSource(1, Citation{Quote: "十二年，亮卒于五丈原。", Year: &y})}}
	for in, want := range map[string]string{
		"公元235年，亮卒。":  "公元234年，亮卒。",
		"建兴十三年，亮卒。":   "公元234年，亮卒。",
		"公元234年，亮卒。":  "公元234年，亮卒。",
		"公元前206年，亮卒。": "公元234年，亮卒。",
		"建兴十二年，亮卒。":   "建兴十二年，亮卒。",
	} {
		d := &draft{text: in, cites: []int{1}}
		g.fixEra(d)
		if d.text != want {
			t.Errorf("%s → %s, want %s", in, d.text, want)
		}
	}
}
