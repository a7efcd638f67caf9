// Package server is annals's HTTP API: JSON over HTTP, described by an
// OpenAPI document at /api/openapi.json, over a Backend the root package
// provides. It listens on loopback unless told otherwise, and then only
// with a token for anything that writes.
package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Backend is what the API serves; each result is encoded as JSON. A
// result that is a json.RawMessage is sent as it is: it must come from
// encoding/json, which escapes HTML.
type Backend interface {
	Stats(ctx context.Context) (any, error)
	Entities(ctx context.Context, q EntitiesQuery) (any, error)
	Entity(ctx context.Context, name string, relations, mentions int) (any, error)
	// Bio is a person's profile and biography; style is modern or
	// classical, and strict leaves out sentences a check failed on.
	Bio(ctx context.Context, name, style string, strict bool) (any, error)
	Search(ctx context.Context, q SearchQuery) (any, error)
	// Communities lists the communities with their reports; Community
	// is one with all its members.
	Communities(ctx context.Context) (any, error)
	Community(ctx context.Context, id int64) (any, error)
	// Ask answers; stream, when set, is told the answer's text as a model
	// writes it.
	Ask(ctx context.Context, req AskRequest, stream func(string)) (any, error)
	Relate(ctx context.Context, req RelateRequest) (any, error)
	Timeline(ctx context.Context, q TimelineQuery) (any, error)
	Date(ctx context.Context, expr, dynasty string) (any, error)
	Neighbourhood(ctx context.Context, name string, depth, limit int, types []string) (any, error)
	Documents(ctx context.Context) (any, error)
	Read(ctx context.Context, key string) (any, error)
	RemoveDocument(ctx context.Context, key string) (any, error)
	Feedback(ctx context.Context, all bool) (any, error)
	RevertFeedback(ctx context.Context, id int64) error
	// Index jobs: one runs at a time, on a path inside the roots the
	// server was given.
	StartIndex(ctx context.Context, path string) (any, error)
	Jobs(ctx context.Context) (any, error)
	Job(ctx context.Context, id int64) (any, error)
	// WatchJob sends the job's state as it changes, until it ends.
	WatchJob(ctx context.Context, id int64, send func(state any, final bool) error) error
	CancelJob(ctx context.Context, id int64) (any, error)
	// Info describes the server for clients: what it may do.
	Info(ctx context.Context) (map[string]any, error)
	// Export finds what an export writes; the Download then writes it.
	Export(ctx context.Context, q ExportQuery) (*Download, error)
}

// ExportQuery carries the options of `annals export`.
type ExportQuery struct {
	Format    string
	Types     []string
	Relations []string
	Since     *int
	Around    string
	Depth     int
}

// Download is a file the API sends as it is, not as JSON: its media type,
// the name to save it under, and what writes it.
type Download struct {
	ContentType, FileName string
	Write                 func(io.Writer) error
}

// EntitiesQuery finds entities by name or alias, or by the start of a
// name, of one type or any.
type EntitiesQuery struct {
	Q     string `json:"q"`
	Type  string `json:"type"`
	Limit int    `json:"limit"`
}

// SearchQuery is a concordance request.
type SearchQuery struct {
	Text          string
	Limit, Offset int
	Context       int
}

// Option is one choice of a multiple-choice question.
type Option struct {
	Letter string `json:"letter"`
	Text   string `json:"text"`
}

// AskRequest carries the options of `annals ask`.
type AskRequest struct {
	Question string   `json:"question"`
	Mode     string   `json:"mode,omitempty"` // reject (default) or open
	Options  []Option `json:"options,omitempty"`
	Theta    float64  `json:"theta,omitempty"`
	Agent    bool     `json:"agent,omitempty"`
	Trace    bool     `json:"trace,omitempty"`
	TopK     int      `json:"top_k,omitempty"`
	Delta    *int     `json:"delta,omitempty"`
	Offline  bool     `json:"offline,omitempty"`
	// EntitySim is δ of the entity-vector route; 0 leaves it off.
	EntitySim float64 `json:"entity_sim,omitempty"`
}

// RelateRequest carries the options of `annals relate`. Feedback writes
// what is found into the graph, which needs the right to write.
type RelateRequest struct {
	Head     string `json:"head"`
	Tail     string `json:"tail"`
	Top      int    `json:"top,omitempty"`
	Budget   int    `json:"budget,omitempty"`
	Feedback bool   `json:"feedback,omitempty"`
}

