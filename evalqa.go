package annals

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/annals-project/annals/internal/answer"
	"github.com/annals-project/annals/internal/eval/qa"
	"github.com/annals-project/annals/internal/retrieve"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// QAQuestion is one question of an evaluation set.
type QAQuestion = qa.Question

// QAReport is the outcome of a question-answering evaluation.
type QAReport = qa.Report

// QAEvalOptions tune EvaluateQA.
type QAEvalOptions struct {
	Ask     AskOptions
	Workers int // questions answered at once; 0 means 4
	// Judge has the configured LLM grade each free answer against the
	// gold as well (an error when none is configured).
	Judge bool
	// LLMOnly answers with the configured LLM alone, reading nothing: the
	// zero-shot baseline (an error when none is configured).
	LLMOnly bool
}

// EvaluateQA answers every question over the workspace and scores the
// answers: accuracy for multiple choice, answer-contains, exact match and
// token F1 for free answers, per question type.
func (w *Workspace) EvaluateQA(ctx context.Context, qs []QAQuestion, opts QAEvalOptions) (*QAReport, error) {
	if opts.Workers <= 0 {
		opts.Workers = 4
	}
	judge, err := w.judge(opts)
	if err != nil {
		return nil, err
	}
	predict := func(ctx context.Context, q qa.Question) (qa.Prediction, error) { return w.predict(ctx, q, opts.Ask) }
	var zero *llmRun
	if opts.LLMOnly {
		if zero, err = w.optionalLLM(true, false, opts.Ask.MaxTokens, opts.Ask.Waiting); err != nil {
			return nil, fmt.Errorf("answer with the LLM alone: %w", err)
		}
		promptDir := filepath.Join(w.Dir, "prompts")
		predict = func(ctx context.Context, q qa.Question) (qa.Prediction, error) {
			return zeroShot(ctx, zero, promptDir, q)
		}
	}
	rep, err := qa.Run(ctx, qs, func(ctx context.Context, q qa.Question) (qa.Prediction, error) {
		pred, err := predict(ctx, q)
		if err != nil {
			return pred, err
		}
		return pred, judge.grade(ctx, q, &pred)
	}, opts.Workers)
	if zero != nil {
		_, ferr := w.finish(ctx, zero, "eval qa")
		err = errors.Join(err, ferr)
	}
	return rep, errors.Join(err, judge.finish(ctx, w))
}

// zeroShot answers one question with the LLM alone.
func zeroShot(ctx context.Context, run *llmRun, promptDir string, q qa.Question) (qa.Prediction, error) {
	options := make([]answer.Option, len(q.Options))
	for i, o := range q.Options {
		options[i] = answer.Option{Letter: o.Letter, Text: o.Text}
	}
	a, usage, err := answer.ZeroShot(ctx, run.client, promptDir, q.Question, options)
	if err != nil {
		return qa.Prediction{}, err
	}
	return qa.Prediction{Answer: a.Answer, Choice: a.Choice, Abstained: !a.Known && a.Choice == "",
		Tokens: usage.PromptTokens + usage.CompletionTokens, Method: "llm-only"}, nil
}

// qaJudge grades free answers with an LLM; nil grades none.
type qaJudge struct {
	run       *llmRun
	promptDir string
}

func (w *Workspace) judge(opts QAEvalOptions) (*qaJudge, error) {
	if !opts.Judge {
		return nil, nil
	}
	run, err := w.optionalLLM(true, false, opts.Ask.MaxTokens, opts.Ask.Waiting)
	if err != nil {
		return nil, fmt.Errorf("judge the answers with an LLM: %w", err)
	}
	return &qaJudge{run: run, promptDir: filepath.Join(w.Dir, "prompts")}, nil
}

// grade sets pred's verdict and adds the judge's tokens to its cost;
// multiple-choice and list questions are scored without it.
func (j *qaJudge) grade(ctx context.Context, q qa.Question, pred *qa.Prediction) error {
	if j == nil || q.MultipleChoice() || len(q.Expected) > 0 {
		return nil
	}
	ok := false
	if !pred.Abstained {
		v, usage, err := answer.Judge(ctx, j.run.client, j.promptDir, q.Question, pred.Answer, q.Answer, q.Aliases)
		if err != nil {
			return err
		}
		ok = v.Correct
		pred.Tokens += usage.PromptTokens + usage.CompletionTokens
	}
	pred.Judged = &ok
	return nil
}

// finish records the judge's LLM usage.
func (j *qaJudge) finish(ctx context.Context, w *Workspace) error {
	if j == nil {
		return nil
	}
	_, err := w.finish(ctx, j.run, "eval qa")
	return err
}

// predict asks one question of an evaluation set.
func (w *Workspace) predict(ctx context.Context, q qa.Question, ao AskOptions) (qa.Prediction, error) {
	var options []AnswerOption
	for _, o := range q.Options {
		options = append(options, AnswerOption{Letter: o.Letter, Text: o.Text})
	}
	ao.Options = options
	ans, err := w.Ask(ctx, q.Question, ao)
	if err != nil {
		return qa.Prediction{}, err
	}
	pred := qa.Prediction{Answer: ans.Answer, Choice: ans.Choice, Abstained: !ans.Answered, Confidence: ans.Confidence,
		Tokens: ans.Usage.PromptTokens + ans.Usage.CompletionTokens, Docs: evidenceDocs(ans.Items, ao.TopK), Method: ans.Method}
	for _, e := range ans.List {
		pred.Names = append(pred.Names, e.Name)
	}
	return pred, nil
}

