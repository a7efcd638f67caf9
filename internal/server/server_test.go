package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

var errNotFound = errors.New("not found")

// fake answers with what it was asked, so tests see the parsing.
type fake struct{ reverted []int64 }

func (f *fake) Stats(ctx context.Context) (any, error) { return map[string]int{"documents": 3}, nil }
func (f *fake) Entities(ctx context.Context, q EntitiesQuery) (any, error) {
	return q, nil
}
func (f *fake) Entity(ctx context.Context, name string, rels, ments int) (any, error) {
	if name == "无名" {
		return nil, errNotFound
	}
	return map[string]any{"name": name, "relations": rels, "mentions": ments}, nil
}
func (f *fake) Bio(ctx context.Context, name, style string, strict bool) (any, error) {
	if name == "无名" {
		return nil, errNotFound
	}
	return map[string]any{"name": name, "style": style, "strict": strict}, nil
}
func (f *fake) Search(ctx context.Context, q SearchQuery) (any, error) { return q, nil }
func (f *fake) Communities(ctx context.Context) (any, error) {
	return []map[string]any{{"id": 1, "name": "吴：孙权"}}, nil
}
func (f *fake) Community(ctx context.Context, id int64) (any, error) {
	if id > 1 {
		return nil, errNotFound
	}
	return map[string]any{"id": id}, nil
}
func (f *fake) Ask(ctx context.Context, req AskRequest, stream func(string)) (any, error) {
	if req.Question == "fail" {
		return nil, errors.New("the model is away")
	}
	if stream != nil {
		for _, piece := range []string{"诸葛亮", "字", "<b>孔明</b>"} {
			stream(piece)
		}
	}
	return map[string]any{"answer": "<b>" + req.Question + "</b>", "options": len(req.Options)}, nil
}
func (f *fake) Relate(ctx context.Context, req RelateRequest) (any, error) { return req, nil }
func (f *fake) Timeline(ctx context.Context, q TimelineQuery) (any, error) { return q, nil }
func (f *fake) Date(ctx context.Context, expr, dynasty string) (any, error) {
	return map[string]string{"expr": expr, "dynasty": dynasty}, nil
}
func (f *fake) Documents(ctx context.Context) (any, error) { return []string{}, nil }
func (f *fake) Neighbourhood(ctx context.Context, name string, depth, limit int, types []string) (any, error) {
	return map[string]any{"name": name, "depth": depth, "limit": limit, "types": types}, nil
}
func (f *fake) Read(ctx context.Context, key string) (any, error) {
	if key == "none" {
		return nil, errNotFound
	}
	return map[string]string{"key": key}, nil
}
func (f *fake) RemoveDocument(ctx context.Context, key string) (any, error) {
	return map[string]string{"removed": key}, nil
}
func (f *fake) Feedback(ctx context.Context, all bool) (any, error) {
	return map[string]bool{"all": all}, nil
}
func (f *fake) RevertFeedback(ctx context.Context, id int64) error {
	if id == 404 {
		return errNotFound
	}
	f.reverted = append(f.reverted, id)
	return nil
}

var errForbidden = errors.New("outside the roots")

func (f *fake) StartIndex(ctx context.Context, path string) (any, error) {
	if strings.Contains(path, "..") {
		return nil, errForbidden
	}
	return map[string]any{"id": 1, "path": path, "state": "running"}, nil
}
func (f *fake) Jobs(ctx context.Context) (any, error) { return []any{}, nil }
func (f *fake) Job(ctx context.Context, id int64) (any, error) {
	if id != 1 {
		return nil, errNotFound
	}
	return map[string]any{"id": id, "state": "running"}, nil
}
func (f *fake) WatchJob(ctx context.Context, id int64, send func(any, bool) error) error {
	for done := range 3 {
		if err := send(map[string]any{"id": id, "done": done}, done == 2); err != nil {
			return err
		}
	}
	return nil
}
func (f *fake) CancelJob(ctx context.Context, id int64) (any, error) {
	return map[string]any{"id": id, "state": "cancelled"}, nil
}
func (f *fake) Export(ctx context.Context, q ExportQuery) (*Download, error) {
	if q.Format != "graphml" {
		return nil, BadRequest("format", errors.New("graphml only"))
	}
	if q.Around == "无名" {
		return nil, errNotFound
	}
	return &Download{ContentType: "application/graphml+xml", FileName: "图.graphml", Write: func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "%s|%s|%v|%d|%d", q.Types, q.Relations, *q.Since, q.Depth, len(q.Around))
		return err
	}}, nil
}

