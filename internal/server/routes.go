package server

import (
	"context"
	"errors"
	"net/http"
)

// route is one endpoint: how it is served and how it is described. The
// table is the one list of the API's endpoints: routes registers it on the
// mux, and openAPI describes it, so the two cannot drift apart.
type route struct {
	method string // GET, POST or DELETE
	// path is a ServeMux pattern: {name} is a path segment, {key...} the
	// rest of the path. The description names both {name} and {key}.
	path    string
	summary string
	params  []param
	body    *body // a JSON request body; nil for none

	// What a reply holds. reply describes a JSON result (or, with files, a
	// file); events describes server-sent events, sent instead of JSON
	// when the client accepts text/event-stream, or always when reply is
	// empty; files lists the media types of a download; other describes
	// other statuses the route answers with.
	reply  string
	events string
	files  []string
	other  map[string]string

	// write says the route writes into the workspace or hands out the
	// whole graph: it needs the server's token (or a loopback server
	// without one), checked before the handler runs, and the description
	// says so. refused is what a request without it is told ("this request
	// writes" when empty).
	write   bool
	refused string
	// lasting says the reply lasts as long as what it follows (a job's
	// event stream): the request has no deadline. Every other request has
	// the server's Timeout.
	lasting bool

	// The handler: read answers JSON within the read budget; serve, when
	// read is nil, answers by itself.
	read  func(*http.Request) (any, error)
	serve http.HandlerFunc
}

// param is a query or path parameter.
type param struct {
	name, in, desc string
	typ            string // string, integer or boolean
	required       bool
}

// body is a JSON object a route takes: its properties' schemas and those
// it needs. No other properties are accepted.
type body struct {
	props    map[string]any
	required []string
}

// inPath is a path parameter; every one is required.
func inPath(name, typ, desc string) param {
	return param{name: name, in: "path", typ: typ, desc: desc, required: true}
}

// inQuery is an optional query parameter.
func inQuery(name, typ, desc string) param {
	return param{name: name, in: "query", typ: typ, desc: desc}
}

// needed makes a parameter required.
func (p param) needed() param { p.required = true; return p }

// Schemas of the request bodies' properties.
var (
	strSchema  = map[string]any{"type": "string"}
	intSchema  = map[string]any{"type": "integer"}
	boolSchema = map[string]any{"type": "boolean"}
)

