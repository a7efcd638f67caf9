// Package export writes a graph in the formats other tools read: GraphML
// for Gephi and Cytoscape, neo4j-admin import CSV (and a Cypher script
// for small graphs) for Neo4j, plain CSV for spreadsheets, and JSON Lines
// of facts with their full provenance, which `annals import` reads back.
package export

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/annals-project/annals/internal/kg"
)

// Formats, as `annals export --format` names them.
const (
	GraphML = "graphml"
	Neo4j   = "neo4j"
	CSV     = "csv"
	JSONL   = "jsonl"
)

// Formats lists every format.
var Formats = []string{GraphML, Neo4j, CSV, JSONL, SFT}

// SingleFile says whether a format is one file (graphml, jsonl, sft)
// rather than a set of them (csv, neo4j).
func SingleFile(format string) bool { return format == GraphML || format == JSONL || format == SFT }

// FileName is the name of a single-file format's file, or of the zip that
// holds a set of files.
func FileName(format string) string {
	switch format {
	case GraphML:
		return "annals.graphml"
	case JSONL:
		return "annals.jsonl"
	case SFT:
		return "annals-sft.jsonl"
	}
	return "annals-" + format + ".zip"
}

// ContentType is the media type a single-file format is served with; a
// set of files is served as a zip.
func ContentType(format string) string {
	switch format {
	case GraphML:
		return "application/graphml+xml; charset=utf-8"
	case JSONL, SFT:
		return "application/jsonl; charset=utf-8"
	}
	return "application/zip"
}

// CheckFormat refuses a format this package does not write.
func CheckFormat(format string) error {
	if !slices.Contains(Formats, format) {
		return fmt.Errorf("export format %q: want one of %s", format, strings.Join(Formats, ", "))
	}
	return nil
}

// Node is an entity as exported: its row, and the years its dated facts
// span (nil when none is dated).
type Node struct {
	kg.Entity
	FirstYear, LastYear *int
}

// Graph is what an export writes: nodes, and relations between them with
// all their evidence.
type Graph struct {
	Nodes     []Node
	Relations []kg.Relation
}

// Sink makes the files of an export.
type Sink interface {
	Create(name string) (io.WriteCloser, error)
}

// Write writes g in format to sink: one file for graphml and jsonl, a set
// of files for csv and neo4j.
func Write(format string, sink Sink, g *Graph) error {
	if err := CheckFormat(format); err != nil {
		return err
	}
	if SingleFile(format) {
		f, err := sink.Create(FileName(format))
		if err != nil {
			return err
		}
		switch format {
		case GraphML:
			err = WriteGraphML(f, g)
		case SFT:
			err = WriteSFT(f, g)
		default:
			err = WriteJSONL(f, g)
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	if format == CSV {
		return WriteCSV(sink, g)
	}
	return WriteNeo4j(sink, g)
}

// DirSink writes each file into a folder, made if needed.
type DirSink string

// Create makes the file name in the folder.
func (d DirSink) Create(name string) (io.WriteCloser, error) {
	if err := os.MkdirAll(string(d), 0o755); err != nil {
		return nil, fmt.Errorf("make export folder: %w", err)
	}
	f, err := os.Create(filepath.Join(string(d), name))
	if err != nil {
		return nil, fmt.Errorf("write export: %w", err)
	}
	return f, nil
}

// WriterSink writes the one file of a single-file format to a writer.
type WriterSink struct{ W io.Writer }

// Create hands out the writer; a second file is an error.
func (s *WriterSink) Create(name string) (io.WriteCloser, error) {
	if s.W == nil {
		return nil, fmt.Errorf("export %s: this output takes one file", name)
	}
	w := s.W
	s.W = nil
	return nopCloser{w}, nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// ZipSink writes the files into a zip archive; Close finishes it.
type ZipSink struct{ z *zip.Writer }

// NewZipSink writes a zip archive to w.
func NewZipSink(w io.Writer) *ZipSink { return &ZipSink{zip.NewWriter(w)} }

// Create adds a file to the archive. Only one is open at a time.
func (s *ZipSink) Create(name string) (io.WriteCloser, error) {
	w, err := s.z.Create(name)
	if err != nil {
		return nil, err
	}
	return nopCloser{w}, nil
}

// Close writes the archive's directory.
func (s *ZipSink) Close() error { return s.z.Close() }

// relationYear is the earliest year a relation's evidence dates it to.
func relationYear(r *kg.Relation) *int {
	var y *int
	for _, ev := range r.Evidence {
		if ev.Year != nil && (y == nil || *ev.Year < *y) {
			y = ev.Year
		}
	}
	return y
}

// aliasNames are an entity's other names, each once, in order.
func aliasNames(as []kg.Alias) []string {
	var out []string
	seen := map[string]bool{}
	for _, a := range as {
		if !seen[a.Name] {
			seen[a.Name] = true
			out = append(out, a.Name)
		}
	}
	return out
}