func (f *fake) Info(ctx context.Context) (map[string]any, error) {
	return map[string]any{"index_roots": []string{"/srv/texts"}}, nil
}

// newRequest is a request as a program on this machine sends it: to the
// loopback address, in JSON.
func newRequest(method, path string, body io.Reader) *http.Request {
	req := httptest.NewRequest(method, path, body)
	req.Host = "127.0.0.1:8080"
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}

func call(t *testing.T, h http.Handler, method, path, body string, header ...string) (int, map[string]any, string) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := newRequest(method, path, r)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	raw := rec.Body.String()
	var out map[string]any
	json.Unmarshal([]byte(raw), &out)
	return rec.Code, out, raw
}

func TestEndpointsParseAndAnswer(t *testing.T) {
	h := New(&fake{}, Options{Loopback: true, NotFound: errNotFound, Status: func(err error) int {
		if errors.Is(err, errForbidden) {
			return http.StatusForbidden
		}
		return 0
	}})
	for _, c := range []struct {
		method, path, body string
		status             int
		check              func(map[string]any) bool
	}{
		{"GET", "/api/stats", "", 200, func(m map[string]any) bool { return m["documents"] == 3.0 }},
		{"GET", "/api/entities?q=孔明&type=人物&limit=5", "", 200, func(m map[string]any) bool { return m["q"] == "孔明" && m["limit"] == 5.0 }},
		{"GET", "/api/entity/%E8%AF%B8%E8%91%9B%E4%BA%AE?relations=7", "", 200, func(m map[string]any) bool { return m["name"] == "诸葛亮" && m["relations"] == 7.0 }},
		{"GET", "/api/entity/无名", "", 404, func(m map[string]any) bool { return m["error"] != nil }},
		{"GET", "/api/bio/%E8%AF%B8%E8%91%9B%E4%BA%AE?style=classical&strict=1", "", 200, func(m map[string]any) bool {
			return m["name"] == "诸葛亮" && m["style"] == "classical" && m["strict"] == true
		}},
		{"GET", "/api/bio/诸葛亮?style=ornate", "", 400, func(m map[string]any) bool { return strings.Contains(fmt.Sprint(m["error"]), "style") }},
		{"GET", "/api/bio/诸葛亮?strict=maybe", "", 400, func(m map[string]any) bool { return m["error"] != nil }},
		{"GET", "/api/bio/无名", "", 404, func(m map[string]any) bool { return m["error"] != nil }},
		{"GET", "/api/communities/1", "", 200, func(m map[string]any) bool { return m["id"] == 1.0 }},
		{"GET", "/api/communities/2", "", 404, func(m map[string]any) bool { return m["error"] != nil }},
		{"GET", "/api/communities/x", "", 400, func(m map[string]any) bool { return strings.Contains(fmt.Sprint(m["error"]), "id") }},
		{"GET", "/api/communities/0", "", 400, func(m map[string]any) bool { return m["error"] != nil }},
		{"GET", "/api/search?text=丞相&limit=3&offset=6", "", 200, func(m map[string]any) bool { return m["Text"] == "丞相" && m["Offset"] == 6.0 }},
		{"GET", "/api/search", "", 400, nil},
		{"GET", "/api/search?text=x&limit=0", "", 400, nil},
		{"GET", "/api/search?text=x&limit=abc", "", 400, nil},
		{"POST", "/api/ask", `{"question":"诸葛亮字什么？","options":[{"letter":"A","text":"孔明"}]}`, 200, func(m map[string]any) bool { return m["options"] == 1.0 }},
		{"POST", "/api/ask", `{"question":""}`, 400, nil},
		{"POST", "/api/ask", `{"question":"x","mode":"loud"}`, 400, nil},
		{"POST", "/api/ask", `{"question":"x","options":[{"letter":"A"}]}`, 400, nil},
		{"POST", "/api/ask", `{"question":`, 400, nil},
		{"POST", "/api/ask", `{"question":"x","colour":"red"}`, 400, nil},
		{"POST", "/api/ask", `{"question":"x"} {"question":"y"}`, 400, nil},
		{"POST", "/api/relate", `{"head":"曹操","tail":"曹丕","top":3}`, 200, func(m map[string]any) bool { return m["top"] == 3.0 }},
		{"POST", "/api/relate", `{"head":"曹操"}`, 400, nil},
		{"GET", "/api/timeline?name=诸葛亮", "", 200, func(m map[string]any) bool { return m["Name"] == "诸葛亮" }},
		{"GET", "/api/timeline?from=220&to=-5", "", 200, func(m map[string]any) bool { return m["To"] == -5.0 }},
		{"GET", "/api/timeline?from=220", "", 400, nil},
		{"GET", "/api/timeline?from=200&to=210&fields=marks", "", 200, func(m map[string]any) bool { return m["Marks"] == true }},
		{"GET", "/api/timeline?from=200&to=210&fields=sentences", "", 400, nil},
		{"GET", "/api/timeline?name=诸葛亮&limit=20&offset=40", "", 200, func(m map[string]any) bool { return m["Limit"] == 20.0 && m["Offset"] == 40.0 }},
		{"GET", "/api/timeline?name=诸葛亮&offset=-1", "", 400, nil},
		{"GET", "/api/timeline?name=x&from=abc", "", 400, nil},
		{"GET", "/api/date?expr=建兴十二年&dynasty=蜀汉", "", 200, func(m map[string]any) bool { return m["dynasty"] == "蜀汉" }},
		{"GET", "/api/date", "", 400, nil},
		{"GET", "/api/feedback?all=true", "", 200, func(m map[string]any) bool { return m["all"] == true }},
		{"POST", "/api/feedback/12/revert", "", 200, func(m map[string]any) bool { return m["reverted"] == 12.0 }},
		{"POST", "/api/feedback/x/revert", "", 400, nil},
		{"POST", "/api/feedback/404/revert", "", 404, nil},
		{"GET", "/api/nothing", "", 404, nil},
		{"DELETE", "/api/stats", "", 405, nil},
		{"POST", "/api/nothing", "{}", 404, nil},
		{"GET", "/api/graph/曹操?depth=2&types=子女,%20下级", "", 200, func(m map[string]any) bool {
			ts, _ := m["types"].([]any)
			return m["depth"] == 2.0 && len(ts) == 2 && ts[1] == "下级"
		}},
		{"GET", "/api/graph/曹操?depth=4", "", 400, nil},
		{"GET", "/api/document/三国志/蜀书/诸葛亮传/text.txt", "", 200, func(m map[string]any) bool { return m["key"] == "三国志/蜀书/诸葛亮传/text.txt" }},
		{"GET", "/api/document/none", "", 404, nil},
		{"DELETE", "/api/document/a/b.txt", "", 200, func(m map[string]any) bool { return m["removed"] == "a/b.txt" }},
		{"POST", "/api/index", `{"path":"新编"}`, 200, func(m map[string]any) bool { return m["path"] == "新编" && m["id"] == 1.0 }},
		{"POST", "/api/index", `{"path":"../../etc"}`, 403, nil},
		{"POST", "/api/index", `{"path":""}`, 400, nil},
		{"POST", "/api/index", `{"path":"a\u0000b"}`, 400, nil},
		{"POST", "/api/index", `{"dir":"a"}`, 400, nil},
		{"GET", "/api/jobs/1", "", 200, func(m map[string]any) bool { return m["state"] == "running" }},
		{"GET", "/api/jobs/7", "", 404, nil},
		{"GET", "/api/jobs/x", "", 400, nil},
		{"GET", "/api/jobs/0/events", "", 400, nil},
		{"GET", "/api/jobs/9/events", "", 404, nil},
		{"DELETE", "/api/jobs/1", "", 200, func(m map[string]any) bool { return m["state"] == "cancelled" }},
		{"GET", "/api/server", "", 200, func(m map[string]any) bool { return m["writes"] == "open" && m["index_roots"] != nil }},
		{"GET", "/api/openapi.json", "", 200, func(m map[string]any) bool { return m["openapi"] == "3.1.0" && m["paths"] != nil }},
	} {
		status, out, raw := call(t, h, c.method, c.path, c.body)
		if status != c.status || c.check != nil && !c.check(out) {
			t.Errorf("%s %s %s: %d %s", c.method, c.path, c.body, status, raw)
		}
		if status >= 400 && (out == nil || out["error"] == nil) {
			t.Errorf("%s %s: an error without a message: %s", c.method, c.path, raw)
		}
	}
}

