package sqlstore

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/index"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// Defaults of the concordance and of BM25 search.
const (
	defaultContext = 20
	defaultLimit   = 100
	defaultHits    = 20
)

// idList and termList write a list as a JSON array, which queries read
// with json_each: one statement text whatever the list's length.
func idList(ids []int64) string {
	if len(ids) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(ids)
	return string(b)
}

// BM25 as FTS5 computes it: k1 = 1.2, so a term adds at most
// idf·(k1+1) to a chunk's score however often it occurs.
const bm25MaxTF = 2.2

// Chunks holding only common terms are skipped when the terms match more
// than prunedMin chunks (fewer are scored quicker than counted), and the
// rarer terms are those that together match at most essentialMax.
const (
	prunedMin    = 1000
	essentialMax = 1000
)

// SearchChunks ranks the chunks holding any of the terms by BM25, best
// first.
//
// FTS5 scores every matching chunk, and common terms (天下, 将军) match
// thousands. So the chunks holding one of the rarer terms are scored
// first; when the last of the best among them beats anything the common
// terms alone could add up to, no other chunk can enter the ranking, which
// is then exactly the one over all chunks (MaxScore).
func (s *DB) SearchChunks(ctx context.Context, terms []string, limit int) ([]store.ChunkHit, error) {
	terms = uniqueTerms(terms)
	if len(terms) == 0 {
		return nil, nil
	}
	if limit <= 0 {
		limit = defaultHits
	}
	if s.db.d.postgres {
		return s.searchPostgres(ctx, terms, limit)
	}
	all := index.MatchAny(terms)
	if len(terms) > 1 {
		hits, ok, err := s.searchPruned(ctx, terms, all, limit)
		if err != nil || ok {
			return hits, err
		}
	}
	return s.searchChunks(ctx, all, "", limit)
}

