package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

const chromium = "/usr/bin/chromium"

// xssText is a document full of markup: the interface must show it as
// text and run none of it.
const xssText = `曹操<script>window.__pwned=1</script>与<img src=x onerror="window.__pwned=1">刘备同行。` + "\n"

// TestBrowser drives the web interface in headless Chromium against
// `annals serve` over the demo workspace, through the test hooks
// (data-testid) the pages carry.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server and a browser")
	}
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("CI") != "" || os.Getenv("ANNALS_REQUIRE_BROWSER") != "" {
			t.Fatalf("%s: %v (CI installs chromium)", chromium, err)
		}
		t.Skipf("SKIPPED: the web interface's browser tests need %s (apt-get install chromium)", chromium)
	}
	began := time.Now()
	base := serveDemo(t)
	ctx := startBrowser(t)

	// The page's console is read throughout; an uncaught exception or a
	// console.error fails the test at the end. The reader never calls t,
	// which may have finished by the time a late message comes.
	var mu sync.Mutex
	var failures, notes []string
	console := chromedp.Console(ctx)
	go func() {
		for m, err := range console {
			if err != nil {
				return
			}
			mu.Lock()
			switch {
			case m.IsException():
				failures = append(failures, "uncaught: "+m.String())
			case m.Type == chromedp.ConsoleError && len(m.Args) > 0:
				failures = append(failures, "console.error: "+m.String())
			default:
				notes = append(notes, fmt.Sprintf("console %s: %s", m.Type, m.String()))
			}
			mu.Unlock()
		}
	}()

	b := &page{t: t, ctx: ctx}
	if err := chromedp.Do(b.timed(), chromedp.Navigate(base+"/")); err != nil {
		t.Fatalf("open %s: %v", base, err)
	}

	t.Run("SuggestThenEntity", func(t *testing.T) {
		b := b.on(t)
		b.wait(`!!document.querySelector('[data-testid=search-input]')`)
		b.do(chromedp.SendKeys(chromedp.CSS(`[data-testid=search-input]`), "诸葛亮"))
		b.wait(`[...document.querySelectorAll('[data-testid=suggestion]')].some(e => e.textContent.includes('诸葛亮'))`)
		if first := b.str(`document.querySelector('[data-testid=suggestion]').textContent`); !strings.Contains(first, "诸葛亮") {
			t.Fatalf("first suggestion %q, want 诸葛亮", first)
		}
		b.click(`[data-testid=suggestion]`)
		b.wait(`document.querySelector('[data-testid=entity-name]')?.textContent === '诸葛亮'`)
		b.wait(`document.querySelectorAll('[data-testid=fact]').length > 0`)
	})

	t.Run("Graph", func(t *testing.T) {
		b := b.on(t)
		b.wait(`+(document.querySelector('[data-testid=graph]')?.dataset.nodes || 0) >= 2`)
		// Its relations are dated, so the time range is offered.
		b.wait(`document.querySelector('.graph-years')?.hidden === false`)
	})

	t.Run("BioKinTree", func(t *testing.T) {
		b := b.on(t)
		// The person stands in his generation's row, his father's above.
		b.wait(`document.querySelector('[data-testid=kin-tree] .kin-self')?.textContent === '诸葛亮'`)
		b.wait(`(document.querySelector('[data-testid=kin-tree] [data-generation="-1"]')?.textContent || '').includes('诸葛珪')`)
		b.wait(`(document.querySelector('[data-testid=kin-tree] [data-generation="1"]')?.textContent || '').includes('诸葛瞻')`)
	})

	t.Run("GraphByCommunity", func(t *testing.T) {
		b := b.on(t)
		b.wait(`!!document.querySelector('[data-testid=graph-colour]')`)
		b.str(`(() => { const s = document.querySelector('[data-testid=graph-colour]'); s.value = 'community'; s.dispatchEvent(new Event('change')); return ''; })()`)
		// The legend names the communities, each a link to its page.
		b.wait(`[...document.querySelectorAll('[data-testid=legend-community] a')].some(a => a.getAttribute('href').startsWith('#/community/'))`)
	})

	t.Run("Communities", func(t *testing.T) {
		b := b.on(t)
		b.hash("#/communities")
		b.wait(`document.querySelectorAll('[data-testid=community]').length >= 3`)
		b.click(`[data-testid=community] a`)
		b.wait(`location.hash.startsWith('#/community/') && !!document.querySelector('[data-testid=community-tree]')`)
		// The four levels: community, keywords, triples with citations, attributes.
		b.wait(`document.querySelectorAll('[data-testid=community-tree] details').length === 4 && !!document.querySelector('[data-testid=tree-triple] [data-testid=citation]')`)
		b.wait(`+(document.querySelector('[data-testid=community-graph]')?.dataset.nodes || 0) >= 2`)
		b.hash("#/entity/" + "诸葛亮")
	})

	t.Run("CitationOpensPassage", func(t *testing.T) {
		b := b.on(t)
		b.wait(`!!document.querySelector('[data-testid=fact] [data-testid=citation]')`)
		b.click(`[data-testid=fact] [data-testid=citation]`)
		b.passageShown()
	})

	t.Run("CitationTooltip", func(t *testing.T) {
		b := b.on(t)
		b.hash("#/entity/" + "诸葛亮")
		b.wait(`!!document.querySelector('[data-testid=fact] [data-testid=citation]')`)
		b.hover(`[data-testid=fact] [data-testid=citation]`)
		b.wait(`(() => { const e = document.querySelector('[data-testid=citation-tip]'); return !!e && !e.hidden && e.textContent.trim().length > 0; })()`)
	})

	t.Run("Ask", func(t *testing.T) {
		b := b.on(t)
		b.hash("#/ask")
		b.wait(`!!document.querySelector('[data-testid=ask-input]')`)
		b.do(chromedp.SendKeys(chromedp.CSS(`[data-testid=ask-input]`), "诸葛亮字什么？"))
		b.click(`[data-testid=ask-submit]`)
		b.wait(`!!document.querySelector('[data-testid=answer]')?.textContent.includes('孔明') && !!document.querySelector('[data-testid=answer] [data-testid=citation]')`)
		b.click(`[data-testid=answer] [data-testid=citation]`)
		b.passageShown()
	})

	t.Run("Relate", func(t *testing.T) {
		b := b.on(t)
		b.hash("#/relate")
		b.wait(`!!document.querySelector('[data-testid=relate-head]')`)
		b.do(chromedp.SendKeys(chromedp.CSS(`[data-testid=relate-head]`), "刘备"))
		b.do(chromedp.SendKeys(chromedp.CSS(`[data-testid=relate-tail]`), "诸葛亮"))
		b.click(`[data-testid=relate-submit]`)
		b.wait(`document.querySelectorAll('[data-testid=path]').length > 0 && document.querySelectorAll('[data-testid=hop]').length > 0`)
		b.wait(`+(document.querySelector('[data-testid=relate-graph]')?.dataset.nodes || 0) >= 2`)
		b.wait(`!!document.querySelector('[data-testid=path] [data-testid=citation]')`)
	})

	t.Run("MentionOpensEntity", func(t *testing.T) {
		b := b.on(t)
		b.hash("#/doc/" + "三国人物%2F蜀%2F诸葛亮%2Ftext.txt")
		b.wait(`document.querySelectorAll('[data-testid=reader] [data-testid=mention]').length > 0`)
		b.click(`[data-testid=reader] [data-testid=mention]`)
		b.wait(`location.hash.startsWith('#/entity/') && (document.querySelector('[data-testid=entity-name]')?.textContent || '') !== ''`)
	})

	t.Run("Language", func(t *testing.T) {
		b := b.on(t)
		before := b.str(`document.querySelector('header nav').textContent`)
		b.click(`[data-testid=lang]`)
		b.wait(fmt.Sprintf(`document.querySelector('header nav').textContent !== %q`, before))
		after := b.str(`document.querySelector('header nav').textContent`)
		if !(strings.Contains(before, "检索") && strings.Contains(after, "Search")) && !(strings.Contains(before, "Search") && strings.Contains(after, "检索")) {
			t.Fatalf("nav %q became %q: want it switched between 检索 and Search", before, after)
		}
		b.click(`[data-testid=lang]`)
		b.wait(fmt.Sprintf(`document.querySelector('header nav').textContent === %q`, before))
	})

	t.Run("SuggestByAlias", func(t *testing.T) {
		b := b.on(t)
		b.str(`(() => { const i = document.querySelector('[data-testid=search-input]'); i.value = ''; i.focus(); return ''; })()`)
		// The start of his 号 finds him, and the suggestion says by what.
		b.do(chromedp.SendKeys(chromedp.CSS(`[data-testid=search-input]`), "卧"))
		b.wait(`[...document.querySelectorAll('[data-testid=suggestion]')].some(e => e.textContent.includes('诸葛亮') && e.textContent.includes('卧龙'))`)
	})

	t.Run("GraphLayout", func(t *testing.T) {
		b := b.on(t)
		b.viewport(1400, 1000)
		b.hash("#/entity/" + "诸葛亮")
		b.wait(`+(document.querySelector('[data-testid=graph]')?.dataset.nodes || 0) >= 2 && !!document.querySelector('[data-testid=graph]').dataset.labelPx`)
		// Labels stay readable at 100 % after the fit: at least 11 px.
		px := b.str(`document.querySelector('[data-testid=graph]').dataset.labelPx`)
		if v, err := strconv.ParseFloat(px, 64); err != nil || v < 11 {
			t.Errorf("graph labels %q px on screen, want ≥ 11", px)
		}
		// 亮 names 诸葛亮: folded into him, not a neighbour of his own.
		names := strings.Split(b.str(`document.querySelector('[data-testid=graph]').dataset.names`), "|")
		for _, n := range names {
			if n == "亮" || n == "孔明" {
				t.Errorf("the graph draws %s, a name of 诸葛亮, as a node: %v", n, names)
			}
		}
		// Each relation type is listed with its colour and count; a type with
		// more in the graph than drawn offers more.
		b.wait(`document.querySelectorAll('[data-testid=graph-relation]').length > 0`)
		b.screenshot("graph", "[data-testid=graph]")
	})

	t.Run("FactsInTimeOrder", func(t *testing.T) {
		b := b.on(t)
		// The page opens with a description merged from the facts.
		b.wait(`(document.querySelector('[data-testid=description]')?.textContent || '').includes('字孔明')`)
		b.wait(`document.querySelectorAll('[data-testid=fact-group]').length > 0 && !!document.querySelector('[data-testid=fact-sentence]')`)
		// Within each group the dated facts come first, in year order.
		bad := b.str(`[...document.querySelectorAll('[data-testid=fact-group]')].map(g => {
			const ys = [...g.querySelectorAll('[data-testid=fact-year]')].map(e => e.textContent);
			const nums = ys.filter(y => y !== '').map(y => /BCE|前/.test(y) ? 1 - parseInt(y.replace(/\D/g, ''), 10) : parseInt(y.replace(/\D/g, ''), 10));
			const sorted = nums.every((v, i) => i === 0 || nums[i - 1] <= v);
			const datedFirst = ys.findIndex(y => y === '') < 0 || ys.slice(ys.findIndex(y => y === '')).every(y => y === '');
			return sorted && datedFirst ? '' : g.querySelector('h3').textContent + ': ' + ys.join(',');
		}).filter(Boolean).join('; ')`)
		if bad != "" {
			t.Errorf("facts out of time order: %s", bad)
		}
		b.screenshot("entity", "[data-testid=fact-group]")
	})

	t.Run("EnglishNames", func(t *testing.T) {
		b := b.on(t)
		b.str(`(localStorage.setItem('annals.lang', 'en'), '')`)
		b.do(chromedp.Reload())
		b.wait(`document.querySelectorAll('[data-testid=fact-group]').length > 0`)
		// Types and relations of the built-in schema read in English.
		cjk := b.str(`[...document.querySelectorAll('.entity-head .badge, [data-testid=fact-group] h3 .rel')].map(e => e.textContent).filter(s => /[\u4e00-\u9fff]/.test(s)).join(' ')`)
		if cjk != "" {
			t.Errorf("untranslated in English: %s", cjk)
		}
		b.str(`(localStorage.setItem('annals.lang', 'zh'), '')`)
		b.do(chromedp.Reload())
		b.wait(`document.querySelector('header nav').textContent.includes('检索')`)
	})

	t.Run("TimelineChart", func(t *testing.T) {
		b := b.on(t)
		b.hash("#/timeline?from=180&to=240")
		b.wait(`+(document.querySelector('[data-testid=timeline-chart]')?.dataset.marks || 0) > 0 && document.querySelectorAll('[data-testid=timeline-event]').length > 0`)
		// A sentence is shown once, with all the facts it states.
		if dup := b.str(`(() => { const seen = new Set(), dup = []; for (const e of document.querySelectorAll('.tl-year')) { seen.clear(); for (const s of e.querySelectorAll('.tl-sentence')) { if (seen.has(s.textContent)) dup.push(s.textContent); seen.add(s.textContent); } } return dup.join(' | '); })()`); dup != "" {
			t.Errorf("sentences repeated within a year: %s", dup)
		}
		// No raw precision token: what shows is words.
		if raw := b.str(`[...document.querySelectorAll('.prec')].map(e => e.textContent.trim()).filter(s => /^(month|season|day|context|reign|月|季|日)$/.test(s)).join(' ')`); raw != "" {
			t.Errorf("raw precision shown: %s", raw)
		}
		b.screenshot("timeline", "")
	})

	t.Run("YearInNumerals", func(t *testing.T) {
		b := b.on(t)
		b.hash("#/timeline")
		b.str(`(() => { const q = document.querySelector('input[placeholder^="建兴"]'); q.value = '208'; return ''; })()`)
		b.click(`.col-side form button[type=submit]`)
		b.wait(`(document.querySelector('[data-testid=year-names]')?.textContent || '').includes('建安十三年')`)
	})

	t.Run("AskFromTheAddress", func(t *testing.T) {
		b := b.on(t)
		b.hash("#/ask?q=" + "诸葛亮的父亲是谁")
		b.wait(`!!document.querySelector('[data-testid=answer]')?.textContent.includes('诸葛珪') && !!document.querySelector('[data-testid=confidence]')`)
		if level := b.str(`document.querySelector('[data-testid=confidence]').dataset.level`); level == "" {
			t.Error("the answer shows no confidence level")
		}
		// Asking puts the question in the address, to share or bookmark.
		b.str(`(() => { const q = document.querySelector('[data-testid=ask-input]'); q.value = '诸葛亮字什么？'; q.dispatchEvent(new Event('input')); return ''; })()`)
		b.click(`[data-testid=ask-submit]`)
		b.wait(`decodeURIComponent(location.hash).includes('诸葛亮字什么') && !!document.querySelector('[data-testid=answer]')?.textContent.includes('孔明')`)
		if b.str(`document.querySelector('.answer-box').textContent`) == "" || strings.Contains(b.str(`document.querySelector('.answer-box .meta').textContent`), "fact") {
			t.Error("the answer names its method by an internal word")
		}
	})

	t.Run("Phone", func(t *testing.T) {
		b := b.on(t)
		b.viewport(390, 844)
		b.hash("#/entity/" + "曹操")
		b.hash("#/entity/" + "诸葛亮")
		b.wait(`+(document.querySelector('[data-testid=graph]')?.dataset.nodes || 0) >= 2 && !!document.querySelector('[data-testid=graph]').dataset.labelPx`)
		// Nothing is wider than the phone, and the relation filter shows
		// all its rows.
		if over := b.str(`[...document.querySelectorAll('.card, .graph, .graph-rels, .fact-group')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).map(e => e.className + ' ' + Math.round(e.getBoundingClientRect().right)).join(', ')`); over != "" {
			t.Errorf("wider than the phone's %s px: %s", b.str(`String(window.innerWidth)`), over)
		}
		// Every page of the menu is in sight, none scrolled off the side.
		if off := b.str(`[...document.querySelectorAll('header nav a')].filter(a => a.getBoundingClientRect().right > window.innerWidth + 1).map(a => a.textContent).join(', ')`); off != "" {
			t.Errorf("menu items off the phone's screen: %s", off)
		}
		if px := b.str(`document.querySelector('[data-testid=graph]').dataset.labelPx + ' ' + window.innerWidth`); !strings.HasSuffix(px, " 390") {
			t.Errorf("label px and page width %q: the phone's view is not 390 wide", px)
		} else if v, err := strconv.ParseFloat(strings.Fields(px)[0], 64); err != nil || v < 11 {
			t.Errorf("graph labels %q px on a phone, want ≥ 11", px)
		}
		if clipped := b.str(`(() => { const f = document.querySelector('.graph-rels'); return f && f.scrollHeight > f.clientHeight + 1 ? f.scrollHeight + ' > ' + f.clientHeight : ''; })()`); clipped != "" {
			t.Errorf("the relation filter is clipped: %s", clipped)
		}
		b.screenshot("phone-graph", "[data-testid=graph]")
		b.viewport(1400, 1000)
	})

	t.Run("NotFoundSuggests", func(t *testing.T) {
		b := b.on(t)
		b.hash("#/entity/" + "诸葛亮亮")
		b.wait(`[...document.querySelectorAll('[data-testid=didyoumean] a')].some(a => a.textContent === '诸葛亮')`)
		if n := b.str(`String(document.querySelectorAll('[data-testid=error]').length)`); n != "0" {
			t.Errorf("a not-found page shows %s error banners beside its card", n)
		}
	})

	t.Run("HomeNamesLanguages", func(t *testing.T) {
		b := b.on(t)
		b.hash("#/")
		b.wait(`[...document.querySelectorAll('main .chips li')].some(li => /Classical Chinese|文言/.test(li.textContent))`)
		if raw := b.str(`[...document.querySelectorAll('main .chips li')].map(li => li.textContent).filter(s => /^(lzh|vi|en) /.test(s)).join(', ')`); raw != "" {
			t.Errorf("language codes shown as they are: %s", raw)
		}
	})

	t.Run("SearchFromTheAddress", func(t *testing.T) {
		b := b.on(t)
		// q, as the ask page has it, works as well as text.
		b.hash("#/search?q=" + "孔明")
		b.wait(`document.querySelectorAll('.kwic tr').length > 0`)
		if v := b.str(`document.querySelector('main input[type=search]').value`); v != "孔明" {
			t.Errorf("the search box holds %q, want the address's 孔明", v)
		}
	})

	t.Run("MarkupStaysText", func(t *testing.T) {
		b := b.on(t)
		b.hash("#/doc/" + "杂记%2Fxss.txt")
		b.wait(`(document.querySelector('[data-testid=reader]')?.textContent || '').includes('<script>window.__pwned=1</script>')`)
		if txt := b.str(`document.querySelector('[data-testid=reader]').textContent`); !strings.Contains(txt, `<img src=x onerror="window.__pwned=1">`) {
			t.Fatalf("the reader does not show the markup as text: %q", txt)
		}
		b.hash("#/search?text=" + "__pwned")
		b.wait(`document.querySelectorAll('.kwic tr').length > 0`)
		if n := b.str(`String(document.querySelectorAll('main script, main img').length)`); n != "0" {
			t.Fatalf("%s script or img elements came from the corpus", n)
		}
		if got := b.str(`typeof window.__pwned`); got != "undefined" {
			t.Fatalf("corpus markup ran: window.__pwned is %s", got)
		}
	})

	// A page on another site sends what it may send without asking: a
	// "simple" POST (text/plain) that would write feedback, and a DELETE.
	// Both reach the server, which refuses them.
	t.Run("CrossSiteCannotWrite", func(t *testing.T) {
		b := b.on(t)
		before := apiCount(t, base, "/api/documents")
		evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, "<!doctype html><title>elsewhere</title><p>a page on another site</p>")
		}))
		defer evil.Close()
		// localhost and 127.0.0.1 are different sites to a browser.
		b.do(chromedp.Navigate(strings.Replace(evil.URL, "127.0.0.1", "localhost", 1) + "/"))
		got := b.await(fmt.Sprintf(`(async () => {
			const base = %q, out = [];
			const feedback = JSON.stringify({head: '孙坚', tail: '孙策', feedback: true});
			try { const r = await fetch(base + '/api/relate', {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'}, body: feedback}); out.push('simple:' + r.type); } catch (e) { out.push('simple:blocked'); }
			try { await fetch(base + '/api/relate', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: feedback}); out.push('json:read'); } catch (e) { out.push('json:blocked'); }
			try { await fetch(base + '/api/document/' + encodeURIComponent('杂记') + '/xss.txt', {method: 'DELETE'}); out.push('delete:read'); } catch (e) { out.push('delete:blocked'); }
			return out.join(' ');
		})()`, base))
		// The simple request was sent and answered (an opaque reply, not
		// a network error); the others never got past the preflight.
		if got != "simple:opaque json:blocked delete:blocked" {
			t.Errorf("from another site: %s", got)
		}
		if n := apiCount(t, base, "/api/feedback?all=true"); n != 0 {
			t.Errorf("%d feedback rows written from another site", n)
		}
		if after := apiCount(t, base, "/api/documents"); after != before {
			t.Errorf("documents %d → %d", before, after)
		}
	})

	// A page whose name was rebound to the server's address is the same
	// origin to the browser; the server answers no name but its own.
	t.Run("RebindingCannotDelete", func(t *testing.T) {
		b := b.on(t)
		before := apiCount(t, base, "/api/documents")
		b.do(chromedp.Navigate(strings.Replace(base, "127.0.0.1", "rebind.test", 1) + "/"))
		got := b.await(`fetch('/api/document/' + encodeURIComponent('杂记') + '/xss.txt', {method: 'DELETE'}).then(r => String(r.status))`)
		if got != "403" {
			t.Errorf("delete from a rebound name: %s", got)
		}
		if after := apiCount(t, base, "/api/documents"); after != before {
			t.Errorf("documents %d → %d", before, after)
		}
	})

	// The interface itself still writes: it deletes a document.
	t.Run("InterfaceWrites", func(t *testing.T) {
		b := b.on(t)
		before := apiCount(t, base, "/api/documents")
		b.do(chromedp.Navigate(base + "/#/documents"))
		b.wait(`[...document.querySelectorAll('table.docs tr')].some(tr => tr.textContent.includes('杂记/xss.txt'))`)
		b.str(`(window.confirm = () => true, '')`)
		b.click(`table.docs tr:has(a[href*="xss.txt"]) button.danger`)
		b.wait(`document.querySelectorAll('table.docs tr').length > 0 && ![...document.querySelectorAll('table.docs tr')].some(tr => tr.textContent.includes('杂记/xss.txt'))`)
		if after := apiCount(t, base, "/api/documents"); after != before-1 {
			t.Errorf("documents %d → %d after the interface deleted one", before, after)
		}
	})

	mu.Lock()
	defer mu.Unlock()
	for _, n := range notes {
		t.Log(n)
	}
	for _, f := range failures {
		t.Error(f)
	}
	t.Logf("build, index, serve and the browser scenarios took %s", time.Since(began).Round(time.Millisecond))
}

