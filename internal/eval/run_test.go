package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/kg"
)

// echo answers the gold of every other example, written backwards through
// the mapping (first accepted form of each label), and nothing for the rest.
type echo struct {
	m     *Mapping
	gold  map[string]Example
	half  map[string]bool
	calls atomic.Int64
}

func newEcho(m *Mapping, sets ...[]Example) *echo {
	e := &echo{m: m, gold: map[string]Example{}, half: map[string]bool{}}
	for _, exs := range sets {
		for i, ex := range exs {
			g := e.gold[ex.Text]
			g.Entities = append(g.Entities, ex.Entities...)
			g.Triples = append(g.Triples, ex.Triples...)
			e.gold[ex.Text] = g
			if i%2 == 0 {
				e.half[ex.Text] = true
			}
		}
	}
	return e
}

func (e *echo) Name() string    { return "echo" }
func (e *echo) Version() string { return "1" }

func (e *echo) entity(g GoldEntity, typ string) extract.Entity {
	return extract.Entity{Text: g.Text, Type: typ, Span: kg.Span{Start: g.Start, End: g.End}}
}

func (e *echo) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	e.calls.Add(1)
	if in.Lang != "lzh" || in.Schema == nil || in.Doc != nil {
		return extract.Result{}, fmt.Errorf("unexpected input %+v", in)
	}
	var r extract.Result
	if !e.half[in.Text] {
		return r, nil
	}
	g := e.gold[in.Text]
	for _, ge := range g.Entities {
		if ours := e.m.EntityAlts(ge.Type); len(ours) > 0 {
			r.Entities = append(r.Entities, e.entity(ge, ours[0]))
		}
	}
	for _, gt := range g.Triples {
		row, ok := e.m.RelationRow(gt.Relation, gt.Tail.Type)
		if !ok || len(row.Alts) == 0 {
			continue
		}
		a := row.Alts[0]
		h, t := e.entity(gt.Head, ""), e.entity(gt.Tail, "")
		if a.Swap {
			h, t = t, h
		}
		r.Triples = append(r.Triples, extract.Triple{Head: h, Relation: a.Relation, Tail: t})
	}
	return r, nil
}

