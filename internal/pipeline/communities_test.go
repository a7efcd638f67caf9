package pipeline

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/llm"
)

// fakeWriter writes a report titled by the community's name, fails on the
// communities in fail, and runs out of budget at the one numbered broke.
type fakeWriter struct {
	fail  map[int64]bool
	broke int64
	calls int
}

func (w *fakeWriter) Write(_ context.Context, c *kg.Community) (llm.Usage, error) {
	w.calls++
	switch {
	case c.ID == w.broke:
		return llm.Usage{}, fmt.Errorf("community %d: %w", c.ID, llm.ErrBudget)
	case w.fail[c.ID]:
		return llm.Usage{}, errors.New("malformed reply")
	}
	c.Written = &kg.WrittenReport{Title: "written " + c.Name}
	return llm.Usage{}, nil
}

// Written reports: a failure keeps that community's offline report and
// the writing goes on; a spent budget stops it, keeping what was written.
func TestCommunityReportsWritten(t *testing.T) {
	reports := make([]kg.Community, 6)
	for i := range reports {
		reports[i] = kg.Community{ID: int64(i + 1), Name: fmt.Sprint("c", i+1)}
	}
	w := &fakeWriter{fail: map[int64]bool{2: true}, broke: 5}
	s := communities{method: MethodLeiden, writer: w}
	rep := &CommunityReport{}
	if err := s.write(context.Background(), reports, rep); err != nil {
		t.Fatal(err)
	}
	if rep.Written != 3 || len(rep.WriteErrors) != 2 || w.calls != 5 {
		t.Fatalf("written %d, errors %v, calls %d: want 3 written (1, 3, 4), 2 errors, no call after the budget ran out", rep.Written, rep.WriteErrors, w.calls)
	}
	if reports[1].Written != nil || reports[5].Written != nil || reports[3].Written == nil {
		t.Errorf("written reports: %v %v %v", reports[1].Written, reports[3].Written, reports[5].Written)
	}
	if s.Version() == (communities{method: MethodLeiden}).Version() {
		t.Error("written reports do not change the step's version")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.write(ctx, reports, &CommunityReport{}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled run: %v", err)
	}
}
