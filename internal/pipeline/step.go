package pipeline

import (
	"context"
	"fmt"

	"github.com/annals-project/annals/internal/corpus"
	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// Step is one named step of indexing. It is a DocStep or a CorpusStep.
type Step interface {
	Name() string
}

// DocStep works on one document while it is in memory. What it makes is
// written with the document, in the same transaction, and the version that
// made it is recorded for the document: a step runs again on a document
// only when its version changed, the text changed, or a step it reads from
// ran again.
type DocStep interface {
	Step
	// Version is the step's version for documents in lang (the extract
	// step's depends on the language's rules).
	Version(lang string) string
	// Inputs are the steps whose output Do reads.
	Inputs() []string
	// Do works out the step's part of the document.
	Do(ctx context.Context, w *Work) error
	// Write puts that part into the document's write. It is called where
	// the step ran again, not where it was only worked out for a later
	// step to read.
	Write(w *Work, dw *store.DocWrite)
}

// CorpusStep works over the whole corpus once every document is written:
// what needs all documents at once (alignment) or comes after it (dating).
// It keeps its own record of what is current, so that an unchanged corpus
// costs it a query or two.
type CorpusStep interface {
	Step
	Version() string
	Run(ctx context.Context, r *Run) error
}

// Run is what corpus steps share: the run's report, which each fills in.
type Run struct {
	Report *Report
}

// Work is one document passing through the document steps. The runner
// fills Source, Hash, Lang and Stored; each step adds its part.
type Work struct {
	Source corpus.Doc
	Hash   string // SHA-256 of the text: the document's version
	Lang   string
	Stored *store.DocState // what the store holds of it; nil when new

	// Doc is the document as stored, from ingest.
	Doc kg.Document
	// Chunks, from chunk, hold offsets into the normalised text until the
	// document is written, when the runner maps them to the original.
	Chunks []kg.Chunk
	// Found, from extract, is what each chunk holds, in document offsets of
	// the original text.
	Found []extract.Result
	// Terms, from lexical, are the chunks' search terms.
	Terms []store.ChunkTerms

	text []rune // the original text, once asked for
}

// runes is the original text as code points.
func (w *Work) runes() []rune {
	if w.text == nil {
		w.text = []rune(w.Source.Text)
	}
	return w.text
}

// orig maps an offset into the normalised text to the original.
func (w *Work) orig(off int) int { return text.OrigOffset(w.Doc.OffsetMap, off) }

// plan says which document steps run on a document: a step runs again when
// the text changed, its own version changed, or a step it reads from ran;
// it is also worked out, without being written, when a step that runs
// reads from it.
type plan struct {
	versions map[string]string // every document step's current version
	rerun    map[string]bool
	compute  map[string]bool
}

func planFor(steps []DocStep, w *Work) plan {
	p := plan{versions: map[string]string{}, rerun: map[string]bool{}, compute: map[string]bool{}}
	changed := w.Stored == nil || w.Stored.Version != w.Hash
	for _, s := range steps {
		v := s.Version(w.Lang)
		p.versions[s.Name()] = v
		run := changed || w.Stored.Steps[s.Name()] != v
		for _, in := range s.Inputs() {
			run = run || p.rerun[in]
		}
		p.rerun[s.Name()] = run
	}
	for i := len(steps) - 1; i >= 0; i-- {
		s := steps[i]
		if p.rerun[s.Name()] || p.compute[s.Name()] {
			p.compute[s.Name()] = true
			for _, in := range s.Inputs() {
				p.compute[in] = true
			}
		}
	}
	return p
}

// any reports whether some step runs again on the document.
func (p plan) any() bool {
	for _, r := range p.rerun {
		if r {
			return true
		}
	}
	return false
}

// split parts a list of steps into the document steps, which come first,
// and the corpus steps after them, checking that each document step's
// inputs come before it.
func split(steps []Step) ([]DocStep, []CorpusStep, error) {
	var docs []DocStep
	var corpus []CorpusStep
	seen := map[string]bool{}
	for _, s := range steps {
		if seen[s.Name()] {
			return nil, nil, fmt.Errorf("pipeline: step %s twice", s.Name())
		}
		seen[s.Name()] = true
		switch s := s.(type) {
		case DocStep:
			if len(corpus) > 0 {
				return nil, nil, fmt.Errorf("pipeline: document step %s after corpus step %s", s.Name(), corpus[len(corpus)-1].Name())
			}
			for _, in := range s.Inputs() {
				if !seen[in] || in == s.Name() {
					return nil, nil, fmt.Errorf("pipeline: step %s reads from %s, which does not come before it", s.Name(), in)
				}
			}
			docs = append(docs, s)
		case CorpusStep:
			corpus = append(corpus, s)
		default:
			return nil, nil, fmt.Errorf("pipeline: step %s is neither a document nor a corpus step", s.Name())
		}
	}
	return docs, corpus, nil
}
