package qa

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/annals-project/annals/internal/eval"
)

// Formats Load reads.
const (
	// FormatJSONL is one question a line: {"id", "question", "options",
	// "answer", "aliases", "type", "context"}; only question and answer
	// are required.
	FormatJSONL = "jsonl"
	// FormatMuSiQue is a JSON array of MuSiQue records.
	FormatMuSiQue = "musique"
	// FormatHotpotQA is a JSON array of HotpotQA records.
	FormatHotpotQA = "hotpotqa"
	// FormatCHisIEC is a CHisIEC relation file (re_coling_*.json), asked
	// as questions about its relations (RelationQuestions).
	FormatCHisIEC = "chisiec-re"
)

// Formats lists the formats Load reads.
func Formats() []string {
	return []string{FormatJSONL, FormatMuSiQue, FormatHotpotQA, FormatTwoWiki, FormatGraphRAGBench, FormatCHisIEC}
}

var bom = []byte("\xef\xbb\xbf")

// Load reads the questions of a file. format is one of Formats, or "" to
// tell from the file: a .jsonl name or a first record that is an object
// means JSON lines (GraphRAG-Bench's when its keys are capitalised); a
// JSON array whose first record has "paragraphs" is MuSiQue, one with
// "evidences" 2WikiMultiHopQA, one with "supporting_facts" or a "context"
// of [title, sentences] pairs HotpotQA.
func Load(path, format string) ([]Question, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load questions: %w", err)
	}
	name := filepath.Base(path)
	data = bytes.TrimPrefix(data, bom)
	format = strings.ToLower(strings.TrimSpace(format))
	if format == "" {
		if format, err = guessFormat(name, data); err != nil {
			return nil, fmt.Errorf("load questions from %s: %w", path, err)
		}
	}
	var qs []Question
	switch format {
	case FormatJSONL:
		qs, err = parseJSONL(data, name)
	case FormatMuSiQue:
		qs, err = parseMuSiQue(data, name)
	case FormatHotpotQA:
		qs, err = parseHotpotQA(data, name)
	case FormatTwoWiki:
		qs, err = parseTwoWiki(data, name)
	case FormatGraphRAGBench:
		qs, err = parseGraphRAGBench(data, name)
	case FormatCHisIEC:
		var exs []eval.Example
		if exs, err = eval.ParseCHisIECRE(bytes.NewReader(data), name); err == nil {
			qs = RelationQuestions(exs)
		}
	default:
		return nil, fmt.Errorf("load questions from %s: unknown format %q (known: %s)", path, format, strings.Join(Formats(), ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("load %s questions from %s: %w", format, path, err)
	}
	return qs, nil
}

func guessFormat(name string, data []byte) (string, error) {
	trimmed := bytes.TrimSpace(data)
	if strings.EqualFold(filepath.Ext(name), ".jsonl") || len(trimmed) > 0 && trimmed[0] == '{' {
		// GraphRAG-Bench writes its keys capitalised: Question, Answer.
		first, _, _ := bytes.Cut(trimmed, []byte("\n"))
		var keys map[string]json.RawMessage
		if json.Unmarshal(first, &keys) == nil && keys["Question"] != nil && keys["question"] == nil {
			return FormatGraphRAGBench, nil
		}
		return FormatJSONL, nil
	}
	if len(trimmed) == 0 {
		return "", errors.New("file is empty")
	}
	switch trimmed[0] {
	case '[':
	default:
		return "", errors.New("neither JSON lines nor a JSON array; give the format")
	}
	recs, err := records(data, 1)
	if err != nil {
		return "", err
	}
	if len(recs) == 0 {
		return "", errors.New("no questions: the array is empty")
	}
	var first map[string]json.RawMessage
	if err := json.Unmarshal(recs[0].raw, &first); err != nil {
		return "", fmt.Errorf("line %d: first record: %w", recs[0].line, err)
	}
	if _, ok := first["paragraphs"]; ok {
		return FormatMuSiQue, nil
	}
	if _, ok := first["relations"]; ok {
		if _, ok := first["tokens"]; ok {
			return FormatCHisIEC, nil
		}
	}
	if _, ok := first["evidences"]; ok {
		return FormatTwoWiki, nil
	}
	if _, ok := first["supporting_facts"]; ok {
		return FormatHotpotQA, nil
	}
	var pairs [][]json.RawMessage
	if c, ok := first["context"]; ok && json.Unmarshal(c, &pairs) == nil && len(pairs) > 0 && len(pairs[0]) == 2 {
		return FormatHotpotQA, nil
	}
	keys := make([]string, 0, len(first))
	for k := range first {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return "", fmt.Errorf("cannot tell the format from the first record's keys (%s); give it (%s)", strings.Join(keys, ", "), strings.Join(Formats(), ", "))
}

// jsonlRecord is one line of a JSON-lines question file. The fields that
// take several shapes are decoded by hand.
type jsonlRecord struct {
	ID       json.RawMessage `json:"id"`
	Question string          `json:"question"`
	Type     string          `json:"type"`
	Options  json.RawMessage `json:"options"`
	Answer   json.RawMessage `json:"answer"`
	Aliases  json.RawMessage `json:"aliases"`
	Context  json.RawMessage `json:"context"`
	Expected json.RawMessage `json:"expected"`
}

func parseJSONL(data []byte, name string) ([]Question, error) {
	return jsonLines(data, name, func(b []byte, defaultID string) (Question, error) {
		var rec jsonlRecord
		if err := json.Unmarshal(b, &rec); err != nil {
			return Question{}, err
		}
		return rec.question(defaultID)
	})
}

// jsonLines reads one question a line with conv, which is given the id a
// question without one takes (NAME:LINE); blank lines are skipped, and ids
// must differ.
func jsonLines(data []byte, name string, conv func(b []byte, defaultID string) (Question, error)) ([]Question, error) {
	data = bytes.TrimPrefix(data, bom)
	var qs []Question
	ids := map[string]int{}
	for i, raw := range bytes.Split(data, []byte("\n")) {
		line := i + 1
		b := bytes.TrimSpace(raw)
		if len(b) == 0 {
			continue
		}
		q, err := conv(b, fmt.Sprintf("%s:%d", name, line))
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if prev, ok := ids[q.ID]; ok {
			return nil, fmt.Errorf("line %d: id %q already used on line %d", line, q.ID, prev)
		}
		ids[q.ID] = line
		qs = append(qs, q)
	}
	if len(qs) == 0 {
		return nil, errors.New("no questions: the file is empty")
	}
	return qs, nil
}

func (rec *jsonlRecord) question(defaultID string) (Question, error) {
	q := Question{Question: strings.TrimSpace(rec.Question), Type: strings.TrimSpace(rec.Type)}
	if q.Question == "" {
		return q, errors.New("no question")
	}
	id, err := scalarString(rec.ID)
	if err != nil {
		return q, fmt.Errorf("id: %w", err)
	}
	if q.ID = strings.TrimSpace(id); q.ID == "" {
		q.ID = defaultID
	}
	if q.Options, err = parseOptions(rec.Options); err != nil {
		return q, fmt.Errorf("options: %w", err)
	}
	answers, err := stringOrList(rec.Answer)
	if err != nil {
		return q, fmt.Errorf("answer: %w", err)
	}
	if len(answers) == 0 {
		return q, errors.New("no answer")
	}
	aliases, err := stringOrList(rec.Aliases)
	if err != nil {
		return q, fmt.Errorf("aliases: %w", err)
	}
	if q.MultipleChoice() {
		if len(answers) > 1 {
			return q, fmt.Errorf("answer: %d answers given; a multiple-choice question takes one", len(answers))
		}
		if q.Answer, err = answerLetter(answers[0], q.Options); err != nil {
			return q, err
		}
	} else {
		q.Answer = answers[0]
	}
	q.Aliases = cleanAliases(q.Answer, append(answers[1:], aliases...))
	if q.Context, err = parseContext(rec.Context); err != nil {
		return q, fmt.Errorf("context: %w", err)
	}
	if q.Expected, err = stringOrList(rec.Expected); err != nil {
		return q, fmt.Errorf("expected: %w", err)
	}
	return q, nil
}

// scalarString reads a string or a number; absent or null is "".
func scalarString(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		return n.String(), nil
	}
	return "", fmt.Errorf("want a string or a number, got %s", abbrev(raw))
}

// stringOrList reads a string, a number or a list of them, trimmed,
// dropping empty ones.
func stringOrList(raw json.RawMessage) ([]string, error) {
	items, err := oneOrMany(raw)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, it := range items {
		s, err := scalarString(it)
		if err != nil {
			return nil, err
		}
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out, nil
}

func cleanAliases(answer string, aliases []string) []string {
	var out []string
	for _, a := range aliases {
		if a = strings.TrimSpace(a); a != "" && a != answer && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// parseOptions reads a list (lettered A, B, C …) or an object letter →
// text. When every option starts with its own letter ("A. …"), the
// prefixes are dropped: the letter is already the option's.
func parseOptions(raw json.RawMessage) ([]Option, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var opts []Option
	switch raw[0] {
	case '[':
		var texts []string
		if err := json.Unmarshal(raw, &texts); err != nil {
			return nil, err
		}
		if len(texts) > 26 {
			return nil, fmt.Errorf("%d options; at most 26 can be lettered", len(texts))
		}
		for i, t := range texts {
			opts = append(opts, Option{Letter: string(rune('A' + i)), Text: t})
		}
	case '{':
		var m map[string]string
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, err
		}
		for k, t := range m {
			l, ok := letterOf(k)
			if !ok {
				return nil, fmt.Errorf("key %q is not a letter", k)
			}
			opts = append(opts, Option{Letter: l, Text: t})
		}
		slices.SortFunc(opts, func(a, b Option) int { return strings.Compare(a.Letter, b.Letter) })
		for i := 1; i < len(opts); i++ {
			if opts[i].Letter == opts[i-1].Letter {
				return nil, fmt.Errorf("letter %s given twice", opts[i].Letter)
			}
		}
	default:
		return nil, fmt.Errorf("want a list or an object, got %s", abbrev(raw))
	}
	if len(opts) == 0 {
		return nil, nil
	}
	strip := true
	for _, o := range opts {
		if _, ok := cutLetterPrefix(o.Text, o.Letter); !ok {
			strip = false
			break
		}
	}
	for i := range opts {
		if strip {
			opts[i].Text, _ = cutLetterPrefix(opts[i].Text, opts[i].Letter)
		}
		opts[i].Text = strings.TrimSpace(opts[i].Text)
		if opts[i].Text == "" {
			return nil, fmt.Errorf("option %s is empty", opts[i].Letter)
		}
	}
	return opts, nil
}

// letterOf reads "B", "b", "B.", "(B)" or "B)" as B.
func letterOf(s string) (string, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "(")
	s = strings.TrimRight(s, ".):")
	if len(s) != 1 {
		return "", false
	}
	c := s[0] &^ 0x20 // upper-case ASCII
	if c < 'A' || c > 'Z' {
		return "", false
	}
	return string(c), true
}

// cutLetterPrefix removes "B. ", "B) ", "(B) " or "B: " from the start of
// an option's text when B is letter.
func cutLetterPrefix(text, letter string) (string, bool) {
	t := strings.TrimSpace(text)
	for _, p := range []string{letter + ".", letter + ")", "(" + letter + ")", letter + ":"} {
		for _, q := range []string{p, strings.ToLower(p)} {
			if rest, ok := strings.CutPrefix(t, q); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
				return strings.TrimSpace(rest), true
			}
		}
	}
	return text, false
}

// answerLetter turns a multiple-choice answer, a letter or an option's
// text, into the option's letter.
func answerLetter(ans string, opts []Option) (string, error) {
	has := func(l string) bool {
		return slices.ContainsFunc(opts, func(o Option) bool { return o.Letter == l })
	}
	if l, ok := letterOf(ans); ok && has(l) {
		return l, nil
	}
	// The option's text as written, then normalised, then with the
	// option's own letter in front ("B. text").
	for _, same := range []func(o Option) bool{
		func(o Option) bool { return strings.TrimSpace(ans) == o.Text },
		func(o Option) bool { return Normalize(ans) != "" && Normalize(ans) == Normalize(o.Text) },
		func(o Option) bool {
			rest, ok := cutLetterPrefix(ans, o.Letter)
			return ok && Normalize(rest) == Normalize(o.Text)
		},
	} {
		var found []string
		for _, o := range opts {
			if same(o) {
				found = append(found, o.Letter)
			}
		}
		switch len(found) {
		case 1:
			return found[0], nil
		case 0:
		default:
			return "", fmt.Errorf("answer %q matches options %s alike", abbrev([]byte(ans)), strings.Join(found, " and "))
		}
	}
	letters := make([]string, len(opts))
	for i, o := range opts {
		letters[i] = o.Letter
	}
	return "", fmt.Errorf("answer %q is neither an option's letter (%s) nor an option's text", abbrev([]byte(ans)), strings.Join(letters, ", "))
}

// parseContext reads a string, or a list of strings or {title, text}
// objects (with "supporting": true on those the answer needs), into
// passages.
func parseContext(raw json.RawMessage) ([]Passage, error) {
	items, err := oneOrMany(raw)
	if err != nil {
		return nil, err
	}
	var out []Passage
	for i, it := range items {
		var p Passage
		var s string
		if err := json.Unmarshal(it, &s); err == nil {
			p.Text = s
		} else {
			var obj struct {
				Title, Text string
				Supporting  bool
			}
			if err := json.Unmarshal(it, &obj); err != nil {
				return nil, fmt.Errorf("passage %d: want a string or {title, text}, got %s", i+1, abbrev(it))
			}
			p.Title, p.Text, p.Supporting = strings.TrimSpace(obj.Title), obj.Text, obj.Supporting
		}
		if strings.TrimSpace(p.Text) != "" {
			out = append(out, p)
		}
	}
	return out, nil
}

// record is one element of a JSON array with the line it starts on.
type record struct {
	raw  json.RawMessage
	line int
}

// records splits a JSON array into its elements, reading at most limit of
// them when limit > 0. Syntax errors name their line.
func records(data []byte, limit int) ([]record, error) {
	data = bytes.TrimPrefix(data, bom)
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, jsonError(data, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, errors.New("not a JSON array")
	}
	var out []record
	for dec.More() {
		if limit > 0 && len(out) == limit {
			return out, nil
		}
		start := dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, jsonError(data, err)
		}
		// InputOffset stops before the comma and spaces ahead of the value.
		for start < int64(len(data)) && bytes.IndexByte([]byte(", \t\r\n"), data[start]) >= 0 {
			start++
		}
		out = append(out, record{raw: raw, line: lineAt(data, start)})
	}
	if _, err := dec.Token(); err != nil {
		return nil, jsonError(data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("line %d: data after the array", lineAt(data, dec.InputOffset()))
	}
	return out, nil
}

func jsonError(data []byte, err error) error {
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		return fmt.Errorf("line %d: %w", lineAt(data, se.Offset), err)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("line %d: unexpected end of JSON", lineAt(data, int64(len(data))))
	}
	return err
}

