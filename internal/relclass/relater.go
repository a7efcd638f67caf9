package relclass

import (
	"bytes"
	"fmt"
	"os"

	"github.com/annals-project/annals/internal/extract/pattern/zh"
	"github.com/annals-project/annals/internal/modelfile"
	"github.com/annals-project/annals/internal/schema"
)

// Relater lets the offline rules add the classifier's relations
// (zh.Relater).
type Relater struct {
	Classifier *Classifier
	// Digest names the model in extractor versions, so that a new model
	// re-extracts a workspace.
	Digest string
}

// NewRelater wraps a classifier loaded from the model bytes data.
func NewRelater(c *Classifier, data []byte) Relater {
	return Relater{Classifier: c, Digest: modelfile.Digest(data)}
}

// LoadRelater reads a model file written by the trainer.
func LoadRelater(path string) (Relater, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Relater{}, fmt.Errorf("read the relation model: %w", err)
	}
	c, _, err := Load(bytes.NewReader(data), schema.MustLoad(schema.ZhHistory))
	if err != nil {
		return Relater{}, fmt.Errorf("%s: %w", path, err)
	}
	return NewRelater(c, data), nil
}

// Version implements zh.Relater.
func (r Relater) Version() string { return "rel-" + r.Digest }

// Relate implements zh.Relater.
func (r Relater) Relate(sentence []rune, names []zh.Mention) []zh.Link {
	ns := make([]Name, len(names))
	for i, m := range names {
		ns[i] = Name{m.Start, m.End, m.Type}
	}
	links := r.Classifier.Relate(sentence, ns)
	out := make([]zh.Link, len(links))
	for i, l := range links {
		out[i] = zh.Link{Head: l.Head, Tail: l.Tail, Type: l.Type}
	}
	return out
}
