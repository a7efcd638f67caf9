package annals

import (
	"context"

	"github.com/annals-project/annals/internal/config"
	"github.com/annals-project/annals/internal/extract/pattern"
	"github.com/annals-project/annals/internal/pipeline"
)

// ExtractOptions tunes Extract.
type ExtractOptions struct {
	Schema string // schema name or YAML file; "" chooses by language
	// NoT2S keeps traditional characters as they are.
	NoT2S bool
	Title string // a chapter title helps resolve short names
}

// Extract reads entities and relations from a text without a workspace, as
// indexing would. Offsets are code points into s. It also returns the
// language it detected.
func Extract(ctx context.Context, s string, opts ExtractOptions) (ExtractResult, string, error) {
	d := config.Default()
	return pipeline.ExtractText(ctx, s, pipeline.ExtractOptions{
		Schema: opts.Schema, T2S: !opts.NoT2S, Title: opts.Title, Extractor: pattern.New(),
		Chunk: chunkOptions(d),
	})
}