func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

type musiqueRecord struct {
	ID         string   `json:"id"`
	Question   string   `json:"question"`
	Answer     string   `json:"answer"`
	Aliases    []string `json:"answer_aliases"`
	Paragraphs []struct {
		Title        string `json:"title"`
		Text         string `json:"paragraph_text"`
		IsSupporting bool   `json:"is_supporting"`
	} `json:"paragraphs"`
}

// parseMuSiQue reads a MuSiQue array. Its ids start with the question's
// composition (2hop, 3hop1, 3hop2, 4hop1 …), which becomes the Type.
func parseMuSiQue(data []byte, name string) ([]Question, error) {
	recs, err := records(data, 0)
	if err != nil {
		return nil, err
	}
	return questionsOf(recs, name, func(b []byte) (Question, error) {
		var r musiqueRecord
		if err := json.Unmarshal(b, &r); err != nil {
			return Question{}, err
		}
		q := Question{ID: strings.TrimSpace(r.ID), Question: strings.TrimSpace(r.Question), Answer: strings.TrimSpace(r.Answer)}
		if t, _, ok := strings.Cut(q.ID, "__"); ok {
			q.Type = t
		}
		q.Aliases = cleanAliases(q.Answer, r.Aliases)
		for _, p := range r.Paragraphs {
			q.Context = append(q.Context, Passage{Title: strings.TrimSpace(p.Title), Text: p.Text, Supporting: p.IsSupporting})
		}
		return q, nil
	})
}

