package annals_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/export"
)

// sft keeps the verified facts unless asked for all: an offline index has
// none, so the default writes nothing and --unverified writes a record a
// sentence, each the reply the extraction prompt asks for.
func TestExportSFT(t *testing.T) {
	ws, _ := indexDemo(t)
	ctx := context.Background()
	verified, err := ws.ExportGraph(ctx, annals.ExportOptions{}.ForFormat("sft", false))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range verified.Relations {
		if r.Status != "verified" && r.Status != "user" && (r.Score == nil || *r.Score < ws.Config.Extract.Threshold) {
			t.Fatalf("an unverified fact in the sft export: %+v", r)
		}
	}
	all, err := ws.ExportGraph(ctx, annals.ExportOptions{}.ForFormat("sft", true))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := export.Write("sft", &export.WriterSink{W: &b}, all); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) < 10 || len(all.Relations) <= len(verified.Relations) {
		t.Fatalf("%d records from %d facts (%d verified)", len(lines), len(all.Relations), len(verified.Relations))
	}
	var rec export.SFTRecord
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil || rec.Input == "" || len(rec.Steps.Triples) == 0 || !strings.Contains(rec.Output, `"triples"`) {
		t.Fatalf("first record %+v: %v", rec, err)
	}
	for _, tr := range rec.Steps.Triples {
		if !strings.Contains(rec.Input, tr.Head) || !strings.Contains(rec.Input, tr.Tail) {
			t.Fatalf("a triple not as the sentence writes it: %+v in %q", tr, rec.Input)
		}
	}
}
