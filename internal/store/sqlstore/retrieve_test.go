package sqlstore

import (
	"context"
	"slices"
	"testing"

	"github.com/annals-project/annals/internal/store"
)

// A chunk of a normalised document is read with its original characters,
// whether the chunk stored them (written now) or they come from the
// document (chunks written before the column existed).
func TestPassagesKeepOriginalCharacters(t *testing.T) {
	eachEngine(t, func(t *testing.T, ctx context.Context, db *DB) {
		writes := []struct{ key, orig, norm string }{
			{"三国志/蜀书/诸葛亮传/text.txt", "諸葛亮字孔明。亮躬耕隴畝。", "诸葛亮字孔明。亮躬耕陇亩。"},
			{"史记/项羽本纪/text.txt", "项羽者，下相人也。", ""},
		}
		for _, w := range writes {
			if err := db.WriteDocs(ctx, []store.DocWrite{chunked(w.key, w.orig, w.norm, nil, 7, 0)}); err != nil {
				t.Fatal(err)
			}
		}
		if n := count(t, db, "SELECT count(*) FROM chunks WHERE orig IS NOT NULL"); n != 2 {
			t.Fatalf("%d chunks keep their original text, want the 2 of the normalised document", n)
		}
		check := func() {
			t.Helper()
			ids := chunkIDs(t, db)
			ps, err := db.Passages(ctx, ids)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{"诸葛亮字孔明。": "諸葛亮字孔明。", "亮躬耕陇亩。": "亮躬耕隴畝。"}
			if len(ps) != len(ids) {
				t.Fatalf("%d passages for %d chunks", len(ps), len(ids))
			}
			for i, p := range ps {
				orig, ok := want[p.Norm]
				if !ok {
					orig = p.Norm // not normalised
				}
				if p.ChunkID != ids[i] || p.Text != orig {
					t.Errorf("passage %d: %q read as %q", p.ChunkID, p.Norm, p.Text)
				}
			}
		}
		check()
		// As a workspace indexed before the column: read from the document.
		if _, err := db.db.ExecContext(ctx, "UPDATE chunks SET orig = NULL"); err != nil {
			t.Fatal(err)
		}
		check()
	})
}

