package annals_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/annals-project/annals"
)

func TestIndexJobsStayInsideTheirRoots(t *testing.T) {
	ws, _ := indexDemo(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "texts")
	secret := filepath.Join(base, "secret")
	for _, d := range []string{filepath.Join(root, "新编"), secret} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "新编", "邓芝传.txt"), "邓芝，字伯苗，义阳新野人也。建兴元年，诸葛亮以芝为中郎将，使吴。")
	write(filepath.Join(secret, "密.txt"), "董允，字休昭，南郡枝江人也。")
	if err := os.Symlink(secret, filepath.Join(root, "link")); err != nil {
		t.Skip("symbolic links unavailable:", err)
	}
	if err := os.Symlink(filepath.Join(secret, "密.txt"), filepath.Join(root, "新编", "密.txt")); err != nil {
		t.Fatal(err)
	}

	// Without roots, indexing over HTTP is off.
	h, err := ws.Handler(annals.ServeOptions{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	if status, body := send(t, h, "POST", "/api/index", `{"path":"`+root+`"}`); status != 403 || !strings.Contains(body, "--root") {
		t.Fatalf("index with no roots: %d %s", status, body)
	}
	if _, err := ws.Handler(annals.ServeOptions{Addr: "127.0.0.1:0", Roots: []string{filepath.Join(base, "none")}}); err == nil {
		t.Fatal("a root that does not exist was accepted")
	}

	h, err = ws.Handler(annals.ServeOptions{Addr: "127.0.0.1:0", Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path   string
		status int
	}{
		{"../secret", 403}, {"新编/../../secret/密.txt", 403}, {secret, 403}, {"/etc", 403},
		{"link", 403}, {"link/密.txt", 403}, {"新编/密.txt", 403}, {"无此", 404},
		// Outside the roots, existing or not, the answer is the same: it
		// must not tell which files exist there.
		{filepath.Join(secret, "无此.txt"), 403}, {"/no/such/folder", 403}, {"../secret/无此", 403},
		{filepath.Join(root, "无此"), 404},
	} {
		body, _ := json.Marshal(map[string]string{"path": c.path})
		if status, reply := send(t, h, "POST", "/api/index", string(body)); status != c.status {
			t.Errorf("index %q: %d %s, want %d", c.path, status, reply, c.status)
		}
	}

	// A folder inside: the job runs, queries answer meanwhile, and the
	// events end with the finished job.
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/api/index", "application/json", strings.NewReader(`{"path":"新编"}`))
	if err != nil {
		t.Fatal(err)
	}
	var job annals.IndexJob
	if err := json.NewDecoder(resp.Body).Decode(&job); err != nil || resp.StatusCode != 200 {
		t.Fatalf("start: %d %v", resp.StatusCode, err)
	}
	resp.Body.Close()
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				r, err := http.Get(srv.URL + "/api/entity/" + url.PathEscape("诸葛亮"))
				if err != nil {
					t.Error(err)
					return
				}
				io.Copy(io.Discard, r.Body)
				r.Body.Close()
				if r.StatusCode != 200 {
					t.Errorf("entity while indexing: %d", r.StatusCode)
				}
			}
		}()
	}
	ev, err := http.Get(srv.URL + "/api/jobs/1/events")
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Body.Close()
	var last annals.IndexJob
	var names []string
	for _, e := range readEvents(t, ev.Body) {
		names = append(names, e.name)
		if err := json.Unmarshal([]byte(e.data), &last); err != nil {
			t.Fatalf("event %s: %v", e.name, err)
		}
	}
	wg.Wait()
	if len(names) == 0 || names[len(names)-1] != "done" {
		t.Fatalf("events %v", names)
	}
	if last.State != annals.JobDone || last.Report == nil || last.Report.Added != 1 || last.Total != 1 {
		t.Fatalf("finished job %+v", last)
	}
	var skippedLink bool
	for _, s := range last.Skipped {
		skippedLink = skippedLink || strings.Contains(s, "密.txt") && strings.Contains(s, "outside")
	}
	if !skippedLink {
		t.Errorf("the link out of the root was not reported as skipped: %v", last.Skipped)
	}
	if status, body := send(t, h, "GET", "/api/entity/"+url.PathEscape("邓芝"), ""); status != 200 || !strings.Contains(body, "伯苗") {
		t.Errorf("the indexed document's entity: %d %.200s", status, body)
	}
	if status, body := send(t, h, "GET", "/api/entity/"+url.PathEscape("董允"), ""); status != 404 {
		t.Errorf("a document behind a link out of the root was indexed: %d %.200s", status, body)
	}
	if status, body := send(t, h, "GET", "/api/jobs", ""); status != 200 || !strings.Contains(body, `"state":"done"`) {
		t.Errorf("jobs: %d %.200s", status, body)
	}
}

// event is one server-sent event.
type event struct{ name, data string }

// readEvents reads a stream of server-sent events to its end.
func readEvents(t *testing.T, r io.Reader) []event {
	t.Helper()
	var out []event
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "event: "); ok {
			out = append(out, event{name: v})
		} else if v, ok := strings.CutPrefix(line, "data: "); ok && len(out) > 0 {
			out[len(out)-1].data = v
		} else if line != "" {
			t.Fatalf("a line that is neither event, data nor blank: %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// send makes one request to h and returns the status and body.
func send(t *testing.T, h http.Handler, method, path, body string) (int, string) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apiRequest(method, path, r))
	return rec.Code, rec.Body.String()
}

// apiRequest is a request as a program on this machine sends it: to the
// loopback address, in JSON.
func apiRequest(method, path string, body io.Reader) *http.Request {
	req := httptest.NewRequest(method, path, body)
	req.Host = "127.0.0.1:8080"
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}
