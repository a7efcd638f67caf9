package sqlstore

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// DocStates lists every stored document with the steps that ran on it.
func (s *DB) DocStates(ctx context.Context) (map[string]store.DocState, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, key, version FROM documents")
	if err != nil {
		return nil, fmt.Errorf("list documents: %w", err)
	}
	out := map[string]store.DocState{}
	byID := map[int64]string{}
	for rows.Next() {
		var d store.DocState
		if err := rows.Scan(&d.ID, &d.Key, &d.Version); err != nil {
			rows.Close()
			return nil, err
		}
		d.Steps = map[string]string{}
		out[d.Key] = d
		byID[d.ID] = d.Key
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = s.db.QueryContext(ctx, "SELECT doc_id, step, version FROM steps")
	if err != nil {
		return nil, fmt.Errorf("list steps: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var step, version string
		if err := rows.Scan(&id, &step, &version); err != nil {
			return nil, err
		}
		if key, ok := byID[id]; ok {
			out[key].Steps[step] = version
		}
	}
	return out, rows.Err()
}

// WriteDocs stores documents and what the document-level steps made of them,
// all in one transaction: a process killed half-way leaves none of them.
// Offsets in docs are document offsets into the original text.
func (s *DB) WriteDocs(ctx context.Context, docs []store.DocWrite) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin write: %w", err)
	}
	defer tx.Rollback()
	w := &docWriter{tx: tx, names: map[nameKey]int64{}}
	if err := w.prepare(ctx); err != nil {
		return err
	}
	defer w.close()
	written := false
	for i := range docs {
		d := &docs[i]
		if d.Failed != nil {
			if err := recordFailure(ctx, tx, d.Doc.Key, d.Failed); err != nil {
				return err
			}
			continue
		}
		if err := w.write(ctx, d); err != nil {
			return fmt.Errorf("write %s: %w", d.Doc.Key, err)
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM failures WHERE doc_key = ?", d.Doc.Key); err != nil {
			return fmt.Errorf("write %s: clear its failures: %w", d.Doc.Key, err)
		}
		written = true
	}
	if err := w.writeTerms(ctx); err != nil {
		return err
	}
	if written {
		if err := setMeta(ctx, tx, MetaDirty, "1"); err != nil {
			return err
		}
	}
	if s.beforeCommit != nil {
		s.beforeCommit()
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit documents: %w", err)
	}
	return nil
}

type nameKey struct{ name, typ string }

type docWriter struct {
	tx                          *txn
	names                       map[nameKey]int64
	insName, selName            *sql.Stmt
	insChunk, insTerms, insStep *sql.Stmt
	mentions, evidence, attrs   *batch
	// terms waits for the end of the transaction: SQLite's full-text index
	// writes its pending terms out at every statement savepoint, so terms
	// written between other documents' upserts became one small segment a
	// document, and merging those cost more than writing them.
	terms []chunkTerms
}

type chunkTerms struct {
	chunkID int64
	terms   string
}

func (w *docWriter) prepare(ctx context.Context) error {
	var err error
	prep := func(q string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var st *sql.Stmt
		st, err = w.tx.PrepareContext(ctx, q)
		return st
	}
	w.insName = prep("INSERT INTO names(name, type) VALUES(?, ?) ON CONFLICT(name, type) DO NOTHING")
	w.selName = prep("SELECT id FROM names WHERE name = ? AND type = ?")
	w.mentions = newBatch(w.tx, "INSERT INTO mentions(doc_id, chunk_id, name_id, start, end, surface) VALUES ",
		"(?, ?, ?, ?, ?, ?)", " ON CONFLICT DO NOTHING")
	w.evidence = newBatch(w.tx, `INSERT INTO evidence(doc_id, chunk_id, rtype, head_name, tail_name, head_start, head_end,
		tail_start, tail_end, start, end, extractor, score, alias_kind, sentence, sentence_norm, kept) VALUES `,
		"(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", " ON CONFLICT DO NOTHING")
	w.attrs = newBatch(w.tx, `INSERT INTO entity_attributes(doc_id, chunk_id, name_id, attribute, value, name_start, name_end,
		value_start, value_end, start, end, extractor, sentence, sentence_norm) VALUES `,
		"(?,?,?,?,?,?,?,?,?,?,?,?,?,?)", " ON CONFLICT DO NOTHING")
	w.insChunk = prep("INSERT INTO chunks(doc_id, seq, section, start, end, overlap, text, orig) VALUES(?, ?, ?, ?, ?, ?, ?, ?) RETURNING id")
	w.insTerms = prep(w.tx.d.insertTerms)
	w.insStep = prep("INSERT INTO steps(doc_id, step, version) VALUES(?, ?, ?) ON CONFLICT(doc_id, step) DO UPDATE SET version = excluded.version")
	if err != nil {
		return fmt.Errorf("prepare writes: %w", err)
	}
	return nil
}

