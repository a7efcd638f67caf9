// Package annals turns historical texts into a knowledge graph whose every
// fact cites the sentence it came from, offline by default.
//
//	ws, err := annals.Open(ctx, ".annals")
//	defer ws.Close()
//	rep, err := ws.Index(ctx, []string{"corpus/"}, annals.IndexOptions{})
//	view, err := ws.Entity(ctx, "诸葛亮", annals.EntityOptions{})
//
// The command-line tool cmd/annals is a thin layer over this package.
package annals

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/annals-project/annals/internal/cached"
	"github.com/annals-project/annals/internal/community"
	"github.com/annals-project/annals/internal/config"
	"github.com/annals-project/annals/internal/corpus"
	"github.com/annals-project/annals/internal/embed"
	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/pipeline"
	"github.com/annals-project/annals/internal/relate"
	"github.com/annals-project/annals/internal/resolve"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/store/sqlstore"
	"github.com/annals-project/annals/internal/workspace"
)

// The graph's types, as the rest of the program uses them.
type (
	Document    = kg.Document
	Chunk       = kg.Chunk
	Entity      = kg.Entity
	Alias       = kg.Alias
	Relation    = kg.Relation
	Evidence    = kg.Evidence
	Mention     = kg.Mention
	Span        = kg.Span
	Stats       = store.Stats
	Community   = kg.Community
	Attribute   = kg.Attribute
	IndexReport = pipeline.Report
	// StepTime is what one step of an index run cost.
	StepTime = pipeline.StepTime
	Progress = pipeline.Progress
	Config   = config.Config
	// ExtractResult is what an extractor found, offsets into its input.
	ExtractResult = extract.Result
)

// ErrNotFound is returned when a document or entity does not exist.
var ErrNotFound = store.ErrNotFound

// Workspace is an opened workspace: a folder with the graph's database, its
// settings and prompt overrides.
type Workspace struct {
	Dir    string
	Config Config
	db     *sqlstore.DB
	// chunkVectors is read on the first question that needs it, not at
	// Open, so that commands which never ask stay quick to start.
	chunkVectors cached.Value[string, *vectorSet]
	// entityVecs are the entities' stored vectors, read on the first
	// question too; factVecs the facts' texts embedded in memory then.
	entityVecs, factVecs cached.Value[string, *vectorSet]
	// relateGraph is keyed by the chunks' changes, the highest chunk id,
	// the highest relation id and the alignments that wrote anything:
	// another process indexed, fed back or aligned.
	relateGraph cached.Value[[4]int64, *relate.EKG]
	// communities are the reports every question ranks, keyed by the
	// signature the communities step wrote them under.
	communities cached.Value[string, []kg.Community]
	lexical     lazyLexical
	reader      lazyReader
}

// OpenOptions tune OpenWith.
type OpenOptions struct {
	// ForIndexing opens the workspace for a long write: its database is
	// read through each connection's own cache, not a memory map, whose
	// pages would count in the peak memory of the run.
	ForIndexing bool
}

// mapBytes is how much of the database a workspace opened for reading
// maps into memory.
const mapBytes = 1 << 30

// Open opens the workspace in dir, creating it (with a commented
// annals.yaml) if it does not exist yet.
func Open(ctx context.Context, dir string) (*Workspace, error) {
	return OpenWith(ctx, dir, OpenOptions{})
}

// OpenWith is Open tuned by o.
func OpenWith(ctx context.Context, dir string, o OpenOptions) (*Workspace, error) {
	if err := workspace.Init(dir); err != nil {
		return nil, err
	}
	cfg, err := config.Load(filepath.Join(dir, config.FileName))
	if err != nil {
		return nil, err
	}
	var db *sqlstore.DB
	if cfg.Store != "" {
		db, err = sqlstore.OpenPostgres(ctx, cfg.Store)
	} else {
		var so sqlstore.Options
		if !o.ForIndexing {
			so.MapBytes = mapBytes
		}
		db, err = sqlstore.OpenWith(ctx, filepath.Join(dir, workspace.DBName), so)
	}
	if err != nil {
		return nil, err
	}
	w := &Workspace{Dir: dir, Config: cfg, db: db}
	w.reader.model = cfg.Extract.Model
	return w, nil
}

// Close releases the workspace.
func (w *Workspace) Close() error { return w.db.Close() }

// unlocker is a held writer lock.
type unlocker interface{ Unlock() error }

