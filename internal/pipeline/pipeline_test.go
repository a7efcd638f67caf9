package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/annals-project/annals/internal/corpus"
	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/resolve"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/store/sqlstore"
	"github.com/annals-project/annals/internal/store/sqlstore/sqltest"
)

// fakeExtractor finds a fixed list of names and reads "A子B" as A 子女 B,
// so that the pipeline can be tested apart from the real rules.
type fakeExtractor struct {
	names   []string
	version string
	calls   atomic.Int64 // Extract runs on the pipeline's workers at once
}

func (f *fakeExtractor) Name() string    { return "fake" }
func (f *fakeExtractor) Version() string { return f.version }

func (f *fakeExtractor) Extract(_ context.Context, in extract.Input) (extract.Result, error) {
	f.calls.Add(1)
	return f.extract(in)
}

func (f *fakeExtractor) extract(in extract.Input) (extract.Result, error) {
	rs := []rune(in.Text)
	var res extract.Result
	at := map[int]extract.Entity{}
	for i := range rs {
		for _, n := range f.names {
			nr := []rune(n)
			if i+len(nr) <= len(rs) && string(rs[i:i+len(nr)]) == n {
				e := extract.Entity{Text: n, Type: "人物", Span: kg.Span{Start: i, End: i + len(nr)}}
				res.Entities = append(res.Entities, e)
				at[i] = e
			}
		}
	}
	for _, h := range res.Entities {
		if h.End < len(rs) && rs[h.End] == '子' {
			if t, ok := at[h.End+1]; ok {
				res.Triples = append(res.Triples, extract.Triple{Head: h, Relation: "子女", Tail: t, Evidence: kg.Span{Start: 0, End: len(rs)}})
			}
		}
	}
	return res, nil
}

// eachEngine runs fn as a subtest on each engine the store runs on: what
// indexing writes, it writes alike into SQLite and PostgreSQL.
func eachEngine(t *testing.T, fn func(t *testing.T, engine string)) {
	for _, e := range []string{"sqlite", "postgres"} {
		t.Run(e, func(t *testing.T) { fn(t, e) })
	}
}

