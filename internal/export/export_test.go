package export

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/kg"
)

func year(y int) *int { return &y }

// sample is a small graph with the awkward cases: quotes, commas, a
// semicolon in an alias, a line break in a sentence, a BCE year, an
// undated relation and one with no evidence of its own.
func sample() ([]kg.Entity, []kg.Relation) {
	ents := []kg.Entity{
		{ID: 1, Name: "诸葛亮", Type: "人物", Mentions: 410, Aliases: []kg.Alias{{Name: "孔明", Kind: "字", Source: "text:a@0"}, {Name: "卧龙;伏龙", Kind: "号", Source: "dictionary:x"}}},
		{ID: 2, Name: "诸葛珪", Type: "人物", Mentions: 1},
		{ID: 3, Name: "琅邪", Type: "地点", Mentions: 30},
		{ID: 4, Name: "丞相", Type: "职官", Mentions: 500},
		{ID: 5, Name: "项羽", Type: "人物", Mentions: 300},
		{ID: 6, Name: "孤立", Type: "人物"},
	}
	ev := func(doc string, start int, sentence string, y *int) kg.Evidence {
		n := len([]rune(sentence))
		return kg.Evidence{DocKey: doc, Cite: "《" + doc + "》", Span: kg.Span{Start: start, End: start + n},
			Head: kg.Span{Start: start, End: start + 1}, Tail: kg.Span{Start: start + n - 1, End: start + n}, Sentence: sentence, Year: y}
	}
	score := 8.5
	rels := []kg.Relation{
		{ID: 10, HeadID: 2, Head: "诸葛珪", HeadType: "人物", Type: "子女", TailID: 1, Tail: "诸葛亮", TailType: "人物", Status: kg.StatusExtracted, Extractor: "zh-9",
			Evidence: []kg.Evidence{ev("三国志/蜀书/诸葛亮传", 0, `诸葛亮字孔明，"琅邪"阳都人也。父珪`, nil)}},
		{ID: 11, HeadID: 1, Head: "诸葛亮", HeadType: "人物", Type: "籍贯", TailID: 3, Tail: "琅邪", TailType: "地点", Status: kg.StatusExtracted, Extractor: "zh-9", Score: &score,
			Evidence: []kg.Evidence{ev("三国志/蜀书/诸葛亮传", 0, `诸葛亮字孔明，"琅邪"阳都人也。父珪`, nil)}},
		{ID: 12, HeadID: 1, Head: "诸葛亮", HeadType: "人物", Type: "任官", TailID: 4, Tail: "丞相", TailType: "职官", Status: kg.StatusExtracted, Extractor: "zh-9",
			Evidence: []kg.Evidence{ev("三国志/蜀书/先主传", 900, "以亮为丞相，\n录尚书事", year(221)), ev("三国志/蜀书/诸葛亮传", 2000, "亮为丞相,假节", year(223))}},
		{ID: 13, HeadID: 5, Head: "项羽", HeadType: "人物", Type: "任官", TailID: 4, Tail: "丞相", TailType: "职官", Status: kg.StatusUser, Extractor: "user",
			Evidence: []kg.Evidence{ev("史记/项羽本纪", 5, "项羽为丞相", year(-206))}},
	}
	return ents, rels
}

func TestSelectKeepsEverythingWithoutAFilter(t *testing.T) {
	ents, rels := sample()
	g := Select(ents, rels, Filter{})
	if len(g.Nodes) != len(ents) || len(g.Relations) != len(rels) {
		t.Fatalf("%d nodes, %d relations; want all %d and %d", len(g.Nodes), len(g.Relations), len(ents), len(rels))
	}
	n := g.Nodes[0]
	if n.Name != "诸葛亮" || n.FirstYear == nil || *n.FirstYear != 221 || *n.LastYear != 223 {
		t.Fatalf("诸葛亮's years: %+v", n)
	}
	if g.Nodes[5].FirstYear != nil {
		t.Fatalf("an entity with no dated fact has no years: %+v", g.Nodes[5])
	}
}

