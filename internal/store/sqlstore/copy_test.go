package sqlstore

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/index"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/store/sqlstore/sqltest"
)

// dump is every row of every copied table, in id order, as text.
func dump(t *testing.T, db *DB) string {
	t.Helper()
	var b strings.Builder
	for _, table := range append(slices.Clone(copyTables), "chunk_terms") {
		q := "SELECT * FROM " + table + " ORDER BY 1, 2"
		if table == "chunk_terms" {
			q = "SELECT rowid FROM chunk_terms ORDER BY 1"
			if db.Postgres() {
				q = "SELECT chunk_id FROM chunk_terms ORDER BY 1"
			}
		}
		rows, err := db.Query(context.Background(), q)
		if err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		sqltest.Dump(t, &b, table+":", rows)
	}
	return b.String()
}

func TestCopyToPostgresAndBack(t *testing.T) {
	ctx, db := openTest(t)
	writes := []store.DocWrite{
		chunked("三国志/蜀书/诸葛亮传/text.txt", "諸葛亮字孔明，琅邪陽都人也。亮躬耕隴畝。", "诸葛亮字孔明，琅邪阳都人也。亮躬耕陇亩。", nil, 10, 3),
		chunked("三国志/蜀书/先主传/text.txt", "先主姓刘，讳备，字玄德。三顾亮于草庐之中。", "", nil, 10, 3),
	}
	if err := db.WriteDocs(ctx, writes); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"INSERT INTO entities(name, type, mentions) VALUES('诸葛亮', '人物', 2), ('刘备', '人物', 1)",
		"INSERT INTO aliases(entity_id, alias, kind, source) VALUES(1, '孔明', '字', 'text')",
		"INSERT INTO relations(head_id, type, tail_id, status, score, extractor, created_at, support) VALUES(2, '积极态度倾向', 1, 'extracted', 0.5, 'pattern', 'now', 1)",
		"INSERT INTO llm_cache(key, value, created_at, step) VALUES('k', x'00ff', 'now', 'extract')",
	} {
		if _, err := db.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	want := dump(t, db)

	pg, err := OpenPostgres(ctx, sqltest.PostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	var copied []string
	if err := db.CopyTo(ctx, pg, func(table string, rows int) { copied = append(copied, table) }); err != nil {
		t.Fatal(err)
	}
	if len(copied) != len(copyTables)+1 {
		t.Fatalf("tables reported: %v", copied)
	}
	// The copy answers as the original does, and takes new rows after
	// the copied ids.
	for _, q := range []string{"孔明", "诸葛亮"} {
		a, _ := db.SearchChunks(ctx, index.Terms(q), 10)
		b, err := pg.SearchChunks(ctx, index.Terms(q), 10)
		if err != nil || len(a) == 0 || len(a) != len(b) || a[0].ChunkID != b[0].ChunkID {
			t.Fatalf("%s: SQLite %+v, PostgreSQL %+v (%v)", q, a, b, err)
		}
	}
	var id int64
	if err := pg.QueryRow(ctx, "INSERT INTO entities(name, type) VALUES('关羽', '人物') RETURNING id").Scan(&id); err != nil || id != 3 {
		t.Fatalf("a new entity after the copy: id %d, %v", id, err)
	}
	if _, err := pg.Exec(ctx, "DELETE FROM entities WHERE id = 3"); err != nil {
		t.Fatal(err)
	}
	// A second copy into a store that holds a graph is refused.
	if err := db.CopyTo(ctx, pg, nil); !errors.Is(err, ErrNotEmpty) {
		t.Fatalf("copy over a graph: %v", err)
	}

	// Back into a new SQLite file: every row as it was.
	back, err := Open(ctx, filepath.Join(t.TempDir(), "back.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	if err := pg.CopyTo(ctx, back, nil); err != nil {
		t.Fatal(err)
	}
	if got := dump(t, back); got != want {
		t.Fatalf("SQLite → PostgreSQL → SQLite changed rows:\n%s\nwant\n%s", got, want)
	}
	if got := dump(t, pg); got != want {
		t.Fatalf("the PostgreSQL copy differs:\n%s\nwant\n%s", got, want)
	}
}