func uniqueTerms(terms []string) []string {
	out := make([]string, 0, len(terms))
	for _, t := range terms {
		if t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// searchPruned ranks only the chunks that hold one of the rarer terms; ok
// is false when that cannot be shown to give the full ranking, or is not
// worth it.
func (s *DB) searchPruned(ctx context.Context, terms []string, all string, limit int) ([]store.ChunkHit, bool, error) {
	df := make(map[string]int, len(terms))
	rows, err := s.query(ctx, "SELECT term, doc FROM chunk_vocab WHERE term IN (SELECT value FROM json_each(?))", termList(terms))
	if err != nil {
		return nil, false, fmt.Errorf("search chunks: count terms: %w", err)
	}
	total := 0
	for rows.Next() {
		var t string
		var n int
		if err := rows.Scan(&t, &n); err != nil {
			rows.Close()
			return nil, false, fmt.Errorf("search chunks: count terms: %w", err)
		}
		df[t] = n
		total += n
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("search chunks: count terms: %w", err)
	}
	if total <= prunedMin {
		return nil, false, nil
	}
	// Any bound on the number of chunks at least as large as FTS5's count
	// keeps the bound below safe: idf grows with it.
	var rowsBound float64
	if err := s.queryRow(ctx, "SELECT COALESCE(max(id), 0) FROM chunks").Scan(&rowsBound); err != nil {
		return nil, false, fmt.Errorf("search chunks: count chunks: %w", err)
	}
	byDF := slices.Clone(terms)
	slices.SortStableFunc(byDF, func(a, b string) int { return cmp.Compare(df[a], df[b]) })
	var essential []string
	rest, sum := 0.0, 0
	for _, t := range byDF {
		n := df[t]
		if n == 0 {
			if !index.OneToken(t) {
				// Several tokens to FTS5: the vocabulary does not know
				// the term, but the phrase may match.
				return nil, false, nil
			}
			continue // in no chunk
		}
		if len(essential) == 0 || sum+n <= essentialMax {
			essential = append(essential, t)
			sum += n
			continue
		}
		idf := math.Log((rowsBound - float64(n) + 0.5) / (float64(n) + 0.5))
		if idf <= 0 {
			idf = 1e-6 // as FTS5 does
		}
		rest += idf * bm25MaxTF
	}
	if len(essential) == len(terms) || sum >= total {
		return nil, false, nil
	}
	hits, err := s.searchChunks(ctx, all, index.MatchAny(essential), limit)
	if err != nil {
		return nil, false, err
	}
	if len(hits) < limit || hits[limit-1].Score <= rest*(1+1e-9)+1e-9 {
		return nil, false, nil
	}
	return hits, true, nil
}

func termList(terms []string) string {
	if len(terms) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(terms)
	return string(b)
}

// searchChunks runs the BM25 query over all terms; with among, only the
// chunks matching it are scored (the unary + keeps SQLite from looking
// each one up in the full-text index, which would redo the idf per chunk).
func (s *DB) searchChunks(ctx context.Context, all, among string, limit int) ([]store.ChunkHit, error) {
	filter, args := "", []any{all}
	if among != "" {
		filter = " AND +rowid IN (SELECT rowid FROM chunk_terms WHERE chunk_terms MATCH ?)"
		args = append(args, among)
	}
	args = append(args, limit)
	rows, err := s.query(ctx, `SELECT f.id, c.doc_id, -f.score FROM (
			SELECT rowid AS id, bm25(chunk_terms) AS score FROM chunk_terms WHERE chunk_terms MATCH ?`+filter+`
			ORDER BY score, rowid LIMIT ?
		) f JOIN chunks c ON c.id = f.id ORDER BY f.score, f.id`, args...)
	if err != nil {
		return nil, fmt.Errorf("search chunks: %w", err)
	}
	defer rows.Close()
	var out []store.ChunkHit
	for rows.Next() {
		var h store.ChunkHit
		if err := rows.Scan(&h.ChunkID, &h.DocID, &h.Score); err != nil {
			return nil, fmt.Errorf("search chunks: %w", err)
		}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("search chunks: %w", err)
	}
	return out, nil
}

// concDoc is a document some occurrences are in.
type concDoc struct {
	id                  int64
	key, title, section string
	offmap              []int32
	orig                string // original text, once read; "" until then
	hasOrig             bool
}

// hit is an occurrence, by normalised offset, before it is read out.
type hit struct {
	doc   *concDoc
	start int
}

// Concordance lists every occurrence of q.Text in the documents'
// normalised text, by document key and offset. Candidates come from the
// lexical index when the text has a term every occurrence must carry (two
// Han characters, a word); one Han character or punctuation is looked for
// in every document.
func (s *DB) Concordance(ctx context.Context, q store.ConcordanceQuery) (*store.Concordance, error) {
	if q.Text == "" {
		return nil, fmt.Errorf("concordance: no text to look for")
	}
	switch {
	case q.Context == 0:
		q.Context = defaultContext
	case q.Context < 0:
		q.Context = 0
	}
	if q.Limit <= 0 {
		q.Limit = defaultLimit
	}
	// Bounded so that Offset+Limit cannot overflow.
	q.Limit, q.Offset = min(q.Limit, math.MaxInt/2), min(max(q.Offset, 0), math.MaxInt/2)
	p := index.NewPattern(q.Text)
	var (
		total int
		page  []hit
		err   error
	)
	if p.Query() != "" && !q.Scan {
		total, page, err = s.concordanceIndexed(ctx, p, q)
	} else {
		total, page, err = s.concordanceScan(ctx, p, q)
	}
	if err != nil {
		return nil, fmt.Errorf("concordance of %q: %w", q.Text, err)
	}
	out := &store.Concordance{Total: total, Occurrences: make([]store.Occurrence, 0, len(page))}
	var runes []rune
	var last *concDoc
	for _, h := range page {
		d := h.doc
		if !d.hasOrig {
			if err := s.db.QueryRowContext(ctx, "SELECT text FROM documents WHERE id = ?", d.id).Scan(&d.orig); err != nil {
				return nil, fmt.Errorf("concordance: read document %s: %w", d.key, err)
			}
			d.hasOrig = true
		}
		if d != last {
			runes, last = []rune(d.orig), d
		}
		start := text.OrigOffset(d.offmap, h.start)
		end := text.OrigOffset(d.offmap, h.start+p.Len())
		start, end = min(max(start, 0), len(runes)), min(max(end, start), len(runes))
		out.Occurrences = append(out.Occurrences, store.Occurrence{
			DocID: d.id, DocKey: d.key, Title: d.title, Section: d.section,
			Cite:  kg.Cite(splitSection(d.section), d.title, d.key),
			Start: start, End: end, Match: string(runes[start:end]),
			Left:  oneLine(runes[max(0, start-q.Context):start]),
			Right: oneLine(runes[end:min(len(runes), end+q.Context)]),
		})
	}
	return out, nil
}

// concordanceIndexed finds the occurrences in the chunks the lexical index
// names. Chunks overlap, so an occurrence can be found twice.
func (s *DB) concordanceIndexed(ctx context.Context, p *index.Pattern, q store.ConcordanceQuery) (int, []hit, error) {
	lookup, arg := `SELECT c.doc_id, c.start, c.text FROM chunk_terms JOIN chunks c ON c.id = chunk_terms.rowid
		WHERE chunk_terms MATCH ?`, any(p.Query())
	if s.db.d.postgres {
		lookup, arg = "SELECT c.doc_id, c.start, c.text FROM chunk_terms t JOIN chunks c ON c.id = t.chunk_id WHERE t.terms @> ?::text[]", p.Terms()
	}
	rows, err := s.db.QueryContext(ctx, lookup, arg)
	if err != nil {
		return 0, nil, fmt.Errorf("look up chunks: %w", err)
	}
	type found struct {
		doc   int64
		start int
		// At a chunk's edge, where the chunk cannot say whether a word goes
		// on beyond it (a chunker cut mid-word); the document is asked.
		edge bool
	}
	var all []found
	docs := map[int64]*concDoc{}
	var chunkStarts []found // chunk starts, mapped once the documents are read
	var perChunk []int      // occurrences found in each chunk
	wordStart, wordEnd := p.Edges()
	for rows.Next() {
		var doc int64
		var start int
		var body string
		if err := rows.Scan(&doc, &start, &body); err != nil {
			rows.Close()
			return 0, nil, fmt.Errorf("read chunk: %w", err)
		}
		n, size := 0, -1
		p.Find(body, func(at int) bool {
			edge := wordStart && at == 0 && start > 0
			if wordEnd && !edge {
				if size < 0 {
					size = utf8.RuneCountInString(body)
				}
				edge = at+p.Len() == size
			}
			all = append(all, found{doc, at, edge})
			n++
			return true
		})
		if n > 0 {
			docs[doc] = nil
			chunkStarts = append(chunkStarts, found{doc: doc, start: start})
			perChunk = append(perChunk, n)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, nil, fmt.Errorf("read chunks: %w", err)
	}
	if len(all) == 0 {
		return 0, nil, nil
	}
	if err := s.concDocs(ctx, docs); err != nil {
		return 0, nil, err
	}
	// Chunk offsets are original; the occurrences are in normalised text.
	k := 0
	for i, c := range chunkStarts {
		base := c.start
		if m := docs[c.doc].offmap; m != nil {
			base = normOffset(m, c.start)
		}
		for j := 0; j < perChunk[i]; j++ {
			all[k].start += base
			k++
		}
	}
	// By key and offset, an occurrence seen whole inside some chunk first.
	slices.SortFunc(all, func(a, b found) int {
		if a.doc != b.doc {
			return cmp.Compare(docs[a.doc].key, docs[b.doc].key)
		}
		if a.start != b.start {
			return cmp.Compare(a.start, b.start)
		}
		return cmp.Compare(b2i(a.edge), b2i(b.edge))
	})
	all = slices.CompactFunc(all, func(a, b found) bool { return a.doc == b.doc && a.start == b.start })
	kept := all[:0]
	for _, f := range all {
		if f.edge {
			ok, err := s.wordBounded(ctx, f.doc, f.start, f.start+p.Len(), wordStart, wordEnd)
			if err != nil {
				return 0, nil, err
			}
			if !ok {
				continue
			}
		}
		kept = append(kept, f)
	}
	all = kept
	var page []hit
	for _, f := range all[min(q.Offset, len(all)):min(q.Offset+q.Limit, len(all))] {
		page = append(page, hit{docs[f.doc], f.start})
	}
	return len(all), page, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// wordBounded reports whether [start,end) of a document's normalised text
// has no word character just before it (when start is asked) and after it
// (when end is).
func (s *DB) wordBounded(ctx context.Context, doc int64, start, end int, checkStart, checkEnd bool) (bool, error) {
	var before, after string
	// substr counts characters from 1.
	err := s.db.QueryRowContext(ctx, "SELECT substr(COALESCE(norm, text), ?, 1), substr(COALESCE(norm, text), ?, 1) FROM documents WHERE id = ?",
		max(start, 0), end+1, doc).Scan(&before, &after)
	if err != nil {
		return false, fmt.Errorf("read around an occurrence: %w", err)
	}
	if r, _ := utf8.DecodeRuneInString(before); checkStart && start > 0 && index.InWord(r) {
		return false, nil
	}
	if r, _ := utf8.DecodeRuneInString(after); checkEnd && after != "" && index.InWord(r) {
		return false, nil
	}
	return true, nil
}

// concDocs reads what the concordance shows of the documents in docs.
func (s *DB) concDocs(ctx context.Context, docs map[int64]*concDoc) error {
	ids := make([]int64, 0, len(docs))
	for id := range docs {
		ids = append(ids, id)
	}
	rows, err := s.query(ctx, "SELECT id, key, title, section, offmap FROM documents WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))", idList(ids))
	if err != nil {
		return fmt.Errorf("read documents: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		d := &concDoc{}
		var offmap []byte
		if err := rows.Scan(&d.id, &d.key, &d.title, &d.section, &offmap); err != nil {
			return fmt.Errorf("read documents: %w", err)
		}
		d.offmap = decodeOffsets(offmap)
		docs[d.id] = d
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read documents: %w", err)
	}
	for id, d := range docs {
		if d == nil {
			return fmt.Errorf("document %d of an indexed chunk is gone", id)
		}
	}
	return nil
}

// concordanceScan looks for the pattern in every document, in key order,
// and works out offsets only for the page asked for.
func (s *DB) concordanceScan(ctx context.Context, p *index.Pattern, q store.ConcordanceQuery) (int, []hit, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, key, title, section, norm IS NULL, COALESCE(norm, text), offmap FROM documents ORDER BY key")
	if err != nil {
		return 0, nil, fmt.Errorf("read documents: %w", err)
	}
	defer rows.Close()
	total := 0
	var page []hit
	for rows.Next() {
		d := &concDoc{}
		var same bool
		var norm string
		var offmap []byte
		if err := rows.Scan(&d.id, &d.key, &d.title, &d.section, &same, &norm, &offmap); err != nil {
			return 0, nil, fmt.Errorf("read document: %w", err)
		}
		n := p.Count(norm)
		if n > 0 && total+n > q.Offset && total < q.Offset+q.Limit {
			i := total
			d.offmap = decodeOffsets(offmap)
			if same {
				d.orig, d.hasOrig = norm, true
			}
			p.Find(norm, func(at int) bool {
				if i >= q.Offset {
					page = append(page, hit{d, at})
				}
				i++
				return i < q.Offset+q.Limit
			})
		}
		total += n
	}
	if err := rows.Err(); err != nil {
		return 0, nil, fmt.Errorf("read documents: %w", err)
	}
	return total, page, nil
}

// oneLine turns line breaks and tabs into spaces, so that context lines up.
func oneLine(rs []rune) string {
	var b strings.Builder
	b.Grow(len(rs) * 3)
	for _, r := range rs {
		switch r {
		case '\n', '\r', '\t', '\v', '\f', 0x85, 0x2028, 0x2029:
			r = ' '
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ChunkGeneration says, cheaply, which chunks the workspace holds: how
// many times chunks were written or removed (counted in the same
// transactions), and the highest chunk id.
func (s *DB) ChunkGeneration(ctx context.Context) (changes, maxID int64, err error) {
	err = s.queryRow(ctx, `SELECT COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = ?), 0),
		COALESCE((SELECT max(id) FROM chunks), 0)`, metaChunks).Scan(&changes, &maxID)
	if err != nil {
		err = fmt.Errorf("count chunk changes: %w", err)
	}
	return changes, maxID, err
}

// EachChunk calls fn with every chunk's id and normalised text, in id
// order.
func (s *DB) EachChunk(ctx context.Context, fn func(id int64, text string)) error {
	rows, err := s.db.QueryContext(ctx, "SELECT id, text FROM chunks ORDER BY id")
	if err != nil {
		return fmt.Errorf("read chunks: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var text string
		if err := rows.Scan(&id, &text); err != nil {
			return fmt.Errorf("read chunks: %w", err)
		}
		fn(id, text)
	}
	return rows.Err()
}
