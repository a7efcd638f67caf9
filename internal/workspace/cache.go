package workspace

import (
	"fmt"
	"os"
	"path/filepath"
)

// CacheDir holds copies a process may read faster than the store, each
// made again from the store when it is missing or stale: nothing there is
// the only copy of anything.
const CacheDir = "cache"

// CachePath is where the cached copy named name lies in the workspace dir.
func CachePath(dir, name string) string { return filepath.Join(dir, CacheDir, name) }

// WriteCache puts data at path through a temporary file renamed into
// place, so that a reader, in this process or another, sees the old copy
// or the new one whole, never half of one.
func WriteCache(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write cache %s: %w", path, err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write cache %s: %w", path, err)
	}
	tmp := f.Name()
	err = f.Chmod(0o644) // as the store beside it: a temporary file is the owner's alone
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write cache %s: %w", path, err)
	}
	return nil
}
