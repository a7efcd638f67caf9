// Package modelfile is the container the learned models are saved in:
// gzip (stored blocks; any gzip reads) of a magic line naming the kind of model, one line of JSON saying
// what the model is, then the model's own body of fixed-width and varint
// numbers, read to its end so that gzip checks its checksum.
package modelfile

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// Writer writes a model's body after its header.
type Writer struct {
	*bufio.Writer
	zw  *gzip.Writer
	buf [binary.MaxVarintLen64]byte
}

// Create starts a model file on w: the magic line, then info as JSON.
func Create(w io.Writer, magic string, info any) (*Writer, error) {
	head, err := json.Marshal(info)
	if err != nil {
		return nil, err
	}
	// Stored, not compressed: the bodies are hashes and float weights,
	// which the best compression shrinks by a seventh, and inflating them
	// took 100 of the 250 ms the name model took to load.
	zw, _ := gzip.NewWriterLevel(w, gzip.NoCompression)
	mw := &Writer{Writer: bufio.NewWriter(zw), zw: zw}
	mw.WriteString(magic)
	mw.Write(head)
	mw.WriteByte('\n')
	return mw, nil
}

// Uvarint, Uint64 and Float32 write one number; errors surface at Close.
func (w *Writer) Uvarint(v uint64) { w.Write(w.buf[:binary.PutUvarint(w.buf[:], v)]) }
func (w *Writer) Uint64(v uint64)  { w.Write(binary.LittleEndian.AppendUint64(w.buf[:0], v)) }
func (w *Writer) Float32(f float32) {
	w.Write(binary.LittleEndian.AppendUint32(w.buf[:0], math.Float32bits(f)))
}

// Close flushes the body and ends the gzip stream.
func (w *Writer) Close() error {
	if err := w.Flush(); err != nil {
		return err
	}
	return w.zw.Close()
}

// Reader reads a model's body after its header. A model is millions of
// numbers, so the body is decompressed whole (gzip checks its checksum at
// the end) and read from memory.
type Reader struct {
	body []byte
	at   int
}

// errShort reports a body that ends inside a number.
var errShort = io.ErrUnexpectedEOF

// Open reads the header of a model file from r into info: what names the
// kind of model in errors (a name model).
func Open(r io.Reader, magic, what string, info any) (*Reader, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not an annals %s: %w", what, err)
	}
	br := bufio.NewReaderSize(zr, 64<<10)
	got := make([]byte, len(magic))
	if _, err := io.ReadFull(br, got); err != nil || string(got) != magic {
		return nil, fmt.Errorf("not an annals %s (no %q header)", what, magic[:len(magic)-1])
	}
	line, err := br.ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("model header: %w", err)
	}
	if err := json.Unmarshal(line, info); err != nil {
		return nil, fmt.Errorf("model header: %w", err)
	}
	body, err := io.ReadAll(br)
	if err != nil {
		return nil, fmt.Errorf("model body: %w", err)
	}
	return &Reader{body: body}, nil
}

// Uvarint, Uint64, Float32 and ReadByte read one number.
func (r *Reader) Uvarint() (uint64, error) {
	v, n := binary.Uvarint(r.body[r.at:])
	if n <= 0 {
		if n == 0 {
			return 0, errShort
		}
		return 0, errors.New("varint overflows 64 bits")
	}
	r.at += n
	return v, nil
}
func (r *Reader) Uint64() (uint64, error) {
	if len(r.body)-r.at < 8 {
		return 0, errShort
	}
	v := binary.LittleEndian.Uint64(r.body[r.at:])
	r.at += 8
	return v, nil
}
func (r *Reader) Float32() (float32, error) {
	if len(r.body)-r.at < 4 {
		return 0, errShort
	}
	v := math.Float32frombits(binary.LittleEndian.Uint32(r.body[r.at:]))
	r.at += 4
	return v, nil
}
func (r *Reader) ReadByte() (byte, error) {
	if r.at >= len(r.body) {
		return 0, io.EOF
	}
	r.at++
	return r.body[r.at-1], nil
}

// End checks that the body is over.
func (r *Reader) End() error {
	if r.at < len(r.body) {
		return fmt.Errorf("model end: %w", errors.New("data after the model"))
	}
	return nil
}

// Digest names a model by its bytes, for extractor versions: a new model
// re-extracts a workspace.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:6])
}

// WriteFile writes a model to path through save, by way of a temporary
// file renamed into place, so that a failed write never leaves half a
// model where a good one was; what names the kind of model in errors.
func WriteFile(path, what string, save func(io.Writer) error) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := save(f); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("write %s %s: %w", what, path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s %s: %w", what, path, err)
	}
	return os.Rename(tmp, path)
}