type hotpotRecord struct {
	ID              string              `json:"_id"`
	Question        string              `json:"question"`
	Answer          string              `json:"answer"`
	Type            string              `json:"type"`
	SupportingFacts [][]json.RawMessage `json:"supporting_facts"`
	Context         [][]json.RawMessage `json:"context"`
}

// parseHotpotQA reads a HotpotQA array. A passage's text is its sentences
// joined as written: each already begins with its own space.
func parseHotpotQA(data []byte, name string) ([]Question, error) {
	recs, err := records(data, 0)
	if err != nil {
		return nil, err
	}
	return questionsOf(recs, name, func(b []byte) (Question, error) {
		var r hotpotRecord
		if err := json.Unmarshal(b, &r); err != nil {
			return Question{}, err
		}
		if r.ID == "" {
			// Some copies name it id.
			var alt struct{ ID json.RawMessage }
			_ = json.Unmarshal(b, &alt)
			r.ID, _ = scalarString(alt.ID)
		}
		q := Question{ID: strings.TrimSpace(r.ID), Question: strings.TrimSpace(r.Question), Answer: strings.TrimSpace(r.Answer), Type: strings.TrimSpace(r.Type)}
		supporting := map[string]bool{}
		for _, sf := range r.SupportingFacts {
			var title string
			if len(sf) > 0 && json.Unmarshal(sf[0], &title) == nil {
				supporting[title] = true
			}
		}
		for i, c := range r.Context {
			var title string
			var sents []string
			if len(c) != 2 || json.Unmarshal(c[0], &title) != nil {
				return q, fmt.Errorf("context %d: want [title, sentences]", i+1)
			}
			if err := json.Unmarshal(c[1], &sents); err != nil {
				return q, fmt.Errorf("context %d (%s): sentences: %w", i+1, title, err)
			}
			q.Context = append(q.Context, Passage{Title: strings.TrimSpace(title), Text: strings.Join(sents, ""), Supporting: supporting[title]})
		}
		return q, nil
	})
}