func (w *docWriter) close() {
	w.mentions.close()
	w.evidence.close()
	w.attrs.close()
	for _, st := range []*sql.Stmt{w.insName, w.selName, w.insChunk, w.insTerms, w.insStep} {
		if st != nil {
			st.Close()
		}
	}
}

// knowNames finds or adds every name the document's facts use that the
// writer has not met yet, 256 names to a statement: nameID then asks the
// database nothing. Two statements a name were most of what writing a
// document cost on PostgreSQL, where each is a round trip.
func (w *docWriter) knowNames(ctx context.Context, d *store.DocWrite) error {
	var todo []nameKey
	queued := map[nameKey]bool{}
	want := func(name, typ string) {
		k := nameKey{name, typ}
		if _, ok := w.names[k]; !ok && !queued[k] {
			queued[k] = true
			todo = append(todo, k)
		}
	}
	for _, cf := range d.Facts {
		for _, m := range cf.Mentions {
			want(m.Name, m.Type)
		}
		for _, st := range cf.Evidence {
			want(st.Head.Name, st.Head.Type)
			want(st.Tail.Name, st.Tail.Type)
		}
		for _, a := range cf.Attributes {
			want(a.Entity.Name, a.Entity.Type)
		}
	}
	_, err := idsByKey(ctx, w.tx, todo, "INSERT INTO names(name, type) VALUES %s ON CONFLICT(name, type) DO NOTHING",
		"SELECT id, name, type FROM names WHERE (name, type) IN (VALUES %s)", w.names)
	if err != nil {
		return fmt.Errorf("add names: %w", err)
	}
	return nil
}

// writeTerms indexes the chunks' lexical terms, after every other row of
// the transaction.
func (w *docWriter) writeTerms(ctx context.Context) error {
	for _, t := range w.terms {
		if _, err := w.insTerms.ExecContext(ctx, t.chunkID, t.terms); err != nil {
			return fmt.Errorf("index chunk %d: %w", t.chunkID, err)
		}
	}
	w.terms = w.terms[:0]
	return nil
}

func (w *docWriter) nameID(ctx context.Context, name, typ string) (int64, error) {
	k := nameKey{name, typ}
	if id, ok := w.names[k]; ok {
		return id, nil
	}
	if _, err := w.insName.ExecContext(ctx, name, typ); err != nil {
		return 0, fmt.Errorf("add name %s: %w", name, err)
	}
	var id int64
	if err := w.selName.QueryRowContext(ctx, name, typ).Scan(&id); err != nil {
		return 0, fmt.Errorf("find name %s: %w", name, err)
	}
	w.names[k] = id
	return id, nil
}

