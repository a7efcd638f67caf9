package annals_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/demo"
	"github.com/annals-project/annals/internal/export"
	"github.com/annals-project/annals/internal/kg"
)

func exportJSONL(t *testing.T, ws *annals.Workspace, opts annals.ExportOptions) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := ws.Export(context.Background(), export.JSONL, &export.WriterSink{W: &b}, opts); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestExportCountsWhatStatsCounts(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	st, err := ws.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	g, err := ws.ExportGraph(ctx, annals.ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	evidence := 0
	for _, r := range g.Relations {
		evidence += len(r.Evidence)
		if len(r.Evidence) == 0 {
			t.Errorf("relation %s %s %s is exported with no sentence", r.Head, r.Type, r.Tail)
		}
	}
	// Stats counts every sentence read; those of the graph are the ones
	// linked to a relation.
	var linked int
	if err := ws.Store().SQL().QueryRow("SELECT count(*) FROM evidence WHERE relation_id IS NOT NULL").Scan(&linked); err != nil {
		t.Fatal(err)
	}
	if len(g.Nodes) != st.Entities || len(g.Relations) != st.Relations || evidence != linked {
		t.Fatalf("export: %d entities, %d relations, %d sentences; stats: %d, %d, %d",
			len(g.Nodes), len(g.Relations), evidence, st.Entities, st.Relations, linked)
	}
	lines := bytes.Count(exportJSONL(t, ws, annals.ExportOptions{}), []byte("\n"))
	if lines != st.Relations {
		t.Fatalf("%d JSON lines for %d relations", lines, st.Relations)
	}
	around, err := ws.ExportGraph(ctx, annals.ExportOptions{Around: "孔明", Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(around.Nodes) < 3 || len(around.Nodes) >= len(g.Nodes) || around.Nodes[0].ID == 0 {
		t.Fatalf("the graph around 孔明 (诸葛亮): %d nodes of %d", len(around.Nodes), len(g.Nodes))
	}
	// Every node is 诸葛亮 or one relation from him; the relations are all
	// those among them (the ego network).
	near := map[string]bool{"诸葛亮": true}
	for _, r := range around.Relations {
		if r.Head == "诸葛亮" || r.Tail == "诸葛亮" {
			near[r.Head], near[r.Tail] = true, true
		}
	}
	for _, n := range around.Nodes {
		if !near[n.Name] {
			t.Errorf("%s is in the graph one step around 诸葛亮 but not next to him", n.Name)
		}
	}
	for _, r := range g.Relations {
		inside := slices.ContainsFunc(around.Relations, func(x kg.Relation) bool { return x.ID == r.ID })
		if (near[r.Head] && near[r.Tail]) != inside {
			t.Errorf("relation %s %s %s: between neighbours %v, exported %v", r.Head, r.Type, r.Tail, near[r.Head] && near[r.Tail], inside)
		}
	}
	if _, err := ws.ExportGraph(ctx, annals.ExportOptions{Around: "无此人"}); err == nil {
		t.Fatal("export around a name the graph lacks")
	}
}

// A user's fact, stated on a sentence the demo holds: the first extracted
// relation's first sentence, read as a relation the extractor did not.
func userFact(t *testing.T, ws *annals.Workspace) export.Fact {
	t.Helper()
	g, err := ws.ExportGraph(context.Background(), annals.ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := g.Relations[0]
	f := export.FactOf(&r)
	f.Relation, f.Status, f.Extractor, f.Evidence = "积极态度倾向", kg.StatusUser, "user", f.Evidence[:1]
	return f
}

func writeFacts(t *testing.T, facts ...export.Fact) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, f := range facts {
		if err := enc.Encode(f); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "facts.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestExportImportRoundTrip(t *testing.T) {
	ctx := context.Background()
	a, _ := indexDemo(t)
	// Workspace a holds facts no extractor stands behind: one a person
	// added and one relation reasoning fed back.
	rep, err := a.ImportFacts(ctx, writeFacts(t, userFact(t, a)), nil)
	if err != nil || rep.Added != 1 || len(rep.Skipped) != 0 {
		t.Fatalf("import a user's fact: %+v, %v", rep, err)
	}
	fed := 0
	for _, p := range [][2]string{{"张飞", "刘备"}, {"周瑜", "曹操"}, {"赵云", "刘备"}, {"关羽", "曹操"}} {
		res, err := a.Relate(ctx, p[0], p[1], annals.RelateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Feedback {
			if f.New {
				fed++
			}
		}
	}
	if fed == 0 {
		t.Fatal("relation reasoning fed nothing back on the demo")
	}
	first := exportJSONL(t, a, annals.ExportOptions{})
	path := filepath.Join(t.TempDir(), "a.jsonl")
	if err := os.WriteFile(path, first, 0o644); err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, line := range strings.Split(strings.TrimSpace(string(first)), "\n") {
		if !strings.Contains(line, `"status":"extracted"`) {
			kept++
		}
	}
	if kept != 1+fed {
		t.Fatalf("%d facts outside extraction exported, want %d", kept, 1+fed)
	}

	// Workspace b indexes the same texts; the import brings what a had
	// beyond them, and b then exports the same facts.
	b, _ := indexDemo(t)
	rep, err = b.ImportFacts(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Added != kept || rep.Present != bytes.Count(first, []byte("\n"))-kept || len(rep.Skipped) != 0 || len(rep.Dropped) != 0 {
		t.Fatalf("import into b: %+v; want %d added", rep, kept)
	}
	if second := exportJSONL(t, b, annals.ExportOptions{}); !bytes.Equal(first, second) {
		t.Fatalf("export → import → export changed the facts:\n%s", firstDifference(first, second))
	}
	// Again: nothing new. After an alignment the imported facts stay.
	if rep, err = b.ImportFacts(ctx, path, nil); err != nil || rep.Added != 0 {
		t.Fatalf("a second import: %+v, %v", rep, err)
	}
	dir := t.TempDir()
	_, aliases, err := demo.WriteTo(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.ImportAliases(ctx, aliases, nil); err != nil {
		t.Fatal(err)
	}
	if third := exportJSONL(t, b, annals.ExportOptions{}); !bytes.Equal(first, third) {
		t.Fatalf("alignment lost imported facts:\n%s", firstDifference(first, third))
	}
}

func firstDifference(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return "- " + la[i] + "\n+ " + lb[i]
		}
	}
	return "lengths differ"
}

func TestImportAnchorsEverySentenceOrSkips(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	good := userFact(t, ws)
	missing := good
	missing.Evidence = []export.Citation{good.Evidence[0]}
	missing.Evidence[0].Doc = "no/such/document.txt"
	missing.Relation = "同族"
	changed := good
	changed.Evidence = []export.Citation{good.Evidence[0]}
	q := []rune(changed.Evidence[0].Quote)
	q[0] = '某'
	changed.Evidence[0].Quote = string(q)
	changed.Relation = "婚恋"
	half := good
	half.Relation = "同胞"
	half.Evidence = []export.Citation{good.Evidence[0], missing.Evidence[0]}
	// 孔明 is an alias of 诸葛亮 here: a fact that names them apart finds
	// the one entity, and makes no second.
	alias := good
	alias.Head, alias.HeadType, alias.Relation, alias.Tail, alias.TailType, alias.Status = "诸葛亮", "人物", "别称", "孔明", "人物", kg.StatusExtracted
	before, _ := ws.Stats(ctx)
	rep, err := ws.ImportFacts(ctx, writeFacts(t, missing, changed, half, alias), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Added != 1 || rep.Present != 1 || rep.EntitiesAdded != 0 || len(rep.Skipped) != 2 || len(rep.Dropped) != 1 ||
		!strings.Contains(rep.Skipped[0].Reason, "no document no/such/document.txt") ||
		!strings.Contains(rep.Skipped[1].Reason, "does not read as quoted") {
		t.Fatalf("report %+v", rep)
	}
	after, _ := ws.Stats(ctx)
	if after.Relations != before.Relations+1 || after.Status[kg.StatusUser] != 1 {
		t.Fatalf("relations %d → %d, statuses %v", before.Relations, after.Relations, after.Status)
	}

	// A file with one bad line writes nothing, and says which line.
	bad := writeFacts(t, good)
	data, _ := os.ReadFile(bad)
	os.WriteFile(bad, append(data, []byte("{\"head\":\n")...), 0o644)
	if _, err := ws.ImportFacts(ctx, bad, nil); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("a bad line: %v", err)
	}
	if again, _ := ws.Stats(ctx); again.Relations != after.Relations {
		t.Fatalf("a refused file wrote %d relations", again.Relations-after.Relations)
	}
}
