// Package config holds annals' settings. Precedence for every setting:
// command-line flag > environment variable > annals.yaml > default.
package config

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/annals-project/annals/internal/llm"
)

// Config is everything a workspace can be told.
type Config struct {
	// Store is where the graph's rows are kept: empty for the SQLite file
	// in the workspace folder, or a postgres:// URL. Never shown (it may
	// hold a password).
	Store string `yaml:"store" json:"-"`
	// Schema is a shipped schema name or a YAML file; empty chooses by
	// language (zh-history for Chinese, general otherwise).
	Schema    string    `yaml:"schema" json:"schema"`
	Normalize Normalize `yaml:"normalize" json:"normalize"`
	Chunk     Chunk     `yaml:"chunk" json:"chunk"`
	// Workers is how many documents are processed at once; 0 means one per CPU.
	Workers int     `yaml:"workers" json:"workers"`
	Index   Index   `yaml:"index" json:"index"`
	Extract Extract `yaml:"extract" json:"extract"`
	LLM     LLM     `yaml:"llm" json:"llm"`
}

// Index tunes what indexing reads.
type Index struct {
	// MaxFileSize skips larger files with a warning.
	MaxFileSize ByteSize `yaml:"max_file_size" json:"max_file_size"`
	// Communities is how communities are found: leiden (the default),
	// dual (dual perception), or off.
	Communities string `yaml:"communities" json:"communities"`
}

// DefaultMaxFileSize is the largest file indexing reads unless told more.
const DefaultMaxFileSize ByteSize = 64 << 20

// ByteSize is a number of bytes, written in annals.yaml as a whole number
// or with a unit: 1000000, 500KB, 256MiB, 2GiB (KB, MB, GB are powers of
// 1000; KiB, MiB, GiB and the bare K, M, G powers of 1024).
type ByteSize int64

// ParseByteSize reads a ByteSize.
func ParseByteSize(s string) (ByteSize, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q: want a number of bytes, such as 67108864 or 64MiB", s)
	}
	mult, ok := map[string]int64{
		"": 1, "b": 1,
		"kb": 1e3, "mb": 1e6, "gb": 1e9,
		"k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gib": 1 << 30,
	}[unit]
	if !ok {
		return 0, fmt.Errorf("%q: unknown unit %q (want B, KB, MB, GB, KiB, MiB or GiB)", s, t[i:])
	}
	if n > (1<<63-1)/mult {
		return 0, fmt.Errorf("%q: too large", s)
	}
	return ByteSize(n * mult), nil
}

// UnmarshalYAML reads a whole number or a number with a unit.
func (b *ByteSize) UnmarshalYAML(node *yaml.Node) error {
	var s string
	if err := node.Decode(&s); err != nil {
		return err
	}
	v, err := ParseByteSize(s)
	if err != nil {
		return fmt.Errorf("line %d: %w", node.Line, err)
	}
	*b = v
	return nil
}

