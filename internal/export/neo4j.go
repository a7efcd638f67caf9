package export

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/annals-project/annals/internal/kg"
)

// CypherLimit is the most nodes and relations together for which the
// neo4j export also writes graph.cypher: a script runs one statement per
// batch through the server, far slower than neo4j-admin import.
const CypherLimit = 20000

// neo4j-admin import header fields: ids in the Entity id space, typed
// properties, labels and types (Neo4j operations manual, "CSV header
// format"). Arrays are split on neo4jArray.
var (
	neo4jNodeHeader = []string{"id:ID(Entity)", "name", "type", "aliases:string[]", "mentions:int", "first_year:int",
		"last_year:int", ":LABEL"}
	neo4jRelHeader = []string{":START_ID(Entity)", ":END_ID(Entity)", ":TYPE", "id:long", "status", "score:double",
		"extractor", "support:int", "year:int", "cite", "doc", "start:int", "end:int", "quote", "evidence:string[]"}
)

const neo4jArray = ";"

// neo4jImportScript loads the files into a new database with Neo4j 5's
// neo4j-admin; the database is named by the first argument.
const neo4jImportScript = `#!/bin/sh
# Load this export into a new, empty Neo4j database (Neo4j 5):
#   sh import.sh [DATABASE]      (default: neo4j; stop the database first)
# Neo4j 4 takes the same files: neo4j-admin import --database=DATABASE
#   --nodes=nodes.csv --relationships=relationships.csv --multiline-fields=true
set -e
cd "$(dirname "$0")"
neo4j-admin database import full --overwrite-destination=true \
  --nodes=nodes.csv --relationships=relationships.csv \
  --array-delimiter=';' --multiline-fields=true "${1:-neo4j}"
`

