package main

import (
	"github.com/annals-project/annals"
	"github.com/spf13/cobra"
)

func (a *app) describeCmd() *cobra.Command {
	var opts annals.DescribeOptions
	cmd := &cobra.Command{
		Use:   "describe [NAME...]",
		Short: "Have the LLM write entities' descriptions from their facts",
		Long: `Writes each entity's description with the LLM: a sentence or two merged from
the facts the graph holds about it (its best-attested 40, with their years),
given the description annals writes offline from the same facts as a draft.
The model may only restate what the facts say. The description is stored and
shown on the entity's page (and by "annals entity") in place of the offline
one; an entity the model fails on keeps its page as it was. Without names,
the --top most mentioned entities (of --type) are described. --clear takes the
model's descriptions off again.

Needs an LLM endpoint (ANNALS_LLM_BASE_URL and ANNALS_LLM_MODEL, or llm: in
annals.yaml); without one, every page shows the description written from the
facts.`,
		Example: `  annals describe 曹操 诸葛亮
  annals describe --top 200 --type 人物 --max-tokens 300000
  annals describe 曹操 --clear`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Names, opts.Waiting = args, a.waiting
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				got, err := ws.Describe(cmd.Context(), opts)
				if a.json {
					if perr := a.printJSON(got); perr != nil {
						return perr
					}
					return err
				}
				for _, d := range got {
					switch {
					case opts.Clear:
						a.printf("%s [%s]: cleared\n", d.Name, d.Type)
					case d.Error != "":
						a.printf("%s [%s]: not described: %s\n", d.Name, d.Type, d.Error)
					default:
						a.printf("%s [%s]: %s\n", d.Name, d.Type, d.Description)
					}
				}
				return err
			})
		},
	}
	f := cmd.Flags()
	f.IntVar(&opts.Top, "top", 50, "without names: how many of the most mentioned entities to describe")
	f.StringVar(&opts.Type, "type", "", "without names: only entities of this type")
	f.BoolVar(&opts.Clear, "clear", false, "take the model's descriptions off instead")
	f.IntVar(&opts.MaxTokens, "max-tokens", 0, "LLM token budget for this run (0: none)")
	return cmd
}