func TestSelectFilters(t *testing.T) {
	ents, rels := sample()
	names := func(g *Graph) (ns []string, rs []int64) {
		for _, n := range g.Nodes {
			ns = append(ns, n.Name)
		}
		for _, r := range g.Relations {
			rs = append(rs, r.ID)
		}
		return
	}
	for _, c := range []struct {
		name  string
		f     Filter
		nodes []string
		rels  []int64
	}{
		{"types", Filter{Types: []string{"人物"}}, []string{"诸葛亮", "诸葛珪", "项羽", "孤立"}, []int64{10}},
		{"relations", Filter{Relations: []string{"任官"}}, []string{"诸葛亮", "丞相", "项羽"}, []int64{12, 13}},
		{"since BCE", Filter{Since: year(-210)}, []string{"诸葛亮", "丞相", "项羽"}, []int64{12, 13}},
		{"since", Filter{Since: year(0)}, []string{"诸葛亮", "丞相"}, []int64{12}},
		{"around, one step", Filter{Around: 2}, []string{"诸葛亮", "诸葛珪"}, []int64{10}},
		{"around, two steps", Filter{Around: 2, Depth: 2}, []string{"诸葛亮", "诸葛珪", "琅邪", "丞相"}, []int64{10, 11, 12}},
		{"around, three steps", Filter{Around: 2, Depth: 3}, []string{"诸葛亮", "诸葛珪", "琅邪", "丞相", "项羽"}, []int64{10, 11, 12, 13}},
		{"around, relations", Filter{Around: 5, Depth: 3, Relations: []string{"任官"}}, []string{"诸葛亮", "丞相", "项羽"}, []int64{12, 13}},
		{"around an isolated entity", Filter{Around: 6}, []string{"孤立"}, nil},
	} {
		ns, rs := names(Select(ents, rels, c.f))
		slices.Sort(ns)
		slices.Sort(c.nodes)
		if !slices.Equal(ns, c.nodes) || !slices.Equal(rs, c.rels) {
			t.Errorf("%s: nodes %v relations %v; want %v %v", c.name, ns, rs, c.nodes, c.rels)
		}
	}
}

// The GraphML elements, in GraphML's namespace (graphml.graphdrawing.org).
type graphML struct {
	XMLName xml.Name `xml:"http://graphml.graphdrawing.org/xmlns graphml"`
	Keys    []struct {
		ID   string `xml:"id,attr"`
		For  string `xml:"for,attr"`
		Name string `xml:"attr.name,attr"`
		Type string `xml:"attr.type,attr"`
	} `xml:"http://graphml.graphdrawing.org/xmlns key"`
	Graph struct {
		EdgeDefault string `xml:"edgedefault,attr"`
		Nodes       []struct {
			ID   string        `xml:"id,attr"`
			Data []graphMLData `xml:"http://graphml.graphdrawing.org/xmlns data"`
		} `xml:"http://graphml.graphdrawing.org/xmlns node"`
		Edges []struct {
			ID     string        `xml:"id,attr"`
			Source string        `xml:"source,attr"`
			Target string        `xml:"target,attr"`
			Data   []graphMLData `xml:"http://graphml.graphdrawing.org/xmlns data"`
		} `xml:"http://graphml.graphdrawing.org/xmlns edge"`
	} `xml:"http://graphml.graphdrawing.org/xmlns graph"`
}

type graphMLData struct {
	Key   string `xml:"key,attr"`
	Value string `xml:",chardata"`
}

func TestGraphMLFollowsTheSchema(t *testing.T) {
	ents, rels := sample()
	var b bytes.Buffer
	if err := WriteGraphML(&b, Select(ents, rels, Filter{})); err != nil {
		t.Fatal(err)
	}
	var g graphML
	if err := xml.Unmarshal(b.Bytes(), &g); err != nil {
		t.Fatalf("not GraphML: %v\n%s", err, b.String())
	}
	keys := map[string]string{} // id → for
	for _, k := range g.Keys {
		if !slices.Contains([]string{"boolean", "int", "long", "float", "double", "string"}, k.Type) {
			t.Errorf("key %s: attr.type %q is not one of GraphML's", k.ID, k.Type)
		}
		keys[k.ID] = k.For
	}
	if g.Graph.EdgeDefault != "directed" || len(g.Graph.Nodes) != len(ents) || len(g.Graph.Edges) != len(rels) {
		t.Fatalf("graph: %s, %d nodes, %d edges", g.Graph.EdgeDefault, len(g.Graph.Nodes), len(g.Graph.Edges))
	}
	nodes := map[string]map[string]string{}
	for _, n := range g.Graph.Nodes {
		nodes[n.ID] = map[string]string{}
		for _, d := range n.Data {
			if keys[d.Key] != "node" {
				t.Errorf("node %s: data key %q is not declared for nodes", n.ID, d.Key)
			}
			nodes[n.ID][d.Key] = d.Value
		}
	}
	if z := nodes["n1"]; z["label"] != "诸葛亮" || z["type"] != "人物" || z["aliases"] != "孔明; 卧龙;伏龙" || z["first_year"] != "221" || z["mentions"] != "410" {
		t.Errorf("诸葛亮's node: %v", z)
	}
	for _, e := range g.Graph.Edges {
		if nodes[e.Source] == nil || nodes[e.Target] == nil {
			t.Errorf("edge %s joins nodes the file lacks: %s → %s", e.ID, e.Source, e.Target)
		}
		data := map[string]string{}
		for _, d := range e.Data {
			if keys[d.Key] != "edge" {
				t.Errorf("edge %s: data key %q is not declared for edges", e.ID, d.Key)
			}
			data[d.Key] = d.Value
		}
		if e.ID == "e12" && (data["relation"] != "任官" || data["support"] != "2" || data["year"] != "221" ||
			data["quote"] != "以亮为丞相，\n录尚书事" || data["start"] != "900" || data["doc"] != "三国志/蜀书/先主传") {
			t.Errorf("edge e12: %v", data)
		}
		if e.ID == "e10" && data["quote"] != `诸葛亮字孔明，"琅邪"阳都人也。父珪` {
			t.Errorf("a quote with quotation marks reads back changed: %q", data["quote"])
		}
	}
}

