package annals

import "github.com/annals-project/annals/internal/store/sqlite"

// Store gives tests the workspace's database.
func (w *Workspace) Store() *sqlite.DB { return w.db }
