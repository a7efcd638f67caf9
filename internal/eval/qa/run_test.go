package qa

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// runQuestions mixes multiple choice and free answers over two types and
// one untyped question.
func runQuestions() []Question {
	abcd := []Option{{"A", "Hoa Lư"}, {"B", "Thăng Long"}, {"C", "Cổ Loa"}, {"D", "Phú Xuân"}}
	return []Question{
		{ID: "m1", Question: "Kinh đô thời Lý?", Options: abcd, Answer: "B", Type: "place"},
		{ID: "m2", Question: "Kinh đô thời Ngô?", Options: abcd, Answer: "C", Type: "place"},
		{ID: "m3", Question: "Kinh đô thời Đinh?", Options: abcd, Answer: "A", Type: "place"},
		{ID: "f1", Question: "Who wrote the Shiji?", Answer: "Sima Qian", Aliases: []string{"司马迁"}, Type: "person"},
		{ID: "f2", Question: "Who led the 1288 battle?", Answer: "Trần Hưng Đạo", Type: "person"},
		{ID: "f3", Question: "Capital of the Song in 1100?", Answer: "Kaifeng"},
		{ID: "f4", Question: "Year Constantinople fell?", Answer: "1453", Type: "person"},
	}
}

// fakeAnswers are keyed by question ID; "error" fails the question.
var fakeAnswers = map[string]Prediction{
	"m1": {Answer: "Thăng Long", Choice: "b"}, // lower case accepted
	"m2": {Choice: "A"},                       // wrong
	"m3": {Abstained: true, Choice: "A"},      // abstained: wrong even with the right letter
	"f1": {Answer: "It was 司马迁."},             // contains an alias
	"f2": {Answer: "Trần Hưng Đạo"},           // exact
	"f3": {Answer: "Bianjing (Kaifeng)"},
}

func fakeAnswerer(delay func(i int) time.Duration) Answerer {
	return func(ctx context.Context, q Question) (Prediction, error) {
		n := int(q.ID[1] - '0')
		time.Sleep(delay(n))
		p, ok := fakeAnswers[q.ID]
		if !ok {
			return Prediction{}, errors.New("model unavailable")
		}
		return p, nil
	}
}