// openStore opens an empty store of the engine (PostgreSQL's test
// database skips the test where there is no server).
func openStore(t *testing.T, engine string) *sqlstore.DB {
	t.Helper()
	ctx := context.Background()
	var db *sqlstore.DB
	var err error
	if engine == "postgres" {
		db, err = sqlstore.OpenPostgres(ctx, sqltest.PostgresURL(t))
	} else {
		db, err = sqlstore.Open(ctx, filepath.Join(t.TempDir(), "annals.db"))
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func setup(t *testing.T, engine string) (context.Context, *sqlstore.DB, string, *fakeExtractor, Options) {
	t.Helper()
	ctx := context.Background()
	db := openStore(t, engine)
	root := t.TempDir()
	ex := &fakeExtractor{names: []string{"刘备", "刘禅", "诸葛亮", "诸葛瞻"}, version: "1"}
	opts := Options{T2S: true, Extractor: ex, Workers: 2, Chunk: corpus.ChunkOptions{MaxChars: 60, Overlap: 20}}
	return ctx, db, root, ex, opts
}

// indexWith runs the standard steps: the document steps, then alignment.
func indexWith(ctx context.Context, db *sqlstore.DB, paths []string, opts Options) (*Report, error) {
	steps, err := Standard(opts, db)
	if err != nil {
		return nil, err
	}
	opts.Steps = steps
	return Index(ctx, db, paths, opts)
}

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, rel)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func relationsOf(t *testing.T, db *sqlstore.DB, name string) []kg.Relation {
	t.Helper()
	ents, err := db.FindEntities(context.Background(), name)
	if err != nil || len(ents) == 0 {
		return nil
	}
	rels, err := db.Relations(context.Background(), ents[0].ID, 100)
	if err != nil {
		t.Fatal(err)
	}
	return rels
}

func TestIndexIsIncrementalAndRemovesExactly(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		ctx, db, root, ex, opts := setup(t, engine)
		write(t, root, "蜀书/先主传/text.txt", "刘备子刘禅。")
		write(t, root, "蜀书/后主传/text.txt", "刘备子刘禅，立为太子。")
		write(t, root, "蜀书/诸葛亮传/text.txt", "諸葛亮子诸葛瞻。") // traditional first name
		write(t, root, "broken.txt", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00")

		rep, err := indexWith(ctx, db, []string{root}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Added != 3 || len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0], "broken.txt") {
			t.Fatalf("first run: %+v", rep)
		}
		rels := relationsOf(t, db, "刘备")
		if len(rels) != 1 || rels[0].Tail != "刘禅" || len(rels[0].Evidence) != 2 {
			t.Fatalf("刘备 子女 刘禅 should have two evidence sentences: %+v", rels)
		}
		if ev := rels[0].Evidence[0]; ev.Cite != "《蜀书·先主传》" && ev.Cite != "《蜀书·后主传》" {
			t.Fatalf("citation = %q", ev.Cite)
		}
		zrels := relationsOf(t, db, "诸葛亮")
		if len(zrels) != 1 || zrels[0].Evidence[0].Sentence != "諸葛亮子诸葛瞻。" {
			t.Fatalf("evidence must quote the original characters: %+v", zrels)
		}

		// Unchanged corpus: nothing is extracted again.
		calls := ex.calls.Load()
		rep, err = indexWith(ctx, db, []string{root}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Unchanged != 3 || ex.calls.Load() != calls || rep.Aligned {
			t.Fatalf("re-index of unchanged corpus did work: %+v, calls %d→%d", rep, calls, ex.calls.Load())
		}

		// A changed file replaces its facts.
		write(t, root, "蜀书/诸葛亮传/text.txt", "诸葛亮卒。")
		rep, err = indexWith(ctx, db, []string{root}, opts)
		if err != nil || rep.Changed != 1 {
			t.Fatalf("changed file: %+v %v", rep, err)
		}
		if rels := relationsOf(t, db, "诸葛亮"); len(rels) != 0 {
			t.Fatalf("old facts of a changed file survived: %+v", rels)
		}
		if ents, _ := db.FindEntities(ctx, "诸葛瞻"); len(ents) != 0 {
			t.Fatalf("an entity only the old text named survived: %+v", ents)
		}

		// rm deletes exactly the facts only that document supported.
		d, err := db.Document(ctx, "蜀书/先主传")
		if err != nil {
			t.Fatal(err)
		}
		if err := db.RemoveDocument(ctx, d.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := resolve.Align(ctx, db, false); err != nil {
			t.Fatal(err)
		}
		rels = relationsOf(t, db, "刘备")
		if len(rels) != 1 || len(rels[0].Evidence) != 1 || rels[0].Evidence[0].DocKey != "蜀书/后主传/text.txt" {
			t.Fatalf("after rm the relation must keep only the other document's evidence: %+v", rels)
		}
		d, _ = db.Document(ctx, "蜀书/后主传")
		db.RemoveDocument(ctx, d.ID)
		resolve.Align(ctx, db, false)
		if rels := relationsOf(t, db, "刘备"); len(rels) != 0 {
			t.Fatalf("relation supported by no document survived: %+v", rels)
		}
	})
}

func TestOverlappingChunksStoreAFactOnce(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		ctx, db, root, _, opts := setup(t, engine)
		var b strings.Builder
		for i := 0; i < 12; i++ {
			b.WriteString("刘备子刘禅。")
		}
		write(t, root, "a.txt", b.String())
		if _, err := indexWith(ctx, db, []string{root}, opts); err != nil {
			t.Fatal(err)
		}
		chunks, _ := db.Chunks(ctx, 1)
		if len(chunks) < 2 || chunks[1].Overlap == 0 {
			t.Fatalf("want overlapping chunks, got %+v", chunks)
		}
		st, _ := db.Stats(ctx)
		if st.Evidence != 12 || st.Mentions != 24 {
			t.Fatalf("each of the 12 sentences should be stored once: %d evidence, %d mentions", st.Evidence, st.Mentions)
		}
	})
}

