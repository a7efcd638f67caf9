package qa

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// Two more data sets seed 004 evaluates on.
const (
	// FormatTwoWiki is a JSON array of 2WikiMultiHopQA records: HotpotQA's
	// fields (_id, question, answer, type, context, supporting_facts) and
	// the evidence triples the answer follows ([subject, relation,
	// object]), which become the question's Evidence.
	FormatTwoWiki = "2wiki"
	// FormatGraphRAGBench is GraphRAG-Bench's JSON lines (Xiao et al.
	// 2025): {"Question", "Answer", "Rationale", "Level-1 Topic",
	// "Level-2 Topic"}, one file per kind of question (FB, MC, MS, OE,
	// TF). A multiple-choice question's options are its "Options" (a
	// list, or an object by letter) or, when it has none, the lettered
	// lines of its text (A. …, B. …); a multi-select answer (AC) asks for
	// the texts of all its options, as a list answer.
	FormatGraphRAGBench = "graphrag-bench"
)

// twoWikiRecord is what 2WikiMultiHopQA adds to HotpotQA's record.
type twoWikiRecord struct {
	Evidences []json.RawMessage `json:"evidences"`
}

func parseTwoWiki(data []byte, name string) ([]Question, error) {
	qs, err := parseHotpotQA(data, name)
	if err != nil {
		return nil, err
	}
	recs, err := records(data, 0)
	if err != nil {
		return nil, err
	}
	for i, rec := range recs {
		var r twoWikiRecord
		if err := json.Unmarshal(rec.raw, &r); err != nil {
			return nil, fmt.Errorf("record %d (line %d): %w", i+1, rec.line, err)
		}
		for j, ev := range r.Evidences {
			var t []string
			if err := json.Unmarshal(ev, &t); err != nil || len(t) != 3 {
				return nil, fmt.Errorf("record %d (line %d), id %s: evidence %d: want [subject, relation, object]", i+1, rec.line, qs[i].ID, j+1)
			}
			qs[i].Evidence = append(qs[i].Evidence, Triple{Head: strings.TrimSpace(t[0]), Relation: strings.TrimSpace(t[1]), Tail: strings.TrimSpace(t[2])})
		}
	}
	return qs, nil
}

// benchRecord is one line of a GraphRAG-Bench question file.
type benchRecord struct {
	Question  string          `json:"Question"`
	Answer    json.RawMessage `json:"Answer"`
	Options   json.RawMessage `json:"Options"`
	Rationale string          `json:"Rationale"`
	Topic     string          `json:"Level-1 Topic"`
	Subtopic  string          `json:"Level-2 Topic"`
	ID        json.RawMessage `json:"id"`
}

// optionLine is a lettered option on a line of its own: "A. text",
// "B) text", "(C) text".
var optionLine = regexp.MustCompile(`(?m)^\s*\(?([A-Z])[.)．、:：]\)?\s*(.+?)\s*$`)

func parseGraphRAGBench(data []byte, name string) ([]Question, error) {
	kind := strings.ToUpper(strings.TrimSuffix(filepath.Base(name), filepath.Ext(name)))
	return jsonLines(data, name, func(b []byte, defaultID string) (Question, error) {
		var r benchRecord
		if err := json.Unmarshal(b, &r); err != nil {
			return Question{}, err
		}
		q, err := r.question(kind)
		if err != nil {
			return q, err
		}
		if id, _ := scalarString(r.ID); strings.TrimSpace(id) != "" {
			q.ID = strings.TrimSpace(id)
		} else {
			q.ID = defaultID
		}
		return q, nil
	})
}

func (r *benchRecord) question(kind string) (Question, error) {
	q := Question{Question: strings.TrimSpace(r.Question), Type: strings.TrimSpace(r.Topic)}
	if q.Question == "" {
		return q, errors.New("no Question")
	}
	if r.Subtopic != "" {
		q.Type += " / " + strings.TrimSpace(r.Subtopic)
	}
	answers, err := stringOrList(r.Answer)
	if err != nil {
		return q, fmt.Errorf("Answer: %w", err)
	}
	if len(answers) == 0 {
		return q, errors.New("no Answer")
	}
	opts, err := parseOptions(r.Options)
	if err != nil {
		return q, fmt.Errorf("Options: %w", err)
	}
	if len(opts) == 0 && (kind == "MC" || kind == "MS") {
		// The options are the lettered lines of the question; the text
		// asked is what comes before them.
		ms := optionLine.FindAllStringSubmatchIndex(q.Question, -1)
		for k, m := range ms {
			if letter := q.Question[m[2]:m[3]]; letter != string(rune('A'+k)) {
				opts = nil
				break
			}
			opts = append(opts, Option{Letter: q.Question[m[2]:m[3]], Text: q.Question[m[4]:m[5]]})
		}
		if len(opts) >= 2 {
			q.Question = strings.TrimSpace(q.Question[:ms[0][0]])
		} else {
			opts = nil
		}
	}
	letters := lettersOf(answers[0], opts)
	switch {
	case len(opts) > 0 && len(letters) == 1:
		q.Options, q.Answer = opts, letters[0]
	case len(opts) > 0 && len(letters) > 1:
		// Several right options: the answer is the list of their texts.
		for _, l := range letters {
			for _, o := range opts {
				if o.Letter == l {
					q.Expected = append(q.Expected, o.Text)
				}
			}
		}
		q.Answer = strings.Join(q.Expected, "; ")
	case len(opts) > 0:
		if q.Answer, err = answerLetter(answers[0], opts); err != nil {
			return q, err
		}
		q.Options = opts
	default:
		q.Answer = answers[0]
		q.Aliases = cleanAliases(q.Answer, answers[1:])
	}
	return q, nil
}

// lettersOf reads an answer made only of option letters (B, "A,C", "AC")
// as those letters; anything else gives none.
func lettersOf(ans string, opts []Option) []string {
	if len(opts) == 0 {
		return nil
	}
	has := map[string]bool{}
	for _, o := range opts {
		has[o.Letter] = true
	}
	var out []string
	for _, c := range strings.ToUpper(ans) {
		switch {
		case c == ',' || c == ' ' || c == '，' || c == '、' || c == ';':
		case has[string(c)]:
			out = append(out, string(c))
		default:
			return nil
		}
	}
	return out
}
