package annals_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/annals-project/annals"
)

func TestAPIOverTheDemo(t *testing.T) {
	ws, _ := indexDemo(t)
	if _, err := ws.Handler(annals.ServeOptions{Addr: "0.0.0.0:8080"}); err == nil {
		t.Fatal("served beyond loopback without a token")
	}
	h, err := ws.Handler(annals.ServeOptions{Addr: "127.0.0.1:0", Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	read := func(resp *http.Response, err error) (int, string) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, string(b)
	}
	get := func(path string) (int, string) { return read(http.Get(srv.URL + path)) }
	post := func(path, body string) (int, string) {
		return read(http.Post(srv.URL+path, "application/json", strings.NewReader(body)))
	}
	q := url.QueryEscape
	if s, b := get("/api/entities?q=" + q("孔明")); s != 200 || !strings.Contains(b, `"name":"诸葛亮"`) {
		t.Fatalf("entities by 字: %d %.300s", s, b)
	}
	// The start of an alias suggests its entity, saying which alias.
	if s, b := get("/api/entities?q=" + q("卧") + "&type=" + q("人物")); s != 200 || !strings.Contains(b, `"name":"诸葛亮"`) || !strings.Contains(b, `"matched":{"name":"卧龙"`) {
		t.Fatalf("entities by the start of an alias: %d %.300s", s, b)
	}
	if s, b := get("/api/entity/" + url.PathEscape("诸葛亮")); s != 200 || !strings.Contains(b, "孔明") || !strings.Contains(b, `"relations"`) {
		t.Fatalf("entity: %d %.300s", s, b)
	}
	if s, _ := get("/api/entity/" + url.PathEscape("无名氏甲")); s != 404 {
		t.Fatalf("unknown entity: %d", s)
	}
	if s, b := get("/api/search?text=" + q("孔明") + "&limit=2"); s != 200 || !strings.Contains(b, `"total"`) {
		t.Fatalf("search: %d %.300s", s, b)
	}
	if s, b := post("/api/ask", `{"question":"诸葛亮字什么？"}`); s != 200 || !strings.Contains(b, "孔明") || !strings.Contains(b, `"citations"`) {
		t.Fatalf("ask: %d %.300s", s, b)
	}
	if s, b := post("/api/relate", `{"head":"孙坚","tail":"孙策"}`); s != 200 || !strings.Contains(b, `"verdict"`) || strings.Contains(b, `"feedback"`) {
		t.Fatalf("relate, reading only: %d %.300s", s, b)
	}
	if s, b := get("/api/timeline?name=" + q("诸葛亮")); s != 200 || !strings.HasPrefix(b, "[") {
		t.Fatalf("timeline: %d %.300s", s, b)
	}
	// A chart's marks: the year and the fact's ends, no citation.
	full, marks := "", ""
	if s, b := get("/api/timeline?from=180&to=240&limit=5000"); s == 200 {
		full = b
	}
	if s, b := get("/api/timeline?from=180&to=240&limit=5000&fields=marks"); s == 200 {
		marks = b
	}
	var fullItems, markItems []map[string]any
	json.Unmarshal([]byte(full), &fullItems)
	json.Unmarshal([]byte(marks), &markItems)
	if len(markItems) == 0 || len(markItems) != len(fullItems) || strings.Contains(marks, `"citation"`) || !strings.Contains(marks, `"head_type"`) || len(marks)*3 > len(full) {
		t.Fatalf("timeline marks: %d items against %d, %d bytes against %d", len(markItems), len(fullItems), len(marks), len(full))
	}
	if s, _ := get("/api/timeline?from=180&to=240&fields=everything"); s != 400 {
		t.Fatalf("timeline with unknown fields: %d, want 400", s)
	}
	if s, b := get("/api/date?expr=" + q("建兴十二年") + "&dynasty=" + q("蜀汉")); s != 200 || !strings.Contains(b, "234") {
		t.Fatalf("date: %d %.300s", s, b)
	}
	if s, b := get("/api/date?expr=208"); s != 200 || !strings.Contains(b, "建安十三年") {
		t.Fatalf("date of a year in numerals: %d %.300s", s, b)
	}
	if s, _ := post("/api/feedback/999/revert", ""); s != 404 {
		t.Fatalf("revert of no feedback: %d", s)
	}
}

func TestAPIGraphAndReader(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	n, err := ws.Neighbourhood(ctx, "孔明", annals.NeighbourhoodOptions{Depth: 2, Limit: 40})
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Nodes) < 2 || n.Nodes[0].ID != n.Center || n.Nodes[0].Name != "诸葛亮" || n.Nodes[0].Depth != 0 || len(n.Nodes) > 40 {
		t.Fatalf("neighbourhood of 诸葛亮: %+v", n.Nodes)
	}
	ids := map[int64]bool{}
	for _, node := range n.Nodes {
		ids[node.ID] = true
		if node.Depth > 2 {
			t.Fatalf("a node %d steps away", node.Depth)
		}
	}
	// 亮 names 诸葛亮: folded into him, not drawn as a neighbour.
	for _, node := range n.Nodes {
		if node.Name == "亮" {
			t.Fatalf("the alias 亮 drawn as a node: %+v", node)
		}
	}
	if !slices.Contains(n.Nodes[0].Aliases, "亮") {
		t.Errorf("诸葛亮's folded aliases: %v, want 亮 among them", n.Nodes[0].Aliases)
	}
	if n.Relations["别称"] == 0 || n.Relations["子女"] == 0 {
		t.Errorf("relation counts of the centre: %v", n.Relations)
	}
	dated := 0
	for _, e := range n.Edges {
		if !ids[e.Head] || !ids[e.Tail] {
			t.Fatalf("edge %+v leaves the neighbourhood", e)
		}
		if e.Year != nil {
			dated++
			if *e.Year < 150 || *e.Year > 300 {
				t.Errorf("edge %+v dated to %d, outside the Three Kingdoms", e, *e.Year)
			}
		}
	}
	if dated == 0 {
		t.Error("no edge around 诸葛亮 carries a year")
	}
	only, err := ws.Neighbourhood(ctx, "诸葛亮", annals.NeighbourhoodOptions{Types: []string{"子女"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range only.Edges {
		if e.Type != "子女" {
			t.Fatalf("filtered to 子女, got %+v", e)
		}
	}
	docs, err := ws.Documents(ctx)
	if err != nil || len(docs) == 0 {
		t.Fatal(err)
	}
	r, err := ws.Read(ctx, docs[0].Key)
	if err != nil {
		t.Fatal(err)
	}
	rs := []rune(r.Text)
	if len(r.Mentions) == 0 {
		t.Fatalf("no mentions in %s", r.Key)
	}
	for _, m := range r.Mentions {
		if m.Start < 0 || m.End > len(rs) || string(rs[m.Start:m.End]) != m.Surface {
			t.Fatalf("mention %+v does not read %q in the text", m, m.Surface)
		}
	}
}

func TestEntityPagesAreReadAgainAfterACommit(t *testing.T) {
	ws, _ := indexDemo(t)
	h, err := ws.Handler(annals.ServeOptions{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	path := "/api/entity/" + url.PathEscape("诸葛亮")
	get := func() string {
		t.Helper()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, apiRequest("GET", path, nil))
		if rec.Code != 200 {
			t.Fatalf("%d %s", rec.Code, rec.Body)
		}
		return rec.Body.String()
	}
	first := get()
	if second := get(); second != first {
		t.Fatal("the same page twice, nothing changed, and two answers")
	}
	if strings.Contains(first, "南阳隐士") {
		t.Fatal("the alias is there before it was imported")
	}
	// Another handle on the workspace stands in for another process.
	other, err := annals.Open(context.Background(), ws.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	dict := filepath.Join(t.TempDir(), "more.txt")
	if err := os.WriteFile(dict, []byte("诸葛亮:南阳隐士\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := other.ImportAliases(context.Background(), dict, nil); err != nil {
		t.Fatal(err)
	}
	if after := get(); !strings.Contains(after, "南阳隐士") {
		t.Fatalf("the page did not see the alias committed since: %.300s", after)
	}
}

// The probes that once got through: a cross-site write, a rebound name
// deleting a document, and a question with thousands of options.
func TestAPIRefusesWhatABrowserElsewhereSends(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	h, err := ws.Handler(annals.ServeOptions{Addr: "127.0.0.1:8080"})
	if err != nil {
		t.Fatal(err)
	}
	docs, err := ws.Documents(ctx)
	if err != nil || len(docs) == 0 {
		t.Fatal(docs, err)
	}
	do := func(req *http.Request) (int, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	// A page anywhere may POST text/plain without asking first.
	req := apiRequest("POST", "/api/relate", strings.NewReader(`{"head":"孙坚","tail":"孙策","feedback":true}`))
	req.Header.Set("Content-Type", "text/plain")
	if status, body := do(req); status != 403 {
		t.Fatalf("cross-site feedback: %d %s", status, body)
	}
	req = apiRequest("POST", "/api/relate", strings.NewReader(`{"head":"孙坚","tail":"孙策","feedback":true}`))
	req.Header.Set("Origin", "http://evil.example")
	if status, body := do(req); status != 403 {
		t.Fatalf("feedback from another origin: %d %s", status, body)
	}
	if fbs, err := ws.FeedbackList(ctx, true); err != nil || len(fbs) != 0 {
		t.Fatalf("feedback written by a refused request: %v %v", fbs, err)
	}
	// A rebound name reaches the server with its own Host.
	req = apiRequest("DELETE", "/api/document/"+url.PathEscape(docs[0].Key), nil)
	req.Host = "rebind.example:8080"
	if status, body := do(req); status != 403 {
		t.Fatalf("delete by a rebound name: %d %s", status, body)
	}
	if after, _ := ws.Documents(ctx); len(after) != len(docs) {
		t.Fatalf("documents %d → %d", len(docs), len(after))
	}
	// Thousands of options are refused before any work.
	var opts []string
	for i := range 5000 {
		opts = append(opts, fmt.Sprintf(`{"letter":"%d","text":"选项%d"}`, i, i))
	}
	if status, body := do(apiRequest("POST", "/api/ask", strings.NewReader(`{"question":"诸葛亮卒于何地？","options":[`+strings.Join(opts, ",")+`]}`))); status != 400 || !strings.Contains(body, "26") {
		t.Fatalf("5,000 options: %d %.200s", status, body)
	}
}
