package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestPrecedenceFileThenEnv(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	if err := os.WriteFile(path, []byte("schema: general\nchunk:\n  max_chars: 400\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ANNALS_CHUNK_MAX_CHARS", "300")
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Schema != "general" || c.Chunk.MaxChars != 300 || c.Chunk.Overlap != 100 || !c.Normalize.T2S {
		t.Fatalf("got %+v", c)
	}
}

func TestChunkPatternsSetting(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	if c, err := Load(path); err != nil || !c.Chunk.Patterns {
		t.Fatalf("default: patterns %v, %v", c.Chunk.Patterns, err)
	}
	if err := os.WriteFile(path, []byte("chunk:\n  patterns: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c, err := Load(path); err != nil || c.Chunk.Patterns || c.Chunk.MaxChars != 600 {
		t.Fatalf("file: %+v, %v", c.Chunk, err)
	}
	t.Setenv("ANNALS_CHUNK_PATTERNS", "true")
	if c, err := Load(path); err != nil || !c.Chunk.Patterns {
		t.Fatalf("environment: %+v, %v", c.Chunk, err)
	}
	t.Setenv("ANNALS_CHUNK_PATTERNS", "sometimes")
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "ANNALS_CHUNK_PATTERNS") {
		t.Fatalf("want an error naming ANNALS_CHUNK_PATTERNS, got %v", err)
	}
}

func TestTemplateParsesToDefaults(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	os.WriteFile(path, []byte(Template()), 0o644)
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, Default()) {
		t.Fatalf("template %+v differs from defaults %+v", c, Default())
	}
}

func TestBadValuesAreClearErrors(t *testing.T) {
	t.Setenv("ANNALS_T2S", "maybe")
	if _, err := Load(filepath.Join(t.TempDir(), "none.yaml")); err == nil {
		t.Fatal("want error for ANNALS_T2S=maybe")
	}
	t.Setenv("ANNALS_T2S", "")
	c := Default()
	c.Chunk.Overlap = 600
	if c.Validate() == nil {
		t.Fatal("overlap ≥ max must be rejected")
	}
	for n, ok := range map[int]bool{0: true, 1: true, 5: true, 3: false, -1: false} {
		c := Default()
		c.Extract.Examples = n
		if err := c.Validate(); (err == nil) != ok || !ok && !strings.Contains(err.Error(), "extract.examples") {
			t.Errorf("extract.examples = %d: %v", n, err)
		}
	}
}

func TestOpenAIVariablesOnlyFillIn(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-other")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
	c, _ := Load(filepath.Join(t.TempDir(), "none.yaml"))
	if _, err := c.Endpoint(false, 0); err == nil || c.ExtractorName() != "pattern" {
		t.Fatalf("OPENAI_* alone must not start LLM use: %v %s", err, c.ExtractorName())
	}
	ep, err := c.Endpoint(true, 0)
	if err == nil || ep.BaseURL != "" {
		// explicit use takes the endpoint from OPENAI_BASE_URL but still needs a model
		if err == nil {
			t.Fatalf("no model: want an error, got %+v", ep)
		}
	}
	t.Setenv("ANNALS_LLM_MODEL", "m")
	c, _ = Load(filepath.Join(t.TempDir(), "none.yaml"))
	ep, err = c.Endpoint(true, 500)
	if err != nil || ep.BaseURL != "http://127.0.0.1:9/v1" || ep.APIKey != "sk-other" || ep.MaxTokens != 500 || ep.Concurrency != 8 {
		t.Fatalf("explicit use fills in endpoint and key: %+v %v", ep, err)
	}
	t.Setenv("ANNALS_LLM_BASE_URL", "http://127.0.0.1:8/v1")
	t.Setenv("ANNALS_LLM_API_KEY", "sk-mine")
	c, _ = Load(filepath.Join(t.TempDir(), "none.yaml"))
	ep, _ = c.Endpoint(false, 0)
	if ep.BaseURL != "http://127.0.0.1:8/v1" || ep.APIKey != "sk-mine" || c.ExtractorName() != "llm" {
		t.Fatalf("ANNALS_* win over OPENAI_*: %+v", ep)
	}
}