// memSink keeps the files of an export in memory.
type memSink map[string]*bytes.Buffer

type memFile struct{ *bytes.Buffer }

func (memFile) Close() error { return nil }

func (m memSink) Create(name string) (io.WriteCloser, error) {
	m[name] = &bytes.Buffer{}
	return memFile{m[name]}, nil
}

func readCSV(t *testing.T, data []byte) [][]string {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = 0 // every row as long as the header
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v", err)
	}
	return rows
}

// neo4j-admin import's header rules (Neo4j operations manual, "CSV header
// format"): a field is NAME, NAME:TYPE, or a special field, optionally in
// an id space; types are those listed, an array ends in [].
var neo4jField = regexp.MustCompile(`^(?:[^:]+(?::(?:int|long|float|double|boolean|byte|short|char|string|point|date|localtime|time|localdatetime|datetime|duration)(?:\[\])?|:ID(?:\([^)]+\))?)?|:ID(?:\([^)]+\))?|:LABEL|:START_ID(?:\([^)]+\))?|:END_ID(?:\([^)]+\))?|:TYPE|:IGNORE)$`)

func TestNeo4jFilesFollowTheImportHeaderRules(t *testing.T) {
	ents, rels := sample()
	sink := memSink{}
	if err := WriteNeo4j(sink, Select(ents, rels, Filter{})); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"nodes.csv", "relationships.csv", "import.sh", "graph.cypher"} {
		if sink[name] == nil {
			t.Fatalf("no %s", name)
		}
	}
	if bytes.HasPrefix(sink["nodes.csv"].Bytes(), []byte("\uFEFF")) {
		t.Error("neo4j files carry no byte-order mark")
	}
	nodes, relsRows := readCSV(t, sink["nodes.csv"].Bytes()), readCSV(t, sink["relationships.csv"].Bytes())
	count := func(header []string, field string) (n int, at int) {
		for i, h := range header {
			if h == field || strings.HasSuffix(h, field) || strings.HasPrefix(h, field+"(") || strings.Contains(h, field+"(") {
				n, at = n+1, i
			}
		}
		return
	}
	for _, h := range append(slices.Clone(nodes[0]), relsRows[0]...) {
		if !neo4jField.MatchString(h) {
			t.Errorf("header field %q breaks neo4j-admin's rules", h)
		}
	}
	nID, idAt := count(nodes[0], ":ID")
	nLabel, labelAt := count(nodes[0], ":LABEL")
	if nID != 1 || nLabel != 1 {
		t.Fatalf("nodes header %v: want one :ID and one :LABEL", nodes[0])
	}
	ids := map[string]bool{}
	for _, row := range nodes[1:] {
		ids[row[idAt]] = true
		if labels := strings.Split(row[labelAt], ";"); labels[0] != "Entity" || len(labels) != 2 || labels[1] == "" {
			t.Errorf("labels %q: want Entity and the type", row[labelAt])
		}
	}
	if len(ids) != len(ents) {
		t.Errorf("%d node ids for %d entities", len(ids), len(ents))
	}
	aliasAt := slices.Index(nodes[0], "aliases:string[]")
	if got := strings.Split(nodes[1][aliasAt], ";"); !slices.Equal(got, []string{"孔明", "卧龙；伏龙"}) {
		t.Errorf("aliases array %q splits into %q", nodes[1][aliasAt], got)
	}
	h := relsRows[0]
	nStart, startAt := count(h, ":START_ID")
	nEnd, endAt := count(h, ":END_ID")
	nType, typeAt := count(h, ":TYPE")
	if nStart != 1 || nEnd != 1 || nType != 1 || !strings.HasSuffix(h[startAt], "(Entity)") || !strings.HasSuffix(h[endAt], "(Entity)") {
		t.Fatalf("relationships header %v", h)
	}
	if !strings.HasSuffix(nodes[0][idAt], "(Entity)") {
		t.Fatalf("nodes and relationships use one id space: %v", nodes[0])
	}
	for _, row := range relsRows[1:] {
		if !ids[row[startAt]] || !ids[row[endAt]] || row[typeAt] == "" {
			t.Errorf("relationship %v joins unknown nodes", row)
		}
		for i, f := range h {
			if strings.HasSuffix(f, ":int") || strings.HasSuffix(f, ":long") {
				if _, err := strconv.Atoi(row[i]); row[i] != "" && err != nil {
					t.Errorf("%s = %q is not an integer", f, row[i])
				}
			}
		}
	}
	if len(relsRows)-1 != len(rels) {
		t.Errorf("%d relationships for %d relations", len(relsRows)-1, len(rels))
	}
	cy := sink["graph.cypher"].String()
	for _, want := range []string{"CREATE (n:Entity:`人物`) SET n = row;", "CREATE (a)-[r:`任官`]->(b) SET r = row.p;",
		`quote: "以亮为丞相，\n录尚书事"`, `name: "诸葛亮"`, `year: -206`} {
		if !strings.Contains(cy, want) {
			t.Errorf("graph.cypher lacks %q", want)
		}
	}
	if !strings.Contains(sink["import.sh"].String(), "neo4j-admin database import full") {
		t.Errorf("import.sh: %s", sink["import.sh"])
	}
}