func TestNewExtractorVersionReextractsWithoutRechunking(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		ctx, db, root, ex, opts := setup(t, engine)
		write(t, root, "a.txt", "刘备子刘禅。")
		if _, err := indexWith(ctx, db, []string{root}, opts); err != nil {
			t.Fatal(err)
		}
		before, _ := db.Chunks(ctx, 1)
		ex.version = "2"
		rep, err := indexWith(ctx, db, []string{root}, opts)
		if err != nil || rep.Updated != 1 {
			t.Fatalf("new extractor version should update the document: %+v %v", rep, err)
		}
		after, _ := db.Chunks(ctx, 1)
		if len(before) != len(after) || before[0].ID != after[0].ID {
			t.Fatal("chunks were rewritten although only extraction changed")
		}
		states, _ := db.DocStates(ctx)
		if v := states["a.txt"].Steps[StepExtract]; !strings.Contains(v, "fake@2") {
			t.Fatalf("extract step version not recorded: %q", v)
		}
	})
}

func TestChunkPatternsRechunk(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		ctx, db, root, _, opts := setup(t, engine)
		opts.Chunk = corpus.ChunkOptions{MaxChars: 200, Overlap: 20}
		write(t, root, "a.txt", "诸葛亮字孔明，琅邪阳都人也。躬耕陇亩。\n诸葛瞻字思远，亮之子，琅邪阳都人也。\n刘禅字公嗣，涿郡涿县人也。刘备子。\n")
		if _, err := indexWith(ctx, db, []string{root}, opts); err != nil {
			t.Fatal(err)
		}
		sections := func() []string {
			chunks, err := db.Chunks(ctx, 1)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, c := range chunks {
				out = append(out, c.Section)
			}
			return out
		}
		if got := sections(); len(got) != 1 || got[0] != "" {
			t.Fatalf("without patterns: sections %q", got)
		}
		opts.Chunk.Patterns = true
		rep, err := indexWith(ctx, db, []string{root}, opts)
		if err != nil || rep.Updated != 1 {
			t.Fatalf("turning patterns on should chunk the document again: %+v %v", rep, err)
		}
		if got, want := sections(), []string{"诸葛亮", "诸葛瞻", "刘禅"}; !slices.Equal(got, want) {
			t.Fatalf("with patterns: sections %q, want %q", got, want)
		}
		states, _ := db.DocStates(ctx)
		if v := states["a.txt"].Steps[StepChunk]; !strings.HasSuffix(v, "+"+corpus.PatternsVersion) {
			t.Fatalf("chunk step version %q", v)
		}
		if rep, err := indexWith(ctx, db, []string{root}, opts); err != nil || rep.Updated != 0 {
			t.Fatalf("a second run should change nothing: %+v %v", rep, err)
		}
	})
}

// TestRechunkKeepsSentences: chunking again a document whose text did not
// change writes its facts with their sentences, in the original characters
// as well as normalised.
func TestRechunkKeepsSentences(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		ctx, db, root, _, opts := setup(t, engine)
		write(t, root, "a.txt", "劉備子劉禪。諸葛亮，字孔明。\n")
		sentences := func() []string {
			ents, err := db.FindEntities(ctx, "刘备")
			if err != nil || len(ents) == 0 {
				t.Fatalf("刘备: %v %v", ents, err)
			}
			rels, err := db.Relations(ctx, ents[0].ID, 100)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, r := range rels {
				for _, e := range r.Evidence {
					out = append(out, e.Sentence+"|"+e.Norm)
				}
			}
			if len(out) == 0 {
				t.Fatal("no evidence")
			}
			return out
		}
		if _, err := indexWith(ctx, db, []string{root}, opts); err != nil {
			t.Fatal(err)
		}
		before := sentences()
		if !strings.HasPrefix(before[0], "劉備子劉禪。") || !strings.Contains(before[0], "|刘备子刘禅。") {
			t.Fatalf("evidence %q", before)
		}
		opts.Chunk.MaxChars = 50
		rep, err := indexWith(ctx, db, []string{root}, opts)
		if err != nil || rep.Updated != 1 {
			t.Fatalf("new chunk options should update the document: %+v %v", rep, err)
		}
		if after := sentences(); !slices.Equal(before, after) {
			t.Fatalf("evidence after chunking again %q, before %q", after, before)
		}
	})
}

