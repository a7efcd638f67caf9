package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/export"
)

func (a *app) exportCmd() *cobra.Command {
	var opts annals.ExportOptions
	var format, out string
	var unverified bool
	var since int
	cmd := &cobra.Command{
		Use:   "export --format FORMAT [-o PATH]",
		Short: "Write the graph for Gephi, Cytoscape, Neo4j, spreadsheets or scripts",
		Long: `Writes the graph, every fact with the sentences it rests on, in one of:

  graphml  one file for Gephi and Cytoscape: nodes with type, names, years and
           mentions; edges with the relation, evidence count, year and first citation
  neo4j    nodes.csv and relationships.csv for neo4j-admin import, import.sh to
           run it, and graph.cypher for cypher-shell when the graph is small
  csv      entities.csv, relations.csv, evidence.csv and aliases.csv for spreadsheets
  jsonl    one fact per line with its full provenance (document, offsets, quote,
           status, extractor, year); annals import reads it back
  sft      chain-of-thought training records for fine-tuning an extraction
           model elsewhere: one a sentence, with the extraction prompt's five
           steps worked out from the facts it states and the reply as output;
           only facts verified or scored at extract.threshold or above, unless
           --unverified

graphml, jsonl and sft go to standard output, or to -o FILE. csv and neo4j write
several files: -o FOLDER, or -o FILE.zip for one archive.

Years are astronomical (−121 is 122 BCE): a node's first_year and last_year
are those of its dated facts, an edge's year the earliest its sentences give.`,
		Example: `  annals export --format graphml -o 三国.graphml
  annals export --format neo4j -o neo4j/ && sh neo4j/import.sh
  annals export --format csv -o tables.zip --type 人物 --relation 子女,同胞
  annals export --format jsonl --around 曹操 --depth 2 > 曹操.jsonl
  annals export --format graphml --since 184 --relation 攻 -o wars.graphml
  annals export --format sft -o train.jsonl     # verified facts as training records
  annals export --format sft --unverified > silver.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format == "" {
				return fmt.Errorf("give --format: one of %s", strings.Join(export.Formats, ", "))
			}
			if err := export.CheckFormat(format); err != nil {
				return err
			}
			if cmd.Flags().Changed("since") {
				opts.Since = &since
			}
			if opts.Depth < 0 || opts.Depth > 10 {
				return fmt.Errorf("--depth %d: want 1 to 10", opts.Depth)
			}
			if opts.Depth > 0 && opts.Around == "" {
				return errors.New("--depth needs --around NAME")
			}
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				g, err := ws.ExportGraph(cmd.Context(), opts.ForFormat(format, unverified))
				if err != nil {
					return err
				}
				if err := writeExport(format, out, a.out, g); err != nil {
					return err
				}
				if out != "" && !a.quiet {
					a.warnf("wrote %d entities and %d relations (%s) to %s\n", len(g.Nodes), len(g.Relations), format, out)
				}
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", "", "graphml, neo4j, csv, jsonl or sft (chain-of-thought training records)")
	f.BoolVar(&unverified, "unverified", false, "sft: every fact, not only those verified or scored at extract.threshold or above")
	f.StringVarP(&out, "output", "o", "", "file or folder to write (FILE.zip: one archive); default: standard output")
	f.StringSliceVar(&opts.Types, "type", nil, "only entities of these types (人物,地点 …)")
	f.StringSliceVar(&opts.Relations, "relation", nil, "only relations of these types (任官,子女 …)")
	f.IntVar(&since, "since", 0, "only relations dated in or after this year")
	f.StringVar(&opts.Around, "around", "", "only the graph around this entity")
	f.IntVar(&opts.Depth, "depth", 0, "with --around: how many relations away (default 1)")
	return cmd
}

// writeExport writes g where out says: standard output, a file, a folder,
// or a zip archive.
func writeExport(format, out string, stdout io.Writer, g *export.Graph) (err error) {
	zipped := strings.EqualFold(filepath.Ext(out), ".zip")
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		return export.Write(format, export.DirSink(out), g) // a folder takes any format's files
	}
	switch {
	case out == "" && !export.SingleFile(format):
		return fmt.Errorf("%s writes several files: give -o FOLDER, or -o FILE.zip", format)
	case out == "":
		return export.Write(format, &export.WriterSink{W: stdout}, g)
	case export.SingleFile(format) && !zipped:
		f, err := os.Create(out)
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		if err := export.Write(format, &export.WriterSink{W: f}, g); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	case zipped:
		f, err := os.Create(out)
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		z := export.NewZipSink(f)
		err = export.Write(format, z, g)
		if cerr := z.Close(); err == nil {
			err = cerr
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	return export.Write(format, export.DirSink(out), g)
}

func (a *app) importCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "import --format jsonl FILE",
		Short: "Read facts exported as JSON Lines back into the workspace, with their provenance",
		Long: `Reads facts written by annals export --format jsonl (FILE, or - for standard
input) into this workspace. The whole file is checked first: a line that is
not a fact stops the import, naming the line, before anything is written.

Each sentence must be in a document of this workspace, under the same key,
with the same characters at the same offsets. A sentence that is not is
dropped; a fact left with none is skipped; both are reported. An extracted
fact this workspace's extractor also read is already present. Other facts are
kept beside the extracted ones, so re-indexing leaves them in place; an
extracted fact that no extractor here read is kept as a user fact. Imported
facts are listed by annals feedback list and taken out by annals feedback revert.`,
		Example: `  annals export --format jsonl -w old/.annals > facts.jsonl
  annals import --format jsonl facts.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != export.JSONL {
				return fmt.Errorf("import --format %q: only jsonl is read back", format)
			}
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				rep, err := ws.ImportFacts(cmd.Context(), args[0], a.waiting)
				if err != nil {
					return err
				}
				if a.json {
					return a.printJSON(rep)
				}
				a.printf("added %d facts (%d new entities); %d were present; %d skipped; %d sentences dropped\n",
					rep.Added, rep.EntitiesAdded, rep.Present, len(rep.Skipped), len(rep.Dropped))
				a.listSkipped("skipped", rep.Skipped)
				a.listSkipped("dropped a sentence of", rep.Dropped)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&format, "format", export.JSONL, "format of FILE (jsonl)")
	return cmd
}

// shownSkipped is how many skipped facts the text output lists; --json
// gives them all.
const shownSkipped = 20

func (a *app) listSkipped(what string, list []annals.SkippedFact) {
	for i, s := range list {
		if i == shownSkipped {
			a.printf("  … and %d more (--json lists them all)\n", len(list)-i)
			break
		}
		a.printf("  %s %s: %s\n", what, s.Fact, s.Reason)
	}
}
