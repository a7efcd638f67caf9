package sqlstore

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/index"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// chunked is a document cut into chunks of size code points that overlap
// by overlap, as the chunker does, each holding its normalised text.
func chunked(key, orig, norm string, offmap []int32, size, overlap int) store.DocWrite {
	if norm == "" {
		norm = orig
	}
	nr := []rune(norm)
	orr := func(n int) int {
		if offmap == nil {
			return n
		}
		return int(offmap[n])
	}
	d := kg.Document{Key: key, Version: "v", Title: filepath.Base(filepath.Dir(key)), Section: strings.Split(filepath.Dir(key), "/"),
		Lang: "lzh", Text: orig, Norm: norm, OffsetMap: offmap, Chars: len([]rune(orig))}
	w := store.DocWrite{Doc: d, ReplaceFacts: true}
	for seq, start := 0, 0; start < len(nr); seq++ {
		end := min(start+size, len(nr))
		w.Chunks = append(w.Chunks, kg.Chunk{Seq: seq, Span: kg.Span{Start: orr(start), End: orr(end)}, Text: string(nr[start:end])})
		w.Terms = append(w.Terms, store.ChunkTerms{Seq: seq, Terms: index.AppendText(nil, string(nr[start:end]))})
		if end == len(nr) {
			break
		}
		start = end - overlap
	}
	return w
}

// reindex writes a stored document's chunk terms again, as the lexical
// step does when only its own version changed.
func reindex(t *testing.T, ctx context.Context, db *DB, w store.DocWrite) {
	t.Helper()
	again := store.DocWrite{Doc: kg.Document{Key: w.Doc.Key}, KeepDoc: true, Terms: w.Terms}
	if err := db.WriteDocs(ctx, []store.DocWrite{again}); err != nil {
		t.Fatal(err)
	}
}

