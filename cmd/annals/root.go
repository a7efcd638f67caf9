package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/workspace"
)

// app holds the global flags and the output streams.
type app struct {
	workspace string
	json      bool
	schema    string
	quiet     bool
	in        io.Reader // where rm reads its confirmation
	out       io.Writer
	errOut    io.Writer
	// canAsk reports whether in is a terminal a person answers on.
	canAsk func() bool
	// progressTo, when set, receives the progress lines whether or not
	// the command is interactive (tests read them there).
	progressTo io.Writer

	// waitMu guards waitLast, when waiting last printed.
	waitMu   sync.Mutex
	waitLast time.Time
}

func newRoot(out, errOut io.Writer) *cobra.Command {
	root, _ := newApp(os.Stdin, out, errOut)
	return root
}

// newApp makes the root command reading confirmations from in, and returns
// its app too.
func newApp(in io.Reader, out, errOut io.Writer) (*cobra.Command, *app) {
	a := &app{in: in, out: out, errOut: errOut}
	a.canAsk = func() bool {
		f, ok := a.in.(*os.File)
		return ok && term.IsTerminal(int(f.Fd()))
	}
	root := &cobra.Command{
		Use:   "annals",
		Short: "Turn historical texts into a knowledge graph that cites its sources",
		Long: `annals reads historical texts (classical and modern Chinese, Vietnamese, English)
and builds a knowledge graph of people, places, offices, titles, groups, works
and times, every fact tied to the sentence it came from. It works offline, with
no key and no service to start.

The workspace is --workspace, else $ANNALS_WORKSPACE, else the nearest .annals/
folder here or above, else ./.annals/ (made by init or the first index).

` + exitCodesHelp,
		Example: `  annals quickstart                      # index the built-in demo and show what it found
  annals index ~/texts/first-four-histories
  annals entity 诸葛亮
  annals entities --type 职官
  echo '诸葛亮，字孔明，琅邪阳都人也。' | annals extract --json`,
		Version:       buildVersion(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("annals {{.Version}}\n")
	root.SetOut(out)
	root.SetErr(errOut)
	pf := root.PersistentFlags()
	pf.StringVarP(&a.workspace, "workspace", "w", "", "workspace folder (default: $ANNALS_WORKSPACE, nearest .annals/, ./.annals/)")
	pf.BoolVar(&a.json, "json", false, "print JSON instead of text")
	pf.StringVar(&a.schema, "schema", "", "schema: zh-history, general, or FILE.yaml (default: by language)")
	pf.BoolVarP(&a.quiet, "quiet", "q", false, "no progress bar")
	root.AddCommand(
		a.initCmd(), a.indexCmd(), a.extractCmd(), a.statsCmd(), a.entityCmd(), a.bioCmd(), a.entitiesCmd(),
		a.docsCmd(), a.rmCmd(), a.aliasesCmd(), a.mergeCmd(), a.alignCmd(), a.describeCmd(), a.schemaCmd(), a.dateCmd(), a.timelineCmd(), a.searchCmd(), a.communitiesCmd(), a.communityCmd(), a.askCmd(), a.relateCmd(), a.feedbackCmd(), a.exportCmd(), a.importCmd(), a.quickstartCmd(), a.evalCmd(), a.trainCmd(), a.benchCmd(), a.cacheCmd(),
		a.migrateCmd(), a.mcpCmd(), a.serveCmd(),
	)
	markUsageErrors(root)
	return root, a
}

func (a *app) dir() string {
	cwd, _ := os.Getwd()
	return workspace.Find(a.workspace, cwd)
}

// open opens the workspace; with mustExist, a missing workspace is an error
// that says how to make one.
func (a *app) open(ctx context.Context, mustExist bool) (*annals.Workspace, error) {
	return a.openWith(ctx, mustExist, annals.OpenOptions{})
}

func (a *app) openWith(ctx context.Context, mustExist bool, o annals.OpenOptions) (*annals.Workspace, error) {
	dir := a.dir()
	if mustExist && !workspace.Exists(dir) {
		return nil, fmt.Errorf("no workspace at %s: run `annals index PATH` (or `annals quickstart` for the demo)", dir)
	}
	ws, err := annals.OpenWith(ctx, dir, o)
	if err != nil {
		return nil, err
	}
	if a.schema != "" {
		ws.Config.Schema = a.schema
	}
	return ws, nil
}

// withWorkspace runs f with the workspace open, and closes it after.
func (a *app) withWorkspace(cmd *cobra.Command, mustExist bool, f func(*annals.Workspace) error) error {
	return a.withWorkspaceOpened(cmd, mustExist, annals.OpenOptions{}, f)
}

func (a *app) withWorkspaceOpened(cmd *cobra.Command, mustExist bool, o annals.OpenOptions, f func(*annals.Workspace) error) error {
	ws, err := a.openWith(cmd.Context(), mustExist, o)
	if err != nil {
		return err
	}
	defer ws.Close()
	return f(ws)
}

// printJSON prints v as indented JSON, every list in it as [] rather than
// null when empty.
func (a *app) printJSON(v any) error {
	enc := json.NewEncoder(a.out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(emptyLists(v))
}

// printf writes to stdout, and warnf to stderr, with the control
// characters of string arguments escaped (see plain): only the format's
// line breaks and the like reach the terminal.
func (a *app) printf(format string, args ...any) { fmt.Fprintf(a.out, format, plainArgs(args)...) }

func (a *app) warnf(format string, args ...any) { fmt.Fprintf(a.errOut, format, plainArgs(args)...) }

// interactive reports whether progress should be drawn: stderr is a
// terminal and neither --quiet nor --json was given.
func (a *app) interactive() bool {
	if a.quiet || a.json {
		return false
	}
	f, ok := a.errOut.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// waitEvery is the least time between two lines of waiting: a run with
// many LLM calls in flight hears of a wait from each of them.
const waitEvery = 3 * time.Second

// waiting tells the user on stderr what the command waits for (another
// writer, an LLM call being retried or slow to reply): the first report at
// once, then at most one line every waitEvery. It is safe to call from many
// goroutines.
func (a *app) waiting(msg string) {
	a.waitMu.Lock()
	defer a.waitMu.Unlock()
	now := time.Now()
	if !a.waitLast.IsZero() && now.Sub(a.waitLast) < waitEvery {
		return
	}
	a.waitLast = now
	a.warnf("annals: %s\n", msg)
}

func (a *app) initCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "init",
		Short:   "Create a workspace with a commented annals.yaml",
		Example: "  annals init\n  annals --workspace ~/graphs/han init",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withWorkspace(cmd, false, func(ws *annals.Workspace) error {
				if a.json {
					return a.printJSON(map[string]string{"workspace": ws.Dir})
				}
				a.printf("workspace ready at %s\nsettings: %s/annals.yaml\nnext: %s -w %s index PATH\n", ws.Dir, ws.Dir, commandLine(), shellQuote(ws.Dir))
				return nil
			})
		},
	}
}
