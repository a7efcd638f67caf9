package llm

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strings"
)

// CacheKey is the cache key of a chat call to model at the endpoint
// baseURL: the SHA-256, in hex, of a canonical JSON of the endpoint (see
// NormalizeBaseURL), the model, the messages, the temperature, the
// completion limit, the schema and the request's prompt version. The step
// name is left out so that steps share replies. encoding/json writes struct
// fields in declaration order and map keys sorted, which makes the JSON
// canonical.
//
// Changing what goes into the key (a new field, a new prompt version)
// leaves every entry made under the old key unread: the calls are made
// again, a fresh cost, but never answered with a reply that was made for
// another endpoint, model or way of reading it.
func CacheKey(baseURL, model string, req Request) string {
	k := struct {
		Kind        string      `json:"kind"`
		Endpoint    string      `json:"endpoint"`
		Model       string      `json:"model"`
		Messages    []Message   `json:"messages"`
		Temperature float64     `json:"temperature"`
		MaxTokens   int         `json:"max_tokens"`
		Schema      *JSONSchema `json:"schema"`
		Prompt      string      `json:"prompt"`
	}{"chat", NormalizeBaseURL(baseURL), model, req.Messages, req.Temperature, req.MaxTokens, req.Schema, req.Prompt}
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

// EmbedCacheKey is the cache key of the embedding of text by model at the
// endpoint baseURL. As with CacheKey, a change to it costs the embeddings
// again and nothing else.
func EmbedCacheKey(baseURL, model, text string) string {
	b, _ := json.Marshal(struct {
		Kind     string `json:"kind"`
		Endpoint string `json:"endpoint"`
		Model    string `json:"model"`
		Text     string `json:"text"`
	}{"embed", NormalizeBaseURL(baseURL), model, text})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// NormalizeBaseURL is the form of an endpoint that cache keys hold: spaces
// and trailing slashes trimmed, scheme and host in lower case, so that
// "http://Host:8000/v1/" and "http://host:8000/v1" share replies while two
// servers never do.
func NormalizeBaseURL(s string) string {
	s = strings.TrimRight(strings.TrimSpace(s), "/")
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return s
	}
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	return strings.TrimRight(u.String(), "/")
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