func chunkIDs(t *testing.T, db *DB) []int64 {
	t.Helper()
	ids, err := db.ids(t.Context(), "SELECT id FROM chunks ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// Rewriting the last document's chunks reuses their ids; removing a
// document leaves the highest id alone: the generation moves either way.
func TestChunkGenerationMovesWithEveryChange(t *testing.T) {
	eachEngine(t, func(t *testing.T, ctx context.Context, db *DB) {
		gen := func() [2]int64 {
			t.Helper()
			a, b, err := db.ChunkGeneration(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return [2]int64{a, b}
		}
		g0 := gen()
		write := func(key, text string) {
			t.Helper()
			if err := db.WriteDocs(ctx, []store.DocWrite{chunked(key, text, "", nil, 5, 0)}); err != nil {
				t.Fatal(err)
			}
		}
		write("a/text.txt", "甲乙丙丁戊己庚")
		write("b/text.txt", "子丑寅卯辰")
		g1 := gen()
		write("b/text.txt", "午未申酉戌") // same length: same ids
		g2 := gen()
		doc, err := db.Document(ctx, "a/text.txt")
		if err != nil {
			t.Fatal(err)
		}
		if err := db.RemoveDocument(ctx, doc.ID); err != nil {
			t.Fatal(err)
		}
		g3 := gen()
		if g0 == g1 || g1 == g2 || g2 == g3 {
			t.Fatalf("generations %v %v %v %v", g0, g1, g2, g3)
		}
	})
}

// A person's own chapters are those whose title holds one of his names of
// two characters or more.
func TestOwnDocuments(t *testing.T) {
	eachEngine(t, func(t *testing.T, ctx context.Context, db *DB) {
		for _, key := range []string{"史记/高祖本纪/text.txt", "汉书/高帝纪/text.txt", "史记/项羽本纪/text.txt", "汉书/帝纪/text.txt"} {
			if err := db.WriteDocs(ctx, []store.DocWrite{chunked(key, "高祖，沛丰邑中阳里人。", "", nil, 20, 0)}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.db.ExecContext(ctx, `INSERT INTO entities(id, name, type) VALUES(1, '刘邦', '人物');
			INSERT INTO aliases(entity_id, alias, kind, source) VALUES(1, '高祖', '庙号', 'x'), (1, '高帝', '称号', 'x'), (1, '帝', '称号', 'x')`); err != nil {
			t.Fatal(err)
		}
		own, err := db.OwnDocuments(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		var titles []string
		for id := range own {
			var title string
			if err := db.db.QueryRowContext(ctx, "SELECT title FROM documents WHERE id = ?", id).Scan(&title); err != nil {
				t.Fatal(err)
			}
			titles = append(titles, title)
		}
		slices.Sort(titles)
		if !slices.Equal(titles, []string{"高帝纪", "高祖本纪"}) {
			t.Fatalf("own chapters %v, want 高帝纪 and 高祖本纪 (a one-character name such as 帝 names none)", titles)
		}
	})
}

// A chapter of several lives whose title names a man by surname only
// (匡张孔马传) is his own where it introduces him: his name, then his 字.
// One that names his 字 in passing is not.
func TestOwnDocumentsOpenedByTheFormula(t *testing.T) {
	eachEngine(t, func(t *testing.T, ctx context.Context, db *DB) {
		for _, w := range []store.DocWrite{
			chunked("汉书/传/匡张孔马传/text.txt", "匡衡字稚圭，东海承人也。", "", nil, 20, 0),
			chunked("汉书/传/儒林传/text.txt", "授匡衡，衡字稚圭。", "", nil, 20, 0),
		} {
			if err := db.WriteDocs(ctx, []store.DocWrite{w}); err != nil {
				t.Fatal(err)
			}
		}
		var own, other int64
		if err := db.db.QueryRowContext(ctx, "SELECT id FROM documents WHERE title = '匡张孔马传'").Scan(&own); err != nil {
			t.Fatal(err)
		}
		if err := db.db.QueryRowContext(ctx, "SELECT id FROM documents WHERE title = '儒林传'").Scan(&other); err != nil {
			t.Fatal(err)
		}
		if _, err := db.db.ExecContext(ctx, `INSERT INTO entities(id, name, type) VALUES(1, '匡衡', '人物');
			INSERT INTO names(id, name, type, entity_id) VALUES(1, '匡衡', '人物', 1), (2, '稚圭', '人物', 1), (3, '衡', '人物', 1)`); err != nil {
			t.Fatal(err)
		}
		// Parameters take one statement at a time in PostgreSQL.
		if _, err := db.db.ExecContext(ctx, `INSERT INTO evidence(doc_id, chunk_id, rtype, head_name, tail_name, head_start, head_end, tail_start, tail_end, start, end, extractor, alias_kind, sentence, kept)
			VALUES (?1, 0, '别称', 1, 2, 0, 2, 3, 5, 0, 12, 'x', '字', '匡衡字稚圭，东海承人也。', 1),
			       (?2, 0, '别称', 3, 2, 4, 5, 6, 8, 0, 9, 'x', '字', '授匡衡，衡字稚圭。', 1)`, own, other); err != nil {
			t.Fatal(err)
		}
		got, err := db.OwnDocuments(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !got[own] || got[other] || len(got) != 1 {
			t.Fatalf("own documents %v, want only %d (匡张孔马传)", got, own)
		}
	})
}

// Entities are found by how their names end, of the type asked, most
// mentioned first.
func TestEntitiesNamedEnding(t *testing.T) {
	eachEngine(t, func(t *testing.T, ctx context.Context, db *DB) {
		if _, err := db.db.ExecContext(ctx, `INSERT INTO entities(id, name, type, mentions) VALUES
			(1, '窦太后', '人物', 5), (2, '顺烈梁皇后', '人物', 9), (3, '窦宪', '人物', 40), (4, '皇后', '职官', 80), (5, '太后宫', '地点', 3)`); err != nil {
			t.Fatal(err)
		}
		got, err := db.EntitiesNamedEnding(ctx, "人物", []string{"皇后", "太后"}, 10)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range got {
			names = append(names, e.Name)
		}
		if !slices.Equal(names, []string{"顺烈梁皇后", "窦太后"}) {
			t.Fatalf("people named …皇后 or …太后: %v, want 顺烈梁皇后 then 窦太后", names)
		}
		if got, err := db.EntitiesNamedEnding(ctx, "人物", []string{"皇后", "太后"}, 1); err != nil || len(got) != 1 {
			t.Fatalf("limit 1: %v, %v", got, err)
		}
	})
}
