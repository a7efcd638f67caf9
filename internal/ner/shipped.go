package ner

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// HeldOut says whether an annotated sentence is kept out of training for
// testing: one in ten, by its ID, so the split never changes as files grow.
// The hash is salted: the draw orders sentences by the plain hash of their
// ID, and the held-out tenth must not be the first batches.
func HeldOut(id string) bool { return draw("held out", id, 10) == 0 }

// draw puts key in one of n parts, by a hash salted with what the draw is
// for: the same key always lands in the same part, and draws for
// different ends do not line up.
func draw(salt, key string, n uint32) uint32 {
	sum := sha256.Sum256([]byte(salt + "\x00" + key))
	return binary.BigEndian.Uint32(sum[:4]) % n
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
	opts := TrainOptions{Seed: 1, Rules: true, Clusters: clusters, Known: true, DocUse: true}
	foundBefore(train, opts)
	opts.Found = true
	t := Train(train, Types, opts)
	what := fmt.Sprintf("the project's annotations of 汉书, 后汉书 and 三国志: %d sentences (%d held out), rules and character use read in their chapters, the names found before them in their chapters by models that never saw those chapters, the names they mark known; character classes from the %d chapters of the corpus", len(train), len(held), len(texts))
	return t, what, nil
}

// foundFolds is how many parts foundBefore cuts the chapters into.
const foundFolds = 5

// foundBefore gives each sentence the names found before it in its
// chapter by a model trained, with opts, on the sentences of the other
// chapters only: a model that had learned the chapter would find its
// names better than any model finds them in a chapter it reads for the
// first time, and the model trained on these would trust them too much.
func foundBefore(sentences []Sentence, opts TrainOptions) {
	fold := func(s Sentence) int {
		path, _, _ := strings.Cut(s.ID, ":")
		return int(draw("found before", path, foundFolds))
	}
	for f := range foundFolds {
		var rest, in []Sentence
		var at []int
		for i, s := range sentences {
			if fold(s) == f {
				in, at = append(in, s), append(at, i)
			} else {
				rest = append(rest, s)
			}
		}
		Train(rest, Types, opts).ReadChapters(in)
		for j, i := range at {
			if !withoutFound(sentences[i].ID) {
				sentences[i].Found = in[j].Found
			}
		}
	}
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

// withoutFound says whether a sentence is trained on without the names
// found before it (one in three, by its ID): a model that always had them
// learns to doubt every name not found before, and reads a short passage,
// where few are, worse than a model that never had them.
func withoutFound(id string) bool { return draw("without found", id, 3) == 0 }