// TimelineQuery is a person's dated facts, or a window of years.
type TimelineQuery struct {
	Name     string
	From, To *int
	Type     string
	Limit    int
	Offset   int // items skipped, for paging
	// Marks asks for each fact's year and ends only, without its
	// citation: what a chart of thousands of facts draws.
	Marks bool
}

// Options configure a server.
type Options struct {
	// Token, when set, must come with every request that writes
	// (Authorization: Bearer TOKEN). Without it, only a loopback server
	// accepts writes.
	Token string
	// Loopback says the server listens on loopback only.
	Loopback bool
	// Addr is the address the server listens on. Requests are answered
	// only when their Host names it, a loopback name or address, or one of
	// AllowHosts ("*": any), which defeats DNS rebinding.
	Addr       string
	AllowHosts []string
	MaxBody    int64         // request body limit; 0 means 1 MiB
	Timeout    time.Duration // per request; 0 means DefaultTimeout
	// ReadBudget bounds a read that only computes (everything but index
	// jobs' event streams and questions a model answers); 0 means
	// DefaultReadBudget.
	ReadBudget time.Duration
	// LLM says questions may be answered by a model, whose wait the
	// read budget does not cover.
	LLM bool
	// NotFound is the backend's error for an unknown entity or document,
	// answered 404.
	NotFound error
	// Status, when set, gives the HTTP status of other backend errors
	// (0 when it has none to say).
	Status  func(error) int
	Version string
	// UI, when set, serves every path outside /api/: the web interface.
	UI http.Handler
}

// Server is the API's handler.
type Server struct {
	b     Backend
	opts  Options
	hosts hostPolicy
	mux   *http.ServeMux
	// api is the OpenAPI description of the routes, made once.
	api map[string]any
}

// New makes the handler.
func New(b Backend, opts Options) *Server {
	if opts.MaxBody <= 0 {
		opts.MaxBody = 1 << 20
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.ReadBudget <= 0 {
		opts.ReadBudget = DefaultReadBudget
	}
	s := &Server{b: b, opts: opts, hosts: newHostPolicy(opts.Addr, opts.AllowHosts), mux: http.NewServeMux()}
	s.api = openAPI(s.routes(), opts.Version)
	return s
}

// CheckAddress refuses to serve on an address other machines reach
// without a token, and says whether the address is loopback.
func CheckAddress(addr, token string) (loopback bool, err error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("address %q: %w (want HOST:PORT, e.g. 127.0.0.1:8080)", addr, err)
	}
	loopback = host == "localhost"
	if ip := net.ParseIP(host); ip != nil {
		loopback = ip.IsLoopback()
	}
	if token != "" {
		if err := CheckToken(token); err != nil {
			return false, err
		}
	}
	if !loopback && token == "" {
		return false, fmt.Errorf("refusing to serve on %s, which other machines reach, without a token: set ANNALS_TOKEN (writes then need it), or listen on 127.0.0.1", addr)
	}
	return loopback, nil
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if !s.hosts.allows(r.Host) {
		s.fail(w, http.StatusForbidden, fmt.Errorf("this server does not answer to the name %q: open it by its own address, or start it with --allow-host NAME", r.Host))
		return
	}
	if err := crossSite(r); err != nil {
		s.fail(w, http.StatusForbidden, err)
		return
	}
	if field := badText(r); field != "" {
		s.fail(w, http.StatusBadRequest, badRequest(field, errors.New("not valid UTF-8")))
		return
	}
	// The deadline of each request is set by its route (see handler).
	r.Body = http.MaxBytesReader(w, r.Body, s.opts.MaxBody)
	s.mux.ServeHTTP(w, r)
}

// The handlers of the routes in table. A read answers a value within the
// read budget (see route.read); the others answer themselves.

func (s *Server) description(*http.Request) (any, error) { return s.api, nil }

func (s *Server) stats(r *http.Request) (any, error) { return s.b.Stats(r.Context()) }

