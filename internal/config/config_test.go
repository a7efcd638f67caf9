package config

import (
	"os"
	"path/filepath"
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
	if c != Default() {
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

func TestOpenAIKeyOnlyFillsInWithEndpoint(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-other")
	c, _ := Load(filepath.Join(t.TempDir(), "none.yaml"))
	if c.LLM.APIKey != "" || c.LLM.BaseURL != "" {
		t.Fatalf("OPENAI_API_KEY alone must not configure annals: %+v", c.LLM)
	}
	t.Setenv("ANNALS_LLM_BASE_URL", "http://127.0.0.1:9/v1")
	c, _ = Load(filepath.Join(t.TempDir(), "none.yaml"))
	if c.LLM.APIKey != "sk-other" {
		t.Fatalf("with an endpoint, OPENAI_API_KEY should fill in the key: %+v", c.LLM)
	}
}
