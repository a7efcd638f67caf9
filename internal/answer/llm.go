package answer

import (
	"context"
	"embed"
	"strings"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/retrieve"
)

//go:embed prompts/*.tmpl
var builtin embed.FS

// Step names for usage accounting.
const (
	StepRerank = "rerank"
	StepAnswer = "answer"
)

// rerankPool is how many fused items the model chooses its top k from.
const rerankPool = 40

// numbered is one evidence item as a prompt shows it.
type numbered struct {
	N    int
	Text string
	Cite string
	item *retrieve.Item
}

// call renders a prompt, sends it and decodes the JSON reply into out,
// adding the usage to ans. A reply that is not the JSON asked for is an
// error naming the prompt.
func (a *Answerer) call(ctx context.Context, ans *Answer, step, name string, data any, out any) error {
	return a.callStream(ctx, ans, step, name, data, out, nil)
}

// callStream is call that tells stream the reply's "answer" as it comes.
func (a *Answerer) callStream(ctx context.Context, ans *Answer, step, name string, data any, out any, stream func(string)) error {
	t, err := llm.LoadTemplate(builtin, "prompts", name, a.PromptDir, nil)
	if err != nil {
		return err
	}
	usage, err := llm.ChatJSONStream(ctx, a.LLM, t, step, data, out, "answer", stream)
	ans.Usage = ans.Usage.Add(usage)
	return err
}

// number lists items for a prompt, facts as sentences.
func number(items []retrieve.Item) []numbered {
	out := make([]numbered, len(items))
	for i := range items {
		it := &items[i]
		n := numbered{N: i + 1, Text: it.Text, item: it}
		if it.Kind == retrieve.KindChunk && it.Citation != nil {
			n.Text = it.Citation.Sentence
		}
		if it.Citation != nil {
			n.Cite = it.Citation.Cite
		}
		n.Text = strings.Join(strings.Fields(n.Text), " ")
		out[i] = n
	}
	return out
}

// rerank has the model pick the k items most useful for the question
// (HisGraphRAG §3.6); numbers it did not offer are ignored, and a reply
// that selects nothing keeps the fused order.
func (a *Answerer) rerank(ctx context.Context, ans *Answer, k int) error {
	items := ans.Items
	if len(items) > rerankPool {
		items = items[:rerankPool]
	}
	if len(items) <= k {
		return nil
	}
	var reply struct {
		Selected []int `json:"selected"`
	}
	data := map[string]any{"Question": ans.Question, "K": k, "Items": number(items)}
	if err := a.call(ctx, ans, StepRerank, "rerank.tmpl", data, &reply); err != nil {
		return err
	}
	var kept []retrieve.Item
	seen := map[int]bool{}
	for _, n := range reply.Selected {
		if n >= 1 && n <= len(items) && !seen[n] && len(kept) < k {
			seen[n] = true
			kept = append(kept, items[n-1])
		}
	}
	if len(kept) > 0 {
		ans.Items = kept
	} else {
		ans.Items = items[:k]
	}
	return nil
}

// generate writes the answer with the model from the reranked evidence.
func (a *Answerer) generate(ctx context.Context, ans *Answer, opts Options) error {
	if err := a.rerank(ctx, ans, opts.TopK); err != nil {
		return err
	}
	items := number(ans.Items)
	var reply struct {
		Answer    string `json:"answer"`
		Citations []int  `json:"citations"`
		Unable    bool   `json:"unable"`
		Own       bool   `json:"own_knowledge"`
	}
	data := map[string]any{"Question": ans.Question, "Mode": opts.Mode, "Items": items}
	if err := a.callStream(ctx, ans, StepAnswer, "answer.tmpl", data, &reply, opts.Stream); err != nil {
		return err
	}
	ans.Method = "llm"
	ans.Own = opts.Mode == ModeOpen && reply.Own
	// In reject mode an answer must rest on evidence: no citation, no answer.
	evs := citedEvidence(items, reply.Citations)
	if reply.Unable || strings.TrimSpace(reply.Answer) == "" || opts.Mode == ModeReject && len(evs) == 0 {
		ans.Answer, ans.Answered = unable(ans.Analysis.Lang), false
		ans.Citations = cite()
		return nil
	}
	ans.Answer, ans.Answered = strings.TrimSpace(reply.Answer), true
	ans.Citations = cite(evs...)
	return nil
}