// questionsOf converts the records of a JSON array, checking what every
// format needs: a question, an answer, distinct ids.
func questionsOf(recs []record, name string, conv func([]byte) (Question, error)) ([]Question, error) {
	if len(recs) == 0 {
		return nil, errors.New("no questions: the array is empty")
	}
	qs := make([]Question, 0, len(recs))
	ids := map[string]int{}
	for i, rec := range recs {
		where := fmt.Sprintf("record %d (line %d)", i+1, rec.line)
		q, err := conv(rec.raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if q.ID == "" {
			q.ID = fmt.Sprintf("%s[%d]", name, i)
		}
		switch {
		case q.Question == "":
			return nil, fmt.Errorf("%s, id %s: no question", where, q.ID)
		case q.Answer == "":
			return nil, fmt.Errorf("%s, id %s: no answer", where, q.ID)
		}
		if prev, ok := ids[q.ID]; ok {
			return nil, fmt.Errorf("%s: id %q already used by record %d", where, q.ID, prev)
		}
		ids[q.ID] = i + 1
		qs = append(qs, q)
	}
	return qs, nil
}

// Corpus pools the distinct gold passages of the questions (same title
// and text, spaces at the ends aside), in order of first appearance, each
// with a Key like "passages/0001-Title".
func Corpus(questions []Question) []Passage {
	var ps []Passage
	for _, q := range questions {
		ps = append(ps, q.Context...)
	}
	return pool(ps)
}

// LoadCorpus reads a passage corpus: a JSON array of {title, text}
// (MuSiQue) or an object title → list of sentences (HotpotQA; sentences
// are joined as written, in the file's order). Passages are pooled and
// keyed as by Corpus.
func LoadCorpus(path string) ([]Passage, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load corpus: %w", err)
	}
	ps, err := parseCorpus(data)
	if err != nil {
		return nil, fmt.Errorf("load corpus from %s: %w", path, err)
	}
	return ps, nil
}

