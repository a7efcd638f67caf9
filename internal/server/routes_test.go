package server

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"testing"
)

// examplePath fills a route's pattern (or a described path) with values
// its handler takes.
func examplePath(pattern string) string {
	return strings.NewReplacer("{name}", "曹操", "{key...}", "三国志/蜀书/a.txt", "{key}", "三国志/蜀书/a.txt", "{id}", "1").Replace(pattern)
}

// described lists the description's operations as "METHOD /path".
func described(t *testing.T, api map[string]any) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	paths, ok := api["paths"].(map[string]any)
	if !ok {
		t.Fatalf("no paths in the description")
	}
	for path, v := range paths {
		for method, op := range v.(map[string]any) {
			out[strings.ToUpper(method)+" "+path] = op.(map[string]any)
		}
	}
	return out
}

// Every route the mux answers is in the description, under its method and
// path, and every operation described is answered by its route.
func TestEveryRouteIsDescribed(t *testing.T) {
	s := New(&fake{}, Options{Loopback: true, NotFound: errNotFound, Version: "test"})
	ops := described(t, s.api)
	registered := map[string]bool{}
	for _, rt := range s.table() {
		pattern := rt.method + " " + rt.path
		if registered[pattern] {
			t.Errorf("%s is in the table twice", pattern)
		}
		registered[pattern] = true
		// The mux sends a request for the route to the route.
		req := newRequest(rt.method, examplePath(rt.path), nil)
		if _, got := s.mux.Handler(req); got != pattern {
			t.Errorf("%s %s is routed to %q, not %q", rt.method, req.URL.Path, got, pattern)
		}
		op, ok := ops[rt.method+" "+strings.ReplaceAll(rt.path, "...}", "}")]
		if !ok {
			t.Errorf("%s is served but not described", pattern)
			continue
		}
		if op["summary"] != rt.summary || op["summary"] == "" {
			t.Errorf("%s: summary %q", pattern, op["summary"])
		}
		// Each path parameter of the pattern is described, as required.
		for _, seg := range strings.Split(rt.path, "/") {
			name, ok := strings.CutPrefix(seg, "{")
			if !ok {
				continue
			}
			name = strings.TrimSuffix(strings.TrimSuffix(name, "}"), "...")
			found := false
			for _, p := range rt.params {
				found = found || p.name == name && p.in == "path" && p.required
			}
			if !found {
				t.Errorf("%s: path parameter %s is not described", pattern, name)
			}
		}
	}
	var missing []string
	for op := range ops {
		method, path, _ := strings.Cut(op, " ")
		req := newRequest(method, examplePath(path), nil)
		if _, got := s.mux.Handler(req); !registered[got] {
			missing = append(missing, op+" (routed to "+got+")")
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("described but not served: %s", strings.Join(missing, "; "))
	}
	if len(ops) != len(registered) {
		t.Errorf("%d operations described, %d routes served", len(ops), len(registered))
	}
	// The description served is the one made from the table.
	status, out, raw := call(t, s, "GET", "/api/openapi.json", "")
	want, _ := json.Marshal(s.api)
	got, _ := json.Marshal(out)
	if status != 200 || string(got) != string(want) {
		t.Fatalf("GET /api/openapi.json: %d %.300s", status, raw)
	}
}

// A route that writes refuses a request without the token, before its
// handler runs, and says in the description that it needs the token; a
// route that only reads needs none.
func TestWriteRoutesNeedTheToken(t *testing.T) {
	f := &fake{}
	s := New(f, Options{Token: "s3cret", NotFound: errNotFound})
	ops := described(t, s.api)
	writes := 0
	for _, rt := range s.table() {
		path := examplePath(rt.path)
		body := map[string]string{"/api/index": `{"path":"a"}`, "/api/relate": `{"head":"a","tail":"b"}`, "/api/ask": `{"question":"x"}`}[rt.path]
		_, secured := ops[rt.method+" "+strings.ReplaceAll(rt.path, "...}", "}")]["security"]
		if secured != rt.write {
			t.Errorf("%s %s: the description says security %v, the route writes %v", rt.method, rt.path, secured, rt.write)
		}
		if !rt.write {
			if rt.path == "/api/jobs/{id}/events" {
				continue // a stream: its status is its first event's
			}
			if status, _, raw := call(t, s, rt.method, path, body); status == http.StatusUnauthorized {
				t.Errorf("%s %s only reads, yet without the token: %d %s", rt.method, path, status, raw)
			}
			continue
		}
		writes++
		for _, auth := range []string{"", "Bearer wrong!", "s3cret"} {
			var header []string
			if auth != "" {
				header = []string{"Authorization", auth}
			}
			status, out, raw := call(t, s, rt.method, path, body, header...)
			if status != http.StatusUnauthorized || !strings.Contains(out["error"].(string), "token") {
				t.Errorf("%s %s with Authorization %q: %d %s", rt.method, path, auth, status, raw)
			}
		}
		if status, _, raw := call(t, s, rt.method, path, body, "Authorization", "Bearer s3cret"); status == http.StatusUnauthorized {
			t.Errorf("%s %s with the token: %d %s", rt.method, path, status, raw)
		}
	}
	if writes != 5 {
		t.Errorf("%d write routes; the API has 5 (delete a document, revert feedback, index, cancel a job, export)", writes)
	}
	if len(f.reverted) != 1 {
		t.Errorf("feedback reverted %d times: only with the token", len(f.reverted))
	}
}