// events reads a server-sent event stream into (name, data) pairs.
func readEvents(t *testing.T, raw string) [][2]string {
	t.Helper()
	var out [][2]string
	for _, block := range strings.Split(strings.TrimSpace(raw), "\n\n") {
		var ev [2]string
		for _, line := range strings.Split(block, "\n") {
			if v, ok := strings.CutPrefix(line, "event: "); ok {
				ev[0] = v
			} else if v, ok := strings.CutPrefix(line, "data: "); ok {
				ev[1] = v
			} else {
				t.Fatalf("a line that is neither event nor data: %q in %q", line, raw)
			}
		}
		out = append(out, ev)
	}
	return out
}

func TestAskStreamsEvents(t *testing.T) {
	h := New(&fake{}, Options{Loopback: true})
	req := newRequest("POST", "/api/ask", strings.NewReader(`{"question":"诸葛亮字什么？"}`))
	req.Header.Set("Accept", "text/event-stream")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("content type %q", ct)
	}
	evs := readEvents(t, rec.Body.String())
	var names, text []string
	for _, ev := range evs {
		names = append(names, ev[0])
		if ev[0] == "token" {
			var tok struct{ Text string }
			if err := json.Unmarshal([]byte(ev[1]), &tok); err != nil {
				t.Fatal(err)
			}
			text = append(text, tok.Text)
		}
	}
	if got := strings.Join(names, ","); got != "status,token,token,token,result" {
		t.Fatalf("events %s", got)
	}
	if strings.Join(text, "") != "诸葛亮字<b>孔明</b>" {
		t.Errorf("streamed %q", text)
	}
	if strings.Contains(rec.Body.String(), "<b>") {
		t.Errorf("markup reached the stream raw: %s", rec.Body)
	}
	// A failure after the stream began is an error event; one before it is
	// a plain error reply.
	req = newRequest("POST", "/api/ask", strings.NewReader(`{"question":"fail"}`))
	req.Header.Set("Accept", "text/event-stream")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if evs := readEvents(t, rec.Body.String()); evs[len(evs)-1][0] != "error" || !strings.Contains(evs[len(evs)-1][1], "away") {
		t.Errorf("failure: %v", evs)
	}
	req = newRequest("POST", "/api/ask", strings.NewReader(`{"question":""}`))
	req.Header.Set("Accept", "text/event-stream")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 400 {
		t.Errorf("an empty question with events asked for: %d", rec.Code)
	}
}

