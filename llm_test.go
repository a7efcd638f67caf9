package annals_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/config"
	"github.com/annals-project/annals/internal/demo"
	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/llm/llmtest"
	"github.com/annals-project/annals/internal/schema"
)

var (
	people    = []string{"刘备", "刘禅", "诸葛亮", "诸葛瞻", "关羽", "关平"}
	numbered  = regexp.MustCompile(`^(\d+)\. .*`)
	childOf   = regexp.MustCompile(`(刘备|诸葛亮|关羽)子(刘禅|诸葛瞻|关平)`)
	regexPlea = "You write regular expressions"
)

// fakeModel answers extraction and judging requests the way a careful
// model would on texts of the form "A子B。": entities, a 子女 triple, and a
// judge that approves triples whose child is named in the text and finds
// "unsupported" any other.
func fakeModel(req llmtest.ChatRequest) llmtest.Reply {
	sys, user := req.Messages[0].Content, req.Messages[len(req.Messages)-1].Content
	usage := &llm.Usage{PromptTokens: llm.EstimateMessages(req.Messages), CompletionTokens: 60}
	if strings.HasPrefix(sys, regexPlea) {
		return llmtest.Reply{Content: `{"regex":"(?P<h>刘备|诸葛亮|关羽)子(?P<t>刘禅|诸葛瞻|关平)","groups":{"h":"人物","t":"人物"},"relations":[{"head":"h","relation":"子女","tail":"t"}]}`, Usage: usage}
	}
	if strings.HasPrefix(sys, "You grade") {
		var verdicts []string
		for _, line := range strings.Split(user, "\n") {
			if m := numbered.FindStringSubmatch(line); m != nil {
				v := "ok"
				if strings.Contains(line, "关平") {
					v = "unsupported"
				}
				verdicts = append(verdicts, fmt.Sprintf(`{"i":%s,"verdict":"%s","why":""}`, m[1], v))
			}
		}
		return llmtest.Reply{Content: `{"scores":[2,2,2,2,2],"triples":[` + strings.Join(verdicts, ",") + `]}`, Usage: usage}
	}
	text := user[strings.LastIndex(user, "：")+len("："):]
	var ents, triples []string
	for _, p := range people {
		if strings.Contains(text, p) {
			ents = append(ents, fmt.Sprintf(`{"text":%q,"type":"人物"}`, p))
		}
	}
	for _, m := range childOf.FindAllStringSubmatch(text, -1) {
		triples = append(triples, fmt.Sprintf(`{"head":%q,"relation":"子女","tail":%q}`, m[1], m[2]))
	}
	return llmtest.Reply{Content: `{"translation":"","entities":[` + strings.Join(ents, ",") + `],"analysis":"","framework":[["人物","子女","人物"]],"triples":[` + strings.Join(triples, ",") + `]}`, Usage: usage}
}

