package annals

import "github.com/annals-project/annals/internal/store/sqlstore"

// Store gives tests the workspace's database.
func (w *Workspace) Store() *sqlstore.DB { return w.db }
