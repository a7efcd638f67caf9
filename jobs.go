package annals

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/annals-project/annals/internal/corpus"
)

// IndexJob is an index run started on a server's behalf, as its watchers
// see it.
type IndexJob struct {
	ID    int64  `json:"id"`
	Path  string `json:"path"`  // the folder or file, as resolved on the server
	State string `json:"state"` // running, done, failed or cancelled
	// Phase is "read" while documents are read and worked on, then the
	// name of each corpus step as it runs: "align", "embed", "date".
	Phase   string `json:"phase"`
	Done    int    `json:"done"`    // documents handled
	Written int    `json:"written"` // of which new or changed
	// Failed counts the documents a step failed on (see
	// Workspace.FailedDocuments); the job is still done, and the next
	// run of the same path tries them again.
	Failed int   `json:"failed"`
	Chars  int64 `json:"chars"`
	// Total is the number of files to read, counted before the run; a
	// JSON Lines file holds many documents, so Done may pass it.
	Total int    `json:"total"`
	Key   string `json:"key,omitempty"` // the document last handled
	// Waiting says what the run waits for while it waits: the workspace's
	// lock, or an LLM call retrying or slow to reply.
	Waiting  string       `json:"waiting,omitempty"`
	Skipped  []string     `json:"skipped,omitempty"`
	Error    string       `json:"error,omitempty"`
	Started  time.Time    `json:"started"`
	Finished *time.Time   `json:"finished,omitempty"`
	Report   *IndexReport `json:"report,omitempty"`
}

// Finished job states.
const (
	JobRunning   = "running"
	JobDone      = "done"
	JobFailed    = "failed"
	JobCancelled = "cancelled"
)

// Errors of index jobs, which a server answers with their own statuses.
var (
	ErrNoRoots      = errors.New("indexing on request is off: start the server with --root FOLDER to allow it under that folder")
	ErrOutsideRoots = errors.New("that path is outside the folders this server may index")
	ErrJobRunning   = errors.New("an index job is already running; wait for it or cancel it")
)

// indexJobs runs one index job at a time for a server and keeps the
// record of those it ran. Watchers are woken on every change and read the
// latest state, so a slow watcher skips states rather than holding the run.
type indexJobs struct {
	w     *Workspace
	roots []string // real paths
	given []string // the roots as given, made absolute: what a client may name

	mu      sync.Mutex
	jobs    []*jobState
	running *jobState
	stopped bool
}

type jobState struct {
	job     IndexJob
	cancel  context.CancelFunc
	changed chan struct{} // closed and replaced on every change
}

func newIndexJobs(w *Workspace, roots []string) (*indexJobs, error) {
	j := &indexJobs{w: w}
	for _, r := range roots {
		real, err := filepath.EvalSymlinks(r)
		if err == nil {
			real, err = filepath.Abs(real)
		}
		if err != nil {
			return nil, fmt.Errorf("index root %s: %w", r, err)
		}
		if info, err := os.Stat(real); err != nil || !info.IsDir() {
			return nil, fmt.Errorf("index root %s: not a folder", r)
		}
		j.roots = append(j.roots, real)
		if abs, err := filepath.Abs(r); err == nil {
			j.given = append(j.given, abs)
		}
	}
	return j, nil
}

// resolve turns a requested path into a real path inside a root: an
// absolute path as it is, a relative one against each root in turn.
func (j *indexJobs) resolve(path string) (string, error) {
	if len(j.roots) == 0 {
		return "", ErrNoRoots
	}
	if path == "" {
		return "", fmt.Errorf("%w: name a folder or file", ErrOutsideRoots)
	}
	var named []string
	if filepath.IsAbs(path) {
		named = []string{filepath.Clean(path)}
	} else {
		for _, r := range j.roots {
			named = append(named, filepath.Join(r, path))
		}
	}
	// Decided by the name alone, before the file system is touched, so
	// that the answer says nothing of what exists outside the roots.
	var tries []string
	for _, p := range named {
		if corpus.Inside(p, j.roots) || corpus.Inside(p, j.given) {
			tries = append(tries, p)
		}
	}
	if len(tries) == 0 {
		return "", fmt.Errorf("%w: %s", ErrOutsideRoots, path)
	}
	var lastErr error
	for _, p := range tries {
		// The real path settles "..", and links anywhere along the way.
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			lastErr = err
			continue
		}
		if !corpus.Inside(real, j.roots) {
			return "", fmt.Errorf("%w: %s", ErrOutsideRoots, path)
		}
		return real, nil
	}
	if errors.Is(lastErr, os.ErrNotExist) {
		return "", fmt.Errorf("index %s: %w", path, ErrNotFound)
	}
	return "", fmt.Errorf("index %s: %w", path, lastErr)
}

