// Command train trains the relation model annals ships, from the
// project's annotated relations, and writes it where the binary embeds
// it. The same files give the same model, byte for byte; a test checks
// that the embedded model is what this command writes. It also scores
// the model on the held-out tenth, with the annotated names.
//
//	go run ./internal/relclass/train
package main

import (
	"flag"
	"fmt"
	"log"

	"github.com/annals-project/annals/internal/relclass"
	"github.com/annals-project/annals/internal/schema"
)

func main() {
	annotations := flag.String("annotations", "internal/ner/annotations", "the folder of annotated batch-*.txt files")
	out := flag.String("out", "internal/relclass/shipped/annals.rel", "where to write the model")
	flag.Parse()
	c, what, err := relclass.TrainShipped(*annotations)
	if err != nil {
		log.Fatal(err)
	}
	if err := c.SaveFile(*out, what); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d features; trained on %s\n", *out, c.Features(), what)
	_, held, err := relclass.ReadAnnotations(*annotations)
	if err != nil {
		log.Fatal(err)
	}
	s := relclass.Evaluate(c, held, schema.MustLoad(schema.ZhHistory))
	fmt.Printf("held out, annotated names: %d relations, %d found, %d right: P %.3f R %.3f F1 %.3f\n", s.Gold, s.Found, s.Right, s.Precision(), s.Recall(), s.F1())
}
