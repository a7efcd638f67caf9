package resolve

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// ParseDictionary reads an alias dictionary in seed 000's format, one entity
// a line: `主名:别名1,别名2`. Full-width ：，、； separators and traditional
// characters are accepted (names are stored simplified); blank lines and
// lines starting with # are skipped. A malformed line is reported with its
// number and skipped; the others are kept.
func ParseDictionary(r io.Reader, source string) ([]store.AliasFact, []error) {
	var facts []store.AliasFact
	var problems []error
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\uFEFF"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		main, rest, ok := cutAny(line, ":：")
		main = strings.TrimSpace(main)
		if !ok || main == "" {
			problems = append(problems, fmt.Errorf("%s:%d: want 主名:别名1,别名2, got %q", source, lineNo, clip(line)))
			continue
		}
		main, _ = text.ToSimplified(main)
		n := 0
		for _, a := range strings.FieldsFunc(rest, func(r rune) bool { return strings.ContainsRune(",，、;；", r) }) {
			a = strings.TrimSpace(a)
			if a == "" {
				continue
			}
			a, _ = text.ToSimplified(a)
			if a == main {
				continue
			}
			facts = append(facts, store.AliasFact{Main: main, Alias: a, Kind: "dictionary", Source: fmt.Sprintf("dictionary:%s:%d", source, lineNo)})
			n++
		}
		if n == 0 {
			problems = append(problems, fmt.Errorf("%s:%d: %s has no aliases", source, lineNo, main))
		}
	}
	if err := sc.Err(); err != nil {
		problems = append(problems, fmt.Errorf("%s: %w", source, err))
	}
	return facts, problems
}

func cutAny(s, seps string) (before, after string, found bool) {
	if i := strings.IndexAny(s, seps); i >= 0 {
		_, size := firstRune(s[i:])
		return s[:i], s[i+size:], true
	}
	return s, "", false
}

func firstRune(s string) (rune, int) {
	for i, r := range s {
		if i == 0 {
			return r, len(string(r))
		}
	}
	return 0, 0
}

func clip(s string) string {
	r := []rune(s)
	if len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