func parseCorpus(data []byte) ([]Passage, error) {
	data = bytes.TrimPrefix(data, bom)
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, errors.New("file is empty")
	}
	var ps []Passage
	switch trimmed[0] {
	case '[':
		recs, err := records(data, 0)
		if err != nil {
			return nil, err
		}
		for i, rec := range recs {
			var p struct{ Title, Text string }
			if err := json.Unmarshal(rec.raw, &p); err != nil {
				return nil, fmt.Errorf("record %d (line %d): %w", i+1, rec.line, err)
			}
			ps = append(ps, Passage{Title: strings.TrimSpace(p.Title), Text: p.Text})
		}
	case '{':
		// Decoded token by token: a map would lose the file's order.
		dec := json.NewDecoder(bytes.NewReader(data))
		if _, err := dec.Token(); err != nil {
			return nil, jsonError(data, err)
		}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return nil, jsonError(data, err)
			}
			title, _ := tok.(string)
			line := lineAt(data, dec.InputOffset())
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return nil, jsonError(data, err)
			}
			var sents []string
			var text string
			if json.Unmarshal(raw, &sents) == nil {
				text = strings.Join(sents, "")
			} else if json.Unmarshal(raw, &text) != nil {
				return nil, fmt.Errorf("line %d: %q: want a list of sentences or a string, got %s", line, title, abbrev(raw))
			}
			ps = append(ps, Passage{Title: strings.TrimSpace(title), Text: text})
		}
		if _, err := dec.Token(); err != nil {
			return nil, jsonError(data, err)
		}
		if _, err := dec.Token(); err != io.EOF {
			return nil, fmt.Errorf("line %d: data after the object", lineAt(data, dec.InputOffset()))
		}
	default:
		return nil, errors.New("want a JSON array of {title, text} or an object title → sentences")
	}
	out := pool(ps)
	if len(out) == 0 {
		return nil, errors.New("no passages")
	}
	return out, nil
}

