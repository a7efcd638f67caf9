package modelfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// A save that fails leaves the model that was there, and no temporary file.
func TestWriteFileKeepsTheOldModelOnFailure(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.bin")
	if err := WriteFile(path, "test model", func(w io.Writer) error { _, err := w.Write([]byte("good")); return err }); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(path, "test model", func(w io.Writer) error {
		w.Write([]byte("ha"))
		return errors.New("disk full")
	})
	if err == nil {
		t.Fatal("a failed save reported no error")
	}
	if b, _ := os.ReadFile(path); string(b) != "good" {
		t.Fatalf("the model is now %q", b)
	}
	if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
		t.Fatalf("temporary file left: %v", err)
	}
}
