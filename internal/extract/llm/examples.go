package llmextract

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
)

// Prompt variants (seed 000 compares them): the model sees worked
// examples of the five steps before the text, or none.
const (
	// OneShot shows one worked example: the default.
	OneShot = 1
	// FiveShot shows five, of kin, offices, titles, places, attacks, and
	// of a relation the schema cannot state left out.
	FiveShot = 5
	// ZeroShot shows none: the steps alone (zero-shot chain of thought).
	ZeroShot = -1
)

// example is a worked example: a text and the reply its five steps give.
type example struct {
	Text  string          `json:"text"`
	Reply json.RawMessage `json:"reply"`
}

// shownExample is an example as a template prints it.
type shownExample struct{ Text, Reply string }

var (
	examplesOnce sync.Once
	examplesBy   map[string][]example
	examplesHash string
	examplesErr  error
)

// loadExamples reads the built-in examples of every language once.
func loadExamples() (map[string][]example, string, error) {
	examplesOnce.Do(func() {
		examplesBy = map[string][]example{}
		h := sha256.New()
		for _, l := range promptLangs {
			data, err := builtin.ReadFile("prompts/examples-" + l + ".jsonl")
			if err != nil {
				examplesErr = err
				return
			}
			h.Write(data)
			sc := bufio.NewScanner(bytes.NewReader(data))
			for line := 1; sc.Scan(); line++ {
				var ex example
				if err := json.Unmarshal(sc.Bytes(), &ex); err != nil {
					examplesErr = fmt.Errorf("examples-%s.jsonl line %d: %w", l, line, err)
					return
				}
				examplesBy[l] = append(examplesBy[l], ex)
			}
		}
		examplesHash = hex.EncodeToString(h.Sum(nil))[:12]
	})
	return examplesBy, examplesHash, examplesErr
}

// shown are the examples a prompt of lang shows under shots, each reply
// written compactly, with the empty new_types a growing schema asks for.
func shown(lang string, shots int, growth bool) ([]shownExample, error) {
	if shots == ZeroShot {
		return nil, nil
	}
	if shots == 0 {
		shots = OneShot
	}
	all, _, err := loadExamples()
	if err != nil {
		return nil, err
	}
	exs := all[promptLang(lang)]
	out := make([]shownExample, 0, min(shots, len(exs)))
	for _, ex := range exs[:min(shots, len(exs))] {
		var b bytes.Buffer
		if err := json.Compact(&b, ex.Reply); err != nil {
			return nil, err
		}
		reply := b.String()
		if growth {
			reply = reply[:len(reply)-1] + `,"new_types":[]}`
		}
		out = append(out, shownExample{Text: ex.Text, Reply: reply})
	}
	return out, nil
}
