package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	targetSearch   = 50 * time.Millisecond // concordance, p95
	targetBM25     = 5 * time.Millisecond  // BM25 over chunks, p50
	targetExport   = 5 * time.Second       // the whole graph to GraphML, or to neo4j CSV
)

// benchQuestions are what BM25 queries add to a name: a few words, as a
// question would.
var benchQuestions = []string{"为何官，卒于何年", "与谁战于何地", "封为何侯", "之事迹", "天下大乱", "所至之处"}

type childRun struct {
	Wall    time.Duration `json:"wall_ns"`
	CPU     time.Duration `json:"cpu_ns"` // user and system
	PeakRSS int64         `json:"peak_rss_bytes"`
	out     []byte        // what it printed
}

type benchReport struct {
	Corpus     string            `json:"corpus"`
	Index      childRun          `json:"index"`
	IndexSteps []annals.StepTime `json:"index_steps"`
	Reindex    childRun          `json:"reindex"`
	Lookups    int               `json:"lookups"`
	LookupMean time.Duration     `json:"lookup_mean_ns"`
	LookupP95  time.Duration     `json:"lookup_p95_ns"`
	LookupMax  time.Duration     `json:"lookup_max_ns"`
	CLIEntity  childRun          `json:"cli_entity"`
	// Exports of the whole graph, as commands.
	ExportGraphML childRun        `json:"export_graphml"`
	ExportNeo4j   childRun        `json:"export_neo4j"`
	Searches      int             `json:"searches"`
	SearchMean    time.Duration   `json:"search_mean_ns"`
	SearchP95     time.Duration   `json:"search_p95_ns"`
	SearchMax     time.Duration   `json:"search_max_ns"`
	BM25          int             `json:"bm25_queries"`
	BM25P50       time.Duration   `json:"bm25_p50_ns"`
	BM25P95       time.Duration   `json:"bm25_p95_ns"`
	BM25Max       time.Duration   `json:"bm25_max_ns"`
	Ask           *askBench       `json:"ask"`
	Relate        *relateBench    `json:"relate"`
	Serve         *serveBench     `json:"serve"`
	Stats         *annals.Stats   `json:"stats"`
	TargetsMet    map[string]bool `json:"targets_met"`
}

