package config

import (
	"os"
	"path/filepath"
	"reflect"
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
