package server

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A page on another site, or a page whose name was rebound to this
// machine, must not write, nor make the server work for it.
func TestCrossSiteRequestsAreRefused(t *testing.T) {
	f := &fake{}
	h := New(f, Options{Loopback: true, Addr: "127.0.0.1:8080", NotFound: errNotFound})
	for _, c := range []struct {
		name         string
		method, path string
		body         string
		header       []string
		status       int
	}{
		// A "simple" request a form or fetch(no-cors) may send anywhere.
		{"text/plain feedback", "POST", "/api/relate", `{"head":"a","tail":"b","feedback":true}`, []string{"Content-Type", "text/plain"}, 403},
		{"form revert", "POST", "/api/feedback/1/revert", "", []string{"Content-Type", "application/x-www-form-urlencoded"}, 403},
		{"no content type", "POST", "/api/index", `{"path":"x"}`, []string{"Content-Type", ""}, 403},
		{"ask as text/plain", "POST", "/api/ask", `{"question":"x"}`, []string{"Content-Type", "text/plain;charset=UTF-8"}, 403},
		{"foreign origin", "POST", "/api/feedback/1/revert", "", []string{"Origin", "http://evil.example"}, 403},
		{"another port is another origin", "DELETE", "/api/document/a.txt", "", []string{"Origin", "http://127.0.0.1:9999"}, 403},
		{"opaque origin", "POST", "/api/feedback/1/revert", "", []string{"Origin", "null"}, 403},
		{"cross-site fetch", "POST", "/api/index", `{"path":"x"}`, []string{"Sec-Fetch-Site", "cross-site"}, 403},
		// The server's own pages, and programs that are not browsers.
		{"own page", "POST", "/api/feedback/1/revert", "", []string{"Origin", "http://127.0.0.1:8080", "Sec-Fetch-Site", "same-origin"}, 200},
		{"json with charset", "POST", "/api/ask", `{"question":"x"}`, []string{"Content-Type", "application/json; charset=utf-8"}, 200},
		{"curl delete", "DELETE", "/api/document/a.txt", "", nil, 200},
		// Reads from anywhere stay reads.
		{"cross-site read", "GET", "/api/stats", "", []string{"Sec-Fetch-Site", "cross-site", "Origin", "http://evil.example"}, 200},
	} {
		status, out, raw := call(t, h, c.method, c.path, c.body, c.header...)
		if status != c.status {
			t.Errorf("%s: %s %s: %d %s", c.name, c.method, c.path, status, raw)
		}
		if status == 403 && out["error"] == nil {
			t.Errorf("%s: a refusal without a reason: %s", c.name, raw)
		}
	}
	if len(f.reverted) != 1 {
		t.Errorf("feedback reverted %v times: only the server's own page may", f.reverted)
	}
}

func TestForeignHostsAreRefused(t *testing.T) {
	for _, c := range []struct {
		addr  string
		allow []string
		host  string
		ok    bool
	}{
		{"127.0.0.1:8080", nil, "127.0.0.1:8080", true},
		{"127.0.0.1:8080", nil, "localhost:8080", true},
		{"127.0.0.1:8080", nil, "LOCALHOST.:8080", true},
		{"127.0.0.1:8080", nil, "[::1]:8080", true},
		{"127.0.0.1:8080", nil, "rebind.example:8080", false},
		{"127.0.0.1:8080", nil, "", false},
		{"127.0.0.1:8080", nil, "192.0.2.7:8080", false},
		{"127.0.0.1:8080", []string{"annals.lan"}, "annals.lan:8080", true},
		{"127.0.0.1:8080", []string{"annals.lan"}, "other.lan:8080", false},
		{"192.0.2.7:8080", nil, "192.0.2.7:8080", true},
		{"192.0.2.7:8080", nil, "history.example", false},
		{"127.0.0.1:8080", []string{"*"}, "anything.example", true},
	} {
		h := New(&fake{}, Options{Loopback: true, Addr: c.addr, AllowHosts: c.allow})
		for _, m := range []string{"GET", "DELETE"} {
			req := newRequest(m, "/api/document/a.txt", nil)
			req.Host = c.host
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if (rec.Code == 200) != c.ok || !c.ok && rec.Code != 403 {
				t.Errorf("listening on %s, allowing %v: %s with Host %q: %d %s", c.addr, c.allow, m, c.host, rec.Code, rec.Body)
			}
		}
	}
}

