package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// DocsNeedingStep lists the ids of documents on which step has not run at
// version.
func (s *DB) DocsNeedingStep(ctx context.Context, step, version string) ([]int64, error) {
	ids, err := s.ids(ctx, `SELECT d.id FROM documents d LEFT JOIN steps s ON s.doc_id = d.id AND s.step = ?
		WHERE s.version IS NULL OR s.version != ? ORDER BY d.id`, step, version)
	if err != nil {
		return nil, fmt.Errorf("list documents for %s: %w", step, err)
	}
	return ids, nil
}

// ids runs a query that selects one integer column.
func (s *DB) ids(ctx context.Context, q string, args ...any) ([]int64, error) {
	rows, err := s.query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// DocumentByID reads one document with its text.
func (s *DB) DocumentByID(ctx context.Context, id int64) (*store.DatedDoc, error) {
	d := &store.DatedDoc{ID: id}
	var norm sql.NullString
	err := s.db.QueryRowContext(ctx, "SELECT key, title, section, lang, text, norm FROM documents WHERE id = ?", id).
		Scan(&d.Key, &d.Title, &d.Section, &d.Lang, &d.Text, &norm)
	if err != nil {
		return nil, fmt.Errorf("read document %d: %w", id, err)
	}
	d.Norm = d.Text
	if norm.Valid {
		d.Norm = norm.String
	}
	rows, err := s.db.QueryContext(ctx, "SELECT id, start, end FROM evidence WHERE doc_id = ? ORDER BY start", id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var e store.Dated
		if err := rows.Scan(&e.ID, &e.Start, &e.End); err != nil {
			return nil, err
		}
		d.Evidence = append(d.Evidence, e)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	trows, err := s.db.QueryContext(ctx, `SELECT m.id, m.start, m.end FROM mentions m JOIN names n ON n.id = m.name_id
		WHERE m.doc_id = ? AND n.type IN ('时间', 'time') ORDER BY m.start`, id)
	if err != nil {
		return nil, err
	}
	defer trows.Close()
	for trows.Next() {
		var t store.Dated
		if err := trows.Scan(&t.ID, &t.Start, &t.End); err != nil {
			return nil, err
		}
		d.Times = append(d.Times, t)
	}
	if err := trows.Err(); err != nil {
		return nil, err
	}
	prows, err := s.db.QueryContext(ctx, `SELECT n.id, COALESCE(n.entity_id, 0), n.name, m.start, m.end FROM mentions m
		JOIN names n ON n.id = m.name_id WHERE m.doc_id = ? AND n.type IN ('人物', 'person') ORDER BY m.start`, id)
	if err != nil {
		return nil, err
	}
	defer prows.Close()
	for prows.Next() {
		var p store.PersonMention
		if err := prows.Scan(&p.NameID, &p.EntityID, &p.Name, &p.Start, &p.End); err != nil {
			return nil, err
		}
		d.People = append(d.People, p)
	}
	if err := prows.Err(); err != nil {
		return nil, err
	}
	crows, err := s.db.QueryContext(ctx, "SELECT id, start, end, section FROM chunks WHERE doc_id = ? ORDER BY seq", id)
	if err != nil {
		return nil, err
	}
	defer crows.Close()
	for crows.Next() {
		var c store.Dated
		if err := crows.Scan(&c.ID, &c.Start, &c.End, &c.Section); err != nil {
			return nil, err
		}
		d.Chunks = append(d.Chunks, c)
	}
	return d, crows.Err()
}

// evidenceDate is how an evidence row is dated, as stored.
type evidenceDate struct {
	year, end, reignName, reignYear sql.NullInt64
	prec, expr, reign               sql.NullString
}

// dateOf is how e is to be stored.
func dateOf(e store.Dated) evidenceDate {
	var d evidenceDate
	if e.Dated {
		d.year = sql.NullInt64{Int64: int64(e.Year), Valid: true}
		d.end = sql.NullInt64{Int64: int64(e.EndYear), Valid: true}
		d.prec = sql.NullString{String: e.Precision, Valid: true}
		d.expr = sql.NullString{String: e.Expr, Valid: true}
	}
	if e.Reign != "" {
		d.prec = sql.NullString{String: e.Precision, Valid: true}
		d.expr = sql.NullString{String: e.Expr, Valid: true}
		d.reign = sql.NullString{String: e.Reign, Valid: true}
		d.reignYear = sql.NullInt64{Int64: int64(e.ReignYear), Valid: true}
		if e.ReignName > 0 {
			d.reignName = sql.NullInt64{Int64: e.ReignName, Valid: true}
		}
	}
	return d
}

// SetDates writes the years of a document's evidence and chunks and records
// the step as done, in one transaction. Only what changed is written: on a
// first indexing half the evidence has no time, which it had already, and
// dating again after a change of rules moves few.
func (s *DB) SetDates(ctx context.Context, d *store.DatedDoc, step, version string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stored := map[int64]evidenceDate{}
	err = scanRows(ctx, tx, `SELECT id, year, end_year, precision, time_expr, reign, reign_name, reign_year FROM evidence
		WHERE doc_id = ? AND (time_expr IS NOT NULL OR year IS NOT NULL OR reign IS NOT NULL)`,
		[]any{d.ID}, func(rows *sql.Rows) error {
			var id int64
			var x evidenceDate
			if err := rows.Scan(&id, &x.year, &x.end, &x.prec, &x.expr, &x.reign, &x.reignName, &x.reignYear); err != nil {
				return err
			}
			stored[id] = x
			return nil
		})
	if err != nil {
		return fmt.Errorf("read evidence dates: %w", err)
	}
	// Rows of VALUES are typed by their casts (PostgreSQL reads a bare
	// parameter there as text) and joined to the table by id.
	up := newBatch(tx, `UPDATE evidence SET year = v.column2, end_year = v.column3, precision = v.column4, time_expr = v.column5,
		reign = v.column6, reign_name = v.column7, reign_year = v.column8 FROM (VALUES `,
		`(CAST(? AS BIGINT), CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS INTEGER))`,
		`) AS v WHERE evidence.id = v.column1`)
	defer up.close()
	for _, e := range d.Evidence {
		x := dateOf(e)
		if stored[e.ID] == x { // an undated row is stored as all NULL, evidenceDate{}
			continue
		}
		if err := up.add(ctx, e.ID, x.year, x.end, x.prec, x.expr, x.reign, x.reignName, x.reignYear); err != nil {
			return fmt.Errorf("date evidence: %w", err)
		}
	}
	if err := up.flush(ctx); err != nil {
		return fmt.Errorf("date evidence: %w", err)
	}
	years := map[int64]sql.NullInt64{}
	err = scanRows(ctx, tx, `SELECT id, year FROM mentions WHERE doc_id = ? AND year IS NOT NULL`, []any{d.ID}, func(rows *sql.Rows) error {
		var id int64
		var y sql.NullInt64
		if err := rows.Scan(&id, &y); err != nil {
			return err
		}
		years[id] = y
		return nil
	})
	if err != nil {
		return fmt.Errorf("read mention years: %w", err)
	}
	mt := newBatch(tx, "UPDATE mentions SET year = v.column2 FROM (VALUES ", "(CAST(? AS BIGINT), CAST(? AS INTEGER))", ") AS v WHERE mentions.id = v.column1")
	defer mt.close()
	for _, t := range d.Times {
		var year sql.NullInt64
		if t.Dated {
			year = sql.NullInt64{Int64: int64(t.Year), Valid: true}
		}
		if years[t.ID] == year {
			continue
		}
		if err := mt.add(ctx, t.ID, year); err != nil {
			return fmt.Errorf("date time mention: %w", err)
		}
	}
	if err := mt.flush(ctx); err != nil {
		return fmt.Errorf("date time mention: %w", err)
	}
	// A chunk's years: those it has and no longer speaks of go, new ones
	// come.
	type chunkYear struct {
		chunk int64
		year  int
	}
	had := map[chunkYear]bool{}
	err = scanRows(ctx, tx, `SELECT chunk_id, year FROM chunk_years WHERE chunk_id IN (SELECT id FROM chunks WHERE doc_id = ?)`,
		[]any{d.ID}, func(rows *sql.Rows) error {
			var cy chunkYear
			if err := rows.Scan(&cy.chunk, &cy.year); err != nil {
				return err
			}
			had[cy] = true
			return nil
		})
	if err != nil {
		return fmt.Errorf("read chunk years: %w", err)
	}
	cy := newBatch(tx, "INSERT INTO chunk_years(chunk_id, year) VALUES ", "(?, ?)", " ON CONFLICT DO NOTHING")
	defer cy.close()
	for _, c := range d.Chunks {
		for _, y := range c.Years {
			k := chunkYear{c.ID, y}
			if had[k] {
				delete(had, k)
				continue
			}
			if err := cy.add(ctx, c.ID, y); err != nil {
				return fmt.Errorf("index chunk years: %w", err)
			}
		}
	}
	if err := cy.flush(ctx); err != nil {
		return fmt.Errorf("index chunk years: %w", err)
	}
	for k := range had {
		if _, err := tx.ExecContext(ctx, "DELETE FROM chunk_years WHERE chunk_id = ? AND year = ?", k.chunk, k.year); err != nil {
			return fmt.Errorf("index chunk years: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO steps(doc_id, step, version) VALUES(?, ?, ?) ON CONFLICT(doc_id, step) DO UPDATE SET version = excluded.version", d.ID, step, version); err != nil {
		return err
	}
	return tx.Commit()
}

// scanRows runs a query in tx and calls each with every row.
func scanRows(ctx context.Context, tx *txn, q string, args []any, each func(*sql.Rows) error) error {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := each(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Timeline lists dated facts in year order, then the facts dated only
// within a reign, by ruler and year of the reign: those of one entity (and,
// for a ruler, those dated in its reign), or those within a window of
// years, optionally of one relation type.
func (s *DB) Timeline(ctx context.Context, q store.TimelineQuery) ([]store.TimelineItem, error) {
	where := []string{"(e.year IS NOT NULL OR e.reign IS NOT NULL)", "e.kept = 1"}
	var args []any
	if q.EntityID > 0 {
		where = append(where, `e.id IN (
			SELECT x.id FROM evidence x JOIN relations r ON r.id = x.relation_id WHERE r.head_id = ?
			UNION SELECT x.id FROM evidence x JOIN relations r ON r.id = x.relation_id WHERE r.tail_id = ?
			UNION SELECT x.id FROM evidence x WHERE x.reign_name IN (SELECT id FROM names WHERE entity_id = ?))`)
		args = append(args, q.EntityID, q.EntityID, q.EntityID)
	}
	if q.From != nil {
		where = append(where, "e.year >= ?")
		args = append(args, *q.From)
	}
	if q.To != nil {
		where = append(where, "e.year <= ?")
		args = append(args, *q.To)
	}
	if q.Type != "" {
		where = append(where, "r.type = ?")
		args = append(args, q.Type)
	} else {
		// That two names name one man is no event: a timeline asked for
		// no type in particular leaves it out (曹操 also called 曹公).
		where = append(where, "r.type NOT IN ("+valuesList("?", len(kg.AliasRelations))+")")
		for _, t := range kg.AliasRelations {
			args = append(args, t)
		}
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 200
	}
	args = append(args, limit, max(q.Offset, 0))
	rows, err := s.db.QueryContext(ctx, `
		SELECT e.year, e.end_year, COALESCE(e.precision, ''), COALESCE(e.time_expr, ''),
			e.reign, COALESCE(rn.entity_id, 0), e.reign_year,
			r.id, r.head_id, h.name, h.type, r.type, r.tail_id, t.name, t.type, r.status, r.score, r.extractor,
			e.doc_id, d.key, d.title, d.section, e.chunk_id, e.start, e.end, e.head_start, e.head_end, e.tail_start, e.tail_end,
			e.sentence, COALESCE(e.sentence_norm, e.sentence)
		FROM evidence e JOIN relations r ON r.id = e.relation_id
		JOIN entities h ON h.id = r.head_id JOIN entities t ON t.id = r.tail_id JOIN documents d ON d.id = e.doc_id
		LEFT JOIN names rn ON rn.id = e.reign_name
		WHERE `+joinAnd(where)+`
		ORDER BY e.year IS NULL, e.year, CASE WHEN rn.entity_id IS NOT NULL THEN 1 WHEN e.reign IS NOT NULL THEN 2 ELSE 0 END,
			rn.entity_id, e.reign, e.reign_year IS NOT NULL, e.reign_year, d.key, e.start, r.type, h.name, t.name, e.head_start, e.tail_start LIMIT ? OFFSET ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("timeline: %w", err)
	}
	defer rows.Close()
	var out []store.TimelineItem
	for rows.Next() {
		var it store.TimelineItem
		var year, end, reignYear sql.NullInt64
		var reign sql.NullString
		var rulerID int64
		var score sql.NullFloat64
		var title, section string
		f, c := &it.Fact, &it.Citation
		if err := rows.Scan(&year, &end, &it.Precision, &it.Expression, &reign, &rulerID, &reignYear,
			&f.ID, &f.HeadID, &f.Head, &f.HeadType, &f.Type, &f.TailID, &f.Tail, &f.TailType, &f.Status, &score, &f.Extractor,
			&c.DocID, &c.DocKey, &title, &section, &c.ChunkID, &c.Start, &c.End, &c.Head.Start, &c.Head.End, &c.Tail.Start, &c.Tail.End,
			&c.Sentence, &c.Norm); err != nil {
			return nil, err
		}
		if year.Valid {
			y := int(year.Int64)
			it.Year = &y
			if end.Valid && int(end.Int64) != y {
				v := int(end.Int64)
				it.EndYear = &v
			}
		}
		if reign.Valid {
			it.Reign = &store.Reign{Ruler: reign.String, RulerID: rulerID, Year: int(reignYear.Int64)}
		}
		if score.Valid {
			v := score.Float64
			f.Score = &v
		}
		c.Cite = kg.Cite(splitSection(section), title, c.DocKey)
		out = append(out, it)
	}
	return out, rows.Err()
}

// EntityDocs counts, for every person entity, its mentions in each
// document: where a person is mostly written about says which dynasty or
// state they belong to.
func (s *DB) EntityDocs(ctx context.Context) ([]store.EntityDoc, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT n.entity_id, d.section, d.key, COUNT(*) FROM mentions m
		JOIN names n ON n.id = m.name_id JOIN documents d ON d.id = m.doc_id
		WHERE n.entity_id IS NOT NULL AND n.type IN ('人物', 'person') GROUP BY n.entity_id, d.id`)
	if err != nil {
		return nil, fmt.Errorf("count mentions per document: %w", err)
	}
	defer rows.Close()
	var out []store.EntityDoc
	for rows.Next() {
		var e store.EntityDoc
		if err := rows.Scan(&e.EntityID, &e.Section, &e.Key, &e.Mentions); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// ChunksInYears lists the chunks that speak of a year within [from, to].
func (s *DB) ChunksInYears(ctx context.Context, from, to int) ([]int64, error) {
	ids, err := s.ids(ctx, "SELECT DISTINCT chunk_id FROM chunk_years WHERE year BETWEEN ? AND ? ORDER BY chunk_id", from, to)
	if err != nil {
		return nil, fmt.Errorf("chunks in years: %w", err)
	}
	return ids, nil
}

func joinAnd(parts []string) string {
	out := parts[0]
	for _, p := range parts[1:] {
		out += " AND " + p
	}
	return out
}

// FactYears reads the years of an entity's dated facts of the given types,
// where it is the head: relation type → one year per evidence sentence,
// with the document that states it.
func (s *DB) FactYears(ctx context.Context, entityID int64, types []string) (map[string][]store.FactYear, error) {
	if len(types) == 0 {
		return nil, nil
	}
	args := []any{entityID}
	marks := make([]string, len(types))
	for i, t := range types {
		marks[i] = "?"
		args = append(args, t)
	}
	rows, err := s.query(ctx, `SELECT r.type, e.year, e.doc_id, COALESCE(e.sentence_norm, e.sentence)
		FROM relations r JOIN evidence e ON e.relation_id = r.id
		WHERE r.head_id = ? AND r.type IN (`+strings.Join(marks, ",")+`) AND e.year IS NOT NULL AND e.kept = 1
		ORDER BY e.id`, args...)
	if err != nil {
		return nil, fmt.Errorf("read fact years: %w", err)
	}
	defer rows.Close()
	out := map[string][]store.FactYear{}
	for rows.Next() {
		var t string
		var f store.FactYear
		if err := rows.Scan(&t, &f.Year, &f.Doc, &f.Sentence); err != nil {
			return nil, err
		}
		out[t] = append(out[t], f)
	}
	return out, rows.Err()
}

// OwnDocuments returns a person's own chapters: the documents whose title
// holds one of the entity's names of two characters or more (先主传 for
// 刘备, 吴主传 for 孙权, 高祖本纪 and 高帝纪 for 刘邦), and those that
// open his part with the formula that introduces a man, his name and his
// 字 (匡衡字稚圭 in 匡张孔马传, whose title names him by surname only).
// The titles are matched here rather than in SQL, where every title
// against every name of a much-named person (刘邦 has scores) cost
// milliseconds.
func (s *DB) OwnDocuments(ctx context.Context, entityID int64) (map[int64]bool, error) {
	out, err := s.ownByTitle(ctx, entityID)
	if err != nil {
		return nil, err
	}
	// alias_kind != '' names the partial index of alias sentences, which
	// SQLite does not infer from alias_kind = '字'.
	rows, err := s.query(ctx, `SELECT e.doc_id, h.name, t.name, COALESCE(e.sentence_norm, e.sentence)
		FROM names h JOIN evidence e ON e.head_name = h.id JOIN names t ON t.id = e.tail_name
		WHERE h.entity_id = ? AND e.alias_kind != '' AND e.alias_kind = '字' AND e.kept = 1`, entityID)
	if err != nil {
		return nil, fmt.Errorf("read an entity's 字 sentences: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var doc int64
		var name, zi, sentence string
		if err := rows.Scan(&doc, &name, &zi, &sentence); err != nil {
			return nil, err
		}
		if strings.HasPrefix(sentence, name+"字"+zi) {
			out[doc] = true
		}
	}
	return out, rows.Err()
}

func (s *DB) ownByTitle(ctx context.Context, entityID int64) (map[int64]bool, error) {
	names, err := s.query(ctx, `SELECT name FROM entities WHERE id = ?1 UNION SELECT alias FROM aliases WHERE entity_id = ?1`, entityID)
	if err != nil {
		return nil, fmt.Errorf("read an entity's names: %w", err)
	}
	var ns []string
	for names.Next() {
		var n string
		if err := names.Scan(&n); err != nil {
			names.Close()
			return nil, err
		}
		if utf8.RuneCountInString(n) >= 2 {
			ns = append(ns, n)
		}
	}
	names.Close()
	if err := names.Err(); err != nil || len(ns) == 0 {
		return map[int64]bool{}, err
	}
	docs, err := s.DocumentsTitled(ctx, ns)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]bool, len(docs))
	for _, d := range docs {
		out[d] = true
	}
	return out, nil
}
