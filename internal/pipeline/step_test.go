package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/store"
)

// standardDocSteps are the document steps with a fake extractor.
func standardDocSteps(t *testing.T) []DocStep {
	t.Helper()
	steps, err := DocSteps(Options{Extractor: &fakeExtractor{version: "1"}})
	if err != nil {
		t.Fatal(err)
	}
	docs, _, err := split(steps)
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

func TestPlanRerunsOnlyWhatChanged(t *testing.T) {
	steps := standardDocSteps(t)
	current := map[string]string{}
	for _, s := range steps {
		current[s.Name()] = s.Version("lzh")
	}
	stored := func(stale string) *store.DocState {
		st := &store.DocState{Version: "h", Steps: map[string]string{}}
		for k, v := range current {
			st.Steps[k] = v
		}
		if stale != "" {
			st.Steps[stale] = "old"
		}
		return st
	}
	show := func(p plan) string {
		var b strings.Builder
		for _, s := range steps {
			switch {
			case p.rerun[s.Name()]:
				b.WriteString(s.Name() + ":run ")
			case p.compute[s.Name()]:
				b.WriteString(s.Name() + ":read ")
			}
		}
		return strings.TrimSpace(b.String())
	}
	cases := []struct {
		name  string
		state *store.DocState
		want  string
	}{
		{"new", nil, "ingest:run chunk:run extract:run lexical:run"},
		{"changed text", &store.DocState{Version: "other", Steps: current}, "ingest:run chunk:run extract:run lexical:run"},
		{"current", stored(""), ""},
		// A new extractor reads the chunks without writing them again, and
		// leaves their search terms alone.
		{"extract", stored(StepExtract), "ingest:read chunk:read extract:run"},
		{"lexical", stored(StepLexical), "ingest:read chunk:read lexical:run"},
		// Everything that reads the chunks follows a new chunker.
		{"chunk", stored(StepChunk), "ingest:read chunk:run extract:run lexical:run"},
		{"ingest", stored(StepIngest), "ingest:run chunk:run extract:run lexical:run"},
	}
	for _, c := range cases {
		p := planFor(steps, &Work{Hash: "h", Lang: "lzh", Stored: c.state})
		if got := show(p); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		if p.any() != (c.want != "") {
			t.Errorf("%s: any = %v", c.name, p.any())
		}
		if len(p.versions) != len(steps) {
			t.Errorf("%s: every document step's version is recorded, got %v", c.name, p.versions)
		}
	}
}

// namedStep is a corpus step that does nothing, and docStep a document
// step reading from the steps given.
type namedStep string

func (s namedStep) Name() string                  { return string(s) }
func (namedStep) Version() string                 { return "1" }
func (namedStep) Run(context.Context, *Run) error { return nil }

type docStep struct {
	name   string
	inputs []string
}

func (s docStep) Name() string                  { return s.name }
func (docStep) Version(string) string           { return "1" }
func (s docStep) Inputs() []string              { return s.inputs }
func (docStep) Do(context.Context, *Work) error { return nil }
func (docStep) Write(*Work, *store.DocWrite)    {}

func TestStepListsAreChecked(t *testing.T) {
	a, b := docStep{name: "a"}, docStep{name: "b", inputs: []string{"a"}}
	if docs, corpus, err := split([]Step{a, b, namedStep("c")}); err != nil || len(docs) != 2 || len(corpus) != 1 {
		t.Fatalf("a good list: %v %v %v", docs, corpus, err)
	}
	bad := map[string][]Step{
		"reads from a later step":          {b, a},
		"reads from itself":                {docStep{name: "a", inputs: []string{"a"}}},
		"a document step after the corpus": {a, namedStep("c"), docStep{name: "d"}},
		"twice":                            {a, a},
	}
	for name, steps := range bad {
		if _, _, err := split(steps); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