func TestTokens(t *testing.T) {
	for _, tok := range []string{" ", "\t\n", "two words", "tab\there", "nul\x00"} {
		if CheckToken(tok) == nil {
			t.Errorf("token %q accepted", tok)
		}
		if _, err := CheckAddress("127.0.0.1:8080", tok); err == nil {
			t.Errorf("serving with token %q", tok)
		}
	}
	if err := CheckToken("c0ffee-5e11-a11"); err != nil {
		t.Error(err)
	}
	for _, c := range []struct {
		got, want string
		ok        bool
	}{
		{"s3cret", "s3cret", true},
		{"s3cres", "s3cret", false},
		{"s3cret!", "s3cret", false},
		{"", "s3cret", false},
		{"S3CRET", "s3cret", false},
	} {
		if tokenMatches(c.got, c.want) != c.ok {
			t.Errorf("tokenMatches(%q, %q) = %v", c.got, c.want, !c.ok)
		}
	}
}

// BenchmarkTokenMatches shows the comparison takes as long whether a
// wrong token differs in its first byte, its last, or its length.
func BenchmarkTokenMatches(b *testing.B) {
	want := strings.Repeat("a", 48)
	for _, c := range []struct{ name, got string }{
		{"right", want},
		{"first-byte", "b" + want[1:]},
		{"last-byte", want[:47] + "b"},
		{"shorter", want[:8]},
		{"longer", want + strings.Repeat("a", 200)},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				tokenMatches(c.got, want)
			}
		})
	}
}

func TestRequestsAreBounded(t *testing.T) {
	h := New(&fake{}, Options{Loopback: true, NotFound: errNotFound})
	var opts []string
	for i := range 5000 {
		opts = append(opts, fmt.Sprintf(`{"letter":"%d","text":"选项%d"}`, i, i))
	}
	for _, c := range []struct {
		method, path, body string
		want               string // in the error
	}{
		{"POST", "/api/ask", `{"question":"曹操何人？","options":[` + strings.Join(opts, ",") + `]}`, "26"},
		{"POST", "/api/ask", `{"question":"` + strings.Repeat("问", MaxQuestion+1) + `"}`, "1000 characters"},
		{"POST", "/api/ask", `{"question":"x","top_k":101}`, "100"},
		{"POST", "/api/ask", `{"question":"x","delta":100000}`, "500"},
		{"POST", "/api/ask", `{"question":"x","entity_sim":1.5}`, "entity_sim"},
		{"POST", "/api/ask", `{"question":"x","options":[{"letter":"A","text":"` + strings.Repeat("长", 501) + `"}]}`, "500 characters"},
		{"POST", "/api/relate", `{"head":"a","tail":"b","budget":999999999}`, "1000000"},
		{"POST", "/api/relate", `{"head":"a","tail":"b","top":51}`, "50"},
		{"GET", "/api/search?text=" + strings.Repeat("%E5%AD%97", MaxName+1), "", "200 characters"},
		{"GET", "/api/entity/" + strings.Repeat("%E5%AD%97", MaxName+1), "", "200 characters"},
	} {
		status, out, raw := call(t, h, c.method, c.path, c.body)
		msg, _ := out["error"].(string)
		if status != 400 || !strings.Contains(msg, c.want) {
			t.Errorf("%s %.60s %.60s: %d %.200s (want 400 naming %s)", c.method, c.path, c.body, status, raw, c.want)
		}
	}
	if status, _, raw := call(t, h, "POST", "/api/ask", `{"question":"x","options":[`+strings.Join(opts[:26], ",")+`]}`); status != 200 {
		t.Errorf("26 options: %d %s", status, raw)
	}
}

