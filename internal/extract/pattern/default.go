package pattern

import (
	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/extract/pattern/en"
	"github.com/annals-project/annals/internal/extract/pattern/vi"
	"github.com/annals-project/annals/internal/extract/pattern/zh"
	"github.com/annals-project/annals/internal/ner/shipped"
	relshipped "github.com/annals-project/annals/internal/relclass/shipped"
)

// New returns the offline extractor annals uses by default: for Chinese,
// the rules with the embedded name model deciding the names and the
// embedded relation model adding to the rules' relations; for other
// languages, their rules.
func New() *Extractor {
	r, err := shipped.Recogniser()
	if err != nil {
		// The models are part of the binary; a build that cannot read
		// them is broken, and the tests say so.
		panic(err)
	}
	return WithChinese(zh.NewWith(r, Relations()))
}

// Relations is the embedded relation model.
func Relations() zh.Relater {
	rl, err := relshipped.Relater()
	if err != nil {
		panic(err)
	}
	return rl
}

// Rules returns the offline extractor with rules alone, no learned model.
func Rules() *Extractor { return WithChinese(zh.New()) }

// WithChinese returns the offline extractor with z reading classical and
// modern Chinese, which share one set of rules.
func WithChinese(z *zh.Extractor) *Extractor {
	return NewWith(map[string]extract.Extractor{
		"lzh": z,
		"zh":  z,
		"en":  en.New(),
		"vi":  vi.New(),
	}, nil)
}
