package server

import "strings"

// about is the description's account of the API as a whole.
const about = "A knowledge graph of historical texts with cited evidence. Writes (indexing, deleting a document, feedback, relate with feedback) and exports need the server's token (Authorization: Bearer …) unless the server listens on loopback without one. " +
	"Every request other than GET must send JSON (Content-Type: application/json) and, from a browser, come from the server's own origin (else 403); " +
	"the Host must be the server's address, a loopback name or one allowed with --allow-host (else 403). " +
	"Limits (400 beyond, naming the limit): a question of 1000 characters, 26 options of 500 characters, top_k 100, delta 500, names and search texts of 200 characters, relate top 50 and budget 1000000; " +
	"a read gives up after the server's read budget (10 s by default) with 503."

// openAPI describes the routes (OpenAPI 3.1). Results are the JSON the
// matching CLI command prints with --json; their schemas are left open.
func openAPI(routes []route, version string) map[string]any {
	errorReply := map[string]any{"$ref": "#/components/responses/Error"}
	paths := map[string]any{}
	for _, rt := range routes {
		path := strings.ReplaceAll(rt.path, "...}", "}")
		ops, _ := paths[path].(map[string]any)
		if ops == nil {
			ops = map[string]any{}
			paths[path] = ops
		}
		op := map[string]any{"summary": rt.summary, "responses": responses(rt, errorReply)}
		if len(rt.params) > 0 {
			params := make([]any, len(rt.params))
			for i, p := range rt.params {
				params[i] = map[string]any{"name": p.name, "in": p.in, "description": p.desc, "required": p.required,
					"schema": map[string]any{"type": p.typ}}
			}
			op["parameters"] = params
		}
		if rt.body != nil {
			op["requestBody"] = map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{
				"schema": map[string]any{"type": "object", "properties": rt.body.props, "required": rt.body.required, "additionalProperties": false}}}}
		}
		if rt.write {
			op["security"] = []any{map[string]any{"token": []any{}}}
		}
		ops[strings.ToLower(rt.method)] = op
	}
	return map[string]any{
		"openapi": "3.1.0",
		"info":    map[string]any{"title": "annals", "version": version, "description": about},
		"components": map[string]any{
			"responses": map[string]any{"Error": map[string]any{"description": "what went wrong",
				"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{
					"type": "object", "properties": map[string]any{"error": map[string]any{"type": "string"}}}}}}},
			"securitySchemes": map[string]any{"token": map[string]any{"type": "http", "scheme": "bearer"}},
		},
		"paths": paths,
	}
}

// responses describes what a route answers: a JSON result (400 when the
// request is wrong), server-sent events, or a file; then the other
// statuses it names, and any error.
func responses(rt route, errorReply map[string]any) map[string]any {
	out := map[string]any{"default": errorReply}
	content := map[string]any{}
	desc := rt.reply
	switch {
	case len(rt.files) > 0:
		for _, media := range rt.files {
			content[media] = map[string]any{}
		}
	case rt.reply == "":
		desc = rt.events
		content["text/event-stream"] = map[string]any{"schema": map[string]any{"type": "string"}}
	default:
		content["application/json"] = map[string]any{"schema": map[string]any{"type": "object"}}
		out["400"] = errorReply
		if rt.events != "" {
			desc += "; " + rt.events
			content["text/event-stream"] = map[string]any{"schema": map[string]any{"type": "string"}}
		}
	}
	out["200"] = map[string]any{"description": desc, "content": content}
	for status, d := range rt.other {
		out[status] = map[string]any{"description": d}
	}
	return out
}