// citedEvidence maps the numbers a model cited to the items' sentences.
func citedEvidence(items []numbered, ns []int) []*kg.Evidence {
	var out []*kg.Evidence
	for _, n := range ns {
		if n >= 1 && n <= len(items) && items[n-1].item.Citation != nil {
			out = append(out, items[n-1].item.Citation)
		}
	}
	return out
}

// plausibility has the model rate each option against the evidence for the
// question alone; ratings are normalised to shares like the offline ones.
// priorLLM has the model rate the options from the question alone.
func (a *Answerer) priorLLM(ctx context.Context, question string, opts Options) ([]float64, error) {
	var reply struct {
		Scores map[string]float64 `json:"scores"`
	}
	ans := &Answer{Question: question}
	data := map[string]any{"Question": question, "Mode": opts.Mode, "Final": false, "Prior": true,
		"Options": opts.Choices, "Items": nil}
	if err := a.call(ctx, ans, StepAnswer, "options.tmpl", data, &reply); err != nil {
		return nil, err
	}
	out := make([]float64, len(opts.Choices))
	for i, o := range opts.Choices {
		out[i] = reply.Scores[o.Letter]
	}
	return out, nil
}

func (a *Answerer) plausibility(ctx context.Context, ans *Answer, scores []OptionScore, opts Options) error {
	if err := a.rerank(ctx, ans, opts.TopK); err != nil {
		return err
	}
	var reply struct {
		Scores map[string]float64 `json:"scores"`
	}
	data := map[string]any{"Question": ans.Question, "Mode": opts.Mode, "Final": false, "Prior": false,
		"Options": optionsOf(scores), "Items": number(ans.Items)}
	if err := a.call(ctx, ans, StepAnswer, "options.tmpl", data, &reply); err != nil {
		return err
	}
	total := 0.0
	for i := range scores {
		v := reply.Scores[scores[i].Letter]
		if v < 0 {
			v = 0
		}
		scores[i].Plausibility = v
		total += v
	}
	for i := range scores {
		if total > 0 {
			scores[i].Plausibility /= total
		} else {
			scores[i].Plausibility = 1 / float64(len(scores))
		}
	}
	return nil
}

// pick has the model choose among the surviving options, from the
// evidence for the question and for each option.
func (a *Answerer) pick(ctx context.Context, ans *Answer, opts Options) error {
	var kept []OptionScore
	items := append([]retrieve.Item(nil), ans.Items...)
	for _, s := range ans.Options {
		if !s.Kept {
			continue
		}
		kept = append(kept, s)
		if s.Evidence != nil {
			items = append(items, retrieve.Item{Key: "o" + s.Letter, Kind: retrieve.KindChunk, Text: s.Evidence.Norm, Citation: s.Evidence})
		}
	}
	nums := number(items)
	var reply struct {
		Choice    string `json:"choice"`
		Citations []int  `json:"citations"`
		Unable    bool   `json:"unable"`
		Own       bool   `json:"own_knowledge"`
	}
	data := map[string]any{"Question": ans.Question, "Mode": opts.Mode, "Final": true, "Prior": false, "Options": optionsOf(kept), "Items": nums}
	if err := a.call(ctx, ans, StepAnswer, "options.tmpl", data, &reply); err != nil {
		return err
	}
	choice := strings.ToUpper(strings.TrimSpace(reply.Choice))
	var chosen *OptionScore
	for i := range kept {
		if kept[i].Letter == choice {
			chosen = &kept[i]
		}
	}
	evs := citedEvidence(nums, reply.Citations)
	if reply.Unable || chosen == nil || opts.Mode == ModeReject && len(evs) == 0 {
		ans.Answer, ans.Answered = unable(ans.Analysis.Lang), false
		ans.Citations = cite()
		return nil
	}
	ans.Choice, ans.Answered, ans.Own = chosen.Letter, true, opts.Mode == ModeOpen && reply.Own
	ans.Answer = chosen.Letter + ". " + chosen.Text
	ans.Citations = cite(evs...)
	return nil
}

func optionsOf(scores []OptionScore) []Option {
	out := make([]Option, len(scores))
	for i, s := range scores {
		out[i] = s.Option
	}
	return out
}
