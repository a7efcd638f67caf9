package sqlstore

import (
	"context"
	"testing"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// attributeDoc is a document whose facts name 诸葛亮 and say his 字 twice
// (once in each chunk) and his 生卒 once.
func attributeDoc(withAttrs bool) store.DocWrite {
	w := chunked("三国志/蜀书/诸葛亮传/text.txt", "諸葛亮字孔明，琅邪陽都人也。亮字孔明。", "诸葛亮字孔明，琅邪阳都人也。亮字孔明。", nil, 14, 0)
	zhuge := store.NameSpan{Name: "诸葛亮", Type: "人物", Start: 0, End: 3, Surface: "諸葛亮"}
	liang := store.NameSpan{Name: "诸葛亮", Type: "人物", Start: 14, End: 15, Surface: "亮"}
	w.Facts = []store.ChunkFacts{{Seq: 0, Mentions: []store.NameSpan{zhuge}}, {Seq: 1, Mentions: []store.NameSpan{liang}}}
	if withAttrs {
		w.Facts[0].Attributes = []store.AttributeFact{
			{Entity: zhuge, Attribute: "字", Value: "孔明", At: kg.Span{Start: 4, End: 6}, Sentence: kg.Span{Start: 0, End: 14}},
			{Entity: zhuge, Attribute: "籍贯", Value: "琅邪陽都", At: kg.Span{Start: 7, End: 11}, Sentence: kg.Span{Start: 0, End: 14}},
		}
		w.Facts[1].Attributes = []store.AttributeFact{
			{Entity: liang, Attribute: "字", Value: "孔明", At: kg.Span{Start: 16, End: 18}, Sentence: kg.Span{Start: 14, End: 19}},
		}
	}
	w.Extractor = "llm"
	return w
}

// linkNames makes every stored name an entity of its own, as alignment
// would, and returns the id of 诸葛亮's.
func linkNames(t *testing.T, ctx context.Context, db *DB) int64 {
	t.Helper()
	for _, q := range []string{
		"INSERT INTO entities(name, type) SELECT name, type FROM names WHERE true ON CONFLICT DO NOTHING",
		"UPDATE names SET entity_id = (SELECT id FROM entities e WHERE e.name = names.name AND e.type = names.type)",
	} {
		if _, err := db.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var id int64
	if err := db.QueryRow(ctx, "SELECT id FROM entities WHERE name = '诸葛亮'").Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func TestAttributesStoredReadAndRemoved(t *testing.T) {
	eachEngine(t, func(t *testing.T, ctx context.Context, db *DB) {
		if err := db.WriteDocs(ctx, []store.DocWrite{attributeDoc(true)}); err != nil {
			t.Fatal(err)
		}
		if n := count(t, db, "SELECT count(*) FROM entity_attributes"); n != 3 {
			t.Fatalf("%d attribute rows", n)
		}
		id := linkNames(t, ctx, db)
		attrs, err := db.Attributes(ctx, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(attrs) != 2 {
			t.Fatalf("attributes %+v", attrs)
		}
		zi := attrs[0]
		if zi.Kind != "字" || zi.Value != "孔明" || zi.Support != 2 || zi.Entity != "诸葛亮" || zi.EntityID != id || zi.Extractor != "llm" {
			t.Fatalf("字 %+v", zi)
		}
		ev := zi.Evidence
		if ev == nil || ev.Start != 0 || ev.End != 14 || ev.Head != (kg.Span{Start: 0, End: 3}) || ev.Tail != (kg.Span{Start: 4, End: 6}) ||
			ev.Sentence != "諸葛亮字孔明，琅邪陽都人也。" || ev.Norm != "诸葛亮字孔明，琅邪阳都人也。" ||
			ev.Cite != "《三国志·蜀书·诸葛亮传》" || ev.DocKey != "三国志/蜀书/诸葛亮传/text.txt" || ev.ChunkID == 0 {
			t.Fatalf("字's evidence %+v", ev)
		}
		if attrs[1].Kind != "籍贯" || attrs[1].Value != "琅邪陽都" || attrs[1].Support != 1 {
			t.Fatalf("籍贯 %+v", attrs[1])
		}

		// Re-extracting the document replaces its attributes.
		if err := db.WriteDocs(ctx, []store.DocWrite{attributeDoc(false)}); err != nil {
			t.Fatal(err)
		}
		if n := count(t, db, "SELECT count(*) FROM entity_attributes"); n != 0 {
			t.Fatalf("%d attribute rows after re-extraction", n)
		}
		// Removing the document removes them.
		if err := db.WriteDocs(ctx, []store.DocWrite{attributeDoc(true)}); err != nil {
			t.Fatal(err)
		}
		var doc int64
		if err := db.QueryRow(ctx, "SELECT id FROM documents").Scan(&doc); err != nil {
			t.Fatal(err)
		}
		if err := db.RemoveDocument(ctx, doc); err != nil {
			t.Fatal(err)
		}
		if n := count(t, db, "SELECT count(*) FROM entity_attributes"); n != 0 {
			t.Fatalf("%d attribute rows after removal", n)
		}
	})
}

// A store made before attributes were kept gets, as it migrates, the
// names its evidence gives a kind that is an attribute.
func TestMigrationCopiesNamedAliasesIntoAttributes(t *testing.T) {
	eachEngine(t, func(t *testing.T, ctx context.Context, db *DB) {
		w := attributeDoc(false)
		zhuge := w.Facts[0].Mentions[0]
		kongming := store.NameSpan{Name: "孔明", Type: "人物", Start: 4, End: 6, Surface: "孔明"}
		langya := store.NameSpan{Name: "琅邪阳都", Type: "地点", Start: 7, End: 11, Surface: "琅邪陽都"}
		w.Facts[0].Evidence = []store.Statement{
			{Relation: "别称", Head: zhuge, Tail: kongming, Sentence: kg.Span{Start: 0, End: 14}, AliasKind: "字"},
			{Relation: "籍贯", Head: zhuge, Tail: langya, Sentence: kg.Span{Start: 0, End: 14}},
		}
		if err := db.WriteDocs(ctx, []store.DocWrite{w}); err != nil {
			t.Fatal(err)
		}
		// Back to the store as it was: no attributes table.
		back := []string{"DROP TABLE entity_attributes", "DROP INDEX documents_title", "PRAGMA user_version = 12"}
		if db.Postgres() {
			back = []string{back[0], "UPDATE schema_version SET version = 2"}
		}
		for _, q := range back {
			if _, err := db.Exec(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		again := reopen(t, db)
		id := linkNames(t, ctx, again)
		attrs, err := again.Attributes(ctx, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(attrs) != 1 || attrs[0].Kind != "字" || attrs[0].Value != "孔明" || attrs[0].Evidence.Tail != (kg.Span{Start: 4, End: 6}) {
			t.Fatalf("attributes after migrating: %+v", attrs)
		}
	})
}