// serveDemo writes the demo workspace with one extra document, starts
// `annals serve` on a free port and returns its base URL.
func serveDemo(t *testing.T) string {
	t.Helper()
	exe := binary(t)
	dir := t.TempDir()
	extra := filepath.Join(dir, "annals-demo", "corpus", "杂记")
	if err := os.MkdirAll(extra, 0o755); err != nil {
		t.Fatal(err)
	}
	// quickstart keeps files it did not write, so this one is indexed too.
	if err := os.WriteFile(filepath.Join(extra, "xss.txt"), []byte(xssText), 0o644); err != nil {
		t.Fatal(err)
	}
	qs := exec.Command(exe, "quickstart")
	qs.Dir, qs.Env = dir, cleanEnv()
	if out, err := qs.CombinedOutput(); err != nil {
		t.Fatalf("quickstart: %v\n%s", err, out)
	}
	return serve(t, exe, filepath.Join(dir, "annals-demo"))
}

// serve starts `annals serve` in dir on a free port and returns its base
// URL; the server is stopped when the test ends.
func serve(t testing.TB, exe, dir string, args ...string) string {
	t.Helper()
	return serveWith(t, exe, dir, nil, args...)
}

// serveWith is serve with more environment variables.
func serveWith(t testing.TB, exe, dir string, env []string, args ...string) string {
	t.Helper()
	srv := exec.Command(exe, append(args, "serve", "--addr", "127.0.0.1:0")...)
	srv.Dir, srv.Env = dir, append(cleanEnv(), env...)
	srv.Stderr = os.Stderr
	stdout, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Process.Kill()
		srv.Wait()
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		re := regexp.MustCompile(`on (http://[^\s(]+)`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- strings.TrimRight(m[1], "/")
				break
			}
			t.Logf("serve: %s", sc.Text())
		}
		for sc.Scan() { // keep the pipe drained
		}
	}()
	select {
	case a := <-addr:
		return a
	case <-time.After(30 * time.Second):
		t.Fatal("annals serve did not say where it listens within 30s")
	}
	return ""
}

