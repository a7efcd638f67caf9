package annals

import (
	"context"
	"slices"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/store/sqlstore"
)

// RAG-augmented extraction (seed 000): before the LLM reads a chunk, the
// graph is asked what it already holds about the entities the chunk names,
// and those facts go into the prompt as context, not to be copied.
const (
	ragEntities    = 6 // the chunk's most mentioned known entities
	ragFacts       = 4 // the best-attested facts of each
	ragLongestName = 6 // characters: candidate names run from 2 to this
)

// ragExtractor gives an extractor the known facts of each text's entities.
type ragExtractor struct {
	extract.Extractor
	db *sqlstore.DB
}

// Version changes with the inner extractor's and with the augmentation.
func (r ragExtractor) Version() string { return r.Extractor.Version() + "+rag" }

// VersionFor keeps the inner extractor's versions per language.
func (r ragExtractor) VersionFor(lang string) string {
	if v, ok := r.Extractor.(interface{ VersionFor(string) string }); ok {
		return v.VersionFor(lang) + "+rag"
	}
	return r.Version()
}

func (r ragExtractor) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	known, err := knownFacts(ctx, r.db, in.Text)
	if err != nil {
		return extract.Result{}, err
	}
	in.Known = append(in.Known[:len(in.Known):len(in.Known)], known...)
	return r.Extractor.Extract(ctx, in)
}

// knownFacts finds the entities a text names, by every name, alias and
// form of name the graph holds of two characters or more, and states the
// best-attested facts of the most mentioned of them.
func knownFacts(ctx context.Context, db *sqlstore.DB, text string) ([]string, error) {
	rs := []rune(text)
	seen := map[string]bool{}
	var cands []string
	for i := range rs {
		for n := 2; n <= ragLongestName && i+n <= len(rs); n++ {
			s := string(rs[i : i+n])
			if !seen[s] {
				seen[s] = true
				cands = append(cands, s)
			}
		}
	}
	matches, err := db.MatchNames(ctx, cands)
	if err != nil {
		return nil, err
	}
	type hit struct {
		id       int64
		mentions int
	}
	var hits []hit
	ids := map[int64]bool{}
	for _, m := range matches {
		if !ids[m.Entity.ID] {
			ids[m.Entity.ID] = true
			hits = append(hits, hit{m.Entity.ID, m.Entity.Mentions})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return b.mentions - a.mentions })
	var out []string
	for _, h := range hits[:min(ragEntities, len(hits))] {
		rels, err := db.Relations(ctx, h.id, ragFacts)
		if err != nil {
			return nil, err
		}
		for _, r := range rels {
			line := r.Head + " " + r.Type + " " + r.Tail
			if !slices.Contains(out, line) {
				out = append(out, line)
			}
		}
	}
	return out, nil
}
