package server

// handWrittenOpenAPI is the description as it was written by hand, before
// the route table described the routes: the table must describe them the
// same. Results are the JSON the
// matching CLI command prints with --json; their schemas are left open.
func handWrittenOpenAPI(version string) map[string]any {
	str := map[string]any{"type": "string"}
	integer := map[string]any{"type": "integer"}
	boolean := map[string]any{"type": "boolean"}
	object := map[string]any{"type": "object"}
	param := func(name, in, desc string, required bool, schema map[string]any) map[string]any {
		return map[string]any{"name": name, "in": in, "description": desc, "required": required, "schema": schema}
	}
	ok := func(desc string) map[string]any {
		return map[string]any{
			"200":     map[string]any{"description": desc, "content": map[string]any{"application/json": map[string]any{"schema": object}}},
			"400":     map[string]any{"$ref": "#/components/responses/Error"},
			"default": map[string]any{"$ref": "#/components/responses/Error"},
		}
	}
	body := func(props map[string]any, required ...string) map[string]any {
		return map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{
			"schema": map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}}}}
	}
	// events is a reply that streams server-sent events.
	events := func(desc string) map[string]any {
		return map[string]any{"description": desc, "content": map[string]any{"text/event-stream": map[string]any{"schema": str}}}
	}
	withEvents := func(r map[string]any, desc string) map[string]any {
		r["200"].(map[string]any)["content"].(map[string]any)["text/event-stream"] = map[string]any{"schema": str}
		r["200"].(map[string]any)["description"] = r["200"].(map[string]any)["description"].(string) + "; " + desc
		return r
	}
	option := map[string]any{"type": "object", "properties": map[string]any{"letter": str, "text": str}, "required": []string{"letter", "text"}}
	return map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{"title": "annals", "version": version,
			"description": "A knowledge graph of historical texts with cited evidence. Writes (indexing, deleting a document, feedback, relate with feedback) and exports need the server's token (Authorization: Bearer …) unless the server listens on loopback without one. " +
				"Every request other than GET must send JSON (Content-Type: application/json) and, from a browser, come from the server's own origin (else 403); " +
				"the Host must be the server's address, a loopback name or one allowed with --allow-host (else 403). " +
				"Limits (400 beyond, naming the limit): a question of 1000 characters, 26 options of 500 characters, top_k 100, delta 500, names and search texts of 200 characters, relate top 50 and budget 1000000; " +
				"a read gives up after the server's read budget (10 s by default) with 503."},
		"components": map[string]any{
			"responses": map[string]any{"Error": map[string]any{"description": "what went wrong",
				"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{
					"type": "object", "properties": map[string]any{"error": str}}}}}},
			"securitySchemes": map[string]any{"token": map[string]any{"type": "http", "scheme": "bearer"}},
		},
		"paths": map[string]any{
			"/api/stats": map[string]any{"get": map[string]any{"summary": "What the workspace holds", "responses": ok("counts by kind and type")}},
			"/api/entities": map[string]any{"get": map[string]any{"summary": "Find entities by name or alias, or by the start of a name",
				"parameters": []any{param("q", "query", "a name, alias (字, 号) or the start of a name; empty lists the most mentioned", false, str),
					param("type", "query", "one entity type (人物, 地点, person …)", false, str),
					param("limit", "query", "most entities, 1–500 (20)", false, integer)},
				"responses": ok("entities, exact name or alias first, then most mentioned")}},
			"/api/entity/{name}": map[string]any{"get": map[string]any{"summary": "An entity with its names, facts with cited sentences, and mentions",
				"parameters": []any{param("name", "path", "name or alias", true, str),
					param("relations", "query", "most facts, 1–1000 (50)", false, integer),
					param("mentions", "query", "most mentions, 1–1000 (10)", false, integer)},
				"responses": ok("the entity view")}},
			"/api/bio/{name}": map[string]any{"get": map[string]any{"summary": "A person's profile (names, dates, native place, kin, career, places, associates) and a biography, every item and sentence cited and checked",
				"parameters": []any{param("name", "path", "name or alias of a person", true, str),
					param("style", "query", "modern (default) or classical Chinese", false, str),
					param("strict", "query", "leave out sentences a check failed on", false, boolean)},
				"responses": ok("name, id, profile, biography (text, citations, verified, checks), usage")}},
			"/api/communities": map[string]any{"get": map[string]any{"summary": "The communities of people, places and groups that indexing found, largest first, each with its report (name, central members, keywords, years, key facts, summary, attributes)",
				"responses": ok("a list of community reports")}},
			"/api/communities/{id}": map[string]any{"get": map[string]any{"summary": "One community's report with all its members and the relations among its most central ones",
				"parameters": []any{param("id", "path", "the community's number", true, integer)},
				"responses":  ok("the report and all_members")}},
			"/api/search": map[string]any{"get": map[string]any{"summary": "Concordance: every occurrence of a text, in context, cited",
				"parameters": []any{param("text", "query", "what to look for", true, str),
					param("limit", "query", "1–1000 (100)", false, integer), param("offset", "query", "occurrences to skip", false, integer),
					param("context", "query", "characters either side, 0–500 (20)", false, integer)},
				"responses": ok("the occurrences and their total")}},
			"/api/ask": map[string]any{"post": map[string]any{"summary": "Answer a question with citations",
				"requestBody": body(map[string]any{"question": str, "mode": map[string]any{"type": "string", "enum": []string{"reject", "open"}},
					"options": map[string]any{"type": "array", "items": option}, "theta": map[string]any{"type": "number"},
					"agent": boolean, "trace": boolean, "top_k": integer, "delta": integer, "offline": boolean}, "question"),
				"responses": withEvents(ok("the answer, its citations and the items retrieved"),
					"with Accept: text/event-stream, events: status {stage}, token {text} as a model writes the answer (none offline), then result (the answer) or error {error}")}},
			"/api/relate": map[string]any{"post": map[string]any{"summary": "How two entities are related: paths, per-step evidence, a verdict",
				"requestBody": body(map[string]any{"head": str, "tail": str, "top": integer, "budget": integer,
					"feedback": map[string]any{"type": "boolean", "description": "write what is found into the graph (needs the token)"}}, "head", "tail"),
				"responses": ok("paths, findings, verdict, and what was written back")}},
			"/api/timeline": map[string]any{"get": map[string]any{"summary": "A person's dated facts, or what happened in a window of years",
				"parameters": []any{param("name", "query", "a person; or give from and to", false, str),
					param("from", "query", "first year (−121 is 122 BCE)", false, integer), param("to", "query", "last year", false, integer),
					param("type", "query", "one relation type", false, str), param("limit", "query", "1–5000 (200)", false, integer)},
				"responses": ok("dated facts in year order, each cited")}},
			"/api/date": map[string]any{"get": map[string]any{"summary": "Convert a historical date into years",
				"parameters": []any{param("expr", "query", "建兴十二年, 孝景中元年, 甲子, năm 1288 …", true, str),
					param("dynasty", "query", "the dynasty or state whose era is meant", false, str)},
				"responses": ok("every reading with its year and why")}},
			"/api/documents": map[string]any{"get": map[string]any{"summary": "The indexed documents", "responses": ok("documents")}},
			"/api/document/{key}": map[string]any{
				"get": map[string]any{"summary": "A document's text with every entity mention in it",
					"parameters": []any{param("key", "path", "the document's key (it may hold slashes) or an id prefix", true, str)},
					"responses":  ok("the document, its original text, and its mentions with offsets and entities")},
				"delete": map[string]any{"summary": "Delete a document and the facts only it supported",
					"security":   []any{map[string]any{"token": []any{}}},
					"parameters": []any{param("key", "path", "the document's key or an id prefix", true, str)},
					"responses":  ok("the document removed")}},
			"/api/graph/{name}": map[string]any{"get": map[string]any{"summary": "The entities and relations within a few steps of an entity, each node with its community",
				"parameters": []any{param("name", "path", "name or alias", true, str),
					param("depth", "query", "steps, 1–3 (1)", false, integer), param("limit", "query", "most nodes, 1–1000 (150)", false, integer),
					param("types", "query", "relation types, comma-separated; none means all", false, str)},
				"responses": ok("nodes with their depth, edges, and whether the limit cut it short")}},
			"/api/feedback": map[string]any{"get": map[string]any{"summary": "Facts relation reasoning wrote back, newest first",
				"parameters": []any{param("all", "query", "include reverted ones", false, boolean)}, "responses": ok("feedback rows")}},
			"/api/feedback/{id}/revert": map[string]any{"post": map[string]any{"summary": "Take a written-back fact out of the graph",
				"security":   []any{map[string]any{"token": []any{}}},
				"parameters": []any{param("id", "path", "from /api/feedback", true, integer)},
				"responses":  ok("the id reverted")}},
			"/api/export": map[string]any{"get": map[string]any{"summary": "The graph as a file: GraphML, neo4j-admin import CSV, spreadsheet CSV, or JSON Lines of facts with their provenance",
				"security": []any{map[string]any{"token": []any{}}},
				"parameters": []any{param("format", "query", "graphml, neo4j, csv or jsonl", true, str),
					param("type", "query", "entity types, comma-separated; none means all", false, str),
					param("relation", "query", "relation types, comma-separated; none means all", false, str),
					param("since", "query", "only relations dated in or after this year (astronomical: -206 is 207 BCE)", false, integer),
					param("around", "query", "only the graph around this entity (name or alias)", false, str),
					param("depth", "query", "with around: steps, 1–10 (1)", false, integer)},
				"responses": map[string]any{
					"200": map[string]any{"description": "graphml and jsonl as one file; csv and neo4j as a zip of their files (Content-Disposition names it)",
						"content": map[string]any{"application/graphml+xml": map[string]any{}, "application/jsonl": map[string]any{}, "application/zip": map[string]any{}}},
					"default": map[string]any{"$ref": "#/components/responses/Error"}}}},
			"/api/server": map[string]any{"get": map[string]any{"summary": "What this server allows: writes (open, token or off), index roots, whether an LLM is configured",
				"responses": ok("version, writes, index_roots, llm")}},
			"/api/index": map[string]any{"post": map[string]any{"summary": "Start indexing a folder or file under one of the server's index roots (--root)",
				"security":    []any{map[string]any{"token": []any{}}},
				"requestBody": body(map[string]any{"path": map[string]any{"type": "string", "description": "absolute, or relative to an index root; no way out of the roots, by .. or by link"}}, "path"),
				"responses": func() map[string]any {
					r := ok("the job started: follow /api/jobs/{id}/events")
					r["403"] = map[string]any{"description": "indexing is off, or the path leads outside the roots"}
					r["409"] = map[string]any{"description": "a job is running already"}
					return r
				}()}},
			"/api/jobs": map[string]any{"get": map[string]any{"summary": "Index jobs of this server, newest first", "responses": ok("jobs")}},
			"/api/jobs/{id}": map[string]any{
				"get": map[string]any{"summary": "One index job: state, phase, documents done, failed (retried by the next run), files counted, errors, the report when done",
					"parameters": []any{param("id", "path", "the job's id", true, integer)}, "responses": ok("the job")},
				"delete": map[string]any{"summary": "Cancel a running job (what it wrote is kept; indexing the path again resumes)",
					"security":   []any{map[string]any{"token": []any{}}},
					"parameters": []any{param("id", "path", "the job's id", true, integer)}, "responses": ok("the job")}},
			"/api/jobs/{id}/events": map[string]any{"get": map[string]any{"summary": "A job's progress as server-sent events",
				"parameters": []any{param("id", "path", "the job's id", true, integer)},
				"responses": map[string]any{"200": events("progress (the job) at most five times a second, then done (the job, finished)"),
					"default": map[string]any{"$ref": "#/components/responses/Error"}}}},
			"/api/openapi.json": map[string]any{"get": map[string]any{"summary": "This description", "responses": ok("OpenAPI 3.1")}},
		},
	}
}