// WriteNeo4j writes nodes.csv and relationships.csv for neo4j-admin
// import, import.sh to run it, and, for a graph of at most CypherLimit
// nodes and relations, graph.cypher for cypher-shell.
func WriteNeo4j(sink Sink, g *Graph) error {
	err := writeTable(sink, "nodes.csv", false, neo4jNodeHeader, func(add func(...string) error) error {
		for _, n := range g.Nodes {
			if err := add(id64(n.ID), n.Name, n.Type, neo4jList(aliasNames(n.Aliases)), itoa(n.Mentions),
				optInt(n.FirstYear), optInt(n.LastYear), "Entity"+neo4jArray+neo4jElement(n.Type)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	err = writeTable(sink, "relationships.csv", false, neo4jRelHeader, func(add func(...string) error) error {
		for i := range g.Relations {
			r := &g.Relations[i]
			row := []string{id64(r.HeadID), id64(r.TailID), r.Type, id64(r.ID), r.Status, optFloat(r.Score), r.Extractor,
				itoa(len(r.Evidence)), optInt(relationYear(r))}
			row = append(append(row, firstCitation(r)...), neo4jList(evidenceRefs(r)))
			if err := add(row...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	f, err := sink.Create("import.sh")
	if err != nil {
		return err
	}
	_, err = f.Write([]byte(neo4jImportScript))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil || len(g.Nodes)+len(g.Relations) > CypherLimit {
		return err
	}
	return writeCypher(sink, g)
}

// evidenceRefs names every sentence of a relation as DOC@START-END.
func evidenceRefs(r *kg.Relation) []string {
	out := make([]string, len(r.Evidence))
	for i, ev := range r.Evidence {
		out[i] = fmt.Sprintf("%s@%d-%d", ev.DocKey, ev.Start, ev.End)
	}
	return out
}

// neo4jElement keeps an array element whole: the array delimiter in it
// becomes its full-width form.
func neo4jElement(s string) string { return strings.ReplaceAll(s, neo4jArray, "；") }

func neo4jList(items []string) string {
	for i := range items {
		items[i] = neo4jElement(items[i])
	}
	return strings.Join(items, neo4jArray)
}

// cypherBatch is how many rows one UNWIND statement carries.
const cypherBatch = 500

// writeCypher writes a script that creates the graph through
// cypher-shell: nodes by type, then relations by type, in batches.
func writeCypher(sink Sink, g *Graph) error {
	f, err := sink.Create("graph.cypher")
	if err != nil {
		return err
	}
	b := bufio.NewWriterSize(f, 1<<16)
	b.WriteString("// Load with: cypher-shell -f graph.cypher\n")
	b.WriteString("CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (n:Entity) REQUIRE n.id IS UNIQUE;\n")
	var types []string
	byType := map[string][]string{}
	for _, n := range g.Nodes {
		props := cypherMap{}
		props.int("id", int(n.ID)).str("name", n.Name).str("type", n.Type).list("aliases", aliasNames(n.Aliases)).
			int("mentions", n.Mentions).opt("first_year", n.FirstYear).opt("last_year", n.LastYear)
		if _, ok := byType[n.Type]; !ok {
			types = append(types, n.Type)
		}
		byType[n.Type] = append(byType[n.Type], props.String())
	}
	for _, t := range types {
		writeBatches(b, byType[t], "CREATE (n:Entity:"+cypherName(t)+") SET n = row;\n")
	}
	types, byType = nil, map[string][]string{}
	for i := range g.Relations {
		r := &g.Relations[i]
		props := cypherMap{}
		props.int("s", int(r.HeadID)).int("t", int(r.TailID))
		p := cypherMap{}
		p.int("id", int(r.ID)).str("status", r.Status).float("score", r.Score).str("extractor", r.Extractor).
			int("support", len(r.Evidence)).opt("year", relationYear(r))
		if len(r.Evidence) > 0 {
			ev := r.Evidence[0]
			p.str("cite", ev.Cite).str("doc", ev.DocKey).int("start", ev.Start).int("end", ev.End).str("quote", ev.Sentence)
		}
		p.list("evidence", evidenceRefs(r))
		props.raw("p", p.String())
		if _, ok := byType[r.Type]; !ok {
			types = append(types, r.Type)
		}
		byType[r.Type] = append(byType[r.Type], props.String())
	}
	for _, t := range types {
		writeBatches(b, byType[t], "MATCH (a:Entity {id: row.s}), (b:Entity {id: row.t})\nCREATE (a)-[r:"+cypherName(t)+"]->(b) SET r = row.p;\n")
	}
	err = b.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func writeBatches(b *bufio.Writer, rows []string, stmt string) {
	for i := 0; i < len(rows); i += cypherBatch {
		b.WriteString("UNWIND [\n  ")
		b.WriteString(strings.Join(rows[i:min(i+cypherBatch, len(rows))], ",\n  "))
		b.WriteString("\n] AS row\n")
		b.WriteString(stmt)
	}
}

// cypherName quotes a label or relationship type.
func cypherName(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// cypherMap builds a Cypher map literal; a missing value is left out.
type cypherMap struct{ parts []string }

func (m *cypherMap) raw(k, v string) *cypherMap {
	m.parts = append(m.parts, k+": "+v)
	return m
}

// cypherString is a Cypher string literal: JSON's escapes are Cypher's.
func cypherString(s string) string {
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(sb.String(), "\n")
}

func (m *cypherMap) str(k, v string) *cypherMap { return m.raw(k, cypherString(v)) }
func (m *cypherMap) int(k string, v int) *cypherMap {
	return m.raw(k, itoa(v))
}

func (m *cypherMap) opt(k string, v *int) *cypherMap {
	if v == nil {
		return m
	}
	return m.int(k, *v)
}

func (m *cypherMap) float(k string, v *float64) *cypherMap {
	if v == nil {
		return m
	}
	return m.raw(k, optFloat(v))
}

func (m *cypherMap) list(k string, vs []string) *cypherMap {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = cypherString(v)
	}
	return m.raw(k, "["+strings.Join(q, ", ")+"]")
}

func (m *cypherMap) String() string { return "{" + strings.Join(m.parts, ", ") + "}" }
