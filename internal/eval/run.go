package eval

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/schema"
)

// Options tune RunExtract.
type Options struct {
	// Limit scores only the first Limit examples of each file; 0 means all.
	Limit int
	// Workers bounds concurrent Extract calls; 0 means runtime.NumCPU().
	Workers int
	// DataDir is the shared data folder; empty means DataDir().
	DataDir string
	// Schema is given to the extractor; nil means zh-history, which the
	// mappings are written against.
	Schema *schema.Schema
	// SplitOffices scores CHisIEC in its own convention for offices: a
	// place and its office fused into one office (临松太守) are split
	// before scoring (see splitOffices). Extractors that echo CHisIEC's own
	// spans leave it off.
	SplitOffices bool
	// Annotations is the folder of the project's annotations (data set
	// annals); empty means internal/ner/annotations.
	Annotations string
	// Progress, when set, is called after each example, never concurrently.
	Progress func(done, total int)
}

// RunExtract runs ex over every example of a data set's split and scores
// it. Each example is extracted on its own (Lang lzh, Doc nil), with
// several Extract calls in flight at once. For CHisIEC, entities are scored
// on the NER file and triples on the relation file of the split; C-CLUE has
// triples only.
func RunExtract(ctx context.Context, ex extract.Extractor, ds Dataset, split string, opts Options) (*Report, error) {
	start := time.Now()
	m, err := MappingFor(ds)
	if err != nil {
		return nil, err
	}
	sch := opts.Schema
	if sch == nil {
		sch = schema.MustLoad(schema.ZhHistory)
	}
	dir := opts.DataDir
	if dir == "" {
		if dir, err = DataDir(); err != nil {
			return nil, err
		}
	}
	rep := &Report{Dataset: ds, Split: split, Extractor: ex.Name(), Version: ex.Version(), Limit: opts.Limit, Mapping: m}

	// Load everything first, so that a missing file fails before any
	// extraction work.
	var entEx, triEx []Example
	var entSrc, triSrc string
	switch ds {
	case CHisIEC:
		if entEx, err = LoadCHisIECNER(dir, split); err != nil {
			return nil, err
		}
		if triEx, err = LoadCHisIECRE(dir, split); err != nil {
			return nil, err
		}
		entSrc, _ = splitFile(ds, "NER", split, chisiecNERFiles)
		triSrc, _ = splitFile(ds, "RE", split, chisiecREFiles)
	case CCLUE:
		if triEx, err = LoadCCLUE(dir, split); err != nil {
			return nil, err
		}
		triSrc, _ = splitFile(ds, "RE", split, cclueFiles)
	case Annals:
		opts.DataDir = dir
		if err := runAnnals(ctx, ex, sch, split, opts, rep); err != nil {
			return nil, err
		}
		rep.Seconds = time.Since(start).Seconds()
		return rep, nil
	}
	entEx, triEx = limit(entEx, opts.Limit), limit(triEx, opts.Limit)

	prog := newProgress(opts.Progress, len(entEx)+len(triEx))
	if len(entEx) > 0 {
		res, err := extractAll(ctx, ex, sch, entEx, opts.Workers, prog)
		if err != nil {
			return nil, fmt.Errorf("%s %s entities: %w", ds, split, err)
		}
		if ds == CHisIEC && opts.SplitOffices {
			res = splitOffices(res)
		}
		if rep.Entities, err = ScoreEntities(m, entSrc, entEx, res); err != nil {
			return nil, err
		}
	}
	res, err := extractAll(ctx, ex, sch, triEx, opts.Workers, prog)
	if err != nil {
		return nil, fmt.Errorf("%s %s triples: %w", ds, split, err)
	}
	if ds == CHisIEC && opts.SplitOffices {
		res = splitOffices(res)
	}
	if rep.Triples, err = ScoreTriples(m, sch, triSrc, triEx, res); err != nil {
		return nil, err
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

func limit(exs []Example, n int) []Example {
	if n > 0 && n < len(exs) {
		return exs[:n]
	}
	return exs
}

type progress struct {
	mu    sync.Mutex
	done  int
	total int
	fn    func(done, total int)
}

func newProgress(fn func(done, total int), total int) *progress {
	return &progress{fn: fn, total: total}
}

func (p *progress) step() {
	if p.fn == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.fn(p.done, p.total)
}

// extractAll runs ex over exs with a bounded pool; results[i] belongs to
// exs[i] whatever order the calls finish in. The first error stops the run.
func extractAll(ctx context.Context, ex extract.Extractor, sch *schema.Schema, exs []Example, workers int, prog *progress) ([]extract.Result, error) {
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = max(1, min(workers, len(exs)))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make([]extract.Result, len(exs))
	jobs := make(chan int)
	var (
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
	)
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				if ctx.Err() != nil {
					continue
				}
				r, err := ex.Extract(ctx, extract.Input{Text: exs[i].Text, Lang: "lzh", Schema: sch})
				if err != nil {
					once.Do(func() {
						firstErr = fmt.Errorf("extract %s: %w", exs[i].ID, err)
						cancel()
					})
					continue
				}
				out[i] = r
				prog.step()
			}
		})
	}
feed:
	for i := range exs {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
