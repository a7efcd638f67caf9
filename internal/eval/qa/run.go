package qa

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Prediction is an answerer's answer to one question.
type Prediction struct {
	// Answer is the answer text (for multiple choice, whatever the
	// answerer said besides the letter).
	Answer string `json:"answer"`
	// Choice is the chosen letter for multiple choice, "" when none.
	Choice string `json:"choice,omitempty"`
	// Abstained says the answerer declined to answer; it scores as wrong.
	Abstained bool `json:"abstained,omitempty"`
	// Confidence is how sure the answerer is, 0 to 1 (0 when it does
	// not say).
	Confidence float64 `json:"confidence"`
	// Names are the names of a list answer, best first; nil when the
	// answer is no list (its text is then split on 、 and commas).
	Names []string `json:"names,omitempty"`
	// Docs are the corpus passages (by key) the evidence given to the
	// answer came from, best first: what retrieval recall is scored on.
	Docs []string `json:"docs,omitempty"`
	// Tokens are the LLM tokens the answer cost (prompt and completion).
	Tokens int `json:"tokens,omitempty"`
	// Method is how the answer was found (fact, sentence, llm …), "" when
	// the answerer does not say: the report gives figures per method.
	Method string `json:"method,omitempty"`
	// Judged is an LLM judge's verdict on a free answer against the gold;
	// nil when none judged it.
	Judged *bool `json:"judged,omitempty"`
}

// Figures of a short answer.
const (
	// ShortAnswer is the longest answer, in characters, that counts as
	// short: an answer, not a pasted passage.
	ShortAnswer = 40
	// Confident is the confidence from which a wrong answer counts as
	// confidently wrong.
	Confident = 0.5
)

// Answerer answers one question. Run calls it from several goroutines at
// once.
type Answerer func(ctx context.Context, q Question) (Prediction, error)

// Result is one question's outcome. Correct is set for multiple choice;
// Contains, F1 and EM for free answers.
type Result struct {
	ID        string `json:"id"`
	Question  string `json:"question"`
	Type      string `json:"type,omitempty"`
	Gold      string `json:"gold"`
	Predicted string `json:"predicted"`
	Choice    string `json:"choice,omitempty"`
	Abstained bool   `json:"abstained,omitempty"`
	Correct   bool   `json:"correct"`
	Contains  bool   `json:"contains"`
	// Short is Contains for an answer of at most ShortAnswer characters.
	Short bool `json:"short"`
	// Confidence is the answerer's; ConfidentlyWrong marks a free answer given with at least Confident
	// that is not Short.
	Confidence       float64 `json:"confidence"`
	ConfidentlyWrong bool    `json:"confidently_wrong,omitempty"`
	F1               float64 `json:"f1"`
	EM               float64 `json:"em"`
	// Names is NameRecall for a question with expected names, and
	// Listed the names it scored.
	Names  *float64 `json:"names,omitempty"`
	Listed []string `json:"listed,omitempty"`
	// Recall is Recall of the question's supporting passages among the
	// passages retrieved, for a question whose data set names them.
	Recall *float64 `json:"recall,omitempty"`
	// Docs are the passages retrieved for the answer (Prediction.Docs).
	Docs []string `json:"docs,omitempty"`
	// Millis is how long the answer took, Tokens what it cost in LLM
	// tokens, Judged an LLM judge's verdict.
	Millis float64 `json:"ms"`
	Tokens int     `json:"tokens,omitempty"`
	Method string  `json:"method,omitempty"`
	Judged *bool   `json:"judged,omitempty"`
	Error  string  `json:"error,omitempty"`
	// MultipleChoice says which figures apply: Correct, or Contains, F1
	// and EM.
	MultipleChoice bool `json:"multiple_choice"`
}