func TestMaxFileSize(t *testing.T) {
	for in, want := range map[string]ByteSize{
		"1000": 1000, "256MiB": 256 << 20, "64 MiB": 64 << 20, "500KB": 500_000, "2G": 2 << 30, "1gb": 1e9, "7B": 7,
	} {
		if got, err := ParseByteSize(in); err != nil || got != want {
			t.Errorf("ParseByteSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MiB", "12 parsecs", "-5", "1.5GiB", "99999999999GiB"} {
		if _, err := ParseByteSize(in); err == nil {
			t.Errorf("ParseByteSize(%q): no error", in)
		}
	}
	if s := ByteSize(64 << 20).String(); s != "64MiB" {
		t.Errorf("64 MiB reads %q", s)
	}
	if s := ByteSize(1500).String(); s != "1500 bytes" {
		t.Errorf("1500 bytes reads %q", s)
	}

	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	for yaml, want := range map[string]ByteSize{
		"index:\n  max_file_size: 1000\n":      1000,
		"index:\n  max_file_size: 256MiB\n":    256 << 20,
		"index:\n  max_file_size: \"1 KiB\"\n": 1024,
		"workers: 2\n":                         DefaultMaxFileSize,
	} {
		os.WriteFile(path, []byte(yaml), 0o644)
		c, err := Load(path)
		if err != nil || c.Index.MaxFileSize != want {
			t.Errorf("%q: %d, %v; want %d", yaml, c.Index.MaxFileSize, err, want)
		}
	}
	for _, yaml := range []string{"index:\n  max_file_size: lots\n", "index:\n  max_file_size: 0\n"} {
		os.WriteFile(path, []byte(yaml), 0o644)
		if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "max_file_size") && !strings.Contains(err.Error(), "lots") {
			t.Errorf("%q: err = %v", yaml, err)
		}
	}
	os.WriteFile(path, []byte("index:\n  max_file_size: 1000\n"), 0o644)
	t.Setenv("ANNALS_INDEX_MAX_FILE_SIZE", "2KiB")
	if c, err := Load(path); err != nil || c.Index.MaxFileSize != 2048 {
		t.Errorf("environment over file: %d, %v", c.Index.MaxFileSize, err)
	}
}

func TestLLMTimeouts(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	os.WriteFile(path, []byte("llm:\n  base_url: http://127.0.0.1:9/v1\n  model: m\n  call_timeout_sec: 600\n  max_retries: 0\n"), 0o644)
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	ep, err := c.Endpoint(false, 0)
	if err != nil || ep.CallTimeoutSec != 600 || ep.TimeoutSec != 120 || ep.MaxRetries >= 0 {
		// max_retries: 0 means no retries, which llm.Config spells as a negative number.
		t.Fatalf("endpoint %+v, %v", ep, err)
	}
	t.Setenv("ANNALS_LLM_CALL_TIMEOUT_SEC", "90")
	t.Setenv("ANNALS_LLM_TIMEOUT_SEC", "30")
	t.Setenv("ANNALS_LLM_MAX_RETRIES", "2")
	c, _ = Load(path)
	if ep, _ = c.Endpoint(false, 0); ep.CallTimeoutSec != 90 || ep.TimeoutSec != 30 || ep.MaxRetries != 2 {
		t.Fatalf("environment over file: %+v", ep)
	}
	t.Setenv("ANNALS_LLM_CALL_TIMEOUT_SEC", "0")
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "call_timeout_sec") {
		t.Fatalf("call_timeout_sec 0: err = %v", err)
	}
}

func TestLLMMaxTokens(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	os.WriteFile(path, []byte("llm:\n  max_tokens: 3000\n"), 0o644)
	c, err := Load(path)
	if err != nil || c.LLM.MaxTokens != 3000 {
		t.Fatalf("%+v, %v", c.LLM, err)
	}
	t.Setenv("ANNALS_LLM_MAX_TOKENS", "4000")
	if c, err = Load(path); err != nil || c.LLM.MaxTokens != 4000 {
		t.Fatalf("%+v, %v", c.LLM, err)
	}
	t.Setenv("ANNALS_LLM_MAX_TOKENS", "-1")
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "llm.max_tokens") {
		t.Fatalf("err = %v", err)
	}
}
