package annals

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/annals-project/annals/internal/server"
)

// viewCacheBytes bounds what a server keeps of its answers.
const viewCacheBytes = 64 << 20

// viewCache keeps a server's answers, encoded, for as long as nothing has
// been committed to the database since: a figure's page asked for again,
// by this reader or the next, costs a lookup. Any commit, by this process
// or another (an `annals index` beside the server), empties it.
type viewCache struct {
	mu      sync.Mutex
	version int64
	size    int
	m       map[string]server.Encoded
}

// get answers key from the cache, or from compute, keeping the result.
func (c *viewCache) get(ctx context.Context, w *Workspace, key string, compute func() (any, error)) (server.Encoded, error) {
	v, err := w.db.DataVersion(ctx)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.m == nil || c.version != v {
		c.m, c.size, c.version = map[string]server.Encoded{}, 0, v
	}
	b, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return b, nil
	}
	val, err := compute()
	if err != nil {
		return nil, err
	}
	if b, err = json.Marshal(val); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	// Kept under the version read before computing: if a commit came in
	// between, the next request sees a newer version and starts afresh.
	if c.version == v {
		if c.size+len(b) > viewCacheBytes {
			c.m, c.size = map[string]server.Encoded{}, 0
		}
		c.m[key] = b
		c.size += len(b)
	}
	return b, nil
}
