package annals

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"

	"github.com/annals-project/annals/internal/config"
	"github.com/annals-project/annals/internal/store/sqlstore"
	"github.com/annals-project/annals/internal/workspace"
)

// ErrNotEmpty is returned by Migrate when the destination holds a graph.
var ErrNotEmpty = sqlstore.ErrNotEmpty

// Migrate copies the workspace's graph, every table with its ids, into
// another store: a postgres:// URL, or a folder that becomes a workspace
// with its own SQLite file. The destination must be empty; the workspace
// is left as it was. Writers wait while it copies; progress is told each
// table as it is done.
func (w *Workspace) Migrate(ctx context.Context, to string, progress func(table string, rows int), waiting func(string)) error {
	if to == "" {
		return errors.New("migrate: name where to: a postgres:// URL or a folder")
	}
	l, err := w.lock(ctx, "annals migrate", waiting)
	if err != nil {
		return err
	}
	defer l.Unlock()
	var dst *sqlstore.DB
	if sqlstore.IsPostgresURL(to) {
		if to == w.Config.Store {
			return errors.New("migrate: the workspace is in that database already")
		}
		dst, err = sqlstore.OpenPostgres(ctx, to)
	} else {
		dir, aerr := filepath.Abs(to)
		if aerr != nil {
			return fmt.Errorf("migrate to %s: %w", to, aerr)
		}
		if here, _ := filepath.Abs(w.Dir); dir == here && w.Config.Store == "" {
			return errors.New("migrate: the workspace is in that folder already")
		}
		if err := carrySettings(w.Dir, dir); err != nil {
			return err
		}
		if err := workspace.Init(dir); err != nil {
			return err
		}
		dst, err = sqlstore.Open(ctx, filepath.Join(dir, workspace.DBName))
	}
	if err != nil {
		return err
	}
	defer dst.Close()
	return w.db.CopyTo(ctx, dst, progress)
}

// carrySettings gives a new workspace folder the settings and prompt
// overrides of the workspace it is copied from, its own SQLite file in
// place of the source's store; what the folder has already is kept.
func carrySettings(from, to string) error {
	if err := os.MkdirAll(filepath.Join(to, "prompts"), 0o755); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	settings, err := os.ReadFile(filepath.Join(from, config.FileName))
	if err == nil {
		settings = storeLine.ReplaceAll(settings, []byte(`store: ""`))
		err = writeNew(filepath.Join(to, config.FileName), settings)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("migrate: settings: %w", err)
	}
	prompts, _ := os.ReadDir(filepath.Join(from, "prompts"))
	for _, p := range prompts {
		if !p.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, "prompts", p.Name()))
		if err == nil {
			err = writeNew(filepath.Join(to, "prompts", p.Name()), data)
		}
		if err != nil {
			return fmt.Errorf("migrate: prompt %s: %w", p.Name(), err)
		}
	}
	return nil
}

// storeLine is the store setting of an annals.yaml.
var storeLine = regexp.MustCompile(`(?m)^store:.*$`)

// writeNew writes a file that does not exist yet; one that does is kept.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
