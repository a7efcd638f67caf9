package llm

import (
	"context"
	"sync"
)

// MemoryCache is a Cache in memory, for tests and one-off runs.
type MemoryCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

// NewMemoryCache makes an empty MemoryCache.
func NewMemoryCache() *MemoryCache { return &MemoryCache{m: map[string][]byte{}} }

// Get returns a copy of the value stored under key.
func (c *MemoryCache) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	if !ok {
		return nil, false, nil
	}
	return append([]byte(nil), v...), true, nil
}

// Put stores a copy of value under key; a memory cache lives for one run
// and does not keep the step.
func (c *MemoryCache) Put(ctx context.Context, step, key string, value []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string][]byte{}
	}
	c.m[key] = append([]byte(nil), value...)
	return nil
}

// Len is the number of entries.
func (c *MemoryCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