func TestJobEventsEndWithDone(t *testing.T) {
	h := New(&fake{}, Options{Loopback: true, NotFound: errNotFound, Timeout: time.Nanosecond})
	_, _, raw := call(t, h, "GET", "/api/jobs/1/events", "")
	evs := readEvents(t, raw)
	if len(evs) != 3 || evs[0][0] != "progress" || evs[2][0] != "done" || !strings.Contains(evs[2][1], `"done":2`) {
		t.Fatalf("events %v", evs)
	}
}

func TestTextIsEscapedForPages(t *testing.T) {
	h := New(&fake{}, Options{Loopback: true})
	_, _, raw := call(t, h, "POST", "/api/ask", `{"question":"<script>alert(1)</script>"}`)
	if strings.Contains(raw, "<script>") || strings.Contains(raw, "<b>") {
		t.Fatalf("markup from the corpus reached the JSON raw: %s", raw)
	}
}

func TestWritesNeedTheToken(t *testing.T) {
	f := &fake{}
	// Beyond loopback with a token: writes need it, reads do not.
	h := New(f, Options{Token: "s3cret", NotFound: errNotFound})
	if status, _, _ := call(t, h, "POST", "/api/feedback/1/revert", ""); status != 401 {
		t.Fatalf("revert without the token: %d", status)
	}
	if status, _, _ := call(t, h, "POST", "/api/feedback/1/revert", "", "Authorization", "Bearer wrong!"); status != 401 {
		t.Fatalf("revert with a wrong token: %d", status)
	}
	if status, _, _ := call(t, h, "POST", "/api/relate", `{"head":"a","tail":"b","feedback":true}`); status != 401 {
		t.Fatalf("relate with feedback without the token: %d", status)
	}
	if status, _, _ := call(t, h, "POST", "/api/relate", `{"head":"a","tail":"b"}`); status != 200 {
		t.Fatalf("relate that only reads: %d", status)
	}
	if status, _, _ := call(t, h, "POST", "/api/feedback/1/revert", "", "Authorization", "Bearer s3cret"); status != 200 || len(f.reverted) != 1 {
		t.Fatalf("revert with the token: %d %v", status, f.reverted)
	}
	if status, _, _ := call(t, h, "GET", "/api/stats", ""); status != 200 {
		t.Fatalf("a read without the token: %d", status)
	}
	if status, _, _ := call(t, h, "DELETE", "/api/document/a.txt", ""); status != 401 {
		t.Fatalf("delete without the token: %d", status)
	}
	if status, _, _ := call(t, h, "POST", "/api/index", `{"path":"a"}`); status != 401 {
		t.Fatalf("index without the token: %d", status)
	}
	if status, _, _ := call(t, h, "DELETE", "/api/jobs/1", ""); status != 401 {
		t.Fatalf("cancel a job without the token: %d", status)
	}
	if status, _, _ := call(t, h, "POST", "/api/index", `{"path":"a"}`, "Authorization", "Bearer s3cret"); status != 200 {
		t.Fatalf("index with the token: %d", status)
	}
	// Not loopback and no token: no writes at all.
	h = New(f, Options{})
	if status, _, _ := call(t, h, "POST", "/api/feedback/1/revert", ""); status != 401 {
		t.Fatalf("revert on an open server without a token: %d", status)
	}
}

