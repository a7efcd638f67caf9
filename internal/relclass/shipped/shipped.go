// Package shipped is the relation model annals embeds: trained on the
// project's own annotated relations in the First Four Histories (MIT) by
// `go run ./internal/relclass/train`, never on data whose licence does
// not let us redistribute what is learned from it.
package shipped

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/annals-project/annals/internal/relclass"
	"github.com/annals-project/annals/internal/schema"
)

//go:embed annals.rel
var model []byte

// Bytes is the embedded model file.
func Bytes() []byte { return model }

var load = sync.OnceValues(func() (relclass.Relater, error) {
	c, _, err := relclass.Load(bytes.NewReader(model), schema.MustLoad(schema.ZhHistory))
	if err != nil {
		return relclass.Relater{}, fmt.Errorf("the embedded relation model: %w", err)
	}
	return relclass.NewRelater(c, model), nil
})

// Relater is the embedded model, loaded once.
func Relater() (relclass.Relater, error) { return load() }
