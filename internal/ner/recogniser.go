package ner

import (
	"bytes"
	"fmt"
	"os"

	"github.com/annals-project/annals/internal/docstats"
	"github.com/annals-project/annals/internal/extract/pattern/zh"
	"github.com/annals-project/annals/internal/modelfile"
)

// Recogniser lets the offline rules defer to a tagger for the names of
// each sentence (zh.Recogniser).
type Recogniser struct {
	Tagger *Tagger
	// Digest names the model in extractor versions, so that a new model
	// re-extracts a workspace.
	Digest string
}

// NewRecogniser wraps a tagger loaded from the model bytes data.
func NewRecogniser(t *Tagger, data []byte) Recogniser {
	return Recogniser{Tagger: t, Digest: modelfile.Digest(data)}
}

// LoadRecogniser reads a model file written by annals train ner.
func LoadRecogniser(path string) (Recogniser, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Recogniser{}, fmt.Errorf("read the name model: %w", err)
	}
	t, _, err := Load(bytes.NewReader(data))
	if err != nil {
		return Recogniser{}, fmt.Errorf("%s: %w", path, err)
	}
	return NewRecogniser(t, data), nil
}

// Version implements zh.Recogniser.
func (r Recogniser) Version() string { return "ner-" + r.Digest }

// Recognise implements zh.Recogniser.
// The names it finds join found, as the sentence after the last read.
func (r Recogniser) Recognise(sentence []rune, hints []zh.Mention, known map[string]string, use *docstats.Stats, found *docstats.Found) []zh.Mention {
	hs := make([]Span, len(hints))
	for i, h := range hints {
		hs[i] = Span{h.Start, h.End, h.Type}
	}
	got := r.Tagger.TagNext(sentence, Context{Hints: hs, Names: Names(known), Use: use, Found: found})
	out := make([]zh.Mention, len(got))
	for i, f := range got {
		out[i] = zh.Mention{Start: f.Start, End: f.End, Type: f.Type}
	}
	return out
}