func (s *Server) entities(r *http.Request) (any, error) {
	q := r.URL.Query()
	limit, err := intParam(q.Get("limit"), 20, 1, 500)
	if err != nil {
		return nil, badRequest("limit", err)
	}
	if err := checkText("q", q.Get("q"), MaxName); err != nil {
		return nil, err
	}
	return s.b.Entities(r.Context(), EntitiesQuery{Q: strings.TrimSpace(q.Get("q")), Type: q.Get("type"), Limit: limit})
}

func (s *Server) entity(r *http.Request) (any, error) {
	q := r.URL.Query()
	rels, err := intParam(q.Get("relations"), 50, 1, 1000)
	if err != nil {
		return nil, badRequest("relations", err)
	}
	ments, err := intParam(q.Get("mentions"), 10, 1, 1000)
	if err != nil {
		return nil, badRequest("mentions", err)
	}
	if err := checkText("name", r.PathValue("name"), MaxName); err != nil {
		return nil, err
	}
	return s.b.Entity(r.Context(), r.PathValue("name"), rels, ments)
}

func (s *Server) bio(r *http.Request) (any, error) {
	q := r.URL.Query()
	style := q.Get("style")
	if style != "" && style != "modern" && style != "classical" {
		return nil, badRequest("style", errors.New("modern or classical"))
	}
	strict, err := boolParam(q.Get("strict"))
	if err != nil {
		return nil, badRequest("strict", err)
	}
	if err := checkText("name", r.PathValue("name"), MaxName); err != nil {
		return nil, err
	}
	return s.b.Bio(r.Context(), r.PathValue("name"), style, strict)
}

func (s *Server) communities(r *http.Request) (any, error) { return s.b.Communities(r.Context()) }

func (s *Server) community(r *http.Request) (any, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		return nil, badRequest("id", errors.New("a community number, 1 or more"))
	}
	return s.b.Community(r.Context(), id)
}

func (s *Server) search(r *http.Request) (any, error) {
	q := r.URL.Query()
	text := q.Get("text")
	if strings.TrimSpace(text) == "" {
		return nil, badRequest("text", errors.New("give a word or some characters"))
	}
	if err := checkText("text", text, MaxName); err != nil {
		return nil, err
	}
	sq := SearchQuery{Text: text}
	var err error
	if sq.Limit, err = intParam(q.Get("limit"), 100, 1, 1000); err != nil {
		return nil, badRequest("limit", err)
	}
	if sq.Offset, err = intParam(q.Get("offset"), 0, 0, 1<<30); err != nil {
		return nil, badRequest("offset", err)
	}
	if sq.Context, err = intParam(q.Get("context"), 20, 0, 500); err != nil {
		return nil, badRequest("context", err)
	}
	return s.b.Search(r.Context(), sq)
}

// ask answers a question, as server-sent events when the client asks for
// them; a question a model answers gets the request's deadline rather than
// the read budget.
func (s *Server) ask(w http.ResponseWriter, r *http.Request) {
	var req AskRequest
	if err := decodeAsk(r, &req); err != nil {
		s.fail(w, s.status(err), err)
		return
	}
	budget := s.opts.ReadBudget
	if s.opts.LLM && !req.Offline {
		budget = s.opts.Timeout
	}
	if !wantsEvents(r) {
		s.run(w, r, budget, func(r *http.Request) (any, error) { return s.b.Ask(r.Context(), req, nil) })
		return
	}
	r, cancel := within(r, budget)
	defer cancel()
	ev := startEvents(w)
	ev.send("status", map[string]string{"stage": "answering"})
	ans, err := s.b.Ask(r.Context(), req, func(text string) { ev.send("token", map[string]string{"text": text}) })
	if err != nil {
		ev.send("error", map[string]string{"error": overBudget(r, err, budget).Error()})
		return
	}
	ev.send("result", ans)
}

// relate reads, unless it is asked to write what it finds back into the
// graph: only then does it need the token.
func (s *Server) relate(w http.ResponseWriter, r *http.Request) {
	var req RelateRequest
	err := decode(r, &req)
	if err == nil {
		err = checkRelate(&req)
	}
	if err != nil {
		s.fail(w, s.status(err), err)
		return
	}
	if req.Feedback && !s.mayWrite(r) {
		s.fail(w, http.StatusUnauthorized, errors.New("feedback writes into the graph: send the server's token (Authorization: Bearer …)"))
		return
	}
	budget := s.opts.ReadBudget
	if s.opts.LLM {
		budget = s.opts.Timeout
	}
	s.run(w, r, budget, func(r *http.Request) (any, error) {
		if strings.TrimSpace(req.Head) == "" || strings.TrimSpace(req.Tail) == "" {
			return nil, badRequest("head, tail", errors.New("name both entities"))
		}
		return s.b.Relate(r.Context(), req)
	})
}

