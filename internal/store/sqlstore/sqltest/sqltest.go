// Package sqltest gives tests an empty PostgreSQL database of their own,
// so that storage tests run on both engines the store supports.
package sqltest

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// PostgresURL gives a new, empty PostgreSQL database for one test, dropped
// after it. It needs ANNALS_TEST_POSTGRES, the URL of a database whose
// role may create databases; without it the test skips, unless
// ANNALS_REQUIRE_POSTGRES is set (CI sets both), when it fails.
func PostgresURL(t testing.TB) string {
	t.Helper()
	admin := os.Getenv("ANNALS_TEST_POSTGRES")
	if admin == "" {
		if os.Getenv("ANNALS_REQUIRE_POSTGRES") != "" {
			t.Fatal("ANNALS_REQUIRE_POSTGRES is set but ANNALS_TEST_POSTGRES names no database")
		}
		t.Skip("set ANNALS_TEST_POSTGRES=postgres://USER:PASSWORD@HOST/DB (a role that may create databases) to test the PostgreSQL store")
	}
	db, err := sql.Open("pgx", admin)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	b := make([]byte, 6)
	rand.Read(b)
	name := "annals_test_" + hex.EncodeToString(b)
	if _, err := db.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("make a test database (does the role have CREATEDB?): %v", err)
	}
	t.Cleanup(func() {
		// FORCE ends the sessions left in it; an autovacuum worker's may
		// be beyond the role's reach (without pg_signal_backend) for the
		// moment it takes to finish, so the drop is tried a few times.
		var err error
		for try := 0; try < 5; try++ {
			if _, err = db.Exec("DROP DATABASE " + name + " WITH (FORCE)"); err == nil {
				return
			}
			time.Sleep(time.Duration(try+1) * 200 * time.Millisecond)
		}
		t.Errorf("drop %s: %v", name, err)
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// Dump writes every row of rows as one line of its values (bytes as
// text), each after prefix, and closes rows: what a test compares two
// states of a table by.
func Dump(t testing.TB, b *strings.Builder, prefix string, rows *sql.Rows) {
	t.Helper()
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		b.WriteString(prefix)
		for _, v := range vals {
			if s, ok := v.([]byte); ok {
				v = string(s)
			}
			fmt.Fprintf(b, " %v", v)
		}
		b.WriteByte('\n')
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}