func (w *docWriter) write(ctx context.Context, d *store.DocWrite) error {
	doc := &d.Doc
	var norm any
	if doc.Norm != "" && doc.Norm != doc.Text {
		norm = doc.Norm
	}
	var id int64
	var err error
	if d.KeepDoc {
		err = w.tx.QueryRowContext(ctx, "SELECT id FROM documents WHERE key = ?", doc.Key).Scan(&id)
	} else {
		err = w.tx.QueryRowContext(ctx, `INSERT INTO documents(key, version, title, section, lang, encoding, chars, text, norm, offmap, added_at)
		VALUES(?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT(key) DO UPDATE SET version=excluded.version, title=excluded.title, section=excluded.section,
		lang=excluded.lang, encoding=excluded.encoding, chars=excluded.chars, text=excluded.text, norm=excluded.norm,
		offmap=excluded.offmap, added_at=excluded.added_at
		RETURNING id`,
			doc.Key, doc.Version, doc.Title, strings.Join(doc.Section, "/"), doc.Lang, doc.Encoding, doc.Chars,
			doc.Text, norm, encodeOffsets(doc.OffsetMap), now()).Scan(&id)
	}
	if err != nil {
		return fmt.Errorf("store document: %w", err)
	}
	doc.ID = id
	chunkIDs := map[int]int64{}
	if d.Chunks != nil {
		// Deleting the chunks deletes their lexical terms too (a trigger).
		if _, err := w.tx.ExecContext(ctx, "DELETE FROM chunks WHERE doc_id = ?", id); err != nil {
			return err
		}
		if err := bumpChunks(ctx, w.tx); err != nil {
			return err
		}
		// Where normalising changed the text, each chunk keeps its original
		// characters too, so that citing it never reads the document.
		var orig []rune
		if norm != nil {
			orig = []rune(doc.Text)
		}
		for i := range d.Chunks {
			c := &d.Chunks[i]
			var o any
			if orig != nil && c.Start >= 0 && c.Start <= c.End && c.End <= len(orig) {
				o = string(orig[c.Start:c.End])
			}
			if err := w.insChunk.QueryRowContext(ctx, id, c.Seq, c.Section, c.Start, c.End, c.Overlap, c.Text, o).Scan(&c.ID); err != nil {
				return fmt.Errorf("store chunk %d: %w", c.Seq, err)
			}
			c.DocID = id
			chunkIDs[c.Seq] = c.ID
		}
	} else if d.Facts != nil || d.Terms != nil {
		rows, err := w.tx.QueryContext(ctx, "SELECT seq, id FROM chunks WHERE doc_id = ?", id)
		if err != nil {
			return err
		}
		for rows.Next() {
			var seq int
			var cid int64
			if err := rows.Scan(&seq, &cid); err != nil {
				rows.Close()
				return err
			}
			chunkIDs[seq] = cid
		}
		rows.Close()
		if d.Terms != nil {
			// Kept chunks indexed with older terms.
			if _, err := w.tx.ExecContext(ctx, w.tx.d.deleteDocTerms, id); err != nil {
				return fmt.Errorf("drop old chunk terms: %w", err)
			}
		}
	}
	for _, t := range d.Terms {
		cid, ok := chunkIDs[t.Seq]
		if !ok {
			return fmt.Errorf("terms for chunk %d, which the document does not have", t.Seq)
		}
		// As text: FTS5 tokenizes text, not blobs, and PostgreSQL splits it.
		w.terms = append(w.terms, chunkTerms{cid, string(t.Terms)})
	}
	if d.ReplaceFacts {
		// New facts need every later step again (dating …).
		for _, q := range []string{"DELETE FROM mentions WHERE doc_id = ?", "DELETE FROM evidence WHERE doc_id = ?",
			"DELETE FROM entity_attributes WHERE doc_id = ?", "DELETE FROM steps WHERE doc_id = ?"} {
			if _, err := w.tx.ExecContext(ctx, q, id); err != nil {
				return fmt.Errorf("drop old facts: %w", err)
			}
		}
	}
	if err := w.knowNames(ctx, d); err != nil {
		return err
	}
	sentences := newSentenceSource(doc)
	for _, cf := range d.Facts {
		cid := chunkIDs[cf.Seq]
		for _, m := range cf.Mentions {
			nid, err := w.nameID(ctx, m.Name, m.Type)
			if err != nil {
				return err
			}
			if err := w.mentions.add(ctx, id, cid, nid, m.Start, m.End, m.Surface); err != nil {
				return fmt.Errorf("store mention: %w", err)
			}
		}
		for _, st := range cf.Evidence {
			hid, err := w.nameID(ctx, st.Head.Name, st.Head.Type)
			if err != nil {
				return err
			}
			tid, err := w.nameID(ctx, st.Tail.Name, st.Tail.Type)
			if err != nil {
				return err
			}
			var score any
			if st.Score != nil {
				score = *st.Score
			}
			orig, norm := sentences.at(st.Sentence)
			if err := w.evidence.add(ctx, id, cid, st.Relation, hid, tid, st.Head.Start, st.Head.End,
				st.Tail.Start, st.Tail.End, st.Sentence.Start, st.Sentence.End, d.Extractor, score, st.AliasKind, orig, norm, b2i(!st.Aside)); err != nil {
				return fmt.Errorf("store evidence: %w", err)
			}
		}
		for _, a := range cf.Attributes {
			nid, err := w.nameID(ctx, a.Entity.Name, a.Entity.Type)
			if err != nil {
				return err
			}
			orig, norm := sentences.at(a.Sentence)
			if err := w.attrs.add(ctx, id, cid, nid, a.Attribute, a.Value, a.Entity.Start, a.Entity.End,
				a.At.Start, a.At.End, a.Sentence.Start, a.Sentence.End, d.Extractor, orig, norm); err != nil {
				return fmt.Errorf("store attribute: %w", err)
			}
		}
	}
	if err := w.mentions.flush(ctx); err != nil {
		return fmt.Errorf("store mentions: %w", err)
	}
	if err := w.evidence.flush(ctx); err != nil {
		return fmt.Errorf("store evidence: %w", err)
	}
	if err := w.attrs.flush(ctx); err != nil {
		return fmt.Errorf("store attributes: %w", err)
	}
	for step, version := range d.Steps {
		if _, err := w.insStep.ExecContext(ctx, id, step, version); err != nil {
			return fmt.Errorf("record step %s: %w", step, err)
		}
	}
	return nil
}

