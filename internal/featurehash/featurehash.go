// Package featurehash hashes the features of the learned models from a
// template number and small integers (runes, codes, buckets), never from
// strings: a corpus asks for millions of them. The hashes are part of the
// models' files: changing them changes every model.
package featurehash

// Mix folds v into the hash h.
func Mix(h, v uint64) uint64 {
	h ^= v
	h *= 0x100000001b3
	h ^= h >> 29
	return h
}

// Of1, Of2 and Of3 hash template t with one, two or three values.
func Of1(t, a uint64) uint64       { return Mix(Mix(0xcbf29ce484222325, t), a) }
func Of2(t, a, b uint64) uint64    { return Mix(Of1(t, a), b) }
func Of3(t, a, b, c uint64) uint64 { return Mix(Of2(t, a, b), c) }