// String writes the size in the largest binary unit that divides it.
func (b ByteSize) String() string {
	for _, u := range []struct {
		name string
		size ByteSize
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if b >= u.size && b%u.size == 0 {
			return fmt.Sprintf("%d%s", b/u.size, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", int64(b))
}

// Extract chooses and tunes extraction.
type Extract struct {
	// Extractor is pattern, llm, ekg or regex; empty means llm when an
	// endpoint is configured, else pattern.
	Extractor string `yaml:"extractor" json:"extractor"`
	// Model is the name model the offline extractor reads Chinese with:
	// empty for the one annals ships, "rules" for the rules alone, or a
	// model file written by `annals train ner`.
	Model string `yaml:"model" json:"model"`
	// Judge scores LLM extractions (process supervision, 0–10) and keeps
	// those under Threshold aside.
	Judge     bool    `yaml:"judge" json:"judge"`
	Threshold float64 `yaml:"threshold" json:"threshold"`
	Growth    Growth  `yaml:"growth" json:"growth"`
	// Examples is how many worked examples the LLM extraction prompt
	// shows: 1, 5, or 0 for the five steps alone (zero-shot chain of
	// thought).
	Examples int `yaml:"examples" json:"examples"`
	// RAG gives the LLM extractor, for each chunk, the facts the graph
	// already holds about the entities the chunk names (seed 000's
	// RAG-augmented extraction).
	RAG bool `yaml:"rag" json:"rag"`
}

// Growth lets the schema grow: a type the LLM proposes joins once it reaches
// confidence Mu in at least MinChunks chunks.
type Growth struct {
	Enabled   bool    `yaml:"enabled" json:"enabled"`
	Mu        float64 `yaml:"mu" json:"mu"`
	MinChunks int     `yaml:"min_chunks" json:"min_chunks"`
}

// Normalize controls text normalisation.
type Normalize struct {
	// T2S converts traditional to simplified characters for Chinese texts
	// (offsets still point at the original characters).
	T2S bool `yaml:"t2s" json:"t2s"`
}

// Chunk controls chunking.
type Chunk struct {
	MaxChars int `yaml:"max_chars" json:"max_chars"`
	Overlap  int `yaml:"overlap" json:"overlap"`
	// Patterns makes chunks follow the units a text's writing pattern
	// marks: each life of a biography chapter, each year of a chronicle,
	// the historian's comment (corpus.ChunkOptions.Patterns).
	Patterns bool `yaml:"patterns" json:"patterns"`
}

// LLM names an OpenAI-compatible endpoint. Unused unless BaseURL is set
// or an LLM step is asked for by name.
type LLM struct {
	BaseURL     string `yaml:"base_url" json:"base_url"`
	Model       string `yaml:"model" json:"model"`
	APIKey      string `yaml:"api_key" json:"-"`
	EmbedModel  string `yaml:"embed_model" json:"embed_model"`
	Concurrency int    `yaml:"concurrency" json:"concurrency"`
	MaxRetries  int    `yaml:"max_retries" json:"max_retries"`
	TimeoutSec  int    `yaml:"timeout_sec" json:"timeout_sec"`
	// CallTimeoutSec bounds a call with all its retries and the waits
	// between them.
	CallTimeoutSec int `yaml:"call_timeout_sec" json:"call_timeout_sec"`
	// MaxTokens bounds the completion of one extraction call (the llm
	// extractor's, and its fallback's under regex); 0 means the
	// extractor's default. A reply cut off at it fails its document.
	MaxTokens int                  `yaml:"max_tokens" json:"max_tokens"`
	Prices    map[string]llm.Price `yaml:"prices" json:"prices,omitempty"`
}

// Default is the configuration with nothing set.
func Default() Config {
	return Config{
		Normalize: Normalize{T2S: true},
		Chunk:     Chunk{MaxChars: 600, Overlap: 100, Patterns: true},
		Extract:   Extract{Judge: true, Threshold: 8, Growth: Growth{Mu: 0.8, MinChunks: 3}, Examples: 1},
		Index:     Index{MaxFileSize: DefaultMaxFileSize, Communities: "leiden"},
		LLM: LLM{Concurrency: llm.DefaultConcurrency, MaxRetries: llm.DefaultMaxRetries, TimeoutSec: llm.DefaultTimeoutSec,
			CallTimeoutSec: llm.DefaultCallTimeoutSec},
	}
}

// FileName is the configuration file inside a workspace.
const FileName = "annals.yaml"

// Load reads path over the defaults (a missing file is fine), then applies
// the environment.
func Load(path string) (Config, error) {
	c := Default()
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return c, fmt.Errorf("read %s: %w", path, err)
	default:
		if err := yaml.Unmarshal(data, &c); err != nil {
			return c, fmt.Errorf("parse %s: %w", path, err)
		}
	}
	if err := c.applyEnv(os.Getenv); err != nil {
		return c, err
	}
	return c, c.Validate()
}

// Endpoint is the LLM configuration to use, or llm.ErrNotConfigured. With
// explicit (an LLM step was asked for by name), OPENAI_BASE_URL may supply a
// missing endpoint; OPENAI_API_KEY only ever fills in a missing key once an
// endpoint is chosen, so a key set for another program never starts paid
// calls by surprise.
func (c Config) Endpoint(explicit bool, maxTokens int) (llm.Config, error) {
	l := c.LLM
	if l.BaseURL == "" && explicit {
		l.BaseURL = os.Getenv("OPENAI_BASE_URL")
	}
	if l.BaseURL == "" {
		return llm.Config{}, llm.ErrNotConfigured
	}
	if l.APIKey == "" {
		l.APIKey = os.Getenv("OPENAI_API_KEY")
	}
	if l.Model == "" {
		return llm.Config{}, fmt.Errorf("an LLM endpoint is set (%s) but no model: set ANNALS_LLM_MODEL or llm.model in annals.yaml", l.BaseURL)
	}
	prices := llm.DefaultPrices()
	for k, v := range l.Prices {
		prices[k] = v
	}
	retries := l.MaxRetries
	if retries == 0 {
		retries = -1 // llm.Config reads 0 as its default
	}
	return llm.Config{BaseURL: l.BaseURL, Model: l.Model, APIKey: l.APIKey, EmbedModel: l.EmbedModel,
		Concurrency: l.Concurrency, MaxRetries: retries, TimeoutSec: l.TimeoutSec, CallTimeoutSec: l.CallTimeoutSec,
		Prices: prices, MaxTokens: maxTokens}, nil
}

// ExtractorName is the extractor to use: the setting, else llm when an
// endpoint is configured, else pattern.
func (c Config) ExtractorName() string {
	if c.Extract.Extractor != "" {
		return c.Extract.Extractor
	}
	if c.LLM.BaseURL != "" {
		return "llm"
	}
	return "pattern"
}

func (c *Config) applyEnv(getenv func(string) string) error {
	str := func(name string, dst *string) {
		if v := getenv(name); v != "" {
			*dst = v
		}
	}
	num := func(name string, dst *int) error {
		if v := getenv(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("%s=%q: want a whole number", name, v)
			}
			*dst = n
		}
		return nil
	}
	str("ANNALS_STORE", &c.Store)
	str("ANNALS_SCHEMA", &c.Schema)
	for _, b := range []struct {
		name string
		dst  *bool
	}{{"ANNALS_T2S", &c.Normalize.T2S}, {"ANNALS_CHUNK_PATTERNS", &c.Chunk.Patterns}} {
		if v := getenv(b.name); v != "" {
			x, err := strconv.ParseBool(v)
			if err != nil {
				return fmt.Errorf("%s=%q: want true or false", b.name, v)
			}
			*b.dst = x
		}
	}
	for _, n := range []struct {
		name string
		dst  *int
	}{{"ANNALS_CHUNK_MAX_CHARS", &c.Chunk.MaxChars}, {"ANNALS_CHUNK_OVERLAP", &c.Chunk.Overlap}, {"ANNALS_WORKERS", &c.Workers}} {
		if err := num(n.name, n.dst); err != nil {
			return err
		}
	}
	str("ANNALS_EXTRACTOR", &c.Extract.Extractor)
	str("ANNALS_EXTRACT_MODEL", &c.Extract.Model)
	str("ANNALS_LLM_BASE_URL", &c.LLM.BaseURL)
	str("ANNALS_LLM_MODEL", &c.LLM.Model)
	str("ANNALS_LLM_API_KEY", &c.LLM.APIKey)
	str("ANNALS_LLM_EMBED_MODEL", &c.LLM.EmbedModel)
	for _, n := range []struct {
		name string
		dst  *int
	}{{"ANNALS_LLM_CONCURRENCY", &c.LLM.Concurrency}, {"ANNALS_LLM_MAX_RETRIES", &c.LLM.MaxRetries},
		{"ANNALS_LLM_TIMEOUT_SEC", &c.LLM.TimeoutSec}, {"ANNALS_LLM_CALL_TIMEOUT_SEC", &c.LLM.CallTimeoutSec},
		{"ANNALS_LLM_MAX_TOKENS", &c.LLM.MaxTokens}} {
		if err := num(n.name, n.dst); err != nil {
			return err
		}
	}
	if v := getenv("ANNALS_INDEX_MAX_FILE_SIZE"); v != "" {
		b, err := ParseByteSize(v)
		if err != nil {
			return fmt.Errorf("ANNALS_INDEX_MAX_FILE_SIZE=%w", err)
		}
		c.Index.MaxFileSize = b
	}
	return nil
}

// Validate checks ranges.
func (c Config) Validate() error {
	if c.Store != "" && !strings.HasPrefix(c.Store, "postgres://") && !strings.HasPrefix(c.Store, "postgresql://") {
		return fmt.Errorf("store: want empty (the SQLite file in the workspace) or postgres://USER:PASSWORD@HOST:PORT/DATABASE")
	}
	if c.Chunk.MaxChars < 50 {
		return fmt.Errorf("chunk.max_chars = %d: want at least 50", c.Chunk.MaxChars)
	}
	if c.Chunk.Overlap < 0 || c.Chunk.Overlap >= c.Chunk.MaxChars {
		return fmt.Errorf("chunk.overlap = %d: want 0 ≤ overlap < max_chars (%d)", c.Chunk.Overlap, c.Chunk.MaxChars)
	}
	if c.Workers < 0 {
		return fmt.Errorf("workers = %d: want 0 (one per CPU) or more", c.Workers)
	}
	switch c.Extract.Extractor {
	case "", "pattern", "llm", "ekg", "regex":
	default:
		return fmt.Errorf("extract.extractor = %q: want pattern, llm, ekg or regex", c.Extract.Extractor)
	}
	if e := c.Extract.Examples; e != 0 && e != 1 && e != 5 {
		return fmt.Errorf("extract.examples = %d: want 1, 5, or 0 (zero-shot)", e)
	}
	if c.Extract.Threshold < 0 || c.Extract.Threshold > 10 {
		return fmt.Errorf("extract.threshold = %v: want 0 to 10", c.Extract.Threshold)
	}
	if c.Extract.Growth.Mu <= 0 || c.Extract.Growth.Mu > 1 || c.Extract.Growth.MinChunks < 1 {
		return fmt.Errorf("extract.growth: mu %v must be in (0,1] and min_chunks %d at least 1", c.Extract.Growth.Mu, c.Extract.Growth.MinChunks)
	}
	switch c.Index.Communities {
	case "", "leiden", "dual", "off":
	default:
		return fmt.Errorf("index.communities = %q: want leiden, dual or off", c.Index.Communities)
	}
	if c.Index.MaxFileSize < 1 {
		return fmt.Errorf("index.max_file_size = %d: want at least 1 byte (such as 64MiB)", int64(c.Index.MaxFileSize))
	}
	if c.LLM.Concurrency < 1 {
		return fmt.Errorf("llm.concurrency = %d: want at least 1", c.LLM.Concurrency)
	}
	if c.LLM.MaxTokens < 0 {
		return fmt.Errorf("llm.max_tokens = %d: want 0 (the extractor's default) or more", c.LLM.MaxTokens)
	}
	if c.LLM.MaxRetries < 0 {
		return fmt.Errorf("llm.max_retries = %d: want 0 (no retries) or more", c.LLM.MaxRetries)
	}
	if c.LLM.TimeoutSec < 1 || c.LLM.CallTimeoutSec < 1 {
		return fmt.Errorf("llm.timeout_sec = %d, llm.call_timeout_sec = %d: want at least 1 second each",
			c.LLM.TimeoutSec, c.LLM.CallTimeoutSec)
	}
	return nil
}

// Template is the annals.yaml that init writes: every setting with its
// default, commented.
func Template() string {
	return strings.TrimLeft(`
# annals workspace settings. Precedence: flag > environment > this file > default.

# Where the graph is kept: empty for the SQLite file in this folder, or a
# PostgreSQL database that several servers and an indexer share:
# postgres://USER:PASSWORD@HOST:5432/DATABASE. Env: ANNALS_STORE.
store: ""

# Schema: zh-history, general, or a YAML file. Empty: chosen by language
# (zh-history for Chinese, general for English and Vietnamese). Env: ANNALS_SCHEMA.
schema: ""

normalize:
  # Traditional → simplified for Chinese texts; offsets keep pointing at the
  # original characters. Env: ANNALS_T2S.
  t2s: true

chunk:
  # Largest chunk in characters, and how much of the previous unit a chunk
  # repeats. Env: ANNALS_CHUNK_MAX_CHARS, ANNALS_CHUNK_OVERLAP.
  max_chars: 600
  overlap: 100
  # Follow the units of the writing pattern: a chunk never spans two lives
  # of a biography chapter (opened by 张辽字文远，雁门马邑人也), two years of
  # a chronicle (建安元年, 二年) or the historian's comment (评曰), and its
  # section names the person or the year. Env: ANNALS_CHUNK_PATTERNS.
  patterns: true

# Documents processed at once; 0: one per CPU. Env: ANNALS_WORKERS.
workers: 0

index:
  # Larger files are skipped with a warning. Bytes, or with a unit: 500KB,
  # 256MiB, 2GiB. Env: ANNALS_INDEX_MAX_FILE_SIZE.
  max_file_size: 64MiB
  # How communities of people, places and groups are found: leiden (links,
  # the default), dual (links and what is said of them) or off.
  communities: leiden

extract:
  # pattern (offline rules), llm, ekg (entities only, relations at query
  # time) or regex (LLM-written regexes). Empty: llm when an endpoint is set
  # below, else pattern. Env: ANNALS_EXTRACTOR.
  extractor: ""
  # The name model the offline extractor reads Chinese with: empty for the
  # one annals ships, "rules" for the rules alone, or a model file written
  # by annals train ner. Env: ANNALS_EXTRACT_MODEL.
  model: ""
  # With an LLM: a judge scores each extraction 0–10 (process supervision);
  # facts under the threshold are kept aside, out of the graph.
  judge: true
  threshold: 8
  # Worked examples the LLM extraction prompt shows before the text: 1, 5,
  # or 0 for the five steps alone (zero-shot chain of thought).
  examples: 1
  # Give the LLM, with each chunk, the facts the graph already holds about
  # the entities the chunk names (RAG-augmented extraction).
  rag: false
  # Let the LLM propose new types; one joins the schema once it reaches
  # confidence mu in at least min_chunks chunks.
  growth:
    enabled: false
    mu: 0.8
    min_chunks: 3

# An OpenAI-compatible endpoint (DeepSeek, Qwen behind vLLM, Ollama, a
# llama.cpp server, OpenAI). Unused unless base_url is set or an LLM step is
# named. Env: ANNALS_LLM_BASE_URL, ANNALS_LLM_MODEL, ANNALS_LLM_API_KEY,
# ANNALS_LLM_EMBED_MODEL, ANNALS_LLM_CONCURRENCY, ANNALS_LLM_MAX_RETRIES,
# ANNALS_LLM_TIMEOUT_SEC, ANNALS_LLM_CALL_TIMEOUT_SEC, ANNALS_LLM_MAX_TOKENS.
# OPENAI_API_KEY only fills in a missing key; OPENAI_BASE_URL only a missing
# endpoint for a step named explicitly (--extractor llm).
llm:
  base_url: ""
  model: ""
  api_key: ""
  embed_model: ""
  concurrency: 8
  # A call that fails with 429, 5xx, a time-out or a broken connection is
  # tried again, up to max_retries more times, waiting longer each time.
  max_retries: 4
  # Seconds one attempt waits for its reply (raise it for a slow local
  # model writing long replies).
  timeout_sec: 120
  # Seconds a call may take in all, its attempts and the waits between them
  # together; then it fails, saying so.
  call_timeout_sec: 240
  # Completion tokens one extraction reply may take; 0: the extractor's
  # default (1500). A reply cut off at the limit fails its document, to be
  # tried again: raise this, or lower chunk.max_chars.
  max_tokens: 0
  # Prices per million tokens, to estimate cost (built-in estimates for
  # common models; add or override here):
  # prices:
  #   deepseek-chat: {prompt: 0.27, completion: 1.10}
`, "\n")
}
