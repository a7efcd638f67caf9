package annals

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/annals-project/annals/internal/export"
	"github.com/annals-project/annals/internal/store"
)

// Export formats and the files they write.
type (
	ExportSink   = export.Sink
	ImportReport = store.ImportResult
	SkippedFact  = store.Skipped
)

// ExportOptions narrow an export; the zero value exports the whole graph.
type ExportOptions struct {
	Types     []string // entity types (人物, 地点 …)
	Relations []string // relation types (任官, 子女 …)
	Since     *int     // relations dated in or after this year (astronomical)
	// Around names an entity: only the graph within Depth relations of it
	// (Depth 0 counts as 1).
	Around string
	Depth  int
	// Verified keeps only the facts fit to teach a model: confirmed, or
	// scored by the process-supervision judge at the workspace's
	// extract.threshold or above. The sft format turns it on (ForFormat).
	Verified bool
}

// ForFormat returns opts as a format wants them by default: sft keeps the
// verified facts only, unless all is set.
func (opts ExportOptions) ForFormat(format string, all bool) ExportOptions {
	if format == export.SFT && !all {
		opts.Verified = true
	}
	return opts
}

// ExportGraph reads the graph an export writes: every entity and every
// relation with all its evidence, narrowed by opts.
func (w *Workspace) ExportGraph(ctx context.Context, opts ExportOptions) (*export.Graph, error) {
	f := export.Filter{Types: opts.Types, Relations: opts.Relations, Since: opts.Since, Depth: opts.Depth,
		Verified: opts.Verified, MinScore: w.Config.Extract.Threshold}
	if opts.Around != "" {
		found, err := w.findEntities(ctx, opts.Around)
		if err != nil {
			return nil, fmt.Errorf("export around: %w", err)
		}
		f.Around = found[0].ID
	}
	ents, rels, err := w.db.Graph(ctx)
	if err != nil {
		return nil, err
	}
	return export.Select(ents, rels, f), nil
}

// Export writes the graph in format (graphml, neo4j, csv, jsonl, sft) to sink.
func (w *Workspace) Export(ctx context.Context, format string, sink ExportSink, opts ExportOptions) error {
	if err := export.CheckFormat(format); err != nil {
		return err
	}
	g, err := w.ExportGraph(ctx, opts.ForFormat(format, false))
	if err != nil {
		return err
	}
	return export.Write(format, sink, g)
}

// ImportFacts reads a JSON Lines export (annals export --format jsonl) into
// the workspace, keeping each fact's provenance. The whole file is read
// and checked first: a line that is not a fact stops the import before
// anything is written. Facts whose sentences this workspace does not hold
// are skipped and reported; see sqlite.DB.ImportFacts for what is kept.
func (w *Workspace) ImportFacts(ctx context.Context, path string, waiting func(string)) (*ImportReport, error) {
	var r io.Reader = os.Stdin
	source := "import:-"
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("import: %w", err)
		}
		defer f.Close()
		r, source = f, "import:"+filepath.Base(path)
	}
	facts, err := export.ReadFacts(r)
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", path, err)
	}
	l, err := w.lock(ctx, "annals import", waiting)
	if err != nil {
		return nil, err
	}
	defer l.Unlock()
	in := make([]store.ImportedFact, len(facts))
	for i, f := range facts {
		if f.Extractor == "" {
			f.Extractor = "import" // a record written by hand may not say
		}
		in[i] = store.ImportedFact{Head: f.Head, HeadType: f.HeadType, Type: f.Relation, Tail: f.Tail, TailType: f.TailType,
			Status: f.Status, Extractor: f.Extractor, Score: f.Score}
		for _, c := range f.Evidence {
			in[i].Evidence = append(in[i].Evidence, Evidence{DocKey: c.Doc, Span: Span{Start: c.Start, End: c.End},
				Head: c.Head, Tail: c.Tail, Sentence: c.Quote, Year: c.Year, Precision: c.Precision,
				Reign: c.Reign, ReignYear: c.ReignYear})
		}
	}
	return w.db.ImportFacts(ctx, in, source)
}