// start begins indexing path in the background.
func (j *indexJobs) start(path string) (IndexJob, error) {
	real, err := j.resolve(path)
	if err != nil {
		return IndexJob{}, err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.stopped {
		return IndexJob{}, errors.New("the server is shutting down")
	}
	if j.running != nil {
		return IndexJob{}, ErrJobRunning
	}
	ctx, cancel := context.WithCancel(context.Background())
	st := &jobState{cancel: cancel, changed: make(chan struct{})}
	st.job = IndexJob{ID: int64(len(j.jobs) + 1), Path: real, State: JobRunning, Phase: "read", Started: time.Now().UTC()}
	j.jobs = append(j.jobs, st)
	j.running = st
	go j.run(ctx, st)
	return st.job, nil
}

func (j *indexJobs) run(ctx context.Context, st *jobState) {
	defer st.cancel()
	total := countFiles(ctx, st.job.Path)
	j.update(st, func(job *IndexJob) { job.Total = total })
	rep, err := j.w.Index(ctx, []string{st.job.Path}, IndexOptions{
		Within: j.roots,
		Progress: func(p Progress) {
			j.update(st, func(job *IndexJob) {
				job.Done, job.Written, job.Failed, job.Chars = p.Documents, p.Written, p.Failed, p.Chars
				if p.Step != "" {
					job.Phase = p.Step
				} else {
					job.Key = p.Key
				}
				job.Waiting = ""
			})
		},
		Waiting: func(msg string) {
			j.update(st, func(job *IndexJob) { job.Waiting = msg })
		},
		Warn: func(s string) {
			j.update(st, func(job *IndexJob) { job.Skipped = append(job.Skipped, s) })
		},
	})
	j.mu.Lock()
	defer j.mu.Unlock()
	now := time.Now().UTC()
	job := &st.job
	job.Finished, job.Report, job.Waiting = &now, rep, ""
	if rep != nil {
		job.Failed = len(rep.Failed)
	}
	switch {
	case err == nil:
		job.State, job.Phase = JobDone, ""
	case errors.Is(err, context.Canceled):
		job.State, job.Error = JobCancelled, "cancelled; what was written is kept, and indexing the same path again resumes"
	default:
		job.State, job.Error = JobFailed, err.Error()
	}
	j.running = nil
	close(st.changed)
	st.changed = make(chan struct{})
}

func (j *indexJobs) update(st *jobState, f func(*IndexJob)) {
	j.mu.Lock()
	defer j.mu.Unlock()
	f(&st.job)
	close(st.changed)
	st.changed = make(chan struct{})
}

// list gives every job, newest first.
func (j *indexJobs) list() []IndexJob {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make([]IndexJob, 0, len(j.jobs))
	for i := len(j.jobs) - 1; i >= 0; i-- {
		out = append(out, j.jobs[i].job)
	}
	return out
}

func (j *indexJobs) find(id int64) (*jobState, error) {
	if id < 1 || id > int64(len(j.jobs)) {
		return nil, fmt.Errorf("index job %d: %w", id, ErrNotFound)
	}
	return j.jobs[id-1], nil
}

func (j *indexJobs) get(id int64) (IndexJob, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	st, err := j.find(id)
	if err != nil {
		return IndexJob{}, err
	}
	return st.job, nil
}

// cancelJob stops a running job; a finished one is left as it is.
func (j *indexJobs) cancelJob(id int64) (IndexJob, error) {
	j.mu.Lock()
	st, err := j.find(id)
	j.mu.Unlock()
	if err != nil {
		return IndexJob{}, err
	}
	st.cancel()
	return j.get(id)
}

// watch sends the job's state now and after changes, at most one state
// per interval, until it finishes or ctx ends; the last state sent is
// the finished one.
func (j *indexJobs) watch(ctx context.Context, id int64, every time.Duration, send func(IndexJob) error) error {
	for {
		j.mu.Lock()
		st, err := j.find(id)
		if err != nil {
			j.mu.Unlock()
			return err
		}
		job, changed := st.job, st.changed
		j.mu.Unlock()
		if err := send(job); err != nil {
			return err
		}
		if job.State != JobRunning {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
		select {
		case <-time.After(every):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// stop cancels a running job and refuses new ones; the server calls it
// when it shuts down.
func (j *indexJobs) stop() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.stopped = true
	if j.running != nil {
		j.running.cancel()
	}
}

// countFiles counts the files of formats the corpus reads under path, for
// progress; links are not counted, so it may count short.
func countFiles(ctx context.Context, path string) int {
	n := 0
	filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || ctx.Err() != nil {
			return ctx.Err()
		}
		if p != path && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && corpus.FormatOf(d.Name()) != "" {
			n++
		}
		return nil
	})
	return n
}
