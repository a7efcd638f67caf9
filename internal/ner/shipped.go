package ner

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// HeldOut says whether an annotated sentence is kept out of training for
// testing: one in ten, by its ID, so the split never changes as files grow.
// The hash is salted: the draw orders sentences by the plain hash of their
// ID, and the held-out tenth must not be the first batches.
func HeldOut(id string) bool {
	sum := sha256.Sum256([]byte("held out\x00" + id))
	return binary.BigEndian.Uint32(sum[:4])%10 == 0
}

// Recipe is how the shipped model is trained: on the project's own
// annotations (dir/batch-*.txt) but their held-out tenth, with the rules'
// names and the use of characters read in each sentence's chapter of the
// corpus, and the names annotated elsewhere, as features.
type Recipe struct {
	Annotations string // the folder of batch-*.txt
	Corpus      string // the First Four Histories, BOOK/…/CHAPTER/text.txt
}

// Read reads the annotations, with the rules' names read in each
// sentence's chapter, split into those trained on and the held-out tenth.
func (r Recipe) Read() (train, held []Sentence, err error) {
	files, err := filepath.Glob(filepath.Join(r.Annotations, "batch-*.txt"))
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(files)
	var all []Sentence
	for _, p := range files {
		ss, err := ReadAnnotationFile(p)
		if err != nil {
			return nil, nil, err
		}
		all = append(all, ss...)
	}
	if len(all) == 0 {
		return nil, nil, fmt.Errorf("no annotated sentences in %s", r.Annotations)
	}
	found, err := AddHints(all, r.Corpus)
	if err != nil {
		return nil, nil, err
	}
	if found < len(all) {
		return nil, nil, fmt.Errorf("only %d of %d annotated sentences are in their chapters under %s: is it the First Four Histories?", found, len(all), r.Corpus)
	}
	for _, s := range all {
		if HeldOut(s.ID) {
			held = append(held, s)
		} else {
			train = append(train, s)
		}
	}
	return train, held, nil
}

// Train trains the model the recipe describes, with character classes
// learned from the whole corpus; the same files give the same model, byte
// for byte. It says what it trained on.
func (r Recipe) Train() (*Tagger, string, error) {
	train, held, err := r.Read()
	if err != nil {
		return nil, "", err
	}
	texts, err := chapters(r.Corpus)
	if err != nil {
		return nil, "", err
	}
	clusters := LearnClusters(texts, ClusterOptions{})
	t := Train(train, Types, TrainOptions{Seed: 1, Rules: true, Clusters: clusters, Known: true, DocUse: true})
	what := fmt.Sprintf("the project's annotations of 汉书, 后汉书 and 三国志: %d sentences (%d held out), rules and character use read in their chapters, the names they mark known; character classes from the %d chapters of the corpus", len(train), len(held), len(texts))
	return t, what, nil
}

// chapters reads every chapter (text.txt) under root, in path order.
func chapters(root string) ([]string, error) {
	var texts []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || d.Name() != "text.txt" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		texts = append(texts, string(b))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the corpus for character classes: %w", err)
	}
	if len(texts) == 0 {
		return nil, fmt.Errorf("no chapters (text.txt) under %s", root)
	}
	return texts, nil
}
