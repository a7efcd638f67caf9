// Package qa measures question answering: it loads question sets
// (multiple-choice JSON lines such as the Vietnamese history set, MuSiQue,
// HotpotQA), pools their gold passages into a corpus to index, runs an
// answerer over every question and scores the answers: accuracy for
// multiple choice; answer-contains, token F1 and exact match for free
// answers.
package qa

import (
	"slices"
	"strings"
)

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
	// Expected are the names a list answer should hold (a whole-corpus
	// question: 孙吴的将领有哪些); each may give alternates, 张良|留侯.
	Expected []string `json:"expected,omitempty"`
	// Supporting are the keys, in the corpus indexed, of the passages the
	// answer needs (LinkSupporting); nil when the data set does not say.
	Supporting []string `json:"supporting,omitempty"`
	// Evidence are the triples the answer follows, hop by hop, where the
	// data set gives them (2WikiMultiHopQA).
	Evidence []Triple `json:"evidence,omitempty"`
}

// Triple is a fact a data set gives as a question's evidence.
type Triple struct {
	Head     string `json:"head"`
	Relation string `json:"relation"`
	Tail     string `json:"tail"`
}

// LinkSupporting gives each question the keys its supporting context
// passages have in corpus (pooled by Corpus or read by LoadCorpus),
// matched by title and text as pooling matches them, and returns how many
// questions got some.
func LinkSupporting(qs []Question, corpus []Passage) int {
	type tt struct{ title, text string }
	keys := make(map[tt]string, len(corpus))
	for _, p := range corpus {
		keys[tt{strings.TrimSpace(p.Title), strings.TrimSpace(p.Text)}] = p.Key
	}
	n := 0
	for i := range qs {
		qs[i].Supporting = nil
		for _, p := range qs[i].Context {
			if !p.Supporting {
				continue
			}
			if k, ok := keys[tt{strings.TrimSpace(p.Title), strings.TrimSpace(p.Text)}]; ok && !slices.Contains(qs[i].Supporting, k) {
				qs[i].Supporting = append(qs[i].Supporting, k)
			}
		}
		if len(qs[i].Supporting) > 0 {
			n++
		}
	}
	return n
}

// Recall is the share of supporting passages among those retrieved.
func Recall(retrieved, supporting []string) float64 {
	if len(supporting) == 0 {
		return 0
	}
	hit := 0
	for _, k := range supporting {
		if slices.Contains(retrieved, k) {
			hit++
		}
	}
	return float64(hit) / float64(len(supporting))
}

// ListScored is how many of a list answer's names are scored, and at most
// how many expected names count: "up to five per question".
const ListScored = 5

// NameRecall scores a list answer against the expected names: the
// expected names it holds among its first ListScored names, over the
// most it could hold, min(ListScored, len(expected)). A name matches an
// expected one or any of its alternates, after normalisation.
func NameRecall(names, expected []string) float64 {
	if len(expected) == 0 {
		return 0
	}
	if len(names) > ListScored {
		names = names[:ListScored]
	}
	used := make([]bool, len(expected))
	hit := 0
	for _, n := range names {
		n = Normalize(n)
	match:
		for i, e := range expected {
			if used[i] {
				continue
			}
			for _, alt := range strings.Split(e, "|") {
				if a := Normalize(alt); a != "" && a == n {
					used[i] = true
					hit++
					break match
				}
			}
		}
	}
	return float64(hit) / float64(min(ListScored, len(expected)))
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
