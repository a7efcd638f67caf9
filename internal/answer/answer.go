// Package answer answers questions from what retrieval found: offline, an
// extractive answer (the best-supported fact or sentence, phrased by a
// template for typed questions); with an LLM, a reranked selection of the
// evidence and a generated answer in reject mode (only from the evidence,
// else "unable to answer") or open mode (the model's own knowledge
// allowed, marked as such). It also chooses among the options of
// multiple-choice questions and decomposes multi-hop questions.
package answer

import (
	"context"
	"errors"
	"fmt"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/retrieve"
	"github.com/annals-project/annals/internal/text"
)

// Modes of answering.
const (
	ModeReject = "reject" // only from the evidence; otherwise say so
	ModeOpen   = "open"   // the model may add what it knows, marked
)

// Defaults.
const (
	DefaultTopK     = 15   // evidence items an LLM reads
	DefaultTheta    = 0.15 // options less plausible than this are dropped
	DefaultMaxSteps = 4    // agent reasoning rounds
)

// Option is one choice of a multiple-choice question.
type Option struct {
	Letter string `json:"letter"`
	Text   string `json:"text"`
}

// Options tune answering.
type Options struct {
	Mode     string   // ModeReject (default) or ModeOpen
	TopK     int      // items kept for the answer; 0 means DefaultTopK
	Choices  []Option // a multiple-choice question's options
	Theta    float64  // candidate filter; 0 means DefaultTheta, negative keeps all
	Agent    bool     // decompose and reflect
	MaxSteps int      // agent rounds; 0 means DefaultMaxSteps
	Delta    int      // ± years of the temporal window; negative means 1
	Limit    int      // items retrieval returns; 0 means 30
	// EntitySim is δ of the entity-vector route (retrieve.Options);
	// NoDFS turns the dfs route off, TripleVector the triple-vector
	// route on.
	EntitySim           float64
	NoDFS, TripleVector bool
	// Stream, when set, is told the answer's text as a model writes it;
	// the Answer returned is what counts (it may say "unable to answer"
	// after all, when the model cites nothing in reject mode).
	Stream func(string)
}

// Citation is a numbered source of an answer.
type Citation struct {
	N int `json:"n"`
	kg.Evidence
}

// OptionScore is how an option of a multiple-choice question fared.
type OptionScore struct {
	Option
	Prior        float64      `json:"prior"`        // its share, rated from the question alone
	Plausibility float64      `json:"plausibility"` // its share of the first-pass support
	Score        float64      `json:"score"`        // support after retrieval for it
	Kept         bool         `json:"kept"`         // survived candidate filtering
	Evidence     *kg.Evidence `json:"evidence,omitempty"`
}

// Step is one round of the agent's work.
type Step struct {
	N        int      `json:"n"`
	Question string   `json:"question"`          // the sub-question asked
	Level    string   `json:"level,omitempty"`   // the level it was routed to: node, triple or community
	Answer   string   `json:"answer"`            // what it found
	Bridge   string   `json:"bridge,omitempty"`  // the entity carried to the next step
	Items    []string `json:"items,omitempty"`   // keys of what it retrieved
	Thought  string   `json:"thought,omitempty"` // why it went on or stopped
}

// Answer is a question's answer with its evidence.
type Answer struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
	Mode     string `json:"mode"`
	Answered bool   `json:"answered"` // false: unable to answer
	// Confidence is how well the evidence supports the answer, 0 to 1:
	// agreeing statements, the person's own chapter, a formula that says
	// so. An answer that is not Answered has 0.
	Confidence float64            `json:"confidence"`
	Method     string             `json:"method"`           // how it was found: fact, sentence, choice, llm …
	Own        bool               `json:"own_knowledge"`    // open mode: the model added its own knowledge
	Choice     string             `json:"choice,omitempty"` // the letter chosen
	Options    []OptionScore      `json:"options,omitempty"`
	Citations  []Citation         `json:"citations"`
	Items      []retrieve.Item    `json:"items"`
	Analysis   *retrieve.Analysis `json:"analysis"`
	Trace      []Step             `json:"trace,omitempty"`
	// List and Global are set for a whole-corpus question: the names
	// answered, and what the global search found.
	List     []ListEntry            `json:"list,omitempty"`
	Global   *retrieve.GlobalResult `json:"global,omitempty"`
	Inactive map[string]string      `json:"inactive_routes,omitempty"`
	Usage    llm.Usage              `json:"usage"`
}

