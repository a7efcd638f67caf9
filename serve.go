package annals

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/annals-project/annals/internal/answer"
	"github.com/annals-project/annals/internal/chrono"
	"github.com/annals-project/annals/internal/export"
	"github.com/annals-project/annals/internal/server"
	"github.com/annals-project/annals/internal/text"
	"github.com/annals-project/annals/internal/webui"
)

// ServeOptions configure the HTTP API.
type ServeOptions struct {
	Addr  string // HOST:PORT; loopback unless a token is set
	Token string // needed by every request that writes; required off loopback
	// Version is reported in the API's description.
	Version string
	// Roots are the folders under which clients may start index jobs;
	// none means indexing over HTTP is off.
	Roots []string
	// AllowHosts are names, besides the address served and loopback, by
	// which clients may reach the server (a name behind a proxy, the
	// machine's name on the network); "*" allows any, giving up the check
	// that defeats DNS rebinding.
	AllowHosts []string
	// ReadBudget bounds the work of one read (a search, an entity page, a
	// question answered offline); 0 means server.DefaultReadBudget.
	ReadBudget time.Duration
}

// Handler is the HTTP API over the workspace, after checking that the
// address may be served with the token given.
func (w *Workspace) Handler(opts ServeOptions) (http.Handler, error) {
	loopback, err := server.CheckAddress(opts.Addr, opts.Token)
	if err != nil {
		return nil, err
	}
	h, _, err := w.handler(opts, loopback)
	return h, err
}

func (w *Workspace) handler(opts ServeOptions, loopback bool) (http.Handler, *indexJobs, error) {
	jobs, err := newIndexJobs(w, opts.Roots)
	if err != nil {
		return nil, nil, err
	}
	b := apiBackend{w: w, jobs: jobs, cache: &viewCache{}}
	return server.New(b, server.Options{Token: opts.Token, Loopback: loopback, Addr: opts.Addr, AllowHosts: opts.AllowHosts,
		ReadBudget: opts.ReadBudget, LLM: w.Config.LLM.BaseURL != "", NotFound: ErrNotFound,
		Status: apiStatus, Version: opts.Version, UI: webui.Handler()}), jobs, nil
}

// apiStatus gives the HTTP status of the workspace's own errors.
func apiStatus(err error) int {
	switch {
	case errors.Is(err, ErrNoRoots), errors.Is(err, ErrOutsideRoots):
		return http.StatusForbidden
	case errors.Is(err, ErrJobRunning):
		return http.StatusConflict
	}
	return 0
}

// Serve runs the HTTP API until ctx ends; ready, when set, is told the
// address it listens on.
func (w *Workspace) Serve(ctx context.Context, opts ServeOptions, ready func(addr string)) error {
	loopback, err := server.CheckAddress(opts.Addr, opts.Token)
	if err != nil {
		return err
	}
	h, jobs, err := w.handler(opts, loopback)
	if err != nil {
		return err
	}
	// A job still running at the end is cancelled; indexing the same path
	// again resumes it.
	defer jobs.stop()
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute, IdleTimeout: 2 * time.Minute}
	// Questions answer while this reads; they are quicker once it has.
	go w.Warm(ctx)
	if ready != nil {
		ready(ln.Addr().String())
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(shut); err != nil {
			return err
		}
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}

// apiBackend answers the API from the workspace.
type apiBackend struct {
	w     *Workspace
	jobs  *indexJobs
	cache *viewCache // entity pages and neighbourhoods, until the next commit
}

func (b apiBackend) Stats(ctx context.Context) (any, error) { return b.w.Stats(ctx) }

// Suggestion is an entity found for what a reader is typing, with the
// alias it was found by when its name is not what was typed.
type Suggestion struct {
	Entity
	Matched *Alias `json:"matched,omitempty"`
}

