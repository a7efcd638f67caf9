package relclass

import (
	"errors"
	"fmt"
	"github.com/annals-project/annals/internal/featurehash"
	"io"
	"os"

	"github.com/annals-project/annals/internal/modelfile"
	"github.com/annals-project/annals/internal/schema"
)

// The model file (modelfile): after the header, each feature in the
// order of its hash: the hash, the number of its weights and each as
// (label, weight).
const modelMagic = "annals-rel 1\n"

// ModelInfo says what a model file holds.
type ModelInfo struct {
	Types     []string `json:"types"`
	Relations []string `json:"relations"`
	Features  int      `json:"features"`
	// Trained says on what, for whoever reads the model later.
	Trained string `json:"trained,omitempty"`
}

// Save writes the classifier; trained says what it was trained on.
func (c *Classifier) Save(w io.Writer, trained string) error {
	mw, err := modelfile.Create(w, modelMagic, ModelInfo{Types: c.Types, Relations: c.Relations, Features: c.weights.Len(), Trained: trained})
	if err != nil {
		return err
	}
	c.weights.Write(mw)
	return mw.Close()
}

// SaveFile writes the classifier to path.
func (c *Classifier) SaveFile(path, trained string) error {
	return modelfile.WriteFile(path, "relation model", func(w io.Writer) error { return c.Save(w, trained) })
}

// Load reads a model; sch bounds which relations may join which types.
func Load(r io.Reader, sch *schema.Schema) (*Classifier, ModelInfo, error) {
	var info ModelInfo
	br, err := modelfile.Open(r, modelMagic, "relation model", &info)
	if err != nil {
		return nil, info, err
	}
	if len(info.Types) == 0 || len(info.Relations) == 0 || len(info.Relations) > 1000 || info.Features < 0 || info.Features > 1<<26 {
		return nil, info, errors.New("model header: implausible types, relations or feature count")
	}
	for _, rel := range info.Relations {
		if sch.Relation(rel) == nil {
			return nil, info, fmt.Errorf("model relation %q is not in schema %s", rel, sch.Name)
		}
	}
	c := &Classifier{Types: info.Types, Relations: info.Relations}
	if c.weights, err = featurehash.ReadSparse(br, info.Features, c.labels()); err != nil {
		return nil, info, err
	}
	if err := br.End(); err != nil {
		return nil, info, err
	}
	c.buildAllow(sch)
	return c, info, nil
}

// LoadFile reads a model file.
func LoadFile(path string, sch *schema.Schema) (*Classifier, ModelInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, ModelInfo{}, err
	}
	defer f.Close()
	c, info, err := Load(f, sch)
	if err != nil {
		return nil, info, fmt.Errorf("%s: %w", path, err)
	}
	return c, info, nil
}