func (a *app) benchCmd() *cobra.Command {
	var keep, api bool
	var cpuProfile string
	cmd := &cobra.Command{
		Use:   "bench [PATH]",
		Short: "Measure index time, peak memory, re-index time, entity lookup and search latency",
		Long: `Indexes PATH (default: the First Four Histories in ../shared/data) into a fresh
temporary workspace in a child process, measuring wall time and peak RSS; then
re-indexes the unchanged corpus; then looks up the most mentioned entities,
runs the concordance of each of their names, and ranks chunks by BM25 for each
name with a few words, reporting the latencies; then questions, relation
reasoning, and the HTTP API under load. Prints each figure beside its target.

With --api it measures only the HTTP API, on the current workspace.`,
		Example: "  annals bench\n  annals bench ~/texts/han --json\n  annals bench --api --workspace ~/histories/.annals",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if api {
				return a.withWorkspace(cmd, true, func(ws *annals.Workspace) error {
					stop, err := startCPUProfile(cpuProfile)
					if err != nil {
						return err
					}
					defer stop()
					return a.benchAPI(cmd.Context(), ws)
				})
			}
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
			a.printf("corpus %s: %d documents, %s characters\n", rep.Corpus, rep.Stats.Documents, thousands(int64(rep.Stats.Characters)))
			a.printf("index      %8.2f s   (target ≤ %v)  %s\n", rep.Index.Wall.Seconds(), targetIndex, mark(rep.TargetsMet["index_time"]))
			a.printf("  %.2f s CPU; by step:", rep.Index.CPU.Seconds())
			for _, s := range rep.IndexSteps {
				if s.Work > 0 {
					a.printf("  %s %.2f s work;", s.Name, s.Work.Seconds())
					continue
				}
				a.printf("  %s %.2f s wall, %.2f s CPU;", s.Name, s.Wall.Seconds(), s.CPU.Seconds())
			}
			a.printf("\n")
			a.printf("peak RSS   %8.0f MB  (target ≤ 1 GB)  %s\n", float64(rep.Index.PeakRSS)/(1<<20), mark(rep.TargetsMet["index_rss"]))
			a.printf("re-index   %8.2f s   (target ≤ %v)  %s\n", rep.Reindex.Wall.Seconds(), targetReindex, mark(rep.TargetsMet["reindex_time"]))
			a.printf("entity     %8.2f ms mean, %.2f ms p95, %.2f ms max over %d lookups (target ≤ 10 ms)  %s\n",
				ms(rep.LookupMean), ms(rep.LookupP95), ms(rep.LookupMax), rep.Lookups, mark(rep.TargetsMet["entity_lookup"]))
			a.printf("`annals entity` as a command: %.1f ms wall (process start included)\n", ms(rep.CLIEntity.Wall))
			a.printf("export     %8.2f s GraphML, %.2f s neo4j CSV, wall; %.2f s and %.2f s CPU (target ≤ %v)  %s\n",
				rep.ExportGraphML.Wall.Seconds(), rep.ExportNeo4j.Wall.Seconds(), rep.ExportGraphML.CPU.Seconds(), rep.ExportNeo4j.CPU.Seconds(),
				targetExport, mark(rep.TargetsMet["export"]))
			a.printf("search     %8.2f ms mean, %.2f ms p95, %.2f ms max over %d concordances (target p95 ≤ 50 ms)  %s\n",
				ms(rep.SearchMean), ms(rep.SearchP95), ms(rep.SearchMax), rep.Searches, mark(rep.TargetsMet["search"]))
			a.printf("bm25       %8.2f ms p50, %.2f ms p95, %.2f ms max over %d queries (target p50 ≤ 5 ms)  %s\n",
				ms(rep.BM25P50), ms(rep.BM25P95), ms(rep.BM25Max), rep.BM25, mark(rep.TargetsMet["bm25"]))
			if q := rep.Ask; q != nil {
				a.printf("retrieve   %8.2f ms p50, %.2f ms p99 over %d questions (target p50 ≤ 5 ms, p99 ≤ 50 ms)  %s\n",
					ms(q.RetrieveP50), ms(q.RetrieveP99), q.Questions, mark(rep.TargetsMet["retrieve"]))
				a.printf("  before them, reading vectors, lexical index and graph structure into memory: %.0f ms\n", ms(q.Warm))
				a.printf("answer     %8.2f ms p50, %.2f ms p99, offline, %d of %d answered (target p50 ≤ 20 ms)  %s\n",
					ms(q.AnswerP50), ms(q.AnswerP99), q.Answered, q.Questions, mark(rep.TargetsMet["answer"]))
				a.printf("`annals ask` as a fresh process: %.0f ms wall p50, %.0f ms CPU (target ≤ 150 ms)  %s\n", ms(q.Process.Wall), ms(q.Process.CPU), mark(rep.TargetsMet["ask_process"]))
			}
			if r := rep.Relate; r != nil {
				a.printf("relate     %8.2f ms p50, %.2f ms p99, %.2f ms max over %d pairs; %d with a path, %d findings (target p50 ≤ 100 ms, p99 ≤ 1 s)  %s\n",
					ms(r.P50), ms(r.P99), ms(r.Max), r.Pairs, r.Connected, r.Findings, mark(rep.TargetsMet["relate"]))
			}
			a.printServeBench(rep.Serve)
			a.printStats(rep.Stats)
			return nil
		},
	}
	cmd.Flags().BoolVar(&keep, "keep", false, "keep the temporary workspace")
	cmd.Flags().BoolVar(&api, "api", false, "measure only the HTTP API, on the current workspace")
	cmd.Flags().StringVar(&cpuProfile, "cpuprofile", "", "with --api: write a CPU profile of the server and its load to FILE")
	return cmd
}