// sentenceSource cuts evidence sentences out of a document, in the original
// characters and, where normalisation changed them, in normalised form.
type sentenceSource struct {
	orig, norm []rune
	offmap     []int32
}

func newSentenceSource(doc *kg.Document) *sentenceSource {
	s := &sentenceSource{orig: []rune(doc.Text), offmap: doc.OffsetMap}
	if doc.Norm != "" && doc.Norm != doc.Text {
		s.norm = []rune(doc.Norm)
	}
	return s
}

// at returns the sentence at sp (original offsets) and its normalised form,
// or nil when that is the same text.
func (s *sentenceSource) at(sp kg.Span) (string, any) {
	if sp.Start < 0 || sp.End > len(s.orig) || sp.Start > sp.End {
		return "", nil
	}
	orig := string(s.orig[sp.Start:sp.End])
	if s.norm == nil {
		return orig, nil
	}
	ns, ne := sp.Start, sp.End
	if s.offmap != nil {
		ns, ne = normOffset(s.offmap, sp.Start), normOffset(s.offmap, sp.End)
	}
	if ns < 0 || ne > len(s.norm) || ns > ne {
		return orig, nil
	}
	norm := string(s.norm[ns:ne])
	if norm == orig {
		return orig, nil
	}
	return orig, norm
}