func fixtureEcho(t *testing.T, dir string, ds Dataset) *echo {
	t.Helper()
	m, _ := MappingFor(ds)
	if ds == CCLUE {
		cc, err := LoadCCLUE(dir, "test")
		if err != nil {
			t.Fatal(err)
		}
		return newEcho(m, cc)
	}
	ner, err := LoadCHisIECNER(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	re, err := LoadCHisIECRE(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	return newEcho(m, ner, re)
}

func TestRunExtractHalfGoldFixtures(t *testing.T) {
	dir := writeFixtures(t)

	rep, err := RunExtract(context.Background(), fixtureEcho(t, dir, CHisIEC), CHisIEC, "test", Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	// NER: 8 gold entities, 4 in the even sentences.
	checkScore(t, "CHisIEC entities", rep.Entities.All.Overall, 8, 4, 4, 1, 0.5, 2.0/3)
	checkScore(t, "CHisIEC entities mapped", rep.Entities.Mapped.Overall, 8, 4, 4, 1, 0.5, 2.0/3)
	// RE: 7 gold triples of which 同僚 has no counterpart; 3 mapped in the
	// even sentences, 3 in the odd ones.
	checkScore(t, "CHisIEC triples", rep.Triples.All.Overall, 7, 3, 3, 1, 3.0/7, 0.6)
	checkScore(t, "CHisIEC triples mapped", rep.Triples.Mapped.Overall, 6, 3, 3, 1, 0.5, 2.0/3)

	rep, err = RunExtract(context.Background(), fixtureEcho(t, dir, CCLUE), CCLUE, "test", Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Entities != nil {
		t.Error("C-CLUE has no entity gold but the report has entity figures")
	}
	// 7 gold triples, 葬于 unmapped; even texts hold 3 of the 6 mapped.
	checkScore(t, "C-CLUE triples", rep.Triples.All.Overall, 7, 3, 3, 1, 3.0/7, 0.6)
	checkScore(t, "C-CLUE triples mapped", rep.Triples.Mapped.Overall, 6, 3, 3, 1, 0.5, 2.0/3)
}

func TestRunExtractLimitAndProgress(t *testing.T) {
	dir := writeFixtures(t)
	ex := fixtureEcho(t, dir, CHisIEC)
	var calls []int
	rep, err := RunExtract(context.Background(), ex, CHisIEC, "test", Options{DataDir: dir, Limit: 2, Workers: 3, Progress: func(done, total int) {
		if total != 4 {
			t.Errorf("total %d, want 4", total)
		}
		calls = append(calls, done)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Entities.Examples != 2 || rep.Triples.Examples != 2 || ex.calls.Load() != 4 {
		t.Errorf("examples %d+%d, calls %d", rep.Entities.Examples, rep.Triples.Examples, ex.calls.Load())
	}
	if !equalInts(calls, []int{1, 2, 3, 4}) {
		t.Errorf("progress %v", calls)
	}
}

type failing struct{ echo }

func (f *failing) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	if strings.HasPrefix(in.Text, "乙") {
		return extract.Result{}, errors.New("boom")
	}
	return extract.Result{}, nil
}

func TestRunExtractErrors(t *testing.T) {
	dir := writeFixtures(t)
	_, err := RunExtract(context.Background(), &failing{}, CHisIEC, "test", Options{DataDir: dir})
	if err == nil || !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), "ner_test.txt:9") {
		t.Errorf("error %v does not name the failing example", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := RunExtract(ctx, fixtureEcho(t, dir, CHisIEC), CHisIEC, "test", Options{DataDir: dir}); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if _, err := RunExtract(context.Background(), &failing{}, CHisIEC, "test", Options{DataDir: t.TempDir()}); !errors.Is(err, ErrDataAbsent) {
		t.Errorf("error %v, want ErrDataAbsent", err)
	}
}

func TestReportWriteAndJSON(t *testing.T) {
	dir := writeFixtures(t)
	rep, err := RunExtract(context.Background(), fixtureEcho(t, dir, CHisIEC), CHisIEC, "test", Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.Write(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"Entities: ner_test.txt", "Triples: re_coling_test.json", "OFI → 职官|爵位", "同僚 (no counterpart)", "mapped types only", "Label mapping"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Triples.Mapped.Overall != rep.Triples.Mapped.Overall || back.Mapping.Relations[0].Label != "任职" {
		t.Errorf("JSON round trip lost figures: %s", b)
	}
}

// sharedData returns the shared data folder or skips.
func sharedData(t *testing.T) string {
	t.Helper()
	dir, err := DataDir()
	if err != nil {
		t.Skip("shared data absent: " + err.Error())
	}
	return dir
}

func loadShared(t *testing.T, load func(string, string) ([]Example, error), dir, split string) []Example {
	t.Helper()
	exs, err := load(dir, split)
	if errors.Is(err, ErrDataAbsent) {
		t.Skip("shared data absent: " + err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	return exs
}

func TestSharedDataLoads(t *testing.T) {
	dir := sharedData(t)
	for _, split := range Splits {
		ner := loadShared(t, LoadCHisIECNER, dir, split)
		re := loadShared(t, LoadCHisIECRE, dir, split)
		cc := loadShared(t, LoadCCLUE, dir, split)
		if len(ner) == 0 || len(re) == 0 || len(cc) == 0 {
			t.Errorf("%s: %d NER, %d RE, %d C-CLUE examples", split, len(ner), len(re), len(cc))
		}
		m, _ := MappingFor(CHisIEC)
		for _, ex := range append(ner, re...) {
			for _, e := range ex.Entities {
				if len(m.EntityAlts(e.Type)) == 0 {
					t.Errorf("%s: entity type %s not in the mapping", ex.ID, e.Type)
				}
			}
			for _, tr := range ex.Triples {
				if _, ok := m.RelationRow(tr.Relation, tr.Tail.Type); !ok {
					t.Errorf("%s: relation %s not in the mapping", ex.ID, tr.Relation)
				}
			}
		}
		mc, _ := MappingFor(CCLUE)
		seen := map[string]bool{}
		for _, ex := range cc {
			if seen[ex.Text] {
				t.Errorf("%s: text repeats after grouping", ex.ID)
			}
			seen[ex.Text] = true
			for _, tr := range ex.Triples {
				if _, ok := mc.RelationRow(tr.Relation, tr.Tail.Type); !ok {
					t.Errorf("%s: predicate %s not in the mapping", ex.ID, tr.Relation)
				}
				if !strings.Contains(ex.Text, tr.Head.Text) || !strings.Contains(ex.Text, tr.Tail.Text) {
					t.Errorf("%s: %s or %s not in the text", ex.ID, tr.Head.Text, tr.Tail.Text)
				}
			}
		}
	}
}

func TestSharedDataHalfGold(t *testing.T) {
	dir := sharedData(t)
	for _, ds := range []Dataset{CHisIEC, CCLUE} {
		var ex *echo
		m, _ := MappingFor(ds)
		if ds == CCLUE {
			ex = newEcho(m, loadShared(t, LoadCCLUE, dir, "test"))
		} else {
			ex = newEcho(m, loadShared(t, LoadCHisIECNER, dir, "test"), loadShared(t, LoadCHisIECRE, dir, "test"))
		}
		rep1, err := RunExtract(context.Background(), ex, ds, "test", Options{DataDir: dir, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		rep8, err := RunExtract(context.Background(), ex, ds, "test", Options{DataDir: dir, Workers: 8})
		if err != nil {
			t.Fatal(err)
		}
		rep1.Seconds, rep8.Seconds = 0, 0
		j1, _ := json.Marshal(rep1)
		j8, _ := json.Marshal(rep8)
		if !bytes.Equal(j1, j8) {
			t.Errorf("%s: reports differ between 1 and 8 workers", ds)
		}
		blocks := map[string]*Block{"triples": rep1.Triples}
		if rep1.Entities != nil {
			blocks["entities"] = rep1.Entities
		}
		for name, b := range blocks {
			for view, s := range map[string]Score{"all": b.All.Overall, "mapped": b.Mapped.Overall} {
				if s.Precision != 1 {
					t.Errorf("%s %s %s: precision %.3f, want 1", ds, name, view, s.Precision)
				}
			}
			if r := b.Mapped.Overall.Recall; r < 0.35 || r > 0.65 {
				t.Errorf("%s %s: mapped recall %.3f, want about 0.5", ds, name, r)
			}
			t.Logf("%s %s: all %+v, mapped %+v", ds, name, b.All.Overall, b.Mapped.Overall)
		}
		// Half the gold, all of it right: the strings overlap, but less
		// than the whole.
		if r := rep1.Triples.Mapped.Rouge; r == nil || r.Examples == 0 || r.R1 <= 0.2 || r.R1 >= 1 || r.Score <= 0 || r.Score >= 1 {
			t.Errorf("%s triples: mapped ROUGE %+v", ds, r)
		} else {
			t.Logf("%s triples: mapped ROUGE %+v", ds, *r)
		}
		if testing.Verbose() {
			var buf bytes.Buffer
			if err := rep1.Write(&buf); err != nil {
				t.Fatal(err)
			}
			t.Log("\n" + buf.String())
		}
	}
}

// Offices fused with their place, as annals writes them, are split at the
// local office before scoring against CHisIEC, and holding one is
// governing its place; others stay whole.
func TestSplitOffices(t *testing.T) {
	mk := func(text string, start int) extract.Entity {
		return extract.Entity{Text: text, Type: "职官", Span: kg.Span{Start: start, End: start + len([]rune(text))}}
	}
	res := []extract.Result{{
		Entities: []extract.Entity{mk("南阳太守", 2), mk("丞相", 9), mk("鄯州都督", 12)},
		Triples:  []extract.Triple{{Head: extract.Entity{Text: "亮", Type: "人物"}, Relation: "任官", Tail: mk("南阳太守", 2)}},
	}}
	got := splitOffices(res)[0]
	if len(got.Entities) < 3 || got.Entities[0].Text != "南阳" || got.Entities[0].Type != "地点" || got.Entities[0].End != 4 ||
		got.Entities[1].Text != "太守" || got.Entities[1].Start != 4 || got.Entities[2].Text != "丞相" {
		t.Errorf("entities %+v", got.Entities)
	}
	// 鄯州 is not in the lexicon; 州 says it is a place.
	if len(got.Entities) != 5 || got.Entities[3].Text != "鄯州" || got.Entities[4].Text != "都督" {
		t.Errorf("an office of a place the lexicon does not know: %+v", got.Entities[3:])
	}
	if len(got.Triples) != 2 {
		t.Fatalf("triples %+v, want 辖 南阳 and 任官 太守", got.Triples)
	}
	if gov := got.Triples[0]; gov.Relation != "辖" || gov.Tail.Text != "南阳" || gov.Tail.Start != 2 || gov.Head.Text != "亮" {
		t.Errorf("governing %+v", gov)
	}
	if tail := got.Triples[1].Tail; got.Triples[1].Relation != "任官" || tail.Text != "太守" || tail.Start != 4 || tail.End != 6 {
		t.Errorf("relation tail %+v", tail)
	}
	if res[0].Entities[0].Text != "南阳太守" {
		t.Error("the results given were changed")
	}
}