func mark(ok bool) string {
	if ok {
		return "ok"
	}
	return "OVER TARGET"
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
	var printed struct {
		Index annals.IndexReport `json:"index"`
	}
	if err := json.Unmarshal(rep.Index.out, &printed); err != nil {
		return nil, fmt.Errorf("index: read its report: %w", err)
	}
	rep.IndexSteps = printed.Index.Steps
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
	// The whole graph exported, as a user runs it.
	out, err := os.MkdirTemp("", "annals-export-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(out)
	if rep.ExportGraphML, err = runChild(ctx, exe, "--workspace", ws, "-q", "export", "--format", "graphml", "-o", filepath.Join(out, "g.graphml")); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	if rep.ExportNeo4j, err = runChild(ctx, exe, "--workspace", ws, "-q", "export", "--format", "neo4j", "-o", filepath.Join(out, "neo4j")); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	rep.TargetsMet["export"] = rep.ExportGraphML.Wall <= targetExport && rep.ExportNeo4j.Wall <= targetExport
	// The concordance of each name (one-character names read every
	// document), and BM25 over chunks for the name with a few words.
	times = times[:0]
	total = 0
	for _, e := range top {
		t0 := time.Now()
		if _, err := w.Search(ctx, e.Name, annals.SearchOptions{}); err != nil {
			return nil, fmt.Errorf("search %s: %w", e.Name, err)
		}
		d := time.Since(t0)
		times = append(times, d)
		total += d
	}
	if len(times) > 0 {
		slices.Sort(times)
		rep.Searches = len(times)
		rep.SearchMean = total / time.Duration(len(times))
		rep.SearchP95 = times[len(times)*95/100]
		rep.SearchMax = times[len(times)-1]
	}
	times = times[:0]
	for i, e := range top {
		t0 := time.Now()
		if _, err := w.SearchChunks(ctx, e.Name+benchQuestions[i%len(benchQuestions)], 20); err != nil {
			return nil, fmt.Errorf("BM25 search for %s: %w", e.Name, err)
		}
		times = append(times, time.Since(t0))
	}
	if len(times) > 0 {
		slices.Sort(times)
		rep.BM25 = len(times)
		rep.BM25P50 = times[len(times)/2]
		rep.BM25P95 = times[len(times)*95/100]
		rep.BM25Max = times[len(times)-1]
	}
	// Questions about the most mentioned people.
	var people []string
	for _, e := range top {
		if e.Type == "人物" && len([]rune(e.Name)) > 1 {
			people = append(people, e.Name)
		}
	}
	if rep.Ask, err = benchAsk(ctx, w, exe, people); err != nil {
		return nil, fmt.Errorf("ask: %w", err)
	}
	if rep.Relate, err = benchRelate(ctx, w); err != nil {
		return nil, fmt.Errorf("relate: %w", err)
	}
	names := make([]string, len(top))
	for i, e := range top {
		names[i] = e.Name
	}
	if rep.Serve, err = benchServe(ctx, w, names); err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	if s := rep.Serve; s != nil {
		rep.TargetsMet["api_latency"], rep.TargetsMet["api_rate"] = s.LatencyMet, s.RateMet
	}
	if r := rep.Relate; r != nil {
		rep.TargetsMet["relate"] = r.P50 <= targetRelateP50 && r.P99 <= targetRelateP99
	}
	rep.TargetsMet["retrieve"] = rep.Ask.RetrieveP50 <= targetRetrieveP50 && rep.Ask.RetrieveP99 <= targetRetrieveP99
	rep.TargetsMet["answer"] = rep.Ask.AnswerP50 <= targetAnswerP50
	rep.TargetsMet["ask_process"] = rep.Ask.Process.Wall <= targetAskProcess
	rep.TargetsMet["search"] = rep.Searches > 0 && rep.SearchP95 <= targetSearch
	rep.TargetsMet["bm25"] = rep.BM25 > 0 && rep.BM25P50 <= targetBM25
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
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	t0 := time.Now()
	err := cmd.Run()
	r := childRun{Wall: time.Since(t0), out: stdout.Bytes()}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.PeakRSS = ru.Maxrss * 1024 // Linux reports kilobytes
			r.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
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