// normOffset inverts an offset map (normalised → original): the first
// normalised offset whose original offset reaches orig.
func normOffset(m []int32, orig int) int {
	lo, hi := 0, len(m)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if int(m[mid]) < orig {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

func encodeOffsets(m []int32) any {
	if m == nil {
		return nil
	}
	b := make([]byte, 4*len(m))
	for i, v := range m {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
	}
	return b
}

func decodeOffsets(b []byte) []int32 {
	if len(b) == 0 {
		return nil
	}
	m := make([]int32, len(b)/4)
	for i := range m {
		m[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return m
}

const docColumns = "id, key, version, title, section, lang, encoding, chars"

func scanDoc(sc interface{ Scan(...any) error }) (kg.Document, error) {
	var d kg.Document
	var section string
	err := sc.Scan(&d.ID, &d.Key, &d.Version, &d.Title, &section, &d.Lang, &d.Encoding, &d.Chars)
	if section != "" {
		d.Section = strings.Split(section, "/")
	}
	return d, err
}

// Documents lists the stored documents without their text, by key.
func (s *DB) Documents(ctx context.Context) ([]kg.Document, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+docColumns+" FROM documents ORDER BY key")
	if err != nil {
		return nil, fmt.Errorf("list documents: %w", err)
	}
	defer rows.Close()
	var out []kg.Document
	for rows.Next() {
		d, err := scanDoc(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// Document finds one document, with its text, by key or by a prefix of its
// key or of its id; a prefix that matches several is an error that lists them.
func (s *DB) Document(ctx context.Context, keyOrPrefix string) (*kg.Document, error) {
	if keyOrPrefix == "" {
		return nil, fmt.Errorf("no document named")
	}
	row := s.db.QueryRowContext(ctx, "SELECT "+docColumns+" FROM documents WHERE key = ?", keyOrPrefix)
	d, err := scanDoc(row)
	if errors.Is(err, sql.ErrNoRows) {
		rows, qerr := s.db.QueryContext(ctx, "SELECT "+docColumns+" FROM documents WHERE key LIKE ? ESCAPE '\\' OR CAST(id AS TEXT) = ? ORDER BY key LIMIT 6",
			likePrefix(keyOrPrefix), keyOrPrefix)
		if qerr != nil {
			return nil, qerr
		}
		var found []kg.Document
		for rows.Next() {
			x, serr := scanDoc(rows)
			if serr != nil {
				rows.Close()
				return nil, serr
			}
			found = append(found, x)
		}
		rows.Close()
		switch len(found) {
		case 0:
			return nil, fmt.Errorf("document %q: %w", keyOrPrefix, store.ErrNotFound)
		case 1:
			d, err = found[0], nil
		default:
			var keys []string
			for _, f := range found {
				keys = append(keys, f.Key)
			}
			return nil, fmt.Errorf("%q matches several documents (%s…): give more of the key", keyOrPrefix, strings.Join(keys, ", "))
		}
	}
	if err != nil {
		return nil, fmt.Errorf("find document %q: %w", keyOrPrefix, err)
	}
	var norm sql.NullString
	var offmap []byte
	if err := s.db.QueryRowContext(ctx, "SELECT text, norm, offmap FROM documents WHERE id = ?", d.ID).Scan(&d.Text, &norm, &offmap); err != nil {
		return nil, fmt.Errorf("read document %s: %w", d.Key, err)
	}
	d.Norm = d.Text
	if norm.Valid {
		d.Norm = norm.String
	}
	d.OffsetMap = decodeOffsets(offmap)
	return &d, nil
}

func likePrefix(p string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(p) + "%"
}

// Chunks lists a document's chunks in order.
func (s *DB) Chunks(ctx context.Context, docID int64) ([]kg.Chunk, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, seq, section, start, end, overlap, text FROM chunks WHERE doc_id = ? ORDER BY seq", docID)
	if err != nil {
		return nil, fmt.Errorf("list chunks: %w", err)
	}
	defer rows.Close()
	var out []kg.Chunk
	for rows.Next() {
		c := kg.Chunk{DocID: docID}
		if err := rows.Scan(&c.ID, &c.Seq, &c.Section, &c.Start, &c.End, &c.Overlap, &c.Text); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// RemoveDocument deletes a document with its chunks, mentions, evidence and
// attributes.
// Relations and entities that only it supported go at the next alignment,
// which the dirty flag asks for.
func (s *DB) RemoveDocument(ctx context.Context, id int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM failures WHERE doc_key = (SELECT key FROM documents WHERE id = ?)", id); err != nil {
		return fmt.Errorf("remove document %d: %w", id, err)
	}
	res, err := tx.ExecContext(ctx, "DELETE FROM documents WHERE id = ?", id)
	if err != nil {
		return fmt.Errorf("remove document %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("document %d: %w", id, store.ErrNotFound)
	}
	if err := setMeta(ctx, tx, MetaDirty, "1"); err != nil {
		return err
	}
	if err := bumpChunks(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

// metaChunks counts the changes to the chunks, which readers that hold
// chunks in memory compare (ChunkGeneration).
const metaChunks = "chunks_version"

func bumpChunks(ctx context.Context, x execer) error { return bump(ctx, x, metaChunks) }

// bump adds one to a counter in meta.
func bump(ctx context.Context, x execer, key string) error {
	_, err := x.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES(?, '1')
		ON CONFLICT(key) DO UPDATE SET value = CAST(meta.value AS INTEGER) + 1`, key)
	if err != nil {
		return fmt.Errorf("count changes (%s): %w", key, err)
	}
	return nil
}

// recordFailure notes that a step failed on a document, counting the
// attempt.
func recordFailure(ctx context.Context, x execer, key string, f *store.Failure) error {
	_, err := x.ExecContext(ctx, `INSERT INTO failures(doc_key, step, reason, attempts, at) VALUES(?, ?, ?, 1, ?)
		ON CONFLICT(doc_key, step) DO UPDATE SET reason = excluded.reason, attempts = failures.attempts + 1, at = excluded.at`,
		key, f.Step, f.Reason, now())
	if err != nil {
		return fmt.Errorf("record the failure of %s: %w", key, err)
	}
	return nil
}

// Failures lists the documents a step failed on, most recent first.
func (s *DB) Failures(ctx context.Context) ([]store.Failure, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT doc_key, step, reason, attempts, at FROM failures ORDER BY at DESC, doc_key, step")
	if err != nil {
		return nil, fmt.Errorf("list failures: %w", err)
	}
	defer rows.Close()
	var out []store.Failure
	for rows.Next() {
		var f store.Failure
		if err := rows.Scan(&f.Key, &f.Step, &f.Reason, &f.Attempts, &f.At); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// ClearFailures forgets the failures of these documents.
func (s *DB) ClearFailures(ctx context.Context, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, k := range keys {
		if _, err := tx.ExecContext(ctx, "DELETE FROM failures WHERE doc_key = ?", k); err != nil {
			return fmt.Errorf("clear the failures of %s: %w", k, err)
		}
	}
	return tx.Commit()
}
