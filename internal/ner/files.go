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
	ss, _, err := ReadFileFormat(path)
	return ss, err
}

// ReadFileFormat is ReadFile, saying also whether the file was CoNLL: a
// CoNLL file follows CHisIEC's conventions, not annals's (AsCHisIEC).
func ReadFileFormat(path string) (ss []Sentence, conll bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	for {
		line, _ := br.Peek(4096)
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
		break
	}
	if conll {
		ss, err = ReadCoNLL(br, CoNLLTypes)
	} else {
		ss, err = ReadAnnotations(br)
	}
	if err != nil {
		return nil, conll, fmt.Errorf("%s: %w", path, err)
	}
	return ss, conll, nil
}