func TestDictionaryAliasesMergeEntities(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		ctx, db, root, ex, opts := setup(t, engine)
		ex.names = append(ex.names, "玄德")
		write(t, root, "a.txt", "玄德子刘禅。刘备子刘禅。")
		if _, err := indexWith(ctx, db, []string{root}, opts); err != nil {
			t.Fatal(err)
		}
		if ents, _ := db.FindEntities(ctx, "玄德"); len(ents) != 1 || ents[0].Name != "玄德" {
			t.Fatalf("before the dictionary 玄德 is its own entity: %+v", ents)
		}
		if _, err := db.AddDictionaryAliases(ctx, "d.txt", []store.AliasFact{{Main: "刘备", Alias: "玄德", Kind: "dictionary", Source: "dictionary:d.txt:1"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := resolve.Align(ctx, db, false); err != nil {
			t.Fatal(err)
		}
		ents, _ := db.FindEntities(ctx, "玄德")
		if len(ents) != 1 || ents[0].Name != "刘备" || ents[0].Mentions != 2 {
			t.Fatalf("玄德 should now be 刘备 with both mentions: %+v", ents)
		}
		rels := relationsOf(t, db, "刘备")
		if len(rels) != 1 || len(rels[0].Evidence) != 2 {
			t.Fatalf("the two sentences should support one relation: %+v", rels)
		}
	})
}

func TestExtractTextOffsetsPointIntoOriginal(t *testing.T) {
	ex := &fakeExtractor{names: []string{"诸葛亮", "诸葛瞻"}, version: "1"}
	in := "  諸葛亮子诸葛瞻。"
	res, _, err := ExtractText(context.Background(), in, ExtractOptions{T2S: true, Extractor: ex})
	if err != nil {
		t.Fatal(err)
	}
	rs := []rune(in)
	if len(res.Entities) != 2 || len(res.Triples) != 1 {
		t.Fatalf("got %+v", res)
	}
	for _, e := range res.Entities {
		if string(rs[e.Start:e.End]) != e.Text {
			t.Fatalf("entity %q at [%d,%d) does not match the input", e.Text, e.Start, e.End)
		}
	}
	if res.Entities[0].Text != "諸葛亮" || res.Entities[0].Canonical() != "诸葛亮" {
		t.Fatalf("surface should be original, name simplified: %+v", res.Entities[0])
	}
}

// budgetExtractor extracts like fakeExtractor until its budget of calls is
// spent, then answers as an LLM client out of tokens does.
type budgetExtractor struct {
	fakeExtractor
	mu    sync.Mutex
	left  int
	inUse int
	most  int
}

func (b *budgetExtractor) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	b.mu.Lock()
	if b.left <= 0 {
		b.mu.Unlock()
		return extract.Result{}, fmt.Errorf("extract: %w", llm.ErrBudget)
	}
	b.left--
	b.inUse++
	if b.inUse > b.most {
		b.most = b.inUse
	}
	b.mu.Unlock()
	time.Sleep(2 * time.Millisecond) // let calls overlap
	res, err := b.fakeExtractor.extract(in)
	b.mu.Lock()
	b.inUse--
	b.mu.Unlock()
	return res, err
}

func TestBudgetStopKeepsFinishedDocuments(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		ctx, db, root, _, opts := setup(t, engine)
		for i := 0; i < 10; i++ {
			write(t, root, fmt.Sprintf("d%02d.txt", i), "刘备子刘禅。")
		}
		ex := &budgetExtractor{fakeExtractor: fakeExtractor{names: []string{"刘备", "刘禅"}, version: "1"}, left: 4}
		opts.Extractor, opts.Workers, opts.BatchDocs = ex, 1, 2
		rep, err := indexWith(ctx, db, []string{root}, opts)
		if err != nil {
			t.Fatalf("a budget stop is not a failure: %v", err)
		}
		if rep.Stopped == "" || rep.Added != 4 || len(rep.Skipped) != 0 {
			t.Fatalf("want a clean stop after 4 documents: %+v", rep)
		}
		st, _ := db.Stats(ctx)
		if st.Documents != 4 || st.Relations != 1 {
			t.Fatalf("finished documents must be kept and aligned: %+v", st)
		}
		ex.left = 100
		rep, err = indexWith(ctx, db, []string{root}, opts)
		if err != nil || rep.Added != 6 || rep.Unchanged != 4 {
			t.Fatalf("the next run goes on where the budget stopped: %+v %v", rep, err)
		}
	})
}

