package community

import (
	"context"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/llm/llmtest"
)

func writtenCommunity() kg.Community {
	ev := func(doc int64, start int, s string) kg.Evidence {
		return kg.Evidence{DocID: doc, DocKey: "吴书", Cite: "《三国志·吴书》", Span: kg.Span{Start: start, End: start + len([]rune(s))}, Sentence: s}
	}
	return kg.Community{ID: 2, Name: "建业：孙权、周瑜、鲁肃", Size: 40,
		Members:  []kg.CommunityMember{{Name: "孙权"}, {Name: "周瑜"}, {Name: "鲁肃"}},
		Keywords: []kg.Keyword{{Term: "建业"}},
		Summary:  []kg.Evidence{ev(1, 0, "权以瑜为前部大督。"), ev(1, 30, "肃与瑜并力拒曹公。")},
		Facts: []kg.Relation{
			{Head: "孙权", Type: "下级", Tail: "周瑜", Evidence: []kg.Evidence{ev(1, 0, "权以瑜为前部大督。")}}, // the same sentence: shown once
			{Head: "孙权", Type: "下级", Tail: "吕蒙", Evidence: []kg.Evidence{ev(2, 5, "权使蒙袭南郡。")}},
		},
	}
}

func writer(t *testing.T, srv *llmtest.Server) Writer {
	t.Helper()
	c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "fake", Concurrency: 1, MaxRetries: -1}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return Writer{Client: c, Model: "fake"}
}

// The model reads the report's cited sentences for points, then writes a
// title and a summary from them; every sentence of the summary keeps the
// evidence it cites, and numbers it was never shown, or no point cited,
// are dropped.
func TestWriterWritesACitedReport(t *testing.T) {
	srv := llmtest.New(t)
	srv.Handle(func(req llmtest.ChatRequest) llmtest.Reply {
		sys, user := req.Messages[0].Content, req.Messages[len(req.Messages)-1].Content
		switch {
		case strings.HasPrefix(sys, "You read one part"):
			if !strings.Contains(user, "[3] 权使蒙袭南郡。") || strings.Contains(user, "[4]") || !strings.Contains(user, "central: 孙权、周瑜、鲁肃") {
				t.Errorf("map prompt: %s", user)
			}
			return llmtest.Reply{Content: `{"points":[{"text":"孙权任周瑜、鲁肃拒曹操","citations":[1,2,9],"score":90},{"text":"吕蒙袭南郡","citations":[3],"score":60},{"text":"无据","citations":[],"score":99}]}`}
		case strings.HasPrefix(sys, "You write the report"):
			if !strings.Contains(user, "孙权任周瑜、鲁肃拒曹操") || strings.Contains(user, "无据") || strings.Contains(user, "[9]") {
				t.Errorf("reduce prompt: %s", user)
			}
			return llmtest.Reply{Content: `{"title":"孙吴君臣","summary":[{"text":"孙权以周瑜、鲁肃拒曹操。","citations":[1,2]},{"text":"吕蒙袭取南郡。","citations":[3,7]},{"text":"未引证的话。","citations":[]}]}`}
		}
		t.Errorf("unexpected prompt %.40s", sys)
		return llmtest.Reply{Content: `{}`}
	})
	c := writtenCommunity()
	if _, err := writer(t, srv).Write(context.Background(), &c); err != nil {
		t.Fatal(err)
	}
	w := c.Written
	if w == nil || w.Title != "孙吴君臣" || w.Model != "fake" || len(w.Summary) != 2 {
		t.Fatalf("written report %+v", w)
	}
	if len(w.Summary[0].Evidence) != 2 || w.Summary[0].Evidence[1].Sentence != "肃与瑜并力拒曹公。" {
		t.Errorf("first sentence's evidence: %+v", w.Summary[0].Evidence)
	}
	if len(w.Summary[1].Evidence) != 1 || w.Summary[1].Evidence[0].DocID != 2 {
		t.Errorf("second sentence's evidence (7 was never shown): %+v", w.Summary[1].Evidence)
	}
	if c.Name != "建业：孙权、周瑜、鲁肃" || len(c.Summary) != 2 {
		t.Errorf("the offline report changed: %+v", c)
	}
}

// A malformed reply, or a summary that cites nothing shown, is an error
// and leaves the offline report alone.
func TestWriterRefusesUncitedOrMalformedReports(t *testing.T) {
	for name, reduce := range map[string]string{
		"malformed": `{"title": 3`,
		"uncited":   `{"title":"孙吴","summary":[{"text":"孙权称帝。","citations":[8]}]}`,
	} {
		srv := llmtest.New(t)
		srv.Handle(func(req llmtest.ChatRequest) llmtest.Reply {
			if strings.HasPrefix(req.Messages[0].Content, "You read one part") {
				return llmtest.Reply{Content: `{"points":[{"text":"孙权任周瑜","citations":[1],"score":90}]}`}
			}
			return llmtest.Reply{Content: reduce}
		})
		c := writtenCommunity()
		if _, err := writer(t, srv).Write(context.Background(), &c); err == nil || c.Written != nil {
			t.Errorf("%s reply: error %v, written %+v", name, err, c.Written)
		}
	}
}
