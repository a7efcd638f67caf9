package qa

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/annals-project/annals/internal/eval"
)

// sharedFile returns a file of the shared data folder, skipping the test
// when the folder is absent (a fresh clone has none).
func sharedFile(t *testing.T, parts ...string) string {
	t.Helper()
	dir, err := eval.DataDir()
	if errors.Is(err, eval.ErrDataAbsent) {
		t.Skipf("skipping: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(append([]string{dir}, parts...)...)
}

// oracle answers every question with its gold answer.
func oracle(_ context.Context, q Question) (Prediction, error) {
	return Prediction{Answer: q.Answer, Choice: q.Answer}, nil
}

func TestSharedVietnameseMCQ(t *testing.T) {
	qs, err := Load(sharedFile(t, "vi-history-mcq", "dev.jsonl"), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 100 {
		t.Fatalf("%d questions, want 100", len(qs))
	}
	types := map[string]int{}
	for _, q := range qs {
		if len(q.Options) != 4 || len(q.Context) != 1 {
			t.Errorf("%s: %d options, %d passages; want 4 and 1", q.ID, len(q.Options), len(q.Context))
		}
		if q.Answer < "A" || q.Answer > "D" || len(q.Answer) != 1 {
			t.Errorf("%s: answer %q is not a letter A–D", q.ID, q.Answer)
		}
		types[q.Type]++
	}
	if len(types) != 4 || types[""] != 0 {
		t.Errorf("types %v, want 4 named", types)
	}
	// 57 distinct strings, but three differ from another only by a final
	// newline.
	if n := len(Corpus(qs)); n != 54 {
		t.Errorf("%d distinct contexts, want 54", n)
	}
	if c := Chance(qs); c != 0.25 {
		t.Errorf("chance %v, want 0.25", c)
	}
	rep, err := Run(context.Background(), qs, oracle, 8)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accuracy != 1 || rep.MultipleChoice != 100 || len(rep.ByType) != 4 {
		t.Errorf("oracle report: accuracy %v, %d multiple choice, %d types", rep.Accuracy, rep.MultipleChoice, len(rep.ByType))
	}
}

func TestSharedMuSiQue(t *testing.T) {
	qs, err := Load(sharedFile(t, "multihop", "musique_train.json"), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 100 {
		t.Fatalf("%d questions, want 100", len(qs))
	}
	for _, q := range qs {
		supporting := 0
		for _, p := range q.Context {
			if p.Supporting {
				supporting++
			}
		}
		if q.Type == "" || len(q.Context) == 0 || supporting < 2 || q.MultipleChoice() {
			t.Errorf("%s: type %q, %d passages, %d supporting", q.ID, q.Type, len(q.Context), supporting)
		}
	}
	corpus, err := LoadCorpus(sharedFile(t, "multihop", "musique_train_corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(corpus) != 1890 {
		t.Errorf("corpus of %d passages, want 1,890", len(corpus))
	}
	samePassages(t, Corpus(qs), corpus)
	checkOracle(t, qs)
}

func TestSharedHotpotQA(t *testing.T) {
	qs, err := Load(sharedFile(t, "multihop", "hotpotqa_train.json"), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 100 {
		t.Fatalf("%d questions, want 100", len(qs))
	}
	for _, q := range qs {
		if (q.Type != "bridge" && q.Type != "comparison") || len(q.Context) == 0 {
			t.Errorf("%s: type %q, %d passages", q.ID, q.Type, len(q.Context))
		}
	}
	corpus, err := LoadCorpus(sharedFile(t, "multihop", "hotpotqa_train_corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(corpus) != 994 {
		t.Errorf("corpus of %d passages, want 994", len(corpus))
	}
	samePassages(t, Corpus(qs), corpus)
	checkOracle(t, qs)
}

// samePassages checks that the gold passages pooled from the questions
// are the corpus file's, whatever the order.
func samePassages(t *testing.T, pooled, corpus []Passage) {
	t.Helper()
	type tt struct{ title, text string }
	in := map[tt]bool{}
	for _, p := range corpus {
		in[tt{p.Title, p.Text}] = true
	}
	missing := 0
	for _, p := range pooled {
		if !in[tt{p.Title, p.Text}] {
			missing++
		}
	}
	if missing > 0 || len(pooled) != len(corpus) {
		t.Errorf("%d pooled passages, %d not in the corpus of %d", len(pooled), missing, len(corpus))
	}
}

// checkOracle runs the gold answers through the scorer: every gold answer
// must normalise to something and score full marks.
func checkOracle(t *testing.T, qs []Question) {
	t.Helper()
	rep, err := Run(context.Background(), qs, oracle, 8)
	if err != nil {
		t.Fatal(err)
	}
	if rep.EM != 1 || rep.F1 != 1 || rep.Contains != 1 || rep.Errors != 0 {
		t.Errorf("oracle report: EM %v F1 %v contains %v errors %d", rep.EM, rep.F1, rep.Contains, rep.Errors)
	}
}
