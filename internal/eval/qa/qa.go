// Package qa measures question answering: it loads question sets
// (multiple-choice JSON lines such as the Vietnamese history set, MuSiQue,
// HotpotQA), pools their gold passages into a corpus to index, runs an
// answerer over every question and scores the answers: accuracy for
// multiple choice; answer-contains, token F1 and exact match for free
// answers.
package qa

// Question is one question with its gold answer.
type Question struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Options  []Option `json:"options,omitempty"`
	// Answer is the correct option's letter for multiple choice, else the
	// answer text.
	Answer string `json:"answer"`
	// Aliases are other accepted answers (free answers only).
	Aliases []string `json:"aliases,omitempty"`
	// Type is the data set's question type, "" when it has none.
	Type string `json:"type,omitempty"`
	// Context holds the gold passages when the data set gives them.
	Context []Passage `json:"context,omitempty"`
}

// MultipleChoice reports whether the question is answered by a letter.
func (q Question) MultipleChoice() bool { return len(q.Options) > 0 }

// Option is one choice of a multiple-choice question.
type Option struct {
	Letter string `json:"letter"`
	Text   string `json:"text"`
}

// Passage is a text to index. Key is set by Corpus and LoadCorpus, which
// name passages like files; it is empty in a question's Context.
type Passage struct {
	Key   string `json:"key,omitempty"`
	Title string `json:"title,omitempty"`
	Text  string `json:"text"`
	// Supporting marks the passages the data set says the answer needs
	// (MuSiQue is_supporting, HotpotQA supporting_facts), for retrieval
	// recall; Corpus and LoadCorpus leave it false.
	Supporting bool `json:"supporting,omitempty"`
}

// Chance is the expected accuracy of guessing uniformly among each
// question's options, over the multiple-choice questions (0 when none).
func Chance(qs []Question) float64 {
	var sum float64
	n := 0
	for _, q := range qs {
		if len(q.Options) > 0 {
			sum += 1 / float64(len(q.Options))
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}
