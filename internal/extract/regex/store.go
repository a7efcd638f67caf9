package regex

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
)

// FileStore keeps patterns as JSON lines in one file, appending each new
// one, so that a crash loses at most the line being written.
type FileStore struct {
	path string
	mu   sync.Mutex
}

// NewFileStore returns a store at path; the file is made on first Save.
func NewFileStore(path string) *FileStore { return &FileStore{path: path} }

// Load implements Store. A missing file holds no patterns; a line that is
// not a pattern (a torn last write) is skipped.
func (s *FileStore) Load(ctx context.Context) ([]Pattern, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []Pattern
	for _, line := range bytes.Split(data, []byte("\n")) {
		var p Pattern
		if json.Unmarshal(line, &p) == nil && p.Regex != "" {
			out = append(out, p)
		}
	}
	return out, nil
}

// Save implements Store.
func (s *FileStore) Save(_ context.Context, p Pattern) error {
	line, err := json.Marshal(p)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := os.OpenFile(s.path, os.O_CREATE|os.O_APPEND|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	// A torn last line must not swallow this one.
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, st.Size()-1); err == nil && last[0] != '\n' {
			line = append([]byte("\n"), line...)
		}
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("save pattern: %w", err)
	}
	return f.Close()
}
