package llmdescribe

import (
	"errors"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/llm/llmtest"
)

func client(t *testing.T, srv *llmtest.Server) llm.Client {
	t.Helper()
	c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "test"}, llm.NewMemoryCache(), llm.NewMeter(0))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var zhuge = Input{Name: "诸葛亮", Type: "人物", Lang: "zh", Draft: "诸葛亮，字孔明，琅邪阳都人。",
	Facts: []string{"诸葛亮字孔明。", "诸葛亮为丞相（221年）。", "诸葛亮卒于五丈原（234年）。"}}

func TestWriteSendsTheFactsAndKeepsTheReply(t *testing.T) {
	srv := llmtest.New(t)
	srv.Script(llmtest.Reply{Content: `{"description": "诸葛亮（181–234），字孔明，\n 蜀汉丞相，卒于五丈原。"}`})
	d, err := Write(t.Context(), client(t, srv), "", zhuge)
	if err != nil {
		t.Fatal(err)
	}
	if d != "诸葛亮（181–234），字孔明， 蜀汉丞相，卒于五丈原。" {
		t.Fatalf("description %q: want the reply with its white space folded", d)
	}
	req := srv.Requests()[0]
	user := req.Messages[1].Content
	for _, want := range []string{"诸葛亮 (人物)", "卒于五丈原（234年）", "Draft written by rule"} {
		if !strings.Contains(user, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, user)
		}
	}
	if !strings.Contains(req.Messages[0].Content, "Chinese") {
		t.Errorf("a Chinese entry is written in Chinese: %s", req.Messages[0].Content)
	}
}

func TestWriteRefusesWhatIsNotADescription(t *testing.T) {
	srv := llmtest.New(t)
	srv.Script(llmtest.Reply{Content: `{"summary": "x"}`}, llmtest.Reply{Content: `{"description": "  "}`},
		llmtest.Reply{Content: `{"description": "` + strings.Repeat("长", MaxRunes+1) + `"}`}, llmtest.Reply{Status: 500},
		llmtest.Reply{Content: "not json"})
	c := client(t, srv)
	for i, want := range []string{"no \"description\"", "empty", "characters long", "", ""} {
		in := zhuge
		in.Facts = append([]string{strings.Repeat("又", i)}, in.Facts...) // a new prompt each time, past the cache
		_, err := Write(t.Context(), c, "", in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("reply %d: error %v, want one saying %q", i+1, err, want)
		}
	}
	if _, err := Write(t.Context(), c, "", Input{Name: "某"}); !errors.Is(err, ErrNoFacts) {
		t.Errorf("no facts: %v", err)
	}
}