func TestExportSendsAFileWithTheToken(t *testing.T) {
	h := New(&fake{}, Options{Token: "s3cret", NotFound: errNotFound})
	const path = "/api/export?format=graphml&type=人物,地点&relation=任官&since=-206&around=曹操&depth=2"
	if status, _, _ := call(t, h, "GET", path, ""); status != 401 {
		t.Fatalf("an export without the token: %d", status)
	}
	req := newRequest("GET", path, nil)
	req.Header.Set("Authorization", "Bearer s3cret")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/graphml+xml" ||
		!strings.Contains(rec.Header().Get("Content-Disposition"), "attachment") ||
		!strings.Contains(rec.Header().Get("Content-Disposition"), "filename*=utf-8''%E5%9B%BE.graphml") {
		t.Fatalf("export: %d %v", rec.Code, rec.Header())
	}
	if got := rec.Body.String(); got != "[人物 地点]|[任官]|-206|2|6" {
		t.Fatalf("the export was asked for %q", got)
	}
	for _, c := range []struct {
		query  string
		status int
	}{
		{"", 400}, {"format=gexf", 400}, {"format=graphml&since=soon", 400}, {"format=graphml&depth=11", 400},
		{"format=graphml&since=1&around=无名", 404},
	} {
		if status, out, _ := call(t, h, "GET", "/api/export?"+c.query, "", "Authorization", "Bearer s3cret"); status != c.status || out["error"] == nil {
			t.Errorf("export?%s: %d %v, want %d with an error", c.query, status, out, c.status)
		}
	}
}

func TestBodiesAreBounded(t *testing.T) {
	h := New(&fake{}, Options{Loopback: true, MaxBody: 64})
	status, out, _ := call(t, h, "POST", "/api/ask", `{"question":"`+strings.Repeat("长", 100)+`"}`)
	if status != http.StatusRequestEntityTooLarge || out["error"] == nil {
		t.Fatalf("oversize body: %d %v", status, out)
	}
}

func TestCheckAddress(t *testing.T) {
	for _, c := range []struct {
		addr, token string
		loopback    bool
		ok          bool
	}{
		{"127.0.0.1:8080", "", true, true},
		{"localhost:8080", "", true, true},
		{"[::1]:8080", "", true, true},
		{"0.0.0.0:8080", "", false, false},
		{":8080", "", false, false},
		{"0.0.0.0:8080", "t", false, true},
		{"nonsense", "", false, false},
	} {
		loop, err := CheckAddress(c.addr, c.token)
		if (err == nil) != c.ok || err == nil && loop != c.loopback {
			t.Errorf("%s token=%q: loopback %v, %v", c.addr, c.token, loop, err)
		}
	}
}

func FuzzRequests(f *testing.F) {
	f.Add("POST", "/api/ask", `{"question":"x"}`)
	f.Add("GET", "/api/search?text=%ff", "")
	f.Add("GET", "/api/entity/..%2F..%2Fetc", "")
	h := New(&fake{}, Options{Loopback: true, NotFound: errNotFound, MaxBody: 4096})
	f.Add("POST", "/api/relate", "{\"head\":\"\xff\",\"tail\":\"b\"}")
	f.Fuzz(func(t *testing.T, method, path, body string) {
		if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, " \r\n\t#") || method == "" || strings.ContainsAny(method, " \r\n\t/()<>@,;:\\\"[]?={}") {
			return
		}
		req, err := http.NewRequest(method, "http://127.0.0.1:8080"+path, strings.NewReader(body))
		if err != nil {
			return
		}
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %s %q: %d %s", method, path, body, rec.Code, rec.Body)
		}
	})
}
