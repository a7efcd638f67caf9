package annals

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

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
