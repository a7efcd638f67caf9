package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// dialect is what differs between the two engines in the text of a
// query. The queries are written once, in the SQL both engines share
// (ON CONFLICT … DO NOTHING, RETURNING), with SQLite's parameters (? and
// ?N), its json_each over a JSON array for a list (annals_list, a function
// of the schema, in PostgreSQL), group_concat and a
// scalar max(x, 0); PostgreSQL's dialect rewrites those few things, once
// per query text.
type dialect struct {
	postgres bool
	cache    sync.Map // query text → PostgreSQL text
	// The lexical index is FTS5's in SQLite and a table of term arrays in
	// PostgreSQL: a chunk's terms (space-separated) go in, and a
	// document's chunks' terms go out, differently.
	insertTerms, deleteDocTerms string
	// firstEvidence joins a list of relation ids (?1) to the first ?2
	// evidence rows of each, as e: through a subquery per relation in
	// SQLite, LATERAL in PostgreSQL (which would scan the table for
	// SQLite's form).
	firstEvidence string
}

var sqliteSQL = &dialect{
	insertTerms:    "INSERT INTO chunk_terms(rowid, terms) VALUES(?, ?)",
	deleteDocTerms: "DELETE FROM chunk_terms WHERE rowid IN (SELECT id FROM chunks WHERE doc_id = ?)",
	firstEvidence: `json_each(?1) r JOIN evidence e
		ON e.id IN (SELECT x.id FROM evidence x WHERE x.relation_id = CAST(r.value AS BIGINT) ORDER BY x.id LIMIT ?2)`,
}

var postgresSQL = &dialect{
	postgres:       true,
	insertTerms:    "INSERT INTO chunk_terms(chunk_id, terms) VALUES(?, string_to_array(?, ' '))",
	deleteDocTerms: "DELETE FROM chunk_terms WHERE chunk_id IN (SELECT id FROM chunks WHERE doc_id = ?)",
	firstEvidence: `json_each(?1) r CROSS JOIN LATERAL
		(SELECT * FROM evidence x WHERE x.relation_id = CAST(r.value AS BIGINT) ORDER BY x.id LIMIT ?2) e`,
}

// sql is q as this engine reads it.
func (d *dialect) sql(q string) string {
	if !d.postgres {
		return q
	}
	if t, ok := d.cache.Load(q); ok {
		return t.(string)
	}
	t := toPostgres(q)
	d.cache.Store(q, t)
	return t
}

// SQLite's functions that PostgreSQL spells otherwise: group_concat of
// one column, and max of an expression and 0 (scalar, not the aggregate).
var (
	groupConcat = regexp.MustCompile(`\bgroup_concat\((DISTINCT )?([\w.]+)\)`)
	maxZero     = regexp.MustCompile(`\bmax\(([^(),]+), 0\)`)
)

// listFunctions read a JSON array parameter as rows of one column, value.
var listFunctions = regexp.MustCompile(`\b(json_each|json_array_length)\((\$\d+)\)`)

// toPostgres rewrites a query: SQLite's parameters (? numbered after the
// highest before it, ?N) become $N, the column end (a reserved word in
// PostgreSQL, written lowercase where the keyword END is not) is quoted,
// and a list read with json_each(?) comes from annals_list, whose rows are
// text (a list of ids is cast back to integers by the query: CAST(value
// AS BIGINT)).
// String literals and quoted names are left alone.
func toPostgres(q string) string {
	var b strings.Builder
	b.Grow(len(q) + 16)
	highest := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				j = len(q) - i
			}
			b.WriteString(q[i : i+j])
			i += j - 1
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(q) && q[j] != c {
				j++
			}
			b.WriteString(q[i:min(j+1, len(q))])
			i = j
		case c == '?':
			j := i + 1
			for j < len(q) && q[j] >= '0' && q[j] <= '9' {
				j++
			}
			n := highest + 1
			if j > i+1 {
				n, _ = strconv.Atoi(q[i+1 : j])
			}
			highest = max(highest, n)
			b.WriteString("$" + strconv.Itoa(n))
			i = j - 1
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i + 1
			for j < len(q) && (q[j] == '_' || q[j] >= 'a' && q[j] <= 'z' || q[j] >= 'A' && q[j] <= 'Z' || q[j] >= '0' && q[j] <= '9') {
				j++
			}
			word := q[i:j]
			if word == "end" && !afterDot(q, i) {
				word = `"end"` // the column; the keyword is written END
			}
			b.WriteString(word)
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	t := groupConcat.ReplaceAllString(b.String(), "string_agg(${1}CAST($2 AS TEXT), ',')")
	t = maxZero.ReplaceAllString(t, "GREATEST($1, 0)")
	return listFunctions.ReplaceAllStringFunc(t, func(m string) string {
		p := listFunctions.FindStringSubmatch(m)
		if p[1] == "json_each" {
			return "annals_list(" + p[2] + "::json)"
		}
		return p[1] + "(" + p[2] + "::json)"
	})
}

// afterDot says whether the name at i is qualified (c.end), where
// PostgreSQL takes any word as a column.
func afterDot(q string, i int) bool {
	for i > 0 && (q[i-1] == ' ' || q[i-1] == '\t' || q[i-1] == '\n') {
		i--
	}
	return i > 0 && q[i-1] == '.'
}

// commitChannel is the PostgreSQL notification channel on which every
// commit that wrote is announced, for DataVersion in other processes.
const commitChannel = "annals_commits"

// beforeCommit runs in a transaction that wrote, just before it commits:
// on PostgreSQL it queues the notification that the commit delivers.
func (d *dialect) beforeCommit(tx *sql.Tx) error {
	if !d.postgres {
		return nil
	}
	if _, err := tx.Exec("SELECT pg_notify($1, '')", commitChannel); err != nil {
		return fmt.Errorf("announce the commit: %w", err)
	}
	return nil
}

// committed follows a write outside a transaction (committed at once).
func (d *dialect) committed(ctx context.Context, db *sql.DB) error {
	if !d.postgres {
		return nil
	}
	if _, err := db.ExecContext(ctx, "SELECT pg_notify($1, '')", commitChannel); err != nil {
		return fmt.Errorf("announce the commit: %w", err)
	}
	return nil
}
