package ner

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
)

var conllTag = regexp.MustCompile(`^(O|[BIES]-\S+)$`)

// ReadFile reads training or test sentences from a file of either format:
// CoNLL (a character and its BIOES tag a line, as CHisIEC has it, types
// mapped through CoNLLTypes) or the project's annotation format, told
// apart by the first line that is not blank or a comment.
func ReadFile(path string) ([]Sentence, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	conll := false
	for {
		line, err := br.Peek(4096)
		if len(line) == 0 {
			break
		}
		first, _, _ := strings.Cut(string(line), "\n")
		if strings.TrimSpace(first) == "" || strings.HasPrefix(first, "#") {
			if _, err := br.ReadString('\n'); err != nil {
				break
			}
			continue
		}
		fs := strings.Fields(first)
		conll = len(fs) == 2 && len([]rune(fs[0])) == 1 && conllTag.MatchString(fs[1])
		_ = err
		break
	}
	var ss []Sentence
	if conll {
		ss, err = ReadCoNLL(br, CoNLLTypes)
	} else {
		ss, err = ReadAnnotations(br)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ss, nil
}