func count(t *testing.T, db *DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := db.db.QueryRowContext(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

func chunkDocs(t *testing.T, ctx context.Context, db *DB, terms ...string) []int64 {
	t.Helper()
	hits, err := db.SearchChunks(ctx, terms, 100)
	if err != nil {
		t.Fatal(err)
	}
	var docs []int64
	for _, h := range hits {
		if !slices.Contains(docs, h.DocID) {
			docs = append(docs, h.DocID)
		}
	}
	slices.Sort(docs)
	return docs
}

func TestLexicalIndexFollowsChunks(t *testing.T) {
	eachEngine(t, func(t *testing.T, ctx context.Context, db *DB) {
		writes := []store.DocWrite{
			chunked("三国志/蜀书/诸葛亮传/text.txt", "诸葛亮字孔明，琅邪阳都人也。亮躬耕陇亩，好为梁父吟。", "", nil, 10, 3),
			chunked("三国志/蜀书/先主传/text.txt", "先主姓刘，讳备，字玄德。三顾亮于草庐之中。", "", nil, 10, 3),
		}
		if err := db.WriteDocs(ctx, writes); err != nil {
			t.Fatal(err)
		}
		chunks := count(t, db, "SELECT count(*) FROM chunks")
		if n := count(t, db, "SELECT count(*) FROM chunk_terms"); n != chunks {
			t.Fatalf("%d indexed rows for %d chunks", n, chunks)
		}
		zhuge, xianzhu := writes[0].Doc.ID, writes[1].Doc.ID
		if got := chunkDocs(t, ctx, db, "孔明"); !slices.Equal(got, []int64{zhuge}) {
			t.Fatalf("孔明 in %v", got)
		}
		// Indexing again (a step re-run over unchanged chunks) keeps one row
		// per chunk.
		reindex(t, ctx, db, writes[0])
		reindex(t, ctx, db, writes[1])
		if n := count(t, db, "SELECT count(*) FROM chunk_terms"); n != chunks {
			t.Fatalf("re-indexing left %d rows for %d chunks", n, chunks)
		}
		vocab := "SELECT doc FROM chunk_vocab WHERE term = '孔明'"
		if db.Postgres() {
			vocab = "SELECT count(*) FROM chunk_terms WHERE terms @> ARRAY['孔明']"
		}
		if n := count(t, db, vocab); n != 1 {
			t.Fatalf("孔明 should be in one chunk, the index says %d", n)
		}

		// A changed document gets new chunks: the old ones leave the index.
		changed := chunked("三国志/蜀书/诸葛亮传/text.txt", "诸葛亮卒于五丈原。", "", nil, 10, 3)
		if err := db.WriteDocs(ctx, []store.DocWrite{changed}); err != nil {
			t.Fatal(err)
		}
		if got := chunkDocs(t, ctx, db, "孔明"); len(got) != 0 {
			t.Fatalf("a changed document's old text is still found: %v", got)
		}
		if got := chunkDocs(t, ctx, db, "五丈"); !slices.Equal(got, []int64{zhuge}) {
			t.Fatalf("五丈 in %v", got)
		}

		// Removing a document (chunks go by ON DELETE CASCADE) removes its rows.
		if err := db.RemoveDocument(ctx, zhuge); err != nil {
			t.Fatal(err)
		}
		if got := chunkDocs(t, ctx, db, "五丈", "孔明", "诸葛"); len(got) != 0 {
			t.Fatalf("a removed document is still found: %v", got)
		}
		chunks = count(t, db, "SELECT count(*) FROM chunks")
		if n := count(t, db, "SELECT count(*) FROM chunk_terms"); n != chunks {
			t.Fatalf("%d indexed rows for %d chunks after removal", n, chunks)
		}
		if got := chunkDocs(t, ctx, db, "玄德"); !slices.Equal(got, []int64{xianzhu}) {
			t.Fatalf("the other document should stay: %v", got)
		}
	})
}

func TestSearchChunksRanksByBM25(t *testing.T) {
	eachEngine(t, func(t *testing.T, ctx context.Context, db *DB) {
		writes := []store.DocWrite{
			chunked("a/text.txt", "诸葛亮。诸葛亮。诸葛亮出师。", "", nil, 100, 0),
			chunked("b/text.txt", "诸葛亮出师。天下大乱。", "", nil, 100, 0),
			chunked("c/text.txt", "天下大乱，群雄并起。", "", nil, 100, 0),
			chunked("d/text.txt", "Zhuge Liang AND the \"NEAR\" OR *", "", nil, 100, 0),
		}
		if err := db.WriteDocs(ctx, writes); err != nil {
			t.Fatal(err)
		}
		hits, err := db.SearchChunks(ctx, index.Terms("诸葛亮出师"), 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 2 || hits[0].DocID != writes[0].Doc.ID || hits[1].DocID != writes[1].Doc.ID {
			t.Fatalf("the chunk saying 诸葛亮 most comes first: %+v", hits)
		}
		if hits[0].Score <= hits[1].Score || hits[1].Score <= 0 {
			t.Fatalf("scores should be positive, best first: %+v", hits)
		}
		if hits, err := db.SearchChunks(ctx, nil, 10); hits != nil || err != nil {
			t.Fatalf("no terms: %v %v", hits, err)
		}
		// FTS5 syntax in terms is only text.
		for _, q := range [][]string{{"and"}, {"near"}, {`"`, "or", "*"}, {"NEAR(", ")"}} {
			if _, err := db.SearchChunks(ctx, q, 10); err != nil {
				t.Fatalf("%q: %v", q, err)
			}
		}
		if hits, _ := db.SearchChunks(ctx, []string{"and"}, 10); len(hits) != 1 || hits[0].DocID != writes[3].Doc.ID {
			t.Fatalf("the word and: %+v", hits)
		}
	})
}

func TestSearchChunksSkipsOnlyWhatCannotRank(t *testing.T) {
	ctx, db := openTest(t)
	// Many chunks of common words, a few with rare ones: enough matches
	// that search scores only the chunks holding a rare term.
	var writes []store.DocWrite
	for i := range 1500 {
		body := "天下大乱，将军曰可。"
		switch {
		case i%97 == 0:
			body += "诸葛亮出师。"
		case i%31 == 0:
			body += "诸葛瑾来。天下天下。"
		case i%7 == 0:
			body = "将军将军将军。"
		}
		writes = append(writes, chunked(fmt.Sprintf("d%04d/text.txt", i), body, "", nil, 100, 0))
	}
	if err := db.WriteDocs(ctx, writes); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"诸葛亮出师天下大乱", "诸葛天下将军", "将军天下", "诸葛瑾天下大乱"} {
		terms := uniqueTerms(index.Terms(q))
		for _, limit := range []int{1, 5, 20} {
			full, err := db.searchChunks(ctx, index.MatchAny(terms), "", limit)
			if err != nil {
				t.Fatal(err)
			}
			got, err := db.SearchChunks(ctx, terms, limit)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, full) {
				t.Fatalf("%s, %d: pruned ranking differs from the full one:\n%+v\n%+v", q, limit, got, full)
			}
		}
	}
	terms := uniqueTerms(index.Terms("诸葛亮出师天下大乱"))
	if _, ok, err := db.searchPruned(ctx, terms, index.MatchAny(terms), 5); !ok || err != nil {
		t.Fatalf("rare and common terms should be ranked by scoring the rare ones' chunks: %v %v", ok, err)
	}
}

func TestConcordance(t *testing.T) {
	eachEngine(t, func(t *testing.T, ctx context.Context, db *DB) {
		writes := []store.DocWrite{
			// Traditional original, simplified norm, overlapping chunks.
			chunked("三国志/蜀书/诸葛亮传/text.txt", "諸葛亮字孔明。\n亮躬耕隴畝，諸葛亮好為梁父吟。", "诸葛亮字孔明。\n亮躬耕陇亩，诸葛亮好为梁父吟。", nil, 8, 4),
			// Normalisation that dropped a character: offsets go through the map.
			chunked("三国志/魏书/武帝纪/text.txt", "甲诸X葛亮乙。", "甲诸葛亮乙。", []int32{0, 1, 3, 4, 5, 6, 7}, 4, 1),
			chunked("史记/text.txt", "Zhuge Liang met KHAN Han; han!", "", nil, 12, 4),
		}
		if err := db.WriteDocs(ctx, writes); err != nil {
			t.Fatal(err)
		}
		conc := func(q store.ConcordanceQuery) *store.Concordance {
			t.Helper()
			c, err := db.Concordance(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			scan := q
			scan.Scan = true
			s, err := db.Concordance(ctx, scan)
			if err != nil {
				t.Fatal(err)
			}
			if s.Total != c.Total || !slices.Equal(s.Occurrences, c.Occurrences) {
				t.Fatalf("%q: the index and a scan disagree:\n%+v\n%+v", q.Text, c, s)
			}
			return c
		}

		c := conc(store.ConcordanceQuery{Text: "诸葛亮", Context: 3})
		if c.Total != 3 || len(c.Occurrences) != 3 {
			t.Fatalf("诸葛亮: %+v", c)
		}
		want := []store.Occurrence{
			{DocKey: "三国志/蜀书/诸葛亮传/text.txt", Start: 0, End: 3, Match: "諸葛亮", Left: "", Right: "字孔明"},
			{DocKey: "三国志/蜀书/诸葛亮传/text.txt", Start: 14, End: 17, Match: "諸葛亮", Left: "隴畝，", Right: "好為梁"},
			{DocKey: "三国志/魏书/武帝纪/text.txt", Start: 1, End: 5, Match: "诸X葛亮", Left: "甲", Right: "乙。"},
		}
		for i, o := range c.Occurrences {
			w := want[i]
			if o.DocKey != w.DocKey || o.Start != w.Start || o.End != w.End || o.Match != w.Match || o.Left != w.Left || o.Right != w.Right {
				t.Errorf("occurrence %d = %+v, want %+v", i, o, w)
			}
			if orig := []rune(writes[slices.IndexFunc(writes, func(d store.DocWrite) bool { return d.Doc.Key == o.DocKey })].Doc.Text); string(orig[o.Start:o.End]) != o.Match {
				t.Errorf("occurrence %d: [%d,%d) is not the match", i, o.Start, o.End)
			}
		}
		if o := c.Occurrences[0]; o.Cite != "《三国志·蜀书·诸葛亮传》" || o.Title != "诸葛亮传" || o.Section != "三国志/蜀书/诸葛亮传" || o.DocID != writes[0].Doc.ID {
			t.Fatalf("citation: %+v", o)
		}

		// Context is clipped to the document, line breaks become spaces.
		c = conc(store.ConcordanceQuery{Text: "亮躬", Context: 5})
		if c.Total != 1 || c.Occurrences[0].Left != "字孔明。 " || c.Occurrences[0].Right != "耕隴畝，諸" {
			t.Fatalf("亮躬: %+v", c.Occurrences)
		}
		c = conc(store.ConcordanceQuery{Text: "梁父吟", Context: 50})
		if c.Total != 1 || c.Occurrences[0].Right != "。" || !strings.HasPrefix(c.Occurrences[0].Left, "諸葛亮字孔明。 亮") {
			t.Fatalf("梁父吟: %+v", c.Occurrences)
		}

		// One character: every document is read.
		c = conc(store.ConcordanceQuery{Text: "亮"})
		if c.Total != 4 {
			t.Fatalf("亮 occurs 4 times: %+v", c)
		}
		// Paging.
		p := conc(store.ConcordanceQuery{Text: "亮", Limit: 2, Offset: 1})
		if p.Total != 4 || len(p.Occurrences) != 2 || p.Occurrences[0] != c.Occurrences[1] || p.Occurrences[1] != c.Occurrences[2] {
			t.Fatalf("page 2–3 of 亮: %+v", p)
		}
		if p := conc(store.ConcordanceQuery{Text: "亮", Offset: 10}); p.Total != 4 || len(p.Occurrences) != 0 {
			t.Fatalf("past the end: %+v", p)
		}

		// Words match whole, in any case.
		c = conc(store.ConcordanceQuery{Text: "han"})
		if c.Total != 2 || c.Occurrences[0].Match != "Han" || c.Occurrences[1].Match != "han" {
			t.Fatalf("han: %+v", c)
		}
		if c := conc(store.ConcordanceQuery{Text: "zhuge liang"}); c.Total != 1 || c.Occurrences[0].Match != "Zhuge Liang" {
			t.Fatalf("zhuge liang: %+v", c)
		}
		// Chunks of this one cut words ("ang met KHAN"): a chunk's edge is no
		// word boundary.
		for _, q := range []string{"曹操", "Liang met Han", "；", "uge", "ang", "ha", "N"} {
			if c := conc(store.ConcordanceQuery{Text: q}); c.Total != 0 || len(c.Occurrences) != 0 {
				t.Fatalf("%q is nowhere: %+v", q, c)
			}
		}
		if _, err := db.Concordance(ctx, store.ConcordanceQuery{}); err == nil {
			t.Fatal("an empty query is an error")
		}
	})
}
