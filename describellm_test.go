package annals_test

import (
	"context"
	"strings"
	"testing"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/llm/llmtest"
)

// A description the model writes from an entity's facts is stored and
// shown on its page in place of the one written offline; a failed reply
// leaves the page as it was; clearing brings the offline one back.
func TestDescribeWithAModel(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t)
	srv.Handle(func(r llmtest.ChatRequest) llmtest.Reply {
		if strings.Contains(r.Messages[1].Content, "Entry: 曹操") {
			return llmtest.Reply{Content: `{"description": "曹操，魏武帝，东汉末年人。"}`}
		}
		return llmtest.Reply{Content: `{"text": "no description here"}`}
	})
	ws := askWorkspace(t, srv)
	before, err := ws.Entity(ctx, "刘备", annals.EntityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ws.Describe(ctx, annals.DescribeOptions{Names: []string{"曹操", "刘备"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Description != "曹操，魏武帝，东汉末年人。" || got[1].Error == "" || got[1].Description != "" {
		t.Fatalf("described %+v", got)
	}
	var prompt string
	for _, req := range srv.Requests() {
		if strings.Contains(req.Messages[1].Content, "Entry: 曹操") {
			prompt = req.Messages[1].Content
		}
	}
	if !strings.Contains(prompt, "Facts:\n- ") || !strings.Contains(prompt, "Draft written by rule") {
		t.Fatalf("the prompt shows the entity's facts:\n%s", prompt)
	}
	v, err := ws.Entity(ctx, "曹操", annals.EntityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if v.Description != "曹操，魏武帝，东汉末年人。" || v.DescribedBy != "llm" {
		t.Fatalf("曹操's page: %q by %q", v.Description, v.DescribedBy)
	}
	after, err := ws.Entity(ctx, "刘备", annals.EntityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if after.Description != before.Description || (after.Description != "" && after.DescribedBy != "facts") {
		t.Fatalf("a failed reply changed 刘备's page: %q (%s) → %q (%s)", before.Description, before.DescribedBy, after.Description, after.DescribedBy)
	}
	if _, err := ws.Describe(ctx, annals.DescribeOptions{Names: []string{"曹操"}, Clear: true}); err != nil {
		t.Fatal(err)
	}
	if v, err = ws.Entity(ctx, "曹操", annals.EntityOptions{}); err != nil || v.DescribedBy == "llm" {
		t.Fatalf("after clearing: %q by %q, %v", v.Description, v.DescribedBy, err)
	}
}