func (s *Server) timeline(r *http.Request) (any, error) {
	q := r.URL.Query()
	tq := TimelineQuery{Name: strings.TrimSpace(q.Get("name")), Type: q.Get("type")}
	switch q.Get("fields") {
	case "", "all":
	case "marks":
		tq.Marks = true
	default:
		return nil, badRequest("fields", errors.New("all (the default) or marks"))
	}
	if err := checkText("name", tq.Name, MaxName); err != nil {
		return nil, err
	}
	var err error
	if tq.Limit, err = intParam(q.Get("limit"), 200, 1, 5000); err != nil {
		return nil, badRequest("limit", err)
	}
	if tq.Offset, err = intParam(q.Get("offset"), 0, 0, 1_000_000); err != nil {
		return nil, badRequest("offset", err)
	}
	for _, p := range []struct {
		name string
		dst  **int
	}{{"from", &tq.From}, {"to", &tq.To}} {
		if v := q.Get(p.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return nil, badRequest(p.name, errors.New("a year, e.g. 220 or -121"))
			}
			*p.dst = &n
		}
	}
	if tq.Name == "" && (tq.From == nil || tq.To == nil) {
		return nil, badRequest("name", errors.New("give a name, or a window of years (from and to)"))
	}
	return s.b.Timeline(r.Context(), tq)
}

func (s *Server) date(r *http.Request) (any, error) {
	q := r.URL.Query()
	if strings.TrimSpace(q.Get("expr")) == "" {
		return nil, badRequest("expr", errors.New("give a date, e.g. 建兴十二年"))
	}
	if err := checkText("expr", q.Get("expr"), MaxName); err != nil {
		return nil, err
	}
	return s.b.Date(r.Context(), q.Get("expr"), q.Get("dynasty"))
}

func (s *Server) graph(r *http.Request) (any, error) {
	q := r.URL.Query()
	if err := checkText("name", r.PathValue("name"), MaxName); err != nil {
		return nil, err
	}
	depth, err := intParam(q.Get("depth"), 1, 1, 3)
	if err != nil {
		return nil, badRequest("depth", err)
	}
	limit, err := intParam(q.Get("limit"), 150, 1, 1000)
	if err != nil {
		return nil, badRequest("limit", err)
	}
	return s.b.Neighbourhood(r.Context(), r.PathValue("name"), depth, limit, listParam(q.Get("types")))
}

func (s *Server) documents(r *http.Request) (any, error) { return s.b.Documents(r.Context()) }

func (s *Server) document(r *http.Request) (any, error) {
	return s.b.Read(r.Context(), r.PathValue("key"))
}

func (s *Server) removeDocument(r *http.Request) (any, error) {
	return s.b.RemoveDocument(r.Context(), r.PathValue("key"))
}

func (s *Server) feedback(r *http.Request) (any, error) {
	all, err := boolParam(r.URL.Query().Get("all"))
	if err != nil {
		return nil, badRequest("all", err)
	}
	return s.b.Feedback(r.Context(), all)
}

func (s *Server) revertFeedback(r *http.Request) (any, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return nil, badRequest("id", errors.New("a feedback id, a number"))
	}
	if err := s.b.RevertFeedback(r.Context(), id); err != nil {
		return nil, err
	}
	return map[string]any{"reverted": id}, nil
}

func (s *Server) info(r *http.Request) (any, error) {
	info, err := s.b.Info(r.Context())
	if err != nil {
		return nil, err
	}
	if info == nil {
		info = map[string]any{}
	}
	info["version"] = s.opts.Version
	switch {
	case s.opts.Token != "":
		info["writes"] = "token"
	case s.opts.Loopback:
		info["writes"] = "open"
	default:
		info["writes"] = "off"
	}
	return info, nil
}