// Summary holds the figures over a set of questions. Accuracy is over the
// multiple-choice ones; Contains, Short, ConfidentlyWrong, F1 and EM are
// shares or means over the others (N − MultipleChoice). Abstentions and
// errors count as wrong.
type Summary struct {
	N                int     `json:"n"`
	MultipleChoice   int     `json:"multiple_choice"`
	Accuracy         float64 `json:"accuracy"`
	Contains         float64 `json:"contains"`
	Short            float64 `json:"short"`
	ConfidentlyWrong float64 `json:"confidently_wrong"`
	F1               float64 `json:"f1"`
	EM               float64 `json:"em"`
	// Lists counts the questions with expected names, and Names is their
	// mean NameRecall.
	Lists int     `json:"lists,omitempty"`
	Names float64 `json:"names,omitempty"`
	// Recalled counts the questions with supporting passages, and Recall
	// is their mean Result.Recall.
	Recalled int     `json:"recalled,omitempty"`
	Recall   float64 `json:"recall,omitempty"`
	// Judged counts the free answers an LLM judged, and JudgedRight the
	// share it found right.
	Judged      int     `json:"judged,omitempty"`
	JudgedRight float64 `json:"judged_right,omitempty"`
	// Millis and Tokens are means per question.
	Millis    float64 `json:"ms"`
	Tokens    float64 `json:"tokens"`
	Abstained int     `json:"abstained"`
	Errors    int     `json:"errors"`
}

// Report is the outcome of Run: the overall figures (as in Summary), the
// same per question type, and every question's result in input order.
type Report struct {
	Summary
	// ByType is keyed by Question.Type; it is empty when no question has
	// a type, and holds "" for the untyped ones when some have.
	ByType map[string]*Summary `json:"by_type,omitempty"`
	// ByMethod is keyed by Result.Method, when the answerer names its
	// methods: what each way of answering gets right, and costs in time
	// and tokens.
	ByMethod map[string]*Summary `json:"by_method,omitempty"`
	Results  []Result            `json:"results"`
}

