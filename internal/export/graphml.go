package export

import (
	"bufio"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
)

// GraphML's namespace and schema (graphml.graphdrawing.org, version 1.0).
const (
	graphMLNamespace = "http://graphml.graphdrawing.org/xmlns"
	graphMLSchema    = "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd"
)

// graphMLKey declares one attribute. Gephi takes a node's "label" as its
// label and an edge's "weight" as its weight; Cytoscape shows "name".
type graphMLKey struct{ id, on, name, typ string }

var graphMLKeys = []graphMLKey{
	{"label", "node", "label", "string"},
	{"name", "node", "name", "string"},
	{"type", "node", "type", "string"},
	{"aliases", "node", "aliases", "string"},
	{"mentions", "node", "mentions", "int"},
	{"first_year", "node", "first_year", "int"},
	{"last_year", "node", "last_year", "int"},
	{"elabel", "edge", "label", "string"},
	{"relation", "edge", "relation", "string"},
	{"status", "edge", "status", "string"},
	{"score", "edge", "score", "double"},
	{"extractor", "edge", "extractor", "string"},
	{"support", "edge", "support", "int"},
	{"weight", "edge", "weight", "double"},
	{"year", "edge", "year", "int"},
	{"cite", "edge", "cite", "string"},
	{"doc", "edge", "doc", "string"},
	{"start", "edge", "start", "int"},
	{"end", "edge", "end", "int"},
	{"quote", "edge", "quote", "string"},
}

// WriteGraphML writes g as a directed GraphML graph: nodes with their
// type, names, years and mention count; edges with the relation, its
// evidence count, year and first citation.
func WriteGraphML(w io.Writer, g *Graph) error {
	b := bufio.NewWriterSize(w, 1<<16)
	b.WriteString(xml.Header)
	b.WriteString(`<graphml xmlns="` + graphMLNamespace + `" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="` +
		graphMLNamespace + " " + graphMLSchema + "\">\n")
	for _, k := range graphMLKeys {
		b.WriteString(`  <key id="` + k.id + `" for="` + k.on + `" attr.name="` + k.name + `" attr.type="` + k.typ + "\"/>\n")
	}
	b.WriteString(`  <graph id="annals" edgedefault="directed">` + "\n")
	for _, n := range g.Nodes {
		b.WriteString(`    <node id="n` + strconv.FormatInt(n.ID, 10) + "\">")
		data(b, "label", n.Name)
		data(b, "name", n.Name)
		data(b, "type", n.Type)
		if len(n.Aliases) > 0 {
			data(b, "aliases", strings.Join(aliasNames(n.Entity.Aliases), "; "))
		}
		data(b, "mentions", strconv.Itoa(n.Mentions))
		if n.FirstYear != nil {
			data(b, "first_year", strconv.Itoa(*n.FirstYear))
			data(b, "last_year", strconv.Itoa(*n.LastYear))
		}
		b.WriteString("</node>\n")
	}
	for i := range g.Relations {
		r := &g.Relations[i]
		b.WriteString(`    <edge id="e` + strconv.FormatInt(r.ID, 10) + `" source="n` + strconv.FormatInt(r.HeadID, 10) +
			`" target="n` + strconv.FormatInt(r.TailID, 10) + "\">")
		data(b, "elabel", r.Type)
		data(b, "relation", r.Type)
		data(b, "status", r.Status)
		if r.Score != nil {
			data(b, "score", strconv.FormatFloat(*r.Score, 'g', -1, 64))
		}
		data(b, "extractor", r.Extractor)
		data(b, "support", strconv.Itoa(len(r.Evidence)))
		data(b, "weight", strconv.Itoa(max(len(r.Evidence), 1)))
		if y := relationYear(r); y != nil {
			data(b, "year", strconv.Itoa(*y))
		}
		if len(r.Evidence) > 0 {
			ev := r.Evidence[0]
			data(b, "cite", ev.Cite)
			data(b, "doc", ev.DocKey)
			data(b, "start", strconv.Itoa(ev.Start))
			data(b, "end", strconv.Itoa(ev.End))
			data(b, "quote", ev.Sentence)
		}
		b.WriteString("</edge>\n")
	}
	b.WriteString("  </graph>\n</graphml>\n")
	return b.Flush()
}

// data writes one attribute value, escaped; characters XML cannot hold
// become U+FFFD.
func data(b *bufio.Writer, key, value string) {
	b.WriteString(`<data key="` + key + `">`)
	xml.EscapeText(b, []byte(value))
	b.WriteString("</data>")
}
