package score

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/llm/llmtest"
	"github.com/annals-project/annals/internal/schema"
)

// A classical passage written for these tests: 刘备 was a native of 涿郡,
// 诸葛亮 his chancellor.
const text = "刘备，涿郡人也。备以亮为丞相。"

func zh() *schema.Schema { return schema.MustLoad(schema.ZhHistory) }

func ent(t, typ string, start int, name string) extract.Entity {
	return extract.Entity{Text: t, Type: typ, Span: kg.Span{Start: start, End: start + len([]rune(t))}, Name: name}
}

// result is a hand-made extraction of text: three triples, the third
// reversed.
func result() extract.Result {
	liu := ent("刘备", "人物", 0, "")
	zhuo := ent("涿郡", "地点", 3, "")
	bei := ent("备", "人物", 8, "刘备")
	liang := ent("亮", "人物", 10, "诸葛亮")
	office := ent("丞相", "职官", 12, "")
	s1, s2 := kg.Span{Start: 0, End: 8}, kg.Span{Start: 8, End: 15}
	return extract.Result{
		Entities: []extract.Entity{liu, zhuo, bei, liang, office},
		Triples: []extract.Triple{
			{Head: liu, Relation: "籍贯", Tail: zhuo, Evidence: s1},
			{Head: liang, Relation: "任官", Tail: office, Evidence: s2},
			{Head: liang, Relation: "下级", Tail: bei, Evidence: s2},
		},
	}
}

type fake = llmtest.Script

func in() extract.Input { return extract.Input{Text: text, Lang: "lzh", Schema: zh()} }

func TestJudgeScoresStagesAndTriples(t *testing.T) {
	f := &fake{Replies: []string{"```json\n" + `{"scores":[2,2,1,1,1],"triples":[{"i":1,"verdict":"ok"},{"i":2,"verdict":"unsupported","why":"亮 is made 丞相 by 备, fine, but"},{"i":3,"verdict":"wrong","why":"reversed"}]}` + "\n```"}}
	st := &Stats{}
	j := NewJudge(f, Options{Stats: st})
	sc, err := j.Score(context.Background(), "", in(), result(), "刘备是涿郡人。刘备任命诸葛亮为丞相。")
	if err != nil {
		t.Fatal(err)
	}
	if !sc.Judged || sc.Total != 7 || sc.Stages != (Stages{2, 2, 1, 1, 1}) {
		t.Fatalf("scored %+v", sc)
	}
	want := []float64{10, 7, 5}
	for i, w := range want {
		if sc.Triples[i].Score != w {
			t.Errorf("triple %d scored %v, want %v (%+v)", i, sc.Triples[i].Score, w, sc.Triples[i])
		}
	}
	if sc.Triples[2].Verdict != VerdictWrong || sc.Triples[2].Reason != "reversed" {
		t.Errorf("verdict %+v", sc.Triples[2])
	}

	kept, aside := Filter(result(), sc, 0)
	if len(kept.Triples) != 1 || len(aside.Triples) != 2 || len(kept.Entities) != 5 {
		t.Fatalf("kept %d, set aside %d", len(kept.Triples), len(aside.Triples))
	}
	if *kept.Triples[0].Score != 10 || kept.Triples[0].Aside || !aside.Triples[0].Aside || *aside.Triples[1].Score != 5 {
		t.Errorf("kept %+v aside %+v", kept.Triples, aside.Triples)
	}
	kept, aside = Filter(result(), sc, 5)
	if len(kept.Triples) != 3 || len(aside.Triples) != 0 {
		t.Errorf("threshold 5 kept %d", len(kept.Triples))
	}

	req := f.Reqs[0]
	user := req.Messages[1].Content
	for _, s := range []string{text, "Translation: 刘备是涿郡人", "1. (刘备:人物, 籍贯, 涿郡:地点)", "3. (亮[诸葛亮]:人物, 下级, 备[刘备]:人物)", "(人物, 任官, 职官)"} {
		if !strings.Contains(user, s) {
			t.Errorf("user prompt lacks %q:\n%s", s, user)
		}
	}
	if !strings.Contains(req.Messages[0].Content, "任官 人物→职官") || req.Step != Step || req.Schema == nil || req.MaxTokens != DefaultMaxTokens {
		t.Errorf("request %+v", req)
	}
	c := st.Counts()
	if c.Calls != 1 || c.Chunk[7] != 1 || c.Triple[10] != 1 || c.Triple[7] != 1 || c.Triple[5] != 1 {
		t.Errorf("counts %+v", c)
	}
	t.Logf("judge prompt: system %d chars, user %d chars", len([]rune(req.Messages[0].Content)), len([]rune(user)))
}