// lock takes the writer lock, waiting (and saying so) while another process
// writes: the workspace folder's, or the PostgreSQL database's, which
// writers on other machines take too.
func (w *Workspace) lock(ctx context.Context, command string, waiting func(string)) (unlocker, error) {
	if waiting != nil {
		told := waiting
		waiting = func(msg string) { told(msg + "; waiting for it to finish") }
	}
	if w.db.Postgres() {
		l, err := w.db.WriterLock(ctx, waiting)
		if err != nil {
			return nil, err
		}
		return l, nil
	}
	l, err := workspace.WaitLock(ctx, w.Dir, command, waiting)
	if err != nil {
		return nil, err
	}
	return l, nil
}

// IndexOptions tunes Index.
type IndexOptions struct {
	Progress func(Progress) // told after every document
	Warn     func(string)   // told about every skipped file
	// Waiting is told what the run waits for, in a sentence: once if
	// another process holds the workspace, and while an LLM call waits,
	// before each retry ("waiting for the LLM (extract): attempt 2 of 5
	// after HTTP 503, retry in 8s, 2m10s left") and every few seconds
	// while an attempt has long had no reply. It is called from many
	// goroutines at once.
	Waiting func(string)
	// Within, when set, confines symbolic links met on the way to these
	// folders (real paths), for indexing on a server's behalf.
	Within []string
	// AfterCommit runs after each committed batch and BeforeCommit inside
	// each batch's transaction before it commits (crash tests kill there).
	AfterCommit  func(batch int)
	BeforeCommit func()
	// Extractor is pattern, llm, ekg or regex; "" takes the settings'.
	Extractor string
	// Model is the offline extractor's name model (extract.model); ""
	// takes the settings'.
	Model string
	// MaxTokens is the run's LLM token budget; 0 means none. The run stops
	// cleanly before a call would pass it, keeping what it finished.
	MaxTokens int
}

// Index reads files and folders into the graph. Unchanged documents are a
// no-op; a changed one has its facts replaced.
func (w *Workspace) Index(ctx context.Context, paths []string, opts IndexOptions) (*IndexReport, error) {
	if len(paths) == 0 {
		return nil, errors.New("nothing to index: name at least one file or folder")
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("index %s: %w", p, err)
		}
	}
	l, err := w.lock(ctx, "annals index", opts.Waiting)
	if err != nil {
		return nil, err
	}
	defer l.Unlock()
	conf := w.Config
	if opts.Model != "" {
		conf.Extract.Model = opts.Model
	}
	ex, run, err := buildExtractor(ctx, conf, filepath.Join(w.Dir, "prompts"), w.db, opts.Extractor, opts.MaxTokens, opts.Waiting)
	if err != nil {
		return nil, err
	}
	w.db.SetBeforeCommit(opts.BeforeCommit)
	defer w.db.SetBeforeCommit(nil)
	po := pipeline.Options{
		Schema:      w.Config.Schema,
		T2S:         w.Config.Normalize.T2S,
		Chunk:       chunkOptions(w.Config),
		Workers:     w.Config.Workers,
		Extractor:   ex,
		Progress:    opts.Progress,
		Warn:        opts.Warn,
		Within:      opts.Within,
		MaxBytes:    int64(w.Config.Index.MaxFileSize),
		AfterCommit: opts.AfterCommit,
	}
	if run != nil {
		// Calls wait on the network, not the CPU: keep as many in flight as
		// the endpoint allows, across documents and within them.
		po.Workers = run.cfg.Concurrency
		po.Parallel = run.cfg.Concurrency
		if run.growth != nil {
			po.Extend = run.growth.Apply
		}
	}
	// Vectors for retrieval: the endpoint's embedding model when one is
	// named, else the offline model learned from the corpus.
	var em embed.Embedder
	if run != nil && run.cfg.EmbedModel != "" && w.Config.LLM.EmbedModel != "" {
		em = embed.NewOpenAI(run.client, 0)
	}
	steps, err := pipeline.Standard(po, w.db)
	if err != nil {
		return nil, err
	}
	po.Steps = append(steps,
		// Packed once embedded, so the next question reads them in one piece.
		pipeline.Embedding(w.db, em, func(ctx context.Context) error {
			if _, err := w.vectors(ctx); err != nil {
				return err
			}
			_, err := w.entityVectors(ctx)
			return err
		}),
		pipeline.Dating(w.db))
	if m := w.Config.Index.Communities; m != "off" {
		// With a model, it writes the reports too, from the offline ones.
		var writer pipeline.ReportWriter
		if run != nil {
			writer = community.Writer{Client: run.client, Model: run.cfg.Model, PromptDir: filepath.Join(w.Dir, "prompts")}
		}
		po.Steps = append(po.Steps, pipeline.CommunitiesWritten(w.db, m, writer))
	}
	rep, err := pipeline.Index(ctx, w.db, paths, po)
	usage, ferr := w.finish(ctx, run, "index")
	if rep != nil {
		rep.Usage = usage
	}
	if err == nil {
		err = ferr
	}
	return rep, err
}