func TestInvalidUTF8IsABadRequest(t *testing.T) {
	h := New(&fake{}, Options{Loopback: true, NotFound: errNotFound})
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/api/search?text=%ff%fe", ""},
		{"GET", "/api/entity/%C0%AF", ""},
		{"GET", "/api/entities?q=%ff", ""},
		{"POST", "/api/ask", "{\"question\":\"\xff\xfe\"}"},
		{"POST", "/api/relate", "{\"head\":\"\xc3\",\"tail\":\"b\"}"},
	} {
		if status, out, raw := call(t, h, c.method, c.path, c.body); status != 400 || !strings.Contains(fmt.Sprint(out["error"]), "UTF-8") {
			t.Errorf("%s %s %q: %d %s", c.method, c.path, c.body, status, raw)
		}
	}
}

func TestWrongMethodIs405(t *testing.T) {
	h := New(&fake{}, Options{Loopback: true, NotFound: errNotFound})
	for _, c := range []struct{ method, path, allow string }{
		{"DELETE", "/api/stats", "GET, HEAD"},
		{"GET", "/api/ask", "POST"},
		{"PUT", "/api/document/a.txt", "GET, HEAD, DELETE"},
		{"GET", "/api/feedback/3/revert", "POST"},
	} {
		req := newRequest(c.method, c.path, nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != c.allow {
			t.Errorf("%s %s: %d, Allow %q (want 405, %q)", c.method, c.path, rec.Code, rec.Header().Get("Allow"), c.allow)
		}
	}
	if status, _, _ := call(t, h, "GET", "/api/nowhere", ""); status != 404 {
		t.Errorf("no such endpoint: %d", status)
	}
}

// slow works until its request's context ends, and says when it did.
type slow struct {
	fake
	stopped chan string
}

func (s *slow) wait(ctx context.Context, what string) (any, error) {
	<-ctx.Done()
	s.stopped <- what
	return nil, ctx.Err()
}
func (s *slow) Search(ctx context.Context, q SearchQuery) (any, error) { return s.wait(ctx, "search") }
func (s *slow) Ask(ctx context.Context, req AskRequest, stream func(string)) (any, error) {
	return s.wait(ctx, "ask")
}

func TestReadsHaveATimeBudget(t *testing.T) {
	b := &slow{stopped: make(chan string, 4)}
	h := New(b, Options{Loopback: true, ReadBudget: 30 * time.Millisecond, Timeout: time.Minute})
	status, out, raw := call(t, h, "GET", "/api/search?text=x", "")
	if status != http.StatusServiceUnavailable || !strings.Contains(fmt.Sprint(out["error"]), "time budget of 30ms") {
		t.Fatalf("a search past its budget: %d %s", status, raw)
	}
	if status, _, raw := call(t, h, "POST", "/api/ask", `{"question":"x"}`); status != http.StatusServiceUnavailable {
		t.Fatalf("an offline question past its budget: %d %s", status, raw)
	}
	// A model's answer may take longer than the read budget.
	h = New(b, Options{Loopback: true, ReadBudget: 30 * time.Millisecond, Timeout: 300 * time.Millisecond, LLM: true})
	began := time.Now()
	call(t, h, "POST", "/api/ask", `{"question":"x"}`)
	if d := time.Since(began); d < 250*time.Millisecond {
		t.Fatalf("a question for the model was cut off after %s", d)
	}
}

func TestWorkStopsWhenTheClientGoes(t *testing.T) {
	b := &slow{stopped: make(chan string, 1)}
	srv := httptest.NewServer(New(b, Options{Loopback: true, Timeout: time.Minute, ReadBudget: time.Minute}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/api/ask", strings.NewReader(`{"question":"x"}`))
	req.Header.Set("Content-Type", "application/json")
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	<-done
	select {
	case what := <-b.stopped:
		if what != "ask" {
			t.Fatalf("stopped %s", what)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server kept working 5 s after the client hung up")
	}
}