func llmWorkspace(t testing.TB, srv *llmtest.Server) (*annals.Workspace, string) {
	t.Helper()
	t.Setenv("ANNALS_LLM_BASE_URL", srv.URL)
	t.Setenv("ANNALS_LLM_MODEL", "fake-model")
	t.Setenv("ANNALS_LLM_CONCURRENCY", "16")
	dir := t.TempDir()
	ws, err := annals.Open(context.Background(), filepath.Join(dir, ".annals"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	corpus := filepath.Join(dir, "corpus")
	os.MkdirAll(corpus, 0o755)
	return ws, corpus
}

func TestIndexWithLLMScoresAndCaches(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t)
	srv.Handle(fakeModel)
	ws, corpus := llmWorkspace(t, srv)
	os.WriteFile(filepath.Join(corpus, "a.txt"), []byte("刘备子刘禅。"), 0o644)
	os.WriteFile(filepath.Join(corpus, "b.txt"), []byte("诸葛亮子诸葛瞻。关羽子关平。"), 0o644)

	rep, err := ws.Index(ctx, []string{corpus}, annals.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Added != 2 || srv.Calls() != 4 {
		t.Fatalf("want 2 documents, 2 extraction and 2 judge calls: %+v, %d calls", rep, srv.Calls())
	}
	steps := map[string]bool{}
	for _, u := range rep.Usage {
		steps[u.Step] = u.PromptTokens > 0
	}
	if !steps["extract"] || !steps["score"] {
		t.Fatalf("usage per step: %+v", rep.Usage)
	}
	v, err := ws.Entity(ctx, "诸葛亮", annals.EntityOptions{})
	if err != nil || len(v.Relations) != 1 || v.Relations[0].Tail != "诸葛瞻" || v.Relations[0].Score == nil || *v.Relations[0].Score < 8 {
		t.Fatalf("诸葛亮 子女 诸葛瞻 should be in the graph with its score: %+v %v", v, err)
	}
	if v.Relations[0].Extractor != "llm" || v.Relations[0].Evidence[0].Sentence != "诸葛亮子诸葛瞻。" {
		t.Fatalf("provenance: %+v", v.Relations[0])
	}
	if v, _ := ws.Entity(ctx, "关羽", annals.EntityOptions{}); v == nil || len(v.Relations) != 0 {
		t.Fatalf("a triple scored under the threshold must stay out of the graph: %+v", v)
	}
	hist, aside, err := ws.ScoreHistogram(ctx)
	if err != nil || aside != 1 || hist[10] != 2 {
		t.Fatalf("histogram %v, kept aside %d: %v", hist, aside, err)
	}
	usage, _ := ws.Usage(ctx)
	if len(usage) != 2 {
		t.Fatalf("usage stored per step: %+v", usage)
	}

	// Removing and re-indexing a document is answered from the cache.
	if _, err := ws.Remove(ctx, "b.txt", nil); err != nil {
		t.Fatal(err)
	}
	calls := srv.Calls()
	if _, err := ws.Index(ctx, []string{corpus}, annals.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	if srv.Calls() != calls {
		t.Fatalf("re-indexing the same text made %d calls", srv.Calls()-calls)
	}
}

func TestLLMBudgetStopsCleanly(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t)
	srv.Handle(fakeModel)
	ws, corpus := llmWorkspace(t, srv)
	// One call at a time, so that which documents finish before the
	// budget runs out does not depend on scheduling.
	ws.Config.LLM.Concurrency = 1
	for i := 0; i < 6; i++ {
		os.WriteFile(filepath.Join(corpus, fmt.Sprintf("d%d.txt", i)), []byte(strings.Repeat("刘备子刘禅。", i+1)), 0o644)
	}
	rep, err := ws.Index(ctx, []string{corpus}, annals.IndexOptions{MaxTokens: 6000, Extractor: "llm"})
	if err != nil {
		t.Fatalf("a budget stop is no failure: %v", err)
	}
	if rep.Stopped == "" || rep.Added == 0 || rep.Added == 6 {
		t.Fatalf("want a stop part-way with finished documents kept: %+v", rep)
	}
	var billed int
	for _, u := range rep.Usage {
		billed += u.PromptTokens + u.CompletionTokens
	}
	if billed > 6000 {
		t.Fatalf("the run billed %d tokens over a budget of 6000", billed)
	}
	st, _ := ws.Stats(ctx)
	if st.Documents != rep.Added {
		t.Fatalf("stored %d documents, reported %d", st.Documents, rep.Added)
	}
	rep, err = ws.Index(ctx, []string{corpus}, annals.IndexOptions{Extractor: "llm"})
	if err != nil || rep.Stopped != "" || st.Documents+rep.Added != 6 {
		t.Fatalf("the next run finishes the rest: %+v %v", rep, err)
	}
}

func TestLLMEndpointDownKeepsFinishedWork(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t)
	srv.Handle(fakeModel)
	ws, corpus := llmWorkspace(t, srv)
	os.WriteFile(filepath.Join(corpus, "a.txt"), []byte("刘备子刘禅。"), 0o644)
	if _, err := ws.Index(ctx, []string{corpus}, annals.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(corpus, "b.txt"), []byte("关羽子关平。"), 0o644)
	srv.Down()
	rep, err := ws.Index(ctx, []string{corpus}, annals.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Skipped) != 0 || len(rep.Failed) != 1 || rep.Failed[0].Key != "b.txt" || rep.Failed[0].Step != "extract" ||
		!strings.Contains(rep.Failed[0].Reason, "connection refused") {
		t.Fatalf("the unreachable endpoint should fail b.txt with a message: %+v", rep)
	}
	if st, _ := ws.Stats(ctx); st.Documents != 1 || st.Relations != 1 {
		t.Fatalf("finished work must survive: %+v", st)
	}
}

// BenchmarkLLMIndex indexes 1,000 chunks against a fake endpoint that
// answers each call in 200 ms, with 16 calls in flight, and reports the
// wall time against the ideal (calls × latency ÷ concurrency); then indexes
// the same text into a second workspace sharing nothing but the server, and
// a third time after removal, which the cache answers with no calls.
func BenchmarkLLMIndex(b *testing.B) {
	const latency = 200 * time.Millisecond
	for i := 0; i < b.N; i++ {
		srv := llmtest.New(b, llmtest.WithLatency(latency))
		srv.Handle(fakeModel)
		ws, corpus := llmWorkspace(b, srv)
		for d := 0; d < 100; d++ {
			var body strings.Builder
			for c := 0; c < 10; c++ {
				// one chunk each: a paragraph of ~400 characters
				body.WriteString(strings.Repeat(fmt.Sprintf("刘备子刘禅。%03d%d", d, c), 40) + "\n\n")
			}
			os.WriteFile(filepath.Join(corpus, fmt.Sprintf("d%03d.txt", d)), []byte(body.String()), 0o644)
		}
		ws.Config.Chunk.MaxChars = 600
		ws.Config.Chunk.Overlap = 0
		t0 := time.Now()
		rep, err := ws.Index(context.Background(), []string{corpus}, annals.IndexOptions{Extractor: "llm"})
		if err != nil {
			b.Fatal(err)
		}
		wall := time.Since(t0)
		st, _ := ws.Stats(context.Background())
		calls := srv.Calls()
		ideal := time.Duration(calls) * latency / 16
		b.ReportMetric(float64(st.Chunks), "chunks")
		b.ReportMetric(float64(calls), "calls")
		b.ReportMetric(wall.Seconds(), "wall_s")
		b.ReportMetric(float64(wall)/float64(ideal), "x_ideal")
		// The extraction phase alone (reading, calls, writes and alignment),
		// without the embedding step that follows it.
		b.ReportMetric(rep.Elapsed.Seconds(), "extract_phase_s")
		b.ReportMetric(float64(rep.Elapsed)/float64(ideal), "extract_phase_x_ideal")
		var prompt, completion int
		for _, u := range rep.Usage {
			prompt += u.PromptTokens
			completion += u.CompletionTokens
		}
		b.ReportMetric(float64(prompt)*1000/float64(rep.Characters), "prompt_tok/kchar")
		b.ReportMetric(float64(completion)*1000/float64(rep.Characters), "completion_tok/kchar")
		for _, d := range []string{"d000.txt", "d001.txt"} {
			ws.Remove(context.Background(), d, nil)
		}
		before := srv.Calls()
		if _, err := ws.Index(context.Background(), []string{corpus}, annals.IndexOptions{Extractor: "llm"}); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(srv.Calls()-before), "second_run_calls")
	}
}

