package annals

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/extract/ekg"
	llmextract "github.com/annals-project/annals/internal/extract/llm"
	"github.com/annals-project/annals/internal/extract/pattern"
	"github.com/annals-project/annals/internal/extract/pattern/zh"
	"github.com/annals-project/annals/internal/extract/regex"
	"github.com/annals-project/annals/internal/extract/score"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/ner"
	"github.com/annals-project/annals/internal/schema"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/store/sqlstore"
)

// Extractors annals offers.
const (
	ExtractorPattern = "pattern" // offline rules and gazetteers
	ExtractorLLM     = "llm"     // five-step chain of thought, bounded by the schema
	ExtractorEKG     = "ekg"     // entities only; relations found at query time
	ExtractorRegex   = "regex"   // regexes an LLM writes per writing pattern
)

// growthState names the stored state of schema growth.
const growthState = "schema_growth"

// llmRun is what a run that may call an LLM carries: the client, the meter
// that counts its tokens, and the schema growth it feeds.
type llmRun struct {
	client llm.Client
	meter  *llm.Meter
	cfg    llm.Config
	growth *schema.Growth
}

// usage turns the meter's figures into rows to store and print.
func (r *llmRun) usage(command string) []store.UsageRow {
	if r == nil || r.meter == nil {
		return nil
	}
	var rows []store.UsageRow
	price := r.cfg.Prices[r.cfg.Model]
	for step, u := range r.meter.ByStep() {
		rows = append(rows, store.UsageRow{
			Command: command, Step: step, Model: r.cfg.Model, Calls: u.Calls, Cached: u.CachedCalls,
			PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, Estimated: u.Estimated,
			Cost: (float64(u.PromptTokens)*price.Prompt + float64(u.CompletionTokens)*price.Completion) / 1e6,
		})
	}
	return rows
}

// newClient opens the endpoint in cfg. waiting, when set, is told (from
// any goroutine) each time a call waits: for a retry, with the attempt,
// the failure and the time left, or for a reply long in coming.
func newClient(cfg llm.Config, cache llm.Cache, meter *llm.Meter, waiting func(string)) (llm.Client, error) {
	var o llm.Options
	if waiting != nil {
		o.OnWait = func(wt llm.Wait) { waiting(wt.String()) }
	}
	return llm.NewWithOptions(cfg, cache, meter, o)
}

// OfflineExtractor is the offline extractor with the name model named as
// extract.model names it: "" for the embedded one, "rules" for the rules
// alone, else a model file.
func OfflineExtractor(model string) (extract.Extractor, error) { return offlineExtractor(model) }

func offlineExtractor(model string) (*pattern.Extractor, error) {
	switch model {
	case "":
		return pattern.New(), nil
	case "rules":
		return pattern.Rules(), nil
	}
	r, err := ner.LoadRecogniser(model)
	if err != nil {
		return nil, fmt.Errorf("extract.model: %w", err)
	}
	return pattern.WithChinese(zh.NewWith(r, pattern.Relations())), nil
}

// lazyReader is the workspace's offline extractor for reading a sentence
// again at question time, built on first use so that questions which need
// none do not load the name model.
type lazyReader struct {
	once  sync.Once
	model string
	ex    extract.Extractor
	err   error
}

func (l *lazyReader) Name() string    { return "pattern" }
func (l *lazyReader) Version() string { return "" }

func (l *lazyReader) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	l.once.Do(func() { l.ex, l.err = OfflineExtractor(l.model) })
	if l.err != nil {
		return extract.Result{}, l.err
	}
	return l.ex.Extract(ctx, in)
}

// buildExtractor builds the named extractor (or the one the settings choose
// when name is ""). An LLM is used only when an endpoint is configured, or
// when an LLM extractor is named and OPENAI_BASE_URL supplies one. Without a
// workspace (db nil) responses are cached in memory only, and learned
// patterns and schema growth last for the call. waiting hears of calls
// that wait (see newClient).
func buildExtractor(ctx context.Context, conf Config, promptDir string, db *sqlstore.DB, name string, maxTokens int, waiting func(string)) (extract.Extractor, *llmRun, error) {
	explicit := name != "" || conf.Extract.Extractor != ""
	if name == "" {
		name = conf.ExtractorName()
	}
	offline, err := offlineExtractor(conf.Extract.Model)
	if err != nil {
		return nil, nil, err
	}
	var run *llmRun
	connect := func(required bool) error {
		cfg, err := conf.Endpoint(explicit, maxTokens)
		if errors.Is(err, llm.ErrNotConfigured) && !required {
			return nil
		}
		if err != nil {
			return fmt.Errorf("extractor %s: %w", name, err)
		}
		meter := llm.NewMeter(maxTokens)
		var cache llm.Cache = llm.NewMemoryCache()
		if db != nil {
			cache = db.Cache()
		}
		c, err := newClient(cfg, cache, meter, waiting)
		if err != nil {
			return err
		}
		run = &llmRun{client: c, meter: meter, cfg: cfg}
		return nil
	}
	switch name {
	case ExtractorPattern:
		return offline, nil, nil
	case ExtractorLLM:
		if err := connect(true); err != nil {
			return nil, nil, err
		}
		ex, err := llmExtractor(ctx, conf, promptDir, db, run)
		if err == nil && conf.Extract.RAG && db != nil {
			ex = ragExtractor{ex, db}
		}
		return ex, run, err
	case ExtractorEKG:
		if err := connect(false); err != nil {
			return nil, nil, err
		}
		var c llm.Client
		if run != nil {
			c = run.client
		}
		return ekg.New(offline, c), run, nil
	case ExtractorRegex:
		if err := connect(false); err != nil {
			return nil, nil, err
		}
		var c llm.Client
		var fallback extract.Extractor = offline
		if run != nil {
			c = run.client
			ex, err := llmExtractor(ctx, conf, promptDir, db, run)
			if err != nil {
				return nil, nil, err
			}
			fallback = ex
		}
		var ps regex.Store
		if db != nil {
			ps = patternStore{db}
		}
		// Narrative text mixes formulae the regexes read with prose only the
		// fallback reads: supplement with the offline rules, which cost
		// nothing, but call the LLM only where no regex works.
		return regex.New(c, fallback, regex.Options{Store: ps, Supplement: run == nil}), run, nil
	}
	return nil, nil, fmt.Errorf("unknown extractor %q: want pattern, llm, ekg or regex", name)
}

