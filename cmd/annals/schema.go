package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/schema"
	"github.com/annals-project/annals/internal/workspace"
)

func (a *app) schemaCmd() *cobra.Command {
	var lang string
	cmd := &cobra.Command{
		Use:   "schema",
		Short: "Show the schema: entity types, relation types with their directions, and what grew",
		Long: `Shows the schema that --schema, the workspace's settings or the language choose
(zh-history for Chinese, general otherwise), and, in a workspace where the LLM
proposed new types, which joined the schema and from which evidence.`,
		Example: "  annals schema\n  annals schema --lang en\n  annals --schema my-schema.yaml schema --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !workspace.Exists(a.dir()) {
				name := a.schema
				if name == "" {
					name = schema.ForLanguage(lang)
				}
				s, err := schema.Load(name)
				if err != nil {
					return err
				}
				if a.json {
					return a.printJSON(map[string]any{"schema": s})
				}
				a.printSchema(s)
				return nil
			}
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				s, err := ws.ActiveSchema(cmd.Context(), lang)
				if err != nil {
					return err
				}
				g, err := ws.Growth(cmd.Context())
				if err != nil {
					return err
				}
				if a.json {
					return a.printJSON(map[string]any{"schema": s, "growth": g})
				}
				a.printSchema(s)
				a.printGrowth(g)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&lang, "lang", "lzh", "language that chooses the default schema (lzh, zh, en, vi)")
	return cmd
}

func (a *app) printSchema(s *schema.Schema) {
	a.printf("schema %s: %s\n\nentity types:\n", s.Name, s.Description)
	w := widest(s.EntityTypes, 0, func(e schema.EntityType) string { return e.Name })
	for _, e := range s.EntityTypes {
		a.printf("  %s %s\n", pad(e.Name, w), e.Description)
	}
	a.printf("\nrelation types (head → tail):\n")
	dirs := make([]string, len(s.RelationTypes))
	for i, r := range s.RelationTypes {
		dom, rng := strings.Join(r.Domain, "|"), strings.Join(r.Range, "|")
		if dom == "" {
			dom = "any"
		}
		if rng == "" {
			rng = "any"
		}
		dirs[i] = dom + " → " + rng
		if r.Symmetric {
			dirs[i] += " (symmetric)"
		}
	}
	w = widest(s.RelationTypes, 0, func(r schema.RelationType) string { return r.Name })
	dw := widest(dirs, 0, func(d string) string { return d })
	for i, r := range s.RelationTypes {
		a.printf("  %s %s  %s\n", pad(r.Name, w), pad(dirs[i], dw), r.Description)
	}
	if len(s.AttributeTypes) > 0 {
		a.printf("\nattribute types:\n")
		w := widest(s.AttributeTypes, 0, func(t schema.AttributeType) string { return t.Name })
		for _, t := range s.AttributeTypes {
			a.printf("  %s %s\n", pad(t.Name, w), t.Description)
		}
	}
}

// printGrowth lists the types the LLM proposed, with their support and
// evidence.
func (a *app) printGrowth(g *annals.SchemaGrowth) {
	if len(g.Accepted)+len(g.Pending) == 0 {
		return
	}
	show := func(title string, list []schema.Candidate) {
		if len(list) == 0 {
			return
		}
		a.printf("\n%s:\n", title)
		kw := widest(list, 0, func(c schema.Candidate) string { return c.Kind })
		nw := widest(list, 0, func(c schema.Candidate) string { return c.Name })
		for _, c := range list {
			a.printf("  %s %s in %d confident chunk(s) of %d", pad(c.Kind, kw), pad(c.Name, nw), c.Support, len(c.Chunks))
			if len(c.Domain)+len(c.Range) > 0 {
				a.printf("  %s → %s", strings.Join(c.Domain, "|"), strings.Join(c.Range, "|"))
			}
			a.printf("\n")
			for i, e := range c.Evidence {
				if i == 2 {
					break
				}
				a.printf("      「%s」\n", e)
			}
		}
	}
	show("grown into the schema", g.Accepted)
	show("proposed, not yet accepted", g.Pending)
}
