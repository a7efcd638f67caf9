package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/demo"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/workspace"
)

// featured are the demo entities quickstart shows.
var featured = []string{"诸葛亮", "曹操", "孙权", "Zhuge Liang", "Lý Thường Kiệt"}

func (a *app) quickstartCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "quickstart [DIR]",
		Short: "Index the built-in demo corpus and show what annals found",
		Long: `Writes the demo corpus (Three Kingdoms biographies in classical Chinese, a little
English and Vietnamese history) and its alias dictionary into DIR (default
./annals-demo), indexes it into DIR/.annals, and shows a few entities with their
facts and the sentences they come from. No network, no key, no service.`,
		Example: "  annals quickstart\n  annals quickstart /tmp/demo --json",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			dir := "annals-demo"
			if len(args) == 1 {
				dir = args[0]
			}
			corpusDir, aliasFile, err := demo.WriteTo(dir)
			if err != nil {
				return err
			}
			wsDir := a.workspace
			if wsDir == "" {
				wsDir = filepath.Join(dir, workspace.DirName)
			}
			ws, err := annals.Open(ctx, wsDir)
			if err != nil {
				return err
			}
			defer ws.Close()
			arep, err := ws.ImportAliases(ctx, aliasFile, a.waiting)
			if err != nil {
				return err
			}
			rep, err := a.runIndex(cmd, ws, []string{corpusDir}, annals.IndexOptions{Extractor: annals.ExtractorPattern})
			if err != nil {
				return err
			}
			var views []*annals.EntityView
			for _, name := range featured {
				v, err := ws.Entity(ctx, name, annals.EntityOptions{Relations: 6, Mentions: 2})
				if errors.Is(err, annals.ErrNotFound) {
					continue
				}
				if err != nil {
					return err
				}
				views = append(views, v)
			}
			if a.json {
				st, err := ws.Stats(ctx)
				if err != nil {
					return err
				}
				return a.printJSON(map[string]any{"workspace": ws.Dir, "corpus": corpusDir, "aliases": arep, "index": rep, "stats": st, "entities": views})
			}
			a.printf("annals quickstart: demo corpus written to %s, workspace %s\n\n", corpusDir, ws.Dir)
			if err := a.printIndexReport(cmd, ws, rep); err != nil {
				return err
			}
			a.printf("alias dictionary %s: %d aliases\n", aliasFile, arep.Read)
			for _, v := range views {
				a.printf("\n")
				a.printEntityBrief(v)
			}
			rel := ws.Dir
			if r, err := filepath.Rel(mustCwd(), ws.Dir); err == nil && !strings.HasPrefix(r, "..") {
				rel = r
			}
			self := commandLine()
			w := self + " -w " + shellQuote(rel)
			next := [][2]string{
				{w + " entity 孔明", "look up by 字, alias or name"},
				{w + " entities --type 职官", "offices, most mentioned first"},
				{w + " stats", ""},
				{w + " ask 孔明卒于何处？", "answered from the graph, cited"},
				{w + " relate 孙坚 孙策", "how two are related, step by step"},
				{w + " bio 诸葛亮", "his profile and a biography, every sentence cited"},
				{w + " serve", "browse it at http://127.0.0.1:8080 (and a JSON API)"},
				{"echo '关羽，字云长，河东解人也。' | " + self + " extract", ""},
				{self + " index YOUR_FOLDER", "your own corpus, into ./.annals"},
			}
			width := widest(next, 0, func(n [2]string) string { return n[0] })
			a.printf("\nWhat next:\n")
			for _, n := range next {
				if n[1] == "" {
					a.printf("  %s\n", n[0])
					continue
				}
				a.printf("  %s  # %s\n", pad(n[0], width), n[1])
			}
			return nil
		},
	}
}

// printEntityBrief shows an entity's names and first facts with their
// citations.
func (a *app) printEntityBrief(v *annals.EntityView) {
	a.printf("%s [%s], %d mentions", v.Name, v.Type, v.Mentions)
	var names []string
	seen := map[string]bool{}
	for _, al := range v.Aliases {
		if n := al.Name + "(" + al.Kind + ")"; !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	if len(names) > 0 {
		a.printf("; also %s", strings.Join(names, "、"))
	}
	a.printf("\n")
	for _, r := range v.Relations {
		if kg.IsAliasRelation(r.Type) {
			continue // listed above as names
		}
		a.printf("  (%s, %s, %s)\n", r.Head, r.Type, r.Tail)
		if len(r.Evidence) > 0 {
			e := r.Evidence[0]
			a.printf("      「%s」 %s [%d,%d)\n", strings.TrimSpace(e.Sentence), e.Cite, e.Start, e.End)
		}
	}
}

// commandLine is how to run this annals again from a shell here: "annals"
// where that is this program, the go run line under go run (whose program
// is gone once it exits), else the program's path.
func commandLine() string {
	exe, err := os.Executable()
	if err != nil {
		return "annals"
	}
	return commandFor(exe, mustCwd(), exec.LookPath)
}

// modulePath is the module annals is built from.
const modulePath = "github.com/annals-project/annals"

// commandFor is commandLine for the program exe run from the folder cwd,
// lookPath finding programs on PATH.
func commandFor(exe, cwd string, lookPath func(string) (string, error)) string {
	if fromGoRun(exe) {
		if root := moduleRoot(cwd); root != "" {
			if rel, err := filepath.Rel(cwd, filepath.Join(root, "cmd", "annals")); err == nil {
				rel = filepath.ToSlash(rel)
				if rel != "." && !strings.HasPrefix(rel, "../") {
					rel = "./" + rel
				}
				return "go run " + shellQuote(rel)
			}
		}
		return "go run " + modulePath + "/cmd/annals@latest"
	}
	if p, err := lookPath("annals"); err == nil {
		if a, err1 := os.Stat(p); err1 == nil {
			if b, err2 := os.Stat(exe); err2 == nil && os.SameFile(a, b) {
				return "annals"
			}
		}
	}
	return shellQuote(exe)
}

// fromGoRun reports whether exe was built by go run: into a temporary
// go-build… folder, or kept in the build cache (GOCACHE, by default a
// go-build folder) for the next go run.
func fromGoRun(exe string) bool {
	for _, dir := range strings.Split(filepath.ToSlash(filepath.Dir(exe)), "/") {
		if strings.HasPrefix(dir, "go-build") {
			return true
		}
	}
	if c := os.Getenv("GOCACHE"); c != "" && c != "off" {
		if rel, err := filepath.Rel(c, exe); err == nil && !strings.HasPrefix(rel, "..") {
			return true
		}
	}
	return false
}

// moduleRoot is the folder at or above dir whose go.mod is annals', or "".
func moduleRoot(dir string) string {
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			for line := range strings.Lines(string(data)) {
				if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
					if f[1] == modulePath {
						return dir
					}
					return ""
				}
			}
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// shellQuote quotes s for a POSIX shell where it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func mustCwd() string {
	wd, _ := os.Getwd()
	return wd
}