// cleanEnv is this process's environment without the settings that would
// point the commands at another workspace or require a token.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ANNALS_WORKSPACE=") && !strings.HasPrefix(kv, "ANNALS_TOKEN=") {
			env = append(env, kv)
		}
	}
	return env
}

func startBrowser(t testing.TB) context.Context {
	t.Helper()
	profile, err := os.MkdirTemp("", "annals-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("lang", "en-US"),
		// A name an attacker rebound to this machine, for the rebinding test.
		chromedp.Flag("host-resolver-rules", "MAP rebind.test 127.0.0.1"),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 900),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
		os.RemoveAll(profile) // after the browser is gone
	})
	// The first Do starts the browser; it must not carry a timeout, which
	// would end the browser with it.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", chromium, err)
	}
	return ctx
}

// page runs the steps of one scenario, each bounded in time.
type page struct {
	t   *testing.T
	ctx context.Context
}

const stepTimeout = 30 * time.Second

func (p *page) on(t *testing.T) *page { return &page{t: t, ctx: p.ctx} }

func (p *page) timed() context.Context {
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	p.t.Cleanup(cancel)
	return ctx
}

func (p *page) do(a chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.timed(), a); err != nil {
		p.t.Fatalf("%v\n%s", err, p.state())
	}
}

func (p *page) str(expr string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.timed(), chromedp.Evaluate[string](expr))
	if err != nil {
		p.t.Fatalf("%s: %v\n%s", expr, err, p.state())
	}
	return s
}