func TestParallelChunksGiveTheSameFacts(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		ctx, db, root, _, opts := setup(t, engine)
		var b strings.Builder
		for i := 0; i < 30; i++ {
			b.WriteString("刘备子刘禅。诸葛亮子诸葛瞻。")
		}
		write(t, root, "a.txt", b.String())
		ex := &budgetExtractor{fakeExtractor: fakeExtractor{names: []string{"刘备", "刘禅", "诸葛亮", "诸葛瞻"}, version: "1"}, left: 1 << 20}
		opts.Extractor, opts.Parallel = ex, 8
		if _, err := indexWith(ctx, db, []string{root}, opts); err != nil {
			t.Fatal(err)
		}
		st, _ := db.Stats(ctx)
		if st.Evidence != 60 || ex.most < 2 {
			t.Fatalf("parallel extraction: %d evidence (want 60), at most %d calls at once", st.Evidence, ex.most)
		}
	})
}

// failingExtractor fails every chunk that holds bad, as an LLM extractor
// fails a chunk whose reply it cannot use.
type failingExtractor struct {
	fakeExtractor
	bad string
}

func (f *failingExtractor) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	if f.bad != "" && strings.Contains(in.Text, f.bad) {
		return extract.Result{}, fmt.Errorf("the model's reply is not JSON: «今按…»")
	}
	return f.fakeExtractor.Extract(ctx, in)
}

func failureOf(t *testing.T, db *sqlstore.DB, key string) *store.Failure {
	t.Helper()
	fs, err := db.Failures(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if f.Key == key {
			return &f
		}
	}
	return nil
}

// A document whose extraction fails is recorded as failed, with the
// reason, and not as done: its earlier version keeps its facts, and the
// next run tries it again, new or changed, until it is written, which
// clears the record.
func TestFailedDocumentIsRecordedAndRetried(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		ctx, db, root, _, opts := setup(t, engine)
		ex := &failingExtractor{fakeExtractor: fakeExtractor{names: []string{"刘备", "刘禅", "诸葛亮", "诸葛瞻"}, version: "1"}}
		opts.Extractor = ex
		write(t, root, "old.txt", "刘备子刘禅。")
		if _, err := indexWith(ctx, db, []string{root}, opts); err != nil {
			t.Fatal(err)
		}
		// old.txt changes into text that fails; new.txt is new and fails.
		write(t, root, "old.txt", "诸葛亮子诸葛瞻。今按坏。")
		write(t, root, "new.txt", "坏。刘备子刘禅。")
		ex.bad = "坏"
		var warned []string
		opts.Warn = func(s string) { warned = append(warned, s) }
		var last Progress
		opts.Progress = func(p Progress) { last = p }
		rep, err := indexWith(ctx, db, []string{root}, opts)
		if err != nil {
			t.Fatalf("failed documents do not fail the run: %v", err)
		}
		if len(rep.Failed) != 2 || len(rep.Skipped) != 0 || rep.Added+rep.Changed+rep.Updated != 0 || last.Failed != 2 {
			t.Fatalf("report %+v, progress %+v", rep, last)
		}
		for _, f := range rep.Failed {
			if f.Step != StepExtract || f.Reason != "chunk 1 of 1: the model's reply is not JSON: «今按…»" {
				t.Fatalf("failure %+v", f)
			}
		}
		if len(warned) != 2 || !strings.Contains(warned[0], "failed (extract): chunk 1 of 1") {
			t.Fatalf("warnings %q", warned)
		}
		f := failureOf(t, db, "new.txt")
		if f == nil || f.Attempts != 1 || f.Step != StepExtract || f.At == "" || failureOf(t, db, "old.txt") == nil {
			t.Fatalf("stored failure %+v", f)
		}
		// The old version of old.txt stays, facts and all; new.txt is not stored.
		states, _ := db.DocStates(ctx)
		if _, ok := states["new.txt"]; ok || len(states) != 1 || len(relationsOf(t, db, "刘备")) != 1 {
			t.Fatalf("states %+v", states)
		}
		if _, err := db.Document(ctx, "new.txt"); err == nil {
			t.Fatal("a failed new document was stored")
		}

		// Failing again counts the attempt.
		rep, err = indexWith(ctx, db, []string{root}, opts)
		if err != nil || len(rep.Failed) != 2 || failureOf(t, db, "old.txt").Attempts != 2 {
			t.Fatalf("second run: %+v, %v, %+v", rep, err, failureOf(t, db, "old.txt"))
		}

		// Once the extractor works, both are written and the records go.
		ex.bad = ""
		rep, err = indexWith(ctx, db, []string{root}, opts)
		if err != nil || len(rep.Failed) != 0 || rep.Added != 1 || rep.Changed != 1 {
			t.Fatalf("third run: %+v, %v", rep, err)
		}
		if fs, _ := db.Failures(ctx); len(fs) != 0 {
			t.Fatalf("failures left: %+v", fs)
		}
		if len(relationsOf(t, db, "诸葛亮")) != 1 {
			t.Fatal("the changed document's new facts are missing")
		}
	})
}

