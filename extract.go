package annals

import (
	"context"

	"github.com/annals-project/annals/internal/config"
	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/pipeline"
)

// ExtractOptions tunes Extract.
type ExtractOptions struct {
	Schema string // schema name or YAML file; "" chooses by language
	// NoT2S keeps traditional characters as they are.
	NoT2S bool
	Title string // a chapter title helps resolve short names
	// Names are read as persons wherever they occur: names the
	// recogniser misses.
	Names []string
	// Extractor is pattern, llm, ekg or regex; "" chooses from the
	// settings (Config, else the environment).
	Extractor string
	// Config supplies the LLM endpoint and extraction settings; nil reads
	// them from the environment.
	Config *Config
	// PromptDir holds prompt templates that replace the built-in ones.
	PromptDir string
	// Waiting, when set, is told while an LLM call waits for a retry or
	// for a slow reply, in a sentence (see IndexOptions.Waiting).
	Waiting func(string)
}

// Extract reads entities and relations from a text without a workspace, as
// indexing would. Offsets are code points into s. It also returns the
// language it detected.
func Extract(ctx context.Context, s string, opts ExtractOptions) (ExtractResult, string, error) {
	var conf Config
	if opts.Config != nil {
		conf = *opts.Config
	} else {
		var err error
		if conf, err = config.Load(""); err != nil {
			return ExtractResult{}, "", err
		}
	}
	ex, run, err := buildExtractor(ctx, conf, opts.PromptDir, nil, opts.Extractor, 0, opts.Waiting)
	if err != nil {
		return ExtractResult{}, "", err
	}
	po := pipeline.ExtractOptions{Schema: opts.Schema, T2S: !opts.NoT2S, Title: opts.Title, Extractor: extract.WithNames(ex, opts.Names), Chunk: chunkOptions(conf)}
	if run != nil {
		po.Parallel = run.cfg.Concurrency
	}
	return pipeline.ExtractText(ctx, s, po)
}

// NamedExtractor builds an extractor by name (pattern, llm, ekg or regex;
// "" as the settings choose) with the settings of conf, for scoring any of
// them as indexing would run it; model, when set, replaces
// extract.model. Without a workspace, LLM replies are cached in memory
// only.
func NamedExtractor(ctx context.Context, conf Config, name, model string, waiting func(string)) (extract.Extractor, error) {
	if model != "" {
		conf.Extract.Model = model
	}
	ex, _, err := buildExtractor(ctx, conf, "", nil, name, 0, waiting)
	return ex, err
}
