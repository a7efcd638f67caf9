// Command gen writes the Chinese question set drawn from the openings of
// the biographies of 汉书, 后汉书 and 三国志 (X字Y，Z人也。父W，…): for each
// person, what their courtesy name is, where they came from and who their
// father was. The answers are what the opening itself states, so a question
// is answerable from the First Four Histories by construction. Beside it,
// it writes every opening as a profile (name, 字, native place) for
// `annals eval bio`. Both are deterministic: the same texts always give the
// same files.
//
//	go run ./internal/eval/qa/devset/gen [-data ../shared/data/first-four-histories] [-out internal/eval/qa/devset/openings.jsonl] [-profiles internal/bio/openings.jsonl]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// perKind bounds the questions of each kind, taken evenly over the books.
const perKind = 120

var (
	// An opening: name, courtesy name, native place, and what follows.
	opening = regexp.MustCompile(`(?:^|[。\n])([^，。、：\s]{2,4})字([^，。、：\s]{1,3})，([^，。、：\s]{2,9})人也。([^。]{0,40})`)
	// 父W，… right after the opening names the father.
	father = regexp.MustCompile(`^父([^，。、：为号世以事时亦早本故]{1,2})[，。]`)
)

// compound surnames, so that 诸葛瑾's father 珪 is asked as 诸葛珪.
var compound = []string{"诸葛", "毌丘", "司马", "欧阳", "淳于", "夏侯", "皇甫", "公孙", "上官", "东方", "长孙", "令狐", "钟离", "太史", "第五", "申屠", "司徒", "公羊", "羊舌", "尉迟", "宇文", "慕容", "单于", "濮阳", "伏羲"}

// profile is what an opening states of a person.
type profile struct {
	Name        string `json:"name"`
	Zi          string `json:"zi"`
	NativePlace string `json:"native_place"`
	Source      string `json:"source"`
}

type question struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Answer   string   `json:"answer"`
	Aliases  []string `json:"aliases,omitempty"`
	Type     string   `json:"type"`
	Source   string   `json:"source"`
}

func main() {
	data := flag.String("data", "../shared/data/first-four-histories", "the First Four Histories")
	out := flag.String("out", "internal/eval/qa/devset/openings.jsonl", "where to write the questions")
	profiles := flag.String("profiles", "internal/bio/openings.jsonl", "where to write the profiles")
	flag.Parse()
	qs, ps, err := generate(*data)
	if err == nil {
		err = writeLines(*out, qs)
	}
	if err == nil {
		err = writeLines(*profiles, ps)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	fmt.Printf("%d questions written to %s, %d profiles to %s\n", len(qs), *out, len(ps), *profiles)
}

// writeLines writes one JSON object a line.
func writeLines[T any](path string, rows []T) error {
	var b strings.Builder
	for _, r := range rows {
		line, _ := json.Marshal(r)
		b.Write(line)
		b.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func generate(root string) ([]question, []profile, error) {
	byKind := map[string][]question{}
	var profiles []profile
	seen := map[string]bool{}
	for _, book := range []string{"汉书", "后汉书", "三国志"} {
		var files []string
		err := filepath.WalkDir(filepath.Join(root, book), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && d.Name() == "text.txt" {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			return nil, nil, fmt.Errorf("read %s: %w", book, err)
		}
		slices.Sort(files)
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				return nil, nil, err
			}
			rel, _ := filepath.Rel(root, filepath.Dir(f))
			for _, m := range opening.FindAllStringSubmatch(string(raw), -1) {
				name, zi, place, rest := m[1], m[2], m[3], m[4]
				if seen[name] || strings.HasPrefix(place, "其先") || strings.ContainsAny(name, "之其为时") {
					continue
				}
				seen[name] = true
				place = strings.TrimPrefix(strings.TrimPrefix(place, "本"), "故")
				src := filepath.ToSlash(rel)
				profiles = append(profiles, profile{Name: name, Zi: zi, NativePlace: place, Source: src})
				add := func(kind, q, a string, aliases ...string) {
					byKind[kind] = append(byKind[kind], question{Question: q, Answer: a, Aliases: aliases, Type: kind, Source: src})
				}
				add("字", name+"字什么？", zi)
				add("籍贯", name+"是哪里人？", place)
				if f := father.FindStringSubmatch(rest); f != nil {
					w := f[1]
					var aliases []string
					if len([]rune(w)) > 1 {
						aliases = []string{w}
					}
					add("父", name+"的父亲是谁？", surname(name)+w, aliases...)
				}
			}
		}
	}
	var out []question
	for _, kind := range []string{"字", "籍贯", "父"} {
		all := byKind[kind]
		step := max(1, (len(all)+perKind-1)/perKind)
		for i := 0; i < len(all); i += step {
			q := all[i]
			q.ID = fmt.Sprintf("%s-%03d", kind, i)
			out = append(out, q)
		}
	}
	return out, profiles, nil
}

// surname is a name's family name: a compound one when it starts with one.
func surname(name string) string {
	for _, c := range compound {
		if strings.HasPrefix(name, c) && len([]rune(name)) > 2 {
			return c
		}
	}
	return string([]rune(name)[:1])
}
