package relate

import (
	"context"
	"embed"
	"fmt"
	"slices"
	"strings"
	"text/template"

	"github.com/annals-project/annals/internal/llm"
)

//go:embed prompts/*.tmpl
var builtin embed.FS

// Step names for usage accounting.
const (
	StepHop    = "relate-hop"
	StepPath   = "relate-path"
	StepMerge  = "relate-merge"
	StepVerify = "relate-verify"
)

// LLMJudge reads hop relations and verifies findings with a model (BEKO
// §4.2.2 and §4.4).
type LLMJudge struct {
	Client    llm.Client
	Types     []string // the schema's relation types the model chooses from
	PromptDir string   // the workspace's prompt overrides
}

// HopRelation asks the model which of the schema's relation types the
// sentences state between from and to; "" when none.
func (j *LLMJudge) HopRelation(ctx context.Context, from, to string, sentences []string) (string, bool, error) {
	var out struct {
		Relation string `json:"relation"`
		Head     string `json:"head"`
	}
	data := map[string]any{"From": from, "To": to, "Sentences": sentences, "Types": j.Types}
	if err := j.call(ctx, StepHop, "hop.tmpl", data, &out); err != nil {
		return "", false, err
	}
	typ := strings.TrimSpace(out.Relation)
	if typ == "" || strings.EqualFold(typ, "none") {
		return "", false, nil
	}
	if !slices.Contains(j.Types, typ) {
		// A type outside the schema is not taken: the hop expresses none.
		return "", false, nil
	}
	return typ, strings.TrimSpace(out.Head) != to, nil
}

// ComposePath asks the model what relation a chain of steps establishes
// between its first and last entity (BEKO §4.3, reasoning along one path);
// "" when none.
func (j *LLMJudge) ComposePath(ctx context.Context, head, tail string, steps []string) (string, bool, error) {
	var out struct {
		Relation string `json:"relation"`
		Head     string `json:"head"`
	}
	data := map[string]any{"Head": head, "Tail": tail, "Steps": steps, "Types": j.Types}
	if err := j.call(ctx, StepPath, "path.tmpl", data, &out); err != nil {
		return "", false, err
	}
	typ := strings.TrimSpace(out.Relation)
	if typ == "" || strings.EqualFold(typ, "none") || !slices.Contains(j.Types, typ) {
		return "", false, nil
	}
	return typ, strings.TrimSpace(out.Head) != tail, nil
}

// MergePaths asks the model which relations hold between head and tail,
// given what each path concluded (BEKO §4.3, the merge of the paths).
func (j *LLMJudge) MergePaths(ctx context.Context, head, tail string, readings []PathReading) ([]Merged, error) {
	var out struct {
		Relations []struct {
			Relation string `json:"relation"`
			Head     string `json:"head"`
			Paths    []int  `json:"paths"`
		} `json:"relations"`
	}
	data := map[string]any{"Head": head, "Tail": tail, "Readings": readings}
	if err := j.call(ctx, StepMerge, "merge.tmpl", data, &out); err != nil {
		return nil, err
	}
	var merged []Merged
	for _, r := range out.Relations {
		typ := strings.TrimSpace(r.Relation)
		if typ == "" || strings.EqualFold(typ, "none") {
			continue
		}
		merged = append(merged, Merged{Relation: typ, Head: strings.TrimSpace(r.Head), Paths: r.Paths})
	}
	return merged, nil
}

// Verify asks the model whether a finding follows from its evidence.
func (j *LLMJudge) Verify(ctx context.Context, f Finding) (bool, error) {
	var out struct {
		Consistent *bool `json:"consistent"`
	}
	evs := make([]string, len(f.Evidence))
	for i, e := range f.Evidence {
		evs[i] = e.Sentence
	}
	if err := j.call(ctx, StepVerify, "verify.tmpl", map[string]any{"Fact": f.Text, "Evidence": evs}, &out); err != nil {
		return false, err
	}
	if out.Consistent == nil {
		return false, fmt.Errorf("%s: the model's reply has no \"consistent\"", StepVerify)
	}
	return *out.Consistent, nil
}

func (j *LLMJudge) call(ctx context.Context, step, name string, data any, out any) error {
	t, err := llm.LoadTemplate(builtin, "prompts", name, j.PromptDir, template.FuncMap{"join": strings.Join})
	if err != nil {
		return err
	}
	_, err = llm.ChatJSON(ctx, j.Client, t, step, data, out)
	return err
}
