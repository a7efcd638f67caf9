package answer

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/annals-project/annals/internal/llm"
)

// StepJudge is the LLM step that grades an answer in evaluation.
const StepJudge = "judge"

// Verdict is an LLM judge's grade of an answer against a reference.
type Verdict struct {
	Correct bool   `json:"correct"`
	Reason  string `json:"reason"`
}

// Judge has the model grade answer to question against the reference
// gold (or any of aliases): the judge mode of evaluation, for free
// answers whose wording string matching undervalues. promptDir may
// override judge.tmpl.
func Judge(ctx context.Context, c llm.Client, promptDir, question, answer, gold string, aliases []string) (Verdict, llm.Usage, error) {
	if c == nil {
		return Verdict{}, llm.Usage{}, errors.New("judge: no LLM configured")
	}
	if strings.TrimSpace(answer) == "" {
		return Verdict{Reason: "no answer"}, llm.Usage{}, nil
	}
	t, err := llm.LoadTemplate(builtin, "prompts", "judge.tmpl", promptDir, nil)
	if err != nil {
		return Verdict{}, llm.Usage{}, err
	}
	var v Verdict
	data := map[string]any{"Question": question, "Answer": answer, "Gold": gold, "Aliases": aliases}
	usage, err := llm.ChatJSON(ctx, c, t, StepJudge, data, &v)
	if err != nil {
		return Verdict{}, usage, fmt.Errorf("judge the answer: %w", err)
	}
	return v, usage, nil
}