// A failure recorded for a version of a document that is no longer there
// (the file went back to the text indexed before) is cleared; removing a
// document clears its failure too.
func TestStaleFailuresAreCleared(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		ctx, db, root, _, opts := setup(t, engine)
		ex := &failingExtractor{fakeExtractor: fakeExtractor{names: []string{"刘备", "刘禅"}, version: "1"}, bad: "坏"}
		opts.Extractor = ex
		write(t, root, "a.txt", "刘备子刘禅。")
		write(t, root, "b.txt", "刘禅。")
		if _, err := indexWith(ctx, db, []string{root}, opts); err != nil {
			t.Fatal(err)
		}
		write(t, root, "a.txt", "刘备子刘禅。坏。")
		write(t, root, "b.txt", "刘禅。坏。")
		if rep, err := indexWith(ctx, db, []string{root}, opts); err != nil || len(rep.Failed) != 2 {
			t.Fatalf("%+v, %v", rep, err)
		}
		write(t, root, "a.txt", "刘备子刘禅。")
		if rep, err := indexWith(ctx, db, []string{root}, opts); err != nil || rep.Unchanged != 1 || len(rep.Failed) != 1 {
			t.Fatalf("%+v, %v", rep, err)
		}
		if failureOf(t, db, "a.txt") != nil || failureOf(t, db, "b.txt") == nil {
			t.Fatal("the stale failure of a.txt stayed, or b.txt's went")
		}
		states, _ := db.DocStates(ctx)
		if err := db.RemoveDocument(ctx, states["b.txt"].ID); err != nil {
			t.Fatal(err)
		}
		if fs, _ := db.Failures(ctx); len(fs) != 0 {
			t.Fatalf("failures left after removal: %+v", fs)
		}
	})
}

// alignment is what alignment decides, by name: each entity with its
// mention count, names and aliases, and each relation with its support.
func alignment(t *testing.T, db *sqlstore.DB) string {
	t.Helper()
	var b strings.Builder
	for _, q := range []string{
		`SELECT e.name || '/' || e.type || ' ' || e.mentions || ': ' || COALESCE(n.name, '') FROM entities e
			LEFT JOIN names n ON n.entity_id = e.id ORDER BY e.name, e.type, n.name`,
		`SELECT e.name || ' ~ ' || a.alias || ' ' || a.kind || ' ' || a.source FROM aliases a JOIN entities e ON e.id = a.entity_id ORDER BY 1`,
		`SELECT h.name || ' ' || r.type || ' ' || t.name || ' ' || r.status || ' ' || r.support FROM relations r
			JOIN entities h ON h.id = r.head_id JOIN entities t ON t.id = r.tail_id ORDER BY 1`,
		`SELECT count(*) FROM evidence WHERE relation_id IS NULL`,
	} {
		rows, err := db.Query(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			rows.Scan(&s)
			b.WriteString(s + "\n")
		}
		rows.Close()
	}
	return b.String()
}