func TestNeo4jLeavesOutTheScriptForALargeGraph(t *testing.T) {
	g := &Graph{}
	for i := range CypherLimit + 1 {
		g.Nodes = append(g.Nodes, Node{Entity: kg.Entity{ID: int64(i + 1), Name: "x", Type: "人物"}})
	}
	sink := memSink{}
	if err := WriteNeo4j(sink, g); err != nil {
		t.Fatal(err)
	}
	if sink["graph.cypher"] != nil || sink["nodes.csv"] == nil {
		t.Fatalf("files %v", slices.Collect(maps.Keys(sink)))
	}
}

func TestCSVForSpreadsheets(t *testing.T) {
	ents, rels := sample()
	sink := memSink{}
	if err := WriteCSV(sink, Select(ents, rels, Filter{})); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"entities.csv": len(ents), "relations.csv": len(rels), "evidence.csv": 5, "aliases.csv": 2}
	for name, n := range want {
		data := sink[name].Bytes()
		if !bytes.HasPrefix(data, []byte("\uFEFF")) {
			t.Errorf("%s has no byte-order mark: spreadsheets would misread its characters", name)
		}
		rows := readCSV(t, bytes.TrimPrefix(data, []byte("\uFEFF")))
		if len(rows)-1 != n {
			t.Errorf("%s: %d rows, want %d", name, len(rows)-1, n)
		}
	}
	rows := readCSV(t, bytes.TrimPrefix(sink["evidence.csv"].Bytes(), []byte("\uFEFF")))
	if q := rows[3][len(rows[3])-1]; q != "以亮为丞相，\n录尚书事" {
		t.Errorf("a sentence with a line break reads back as %q", q)
	}
}

