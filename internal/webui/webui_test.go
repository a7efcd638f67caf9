package webui

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func get(t *testing.T, method, path string, header map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	Handler().ServeHTTP(rec, req)
	return rec
}

func distFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := fs.ReadFile(dist, "dist/"+name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestIndexAtRootAndUnknownPaths(t *testing.T) {
	index := distFile(t, "index.html")
	for _, p := range []string{"/", "/index.html", "/entity/x", "/doc/%E4%B8%89/a.txt"} {
		rec := get(t, http.MethodGet, p, nil)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: %d", p, rec.Code)
		}
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Errorf("GET %s: Content-Type %q", p, ct)
		}
		if !bytes.Equal(rec.Body.Bytes(), index) {
			t.Errorf("GET %s: not index.html", p)
		}
		if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("GET %s: Content-Security-Policy %q", p, csp)
		}
	}
}

func TestScriptIsJavaScriptAndGzipped(t *testing.T) {
	want := distFile(t, "app.js")
	rec := get(t, http.MethodGet, "/app.js", map[string]string{"Accept-Encoding": "gzip, deflate"})
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /app.js: %d", rec.Code)
	}
	if ct := rec.Header().Get("Content-Type"); !strings.Contains(ct, "javascript") {
		t.Errorf("Content-Type %q, want JavaScript", ct)
	}
	if ce := rec.Header().Get("Content-Encoding"); ce != "gzip" {
		t.Fatalf("Content-Encoding %q, want gzip", ce)
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("gzipped app.js does not unpack to dist/app.js")
	}

	plain := get(t, http.MethodGet, "/app.js", nil)
	if plain.Header().Get("Content-Encoding") != "" || !bytes.Equal(plain.Body.Bytes(), want) {
		t.Error("without Accept-Encoding, app.js must come as it is")
	}
	if ct := get(t, http.MethodGet, "/app.css", nil).Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/css") {
		t.Errorf("app.css: Content-Type %q", ct)
	}
}

var refRe = regexp.MustCompile(`(?i)\b(?:src|href)\s*=\s*"([^"]*)"`)

func TestIndexReferencesExist(t *testing.T) {
	index := string(distFile(t, "index.html"))
	refs := refRe.FindAllStringSubmatch(index, -1)
	var local int
	for _, m := range refs {
		ref := m[1]
		if strings.HasPrefix(ref, "data:") {
			continue
		}
		if strings.Contains(ref, "//") {
			t.Errorf("index.html loads %q from elsewhere: everything must be bundled", ref)
			continue
		}
		name := strings.TrimPrefix(ref, "/")
		if i := strings.IndexAny(name, "?#"); i >= 0 {
			name = name[:i]
		}
		if _, err := fs.Stat(dist, "dist/"+name); err != nil {
			t.Errorf("index.html references %q, which dist lacks", ref)
		}
		local++
	}
	if local < 2 {
		t.Errorf("index.html references %d local files, want the script and the stylesheet", local)
	}
}

func TestSizeBudget(t *testing.T) {
	raw, gz, err := Size()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("dist: %d bytes, %d gzipped", raw, gz)
	if raw == 0 || gz > 500*1024 {
		t.Fatalf("dist is %d bytes gzipped (raw %d): the budget is 500 KiB", gz, raw)
	}
}

var scriptRe = regexp.MustCompile(`(?is)<script\b([^>]*)>(.*?)</script\s*>`)

// TestNoInlineScript holds index.html to what the Content-Security-Policy
// allows: scripts from files only, no handlers in attributes.
func TestNoInlineScript(t *testing.T) {
	index := string(distFile(t, "index.html"))
	scripts := scriptRe.FindAllStringSubmatch(index, -1)
	if len(scripts) == 0 {
		t.Fatal("index.html has no script")
	}
	for _, m := range scripts {
		if !strings.Contains(m[1], "src=") || strings.TrimSpace(m[2]) != "" {
			t.Errorf("inline script in index.html: %s", m[0])
		}
	}
	if strings.Count(strings.ToLower(index), "<script") != len(scripts) {
		t.Error("index.html has a script element the check could not read")
	}
	if m := regexp.MustCompile(`(?i)\son[a-z]+\s*=`).FindString(index); m != "" {
		t.Errorf("index.html has an event handler attribute: %q", m)
	}
	if strings.Contains(strings.ToLower(index), "javascript:") {
		t.Error("index.html has a javascript: URL")
	}
}

func TestHeadAndConditionalGet(t *testing.T) {
	full := get(t, http.MethodGet, "/app.css", nil)
	etag := full.Header().Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	head := get(t, http.MethodHead, "/app.css", nil)
	if head.Code != http.StatusOK || head.Body.Len() != 0 || head.Header().Get("ETag") != etag {
		t.Errorf("HEAD: %d, %d bytes, ETag %q", head.Code, head.Body.Len(), head.Header().Get("ETag"))
	}
	again := get(t, http.MethodGet, "/app.css", map[string]string{"If-None-Match": etag})
	if again.Code != http.StatusNotModified || again.Body.Len() != 0 {
		t.Errorf("If-None-Match: %d with %d bytes, want 304 and none", again.Code, again.Body.Len())
	}
	if other := get(t, http.MethodGet, "/app.css", map[string]string{"If-None-Match": `"other"`}); other.Code != http.StatusOK {
		t.Errorf("a stale ETag: %d, want 200", other.Code)
	}
}

func TestWritesRefused(t *testing.T) {
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
		rec := get(t, m, "/", nil)
		if rec.Code != http.StatusMethodNotAllowed {
			t.Errorf("%s /: %d, want 405", m, rec.Code)
		}
		if allow := rec.Header().Get("Allow"); !strings.Contains(allow, "GET") {
			t.Errorf("%s /: Allow %q", m, allow)
		}
	}
}

// TestDistMatchesSource rebuilds the interface from web/ and compares,
// when the build tools are installed (cd web && npm ci).
func TestDistMatchesSource(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the build")
	}
	web := filepath.Join("..", "..", "web")
	if _, err := os.Stat(filepath.Join(web, "node_modules", "esbuild")); err != nil {
		t.Skip("web/node_modules is not installed: cd web && npm ci")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node")
	}
	cmd := exec.Command(node, "build.mjs", "--check")
	cmd.Dir = web
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("dist differs from a build of web/: %v\n%s", err, out)
	}
}