// BenchmarkLLMTokens reports, for each extractor that calls a model, the
// prompt and completion tokens per 1,000 input characters over the demo
// corpus's classical-Chinese biographies (the fake server counts tokens as
// the offline tokenizer does; its replies are short, so completion figures
// are a floor).
func BenchmarkLLMTokens(b *testing.B) {
	for _, name := range []string{"llm", "llm-nojudge", "ekg", "regex"} {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				srv := llmtest.New(b)
				srv.Handle(fakeModel)
				ws, corpus := llmWorkspace(b, srv)
				ws.Config.Extract.Judge = name != "llm-nojudge"
				if _, _, err := demo.WriteTo(filepath.Dir(corpus)); err != nil {
					b.Fatal(err)
				}
				ex := strings.TrimSuffix(name, "-nojudge")
				rep, err := ws.Index(context.Background(), []string{filepath.Join(corpus, "三国人物")}, annals.IndexOptions{Extractor: ex})
				if err != nil {
					b.Fatal(err)
				}
				var prompt, completion int
				for _, u := range rep.Usage {
					prompt += u.PromptTokens
					completion += u.CompletionTokens
				}
				b.ReportMetric(float64(srv.Calls()), "calls")
				b.ReportMetric(float64(prompt)*1000/float64(rep.Characters), "prompt_tok/kchar")
				b.ReportMetric(float64(completion)*1000/float64(rep.Characters), "completion_tok/kchar")
			}
		})
	}
}

