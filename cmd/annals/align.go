package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
)

func (a *app) alignCmd() *cobra.Command {
	var opts annals.AlignOptions
	cmd := &cobra.Command{
		Use:   "align",
		Short: "Ask the LLM which entities are one and the same, and merge them",
		Long: `Finds groups of entities that might be one (names sharing characters, known
aliases), shows the LLM what the texts say about each name, and records the
merges it justifies: the same person under a 字, 号, title or posthumous name,
never merely similar names. Every merge is listed by ` + "`annals merge`" + ` with its
reason and source llm:MODEL, and ` + "`annals merge --undo ID`" + ` reverses it for good.
Groups already judged with the same evidence are not asked again.

Needs an LLM endpoint (ANNALS_LLM_BASE_URL and ANNALS_LLM_MODEL, or llm: in
annals.yaml).`,
		Example: `  annals align
  annals align --type 地点 --max-tokens 200000
  annals merge            # what was merged, and why`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
				opts.Waiting = a.waiting
				rep, err := ws.AlignWithLLM(cmd.Context(), opts)
				if rep == nil {
					return err
				}
				if a.json {
					if perr := a.printJSON(rep); perr != nil {
						return perr
					}
					return err
				}
				a.printAlignReport(rep)
				return err
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Type, "type", "", "align one entity type (default: 人物, 地点, 社会集团, person, place, organisation)")
	f.IntVar(&opts.Batch, "batch", 0, "groups of candidates per prompt (default 8)")
	f.IntVar(&opts.MaxTokens, "max-tokens", 0, "LLM token budget for this run; stops cleanly, keeping recorded merges (0: none)")
	f.BoolVar(&opts.Again, "again", false, "ask again about groups already judged with the same evidence")
	return cmd
}

func (a *app) printAlignReport(rep *annals.AlignReport) {
	a.printf("%d entities (%s): %d candidate pairs in %d groups, %d judged before\n",
		rep.Entities, strings.Join(rep.Types, ", "), rep.Candidates, rep.Groups, rep.Judged)
	if len(rep.CandidatesBy) > 0 {
		a.printf("  candidates by reason: %s\n", countList(rep.CandidatesBy))
	}
	a.printf("asked %d batches: %d calls (%d cached), %d failed; %d merges recorded\n",
		rep.Batches, rep.Calls, rep.Cached, rep.Failures, len(rep.Merges))
	for _, m := range rep.Merges {
		a.printf("  merge %d: %s [%s] ← %s  (%s)\n", m.ID, m.Canonical, m.Type, strings.Join(m.Names, "、"), m.Reason)
	}
	if len(rep.Skipped) > 0 {
		a.printf("not recorded: %s\n", countList(rep.Skipped))
	}
	if len(rep.Problems) > 0 {
		a.printf("dropped from replies: %s\n", countList(rep.Problems))
	}
	if rep.Stopped != "" {
		a.printf("stopped early: %s; recorded merges are kept, and the next run asks the rest\n", rep.Stopped)
	}
	if len(rep.Usage) > 0 {
		a.printf("LLM usage of this run:\n")
		a.printUsage(rep.Usage)
	}
	if len(rep.Merges) > 0 {
		a.printf("undo a merge with: annals merge --undo ID\n")
	}
}
