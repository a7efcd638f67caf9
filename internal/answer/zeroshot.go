package answer

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/annals-project/annals/internal/llm"
)

// StepZeroShot is the LLM step that answers with no retrieval at all.
const StepZeroShot = "zero-shot"

// ZeroShotAnswer is what a model answers from its own knowledge.
type ZeroShotAnswer struct {
	Answer string `json:"answer"`
	Choice string `json:"choice"`
	// Known is false when the model says it does not know.
	Known bool `json:"known"`
}

// ZeroShot has the model answer a question with no evidence: the
// "zero-shot LLM" row of the seeds' tables, which says how much of a data
// set a model knows already and so what retrieval adds. promptDir may
// override zeroshot.tmpl.
func ZeroShot(ctx context.Context, c llm.Client, promptDir, question string, options []Option) (ZeroShotAnswer, llm.Usage, error) {
	if c == nil {
		return ZeroShotAnswer{}, llm.Usage{}, errors.New("zero-shot answer: no LLM configured")
	}
	t, err := llm.LoadTemplate(builtin, "prompts", "zeroshot.tmpl", promptDir, nil)
	if err != nil {
		return ZeroShotAnswer{}, llm.Usage{}, err
	}
	var a ZeroShotAnswer
	usage, err := llm.ChatJSON(ctx, c, t, StepZeroShot, map[string]any{"Question": question, "Options": options}, &a)
	if err != nil {
		return ZeroShotAnswer{}, usage, fmt.Errorf("zero-shot answer: %w", err)
	}
	a.Answer, a.Choice = strings.TrimSpace(a.Answer), strings.TrimSpace(a.Choice)
	// A letter that names no option is no choice.
	valid := false
	for _, o := range options {
		valid = valid || strings.EqualFold(o.Letter, a.Choice)
	}
	if !valid {
		a.Choice = ""
	}
	return a, usage, nil
}