// Entities suggests entities for what is typed: those it names or is an
// alias of first, then those whose name starts with it, then those with an
// alias that starts with it (孔 → 诸葛亮, by 孔明), most mentioned first.
func (b apiBackend) Entities(ctx context.Context, q server.EntitiesQuery) (any, error) {
	out := []Suggestion{}
	seen := map[int64]bool{}
	add := func(e Entity, matched *Alias) {
		if !seen[e.ID] && (q.Type == "" || e.Type == q.Type) && len(out) < q.Limit {
			seen[e.ID] = true
			out = append(out, Suggestion{Entity: e, Matched: matched})
		}
	}
	if q.Q != "" {
		found, err := b.w.findEntities(ctx, q.Q)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return nil, err
		}
		for _, e := range found {
			var matched *Alias
			for i, a := range e.Aliases {
				if e.Name != q.Q && a.Name == q.Q {
					matched = &e.Aliases[i]
					break
				}
			}
			add(e, matched)
		}
	}
	more, err := b.w.Entities(ctx, EntityQuery{Type: q.Type, Prefix: q.Q, Limit: q.Limit})
	if err != nil {
		return nil, err
	}
	for _, e := range more {
		add(e, nil)
	}
	if q.Q != "" && len(out) < q.Limit {
		byAlias, err := b.w.db.EntitiesByAliasPrefix(ctx, q.Q, q.Type, q.Limit)
		if err != nil {
			return nil, err
		}
		for _, m := range byAlias {
			add(m.Entity, &m.Alias)
		}
	}
	return out, nil
}

func (b apiBackend) Entity(ctx context.Context, name string, relations, mentions int) (any, error) {
	return b.cache.get(ctx, b.w, fmt.Sprintf("entity\x00%s\x00%d\x00%d", name, relations, mentions), func() (any, error) {
		return b.w.Entity(ctx, name, EntityOptions{Relations: relations, Mentions: mentions})
	})
}

func (b apiBackend) Bio(ctx context.Context, name, style string, strict bool) (any, error) {
	return b.cache.get(ctx, b.w, fmt.Sprintf("bio\x00%s\x00%s\x00%v", name, style, strict), func() (any, error) {
		return b.w.Bio(ctx, name, BioOptions{Style: style, Strict: strict})
	})
}

func (b apiBackend) Communities(ctx context.Context) (any, error) {
	return b.cache.get(ctx, b.w, "communities", func() (any, error) { return b.w.Communities(ctx) })
}

func (b apiBackend) Community(ctx context.Context, id int64) (any, error) {
	return b.cache.get(ctx, b.w, fmt.Sprintf("community\x00%d", id), func() (any, error) { return b.w.Community(ctx, id) })
}

func (b apiBackend) Search(ctx context.Context, q server.SearchQuery) (any, error) {
	ctxChars := q.Context
	if ctxChars == 0 {
		ctxChars = -1 // the API's 0 means none
	}
	return b.w.Search(ctx, q.Text, SearchOptions{Context: ctxChars, Limit: q.Limit, Offset: q.Offset})
}

func (b apiBackend) Ask(ctx context.Context, req server.AskRequest, stream func(string)) (any, error) {
	opts := AskOptions{Mode: req.Mode, Theta: req.Theta, Agent: req.Agent, TopK: req.TopK, Delta: -1, Offline: req.Offline, Stream: stream,
		EntitySim: req.EntitySim}
	if req.Delta != nil {
		opts.Delta = *req.Delta
	}
	for _, o := range req.Options {
		opts.Options = append(opts.Options, answer.Option{Letter: o.Letter, Text: o.Text})
	}
	ans, err := b.w.Ask(ctx, req.Question, opts)
	if err != nil {
		return nil, err
	}
	if !req.Trace {
		ans.Trace = nil
	}
	return ans, nil
}

func (b apiBackend) Relate(ctx context.Context, req server.RelateRequest) (any, error) {
	return b.w.Relate(ctx, req.Head, req.Tail, RelateOptions{Top: req.Top, Budget: req.Budget, NoFeed: !req.Feedback})
}

func (b apiBackend) Timeline(ctx context.Context, q server.TimelineQuery) (any, error) {
	items, err := b.w.Timeline(ctx, q.Name, TimelineOptions{From: q.From, To: q.To, Type: q.Type, Limit: q.Limit, Offset: q.Offset})
	if items == nil && err == nil {
		items = []TimelineItem{}
	}
	if err != nil || !q.Marks {
		return items, err
	}
	marks := make([]timelineMark, len(items))
	for i, it := range items {
		f := it.Fact
		marks[i] = timelineMark{Year: it.Year, Fact: markFact{Head: f.Head, HeadType: f.HeadType, Relation: f.Type, Tail: f.Tail, TailType: f.TailType}}
	}
	return marks, nil
}

