// Package latintest holds the checks the tests of the Latin-script pattern
// extractors share.
package latintest

import (
	"context"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/schema"
)

// Extract runs x over text in lang and checks the offsets of what it found.
func Extract(t testing.TB, x extract.Extractor, lang, text string, doc *extract.DocContext, sc *schema.Schema) extract.Result {
	t.Helper()
	r, err := x.Extract(context.Background(), extract.Input{Text: text, Lang: lang, Doc: doc, Schema: sc})
	if err != nil {
		t.Fatal(err)
	}
	CheckOffsets(t, text, r)
	return r
}

// CheckOffsets asserts that every offset locates its text and that each
// triple's evidence covers both of its entities.
func CheckOffsets(t testing.TB, text string, r extract.Result) {
	t.Helper()
	rs := []rune(text)
	ok := func(e extract.Entity) bool {
		return e.Start >= 0 && e.Start < e.End && e.End <= len(rs) && string(rs[e.Start:e.End]) == e.Text
	}
	for _, e := range r.Entities {
		if !ok(e) {
			t.Fatalf("entity %+v does not locate its text", e)
		}
	}
	for _, x := range r.Triples {
		if !ok(x.Head) || !ok(x.Tail) {
			t.Fatalf("triple %+v does not locate its entities", x)
		}
		ev := x.Evidence
		if ev.Start < 0 || ev.End > len(rs) || ev.Start > x.Head.Start || ev.Start > x.Tail.Start || ev.End < x.Head.End || ev.End < x.Tail.End {
			t.Fatalf("evidence %+v does not cover %+v", ev, x)
		}
	}
}

// FindEntity returns the first entity with the text and type, or nil.
func FindEntity(r extract.Result, text, typ string) *extract.Entity {
	for i, e := range r.Entities {
		if e.Text == text && e.Type == typ {
			return &r.Entities[i]
		}
	}
	return nil
}

// WantEntity asserts an entity with the text, type and offsets.
func WantEntity(t *testing.T, r extract.Result, text, typ string, start, end int) {
	t.Helper()
	for _, e := range r.Entities {
		if e.Text == text && e.Type == typ && e.Start == start && e.End == end {
			return
		}
	}
	t.Errorf("missing entity %s %q [%d,%d); got %s", typ, text, start, end, Dump(r))
}

// HasTriple reports whether r relates the canonical names head and tail.
func HasTriple(r extract.Result, head, rel, tail string) bool {
	for _, x := range r.Triples {
		if x.Head.Canonical() == head && x.Relation == rel && x.Tail.Canonical() == tail {
			return true
		}
	}
	return false
}

// WantTriple asserts HasTriple.
func WantTriple(t *testing.T, r extract.Result, head, rel, tail string) {
	t.Helper()
	if !HasTriple(r, head, rel, tail) {
		t.Errorf("missing %s -%s-> %s; got %s", head, rel, tail, Dump(r))
	}
}

// Dump lists r one entity or triple a line, for failure messages.
func Dump(r extract.Result) string {
	var sb strings.Builder
	sb.WriteString("\n")
	for _, e := range r.Entities {
		sb.WriteString("  E " + e.Type + " " + e.Text)
		if e.Name != "" {
			sb.WriteString(" (" + e.Name + ")")
		}
		sb.WriteString("\n")
	}
	for _, x := range r.Triples {
		sb.WriteString("  T " + x.Head.Canonical() + " -" + x.Relation + "-> " + x.Tail.Canonical() + "\n")
	}
	return sb.String()
}

// TinySchema is a schema of persons, places and born_in only.
func TinySchema(t testing.TB) *schema.Schema {
	t.Helper()
	sc, err := schema.Parse([]byte(`
name: tiny
entity_types: [{name: person}, {name: place}]
relation_types:
  - {name: born_in, domain: [person], range: [place]}
`))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// SchemaFiltering extracts text under TinySchema, and asserts that head was
// born in tail and that nothing outside the schema came out.
func SchemaFiltering(t *testing.T, x extract.Extractor, lang, text, head, tail string) {
	t.Helper()
	r := Extract(t, x, lang, text, nil, TinySchema(t))
	WantTriple(t, r, head, "born_in", tail)
	for _, tr := range r.Triples {
		if tr.Relation != "born_in" || tr.Tail.Type != "place" {
			t.Errorf("schema not respected: %s -%s-> %s", tr.Head.Text, tr.Relation, tr.Tail.Text)
		}
	}
	for _, e := range r.Entities {
		if e.Type != "person" && e.Type != "place" {
			t.Errorf("entity type %s not in schema", e.Type)
		}
	}
}

// EmptyAndCancelled asserts that blank text yields nothing and that a
// cancelled context stops the extraction of text.
func EmptyAndCancelled(t *testing.T, x extract.Extractor, lang, blank, text string) {
	t.Helper()
	r := Extract(t, x, lang, blank, nil, nil)
	if len(r.Entities)+len(r.Triples) != 0 {
		t.Fatal("entities in blank text")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := x.Extract(ctx, extract.Input{Text: text, Lang: lang}); err == nil {
		t.Fatal("cancelled context not reported")
	}
}

// Fuzz feeds x the seeds and then any text, each in a fresh document, and
// checks that it never fails and that its offsets hold.
func Fuzz(f *testing.F, x extract.Extractor, lang string, seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		doc := extract.NewDocContext("f", "", nil)
		r, err := x.Extract(context.Background(), extract.Input{Text: s, Lang: lang, Doc: doc})
		if err != nil {
			t.Fatal(err)
		}
		CheckOffsets(t, s, r)
	})
}

// Bench measures x over about 50 KiB made of the samples, one a line, read
// as one document.
func Bench(b *testing.B, x extract.Extractor, lang string, samples []string) {
	var sb strings.Builder
	for sb.Len() < 50*1024 {
		for _, s := range samples {
			sb.WriteString(s)
			sb.WriteString("\n")
		}
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		doc := extract.NewDocContext("bench", "", nil)
		if _, err := x.Extract(context.Background(), extract.Input{Text: text, Lang: lang, Doc: doc}); err != nil {
			b.Fatal(err)
		}
	}
}
