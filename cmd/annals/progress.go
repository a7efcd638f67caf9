package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-runewidth"

	"github.com/annals-project/annals/internal/pipeline"
)

// progress draws one line on the terminal for a long command (index, rm,
// aliases import): what the command does, the step under way, how far it
// got (done of total, with a bar once the total is known), the time spent
// and, in a long step, the step's own time. It redraws every progressEvery,
// so that a step's name shows at once and a long step shows time passing.
//
// A nil *progress draws nothing and its methods do nothing: commands call
// it alike when stderr is no terminal or under --quiet or --json.
type progress struct {
	out   io.Writer
	width int    // of the terminal
	what  string // the command's work: "indexing", "removing" …
	unit  string // what done and total count: "docs"

	mu        sync.Mutex
	start     time.Time
	step      string
	stepStart time.Time
	done      int
	total     int       // 0 while unknown
	note      string    // what the command waits for, shown in place of the step
	noteAt    time.Time // when note was last told
	drawn     bool      // a line is on the screen
	finished  bool
	quit      chan struct{}
	wg        sync.WaitGroup
}

const (
	progressEvery = 200 * time.Millisecond
	// A note on what the command waits for gives way to the step again
	// when work goes on after waitQuiet, or after waitShownFor without
	// news (the longest wait between retries is 30 s).
	waitQuiet    = 3 * time.Second
	waitShownFor = 40 * time.Second
	// A step that has run this long shows its own time too.
	stepTimeAfter = 2 * time.Second
)

// newProgress starts a progress line on stderr when the command is
// interactive (see app.interactive), and is nil otherwise.
func (a *app) newProgress(what, unit string) *progress {
	if a.progressTo != nil {
		return startProgress(a.progressTo, 100, what, unit, progressEvery)
	}
	if !a.interactive() {
		return nil
	}
	return startProgress(a.errOut, a.termWidth(), what, unit, progressEvery)
}

// startProgress makes a progress line on out, redrawn every so often when
// every is above 0 (tests draw by hand).
func startProgress(out io.Writer, width int, what, unit string, every time.Duration) *progress {
	now := time.Now()
	p := &progress{out: out, width: width, what: what, unit: unit, start: now, stepStart: now, quit: make(chan struct{})}
	if every > 0 {
		p.wg.Go(func() {
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				select {
				case <-p.quit:
					return
				case <-t.C:
					p.mu.Lock()
					p.draw()
					p.mu.Unlock()
				}
			}
		})
	}
	return p
}

// Step says which step the command has begun, and draws it at once.
func (p *progress) Step(name string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if name != p.step {
		p.step, p.stepStart = name, time.Now()
	}
	p.quiet()
	p.draw()
}

// Set says how far the command got: done of total (0 while unknown).
func (p *progress) Set(done, total int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = done
	learnt := total > 0 && p.total == 0
	if total > 0 {
		p.total = total
	}
	p.quiet()
	if learnt {
		// The total is news: shown at once, not at the next redraw, which
		// a short step may not live to see.
		p.draw()
	}
}

// Wait shows what the command waits for (the workspace lock, an LLM call
// retried or slow to reply) in place of the step for a while. It is safe to
// call from many goroutines.
func (p *progress) Wait(msg string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.note, p.noteAt = msg, time.Now()
	p.draw()
}

// quiet drops a note told long enough ago, under p.mu.
func (p *progress) quiet() {
	if p.note != "" && time.Since(p.noteAt) >= waitQuiet {
		p.note = ""
	}
}

// Above runs print (which writes whole lines to the terminal, a warning)
// with the progress line out of its way; the line comes back at the next
// redraw. With a nil p it runs print alone.
func (p *progress) Above(print func()) {
	if p == nil {
		print()
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.erase()
	print()
}

// Finish stops the redrawing and takes the line off the screen.
func (p *progress) Finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	if p.finished {
		p.mu.Unlock()
		return
	}
	p.finished = true
	close(p.quit)
	p.erase()
	p.mu.Unlock()
	p.wg.Wait()
}

func (p *progress) erase() {
	if p.drawn {
		io.WriteString(p.out, "\r\x1b[K")
		p.drawn = false
	}
}

// draw writes the line, under p.mu.
func (p *progress) draw() {
	if p.finished {
		return
	}
	io.WriteString(p.out, "\r"+p.line(time.Now())+"\x1b[K")
	p.drawn = true
}

// line is the progress line at now, cut to the terminal's width.
func (p *progress) line(now time.Time) string {
	if p.note != "" && now.Sub(p.noteAt) >= waitShownFor {
		p.note = ""
	}
	var b strings.Builder
	b.WriteString(p.what)
	doing := p.step
	if p.note != "" {
		doing = p.note
	}
	if doing != "" {
		b.WriteString(": " + doing)
	}
	switch {
	case p.total > 0:
		done := min(p.done, p.total)
		if p.width >= 70 {
			const cells = 20
			full := cells * done / p.total
			b.WriteString("  " + strings.Repeat("█", full) + strings.Repeat("░", cells-full))
		}
		fmt.Fprintf(&b, "  %d/%d %s", p.done, max(p.total, p.done), p.unit)
	case p.done > 0:
		fmt.Fprintf(&b, "  %d %s", p.done, p.unit)
	}
	fmt.Fprintf(&b, "  %s", clock(now.Sub(p.start)))
	if st := now.Sub(p.stepStart); p.step != "" && st >= stepTimeAfter && p.stepStart.After(p.start) {
		fmt.Fprintf(&b, " (this step %s)", clock(st))
	}
	return runewidth.Truncate(b.String(), max(p.width-1, 20), "…")
}

// clock writes a duration as m:ss.
func clock(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// stepLabel says what an index step does, for the progress line.
func stepLabel(step string) string {
	switch step {
	case "documents":
		return "reading and extracting documents"
	case pipeline.StepAlign:
		return "align: merging entities across documents"
	case pipeline.StepEmbed:
		return "embed: vectors for retrieval"
	case pipeline.StepDate:
		return "date: dating the facts"
	case pipeline.StepCommunities:
		return "communities: finding and reporting groups"
	case pipeline.StepLexical:
		return "lexical: the search index"
	}
	return step
}