func TestRun(t *testing.T) {
	qs := runQuestions()
	var inFlight, most atomic.Int64
	answer := fakeAnswerer(func(n int) time.Duration { return time.Duration(5-n%5) * time.Millisecond })
	counting := func(ctx context.Context, q Question) (Prediction, error) {
		now := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			m := most.Load()
			if now <= m || most.CompareAndSwap(m, now) {
				break
			}
		}
		return answer(ctx, q)
	}
	rep, err := Run(context.Background(), qs, counting, 3)
	if err != nil {
		t.Fatal(err)
	}
	if most.Load() > 3 {
		t.Errorf("%d answers in flight, want at most 3", most.Load())
	}
	var ids []string
	for _, r := range rep.Results {
		ids = append(ids, r.ID)
	}
	if got := strings.Join(ids, " "); got != "m1 m2 m3 f1 f2 f3 f4" {
		t.Errorf("results in order %s", got)
	}
	r := rep.Results
	switch {
	case !r[0].Correct || r[0].Choice != "B" || r[0].Gold != "B" || !r[0].MultipleChoice:
		t.Errorf("m1 %+v", r[0])
	case r[1].Correct, r[2].Correct || !r[2].Abstained:
		t.Errorf("m2 %+v, m3 %+v", r[1], r[2])
	case !r[3].Contains || r[3].EM != 0:
		t.Errorf("f1 %+v", r[3])
	case !r[4].Contains || r[4].EM != 1 || r[4].F1 != 1:
		t.Errorf("f2 %+v", r[4])
	case !r[5].Contains || math.Abs(r[5].F1-2.0/3) > 1e-9:
		t.Errorf("f3 %+v", r[5])
	case r[6].Error != "model unavailable" || r[6].Contains || r[6].F1 != 0:
		t.Errorf("f4 %+v", r[6])
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	if rep.N != 7 || rep.MultipleChoice != 3 || rep.Abstained != 1 || rep.Errors != 1 {
		t.Errorf("counts %+v", rep)
	}
	near("accuracy", rep.Accuracy, 1.0/3)
	near("contains", rep.Contains, 3.0/4)
	near("EM", rep.EM, 1.0/4)
	f1First := F1("It was 司马迁.", "Sima Qian", "司马迁")
	near("F1", rep.F1, (f1First+1+2.0/3)/4)

	if len(rep.ByType) != 3 {
		t.Fatalf("types %v", rep.ByType)
	}
	place, person, none := rep.ByType["place"], rep.ByType["person"], rep.ByType[""]
	if place.N != 3 || place.MultipleChoice != 3 || place.Abstained != 1 || place.Errors != 0 {
		t.Errorf("place %+v", place)
	}
	near("place accuracy", place.Accuracy, 1.0/3)
	if person.N != 3 || person.MultipleChoice != 0 || person.Errors != 1 {
		t.Errorf("person %+v", person)
	}
	near("person contains", person.Contains, 2.0/3)
	near("person EM", person.EM, 1.0/3)
	if none.N != 1 || none.Contains != 1 {
		t.Errorf("untyped %+v", none)
	}

	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"multiple_choice":3`, `"by_type":`, `"abstained":1`, `"results":[`, `"error":"model unavailable"`} {
		if !bytes.Contains(b, []byte(key)) {
			t.Errorf("JSON lacks %s: %s", key, b)
		}
	}

	var text bytes.Buffer
	if err := rep.Text(&text); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	for _, want := range []string{"7 questions, 3 multiple choice, 4 free answers", "acc%", "F1%", "all", "place", "person", "(no type)", "33.3"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	t.Logf("\n%s", out)
}

func TestRunUntypedAndOneWorker(t *testing.T) {
	qs := runQuestions()
	for i := range qs {
		qs[i].Type = ""
	}
	var inFlight atomic.Int64
	answer := func(ctx context.Context, q Question) (Prediction, error) {
		if inFlight.Add(1) > 1 {
			t.Error("two answers in flight with workers 0")
		}
		defer inFlight.Add(-1)
		return Prediction{Answer: q.Answer, Choice: q.Answer}, nil
	}
	rep, err := Run(context.Background(), qs, answer, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rep.ByType != nil {
		t.Errorf("by type %v without types", rep.ByType)
	}
	if rep.Accuracy != 1 || rep.EM != 1 || rep.F1 != 1 || rep.Contains != 1 {
		t.Errorf("gold answers scored %+v", rep)
	}
	var text bytes.Buffer
	if err := rep.Text(&text); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "no type") {
		t.Errorf("untyped row without types:\n%s", text.String())
	}
}

func TestRunCancel(t *testing.T) {
	qs := runQuestions()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	var calls atomic.Int64
	answer := func(ctx context.Context, q Question) (Prediction, error) {
		if calls.Add(1) == 2 {
			once.Do(cancel)
		}
		<-ctx.Done()
		return Prediction{}, ctx.Err()
	}
	rep, err := Run(ctx, qs, answer, 2)
	if !errors.Is(err, context.Canceled) || rep != nil {
		t.Fatalf("Run = %v, %v; want context.Canceled", rep, err)
	}
	if n := calls.Load(); n > 3 {
		t.Errorf("%d answers asked after cancellation", n)
	}
	if _, err := Run(ctx, qs, answer, 2); !errors.Is(err, context.Canceled) {
		t.Errorf("Run on a cancelled context = %v", err)
	}
	if _, err := Run(context.Background(), qs, nil, 2); err == nil {
		t.Error("Run without an answerer: no error")
	}
}

// A list answer scores the expected names among its first five, over the
// most it could hold; alternates count once.
func TestNameRecall(t *testing.T) {
	exp := []string{"萧何", "张良|留侯", "韩信|淮阴侯", "曹参", "陈平", "周勃"}
	for _, tc := range []struct {
		names []string
		want  float64
	}{
		{[]string{"萧何", "留侯", "韩信", "曹参", "陈平"}, 1},
		{[]string{"张良", "留侯", "项羽"}, 0.2},
		{[]string{"项羽", "刘邦", "章邯", "范增", "英布", "萧何"}, 0}, // the sixth is not scored
		{nil, 0},
	} {
		if got := NameRecall(tc.names, exp); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%v: %v, want %v", tc.names, got, tc.want)
		}
	}
	if got := NameRecall([]string{"孙登", "孙和"}, []string{"孙登", "孙和", "孙亮"}); math.Abs(got-2.0/3) > 1e-9 {
		t.Errorf("three expected: %v, want 2/3", got)
	}
}

// Run scores list questions by their names: the answerer's list, or the
// names its text gives; abstaining scores zero.
func TestRunScoresLists(t *testing.T) {
	qs := []Question{
		{ID: "a", Question: "q1", Answer: "x", Type: "global", Expected: []string{"周瑜", "鲁肃", "吕蒙"}},
		{ID: "b", Question: "q2", Answer: "x", Type: "global", Expected: []string{"周瑜", "鲁肃"}},
		{ID: "c", Question: "q3", Answer: "x", Type: "global", Expected: []string{"周瑜"}},
	}
	rep, err := Run(context.Background(), qs, func(_ context.Context, q Question) (Prediction, error) {
		switch q.ID {
		case "a":
			return Prediction{Answer: "whatever", Names: []string{"周瑜", "曹操", "吕蒙"}}, nil
		case "b":
			return Prediction{Answer: "孙吴的将领有：周瑜[1]、鲁肃[2]。这是前 2 名。"}, nil
		}
		return Prediction{Abstained: true}, nil
	}, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{2.0 / 3, 1, 0}
	for i, r := range rep.Results {
		if r.Names == nil || math.Abs(*r.Names-want[i]) > 1e-9 {
			t.Errorf("%s: names %v, want %v (listed %v)", r.ID, r.Names, want[i], r.Listed)
		}
	}
	if rep.Lists != 3 || math.Abs(rep.Names-(2.0/3+1)/3) > 1e-9 {
		t.Errorf("summary: %d lists, names %v", rep.Lists, rep.Names)
	}
}

// Where the data set marks supporting passages, retrieval is scored on
// the passages the answer's evidence came from, whether or not the answer
// is right; time, tokens and a judge's verdicts are summed per question.
func TestRunScoresRetrievalAndCost(t *testing.T) {
	qs := []Question{
		{ID: "a", Question: "Where was X born?", Answer: "Y", Context: []Passage{
			{Title: "X", Text: "X was born in Y.", Supporting: true},
			{Title: "Z", Text: "Z is elsewhere."},
		}},
		{ID: "b", Question: "Who founded Y?", Answer: "W", Context: []Passage{
			{Title: "Y", Text: "Y was founded by W.", Supporting: true},
			{Title: "X", Text: "X was born in Y.", Supporting: true},
		}},
		{ID: "c", Question: "No support given?", Answer: "Q"},
	}
	corpus := Corpus(qs)
	if n := LinkSupporting(qs, corpus); n != 2 {
		t.Fatalf("%d questions linked to their supporting passages, want 2", n)
	}
	key := func(title string) string {
		for _, p := range corpus {
			if p.Title == title {
				return p.Key
			}
		}
		t.Fatalf("no passage %s in %+v", title, corpus)
		return ""
	}
	if len(qs[1].Supporting) != 2 || qs[1].Supporting[1] != key("X") {
		t.Fatalf("b's supporting passages: %v", qs[1].Supporting)
	}
	yes, no := true, false
	preds := map[string]Prediction{
		"a": {Answer: "Y", Docs: []string{key("Z"), key("X")}, Tokens: 100, Judged: &yes},
		"b": {Answer: "V", Docs: []string{key("Y"), key("Z")}, Tokens: 50, Judged: &no},
		"c": {Abstained: true, Docs: []string{key("X")}},
	}
	rep, err := Run(context.Background(), qs, func(ctx context.Context, q Question) (Prediction, error) {
		time.Sleep(2 * time.Millisecond)
		return preds[q.ID], nil
	}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Results; r[0].Recall == nil || *r[0].Recall != 1 || *r[1].Recall != 0.5 || r[2].Recall != nil {
		t.Fatalf("recall per question: %+v", r)
	}
	if rep.Recalled != 2 || math.Abs(rep.Recall-0.75) > 1e-9 {
		t.Errorf("recall over the questions with support: %d, %.3f; want 2, 0.75", rep.Recalled, rep.Recall)
	}
	if rep.Judged != 2 || rep.JudgedRight != 0.5 {
		t.Errorf("judged %d, right %.2f; want 2, 0.5", rep.Judged, rep.JudgedRight)
	}
	if rep.Tokens != 50 || rep.Millis < 2 || rep.Results[0].Millis < 2 {
		t.Errorf("tokens %.1f a question (want 50), %.2f ms a question (at least 2)", rep.Tokens, rep.Millis)
	}
	var b bytes.Buffer
	if err := rep.Text(&b); err != nil {
		t.Fatal(err)
	}
	for _, col := range []string{"recall@k%", "judge%", "ms/q", "tokens/q", "75.0", "50.0"} {
		if !strings.Contains(b.String(), col) {
			t.Errorf("the report lacks %q:\n%s", col, b.String())
		}
	}
}

func TestRunReportsByMethod(t *testing.T) {
	qs := []Question{
		{ID: "1", Question: "诸葛亮字什么", Answer: "孔明"},
		{ID: "2", Question: "诸葛亮的父亲是谁", Answer: "诸葛珪"},
		{ID: "3", Question: "诸葛亮卒于何处", Answer: "五丈原"},
	}
	answers := map[string]Prediction{
		"1": {Answer: "孔明", Method: "fact", Tokens: 0},
		"2": {Answer: "诸葛玄", Method: "fact"},
		"3": {Answer: "亮卒于军，时年五十四。", Method: "sentence", Tokens: 120},
	}
	rep, err := Run(context.Background(), qs, func(_ context.Context, q Question) (Prediction, error) { return answers[q.ID], nil }, 1)
	if err != nil {
		t.Fatal(err)
	}
	fact, sentence := rep.ByMethod["fact"], rep.ByMethod["sentence"]
	if fact == nil || sentence == nil || len(rep.ByMethod) != 2 {
		t.Fatalf("by method: %+v", rep.ByMethod)
	}
	if fact.N != 2 || fact.Contains != 0.5 || sentence.N != 1 || sentence.Contains != 0 || sentence.Tokens != 120 {
		t.Fatalf("fact %+v, sentence %+v", *fact, *sentence)
	}
	var b strings.Builder
	if err := rep.Text(&b); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "by method:") || !strings.Contains(out, "sentence") {
		t.Fatalf("the text report lacks the methods:\n%s", out)
	}
	// An answerer that names no method gets no table of them.
	plain, err := Run(context.Background(), qs[:1], func(context.Context, Question) (Prediction, error) { return Prediction{Answer: "孔明"}, nil }, 1)
	if err != nil || plain.ByMethod != nil {
		t.Fatalf("no methods named: %+v %v", plain.ByMethod, err)
	}
}