func TestSchemaGrowsFromConfidentProposals(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t)
	srv.Handle(func(req llmtest.ChatRequest) llmtest.Reply {
		r := fakeModel(req)
		if strings.HasPrefix(req.Messages[0].Content, "You grade") {
			return r
		}
		conf := "0.9"
		if strings.Contains(req.Messages[len(req.Messages)-1].Content, "关羽") {
			conf = "0.3" // one unsure proposal does not count
		}
		r.Content = strings.TrimSuffix(r.Content, "}") + `,"new_types":[{"kind":"relation","name":"师从","domain":["人物"],"range":["人物"],"confidence":` + conf + `,"evidence":"从学"}]}`
		return r
	})
	ws, corpus := llmWorkspace(t, srv)
	ws.Config.Extract.Growth.Enabled = true
	for i, text := range []string{"刘备子刘禅。", "诸葛亮子诸葛瞻。", "关羽子关平。"} {
		os.WriteFile(filepath.Join(corpus, fmt.Sprintf("%d.txt", i)), []byte(text), 0o644)
	}
	if _, err := ws.Index(ctx, []string{corpus}, annals.IndexOptions{Extractor: "llm"}); err != nil {
		t.Fatal(err)
	}
	g, err := ws.Growth(ctx)
	if err != nil || len(g.Accepted) != 0 || len(g.Pending) != 1 || g.Pending[0].Support != 2 {
		t.Fatalf("two confident chunks are not enough: %+v %v", g, err)
	}
	os.WriteFile(filepath.Join(corpus, "3.txt"), []byte("刘备子刘永。"), 0o644)
	if _, err := ws.Index(ctx, []string{corpus}, annals.IndexOptions{Extractor: "llm"}); err != nil {
		t.Fatal(err)
	}
	g, _ = ws.Growth(ctx)
	if len(g.Accepted) != 1 || g.Accepted[0].Name != "师从" {
		t.Fatalf("the third confident chunk, in a later run, makes 师从 join: %+v", g)
	}
	s, _ := ws.ActiveSchema(ctx, "lzh")
	if s.Relation("师从") == nil || !s.Allows("人物", "师从", "人物") {
		t.Fatal("the grown relation should be part of the active schema")
	}
}

// With an endpoint, the biography is the model's, each sentence checked by
// the model against its sources; offline, it is the writer's, with no call.
func TestBioWithLLMWritesAndChecks(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t)
	var written string
	srv.Handle(func(r llmtest.ChatRequest) llmtest.Reply {
		switch system := r.Messages[0].Content; {
		case strings.Contains(system, "You write a short biography"):
			written = r.Messages[len(r.Messages)-1].Content
			return llmtest.Reply{Content: `{"sentences":[{"text":"诸葛亮，字孔明，琅邪阳都人。","sources":[1]}]}`}
		case strings.Contains(system, "You check one sentence"):
			return llmtest.Reply{Content: `{"facts":[{"fact":"字孔明","verdict":"supported","source":1},{"fact":"琅邪阳都人","verdict":"supported","source":1}]}`}
		}
		return llmtest.Reply{Content: "{}"}
	})
	ws, corpus := llmWorkspace(t, srv)
	os.MkdirAll(filepath.Join(corpus, "诸葛亮传"), 0o755)
	os.WriteFile(filepath.Join(corpus, "诸葛亮传", "text.txt"), []byte("诸葛亮字孔明，琅邪阳都人也。父珪。建兴十二年，亮卒于五丈原，时年五十四。"), 0o644)
	// A passage of his father's that names him: a neighbour's chunk.
	os.MkdirAll(filepath.Join(corpus, "诸葛珪传"), 0o755)
	os.WriteFile(filepath.Join(corpus, "诸葛珪传", "text.txt"), []byte("诸葛珪字君贡，为泰山郡丞。诸葛珪尝言诸葛亮好学。"), 0o644)
	if _, err := ws.Index(ctx, []string{corpus}, annals.IndexOptions{Extractor: "pattern"}); err != nil {
		t.Fatal(err)
	}
	calls := srv.Calls()
	b, err := ws.Bio(ctx, "诸葛亮", annals.BioOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Biography) != 1 || !b.Biography[0].Verified || len(b.Biography[0].Citations) != 1 || len(b.Biography[0].Checks) != 2 {
		t.Fatalf("biography: %+v", b.Biography)
	}
	if !strings.Contains(written, "诸葛珪尝言诸葛亮好学") {
		t.Errorf("the father's passage that names him is not among the sources:\n%s", written)
	}
	if b.Usage.Calls != srv.Calls()-calls || b.Usage.Calls != 2 {
		t.Errorf("usage %+v, %d calls", b.Usage, srv.Calls()-calls)
	}
	calls = srv.Calls()
	off, err := ws.Bio(ctx, "诸葛亮", annals.BioOptions{Offline: true})
	if err != nil || srv.Calls() != calls || len(off.Biography) == 0 || off.Usage.Calls != 0 {
		t.Fatalf("offline: %+v %v, %d calls", off, err, srv.Calls()-calls)
	}
}

