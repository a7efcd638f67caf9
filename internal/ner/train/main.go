// Command train trains the name model annals ships, from the project's
// annotations and the First Four Histories, and writes it where the binary
// embeds it. The same files give the same model, byte for byte; a test
// checks that the embedded model is what this command writes.
//
//	go run ./internal/ner/train -corpus ../shared/data/first-four-histories
package main

import (
	"flag"
	"fmt"
	"log"

	"github.com/annals-project/annals/internal/ner"
)

func main() {
	corpus := flag.String("corpus", "../shared/data/first-four-histories", "the First Four Histories (BOOK/…/CHAPTER/text.txt)")
	annotations := flag.String("annotations", "internal/ner/annotations", "the folder of annotated batch-*.txt files")
	out := flag.String("out", "internal/ner/shipped/annals.ner", "where to write the model")
	flag.Parse()
	t, what, err := ner.Recipe{Annotations: *annotations, Corpus: *corpus}.Train()
	if err != nil {
		log.Fatal(err)
	}
	if err := t.SaveFile(*out, what); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d features; trained on %s\n", *out, t.Features(), what)
}