// Stats counts what the workspace holds.
func (w *Workspace) Stats(ctx context.Context) (*Stats, error) { return w.db.Stats(ctx) }

// Documents lists the indexed documents.
func (w *Workspace) Documents(ctx context.Context) ([]Document, error) { return w.db.Documents(ctx) }

// Remove deletes a document, named by its key or a unique prefix of its key
// or id, with exactly the facts that only it supported, and its record of
// failure if it has one. A key that only failed, never stored, has its
// record of failure removed; the Document returned then has ID 0.
func (w *Workspace) Remove(ctx context.Context, keyOrPrefix string, waiting func(string)) (*Document, error) {
	docs, err := w.RemoveDocuments(ctx, []string{keyOrPrefix}, RemoveOptions{Waiting: waiting})
	if err != nil {
		return nil, err
	}
	return &docs[0], nil
}

// RemoveOptions tunes RemoveDocuments.
type RemoveOptions struct {
	// Waiting is told, in a sentence, when another process holds the
	// workspace.
	Waiting func(string)
	// Progress, when set, is told as each step begins: Step is "remove"
	// with Key the document, then "align"; Documents counts the documents
	// removed so far and Total those to remove.
	Progress func(Progress)
}

// FindDocuments finds the documents names name, as RemoveDocuments reads
// them, and changes nothing: what a removal would remove. A name is a key,
// a unique prefix of a key, or an id; the key of a document that failed
// and was never stored gives a Document with ID 0.
func (w *Workspace) FindDocuments(ctx context.Context, names []string) ([]Document, error) {
	var fails []store.Failure
	var out []Document
	seen := map[string]bool{}
	for _, name := range names {
		d, err := w.db.Document(ctx, name)
		if errors.Is(err, ErrNotFound) {
			if fails == nil {
				if fails, err = w.db.Failures(ctx); err != nil {
					return nil, err
				}
			}
			found := false
			for _, f := range fails {
				if f.Key == name {
					d, err, found = &Document{Key: f.Key}, nil, true
					break
				}
			}
			if !found {
				err = fmt.Errorf("document %q: %w", name, ErrNotFound)
			}
		}
		if err != nil {
			return nil, err
		}
		if seen[d.Key] {
			continue
		}
		seen[d.Key] = true
		d.Text, d.Norm = "", ""
		out = append(out, *d)
	}
	return out, nil
}

// RemoveDocuments deletes the documents names name (see FindDocuments),
// each with exactly the facts that only it supported and its record of
// failure, then aligns the entities once. Nothing is removed when a name
// finds no document.
func (w *Workspace) RemoveDocuments(ctx context.Context, names []string, opts RemoveOptions) ([]Document, error) {
	l, err := w.lock(ctx, "annals rm", opts.Waiting)
	if err != nil {
		return nil, err
	}
	defer l.Unlock()
	docs, err := w.FindDocuments(ctx, names)
	if err != nil {
		return nil, err
	}
	tell := func(p Progress) {
		if opts.Progress != nil {
			p.Total = len(docs)
			opts.Progress(p)
		}
	}
	removed := false
	for i, d := range docs {
		tell(Progress{Step: "remove", Key: d.Key, Documents: i})
		if d.ID == 0 {
			if err := w.db.ClearFailures(ctx, []string{d.Key}); err != nil {
				return nil, err
			}
			continue
		}
		if err := w.db.RemoveDocument(ctx, d.ID); err != nil {
			return nil, err
		}
		removed = true
	}
	if removed {
		tell(Progress{Step: pipeline.StepAlign, Documents: len(docs)})
		if _, err := resolve.Align(ctx, w.db, false); err != nil {
			return nil, err
		}
	}
	return docs, nil
}

// EntityQuery filters Entities.
type EntityQuery = store.EntityQuery

// Entities lists entities, most mentioned first.
func (w *Workspace) Entities(ctx context.Context, q EntityQuery) ([]Entity, error) {
	return w.db.ListEntities(ctx, q)
}

// chunkOptions turns settings into chunker options; overlap 0 in the
// settings means none, which the chunker spells as a negative number.
func chunkOptions(c Config) corpus.ChunkOptions {
	o := corpus.ChunkOptions{MaxChars: c.Chunk.MaxChars, Overlap: c.Chunk.Overlap, Patterns: c.Chunk.Patterns}
	if o.Overlap == 0 {
		o.Overlap = -1
	}
	return o
}
