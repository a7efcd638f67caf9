package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/text"
)

func (a *app) indexCmd() *cobra.Command {
	var workers int
	var t2s, cpuProfile string
	var opts annals.IndexOptions
	cmd := &cobra.Command{
		Use:   "index PATH…",
		Short: "Read files and folders into the graph (unchanged files are skipped)",
		Long: `Reads .txt, .md, .jsonl/.json files and folders of them. Encodings UTF-8,
UTF-16, GB18030/GBK and Big5 are detected; binary, empty or undecodable files
are skipped with a warning. A folder tree BOOK/…/CHAPTER/text.txt keeps its
path as the section (《BOOK·…·CHAPTER》). Re-indexing skips unchanged files and
replaces the facts of changed ones; an interrupted run resumes.

A document counts as indexed only when every chunk was extracted: with an LLM,
every reply complete and readable. A document a step failed on (a reply in
prose, one cut off at llm.max_tokens, a call that kept failing) is recorded as
failed with the reason, keeps what an earlier version gave, and is tried again
by the next run; ` + "`annals docs --failed`" + ` lists such documents.

Exit status: 0 when no document failed (files skipped as unreadable do not
count), 4 when some documents failed (the report is printed and the rest of the
run is kept), 2 for a wrong command line, 1 for any other error.`,
		Example: `  annals index ../shared/data/first-four-histories
  annals index notes.md records.jsonl
  annals --schema general index english-sources/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, paths []string) error {
			return a.withWorkspaceOpened(cmd, false, annals.OpenOptions{ForIndexing: true}, func(ws *annals.Workspace) error {
				if cmd.Flags().Changed("workers") {
					ws.Config.Workers = workers
				}
				switch t2s {
				case "":
				case "on":
					ws.Config.Normalize.T2S = true
				case "off":
					ws.Config.Normalize.T2S = false
				default:
					return fmt.Errorf("--t2s %q: want on or off", t2s)
				}
				stop, err := startCPUProfile(cpuProfile)
				if err != nil {
					return err
				}
				defer stop()
				rep, err := a.runIndex(cmd, ws, paths, opts)
				if err != nil {
					return err
				}
				if err := a.printIndexReport(cmd, ws, rep); err != nil {
					return err
				}
				return annals.IndexFailures(rep)
			})
		},
	}
	cmd.Flags().IntVar(&workers, "workers", 0, "documents processed at once (default: workers in annals.yaml, else one per CPU)")
	cmd.Flags().StringVar(&opts.Extractor, "extractor", "", "pattern, llm, ekg or regex (default: extract.extractor in annals.yaml; llm when an endpoint is set, else pattern)")
	cmd.Flags().StringVar(&opts.Model, "model", "", `the offline extractor's name model: a file from annals train ner, or "rules" for the rules alone (default: extract.model in annals.yaml, the one annals ships)`)
	cmd.Flags().IntVar(&opts.MaxTokens, "max-tokens", 0, "LLM token budget for this run; stops cleanly, keeping finished documents (0: none)")
	cmd.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the run to FILE (read it with go tool pprof)")
	cmd.Flags().StringVar(&t2s, "t2s", "", "traditional→simplified for Chinese: on or off (default: normalize.t2s in annals.yaml, on)")
	return cmd
}

// startCPUProfile profiles the process's CPU into path until the returned
// stop is called; with no path it does nothing.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// runIndex indexes with a progress line on a terminal and warnings on
// stderr.
func (a *app) runIndex(cmd *cobra.Command, ws *annals.Workspace, paths []string, opts annals.IndexOptions) (*annals.IndexReport, error) {
	p := a.newProgress("indexing", "docs")
	defer p.Finish()
	p.Step(stepLabel("documents"))
	opts.Waiting = a.waiting
	if p != nil {
		opts.Waiting = p.Wait
	}
	opts.Warn = func(msg string) {
		p.Above(func() { a.warnf("warning: %s\n", msg) })
	}
	opts.Progress = func(pr annals.Progress) {
		p.Set(pr.Documents, pr.Total)
		if pr.Step != "" {
			// A corpus step after the documents: say which.
			p.Step(stepLabel(pr.Step))
		}
	}
	installFaults(&opts)
	return ws.Index(cmd.Context(), paths, opts)
}

// termWidth is the width of the terminal stderr writes to; 80 when that is
// not known.
func (a *app) termWidth() int {
	if f, ok := a.errOut.(*os.File); ok {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w
		}
	}
	return 80
}

// installFaults reads ANNALS_FAULT=after-commit:N or before-commit:N, which
// kills the process at that point of the Nth write batch. It exists for the
// crash tests, which check that the next run resumes and loses nothing.
func installFaults(opts *annals.IndexOptions) {
	spec := os.Getenv("ANNALS_FAULT")
	if spec == "" {
		return
	}
	point, num, _ := strings.Cut(spec, ":")
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 {
		return
	}
	kill := func() { syscall.Kill(os.Getpid(), syscall.SIGKILL) }
	switch point {
	case "after-commit":
		opts.AfterCommit = func(batch int) {
			if batch == n {
				kill()
			}
		}
	case "before-commit":
		count := 0
		opts.BeforeCommit = func() {
			count++
			if count == n {
				kill()
			}
		}
	}
}

func (a *app) printIndexReport(cmd *cobra.Command, ws *annals.Workspace, rep *annals.IndexReport) error {
	st, err := ws.Stats(cmd.Context())
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(map[string]any{"index": rep, "stats": st})
	}
	a.printf("read %d documents (%s characters) in %s: %d added, %d changed, %d updated, %d unchanged\n",
		rep.Documents, thousands(rep.Characters), rep.Elapsed.Round(time.Millisecond), rep.Added, rep.Changed, rep.Updated, rep.Unchanged)
	if n := len(rep.Skipped); n > 0 {
		a.printf("skipped %d file(s); see the warnings above\n", n)
	}
	if rep.Stopped != "" {
		a.printf("stopped early: %s; finished documents are kept, and the next run goes on from there\n", rep.Stopped)
	}
	if len(rep.Usage) > 0 {
		a.printf("LLM usage of this run:\n")
		a.printUsage(rep.Usage)
	}
	a.printStats(st)
	return nil
}

func (a *app) printStats(st *annals.Stats) {
	a.printf("graph: %d entities, %d relations (%d evidence sentences), %d mentions, %d aliases, in %d documents / %d chunks\n",
		st.Entities, st.Relations, st.Evidence, st.Mentions, st.Aliases, st.Documents, st.Chunks)
	if len(st.EntityTypes) > 0 {
		a.printf("  entities by type:  %s\n", countList(st.EntityTypes))
	}
	if len(st.Relation) > 0 {
		a.printf("  relations by type: %s\n", countList(st.Relation))
	}
}

// countList renders a count map as "a 3 · b 2", largest first.
func countList(m map[string]int) string {
	type kv struct {
		k string
		v int
	}
	var list []kv
	for k, v := range m {
		list = append(list, kv{k, v})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].v != list[j].v {
			return list[i].v > list[j].v
		}
		return list[i].k < list[j].k
	})
	parts := make([]string, len(list))
	for i, x := range list {
		parts[i] = fmt.Sprintf("%s %d", x.k, x.v)
	}
	return strings.Join(parts, " · ")
}

func thousands(n int64) string { return text.Thousands(n) }