// evidenceDocs are the documents the first topK items cite, best first,
// named as the passages they were written from (WritePassages): the
// passages retrieval handed to the answer.
func evidenceDocs(items []retrieve.Item, topK int) []string {
	if topK <= 0 {
		topK = answer.DefaultTopK
	}
	var out []string
	for _, it := range items[:min(len(items), topK)] {
		if it.Citation == nil {
			continue
		}
		k := strings.TrimSuffix(it.Citation.DocKey, ".txt")
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// EvaluateQAAnonymized scores the questions again over a copy of the
// workspace's corpus whose person names are replaced by pseudonyms
// (Youtu-GraphRAG, Appendix B), indexed into dir: each question is asked
// with its names hidden, and its answer scored with them revealed. The
// copy is indexed with the workspace's settings; its alias imports are not
// carried over, since they would give the names away.
func (w *Workspace) EvaluateQAAnonymized(ctx context.Context, qs []QAQuestion, opts QAEvalOptions, dir string) (*QAReport, error) {
	if opts.Workers <= 0 {
		opts.Workers = 4
	}
	anon, p, err := w.anonymized(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer anon.Close()
	judge, err := w.judge(opts)
	if err != nil {
		return nil, err
	}
	rep, err := qa.Run(ctx, qs, func(ctx context.Context, q qa.Question) (qa.Prediction, error) {
		pred, err := anon.predict(ctx, p.HideQuestion(q), opts.Ask)
		if err != nil {
			return pred, err
		}
		pred.Answer = p.Reveal(pred.Answer)
		for i := range pred.Names {
			pred.Names[i] = p.Reveal(pred.Names[i])
		}
		for i := range pred.Docs {
			pred.Docs[i] = p.Reveal(pred.Docs[i])
		}
		return pred, judge.grade(ctx, q, &pred)
	}, opts.Workers)
	return rep, errors.Join(err, judge.finish(ctx, w))
}

// anonymized writes the corpus with its person names hidden under
// dir/corpus, by the documents' keys (names in them hidden too), and
// indexes it into dir/.annals.
func (w *Workspace) anonymized(ctx context.Context, dir string) (*Workspace, *qa.Pseudonyms, error) {
	names, err := w.db.PersonNames(ctx)
	if err != nil {
		return nil, nil, err
	}
	docs, err := w.db.Documents(ctx)
	if err != nil {
		return nil, nil, err
	}
	texts := make([]string, len(docs))
	for i, d := range docs {
		full, err := w.db.Document(ctx, d.Key)
		if err != nil {
			return nil, nil, fmt.Errorf("read %s: %w", d.Key, err)
		}
		texts[i] = full.Text
	}
	bigrams, words := qa.CorpusGrams(texts)
	p := qa.NewPseudonyms(names, bigrams, words)
	root := filepath.Join(dir, "corpus")
	for i, d := range docs {
		// Chapter titles hold names too (诸葛亮传): hidden like the text,
		// so that a chapter still names its own subject.
		path := filepath.Join(root, filepath.FromSlash(p.Hide(d.Key)))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, nil, err
		}
		if err := os.WriteFile(path, []byte(p.Hide(texts[i])), 0o644); err != nil {
			return nil, nil, fmt.Errorf("write the anonymised corpus: %w", err)
		}
	}
	wsDir := filepath.Join(dir, ".annals")
	if err := os.MkdirAll(wsDir, 0o755); err != nil {
		return nil, nil, err
	}
	if cfg, err := os.ReadFile(filepath.Join(w.Dir, "annals.yaml")); err == nil {
		if err := os.WriteFile(filepath.Join(wsDir, "annals.yaml"), cfg, 0o644); err != nil {
			return nil, nil, err
		}
	}
	anon, err := Open(ctx, wsDir)
	if err != nil {
		return nil, nil, err
	}
	if _, err := anon.Index(ctx, []string{root}, IndexOptions{}); err != nil {
		anon.Close()
		return nil, nil, fmt.Errorf("index the anonymised corpus: %w", err)
	}
	return anon, p, nil
}

// EvaluateQABaseline scores the baseline that reads each question's gold
// context, with no retrieval: the option the context supports best, or the
// sentence of it that holds most of the question.
func EvaluateQABaseline(ctx context.Context, qs []QAQuestion, t2s bool) (*QAReport, error) {
	return qa.Run(ctx, qs, func(ctx context.Context, q qa.Question) (qa.Prediction, error) {
		options := make([]answer.Option, len(q.Options))
		for i, o := range q.Options {
			options[i] = answer.Option{Letter: o.Letter, Text: o.Text}
		}
		choice, sentence := answer.FromPassages(q.Question, options, goldPassages(q, t2s))
		return qa.Prediction{Answer: sentence, Choice: choice, Abstained: choice == "" && sentence == ""}, nil
	}, 4)
}

// goldPassages turns a question's context into passages to read.
func goldPassages(q qa.Question, t2s bool) []store.Passage {
	out := make([]store.Passage, 0, len(q.Context))
	for _, c := range q.Context {
		body := c.Text
		if c.Title != "" {
			body = c.Title + "\n" + body
		}
		norm := body
		lang := text.DetectLanguage(body)
		if t2s && text.IsChinese(lang) {
			norm, _ = text.ToSimplified(body)
		}
		out = append(out, store.Passage{DocKey: c.Key, Lang: lang, Text: body, Norm: norm, End: len([]rune(body))})
	}
	return out
}

// WritePassages writes passages as text files under dir (each titled by
// its first line), ready to be indexed as a corpus.
func WritePassages(dir string, ps []qa.Passage) error {
	for _, p := range ps {
		path := filepath.Join(dir, filepath.FromSlash(p.Key)+".txt")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		body := p.Text
		if p.Title != "" {
			body = p.Title + "\n" + body
		}
		if err := os.WriteFile(path, []byte(body+"\n"), 0o644); err != nil {
			return fmt.Errorf("write passage %s: %w", p.Key, err)
		}
	}
	return nil
}
