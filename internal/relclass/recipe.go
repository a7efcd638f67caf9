package relclass

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/annals-project/annals/internal/ner"
	"github.com/annals-project/annals/internal/schema"
)

// FromSentence is an annotated sentence as a training example.
func FromSentence(s ner.Sentence) Example {
	ex := Example{Text: s.Runes()}
	for _, n := range s.Names {
		ex.Names = append(ex.Names, Name{n.Start, n.End, n.Type})
	}
	for _, r := range s.Relations {
		ex.Links = append(ex.Links, Link{r.Head, r.Tail, r.Type})
	}
	return ex
}

// ReadAnnotations reads the sentences whose relations are annotated in
// dir/batch-*.txt, split into those trained on and the tenth held out
// (ner.HeldOut, the split the name model keeps).
func ReadAnnotations(dir string) (train, held []Example, err error) {
	files, err := filepath.Glob(filepath.Join(dir, "batch-*.txt"))
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(files)
	for _, p := range files {
		ss, err := ner.ReadAnnotationFile(p)
		if err != nil {
			return nil, nil, err
		}
		for _, s := range ss {
			if !s.HasRelations {
				continue
			}
			if ner.HeldOut(s.ID) {
				held = append(held, FromSentence(s))
			} else {
				train = append(train, FromSentence(s))
			}
		}
	}
	if len(train) == 0 {
		return nil, nil, fmt.Errorf("no sentences with annotated relations in %s", dir)
	}
	return train, held, nil
}

// TrainShipped trains the model annals ships from the annotations in dir;
// the same files give the same model, byte for byte. It says what it
// trained on.
func TrainShipped(dir string) (*Classifier, string, error) {
	train, held, err := ReadAnnotations(dir)
	if err != nil {
		return nil, "", err
	}
	c := Train(train, ner.Types, schema.MustLoad(schema.ZhHistory), TrainOptions{Seed: 1})
	links := 0
	for _, ex := range train {
		links += len(ex.Links)
	}
	what := fmt.Sprintf("the project's annotated relations of 汉书, 后汉书 and 三国志: %d sentences, %d relations (%d sentences held out)", len(train), links, len(held))
	return c, what, nil
}

// Evaluate scores c on examples, reading each with its annotated names:
// a relation found is right with the annotation's ends, direction and
// type.
func Evaluate(c *Classifier, examples []Example, sch *schema.Schema) *ner.Score {
	s := &ner.Score{}
	for _, ex := range examples {
		gold := map[Link]bool{}
		for _, l := range ex.Links {
			gold[canon(l, sch)] = true
		}
		s.Gold += len(gold)
		found := map[Link]bool{}
		for _, l := range c.Relate(ex.Text, ex.Names) {
			found[canon(l, sch)] = true
		}
		s.Found += len(found)
		for l := range found {
			if gold[l] {
				s.Right++
			}
		}
	}
	return s
}

// canon puts a symmetric relation's ends in order.
func canon(l Link, sch *schema.Schema) Link {
	if rt := sch.Relation(l.Type); rt != nil && rt.Symmetric && l.Tail < l.Head {
		l.Head, l.Tail = l.Tail, l.Head
	}
	return l
}