// await evaluates a promise and returns what it resolves to.
func (p *page) await(expr string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.timed(), chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("%s: %v\n%s", expr, err, p.state())
	}
	return s
}

// apiCount is the length of the JSON list an endpoint answers, asked
// directly rather than through the browser.
func apiCount(t *testing.T, base, path string) int {
	t.Helper()
	resp, err := http.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list []json.RawMessage
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%s: %d %v", path, resp.StatusCode, err)
	}
	return len(list)
}

// wait polls a JavaScript condition until it holds.
func (p *page) wait(cond string) {
	p.t.Helper()
	_, err := chromedp.Run(p.timed(), chromedp.Poll[bool](`!!(`+cond+`)`, chromedp.WithPollingTimeout(stepTimeout), chromedp.WithPollingInterval(50*time.Millisecond)))
	if err != nil {
		p.t.Fatalf("waiting for %s: %v\n%s", cond, err, p.state())
	}
}

// viewport sets the page's size in CSS pixels, at 100 % zoom.
func (p *page) viewport(w, h int64) {
	p.t.Helper()
	p.do(chromedp.EmulateViewport(w, h))
}

// screenshot saves the view, with sel in its middle, as NAME.png in $ANNALS_SCREENSHOTS, when set,
// for a person to look at: a test cannot tell a cramped graph or a
// misaligned column from a good one.
func (p *page) screenshot(name, sel string) {
	p.t.Helper()
	dir := os.Getenv("ANNALS_SCREENSHOTS")
	if dir == "" {
		return
	}
	p.str(`(document.activeElement && document.activeElement.blur(), '')`) // closes open suggestions
	if sel != "" {
		p.centre(sel)
	}
	png, err := chromedp.Run(p.timed(), chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// hash routes the page as a link would: the app reads the fragment.
func (p *page) hash(h string) {
	p.t.Helper()
	js, _ := json.Marshal(h)
	p.str(`(location.hash = ` + string(js) + `, '')`)
}

// centre scrolls the first match into the middle of the view, clear of
// the sticky header, and returns the middle of its box.
func (p *page) centre(sel string) (x, y float64) {
	p.t.Helper()
	js, _ := json.Marshal(sel)
	p.wait(`!!document.querySelector(` + string(js) + `)`)
	pt, err := chromedp.Run(p.timed(), chromedp.Evaluate[[]float64](`(() => {
		const e = document.querySelector(`+string(js)+`);
		e.scrollIntoView({block: 'center', inline: 'center'});
		const r = e.getClientRects()[0] || e.getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2];
	})()`))
	if err != nil || len(pt) != 2 {
		p.t.Fatalf("locate %s: %v\n%s", sel, err, p.state())
	}
	return pt[0], pt[1]
}

// click presses and releases the mouse over the first match, as a person
// would, so mousedown handlers run too.
func (p *page) click(sel string) {
	p.t.Helper()
	x, y := p.centre(sel)
	p.do(chromedp.MouseClickXY(x, y))
}

func (p *page) hover(sel string) {
	p.t.Helper()
	x, y := p.centre(sel)
	p.do(chromedp.MouseEvent(chromedp.MouseMoved, x, y))
}

// passageShown checks that the reader opened with the cited span marked,
// and that the span is part of the document shown.
func (p *page) passageShown() {
	p.t.Helper()
	p.wait(`location.hash.startsWith('#/doc/') && !!document.querySelector('[data-testid=reader] [data-testid=passage]')`)
	p.wait(`(() => { const t = document.querySelector('[data-testid=passage]').textContent; return t.length > 0 && document.querySelector('[data-testid=reader]').textContent.includes(t); })()`)
}

// state describes the page for a failure message.
func (p *page) state() string {
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash + '\n' + [...document.querySelectorAll('[data-testid=error]')].map(e => 'error shown: ' + e.textContent).join('\n') + '\n' + (document.querySelector('main')?.innerText || '').slice(0, 600)`))
	if err != nil {
		return "(page state unavailable: " + err.Error() + ")"
	}
	return "page: " + s
}

// BenchmarkEntityPage times an entity page in the browser, from navigation
// until its heading, facts and graph are drawn, on the workspace named by
// ANNALS_BENCH_WORKSPACE (the First Four Histories, made by
// `annals bench --keep`), one most-mentioned person after another.
func BenchmarkEntityPage(b *testing.B) {
	ws := os.Getenv("ANNALS_BENCH_WORKSPACE")
	if ws == "" {
		b.Skip("set ANNALS_BENCH_WORKSPACE to a workspace (annals bench --keep makes one)")
	}
	if _, err := os.Stat(chromium); err != nil {
		b.Skipf("no browser at %s", chromium)
	}
	exe := binary(b)
	out, err := exec.Command(exe, "-w", ws, "--json", "entities", "--type", "人物", "--limit", "200").Output()
	if err != nil {
		b.Fatal(err)
	}
	var people []struct{ Name string }
	if err := json.Unmarshal(out, &people); err != nil || len(people) == 0 {
		b.Fatalf("people: %v", err)
	}
	base := serve(b, exe, b.TempDir(), "-w", ws)
	ctx := startBrowser(b)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/#/")); err != nil {
		b.Fatal(err)
	}
	var worst time.Duration
	b.ResetTimer()
	for i := range b.N {
		name := people[i%len(people)].Name
		// Drawn: the heading names the person, facts are listed and the
		// graph holds nodes.
		ready := fmt.Sprintf(`document.querySelector('[data-testid=entity-name]')?.textContent === %q && document.querySelectorAll('[data-testid=fact]').length > 0 && +(document.querySelector('[data-testid=graph]')?.dataset.nodes || 0) > 0`, name)
		start := time.Now()
		tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		_, err := chromedp.Run(tctx, chromedp.Evaluate[string](fmt.Sprintf(`(location.hash = %q, '')`, "#/entity/"+name)))
		if err == nil {
			_, err = chromedp.Run(tctx, chromedp.Poll[bool](`!!(`+ready+`)`, chromedp.WithPollingTimeout(30*time.Second), chromedp.WithPollingInterval(5*time.Millisecond)))
		}
		cancel()
		if err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		worst = max(worst, time.Since(start))
	}
	b.ReportMetric(float64(worst.Milliseconds()), "worst-ms")
}