// llmExtractor is the chain-of-thought extractor with the prompt overrides
// and schema growth.
func llmExtractor(ctx context.Context, conf Config, promptDir string, db *sqlstore.DB, run *llmRun) (extract.Extractor, error) {
	g := conf.Extract.Growth
	opts := llmextract.Options{PromptDir: promptDir, AllowGrowth: g.Enabled, MaxTokens: conf.LLM.MaxTokens, Shots: shots(conf.Extract.Examples)}
	if g.Enabled {
		growth, err := loadGrowth(ctx, conf, db)
		if err != nil {
			return nil, err
		}
		run.growth, opts.Growth = growth, growth
	}
	ex := llmextract.New(run.client, opts)
	if err := ex.Check(); err != nil {
		return nil, err
	}
	if !conf.Extract.Judge {
		return ex, nil
	}
	judge := score.NewJudge(run.client, score.Options{PromptDir: promptDir})
	if err := judge.Check(); err != nil {
		return nil, err
	}
	return &supervised{ex: ex, judge: judge, threshold: conf.Extract.Threshold}, nil
}

// shots maps extract.examples onto the prompt variants.
func shots(examples int) int {
	switch examples {
	case 0:
		return llmextract.ZeroShot
	case 5:
		return llmextract.FiveShot
	}
	return llmextract.OneShot
}

// loadGrowth reads the workspace's schema growth state (none without one).
func loadGrowth(ctx context.Context, conf Config, db *sqlstore.DB) (*schema.Growth, error) {
	g := conf.Extract.Growth
	growth := schema.NewGrowth(schema.GrowthOptions{Threshold: g.Mu, MinChunks: g.MinChunks})
	if db == nil {
		return growth, nil
	}
	data, err := db.State(ctx, growthState)
	if err != nil || data == nil {
		return growth, err
	}
	if err := json.Unmarshal(data, growth); err != nil {
		return nil, fmt.Errorf("read schema growth state: %w", err)
	}
	return growth, nil
}

// finish stores what an LLM run leaves behind: its usage and the state of
// schema growth.
func (w *Workspace) finish(ctx context.Context, run *llmRun, command string) ([]store.UsageRow, error) {
	if run == nil {
		return nil, nil
	}
	rows := run.usage(command)
	if len(rows) > 0 {
		if err := w.db.RecordUsage(ctx, rows); err != nil {
			return rows, err
		}
	}
	if run.growth != nil {
		data, err := json.Marshal(run.growth)
		if err != nil {
			return rows, err
		}
		if err := w.db.SetState(ctx, growthState, data); err != nil {
			return rows, err
		}
	}
	return rows, nil
}

// patternStore keeps the regex extractor's learned patterns in the
// workspace database.
type patternStore struct {
	db interface {
		Patterns(context.Context) ([][]byte, error)
		SavePattern(context.Context, string, []byte) error
	}
}

func (s patternStore) Load(ctx context.Context) ([]regex.Pattern, error) {
	blobs, err := s.db.Patterns(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]regex.Pattern, 0, len(blobs))
	for _, b := range blobs {
		var p regex.Pattern
		if json.Unmarshal(b, &p) == nil {
			out = append(out, p)
		}
	}
	return out, nil
}

func (s patternStore) Save(ctx context.Context, p regex.Pattern) error {
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	sum := sha256.Sum256([]byte(p.Schema + "\x00" + p.Lang + "\x00" + p.Regex))
	return s.db.SavePattern(ctx, hex.EncodeToString(sum[:]), b)
}

// SchemaGrowth is what the LLM proposed to add to the schema: the types that
// joined it and those still short of enough confident chunks.
type SchemaGrowth struct {
	Accepted []schema.Candidate `json:"accepted"`
	Pending  []schema.Candidate `json:"pending"`
}

// Growth reads the workspace's schema growth.
func (w *Workspace) Growth(ctx context.Context) (*SchemaGrowth, error) {
	g, err := loadGrowth(ctx, w.Config, w.db)
	if err != nil {
		return nil, err
	}
	return &SchemaGrowth{Accepted: g.Accepted(), Pending: g.Pending()}, nil
}

// ActiveSchema is the schema a language's documents are extracted with: the
// configured or default one, widened by the types that grew.
func (w *Workspace) ActiveSchema(ctx context.Context, lang string) (*schema.Schema, error) {
	name := w.Config.Schema
	if name == "" {
		name = schema.ForLanguage(lang)
	}
	s, err := schema.Load(name)
	if err != nil {
		return nil, err
	}
	g, err := loadGrowth(ctx, w.Config, w.db)
	if err != nil {
		return nil, err
	}
	return g.Apply(s), nil
}
