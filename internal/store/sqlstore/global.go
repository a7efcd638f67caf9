package sqlstore

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// DocumentsTitled lists the documents whose title holds one of the terms
// (酷吏 finds 酷吏列传 and 酷吏传), in id order.
func (s *DB) DocumentsTitled(ctx context.Context, terms []string) ([]int64, error) {
	if len(terms) == 0 {
		return nil, nil
	}
	docs, err := s.docHeads(ctx)
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, d := range docs {
		for _, t := range terms {
			if t != "" && strings.Contains(d.title, t) {
				out = append(out, d.id)
				break
			}
		}
	}
	return out, nil
}

// docHead is what pages show of a document without its text: its id,
// key, title and how it is cited.
type docHead struct {
	id               int64
	key, title, cite string
}

// docHeads are every document's head, in order of id, read again only when
// something was committed since: every entity page looks its own chapters
// up by title and cites the documents its sentences come from.
func (s *DB) docHeads(ctx context.Context) ([]docHead, error) {
	v, err := s.DataVersion(ctx)
	if err != nil {
		return nil, err
	}
	return s.headCache.Get(v, func() ([]docHead, error) {
		rows, err := s.query(ctx, `SELECT id, key, title, section FROM documents ORDER BY id`)
		if err != nil {
			return nil, fmt.Errorf("read document titles: %w", err)
		}
		defer rows.Close()
		var out []docHead
		for rows.Next() {
			var d docHead
			var section string
			if err := rows.Scan(&d.id, &d.key, &d.title, &section); err != nil {
				return nil, fmt.Errorf("read document titles: %w", err)
			}
			d.cite = kg.Cite(splitSection(section), d.title, d.key)
			out = append(out, d)
		}
		return out, rows.Err()
	})
}

// cited finds how each of the documents ids is cited, from docHeads; a
// document committed since they were read is looked up.
func (s *DB) cited(ctx context.Context, ids []int64) (map[int64]docCitation, error) {
	heads, err := s.docHeads(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]docCitation, len(ids))
	var missing []int64
	for _, id := range ids {
		i, ok := slices.BinarySearchFunc(heads, id, func(d docHead, id int64) int { return cmp.Compare(d.id, id) })
		if !ok {
			missing = append(missing, id)
			continue
		}
		out[id] = docCitation{heads[i].key, heads[i].cite}
	}
	if len(missing) > 0 {
		more, err := citations(ctx, s.query, missing)
		if err != nil {
			return nil, err
		}
		maps.Copy(out, more)
	}
	return out, nil
}

// EntitiesIn counts the mentions of each entity in the given documents,
// most mentioned first, with its first mention there.
func (s *DB) EntitiesIn(ctx context.Context, docs []int64, limit int) ([]store.EntityCount, error) {
	if len(docs) == 0 {
		return nil, nil
	}
	rows, err := s.query(ctx, `WITH d(id) AS (SELECT CAST(value AS BIGINT) FROM json_each(?1)),
		hit AS (SELECT n.entity_id AS eid, m.doc_id, m.chunk_id, m.start, m.end FROM mentions m
			JOIN names n ON n.id = m.name_id WHERE m.doc_id IN (SELECT id FROM d) AND n.entity_id IS NOT NULL),
		c AS (SELECT eid, count(*) AS n, min(doc_id * 100000000 + start) AS first FROM hit GROUP BY eid)
		SELECT `+entityColumns+`, c.n, hit.doc_id, hit.chunk_id, hit.start, hit.end FROM c
		JOIN entities e ON e.id = c.eid
		JOIN hit ON hit.eid = c.eid AND hit.doc_id * 100000000 + hit.start = c.first
		ORDER BY c.n DESC, e.id LIMIT ?2`, idList(docs), limit)
	if err != nil {
		return nil, fmt.Errorf("count the entities of documents: %w", err)
	}
	defer rows.Close()
	var out []store.EntityCount
	seen := map[int64]bool{}
	for rows.Next() {
		var c store.EntityCount
		if err := rows.Scan(append(entityDest(&c.Entity), &c.Count, &c.DocID, &c.ChunkID, &c.Start, &c.End)...); err != nil {
			return nil, err
		}
		if seen[c.Entity.ID] { // two names of one entity at one offset
			continue
		}
		seen[c.Entity.ID] = true
		out = append(out, c)
	}
	return out, rows.Err()
}

// EntityYears are the years of the dated chunks that mention each entity,
// one per mention: when in the corpus's time an entity stands.
func (s *DB) EntityYears(ctx context.Context, ids []int64) (map[int64][]int, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := s.query(ctx, `SELECT n.entity_id, cy.year FROM names n
		JOIN mentions m ON m.name_id = n.id JOIN chunk_years cy ON cy.chunk_id = m.chunk_id
		WHERE n.entity_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`, idList(ids))
	if err != nil {
		return nil, fmt.Errorf("read the years of entities: %w", err)
	}
	defer rows.Close()
	out := map[int64][]int{}
	for rows.Next() {
		var id int64
		var y int
		if err := rows.Scan(&id, &y); err != nil {
			return nil, err
		}
		out[id] = append(out[id], y)
	}
	return out, rows.Err()
}

// PersonNames are the names and aliases of every person, of two
// characters or more.
func (s *DB) PersonNames(ctx context.Context) ([]string, error) {
	rows, err := s.query(ctx, `SELECT name FROM entities WHERE type IN ('人物', 'person') AND length(name) >= 2
		UNION SELECT a.alias FROM aliases a JOIN entities e ON e.id = a.entity_id WHERE e.type IN ('人物', 'person') AND length(a.alias) >= 2`)
	if err != nil {
		return nil, fmt.Errorf("read person names: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}
