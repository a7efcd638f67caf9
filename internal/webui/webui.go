// Package webui serves annals's web interface: the files that web/ builds
// into dist/, embedded in the binary so that `annals serve` needs nothing
// beside it. Each file is compressed once, when first asked for.
package webui

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"
)

//go:embed dist
var dist embed.FS

// csp keeps a page to its own scripts, even if a corpus's text got into
// the markup: no inline script, nothing fetched from elsewhere.
const csp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

type asset struct {
	body, gz []byte
	typ      string
	etag     string
}

// Handler serves the interface: a path names a file of dist, and anything
// else gets index.html, whose script routes by the URL's fragment.
func Handler() http.Handler {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // the embed directive guarantees dist
	}
	h := &handler{files: sub, cache: map[string]*asset{}}
	return h
}

type handler struct {
	files fs.FS
	mu    sync.Mutex
	cache map[string]*asset
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	a := h.load(name)
	if a == nil {
		name = "index.html"
		a = h.load(name)
	}
	if a == nil {
		http.Error(w, "the web interface was not built into this binary", http.StatusNotFound)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", a.typ)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Content-Security-Policy", csp)
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("ETag", a.etag)
	hd.Set("Vary", "Accept-Encoding")
	if name == "index.html" {
		hd.Set("Cache-Control", "no-cache")
	} else {
		hd.Set("Cache-Control", "public, max-age=3600")
	}
	if r.Header.Get("If-None-Match") == a.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := a.body
	if a.gz != nil && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		hd.Set("Content-Encoding", "gzip")
		body = a.gz
	}
	if r.Method == http.MethodHead {
		return
	}
	w.Write(body)
}

// load reads and compresses a file once; nil when dist has no such file.
func (h *handler) load(name string) *asset {
	h.mu.Lock()
	defer h.mu.Unlock()
	if a, ok := h.cache[name]; ok {
		return a
	}
	var a *asset
	if body, err := fs.ReadFile(h.files, name); err == nil && name != "" {
		sum := sha256.Sum256(body)
		a = &asset{body: body, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		a.typ = mime.TypeByExtension(path.Ext(name))
		if a.typ == "" {
			a.typ = "application/octet-stream"
		}
		if len(body) > 512 {
			var b bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
			zw.Write(body)
			zw.Close()
			if b.Len() < len(body) {
				a.gz = b.Bytes()
			}
		}
	}
	if a != nil { // unknown paths are not remembered: they are unbounded
		h.cache[name] = a
	}
	return a
}

// Size reports the interface's files: their total size, and gzipped.
func Size() (raw, gzipped int, err error) {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		return 0, 0, err
	}
	err = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(sub, p)
		if err != nil {
			return err
		}
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(body)
		zw.Close()
		raw += len(body)
		gzipped += min(b.Len(), len(body))
		return nil
	})
	return raw, gzipped, err
}
