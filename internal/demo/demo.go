// Package demo embeds a small corpus written for annals: classical-Chinese
// biographies of Three Kingdoms figures, a little English and Vietnamese
// history, and an alias dictionary. `annals quickstart` indexes it.
package demo

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed corpus
var files embed.FS

//go:embed aliases.txt
var aliases []byte

// Aliases is the demo's alias dictionary (主名:别名1,别名2).
func Aliases() []byte { return aliases }

// Corpus is the demo corpus as a file system rooted at its top folder.
func Corpus() fs.FS {
	sub, err := fs.Sub(files, "corpus")
	if err != nil {
		panic(err) // the folder is embedded at build time
	}
	return sub
}

// WriteTo copies the corpus into dir and the alias dictionary beside it as
// aliases.txt. Files already there with the same content are left alone, so
// that running the demo twice re-indexes nothing.
func WriteTo(dir string) (corpusDir, aliasFile string, err error) {
	corpusDir = filepath.Join(dir, "corpus")
	err = fs.WalkDir(Corpus(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(corpusDir, filepath.FromSlash(path))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := fs.ReadFile(Corpus(), path)
		if err != nil {
			return err
		}
		return writeIfChanged(dst, data)
	})
	if err != nil {
		return "", "", fmt.Errorf("write demo corpus to %s: %w", corpusDir, err)
	}
	aliasFile = filepath.Join(dir, "aliases.txt")
	if err := writeIfChanged(aliasFile, aliases); err != nil {
		return "", "", fmt.Errorf("write demo aliases: %w", err)
	}
	return corpusDir, aliasFile, nil
}

func writeIfChanged(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	return os.WriteFile(path, data, 0o644)
}
