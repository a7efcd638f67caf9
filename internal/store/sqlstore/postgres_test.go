package sqlstore

import (
	"context"
	"errors"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/annals-project/annals/internal/store/sqlstore/sqltest"
)

// sqliteTables are the tables of the embedded store's schema, read from
// its migrations, so that the two schemas cannot drift apart unnoticed.
func sqliteTables(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile("migrations_sqlite.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile(`CREATE (?:VIRTUAL )?TABLE (\w+)`).FindAllStringSubmatch(string(src), -1) {
		if m[1] != "chunk_vocab" { // FTS5's vocabulary: the GIN index answers it here
			out = append(out, m[1])
		}
	}
	return out
}

func TestMigrationsMakeTheEmbeddedStoresTables(t *testing.T) {
	ctx := context.Background()
	dsn := sqltest.PostgresURL(t)
	db, err := OpenPostgres(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, err := db.Version(ctx); err != nil || v != len(postgresMigrations) {
		t.Fatalf("schema version %d, %v; want %d", v, err, len(postgresMigrations))
	}
	for _, table := range sqliteTables(t) {
		var n int
		if err := db.SQL().QueryRow("SELECT count(*) FROM information_schema.tables WHERE table_name = $1", table).Scan(&n); err != nil || n != 1 {
			t.Errorf("table %s: %d, %v", table, n, err)
		}
	}
	// The columns' names are SQLite's too.
	var cols []string
	rows, err := db.SQL().Query("SELECT column_name FROM information_schema.columns WHERE table_name = 'evidence' ORDER BY ordinal_position")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var c string
		rows.Scan(&c)
		cols = append(cols, c)
	}
	rows.Close()
	for _, want := range []string{"relation_id", "head_name", "start", "end", "sentence_norm", "kept", "year", "reign_year"} {
		if !strings.Contains(" "+strings.Join(cols, " ")+" ", " "+want+" ") {
			t.Errorf("evidence lacks column %s: %v", want, cols)
		}
	}
	db.Close()

	// Opening again changes nothing; a newer schema is refused.
	again, err := OpenPostgres(ctx, dsn)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	if _, err := again.SQL().Exec("UPDATE schema_version SET version = version + 1"); err != nil {
		t.Fatal(err)
	}
	again.Close()
	if _, err := OpenPostgres(ctx, dsn); !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("a newer schema: %v", err)
	}
}

func TestProcessesOpeningANewDatabaseMigrateItOnce(t *testing.T) {
	ctx := context.Background()
	dsn := sqltest.PostgresURL(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := OpenPostgres(ctx, dsn)
			if err == nil {
				db.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("opening at once: %v", err)
		}
	}
}

func TestOneWriterAtATime(t *testing.T) {
	ctx := context.Background()
	dsn := sqltest.PostgresURL(t)
	a, err := OpenPostgres(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := OpenPostgres(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	held, err := a.WriterLock(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	told := ""
	short, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	if _, err := b.WriterLock(short, func(msg string) { told = msg }); err == nil || !strings.Contains(told, "another process") {
		t.Fatalf("a second writer: %v, told %q", err, told)
	}
	// Released, or its holder's connection gone: the next one gets it.
	done := make(chan error, 1)
	go func() {
		l, err := b.WriterLock(ctx, nil)
		if err == nil {
			l.Unlock()
		}
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	if err := held.Unlock(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the lock was not handed on")
	}
	held, err = a.WriterLock(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The holder dies without unlocking (its server process ends, as when
	// a killed indexer's connection drops).
	var pid int
	if err := held.conn.QueryRowContext(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	if _, err := b.SQL().Exec("SELECT pg_terminate_backend($1)", pid); err != nil {
		t.Fatal(err)
	}
	short2, cancel2 := context.WithTimeout(ctx, 3*time.Second)
	defer cancel2()
	l, err := b.WriterLock(short2, nil)
	if err != nil {
		t.Fatalf("the lock outlived its holder's connection: %v", err)
	}
	l.Unlock()
}

func TestOpenRefusesWhatIsNotADatabaseURL(t *testing.T) {
	if _, err := OpenPostgres(context.Background(), "/srv/annals"); err == nil || !strings.Contains(err.Error(), "postgres://") {
		t.Fatalf("a folder as a store: %v", err)
	}
	_, err := OpenPostgres(context.Background(), "postgres://annals:s3cret@127.0.0.1:1/none?connect_timeout=2")
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("an unreachable server: %v (the password must not show)", err)
	}
}