// table lists the API's endpoints, each with its handler.
func (s *Server) table() []route {
	str, integer, boolean := "string", "integer", "boolean"
	option := map[string]any{"type": "object", "properties": map[string]any{"letter": strSchema, "text": strSchema}, "required": []string{"letter", "text"}}
	return []route{
		{method: "GET", path: "/api/openapi.json", summary: "This description", reply: "OpenAPI 3.1",
			read: s.description},
		{method: "GET", path: "/api/stats", summary: "What the workspace holds", reply: "counts by kind and type",
			read: s.stats},
		{method: "GET", path: "/api/entities", summary: "Find entities by name or alias, or by the start of a name",
			params: []param{inQuery("q", str, "a name, alias (字, 号) or the start of a name; empty lists the most mentioned"),
				inQuery("type", str, "one entity type (人物, 地点, person …)"),
				inQuery("limit", integer, "most entities, 1–500 (20)")},
			reply: "entities, exact name or alias first, then most mentioned",
			read:  s.entities},
		{method: "GET", path: "/api/entity/{name}", summary: "An entity with its names, facts with cited sentences, and mentions",
			params: []param{inPath("name", str, "name or alias"),
				inQuery("relations", integer, "most facts, 1–1000 (50)"),
				inQuery("mentions", integer, "most mentions, 1–1000 (10)")},
			reply: "the entity view",
			read:  s.entity},
		{method: "GET", path: "/api/bio/{name}", summary: "A person's profile (names, dates, native place, kin, career, places, associates) and a biography, every item and sentence cited and checked",
			params: []param{inPath("name", str, "name or alias of a person"),
				inQuery("style", str, "modern (default) or classical Chinese"),
				inQuery("strict", boolean, "leave out sentences a check failed on")},
			reply: "name, id, profile, biography (text, citations, verified, checks), usage",
			read:  s.bio},
		{method: "GET", path: "/api/communities", summary: "The communities of people, places and groups that indexing found, largest first, each with its report (name, central members, keywords, years, key facts, summary, attributes)",
			reply: "a list of community reports",
			read:  s.communities},
		{method: "GET", path: "/api/communities/{id}", summary: "One community's report with all its members and the relations among its most central ones",
			params: []param{inPath("id", integer, "the community's number")},
			reply:  "the report and all_members",
			read:   s.community},
		{method: "GET", path: "/api/search", summary: "Concordance: every occurrence of a text, in context, cited",
			params: []param{inQuery("text", str, "what to look for").needed(),
				inQuery("limit", integer, "1–1000 (100)"), inQuery("offset", integer, "occurrences to skip"),
				inQuery("context", integer, "characters either side, 0–500 (20)")},
			reply: "the occurrences and their total",
			read:  s.search},
		{method: "POST", path: "/api/ask", summary: "Answer a question with citations",
			body: &body{props: map[string]any{"question": strSchema, "mode": map[string]any{"type": "string", "enum": []string{"reject", "open"}},
				"options": map[string]any{"type": "array", "items": option}, "theta": map[string]any{"type": "number"},
				"agent": boolSchema, "trace": boolSchema, "top_k": intSchema, "delta": intSchema, "offline": boolSchema,
				"entity_sim": map[string]any{"type": "number"}},
				required: []string{"question"}},
			reply:  "the answer, its citations and the items retrieved",
			events: "with Accept: text/event-stream, events: status {stage}, token {text} as a model writes the answer (none offline), then result (the answer) or error {error}",
			serve:  s.ask},
		// relate writes only with "feedback": true, which its handler
		// checks: it is not a write route.
		{method: "POST", path: "/api/relate", summary: "How two entities are related: paths, per-step evidence, a verdict",
			body: &body{props: map[string]any{"head": strSchema, "tail": strSchema, "top": intSchema, "budget": intSchema,
				"feedback": map[string]any{"type": "boolean", "description": "write what is found into the graph (needs the token)"}},
				required: []string{"head", "tail"}},
			reply: "paths, findings, verdict, and what was written back",
			serve: s.relate},
		{method: "GET", path: "/api/timeline", summary: "A person's dated facts, or what happened in a window of years",
			params: []param{inQuery("name", str, "a person; or give from and to"),
				inQuery("from", integer, "first year (−121 is 122 BCE)"), inQuery("to", integer, "last year"),
				inQuery("type", str, "one relation type"), inQuery("limit", integer, "1–5000 (200)"),
				inQuery("offset", integer, "facts skipped, for paging (0)"),
				inQuery("fields", str, "all (each fact cited), or marks (year, ends and relation only, for a chart)")},
			reply: "dated facts in year order, each cited",
			read:  s.timeline},
		{method: "GET", path: "/api/date", summary: "Convert a historical date into years",
			params: []param{inQuery("expr", str, "建兴十二年, 孝景中元年, 甲子, năm 1288 …").needed(),
				inQuery("dynasty", str, "the dynasty or state whose era is meant")},
			reply: "every reading with its year and why",
			read:  s.date},
		{method: "GET", path: "/api/graph/{name}", summary: "The entities and relations within a few steps of an entity, each node with its community",
			params: []param{inPath("name", str, "name or alias"),
				inQuery("depth", integer, "steps, 1–3 (1)"), inQuery("limit", integer, "most nodes, 1–1000 (150)"),
				inQuery("types", str, "relation types, comma-separated; none means all")},
			reply: "nodes with their depth and the names folded into them, edges, the centre's relation counts by type, and whether the limit cut it short",
			read:  s.graph},
		{method: "GET", path: "/api/documents", summary: "The indexed documents", reply: "documents",
			read: s.documents},
		{method: "GET", path: "/api/document/{key...}", summary: "A document's text with every entity mention in it",
			params: []param{inPath("key", str, "the document's key (it may hold slashes) or an id prefix")},
			reply:  "the document, its original text, and its mentions with offsets and entities",
			read:   s.document},
		{method: "DELETE", path: "/api/document/{key...}", summary: "Delete a document and the facts only it supported",
			params: []param{inPath("key", str, "the document's key or an id prefix")},
			reply:  "the document removed",
			write:  true, refused: "deleting a document writes",
			read: s.removeDocument},
		{method: "GET", path: "/api/feedback", summary: "Facts relation reasoning wrote back, newest first",
			params: []param{inQuery("all", boolean, "include reverted ones")},
			reply:  "feedback rows",
			read:   s.feedback},
		{method: "POST", path: "/api/feedback/{id}/revert", summary: "Take a written-back fact out of the graph",
			params: []param{inPath("id", integer, "from /api/feedback")},
			reply:  "the id reverted",
			write:  true,
			read:   s.revertFeedback},
		{method: "GET", path: "/api/server", summary: "What this server allows: writes (open, token or off), index roots, whether an LLM is configured",
			reply: "version, writes, index_roots, llm",
			read:  s.info},
		{method: "POST", path: "/api/index", summary: "Start indexing a folder or file under one of the server's index roots (--root)",
			body: &body{props: map[string]any{"path": map[string]any{"type": "string", "description": "absolute, or relative to an index root; no way out of the roots, by .. or by link"}},
				required: []string{"path"}},
			reply: "the job started: follow /api/jobs/{id}/events",
			other: map[string]string{"403": "indexing is off, or the path leads outside the roots", "409": "a job is running already"},
			write: true,
			read:  s.index},
		{method: "GET", path: "/api/jobs", summary: "Index jobs of this server, newest first", reply: "jobs",
			read: s.jobs},
		{method: "GET", path: "/api/jobs/{id}", summary: "One index job: state, phase, documents done, failed (retried by the next run), files counted, errors, the report when done",
			params: []param{inPath("id", integer, "the job's id")},
			reply:  "the job",
			read:   s.job},
		{method: "DELETE", path: "/api/jobs/{id}", summary: "Cancel a running job (what it wrote is kept; indexing the path again resumes)",
			params: []param{inPath("id", integer, "the job's id")},
			reply:  "the job",
			write:  true, refused: "cancelling a job writes",
			read: s.cancelJob},
		{method: "GET", path: "/api/jobs/{id}/events", summary: "A job's progress as server-sent events",
			params:  []param{inPath("id", integer, "the job's id")},
			events:  "progress (the job) at most five times a second, then done (the job, finished)",
			lasting: true,
			serve:   s.jobEvents},
		{method: "GET", path: "/api/export", summary: "The graph as a file: GraphML, neo4j-admin import CSV, spreadsheet CSV, or JSON Lines of facts with their provenance",
			params: []param{inQuery("format", str, "graphml, neo4j, csv, jsonl or sft (training records of the verified facts)").needed(),
				inQuery("type", str, "entity types, comma-separated; none means all"),
				inQuery("relation", str, "relation types, comma-separated; none means all"),
				inQuery("since", integer, "only relations dated in or after this year (astronomical: -206 is 207 BCE)"),
				inQuery("around", str, "only the graph around this entity (name or alias)"),
				inQuery("depth", integer, "with around: steps, 1–10 (1)")},
			reply: "graphml and jsonl as one file; csv and neo4j as a zip of their files (Content-Disposition names it)",
			files: []string{"application/graphml+xml", "application/jsonl", "application/zip"},
			write: true, refused: "an export hands out the whole graph",
			serve: s.export},
	}
}

