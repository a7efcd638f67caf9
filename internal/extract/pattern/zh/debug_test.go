package zh

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/extract"
)

// TestDebugPrint prints what the extractor reads in ANNALS_ZH_DEBUG.
func TestDebugPrint(t *testing.T) {
	s := os.Getenv("ANNALS_ZH_DEBUG")
	if s == "" {
		t.Skip("set ANNALS_ZH_DEBUG to a text")
	}
	doc := extract.NewDocContext("d", os.Getenv("ANNALS_ZH_TITLE"), nil)
	for _, line := range strings.Split(s, "|") {
		res, _ := New().Extract(context.Background(), extract.Input{Text: line, Doc: doc})
		t.Log(line)
		for _, e := range res.Entities {
			t.Logf("  %s %s [%d,%d) %s", e.Type, e.Text, e.Start, e.End, e.Name)
		}
		for _, tr := range res.Triples {
			t.Logf("  %s -%s-> %s (%s)", tr.Head.Canonical(), tr.Relation, tr.Tail.Canonical(), tr.AliasKind)
		}
	}
}
