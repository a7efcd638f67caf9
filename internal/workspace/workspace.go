// Package workspace finds the folder where annals keeps a corpus's graph,
// creates it, and makes sure one process at a time writes to it.
package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/annals-project/annals/internal/config"
)

// DirName is the workspace folder that annals looks for, as git looks for .git.
const DirName = ".annals"

// DBName is the database file inside a workspace.
const DBName = "annals.db"

// Find returns the workspace directory: flag if given, else
// $ANNALS_WORKSPACE, else the nearest .annals/ in cwd or its parents, else
// cwd/.annals (which may not exist yet).
func Find(flag, cwd string) string {
	if flag != "" {
		return abs(flag)
	}
	if env := os.Getenv("ANNALS_WORKSPACE"); env != "" {
		return abs(env)
	}
	for dir := cwd; ; {
		cand := filepath.Join(dir, DirName)
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return filepath.Join(cwd, DirName)
}

func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// Exists reports whether dir holds a workspace: its database file, or
// settings (annals.yaml, ANNALS_STORE) that name a database elsewhere.
func Exists(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, DBName)); err == nil {
		return true
	}
	c, err := config.Load(filepath.Join(dir, config.FileName))
	return err == nil && c.Store != ""
}

// Init creates the workspace folder with a commented annals.yaml and an
// empty prompts/ folder for prompt overrides; existing files are kept.
func Init(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "prompts"), 0o755); err != nil {
		return fmt.Errorf("create workspace %s: %w", dir, err)
	}
	cfg := filepath.Join(dir, config.FileName)
	if _, err := os.Stat(cfg); errors.Is(err, os.ErrNotExist) {
		if err := os.WriteFile(cfg, []byte(config.Template()), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", cfg, err)
		}
	}
	return nil
}
