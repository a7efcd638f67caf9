package ner

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"unicode"

	"github.com/annals-project/annals/internal/featurehash"

	"github.com/annals-project/annals/internal/modelfile"
)

// The model file (modelfile): after the header, each feature with a
// weight as its hash, the number of its non-zero weights and each as
// (tag, weight), then the transitions, then the character classes if the
// model has them: each rune (as the gap from the one before, in order)
// with its class; then the known names if it has them: each name's hash
// (as the gap from the one before, in order) with its type bits.
// Features whose weights are all zero are left out.
const modelMagic = "annals-ner 2\n"

// ModelInfo says what a model file holds.
type ModelInfo struct {
	Types    []string `json:"types"`
	Rules    bool     `json:"rules"` // the rules' names are features
	Features int      `json:"features"`
	Clusters int      `json:"clusters,omitempty"` // characters with a class
	Known    int      `json:"known,omitempty"`    // names the annotations know
	DocUse   bool     `json:"doc_use,omitempty"`  // how a chapter uses its characters is a feature
	Found    bool     `json:"found,omitempty"`    // the names found before in a chapter are features
	// Trained says on what, for whoever reads the model later.
	Trained string `json:"trained,omitempty"`
}

// Save writes the tagger; trained says what it was trained on.
func (t *Tagger) Save(w io.Writer, trained string) error {
	mw, err := modelfile.Create(w, modelMagic, ModelInfo{Types: t.Types, Rules: t.Rules, Features: t.weights.Len(), Clusters: len(t.Clusters), Known: len(t.Known), DocUse: t.DocUse, Found: t.Found, Trained: trained})
	if err != nil {
		return err
	}
	t.weights.Write(mw)
	for _, x := range t.trans {
		mw.Float32(x)
	}
	runes := make([]uint64, 0, len(t.Clusters))
	for r := range t.Clusters {
		runes = append(runes, uint64(r))
	}
	writeSorted(mw, runes, func(r uint64) uint64 { return uint64(t.Clusters[rune(r)]) })
	hashes := make([]uint64, 0, len(t.Known))
	for h := range t.Known {
		hashes = append(hashes, h)
	}
	writeSorted(mw, hashes, func(h uint64) uint64 { return uint64(t.Known[h]) })
	return mw.Close()
}

// SaveFile writes the tagger to path.
func (t *Tagger) SaveFile(path string, trained string) error {
	return modelfile.WriteFile(path, "name model", func(w io.Writer) error { return t.Save(w, trained) })
}

// Load reads a model; a model trained with the rules' names as features
// gets them again.
func Load(r io.Reader) (*Tagger, ModelInfo, error) {
	var info ModelInfo
	br, err := modelfile.Open(r, modelMagic, "name model", &info)
	if err != nil {
		return nil, info, err
	}
	if len(info.Types) == 0 || len(info.Types) > 64 || info.Features < 0 || info.Features > 1<<26 || info.Clusters < 0 || info.Clusters > unicode.MaxRune || info.Known < 0 || info.Known > 1<<24 {
		return nil, info, errors.New("model header: implausible types, feature or class count")
	}
	t := &Tagger{Types: info.Types}
	n := t.tags()
	t.lat = newLattice(n)
	t.trans = make([]float32, (n+1)*n)
	if t.weights, err = featurehash.ReadSparse(br, info.Features, n); err != nil {
		return nil, info, err
	}
	for k := range t.trans {
		x, err := br.Float32()
		if err != nil {
			return nil, info, fmt.Errorf("model transitions: %w", err)
		}
		t.trans[k] = x
	}
	if info.Clusters > 0 {
		t.Clusters = make(Clusters, info.Clusters)
		if err := readSorted(br, info.Clusters, "character class", unicode.MaxRune, math.MaxUint16, func(r, class uint64) { t.Clusters[rune(r)] = uint16(class) }); err != nil {
			return nil, info, err
		}
	}
	if info.Known > 0 {
		t.Known = make(Known, info.Known)
		if err := readSorted(br, info.Known, "known name", math.MaxUint64, math.MaxUint32, func(h, bits uint64) { t.Known[h] = uint32(bits) }); err != nil {
			return nil, info, err
		}
	}
	if err := br.End(); err != nil {
		return nil, info, err
	}
	t.Rules, t.DocUse, t.Found = info.Rules, info.DocUse, info.Found
	return t, info, nil
}

// writeSorted writes keys in order, each as the gap from the one before,
// with its value: character classes and known names both keep this shape.
func writeSorted(mw *modelfile.Writer, keys []uint64, value func(uint64) uint64) {
	slices.Sort(keys)
	prev := uint64(0)
	for _, k := range keys {
		mw.Uvarint(k - prev)
		mw.Uvarint(value(k))
		prev = k
	}
}

// readSorted reads n pairs writeSorted wrote, refusing a key past maxKey
// or a value past maxValue.
func readSorted(br *modelfile.Reader, n int, what string, maxKey, maxValue uint64, put func(k, v uint64)) error {
	k := uint64(0)
	for i := range n {
		gap, err := br.Uvarint()
		if err != nil {
			return fmt.Errorf("model %s %d: %w", what, i, err)
		}
		v, err := br.Uvarint()
		if err != nil || v > maxValue || gap > maxKey-k {
			return fmt.Errorf("model %s %d: out of range", what, i)
		}
		k += gap
		put(k, v)
	}
	return nil
}

// LoadFile reads a model from path.
func LoadFile(path string) (*Tagger, ModelInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, ModelInfo{}, err
	}
	defer f.Close()
	t, info, err := Load(bufio.NewReader(f))
	if err != nil {
		return nil, info, fmt.Errorf("%s: %w", path, err)
	}
	return t, info, nil
}
