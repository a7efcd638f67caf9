package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Example is one text with its gold annotations.
type Example struct {
	ID       string       `json:"id"` // file and line or index, for messages
	Text     string       `json:"text"`
	Entities []GoldEntity `json:"entities,omitempty"`
	Triples  []GoldTriple `json:"triples,omitempty"`
}

// GoldEntity is an annotated mention. Start and End are code-point offsets
// into the example's text, both -1 when the data set gives only the string
// (C-CLUE).
type GoldEntity struct {
	Text  string `json:"text"`
	Type  string `json:"type"` // the data set's label (PER, LOC, JOB …)
	Start int    `json:"start"`
	End   int    `json:"end"`
}

// GoldTriple is an annotated relation, written in the data set's own
// direction and label.
type GoldTriple struct {
	Head     GoldEntity `json:"head"`
	Relation string     `json:"relation"`
	Tail     GoldEntity `json:"tail"`
}

// LoadCHisIECNER reads the CHisIEC NER sentences of a split (ner_SPLIT.txt).
func LoadCHisIECNER(dataDir, split string) ([]Example, error) {
	name, err := splitFile(CHisIEC, "NER", split, chisiecNERFiles)
	if err != nil {
		return nil, err
	}
	f, p, err := openData(dataDir, CHisIEC, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	exs, err := ParseBIOES(f)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	for i := range exs {
		exs[i].ID = name + ":" + exs[i].ID
	}
	return exs, nil
}

// LoadCHisIECRE reads the CHisIEC relation sentences of a split
// (re_coling_train.json, re_coling_train_dev.json for dev,
// re_coling_test.json).
func LoadCHisIECRE(dataDir, split string) ([]Example, error) {
	name, err := splitFile(CHisIEC, "RE", split, chisiecREFiles)
	if err != nil {
		return nil, err
	}
	f, p, err := openData(dataDir, CHisIEC, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	exs, err := ParseCHisIECRE(f, name)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	return exs, nil
}

// LoadCCLUE reads the C-CLUE examples of a split ({train,dev,test}_data.json),
// one example per distinct text with all its triples.
func LoadCCLUE(dataDir, split string) ([]Example, error) {
	name, err := splitFile(CCLUE, "RE", split, cclueFiles)
	if err != nil {
		return nil, err
	}
	f, p, err := openData(dataDir, CCLUE, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	exs, err := parseCCLUE(f, filepath.Base(name))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	return exs, nil
}

// ParseBIOES reads one-character-per-line tagged text ("CHAR TAG", tab or
// space separated, blank line between sentences) into sentences with their
// entity spans. Each example's ID is the line number of its first character.
// It is lenient, because gold files are not always well formed: a run that
// stops without E- ends at its last token, an I- or E- that continues no
// open entity starts one, M- is read as I-, and an unknown tag is O. Lines
// that are not one character and a tag are skipped.
func ParseBIOES(r io.Reader) ([]Example, error) {
	var (
		out   []Example
		text  []rune
		ents  []GoldEntity
		first int
		open  = -1 // start of the open entity, -1 when none
		typ   string
	)
	closeOpen := func() {
		if open >= 0 {
			ents = append(ents, GoldEntity{Type: typ, Start: open, End: len(text)})
			open = -1
		}
	}
	flush := func() {
		closeOpen()
		if len(text) > 0 {
			for i := range ents {
				ents[i].Text = string(text[ents[i].Start:ents[i].End])
			}
			out = append(out, Example{ID: fmt.Sprint(first), Text: string(text), Entities: ents})
		}
		text, ents = nil, nil
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	line := 0
	for sc.Scan() {
		line++
		raw := strings.TrimRightFunc(sc.Text(), unicode.IsSpace)
		if strings.TrimSpace(raw) == "" {
			flush()
			continue
		}
		char, tag, ok := splitTokenLine(raw)
		if !ok {
			continue
		}
		if len(text) == 0 {
			first = line
		}
		prefix, t := splitTag(tag)
		// Decide before appending, so closeOpen ends a run at the previous token.
		pos := len(text)
		switch prefix {
		case 'B':
			closeOpen()
			open, typ = pos, t
		case 'I':
			if open < 0 || typ != t {
				closeOpen()
				open, typ = pos, t
			}
		case 'E':
			if open < 0 || typ != t {
				closeOpen()
				open, typ = pos, t
			}
			ents = append(ents, GoldEntity{Type: t, Start: open, End: pos + 1})
			open = -1
		case 'S':
			closeOpen()
			ents = append(ents, GoldEntity{Type: t, Start: pos, End: pos + 1})
		default:
			closeOpen()
		}
		text = append(text, char)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	flush()
	return out, nil
}

// splitTokenLine splits "CHAR TAG" at its last tab or space. The character
// may itself be a space ("  O"); a lone character is tagged O.
func splitTokenLine(s string) (rune, string, bool) {
	i := strings.LastIndexAny(s, "\t ")
	if i < 0 {
		if utf8.RuneCountInString(s) == 1 {
			r, _ := utf8.DecodeRuneInString(s)
			return r, "O", true
		}
		return 0, "", false
	}
	tag := s[i+1:]
	char := strings.TrimRightFunc(s[:i], unicode.IsSpace)
	if char == "" {
		// Only whitespace before the tag: the character is a space.
		char = s[:i]
		if char == "" {
			char = " "
		}
		r, _ := utf8.DecodeRuneInString(char)
		return r, tag, true
	}
	if utf8.RuneCountInString(char) != 1 {
		return 0, "", false
	}
	r, _ := utf8.DecodeRuneInString(char)
	return r, tag, true
}

// splitTag reads B-PER, I_LOC, S-OFI …; anything unreadable is O.
func splitTag(tag string) (byte, string) {
	if len(tag) < 3 || (tag[1] != '-' && tag[1] != '_') {
		return 'O', ""
	}
	t := tag[2:]
	switch p := tag[0] | 0x20; p { // lower-case ASCII
	case 'b':
		return 'B', t
	case 'i', 'm':
		return 'I', t
	case 'e':
		return 'E', t
	case 's':
		return 'S', t
	}
	return 'O', ""
}

type chisiecRecord struct {
	Tokens   string `json:"tokens"`
	Entities []struct {
		Type  string `json:"type"`
		Start int    `json:"start"`
		End   int    `json:"end"`
	} `json:"entities"`
	Relations []struct {
		Type string `json:"type"`
		Head int    `json:"head"`
		Tail int    `json:"tail"`
	} `json:"relations"`
	OrigID *int `json:"orig_id"`
}

// ParseCHisIECRE reads a re_coling JSON list (name is for messages). Entity text is taken from
// tokens by offset, not from span, which may be in traditional characters.
func ParseCHisIECRE(r io.Reader, name string) ([]Example, error) {
	var recs []chisiecRecord
	if err := json.NewDecoder(r).Decode(&recs); err != nil {
		return nil, fmt.Errorf("decode JSON: %w", err)
	}
	out := make([]Example, 0, len(recs))
	for i, rec := range recs {
		id := fmt.Sprintf("%s[%d]", name, i)
		if rec.OrigID != nil {
			id += fmt.Sprintf(" orig_id=%d", *rec.OrigID)
		}
		runes := []rune(rec.Tokens)
		ex := Example{ID: id, Text: rec.Tokens}
		for j, e := range rec.Entities {
			if e.Start < 0 || e.End > len(runes) || e.Start >= e.End {
				return nil, fmt.Errorf("%s: entity %d has span [%d,%d) outside its %d characters", id, j, e.Start, e.End, len(runes))
			}
			ex.Entities = append(ex.Entities, GoldEntity{Text: string(runes[e.Start:e.End]), Type: e.Type, Start: e.Start, End: e.End})
		}
		for j, rel := range rec.Relations {
			if rel.Head < 0 || rel.Head >= len(ex.Entities) || rel.Tail < 0 || rel.Tail >= len(ex.Entities) {
				return nil, fmt.Errorf("%s: relation %d points at entity %d→%d of %d", id, j, rel.Head, rel.Tail, len(ex.Entities))
			}
			ex.Triples = append(ex.Triples, GoldTriple{Head: ex.Entities[rel.Head], Relation: rel.Type, Tail: ex.Entities[rel.Tail]})
		}
		out = append(out, ex)
	}
	return out, nil
}

type cclueSPO struct {
	Predicate   string `json:"predicate"`
	Subject     string `json:"subject"`
	Object      string `json:"object"`
	SubjectType string `json:"subject_type"`
	ObjectType  string `json:"object_type"`
}

// parseCCLUE reads C-CLUE JSON lines and groups them by text, in order of
// first appearance, dropping repeated identical triples. spo_list is one
// object in the published files; a list is accepted too.
func parseCCLUE(r io.Reader, name string) ([]Example, error) {
	var out []Example
	byText := map[string]int{}
	seen := map[string]map[cclueSPO]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var rec struct {
			Text    string          `json:"text"`
			SPOList json.RawMessage `json:"spo_list"`
		}
		if err := json.Unmarshal(b, &rec); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		var spos []cclueSPO
		switch raw := bytes.TrimSpace(rec.SPOList); {
		case len(raw) == 0 || string(raw) == "null":
		case raw[0] == '[':
			if err := json.Unmarshal(raw, &spos); err != nil {
				return nil, fmt.Errorf("%s:%d: spo_list: %w", name, line, err)
			}
		default:
			var one cclueSPO
			if err := json.Unmarshal(raw, &one); err != nil {
				return nil, fmt.Errorf("%s:%d: spo_list: %w", name, line, err)
			}
			spos = []cclueSPO{one}
		}
		k, ok := byText[rec.Text]
		if !ok {
			k = len(out)
			byText[rec.Text] = k
			seen[rec.Text] = map[cclueSPO]bool{}
			out = append(out, Example{ID: fmt.Sprintf("%s:%d", name, line), Text: rec.Text})
		}
		for _, s := range spos {
			if s.Predicate == "" || seen[rec.Text][s] {
				continue
			}
			seen[rec.Text][s] = true
			out[k].Triples = append(out[k].Triples, GoldTriple{
				Head:     GoldEntity{Text: s.Subject, Type: s.SubjectType, Start: -1, End: -1},
				Relation: s.Predicate,
				Tail:     GoldEntity{Text: s.Object, Type: s.ObjectType, Start: -1, End: -1},
			})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	return out, nil
}
