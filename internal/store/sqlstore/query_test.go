package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// factDoc is a chapter of one sentence, 诸葛亮字孔明琅邪阳都人也, stating each
// (head, relation, tail) of facts there.
func factDoc(key string, facts ...[3]string) store.DocWrite {
	w := chunked(key, "诸葛亮字孔明琅邪阳都人也", "", nil, 20, 0)
	for i, f := range facts {
		w.Facts = append(w.Facts, store.ChunkFacts{Seq: 0, Evidence: []store.Statement{{
			Relation: f[1],
			// Distinct spans: one document states each fact once.
			Head:     store.NameSpan{Name: f[0], Type: "人物", Start: i, End: i + 1},
			Tail:     store.NameSpan{Name: f[2], Type: "人物", Start: i + 1, End: i + 2},
			Sentence: kg.Span{Start: 0, End: 12},
		}}})
	}
	w.Extractor = "pattern"
	return w
}

// relate makes the stored names entities and their evidence relations, one
// for each head, type and tail, supported by its sentences, as alignment
// would.
func relate(t *testing.T, ctx context.Context, db *DB) {
	t.Helper()
	linkNames(t, ctx, db)
	for _, q := range []string{
		"DELETE FROM relations",
		`INSERT INTO relations(head_id, type, tail_id, status, extractor, created_at, support)
			SELECT h.entity_id, e.rtype, t.entity_id, 'extracted', 'pattern', '', count(*)
			FROM evidence e JOIN names h ON h.id = e.head_name JOIN names t ON t.id = e.tail_name
			GROUP BY h.entity_id, e.rtype, t.entity_id`,
		`UPDATE evidence SET relation_id = (SELECT r.id FROM relations r, names h, names t
			WHERE h.id = evidence.head_name AND t.id = evidence.tail_name
			AND r.head_id = h.entity_id AND r.type = evidence.rtype AND r.tail_id = t.entity_id)`,
	} {
		if _, err := db.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func listed(rels []kg.Relation) []string {
	var out []string
	for _, r := range rels {
		out = append(out, fmt.Sprintf("%s %s %s %d", r.Head, r.Type, r.Tail, r.Support))
	}
	return out
}

// An entity's relations, as head or tail, come best supported first, then
// by type; the types a question asks for come before all others; the
// sentences are cited by their chapters, including a chapter written
// after the first page was read.
func TestRelationsRankedAndCited(t *testing.T) {
	eachEngine(t, func(t *testing.T, ctx context.Context, db *DB) {
		liang := [][3]string{{"诸葛亮", "籍贯", "琅邪"}, {"诸葛亮", "任官", "丞相"}, {"诸葛珪", "子女", "诸葛亮"}}
		if err := db.WriteDocs(ctx, []store.DocWrite{
			factDoc("三国志/蜀书/诸葛亮传/text.txt", liang...),
			factDoc("三国志/蜀书/先主传/text.txt", liang[1], liang[2], [3]string{"刘备", "任官", "汉中王"}),
		}); err != nil {
			t.Fatal(err)
		}
		relate(t, ctx, db)
		id := linkNames(t, ctx, db)

		rels, err := db.RelationList(ctx, id, 10)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"诸葛亮 任官 丞相 2", "诸葛珪 子女 诸葛亮 2", "诸葛亮 籍贯 琅邪 1"}
		if got := listed(rels); !slices.Equal(got, want) {
			t.Fatalf("relations: %q; want %q", got, want)
		}
		if rels, err = db.RelationList(ctx, id, 1); err != nil || len(rels) != 1 || rels[0].Tail != "丞相" {
			t.Fatalf("the first one: %q, %v", listed(rels), err)
		}
		facts, err := db.Facts(ctx, id, []string{"籍贯"}, 10)
		if err != nil {
			t.Fatal(err)
		}
		if got := listed(facts); len(got) != 3 || got[0] != "诸葛亮 籍贯 琅邪 1" || got[1] != want[0] {
			t.Fatalf("facts asking 籍贯: %q", got)
		}
		if facts[0].Evidence[0].Cite == "" || facts[0].Evidence[0].DocKey != "三国志/蜀书/诸葛亮传/text.txt" {
			t.Fatalf("籍贯 cited as %+v", facts[0].Evidence[0])
		}

		if err := db.WriteDocs(ctx, []store.DocWrite{factDoc("三国志/蜀书/诸葛亮传二/text.txt", [3]string{"诸葛亮", "籍贯", "琅邪"})}); err != nil {
			t.Fatal(err)
		}
		relate(t, ctx, db)
		rels, err = db.Relations(ctx, id, 10)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, r := range rels {
			if r.Type != "籍贯" {
				continue
			}
			for _, ev := range r.Evidence {
				if ev.Cite == "" {
					t.Errorf("%s cited by nothing", ev.DocKey)
				}
				keys = append(keys, ev.DocKey)
			}
		}
		if !slices.Contains(keys, "三国志/蜀书/诸葛亮传二/text.txt") || len(keys) != 2 {
			t.Fatalf("籍贯's sentences are from %q; want both chapters", keys)
		}
	})
}