// Run answers every question with answer, workers at a time (at least
// one), and scores the answers. An answerer's error is recorded on its
// question, which counts as wrong; cancelling ctx stops the run and
// returns ctx.Err().
func Run(ctx context.Context, qs []Question, answer Answerer, workers int) (*Report, error) {
	if answer == nil {
		return nil, errors.New("qa run: no answerer")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	results := make([]Result, len(qs))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(workers, len(qs))) {
		wg.Go(func() {
			for i := range jobs {
				if ctx.Err() != nil {
					continue
				}
				start := time.Now()
				pred, err := answer(ctx, qs[i])
				results[i] = score(qs[i], pred, err)
				results[i].Millis = float64(time.Since(start).Microseconds()) / 1000
			}
		})
	}
feed:
	for i := range qs {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return report(results), nil
}

// score judges one prediction; an error or an abstention scores zero.
func score(q Question, pred Prediction, err error) Result {
	r := Result{ID: q.ID, Question: q.Question, Type: q.Type, Gold: q.Answer, MultipleChoice: q.MultipleChoice()}
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.Predicted, r.Abstained, r.Confidence = pred.Answer, pred.Abstained, pred.Confidence
	r.Tokens, r.Judged, r.Docs, r.Method = pred.Tokens, pred.Judged, pred.Docs, pred.Method
	if len(q.Supporting) > 0 {
		// Retrieval is scored whether or not an answer came of it.
		x := Recall(pred.Docs, q.Supporting)
		r.Recall = &x
	}
	if l, ok := letterOf(pred.Choice); ok {
		r.Choice = l
	} else {
		r.Choice = strings.TrimSpace(pred.Choice)
	}
	if len(q.Expected) > 0 {
		zero := 0.0
		r.Names = &zero
	}
	if r.Abstained {
		return r
	}
	if len(q.Expected) > 0 {
		r.Listed = pred.Names
		if r.Listed == nil {
			r.Listed = splitList(pred.Answer)
		}
		x := NameRecall(r.Listed, q.Expected)
		r.Names = &x
	}
	if r.MultipleChoice {
		r.Correct = r.Choice != "" && r.Choice == q.Answer
		return r
	}
	golds := append([]string{q.Answer}, q.Aliases...)
	r.Contains = Contains(pred.Answer, golds...)
	r.Short = r.Contains && utf8.RuneCountInString(strings.TrimSpace(pred.Answer)) <= ShortAnswer
	// A list is judged by its names, not by holding the gold text.
	r.ConfidentlyWrong = !r.Short && r.Confidence >= Confident && len(q.Expected) == 0
	r.F1 = F1(pred.Answer, golds...)
	if ExactMatch(pred.Answer, golds...) {
		r.EM = 1
	}
	return r
}

// tally sums results before the means are taken.
type tally struct {
	s                 Summary
	correct, contains int
	short             int
	confidentlyWrong  int
	f1, em            float64
	names             float64
	recall            float64
	judgedRight       int
	millis, tokens    float64
}

func (t *tally) add(r Result) {
	t.s.N++
	if r.Abstained {
		t.s.Abstained++
	}
	if r.Error != "" {
		t.s.Errors++
	}
	if r.Names != nil {
		t.s.Lists++
		t.names += *r.Names
	}
	if r.Recall != nil {
		t.s.Recalled++
		t.recall += *r.Recall
	}
	if r.Judged != nil {
		t.s.Judged++
		if *r.Judged {
			t.judgedRight++
		}
	}
	t.millis += r.Millis
	t.tokens += float64(r.Tokens)
	if r.MultipleChoice {
		t.s.MultipleChoice++
		if r.Correct {
			t.correct++
		}
		return
	}
	if r.Contains {
		t.contains++
	}
	if r.Short {
		t.short++
	}
	if r.ConfidentlyWrong {
		t.confidentlyWrong++
	}
	t.f1 += r.F1
	t.em += r.EM
}

func (t *tally) summary() Summary {
	s := t.s
	if s.MultipleChoice > 0 {
		s.Accuracy = float64(t.correct) / float64(s.MultipleChoice)
	}
	if free := s.N - s.MultipleChoice; free > 0 {
		s.Contains = float64(t.contains) / float64(free)
		s.Short = float64(t.short) / float64(free)
		s.ConfidentlyWrong = float64(t.confidentlyWrong) / float64(free)
		s.F1 = t.f1 / float64(free)
		s.EM = t.em / float64(free)
	}
	if s.Lists > 0 {
		s.Names = t.names / float64(s.Lists)
	}
	if s.Recalled > 0 {
		s.Recall = t.recall / float64(s.Recalled)
	}
	if s.Judged > 0 {
		s.JudgedRight = float64(t.judgedRight) / float64(s.Judged)
	}
	if s.N > 0 {
		s.Millis, s.Tokens = t.millis/float64(s.N), t.tokens/float64(s.N)
	}
	return s
}

func report(results []Result) *Report {
	var all tally
	for _, r := range results {
		all.add(r)
	}
	return &Report{Summary: all.summary(), Results: results,
		ByType:   summariesBy(results, func(r Result) string { return r.Type }),
		ByMethod: summariesBy(results, func(r Result) string { return r.Method })}
}

// summariesBy sums the results by a key; nil when no result has one.
func summariesBy(results []Result, key func(Result) string) map[string]*Summary {
	by := map[string]*tally{}
	for _, r := range results {
		t := by[key(r)]
		if t == nil {
			t = &tally{}
			by[key(r)] = t
		}
		t.add(r)
	}
	if _, none := by[""]; len(by) == 0 || len(by) == 1 && none {
		return nil
	}
	out := make(map[string]*Summary, len(by))
	for k, t := range by {
		ts := t.summary()
		out[k] = &ts
	}
	return out
}

// listSeparators split a list answer written out: 周瑜、鲁肃, Zhou Yu, Lu Su.
var listSeparators = regexp.MustCompile(`[、，,；;：:。.\s]+|\[\d+\]`)

// splitList reads the names of a list answer given as text.
func splitList(answer string) []string {
	var out []string
	for _, s := range listSeparators.Split(answer, -1) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