// routes registers the table's routes, then what answers the paths under
// /api/ that none takes, and the web interface.
func (s *Server) routes() []route {
	table := s.table()
	for _, rt := range table {
		s.mux.HandleFunc(rt.method+" "+rt.path, s.handler(rt))
	}
	s.mux.HandleFunc("/api/", s.bounded(s.noRoute))
	if s.opts.UI != nil {
		s.mux.Handle("/", s.bounded(s.opts.UI.ServeHTTP))
	}
	return table
}

// handler is a route's handler with what the table says of it applied: the
// read budget of a read, the token of a write, the request's deadline.
func (s *Server) handler(rt route) http.HandlerFunc {
	h := rt.serve
	if rt.read != nil {
		read := rt.read
		h = func(w http.ResponseWriter, r *http.Request) { s.run(w, r, s.opts.ReadBudget, read) }
	}
	if h == nil {
		panic("server: route " + rt.method + " " + rt.path + " has no handler")
	}
	if rt.write {
		refused := rt.refused
		if refused == "" {
			refused = "this request writes"
		}
		next := h
		h = func(w http.ResponseWriter, r *http.Request) {
			if !s.mayWrite(r) {
				s.fail(w, http.StatusUnauthorized, errors.New(refused+": send the server's token (Authorization: Bearer …)"))
				return
			}
			next(w, r)
		}
	}
	if !rt.lasting {
		h = s.bounded(h)
	}
	return h
}

// bounded gives a request the server's deadline.
func (s *Server) bounded(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.opts.Timeout)
		defer cancel()
		h(w, r.WithContext(ctx))
	}
}