// Answerer answers over one workspace.
type Answerer struct {
	R   *retrieve.Retriever
	T2S bool
	// LLM, when set, reranks evidence and writes answers; nil answers
	// offline.
	LLM       llm.Client
	PromptDir string // overrides of the built-in prompts
	// Reader, when set, is the offline extractor that reads a sentence
	// again with the question's subject given as a name, where the index
	// did not recognise it.
	Reader extract.Extractor
}

// Ask answers a question.
func (a *Answerer) Ask(ctx context.Context, question string, opts Options) (*Answer, error) {
	if question == "" {
		return nil, errors.New("ask: the question is empty")
	}
	if opts.Mode == "" {
		opts.Mode = ModeReject
	}
	if opts.Mode != ModeReject && opts.Mode != ModeOpen {
		return nil, fmt.Errorf("ask: unknown mode %q: want reject or open", opts.Mode)
	}
	if opts.TopK <= 0 {
		opts.TopK = DefaultTopK
	}
	if opts.Theta == 0 {
		opts.Theta = DefaultTheta
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	switch {
	case len(opts.Choices) > 0:
		return a.choose(ctx, question, opts)
	case opts.Agent:
		return a.agent(ctx, question, opts)
	}
	res, err := a.R.Retrieve(ctx, question, a.retrieveOptions(opts, nil))
	if err != nil {
		return nil, err
	}
	return a.answerFrom(ctx, res, opts)
}

func (a *Answerer) retrieveOptions(opts Options, extra []string) retrieve.Options {
	return retrieve.Options{Limit: opts.Limit, Delta: opts.Delta, T2S: a.T2S, Extra: extra,
		EntitySim: opts.EntitySim, NoDFS: opts.NoDFS, TripleVector: opts.TripleVector}
}

// answerFrom answers from one retrieval's items.
func (a *Answerer) answerFrom(ctx context.Context, res *retrieve.Result, opts Options) (*Answer, error) {
	ans := &Answer{Question: res.Analysis.Question, Mode: opts.Mode, Analysis: res.Analysis, Items: res.Items, Inactive: res.Inactive}
	if a.LLM != nil {
		if ans.Analysis.Global != nil {
			if ok, err := a.globalLLM(ctx, ans, opts); err != nil || ok {
				return ans, err
			}
		}
		if err := a.generate(ctx, ans, opts); err != nil {
			return nil, err
		}
		return ans, nil
	}
	if ans.Analysis.Global != nil {
		if ok, err := a.global(ctx, ans); err != nil || ok {
			return ans, err
		}
	}
	if err := offline(ctx, a.R.Src, a.Reader, ans); err != nil {
		return nil, err
	}
	return ans, nil
}

// unable says, in the question's language, that the texts do not answer it.
func unable(lang string) string {
	switch {
	case text.IsChinese(lang) || lang == text.Unknown:
		return "无法回答：所索引的文献中找不到足以回答此问题的证据。"
	case lang == text.Vietnamese:
		return "Không thể trả lời: các văn bản đã lập chỉ mục không có bằng chứng đủ để trả lời câu hỏi này."
	}
	return "Unable to answer: the indexed texts hold no evidence that answers this question."
}

// cite numbers citations in order, one per distinct sentence.
func cite(evs ...*kg.Evidence) []Citation {
	var out []Citation
	seen := map[[2]int64]bool{}
	for _, ev := range evs {
		if ev == nil {
			continue
		}
		k := [2]int64{ev.DocID, int64(ev.Start)}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, Citation{N: len(out) + 1, Evidence: *ev})
	}
	if out == nil {
		out = []Citation{}
	}
	return out
}
