// Command sample draws the sentences to annotate from the First Four
// Histories, deterministically: every sentence of the chosen books is
// numbered within its chapter, sentences of a useful length are ordered by
// a hash of their ID, and the first N are written in batches, so that each
// batch spreads over the books and chapters and a larger N only adds.
//
//	go run ./internal/ner/sample -corpus ../shared/data/first-four-histories -n 3000 -out internal/ner/annotations/todo
//	go run ./internal/ner/sample -books 史记 -n 300 -out internal/ner/annotations/todo-test
//
// With -chapters, only chapters whose path holds one of the given words are
// drawn from, and -exclude leaves out every sentence already annotated in a
// folder, so that a book's thinner subjects can be drawn on purpose:
//
//	go run ./internal/ner/sample -chapters 五行志,古今人表 -exclude internal/ner/annotations -first 208 -n 4800
package main

import (
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/ner"
)

func main() {
	corpus := flag.String("corpus", "../shared/data/first-four-histories", "the corpus folder (BOOK/…/CHAPTER/text.txt)")
	books := flag.String("books", "汉书,后汉书,三国志", "books to draw from, comma-separated (史记 is kept for testing)")
	n := flag.Int("n", 3000, "sentences to draw")
	size := flag.Int("batch", 200, "sentences per batch file")
	skip := flag.Int("skip", 0, "sentences to leave out at the start of the order (drawn before)")
	chapters := flag.String("chapters", "", "draw only from chapters whose path holds one of these words, comma-separated (default: all)")
	exclude := flag.String("exclude", "", "a folder of batch-*.txt files whose sentences are not drawn again")
	first := flag.Int("first", 0, "number of the first batch file (default: after the skipped sentences)")
	out := flag.String("out", "internal/ner/annotations/todo", "folder for the batch files")
	flag.Parse()

	type sentence struct {
		id, text string
		key      uint64
	}
	drawn, err := annotatedIDs(*exclude)
	if err != nil {
		log.Fatal(err)
	}
	var all []sentence
	for _, book := range strings.Split(*books, ",") {
		root := filepath.Join(*corpus, book)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Name() != "text.txt" {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(*corpus, filepath.Dir(path))
			if !among(filepath.ToSlash(rel), *chapters) {
				return nil
			}
			for i, p := range ner.Split(string(b)) {
				s := p.Text
				id := fmt.Sprintf("%s:%d", filepath.ToSlash(rel), i)
				if !usable(s) || drawn[id] {
					continue
				}
				sum := sha256.Sum256([]byte(id))
				all = append(all, sentence{id, s, binary.BigEndian.Uint64(sum[:8])})
			}
			return nil
		})
		if err != nil {
			log.Fatalf("read %s: %v", root, err)
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].key < all[j].key })
	if *skip > len(all) {
		*skip = len(all)
	}
	all = all[*skip:min(len(all), *skip+*n)]
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	number := 1 + *skip/(*size)
	if *first > 0 {
		number = *first
	}
	for b := 0; b*(*size) < len(all); b++ {
		part := all[b**size : min(len(all), (b+1)**size)]
		var sb strings.Builder
		for _, s := range part {
			fmt.Fprintf(&sb, "%s\t%s\n", s.id, s.text)
		}
		name := filepath.Join(*out, fmt.Sprintf("batch-%02d.txt", number+b))
		if err := os.WriteFile(name, []byte(sb.String()), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Printf("%d sentences in %s\n", len(all), *out)
}

// among says whether a chapter's path holds one of the comma-separated
// words (any chapter when there are none).
func among(path, words string) bool {
	if words == "" {
		return true
	}
	for _, w := range strings.Split(words, ",") {
		if w != "" && strings.Contains(path, w) {
			return true
		}
	}
	return false
}

// annotatedIDs are the IDs of the sentences in a folder's batch files.
func annotatedIDs(dir string) (map[string]bool, error) {
	ids := map[string]bool{}
	if dir == "" {
		return ids, nil
	}
	files, err := filepath.Glob(filepath.Join(dir, "batch-*.txt"))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		ss, err := ner.ReadAnnotationFile(f)
		if err != nil {
			return nil, fmt.Errorf("read drawn sentences: %w", err)
		}
		for _, s := range ss {
			ids[s.ID] = true
		}
	}
	return ids, nil
}

// usable keeps sentences long enough to hold a name and short enough to
// annotate with care, and none holding the format's own marks.
func usable(s string) bool {
	n := utf8.RuneCountInString(s)
	return n >= 8 && n <= 90 && !strings.ContainsAny(s, "[]|\t")
}
