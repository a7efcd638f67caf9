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
)

// Config is everything a workspace can be told.
type Config struct {
	// Schema is a shipped schema name or a YAML file; empty chooses by
	// language (zh-history for Chinese, general otherwise).
	Schema    string    `yaml:"schema" json:"schema"`
	Normalize Normalize `yaml:"normalize" json:"normalize"`
	Chunk     Chunk     `yaml:"chunk" json:"chunk"`
	// Workers is how many documents are processed at once; 0 means one per CPU.
	Workers int `yaml:"workers" json:"workers"`
	LLM     LLM `yaml:"llm" json:"llm"`
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
}

// LLM names an OpenAI-compatible endpoint. Unused unless BaseURL is set.
type LLM struct {
	BaseURL string `yaml:"base_url" json:"base_url"`
	Model   string `yaml:"model" json:"model"`
	APIKey  string `yaml:"api_key" json:"-"`
}

// Default is the configuration with nothing set.
func Default() Config {
	return Config{Normalize: Normalize{T2S: true}, Chunk: Chunk{MaxChars: 600, Overlap: 100}}
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
	str("ANNALS_SCHEMA", &c.Schema)
	if v := getenv("ANNALS_T2S"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("ANNALS_T2S=%q: want true or false", v)
		}
		c.Normalize.T2S = b
	}
	for _, n := range []struct {
		name string
		dst  *int
	}{{"ANNALS_CHUNK_MAX_CHARS", &c.Chunk.MaxChars}, {"ANNALS_CHUNK_OVERLAP", &c.Chunk.Overlap}, {"ANNALS_WORKERS", &c.Workers}} {
		if err := num(n.name, n.dst); err != nil {
			return err
		}
	}
	str("ANNALS_LLM_BASE_URL", &c.LLM.BaseURL)
	str("ANNALS_LLM_MODEL", &c.LLM.Model)
	str("ANNALS_LLM_API_KEY", &c.LLM.APIKey)
	// OPENAI_* only fill in what is missing, and only once an endpoint is
	// chosen: a key set for another program never starts paid calls here.
	if c.LLM.BaseURL != "" && c.LLM.APIKey == "" {
		c.LLM.APIKey = getenv("OPENAI_API_KEY")
	}
	return nil
}

// Validate checks ranges.
func (c Config) Validate() error {
	if c.Chunk.MaxChars < 50 {
		return fmt.Errorf("chunk.max_chars = %d: want at least 50", c.Chunk.MaxChars)
	}
	if c.Chunk.Overlap < 0 || c.Chunk.Overlap >= c.Chunk.MaxChars {
		return fmt.Errorf("chunk.overlap = %d: want 0 ≤ overlap < max_chars (%d)", c.Chunk.Overlap, c.Chunk.MaxChars)
	}
	if c.Workers < 0 {
		return fmt.Errorf("workers = %d: want 0 (one per CPU) or more", c.Workers)
	}
	return nil
}

// Template is the annals.yaml that init writes: every setting with its
// default, commented.
func Template() string {
	return strings.TrimLeft(`
# annals workspace settings. Precedence: flag > environment > this file > default.

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

# Documents processed at once; 0: one per CPU. Env: ANNALS_WORKERS.
workers: 0

# An OpenAI-compatible endpoint makes extraction and answers better. Unused
# unless base_url is set. Env: ANNALS_LLM_BASE_URL, ANNALS_LLM_MODEL,
# ANNALS_LLM_API_KEY (OPENAI_API_KEY only fills in a missing key).
llm:
  base_url: ""
  model: ""
  api_key: ""
`, "\n")
}