func TestJSONLReadsBackAsWritten(t *testing.T) {
	ents, rels := sample()
	g := Select(ents, rels, Filter{})
	var b bytes.Buffer
	if err := WriteJSONL(&b, g); err != nil {
		t.Fatal(err)
	}
	facts, err := ReadFacts(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(facts) != len(rels) {
		t.Fatalf("%d facts read back, %d written", len(facts), len(rels))
	}
	var again bytes.Buffer
	for _, f := range facts {
		line, _ := jsonLine(f)
		again.WriteString(line)
	}
	if again.String() != b.String() {
		t.Fatalf("facts changed on the way back:\n%s\n%s", b.String(), again.String())
	}
	if f := facts[0]; f.Head != "诸葛亮" || f.Relation != "任官" || f.Year == nil || *f.Year != 221 || len(f.Evidence) != 2 ||
		f.Evidence[0].Doc != "三国志/蜀书/先主传" {
		t.Errorf("first fact %+v", f)
	}
}

func jsonLine(f Fact) (string, error) {
	var b bytes.Buffer
	err := WriteJSONL(&b, &Graph{Relations: []kg.Relation{relationOf(f)}})
	return b.String(), err
}

// relationOf is a record as a relation again.
func relationOf(f Fact) kg.Relation {
	r := kg.Relation{Head: f.Head, HeadType: f.HeadType, Type: f.Relation, Tail: f.Tail, TailType: f.TailType,
		Status: f.Status, Score: f.Score, Extractor: f.Extractor}
	for _, c := range f.Evidence {
		r.Evidence = append(r.Evidence, kg.Evidence{DocKey: c.Doc, Cite: c.Cite, Span: kg.Span{Start: c.Start, End: c.End},
			Head: c.Head, Tail: c.Tail, Sentence: c.Quote, Year: c.Year, Precision: c.Precision, Reign: c.Reign, ReignYear: c.ReignYear})
	}
	return r
}

func TestReadFactsRefusesBadRecords(t *testing.T) {
	good := `{"head":"诸葛亮","head_type":"人物","relation":"任官","tail":"丞相","tail_type":"职官","status":"user","extractor":"user","evidence":[{"doc":"a","cite":"","start":3,"end":8,"head":{"start":3,"end":4},"tail":{"start":6,"end":8},"quote":"亮为之丞相"}]}`
	if _, err := ReadFacts(strings.NewReader("\n" + good + "\n\n")); err != nil {
		t.Fatalf("a good record: %v", err)
	}
	for _, c := range []struct{ name, input, want string }{
		{"not JSON", good + "\n{oops", "line 2: not a fact record"},
		{"two records on a line", good + good, "line 1: more than one record"},
		{"unknown field", strings.Replace(good, `"head":`, `"heed":"x","head":`, 1), "unknown field"},
		{"no evidence", `{"head":"a","head_type":"人物","relation":"任官","tail":"b","tail_type":"职官","status":"user","extractor":"user","evidence":[]}`, "line 1: no evidence"},
		{"quote and offsets disagree", strings.Replace(good, `"end":8,"head"`, `"end":9,"head"`, 1), "the quote is 5 characters"},
		{"tail outside the sentence", strings.Replace(good, `"tail":{"start":6,"end":8}`, `"tail":{"start":6,"end":12}`, 1), "outside the sentence"},
		{"bad status", strings.Replace(good, `"status":"user"`, `"status":"rumoured"`, 1), `status "rumoured"`},
		{"empty head", strings.Replace(good, `"head":"诸葛亮"`, `"head":" "`, 1), "head is empty"},
		{"score out of range", strings.Replace(good, `"extractor"`, `"score":11,"extractor"`, 1), "score 11"},
		{"not UTF-8", "\xff\xfe" + good, "not UTF-8"},
		{"line too long", `{"head":"` + strings.Repeat("x", MaxFactLine) + `"}`, "longer than"},
	} {
		if _, err := ReadFacts(strings.NewReader(c.input)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

func FuzzReadFacts(f *testing.F) {
	f.Add([]byte(`{"head":"诸葛亮","head_type":"人物","relation":"任官","tail":"丞相","tail_type":"职官","status":"user","extractor":"user","evidence":[{"doc":"a","cite":"","start":3,"end":8,"head":{"start":3,"end":4},"tail":{"start":6,"end":8},"quote":"亮为之丞相"}]}`))
	f.Add([]byte("{}\n[]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		facts, err := ReadFacts(bytes.NewReader(data))
		if err != nil {
			return
		}
		// What reads back is valid: writing it and reading again keeps it.
		g := &Graph{}
		for _, f := range facts {
			g.Relations = append(g.Relations, relationOf(f))
		}
		var b bytes.Buffer
		if err := WriteJSONL(&b, g); err != nil {
			t.Fatal(err)
		}
		again, err := ReadFacts(&b)
		if err != nil || len(again) != len(facts) {
			t.Fatalf("%d facts written back read as %d: %v", len(facts), len(again), err)
		}
	})
}

func TestZipAndFolderSinks(t *testing.T) {
	ents, rels := sample()
	g := Select(ents, rels, Filter{})
	dir := t.TempDir()
	if err := Write(CSV, DirSink(filepath.Join(dir, "tables")), g); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "tables", "aliases.csv")); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	z := NewZipSink(&b)
	if err := Write(Neo4j, z, g); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	if !slices.Equal(names, []string{"nodes.csv", "relationships.csv", "import.sh", "graph.cypher"}) {
		t.Fatalf("archive holds %v", names)
	}
	if err := Write(CSV, &WriterSink{W: &b}, g); err == nil {
		t.Fatal("csv's four files went to one writer")
	}
	if err := Write("gexf", DirSink(dir), g); err == nil || !strings.Contains(err.Error(), "graphml, neo4j, csv, jsonl") {
		t.Fatalf("an unknown format: %v", err)
	}
}