func TestJudgeCombinesOfflineChecks(t *testing.T) {
	res := result()
	// An entity whose text is not at its offsets, and a relation outside
	// the schema: the judge missed both, the offline checks do not.
	res.Entities = append(res.Entities, ent("关羽", "人物", 0, ""))
	res.Triples = append(res.Triples, extract.Triple{Head: res.Entities[0], Relation: "杀", Tail: res.Entities[3], Evidence: kg.Span{Start: 0, End: 15}})
	f := &fake{Replies: []string{`{"scores":[2,2,2,2,2],"triples":[{"i":1,"verdict":"ok"},{"i":4,"verdict":"ok"}]}`}}
	sc, err := NewJudge(f, Options{}).Score(context.Background(), "", in(), res, "")
	if err != nil {
		t.Fatal(err)
	}
	if sc.Stages != (Stages{2, 1, 2, 1, 1}) || sc.Total != 7 || len(sc.Penalties) != 3 {
		t.Fatalf("scored %+v", sc)
	}
	// Triple 1: ok, its own faults none, but the chunk's entity stage.
	if sc.Triples[0].Score != 9 {
		t.Errorf("triple 1: %+v", sc.Triples[0])
	}
	// Triples 2 and 3 have no verdict: they take the chunk's stages.
	if sc.Triples[1].Score != 7 || sc.Triples[1].Verdict != "" {
		t.Errorf("triple 2: %+v", sc.Triples[1])
	}
	// Triple 4: ok by the judge, but its relation is not in the schema.
	if sc.Triples[3].Score != 7 {
		t.Errorf("triple 4: %+v", sc.Triples[3])
	}
}

func TestOfflineScore(t *testing.T) {
	sc := OfflineScore(text, result(), zh())
	if sc.Judged || sc.Total != 10 || len(sc.Penalties) != 0 {
		t.Fatalf("clean result: %+v", sc)
	}
	res := result()
	res.Triples[0].Relation = "攻"                     // 人物 攻 地点 is allowed
	res.Triples[1].Tail.Type = "地点"                   // 人物 任官 地点 breaks the range
	res.Triples = append(res.Triples, res.Triples[2]) // stated twice
	res.Entities[0].Text = "刘"                        // not what its span reads
	sc = OfflineScore(text, res, zh())
	if sc.Stages != (Stages{2, 1, 1, 1, 1}) {
		t.Fatalf("stages %v, penalties %q", sc.Stages, sc.Penalties)
	}
	// The entity fault touches every triple; the others only their own.
	if got := []float64{sc.Triples[0].Score, sc.Triples[1].Score, sc.Triples[2].Score, sc.Triples[3].Score}; fmt.Sprint(got) != "[9 7 9 8]" {
		t.Errorf("triples %+v", sc.Triples)
	}
	kept, aside := Filter(res, sc, 8)
	if len(kept.Triples) != 3 || len(aside.Triples) != 1 || *aside.Triples[0].Score != 7 {
		t.Errorf("kept %d aside %d", len(kept.Triples), len(aside.Triples))
	}
}

func TestJudgeUnusableReplyFallsBack(t *testing.T) {
	for _, c := range []struct{ reply, reason string }{
		{"", FailEmpty},
		{"The extraction looks fine to me.", FailUnusable},
		{`{"scores":[2,2],"note":"x"}`, FailUnusable},
	} {
		st := &Stats{}
		sc, err := NewJudge(&fake{Replies: []string{c.reply}}, Options{Stats: st}).Score(context.Background(), "", in(), result(), "")
		if err != nil {
			t.Fatal(err)
		}
		if sc.Judged || sc.Failure != c.reason || sc.Total != 10 {
			t.Errorf("%q: %+v", c.reply, sc)
		}
		if st.Counts().Failures[c.reason] != 1 {
			t.Errorf("%q: counts %+v", c.reply, st.Counts())
		}
	}
}

func TestJudgeReplyShapes(t *testing.T) {
	for _, reply := range []string{
		`{"stages":{"translation":"2分","entities":2,"analysis":1,"framework":1,"triples":1},"verdicts":["ok","weak","错误"]}`,
		`{"scores":[2,2,1,1,1],"triples":[{"i":0,"verdict":"correct"},{"i":1,"verdict":"unsupported"},{"i":2,"verdict":"reversed"}]}`,
		`<think>hmm</think>{"Scores":[2,2,1,1,1,],"Triples":[{"index":3,"verdict":"wrong"},{"index":1,"verdict":"ok"},{"index":2,"verdict":"partial"}]}`,
	} {
		sc, err := NewJudge(&fake{Replies: []string{reply}}, Options{}).Score(context.Background(), "", in(), result(), "")
		if err != nil {
			t.Fatal(err)
		}
		got := []float64{sc.Triples[0].Score, sc.Triples[1].Score, sc.Triples[2].Score}
		if !sc.Judged || sc.Total != 7 || got[0] != 10 || got[1] != 7 || got[2] != 5 {
			t.Errorf("%s\n→ total %v, triples %v", reply, sc.Total, got)
		}
	}
}

