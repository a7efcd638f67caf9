package sqlstore

import "testing"

func TestToPostgres(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"SELECT a FROM t WHERE x = ? AND y = ?", "SELECT a FROM t WHERE x = $1 AND y = $2"},
		{"SELECT ?2, ?1, ?", "SELECT $2, $1, $3"},
		{"SELECT '?', \"?\" -- what?\n, ?", "SELECT '?', \"?\" -- what?\n, $1"},
		{"INSERT INTO chunks(start, end) VALUES(?, ?)", `INSERT INTO chunks(start, "end") VALUES($1, $2)`},
		{"SELECT c.end, CASE WHEN x THEN 1 END FROM c WHERE c. end > 0", "SELECT c.end, CASE WHEN x THEN 1 END FROM c WHERE c. end > 0"},
		{"SELECT 'end', endless, e_end FROM t", "SELECT 'end', endless, e_end FROM t"},
		{"WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?1)) AND json_array_length(?2) = 0",
			"WHERE id IN (SELECT CAST(value AS BIGINT) FROM annals_list($1::json)) AND json_array_length($2::json) = 0"},
		{"SELECT group_concat(e.year), group_concat(DISTINCT a.alias) FROM t", "SELECT string_agg(CAST(e.year AS TEXT), ','), string_agg(DISTINCT CAST(a.alias AS TEXT), ',') FROM t"},
		{"substr(c.text, max(m.start - c.start - 20, 0) + 1), max(id)", "substr(c.text, GREATEST(m.start - c.start - 20, 0) + 1), max(id)"},
	} {
		if got := toPostgres(c.in); got != c.want {
			t.Errorf("toPostgres(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestSQLiteTextIsUnchanged(t *testing.T) {
	q := "INSERT INTO t(start, end) VALUES(?, ?1) -- '"
	if got := sqliteSQL.sql(q); got != q {
		t.Fatalf("SQLite query rewritten: %q", got)
	}
}