// Alignment writes only what changed, and what it writes step by step is
// what aligning everything at once would give.
func TestAlignmentWritesOnlyWhatChanged(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		ctx, db, root, ex, opts := setup(t, engine)
		ex.names = append(ex.names, "玄德", "阿斗")
		write(t, root, "a.txt", "玄德子刘禅。刘备子阿斗。")
		write(t, root, "b.txt", "诸葛亮子诸葛瞻。刘备子刘禅。")
		if _, err := indexWith(ctx, db, []string{root}, opts); err != nil {
			t.Fatal(err)
		}
		resolution := func(db *sqlstore.DB) store.Resolution {
			names, _ := db.Names(ctx)
			aliases, _ := db.AliasFacts(ctx)
			merges, _ := db.Merges(ctx)
			return resolve.Resolve(names, aliases, merges...)
		}
		if n, err := db.ApplyResolution(ctx, resolution(db)); err != nil || n != 0 {
			t.Fatalf("aligning an aligned corpus wrote %d rows (%v)", n, err)
		}

		// Two dictionary entries merge 玄德 into 刘备 and 阿斗 into 刘禅; a
		// document goes, another comes.
		dict := []store.AliasFact{
			{Main: "刘备", Alias: "玄德", Kind: "dictionary", Source: "dictionary:d.txt:1"},
			{Main: "刘禅", Alias: "阿斗", Kind: "dictionary", Source: "dictionary:d.txt:2"},
		}
		if _, err := db.AddDictionaryAliases(ctx, "d.txt", dict); err != nil {
			t.Fatal(err)
		}
		if _, err := resolve.Align(ctx, db, false); err != nil {
			t.Fatal(err)
		}
		os.Remove(filepath.Join(root, "b.txt"))
		d, _ := db.Document(ctx, "b.txt")
		if err := db.RemoveDocument(ctx, d.ID); err != nil {
			t.Fatal(err)
		}
		write(t, root, "c.txt", "刘禅子刘谌。阿斗子刘谌。")
		ex.names = append(ex.names, "刘谌")
		if _, err := indexWith(ctx, db, []string{root}, opts); err != nil {
			t.Fatal(err)
		}
		got := alignment(t, db)

		// The same corpus and dictionary aligned once, from nothing.
		fresh := openStore(t, engine)
		if _, err := fresh.AddDictionaryAliases(ctx, "d.txt", dict); err != nil {
			t.Fatal(err)
		}
		ex.version = "1"
		if _, err := indexWith(ctx, fresh, []string{root}, opts); err != nil {
			t.Fatal(err)
		}
		if want := alignment(t, fresh); got != want {
			t.Fatalf("aligned step by step:\n%s\naligned at once:\n%s", got, want)
		}
		if !strings.Contains(got, "刘备/人物 2: 刘备\n刘备/人物 2: 玄德\n") || !strings.Contains(got, "刘禅/人物 4: 刘禅\n刘禅/人物 4: 阿斗\n") ||
			!strings.Contains(got, "刘备 子女 刘禅 extracted 2") || !strings.Contains(got, "刘禅 子女 刘谌 extracted 2") || strings.Contains(got, "诸葛") {
			t.Fatalf("alignment:\n%s", got)
		}
		if n, err := db.ApplyResolution(ctx, resolution(db)); err != nil || n != 0 {
			t.Fatalf("aligning again wrote %d rows (%v)", n, err)
		}
	})
}

// Progress knows the documents' total: the exact number once the walk is
// done, and the corpus steps name themselves with it.
func TestProgressKnowsTheTotal(t *testing.T) {
	ctx, db, root, _, opts := setup(t, "sqlite")
	for i := range 7 {
		write(t, root, fmt.Sprintf("doc%d.txt", i), fmt.Sprintf("刘备%d，字玄德。诸葛亮拜丞相。", i))
	}
	write(t, root, "records.jsonl", "{\"text\": \"刘禅，字公嗣。\"}\n{\"text\": \"诸葛瞻，字思远。\"}\n")
	var mu sync.Mutex
	var seen []Progress
	opts.Progress = func(p Progress) {
		mu.Lock()
		seen = append(seen, p)
		mu.Unlock()
	}
	if _, err := indexWith(ctx, db, []string{root}, opts); err != nil {
		t.Fatal(err)
	}
	var steps []string
	lastDoc := Progress{}
	for _, p := range seen {
		if p.Total != 0 && p.Total != 9 {
			t.Errorf("total %d, want 9 (7 files and 2 records): %+v", p.Total, p)
		}
		if p.Step != "" {
			steps = append(steps, p.Step)
			if p.Total != 9 || p.Documents != 9 {
				t.Errorf("corpus step %s: %d of %d documents, want 9 of 9", p.Step, p.Documents, p.Total)
			}
		} else {
			lastDoc = p
		}
	}
	if lastDoc.Total != 9 || lastDoc.Documents != 9 {
		t.Errorf("after the documents: %d of %d", lastDoc.Documents, lastDoc.Total)
	}
	if !slices.Equal(steps, []string{StepAlign}) {
		t.Errorf("corpus steps reported: %v", steps)
	}
}