func TestJudgeErrors(t *testing.T) {
	for _, want := range []error{llm.ErrBudget, errors.New("connection reset")} {
		_, err := NewJudge(&fake{Err: want}, Options{}).Score(context.Background(), "", in(), result(), "")
		if !errors.Is(err, want) {
			t.Errorf("got %v, want %v", err, want)
		}
	}
	// Nothing to grade: no call.
	f := &fake{}
	sc, err := NewJudge(f, Options{}).Score(context.Background(), "", in(), extract.Result{}, "")
	if err != nil || len(f.Reqs) != 0 || sc.Total != 10 {
		t.Errorf("empty result: %v %d %+v", err, len(f.Reqs), sc)
	}
}

func TestJudgePromptOverride(t *testing.T) {
	dir := t.TempDir()
	base := NewJudge(&fake{}, Options{})
	tmpl := `{{define "system"}}Grade it.{{end}}{{define "user"}}{{range .Triples}}{{.}};{{end}}{{end}}`
	if err := os.WriteFile(filepath.Join(dir, PromptFile), []byte(tmpl), 0o644); err != nil {
		t.Fatal(err)
	}
	f := &fake{Replies: []string{`{"scores":[2,2,2,2,2],"triples":[]}`}}
	j := NewJudge(f, Options{PromptDir: dir})
	if j.Check() != nil || j.Version() == base.Version() || !strings.HasSuffix(j.Version(), "+fake") {
		t.Fatalf("check %v, version %q vs %q", j.Check(), j.Version(), base.Version())
	}
	if _, err := j.Score(context.Background(), "", in(), result(), ""); err != nil {
		t.Fatal(err)
	}
	if got := f.Reqs[0].Messages[0].Content; got != "Grade it." {
		t.Errorf("system %q", got)
	}
	if err := os.WriteFile(filepath.Join(dir, PromptFile), []byte(`{{define "system"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if NewJudge(&fake{}, Options{PromptDir: dir}).Check() == nil {
		t.Error("broken override accepted")
	}
	if !strings.Contains(DefaultPrompt(), `{{define "system"`) {
		t.Error("no built-in prompt")
	}
}

func TestJudgeThroughServer(t *testing.T) {
	srv := llmtest.New(t)
	srv.Script(llmtest.Reply{Content: `{"scores":[2,2,2,1,2],"triples":[{"i":1,"verdict":"ok"},{"i":2,"verdict":"ok"},{"i":3,"verdict":"wrong"}]}`})
	c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "m", MaxRetries: -1}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := NewJudge(c, Options{}).Score(context.Background(), "", in(), result(), "")
	if err != nil {
		t.Fatal(err)
	}
	if sc.Total != 9 || sc.Triples[0].Score != 10 || sc.Triples[2].Score != 5 {
		t.Fatalf("scored %+v", sc)
	}
	if !strings.Contains(string(srv.Requests()[0].ResponseFormat), "verdict") {
		t.Errorf("response_format %s", srv.Requests()[0].ResponseFormat)
	}
}

// A judge reply that cannot be used keeps the offline fallback but is not
// cached; nor is one cut off at the limit, whose grades are refused.
func TestJudgeBadReplyNotCached(t *testing.T) {
	good := `{"scores":[2,2,2,1,2],"triples":[{"i":1,"verdict":"ok"},{"i":2,"verdict":"ok"},{"i":3,"verdict":"wrong"}]}`
	srv := llmtest.New(t)
	srv.Script(
		llmtest.Reply{Content: "The extraction looks fine to me."},
		llmtest.Reply{Content: good, FinishReason: "length"},
		llmtest.Reply{Content: `{"scores":[2,2,2,1,2],"triples":[{"i":1,"verdict":"ok"},{"i":2,"verd`},
		llmtest.Reply{Content: good},
	)
	cache := llm.NewMemoryCache()
	c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "m", MaxRetries: -1}, cache, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := &Stats{}
	j := NewJudge(c, Options{Stats: st})
	for i, want := range []string{FailUnusable, FailTruncated, FailUnusable} {
		sc, err := j.Score(context.Background(), "", in(), result(), "")
		if err != nil || sc.Judged || sc.Failure != want || cache.Len() != 0 {
			t.Fatalf("reply %d: %+v, %v, %d cached", i+1, sc, err, cache.Len())
		}
	}
	sc, err := j.Score(context.Background(), "", in(), result(), "")
	if err != nil || !sc.Judged || sc.Total != 9 || srv.Calls() != 4 || cache.Len() != 1 {
		t.Fatalf("good reply: %+v, %v, %d calls, %d cached", sc, err, srv.Calls(), cache.Len())
	}
	if st.Counts().Failures[FailTruncated] != 1 || st.Counts().Failures[FailUnusable] != 2 {
		t.Fatalf("counts %+v", st.Counts())
	}
}

func TestHistogram(t *testing.T) {
	h := HistogramOf([]float64{10, 9.5, 8, 7, 7, -1, 12, 0})
	if h != (Histogram{2, 0, 0, 0, 0, 0, 0, 2, 1, 1, 2}) || h.Total() != 8 || h.AtLeast(8) != 4 {
		t.Fatalf("histogram %v", h)
	}
	s := h.String()
	if !strings.HasPrefix(s, "10 ") || strings.Count(s, "\n") != 11 {
		t.Errorf("drawn:\n%s", s)
	}
}