// timelineMark is a dated fact as a chart draws it: a sixth of the bytes
// of a cited item, for the thousands of facts of a busy decade.
type timelineMark struct {
	Year *int     `json:"year"`
	Fact markFact `json:"fact"`
}

type markFact struct {
	Head     string `json:"head"`
	HeadType string `json:"head_type"`
	Relation string `json:"relation"`
	Tail     string `json:"tail"`
	TailType string `json:"tail_type"`
}

func (b apiBackend) Date(ctx context.Context, expr, dynasty string) (any, error) {
	simp, _ := text.ToSimplified(expr)
	if year, ok := chrono.BareYear(simp); ok {
		// A year in numerals: how the histories name it.
		names := chrono.YearNames(year)
		if names == nil {
			names = []chrono.YearName{}
		}
		return map[string]any{"expression": expr, "year": year, "names": names, "times": []chrono.Time{}}, nil
	}
	times := chrono.Parse(simp, &chrono.Context{Dynasty: dynasty})
	if times == nil {
		times = []chrono.Time{}
	}
	return map[string]any{"expression": expr, "times": times}, nil
}

func (b apiBackend) Documents(ctx context.Context) (any, error) { return b.w.Documents(ctx) }

func (b apiBackend) Neighbourhood(ctx context.Context, name string, depth, limit int, types []string) (any, error) {
	key := fmt.Sprintf("graph\x00%s\x00%d\x00%d\x00%q", name, depth, limit, types)
	return b.cache.get(ctx, b.w, key, func() (any, error) {
		return b.w.Neighbourhood(ctx, name, NeighbourhoodOptions{Depth: depth, Limit: limit, Types: types})
	})
}

func (b apiBackend) Read(ctx context.Context, key string) (any, error) { return b.w.Read(ctx, key) }

func (b apiBackend) RemoveDocument(ctx context.Context, key string) (any, error) {
	return b.w.Remove(ctx, key, nil)
}

func (b apiBackend) Export(ctx context.Context, q server.ExportQuery) (*server.Download, error) {
	if err := export.CheckFormat(q.Format); err != nil {
		return nil, server.BadRequest("format", err)
	}
	g, err := b.w.ExportGraph(ctx, ExportOptions{Types: q.Types, Relations: q.Relations, Since: q.Since, Around: q.Around, Depth: q.Depth}.ForFormat(q.Format, false))
	if err != nil {
		return nil, err
	}
	return &server.Download{ContentType: export.ContentType(q.Format), FileName: export.FileName(q.Format),
		Write: func(w io.Writer) error {
			if export.SingleFile(q.Format) {
				return export.Write(q.Format, &export.WriterSink{W: w}, g)
			}
			z := export.NewZipSink(w)
			if err := export.Write(q.Format, z, g); err != nil {
				return err
			}
			return z.Close()
		}}, nil
}

func (b apiBackend) Feedback(ctx context.Context, all bool) (any, error) {
	fbs, err := b.w.FeedbackList(ctx, all)
	if fbs == nil && err == nil {
		fbs = []Feedback{}
	}
	return fbs, err
}

func (b apiBackend) RevertFeedback(ctx context.Context, id int64) error {
	return b.w.RevertFeedback(ctx, id)
}

func (b apiBackend) StartIndex(ctx context.Context, path string) (any, error) {
	return b.jobs.start(path)
}

func (b apiBackend) Jobs(ctx context.Context) (any, error) { return b.jobs.list(), nil }

func (b apiBackend) Job(ctx context.Context, id int64) (any, error) { return b.jobs.get(id) }

func (b apiBackend) WatchJob(ctx context.Context, id int64, send func(any, bool) error) error {
	return b.jobs.watch(ctx, id, 200*time.Millisecond, func(j IndexJob) error { return send(j, j.State != JobRunning) })
}

func (b apiBackend) CancelJob(ctx context.Context, id int64) (any, error) {
	return b.jobs.cancelJob(id)
}

// Info says what a client may ask of this server.
func (b apiBackend) Info(ctx context.Context) (map[string]any, error) {
	roots := b.jobs.roots
	if roots == nil {
		roots = []string{}
	}
	return map[string]any{
		"index_roots": roots,
		"llm":         b.w.Config.LLM.BaseURL != "",
	}, nil
}
