package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/annals-project/annals/internal/index"
	"github.com/annals-project/annals/internal/store"
)

// PostgreSQL has no Chinese tokenizer and no BM25: its lexical index is
// each chunk's terms (the project's own: Han bigrams, lowercased words)
// under a GIN index. The index finds every chunk holding a query term;
// the chunks' term lists then give BM25 exactly, for every chunk that
// holds a term is among them (so each term's chunk count is known too).

// searchPostgres is SearchChunks on PostgreSQL.
func (s *DB) searchPostgres(ctx context.Context, terms []string, limit int) ([]store.ChunkHit, error) {
	var chunks, total int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*), COALESCE(sum(cardinality(terms)), 0) FROM chunk_terms").Scan(&chunks, &total); err != nil {
		return nil, fmt.Errorf("search chunks: count terms: %w", err)
	}
	if chunks == 0 {
		return nil, nil
	}
	avg := float64(total) / float64(chunks)
	rows, err := s.db.QueryContext(ctx, `SELECT t.chunk_id, c.doc_id, array_to_string(t.terms, ' ') FROM chunk_terms t
		JOIN chunks c ON c.id = t.chunk_id WHERE t.terms && ?::text[]`, terms)
	if err != nil {
		return nil, fmt.Errorf("search chunks: %w", err)
	}
	defer rows.Close()
	type found struct {
		hit store.ChunkHit
		tf  []int // per query term
		dl  int
	}
	var all []found
	df := make([]int, len(terms))
	for rows.Next() {
		var f found
		var text string
		if err := rows.Scan(&f.hit.ChunkID, &f.hit.DocID, &text); err != nil {
			return nil, fmt.Errorf("search chunks: %w", err)
		}
		f.tf = make([]int, len(terms))
		for _, t := range strings.Split(text, " ") {
			f.dl++
			if i := slices.Index(terms, t); i >= 0 {
				f.tf[i]++
			}
		}
		for i, n := range f.tf {
			if n > 0 {
				df[i]++
			}
		}
		all = append(all, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("search chunks: %w", err)
	}
	idf := make([]float64, len(terms))
	for i := range terms {
		idf[i] = index.IDF(chunks, df[i])
	}
	out := make([]store.ChunkHit, len(all))
	for k, f := range all {
		for i, n := range f.tf {
			if n > 0 {
				f.hit.Score += index.TermScore(idf[i], n, f.dl, avg)
			}
		}
		out[k] = f.hit
	}
	slices.SortFunc(out, func(a, b store.ChunkHit) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return int(a.ChunkID - b.ChunkID)
	})
	return out[:min(limit, len(out))], nil
}