func (s *Server) index(r *http.Request) (any, error) {
	var req struct {
		Path string `json:"path"`
	}
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Path) == "" || strings.ContainsRune(req.Path, 0) {
		return nil, badRequest("path", errors.New("name a folder or file under the server's index roots"))
	}
	if len(req.Path) > MaxPath {
		return nil, overLimit("path", MaxPath, "bytes")
	}
	return s.b.StartIndex(r.Context(), req.Path)
}

func (s *Server) jobs(r *http.Request) (any, error) { return s.b.Jobs(r.Context()) }

func (s *Server) job(r *http.Request) (any, error) {
	id, err := idParam(r)
	if err != nil {
		return nil, err
	}
	return s.b.Job(r.Context(), id)
}

func (s *Server) cancelJob(r *http.Request) (any, error) {
	id, err := idParam(r)
	if err != nil {
		return nil, err
	}
	return s.b.CancelJob(r.Context(), id)
}

// jobEvents streams a job's state until it ends.
func (s *Server) jobEvents(w http.ResponseWriter, r *http.Request) {
	id, err := idParam(r)
	if err == nil {
		_, err = s.b.Job(r.Context(), id)
	}
	if err != nil {
		s.fail(w, s.status(err), err)
		return
	}
	ev := startEvents(w)
	err = s.b.WatchJob(r.Context(), id, func(state any, final bool) error {
		name := "progress"
		if final {
			name = "done"
		}
		return ev.send(name, state)
	})
	if err != nil && r.Context().Err() == nil {
		ev.send("error", map[string]string{"error": err.Error()})
	}
}

// noRoute answers a path under /api/ that no route takes: 405 with Allow
// when the path takes other methods, else 404.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request) {
	if allow := s.allowed(r); len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		s.fail(w, http.StatusMethodNotAllowed, fmt.Errorf("%s is not a method of %s: it takes %s", r.Method, r.URL.Path, strings.Join(allow, ", ")))
		return
	}
	s.fail(w, http.StatusNotFound, fmt.Errorf("no endpoint %s %s (see /api/openapi.json)", r.Method, r.URL.Path))
}

// mayWrite says whether a request may change the workspace: with a token
// configured, it must carry it; without, only on loopback.
func (s *Server) mayWrite(r *http.Request) bool {
	if s.opts.Token == "" {
		return s.opts.Loopback
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && tokenMatches(got, s.opts.Token)
}

// allowed lists the methods the path takes when the request's is not one
// of them: such a request is answered 405, not 404.
func (s *Server) allowed(r *http.Request) []string {
	var out []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodDelete} {
		if m == r.Method {
			continue
		}
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.mux.Handler(probe); strings.HasPrefix(pattern, m+" ") {
			out = append(out, m)
		}
	}
	if len(out) > 0 && out[0] == http.MethodGet {
		out = append([]string{http.MethodGet, http.MethodHead}, out[1:]...)
	}
	return out
}

// errBadRequest marks what the client got wrong.
type errBadRequest struct {
	field string
	err   error
}

func (e *errBadRequest) Error() string { return e.field + ": " + e.err.Error() }
func (e *errBadRequest) Unwrap() error { return e.err }

func badRequest(field string, err error) error { return &errBadRequest{field, err} }

// BadRequest marks err as the client's mistake in field: answered 400.
func BadRequest(field string, err error) error { return badRequest(field, err) }

func decode(r *http.Request, v any) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return err
		}
		return badRequest("body", fmt.Errorf("could not be read: %w", err))
	}
	// encoding/json would quietly turn bad bytes into U+FFFD.
	if !utf8.Valid(body) {
		return badRequest("body", errors.New("not valid UTF-8"))
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return err
		}
		return badRequest("body", fmt.Errorf("not the JSON expected: %w", err))
	}
	if dec.More() {
		return badRequest("body", errors.New("more than one JSON value"))
	}
	return nil
}

func idParam(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, badRequest("id", errors.New("a job id, a number"))
	}
	return id, nil
}

// decodeAsk reads and checks a question.
func decodeAsk(r *http.Request, req *AskRequest) error {
	if err := decode(r, req); err != nil {
		return err
	}
	if strings.TrimSpace(req.Question) == "" {
		return badRequest("question", errors.New("empty"))
	}
	if req.Mode != "" && req.Mode != "reject" && req.Mode != "open" {
		return badRequest("mode", fmt.Errorf("%q: want reject or open", req.Mode))
	}
	for _, o := range req.Options {
		if strings.TrimSpace(o.Letter) == "" || strings.TrimSpace(o.Text) == "" {
			return badRequest("options", errors.New("each option needs a letter and a text"))
		}
	}
	return checkAsk(req)
}

