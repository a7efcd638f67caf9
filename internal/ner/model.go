package ner

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
	"sort"
)

// The model file: gzip of a magic line, one line of JSON saying what the
// model is, then each feature with a weight as its hash, the number of
// its non-zero weights and each as (tag, weight), then the transitions.
// Features whose weights are all zero are left out.
const modelMagic = "annals-ner 2\n"

// ModelInfo says what a model file holds.
type ModelInfo struct {
	Types    []string `json:"types"`
	Rules    bool     `json:"rules"` // the rules' names are features
	Features int      `json:"features"`
	// Trained says on what, for whoever reads the model later.
	Trained string `json:"trained,omitempty"`
}

// Save writes the tagger; trained says what it was trained on.
func (t *Tagger) Save(w io.Writer, trained string) error {
	n := t.tags()
	type row struct {
		h uint64
		r int32
	}
	var rows []row
	for h, r := range t.feats {
		for _, x := range t.weights[int(r)*n : int(r)*n+n] {
			if x != 0 {
				rows = append(rows, row{h, r})
				break
			}
		}
	}
	// Sorted, so that the same weights always give the same bytes.
	sort.Slice(rows, func(i, j int) bool { return rows[i].h < rows[j].h })
	zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
	bw := bufio.NewWriter(zw)
	bw.WriteString(modelMagic)
	info, err := json.Marshal(ModelInfo{Types: t.Types, Rules: t.Rules, Features: len(rows), Trained: trained})
	if err != nil {
		return err
	}
	bw.Write(info)
	bw.WriteByte('\n')
	var buf [binary.MaxVarintLen64]byte
	putU := func(v uint64) { bw.Write(buf[:binary.PutUvarint(buf[:], v)]) }
	putF := func(f float32) { binary.Write(bw, binary.LittleEndian, math.Float32bits(f)) }
	for _, r := range rows {
		binary.Write(bw, binary.LittleEndian, r.h)
		w := t.weights[int(r.r)*n : int(r.r)*n+n]
		nz := 0
		for _, x := range w {
			if x != 0 {
				nz++
			}
		}
		putU(uint64(nz))
		for k, x := range w {
			if x != 0 {
				putU(uint64(k))
				putF(x)
			}
		}
	}
	for _, x := range t.trans {
		putF(x)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// SaveFile writes the tagger to path.
func (t *Tagger) SaveFile(path string, trained string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := t.Save(f, trained); err != nil {
		f.Close()
		return fmt.Errorf("write model %s: %w", path, err)
	}
	return f.Close()
}

// Load reads a model; a model trained with the rules' names as features
// gets them again.
func Load(r io.Reader) (*Tagger, ModelInfo, error) {
	var info ModelInfo
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, info, fmt.Errorf("not an annals name model: %w", err)
	}
	br := bufio.NewReader(zr)
	magic := make([]byte, len(modelMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != modelMagic {
		return nil, info, errors.New("not an annals name model (no annals-ner header)")
	}
	line, err := br.ReadBytes('\n')
	if err != nil {
		return nil, info, fmt.Errorf("model header: %w", err)
	}
	if err := json.Unmarshal(line, &info); err != nil {
		return nil, info, fmt.Errorf("model header: %w", err)
	}
	if len(info.Types) == 0 || len(info.Types) > 64 || info.Features < 0 || info.Features > 1<<26 {
		return nil, info, errors.New("model header: implausible types or feature count")
	}
	t := &Tagger{Types: info.Types, feats: make(map[uint64]int32, info.Features)}
	n := t.tags()
	t.lat = newLattice(n)
	t.weights = make([]float32, info.Features*n)
	t.trans = make([]float32, (n+1)*n)
	getF := func() (float32, error) {
		var u uint32
		err := binary.Read(br, binary.LittleEndian, &u)
		return math.Float32frombits(u), err
	}
	for i := 0; i < info.Features; i++ {
		var h uint64
		if err := binary.Read(br, binary.LittleEndian, &h); err != nil {
			return nil, info, fmt.Errorf("model feature %d: %w", i, err)
		}
		nz, err := binary.ReadUvarint(br)
		if err != nil || nz > uint64(n) {
			return nil, info, fmt.Errorf("model feature %d: bad weight count", i)
		}
		t.feats[h] = int32(i)
		for range nz {
			k, err := binary.ReadUvarint(br)
			if err != nil || k >= uint64(n) {
				return nil, info, fmt.Errorf("model feature %d: bad tag", i)
			}
			x, err := getF()
			if err != nil {
				return nil, info, fmt.Errorf("model feature %d: %w", i, err)
			}
			t.weights[i*n+int(k)] = x
		}
	}
	for k := range t.trans {
		x, err := getF()
		if err != nil {
			return nil, info, fmt.Errorf("model transitions: %w", err)
		}
		t.trans[k] = x
	}
	// The end of the stream is where gzip checks its checksum.
	if _, err := br.ReadByte(); err != io.EOF {
		if err == nil {
			err = errors.New("data after the model")
		}
		return nil, info, fmt.Errorf("model end: %w", err)
	}
	t.Rules = info.Rules
	return t, info, nil
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
