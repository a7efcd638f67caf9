// Package shipped is the name model annals embeds: trained on the
// project's own annotations of the First Four Histories (MIT) by
// `go run ./internal/ner/train`, never on data whose licence does not let
// us redistribute what is learned from it.
package shipped

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/annals-project/annals/internal/ner"
)

//go:embed annals.ner
var model []byte

// Bytes is the embedded model file.
func Bytes() []byte { return model }

var load = sync.OnceValues(func() (ner.Recogniser, error) {
	t, _, err := ner.Load(bytes.NewReader(model))
	if err != nil {
		return ner.Recogniser{}, fmt.Errorf("the embedded name model: %w", err)
	}
	return ner.NewRecogniser(t, model), nil
})

// Recogniser is the embedded model, loaded once.
func Recogniser() (ner.Recogniser, error) { return load() }
