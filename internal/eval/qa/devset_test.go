package qa

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// The project's question sets load, with unique ids, a type and a short
// answer each: a set that cannot be read, or whose gold is a passage,
// measures nothing.
func TestDevSetsAreWellFormed(t *testing.T) {
	files, err := filepath.Glob("devset/*.jsonl")
	if err != nil || len(files) < 3 {
		t.Fatalf("question sets %v, %v: want openings, asked and asked2", files, err)
	}
	for _, f := range files {
		qs, err := Load(f, "")
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		seen := map[string]bool{}
		for _, q := range qs {
			if q.ID == "" || seen[q.ID] || q.Type == "" {
				t.Errorf("%s: question %q has no id, a repeated id or no type", f, q.Question)
			}
			seen[q.ID] = true
			answers := append([]string{q.Answer}, q.Aliases...)
			if q.Type == "global" {
				// A whole-corpus question's answer is a list of names.
				answers = strings.Split(q.Answer, "、")
			}
			for _, a := range answers {
				if n := utf8.RuneCountInString(a); n == 0 || n > 12 {
					t.Errorf("%s %s: answer %q is not a short span", f, q.ID, a)
				}
			}
		}
	}
}
