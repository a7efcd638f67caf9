package relclass

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/annals-project/annals/internal/schema"
)

// The model file: gzip of a magic line, one line of JSON saying what the
// model is, then each feature in the order of its hash: the hash, the
// number of its weights and each as (label, weight).
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
	zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
	bw := bufio.NewWriter(zw)
	bw.WriteString(modelMagic)
	info, err := json.Marshal(ModelInfo{Types: c.Types, Relations: c.Relations, Features: len(c.feats), Trained: trained})
	if err != nil {
		return err
	}
	bw.Write(info)
	bw.WriteByte('\n')
	// Rows were frozen in the order of their hashes.
	hashes := make([]uint64, len(c.feats))
	for h, r := range c.feats {
		hashes[r] = h
	}
	var buf [binary.MaxVarintLen64]byte
	putU := func(v uint64) { bw.Write(buf[:binary.PutUvarint(buf[:], v)]) }
	for r, h := range hashes {
		binary.Write(bw, binary.LittleEndian, h)
		es := c.entries[c.off[r]:c.off[r+1]]
		putU(uint64(len(es)))
		for _, e := range es {
			putU(uint64(e.label))
			binary.Write(bw, binary.LittleEndian, math.Float32bits(e.weight))
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// SaveFile writes the classifier to path.
func (c *Classifier) SaveFile(path, trained string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := c.Save(f, trained); err != nil {
		f.Close()
		return fmt.Errorf("write relation model %s: %w", path, err)
	}
	return f.Close()
}

// Load reads a model; sch bounds which relations may join which types.
func Load(r io.Reader, sch *schema.Schema) (*Classifier, ModelInfo, error) {
	var info ModelInfo
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, info, fmt.Errorf("not a relation model: %w", err)
	}
	br := bufio.NewReader(zr)
	magic := make([]byte, len(modelMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != modelMagic {
		return nil, info, errors.New("not an annals relation model (no annals-rel header)")
	}
	line, err := br.ReadBytes('\n')
	if err != nil {
		return nil, info, fmt.Errorf("model header: %w", err)
	}
	if err := json.Unmarshal(line, &info); err != nil {
		return nil, info, fmt.Errorf("model header: %w", err)
	}
	if len(info.Types) == 0 || len(info.Relations) == 0 || len(info.Relations) > 1000 || info.Features < 0 || info.Features > 1<<26 {
		return nil, info, errors.New("model header: implausible types, relations or feature count")
	}
	for _, rel := range info.Relations {
		if sch.Relation(rel) == nil {
			return nil, info, fmt.Errorf("model relation %q is not in schema %s", rel, sch.Name)
		}
	}
	c := &Classifier{Types: info.Types, Relations: info.Relations, feats: make(map[uint64]int32, info.Features), off: make([]int32, 1, info.Features+1)}
	n := c.labels()
	for r := range info.Features {
		var h uint64
		if err := binary.Read(br, binary.LittleEndian, &h); err != nil {
			return nil, info, fmt.Errorf("feature %d: %w", r, err)
		}
		k, err := binary.ReadUvarint(br)
		if err != nil || k > uint64(n) {
			return nil, info, fmt.Errorf("feature %d: bad weight count", r)
		}
		for range k {
			l, err := binary.ReadUvarint(br)
			if err != nil || l >= uint64(n) {
				return nil, info, fmt.Errorf("feature %d: bad label", r)
			}
			var bits uint32
			if err := binary.Read(br, binary.LittleEndian, &bits); err != nil {
				return nil, info, fmt.Errorf("feature %d: %w", r, err)
			}
			c.entries = append(c.entries, entry{uint16(l), math.Float32frombits(bits)})
		}
		c.feats[h] = int32(r)
		c.off = append(c.off, int32(len(c.entries)))
	}
	// The end of the stream is where gzip checks its checksum.
	if _, err := io.Copy(io.Discard, br); err != nil {
		return nil, info, fmt.Errorf("relation model: %w", err)
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