func intParam(s string, def, lo, hi int) (int, error) {
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%q: want a whole number from %d to %d", s, lo, hi)
	}
	return n, nil
}

// boolParam reads a flag: empty, false or 0 is off; true or 1 is on.
func boolParam(s string) (bool, error) {
	switch s {
	case "", "false", "0":
		return false, nil
	case "true", "1":
		return true, nil
	}
	return false, fmt.Errorf("%q: want true or false", s)
}

func statusOf(err, notFound error) int {
	var bad *errBadRequest
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return http.StatusRequestEntityTooLarge
	case errors.As(err, &bad):
		return http.StatusBadRequest
	case notFound != nil && errors.Is(err, notFound):
		return http.StatusNotFound
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// status is the HTTP status of an error: the backend's say first.
func (s *Server) status(err error) int {
	if s.opts.Status != nil {
		if st := s.opts.Status(err); st != 0 {
			return st
		}
	}
	return statusOf(err, s.opts.NotFound)
}

// within bounds the work of a request by d.
func within(r *http.Request, d time.Duration) (*http.Request, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(r.Context(), d)
	return r.WithContext(ctx), cancel
}

// overBudget says so when err is the request running out of its time
// budget d.
func overBudget(r *http.Request, err error, d time.Duration) error {
	if errors.Is(err, context.DeadlineExceeded) && errors.Is(r.Context().Err(), context.DeadlineExceeded) {
		return fmt.Errorf("gave up after this request's time budget of %s: %w", d, err)
	}
	return err
}

// run answers a request whose work is bounded by the budget d; the work
// also stops when the client goes away, with the request's context.
func (s *Server) run(w http.ResponseWriter, r *http.Request, d time.Duration, h func(*http.Request) (any, error)) {
	r, cancel := within(r, d)
	defer cancel()
	s.reply(w, r, func(r *http.Request) (any, error) {
		v, err := h(r)
		return v, overBudget(r, err, d)
	})
}

// Encoded is a reply already encoded by encoding/json (json.Marshal, which
// escapes HTML): a server writes it as it is, unchecked, where it would
// check a json.RawMessage from elsewhere.
type Encoded []byte

func (s *Server) reply(w http.ResponseWriter, r *http.Request, h func(*http.Request) (any, error)) {
	v, err := h(r)
	if err != nil {
		s.fail(w, s.status(err), err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	if raw, ok := v.(Encoded); ok {
		// Written as is (and not appended to: it may be shared).
		w.Write(raw)
		w.Write([]byte{'\n'})
		return
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(true) // corpus text may hold markup: never raw in a page
	enc.Encode(v)
}

func (s *Server) fail(w http.ResponseWriter, status int, err error) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}

// export sends the graph as a file. It hands out the whole graph, so its
// route takes the token as writes do.
func (s *Server) export(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	eq := ExportQuery{Format: q.Get("format"), Around: strings.TrimSpace(q.Get("around")),
		Types: listParam(q.Get("type")), Relations: listParam(q.Get("relation"))}
	err := checkText("around", eq.Around, MaxName)
	if eq.Format == "" {
		err = badRequest("format", errors.New("graphml, neo4j, csv, jsonl or sft"))
	}
	if err == nil && q.Get("since") != "" {
		n, perr := strconv.Atoi(q.Get("since"))
		if perr != nil {
			err = badRequest("since", errors.New("a year, e.g. 184 or -206"))
		}
		eq.Since = &n
	}
	if err == nil {
		if eq.Depth, err = intParam(q.Get("depth"), 0, 0, 10); err != nil {
			err = badRequest("depth", err)
		}
	}
	var d *Download
	if err == nil {
		d, err = s.b.Export(r.Context(), eq)
	}
	if err != nil {
		s.fail(w, s.status(err), err)
		return
	}
	w.Header().Set("Content-Type", d.ContentType)
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": d.FileName}))
	// Once the file has begun, a failure can only cut it short.
	d.Write(w)
}

// listParam splits a comma-separated parameter, leaving out empty items.
func listParam(v string) []string {
	var out []string
	for _, t := range strings.Split(v, ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}