// pool drops passages without text and repeats, and keys the rest.
func pool(ps []Passage) []Passage {
	type tt struct{ title, text string }
	seen := map[tt]bool{}
	var out []Passage
	for _, p := range ps {
		k := tt{strings.TrimSpace(p.Title), strings.TrimSpace(p.Text)}
		if k.text == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, Passage{Title: p.Title, Text: p.Text})
	}
	width := max(4, len(strconv.Itoa(len(out))))
	for i := range out {
		out[i].Key = passageKey(i+1, width, out[i])
	}
	return out
}

// passageKey names a passage like a file: its number, for order and
// uniqueness, then its title (or, without one, its first words) with
// everything but letters and digits turned into hyphens.
func passageKey(n, width int, p Passage) string {
	name := p.Title
	if name == "" {
		name = p.Text
	}
	if r := []rune(name); len(r) > 200 {
		name = string(r[:200])
	}
	name = norm.NFC.String(name)
	// Whole words up to 40 runes, so that a name is not cut mid-word.
	const maxRunes = 40
	var b []rune
	for w := range strings.FieldsFuncSeq(name, func(r rune) bool { return !isWordRune(r) && !isCharToken(r) }) {
		rw := []rune(w)
		if len(b) > 0 {
			if len(b)+1+len(rw) > maxRunes {
				break
			}
			b = append(b, '-')
		}
		b = append(b, rw[:min(len(rw), maxRunes)]...)
	}
	key := fmt.Sprintf("passages/%0*d", width, n)
	if len(b) > 0 {
		key += "-" + string(b)
	}
	return key
}

// abbrev shortens a value quoted in an error message.
func abbrev(b []byte) string {
	s := string(b)
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return s
}

// oneOrMany reads a JSON value that may be a list of items or a single
// item; null or nothing gives none.
func oneOrMany(raw json.RawMessage) ([]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] != '[' {
		return []json.RawMessage{raw}, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, err
	}
	return items, nil
}
