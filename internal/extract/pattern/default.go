package pattern

import (
	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/extract/pattern/en"
	"github.com/annals-project/annals/internal/extract/pattern/vi"
	"github.com/annals-project/annals/internal/extract/pattern/zh"
)

// New returns the offline extractor with the rules of every language
// annals reads: classical and modern Chinese share one set.
func New() *Extractor {
	z := zh.New()
	return NewWith(map[string]extract.Extractor{
		"lzh": z,
		"zh":  z,
		"en":  en.New(),
		"vi":  vi.New(),
	}, nil)
}
