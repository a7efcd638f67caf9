package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// hostPolicy decides which Host headers the server answers. A browser
// sends the name it resolved, so a page whose name was rebound to this
// machine's address (DNS rebinding) arrives with a foreign name and is
// refused before it can read or write anything.
type hostPolicy struct {
	any   bool
	names map[string]bool // lowercased names and IP literals
}

// newHostPolicy allows loopback names and addresses always, the address
// the server listens on (every address of this machine when it listens on
// all of them), and the extra names given; "*" allows any.
func newHostPolicy(addr string, extra []string) hostPolicy {
	p := hostPolicy{names: map[string]bool{"localhost": true}}
	for _, h := range extra {
		h = normalHost(h)
		if h == "*" {
			p.any = true
		}
		if h != "" {
			p.names[h] = true
		}
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil || addr == "" {
		return p
	}
	ip := net.ParseIP(host)
	switch {
	case host == "" || ip != nil && ip.IsUnspecified():
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, a := range addrs {
				if n, ok := a.(*net.IPNet); ok {
					p.names[n.IP.String()] = true
				}
			}
		}
	case ip != nil:
		p.names[ip.String()] = true
	default:
		p.names[normalHost(host)] = true
	}
	return p
}

// normalHost is a host name without its port, brackets or final dot, in
// lower case.
func normalHost(hostport string) string {
	h := hostport
	if hh, _, err := net.SplitHostPort(hostport); err == nil {
		h = hh
	}
	h = strings.TrimSuffix(strings.Trim(h, "[]"), ".")
	return strings.ToLower(h)
}

func (p hostPolicy) allows(hostport string) bool {
	h := normalHost(hostport)
	if h == "" {
		return false
	}
	if p.any || p.names[h] {
		return true
	}
	if ip := net.ParseIP(h); ip != nil {
		return ip.IsLoopback() || p.names[ip.String()]
	}
	return false
}

// safeMethod says whether a request only reads by its method. Anything
// else may write or cost work, and must come from this server's own pages
// or from a program that is not a browser.
func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// crossSite says why a request that is not a plain read comes from another
// site, or returns nil. Browsers send Origin and Sec-Fetch-Site with such
// requests and cannot be made to forge them; a page elsewhere can send a
// "simple" POST without asking first only with a form's content types,
// so a POST must say it is JSON.
func crossSite(r *http.Request) error {
	if safeMethod(r.Method) {
		return nil
	}
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return errors.New("a page on another site may not send this request (Sec-Fetch-Site: cross-site)")
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || o == "null" || u.Host == "" || !strings.EqualFold(u.Host, r.Host) {
			return fmt.Errorf("a page from %q may not send this request: only this server's own pages (%s) may", o, r.Host)
		}
	}
	if r.Method == http.MethodPost {
		mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != "application/json" {
			return fmt.Errorf("send the body as JSON, with Content-Type: application/json (got %q; with curl: --json)", r.Header.Get("Content-Type"))
		}
	}
	return nil
}

// badText names the first query parameter or path that is not valid
// UTF-8, or returns "".
func badText(r *http.Request) string {
	if !utf8.ValidString(r.URL.Path) {
		return "path"
	}
	for k, vs := range r.URL.Query() {
		if !utf8.ValidString(k) {
			return "query"
		}
		for _, v := range vs {
			if !utf8.ValidString(v) {
				return k
			}
		}
	}
	return ""
}

// CheckToken refuses a token that cannot work or protects nothing: empty,
// blank, or holding spaces or control characters, which an Authorization
// header does not carry intact.
func CheckToken(token string) error {
	if strings.TrimSpace(token) == "" {
		return errors.New("the token is empty or blank: set ANNALS_TOKEN to a long random string (e.g. openssl rand -hex 24), or unset it")
	}
	for _, r := range token {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return errors.New("the token holds spaces or control characters: use letters, digits and punctuation only (e.g. openssl rand -hex 24)")
		}
	}
	return nil
}

// tokenMatches compares in time that depends on neither the token's
// contents nor its length: both sides are hashed to 32 bytes first, and
// the digests compared with crypto/subtle.
func tokenMatches(got, want string) bool {
	g, w := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(want))
	return subtle.ConstantTimeCompare(g[:], w[:]) == 1
}
