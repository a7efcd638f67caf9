// Package cached holds a value read from a store with the generation of
// the data it was read from.
package cached

import "sync"

// Value holds a value read from the workspace together with the
// generation of the data it was read from (the chunks' and relations'
// counters), and reads it again when the generation has moved. It never
// keeps an error, and each read runs under the context of the call that
// needs it, so a cancelled question does not spoil later ones.
type Value[G comparable, T any] struct {
	mu  sync.Mutex
	gen G
	val T
	ok  bool
}

// Get returns the value for generation gen, calling load when the value
// held is of another generation or there is none.
func (c *Value[G, T]) Get(gen G, load func() (T, error)) (T, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ok && c.gen == gen {
		return c.val, nil
	}
	v, err := load()
	if err != nil {
		var zero T
		return zero, err
	}
	c.val, c.gen, c.ok = v, gen, true
	return v, nil
}

// Update lets f change the value held and its generation together, for
// a change made to both (a fact fed back into the graph in memory and
// into the store); it does nothing when no value is held.
func (c *Value[G, T]) Update(f func(gen *G, val T)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ok {
		f(&c.gen, c.val)
	}
}

// Held returns the value held for generation gen, without loading one.
func (c *Value[G, T]) Held(gen G) (T, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ok && c.gen == gen {
		return c.val, true
	}
	var zero T
	return zero, false
}