// Any extractor can be built by name for scoring, the LLM ones calling the
// configured endpoint.
func TestNamedExtractor(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t)
	srv.Handle(fakeModel)
	t.Setenv("ANNALS_LLM_BASE_URL", srv.URL)
	t.Setenv("ANNALS_LLM_MODEL", "fake-model")
	conf, err := config.Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"pattern", "llm", "ekg", "regex"} {
		ex, err := annals.NamedExtractor(ctx, conf, name, "", nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		calls := srv.Calls()
		res, err := ex.Extract(ctx, extract.Input{Text: "诸葛亮子诸葛瞻。", Lang: "lzh", Schema: schema.MustLoad(schema.ZhHistory)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if name != "ekg" && !hasTriple(res, "诸葛亮", "子女", "诸葛瞻") {
			t.Errorf("%s found %+v", name, res.Triples)
		}
		// The offline extractor never calls; llm and regex must (ekg may,
		// to type its entities).
		if called := srv.Calls() > calls; name == "pattern" && called || (name == "llm" || name == "regex") && !called {
			t.Errorf("%s called the LLM: %v", name, called)
		}
		if name == "ekg" && len(res.Entities) < 2 {
			t.Errorf("ekg found the entities %+v", res.Entities)
		}
	}
	if _, err := annals.NamedExtractor(ctx, conf, "nonsense", "", nil); err == nil {
		t.Fatal("an unknown extractor is an error")
	}
}

func hasTriple(res extract.Result, head, rel, tail string) bool {
	for _, tr := range res.Triples {
		if tr.Head.Text == head && tr.Relation == rel && tr.Tail.Text == tail {
			return true
		}
	}
	return false
}

// With extract.rag, the LLM reads each chunk with the facts the graph
// already holds about the entities it names; without, it does not.
func TestRAGAugmentedExtraction(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t)
	var mu sync.Mutex
	var users []string
	srv.Handle(func(req llmtest.ChatRequest) llmtest.Reply {
		if !strings.HasPrefix(req.Messages[0].Content, "You grade") {
			mu.Lock()
			users = append(users, req.Messages[len(req.Messages)-1].Content)
			mu.Unlock()
		}
		return fakeModel(req)
	})
	ws, corpus := llmWorkspace(t, srv)
	ws.Config.Extract.RAG = true
	os.WriteFile(filepath.Join(corpus, "a.txt"), []byte("诸葛亮子诸葛瞻。"), 0o644)
	if _, err := ws.Index(ctx, []string{corpus}, annals.IndexOptions{Extractor: "llm"}); err != nil {
		t.Fatal(err)
	}
	if len(users) != 1 || strings.Contains(users[0], "图谱已有事实") {
		t.Fatalf("an empty graph has no facts to give: %q", users)
	}
	os.WriteFile(filepath.Join(corpus, "b.txt"), []byte("刘备子刘禅，诸葛亮辅之。"), 0o644)
	if _, err := ws.Index(ctx, []string{corpus}, annals.IndexOptions{Extractor: "llm"}); err != nil {
		t.Fatal(err)
	}
	last := users[len(users)-1]
	if !strings.Contains(last, "图谱已有事实") || !strings.Contains(last, "诸葛亮 子女 诸葛瞻") || !strings.Contains(last, "原文：刘备子刘禅") {
		t.Fatalf("the second chunk's prompt lacks the known facts of 诸葛亮:\n%s", last)
	}
	if v, err := ws.Entity(ctx, "刘备", annals.EntityOptions{}); err != nil || len(v.Relations) == 0 || v.Relations[0].Tail != "刘禅" {
		t.Fatalf("the known facts are context, and the chunk's own fact is still read: %+v %v", v, err)
	}
}
