package en

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/annals-project/annals/internal/extract"
)

func TestDebugDump(t *testing.T) {
	txt := os.Getenv("EN_DEBUG")
	if txt == "" {
		t.Skip()
	}
	doc := extract.NewDocContext("d", "", nil)
	r, err := New().Extract(context.Background(), extract.Input{Text: txt, Lang: "en", Doc: doc})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range r.Entities {
		fmt.Printf("E %-14s %q [%d,%d) %s\n", e.Type, e.Text, e.Start, e.End, e.Name)
	}
	for _, x := range r.Triples {
		fmt.Printf("T %s -%s-> %s  (%s)\n", x.Head.Canonical(), x.Relation, x.Tail.Canonical(), x.AliasKind)
	}
}
