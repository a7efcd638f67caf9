// Package eval measures extractors against public classical-Chinese
// extraction data sets (CHisIEC, C-CLUE): it loads their gold annotations,
// maps their entity and relation labels onto the zh-history schema, runs an
// extractor over every example and reports micro precision, recall and F1,
// and for triples character ROUGE and SCORE as in the historical-figure KG
// paper (Rouge).
package eval

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Dataset names a supported evaluation data set.
type Dataset string

// Supported data sets.
const (
	CHisIEC Dataset = "chisiec"
	CCLUE   Dataset = "cclue"
)

// Datasets lists the supported data sets.
func Datasets() []Dataset { return []Dataset{CHisIEC, CCLUE, Annals} }

// ParseDataset accepts a data set name case-insensitively (c-clue and cclue
// both name C-CLUE).
func ParseDataset(s string) (Dataset, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "chisiec":
		return CHisIEC, nil
	case "cclue", "c-clue":
		return CCLUE, nil
	case "annals":
		return Annals, nil
	}
	return "", fmt.Errorf("unknown data set %q (known: chisiec, cclue, annals)", s)
}

// Splits are the split names every loader accepts.
var Splits = []string{"train", "dev", "test"}

// ErrDataAbsent is wrapped by every error that means the shared data, or
// one of its files, is not there; tests skip on it.
var ErrDataAbsent = errors.New("shared data set absent")

// DataDir returns the shared data folder: $ANNALS_DATA when set, else the
// first D/../shared/data or D/shared/data for D the working directory or
// one of its ancestors.
func DataDir() (string, error) {
	if d := os.Getenv("ANNALS_DATA"); d != "" {
		if isDir(d) {
			return d, nil
		}
		return "", fmt.Errorf("%w: ANNALS_DATA=%s is not a directory", ErrDataAbsent, d)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find shared data: %w", err)
	}
	for d := wd; ; {
		for _, c := range []string{filepath.Join(d, "..", "shared", "data"), filepath.Join(d, "shared", "data")} {
			if isDir(c) {
				return filepath.Clean(c), nil
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return "", fmt.Errorf("%w: no ../shared/data above %s (set ANNALS_DATA to its path)", ErrDataAbsent, wd)
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// Files of each split, in the order of Splits.
var (
	chisiecNERFiles = [3]string{"ner_train.txt", "ner_dev.txt", "ner_test.txt"}
	chisiecREFiles  = [3]string{"re_coling_train.json", "re_coling_train_dev.json", "re_coling_test.json"}
	cclueFiles      = [3]string{"train_data.json", "dev_data.json", "test_data.json"}
)

// splitFile names the file of a split; files lists train, dev, test.
func splitFile(ds Dataset, what, split string, files [3]string) (string, error) {
	for i, s := range Splits {
		if s == split {
			return files[i], nil
		}
	}
	return "", fmt.Errorf("%s %s: unknown split %q (known: %s)", ds, what, split, strings.Join(Splits, ", "))
}

// openData opens a file of a data set, saying which file is missing.
func openData(dataDir string, ds Dataset, name string) (*os.File, string, error) {
	p := filepath.Join(dataDir, string(ds), name)
	f, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, p, fmt.Errorf("%w: data file %s is missing", ErrDataAbsent, p)
	}
	if err != nil {
		return nil, p, fmt.Errorf("open %s: %w", p, err)
	}
	return f, p, nil
}
