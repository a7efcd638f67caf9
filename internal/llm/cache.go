package llm

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// CacheKey is the cache key of a chat call to model: the SHA-256, in hex,
// of a canonical JSON of the model, the messages, the temperature, the
// completion limit and the schema. The step name is left out so that steps
// share replies. encoding/json writes struct fields in declaration order and
// map keys sorted, which makes the JSON canonical.
func CacheKey(model string, req Request) string {
	k := struct {
		Kind        string      `json:"kind"`
		Model       string      `json:"model"`
		Messages    []Message   `json:"messages"`
		Temperature float64     `json:"temperature"`
		MaxTokens   int         `json:"max_tokens"`
		Schema      *JSONSchema `json:"schema"`
	}{"chat", model, req.Messages, req.Temperature, req.MaxTokens, req.Schema}
	if k.Messages == nil {
		k.Messages = []Message{}
	}
	b, err := json.Marshal(k)
	if err != nil {
		// Only a schema holding values JSON cannot encode gets here; such a
		// request cannot be sent either, so a key from its text will do.
		b = fmt.Appendf(nil, "%#v", k)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// EmbedCacheKey is the cache key of the embedding of text by model.
func EmbedCacheKey(model, text string) string {
	b, _ := json.Marshal(struct {
		Kind  string `json:"kind"`
		Model string `json:"model"`
		Text  string `json:"text"`
	}{"embed", model, text})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// cachedReply is the stored form of a chat reply.
type cachedReply struct {
	Content string `json:"content"`
	Usage   Usage  `json:"usage"`
}

// encodeVector stores a vector as little-endian float32s: a quarter of the
// size of JSON, and exact.
func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

var errBadVector = errors.New("cached embedding has a length that is not a multiple of 4")

func decodeVector(b []byte) ([]float32, error) {
	if len(b)%4 != 0 {
		return nil, errBadVector
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}
