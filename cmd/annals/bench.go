package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/eval"
)

// Targets a full offline index of the First Four Histories must meet on a
// 2-core machine.
const (
	targetIndex    = 30 * time.Second
	targetRSS      = 1 << 30
	targetReindex  = 3 * time.Second
	targetLookup   = 10 * time.Millisecond
	benchLookupTop = 200
)

type childRun struct {
	Wall    time.Duration `json:"wall_ns"`
	PeakRSS int64         `json:"peak_rss_bytes"`
}

type benchReport struct {
	Corpus     string          `json:"corpus"`
	Index      childRun        `json:"index"`
	Reindex    childRun        `json:"reindex"`
	Lookups    int             `json:"lookups"`
	LookupMean time.Duration   `json:"lookup_mean_ns"`
	LookupP95  time.Duration   `json:"lookup_p95_ns"`
	LookupMax  time.Duration   `json:"lookup_max_ns"`
	CLIEntity  childRun        `json:"cli_entity"`
	Stats      *annals.Stats   `json:"stats"`
	TargetsMet map[string]bool `json:"targets_met"`
}

func (a *app) benchCmd() *cobra.Command {
	var keep bool
	cmd := &cobra.Command{
		Use:   "bench [PATH]",
		Short: "Measure index time, peak memory, re-index time and entity lookup latency",
		Long: `Indexes PATH (default: the First Four Histories in ../shared/data) into a fresh
temporary workspace in a child process, measuring wall time and peak RSS; then
re-indexes the unchanged corpus; then looks up the most mentioned entities and
reports their latency. Prints each figure beside its target.`,
		Example: "  annals bench\n  annals bench ~/texts/han --json",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := ""
			if len(args) == 1 {
				path = args[0]
			} else {
				dir, err := eval.DataDir()
				if err != nil {
					return fmt.Errorf("no PATH given and %w", err)
				}
				path = filepath.Join(dir, "first-four-histories")
			}
			tmp, err := os.MkdirTemp("", "annals-bench-")
			if err != nil {
				return err
			}
			if keep {
				a.warnf("workspace kept at %s\n", tmp)
			} else {
				defer os.RemoveAll(tmp)
			}
			rep, err := a.bench(cmd.Context(), path, tmp)
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(rep)
			}
			mark := func(ok bool) string {
				if ok {
					return "ok"
				}
				return "OVER TARGET"
			}
			a.printf("corpus %s: %d documents, %s characters\n", rep.Corpus, rep.Stats.Documents, thousands(int64(rep.Stats.Characters)))
			a.printf("index      %8.2f s   (target ≤ %v)  %s\n", rep.Index.Wall.Seconds(), targetIndex, mark(rep.TargetsMet["index_time"]))
			a.printf("peak RSS   %8.0f MB  (target ≤ 1 GB)  %s\n", float64(rep.Index.PeakRSS)/(1<<20), mark(rep.TargetsMet["index_rss"]))
			a.printf("re-index   %8.2f s   (target ≤ %v)  %s\n", rep.Reindex.Wall.Seconds(), targetReindex, mark(rep.TargetsMet["reindex_time"]))
			a.printf("entity     %8.2f ms mean, %.2f ms p95, %.2f ms max over %d lookups (target ≤ 10 ms)  %s\n",
				ms(rep.LookupMean), ms(rep.LookupP95), ms(rep.LookupMax), rep.Lookups, mark(rep.TargetsMet["entity_lookup"]))
			a.printf("`annals entity` as a command: %.1f ms wall (process start included)\n", ms(rep.CLIEntity.Wall))
			a.printStats(rep.Stats)
			return nil
		},
	}
	cmd.Flags().BoolVar(&keep, "keep", false, "keep the temporary workspace")
	return cmd
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func (a *app) bench(ctx context.Context, path, ws string) (*benchReport, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	rep := &benchReport{Corpus: path, TargetsMet: map[string]bool{}}
	if rep.Index, err = runChild(ctx, exe, "--workspace", ws, "--quiet", "--json", "index", path); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	if rep.Reindex, err = runChild(ctx, exe, "--workspace", ws, "--quiet", "--json", "index", path); err != nil {
		return nil, fmt.Errorf("re-index: %w", err)
	}
	w, err := annals.Open(ctx, ws)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	if rep.Stats, err = w.Stats(ctx); err != nil {
		return nil, err
	}
	top, err := w.Entities(ctx, annals.EntityQuery{Limit: benchLookupTop})
	if err != nil {
		return nil, err
	}
	var times []time.Duration
	var total time.Duration
	for _, e := range top {
		t0 := time.Now()
		if _, err := w.Entity(ctx, e.Name, annals.EntityOptions{}); err != nil {
			return nil, fmt.Errorf("look up %s: %w", e.Name, err)
		}
		d := time.Since(t0)
		times = append(times, d)
		total += d
	}
	if len(times) > 0 {
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
		rep.Lookups = len(times)
		rep.LookupMean = total / time.Duration(len(times))
		rep.LookupP95 = times[len(times)*95/100]
		rep.LookupMax = times[len(times)-1]
		if rep.CLIEntity, err = runChild(ctx, exe, "--workspace", ws, "--json", "entity", top[0].Name); err != nil {
			return nil, fmt.Errorf("entity: %w", err)
		}
	}
	rep.TargetsMet["index_time"] = rep.Index.Wall <= targetIndex
	rep.TargetsMet["index_rss"] = rep.Index.PeakRSS <= targetRSS
	rep.TargetsMet["reindex_time"] = rep.Reindex.Wall <= targetReindex
	rep.TargetsMet["entity_lookup"] = rep.LookupMean <= targetLookup && rep.LookupP95 <= targetLookup
	return rep, nil
}

// runChild runs the command and reports its wall time and peak resident set
// size (from the kernel's rusage for the child).
func runChild(ctx context.Context, exe string, args ...string) (childRun, error) {
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Stdout = nil
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	t0 := time.Now()
	err := cmd.Run()
	r := childRun{Wall: time.Since(t0)}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.PeakRSS = ru.Maxrss * 1024 // Linux reports kilobytes
		}
	}
	if err != nil {
		return r, fmt.Errorf("%v: %s", err, stderr.String())
	}
	return r, nil
}

// limitedBuffer keeps the last few KB a child wrote to stderr.
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	l.b = append(l.b, p...)
	if len(l.b) > 8192 {
		l.b = l.b[len(l.b)-8192:]
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string { return string(l.b) }
