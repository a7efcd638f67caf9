package relate

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// world is a small graph in memory: chunks of text, the entities each
// names, and some facts.
type world struct {
	entities map[int64]kg.Entity
	chunks   map[int64]string
	facts    []kg.Relation
}

func (w *world) EKGLinks(ctx context.Context) ([]store.EKGLink, error) {
	var out []store.EKGLink
	for id, e := range w.entities {
		for cid, text := range w.chunks {
			if strings.Contains(text, e.Name) {
				out = append(out, store.EKGLink{Entity: id, Chunk: cid})
			}
		}
	}
	return out, nil
}

func (w *world) RelationEdges(ctx context.Context) ([]store.RelationEdge, error) {
	var out []store.RelationEdge
	for _, f := range w.facts {
		out = append(out, store.RelationEdge{ID: f.ID, Head: f.HeadID, Tail: f.TailID, Type: f.Type, Status: f.Status})
	}
	return out, nil
}

func (w *world) EntityTypes(ctx context.Context) (map[int64]string, error) {
	out := map[int64]string{}
	for id, e := range w.entities {
		out[id] = e.Type
	}
	return out, nil
}

func (w *world) EntityNames(ctx context.Context, ids []int64) (map[int64][]string, error) {
	out := map[int64][]string{}
	for _, id := range ids {
		out[id] = []string{w.entities[id].Name}
	}
	return out, nil
}

func (w *world) Entity(ctx context.Context, id int64) (*kg.Entity, error) {
	e, ok := w.entities[id]
	if !ok {
		return nil, store.ErrNotFound
	}
	return &e, nil
}

func (w *world) Passages(ctx context.Context, ids []int64) ([]store.Passage, error) {
	var out []store.Passage
	for _, id := range ids {
		t := w.chunks[id]
		out = append(out, store.Passage{ChunkID: id, DocID: id, DocKey: fmt.Sprint("doc", id), Cite: "《doc》", Lang: "lzh",
			Start: 0, End: len([]rune(t)), Text: t, Norm: t})
	}
	return out, nil
}

func (w *world) RelationsByID(ctx context.Context, ids []int64, per int) ([]kg.Relation, error) {
	var out []kg.Relation
	for _, id := range ids {
		for _, f := range w.facts {
			if f.ID == id {
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// 孙坚 is the father of 孙策 and 孙权; 周瑜 served under 孙策; 鲁肃 under
// 孙权; a date stands beside everybody.
func family() *world {
	person := func(id int64, name string) kg.Entity { return kg.Entity{ID: id, Name: name, Type: "人物"} }
	return &world{
		entities: map[int64]kg.Entity{
			1: person(1, "孙坚"), 2: person(2, "孙策"), 3: person(3, "孙权"), 4: person(4, "周瑜"), 5: person(5, "鲁肃"),
			6: {ID: 6, Name: "建安", Type: "时间"},
		},
		chunks: map[int64]string{
			10: "孙坚之子孙策，建安中渡江。",
			11: "孙坚次子孙权，建安五年统事。",
			12: "孙策遣周瑜屯巴丘。",
			13: "周瑜与孙权共议，建安十三年。",
		},
		facts: []kg.Relation{{ID: 100, HeadID: 3, Head: "孙权", Type: "下级", TailID: 5, Tail: "鲁肃", Status: kg.StatusExtracted,
			Evidence: []kg.Evidence{{DocID: 99, Sentence: "权以肃为赞军校尉", Norm: "权以肃为赞军校尉"}}}},
	}
}

func relater(t *testing.T, w *world) *Relater {
	t.Helper()
	g, err := LoadEKG(t.Context(), w)
	if err != nil {
		t.Fatal(err)
	}
	return &Relater{Src: w, EKG: g}
}

func TestBrothersThroughTheirFather(t *testing.T) {
	r := relater(t, family())
	res, err := r.Relate(t.Context(), 2, 3, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var sib *Finding
	for i, f := range res.Findings {
		if f.Type == "同胞" {
			sib = &res.Findings[i]
		}
	}
	if sib == nil {
		t.Fatalf("no 同胞 finding: %+v", res.Findings)
	}
	if sib.Status != kg.StatusVerified || len(sib.Via) != 1 || sib.Via[0] != "孙坚" || len(sib.Evidence) != 2 {
		t.Fatalf("siblings through their father, verified by two cue sentences: %+v", sib)
	}
	for _, p := range res.Paths {
		for _, e := range p.Entities {
			if e == 6 {
				t.Fatalf("a date stood between two people: %+v", p)
			}
		}
	}
	if !strings.Contains(res.Verdict, "孙策与孙权") || !strings.Contains(res.Verdict, "同胞") {
		t.Fatalf("verdict %q", res.Verdict)
	}
}

func TestDirectCueAndFact(t *testing.T) {
	r := relater(t, family())
	res, err := r.Relate(t.Context(), 2, 4, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) == 0 || res.Findings[0].Type != "下级" || res.Findings[0].HeadID != 2 || res.Findings[0].Status != kg.StatusVerified {
		t.Fatalf("孙策遣周瑜: 周瑜 served under 孙策: %+v", res.Findings)
	}
	ev := res.Paths[0].Hops[0].Evidence
	if ev == nil || ev.Sentence != "孙策遣周瑜屯巴丘。" || ev.Start != 0 || ev.End != 9 {
		t.Fatalf("evidence %+v", ev)
	}
	// 孙权 and 鲁肃: the fact the graph holds, not fed back again.
	res, err = r.Relate(t.Context(), 5, 3, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 || res.Findings[0].Status != kg.StatusExtracted || res.Findings[0].Head != "孙权" {
		t.Fatalf("the extracted fact: %+v", res.Findings)
	}
}

func TestAHopThatStatesNothingDropsItsPath(t *testing.T) {
	// 周瑜 and 孙权 share a sentence with no cue between them.
	w := family()
	w.facts = nil
	r := relater(t, w)
	res, err := r.Relate(t.Context(), 4, 3, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Paths {
		if len(p.Hops) == 1 {
			t.Fatalf("the direct path through a sentence with no cue stayed: %+v", p)
		}
	}
	if res.Dropped == 0 || len(res.Left) == 0 || res.Left[0].Hops[0].Why == "" {
		t.Fatalf("dropped paths and why: %d %+v", res.Dropped, res.Left)
	}
}

func TestSearchStopsAtItsBudget(t *testing.T) {
	r := relater(t, family())
	for _, budget := range []int{1, 2, 3, 5} {
		_, visited, stopped := r.EKG.Search(2, 3, SearchOptions{Budget: budget})
		if !stopped || visited > budget {
			t.Fatalf("budget %d: visited %d, stopped %v", budget, visited, stopped)
		}
	}
	_, _, stopped := r.EKG.Search(2, 3, SearchOptions{})
	if stopped {
		t.Fatal("the default budget stopped a tiny graph")
	}
}

func TestEFIDFPrefersRareEntitiesOnManyPaths(t *testing.T) {
	g := &EKG{chunks: map[int64][]int64{1: {1, 2, 3}, 2: {1, 2, 3}, 3: {1, 2}, 4: {3, 4, 5, 6, 7, 8}}, nChunks: 8}
	paths := []Path{
		{Entities: []int64{1, 3, 2}}, {Entities: []int64{1, 3, 2}}, // 3: two paths, rare
		{Entities: []int64{1, 4, 2}}, // 4: one path, common
	}
	for i := range paths {
		paths[i].Hops = make([]Hop, 2)
	}
	got := g.rank(paths, 3, "")
	if got[0].Entities[1] != 3 || got[2].Entities[1] != 4 || got[0].Score <= got[2].Score {
		t.Fatalf("ranking %+v", got)
	}
	if got[0].Explain[1].EF != 2 || got[0].Explain[1].IDF <= got[2].Explain[1].IDF {
		t.Fatalf("explain %+v / %+v", got[0].Explain, got[2].Explain)
	}
}

// efidfPaths are four paths from 1 to 2: one through 3, three through 4.
// With 31 chunks and IDF log((31+1)/(df+1)), 1 and 2 (in 15 chunks
// each) have IDF ln 2, 3 (in 1) 4 ln 2, 4 (in 7) 2 ln 2. EF: 1 and 2 are
// on all four paths, 3 on one, 4 on three.
func efidfPaths() (*EKG, []Path) {
	span := func(from, n int64) []int64 {
		var out []int64
		for c := from; c < from+n; c++ {
			out = append(out, c)
		}
		return out
	}
	g := &EKG{chunks: map[int64][]int64{1: span(1, 15), 2: span(1, 15), 3: {16}, 4: span(17, 7)}, nChunks: 31}
	paths := []Path{{Entities: []int64{1, 4, 2}}, {Entities: []int64{1, 4, 2}}, {Entities: []int64{1, 3, 2}}, {Entities: []int64{1, 4, 2}}}
	for i := range paths {
		paths[i].Hops = make([]Hop, 2)
	}
	return g, paths
}

func TestEFIDFNormalisesFrequencyOverThePath(t *testing.T) {
	g, paths := efidfPaths()
	got := g.rank(paths, 4, ScoringNormalised)
	// Through 3: EFs 4, 1, 4 sum to 9, so EF_norm 4/9, 1/9, 4/9, and the
	// score is (4/9·ln2 + 1/9·4ln2 + 4/9·ln2) / 3 = 12/27 ln2 = 4/9 ln2.
	// Through 4: EFs 4, 3, 4 sum to 11, EF_norm 4/11, 3/11, 4/11, and
	// (4/11·ln2 + 3/11·2ln2 + 4/11·ln2) / 3 = 14/33 ln2, less: the rare
	// entity on one path comes first.
	ln2 := math.Ln2
	if got[0].Entities[1] != 3 || !near(got[0].Score, 4.0/9*ln2) {
		t.Fatalf("first: %v score %v, want through 3 with 4/9 ln2 = %v", got[0].Entities, got[0].Score, 4.0/9*ln2)
	}
	for _, p := range got[1:] {
		if p.Entities[1] != 4 || !near(p.Score, 14.0/33*ln2) {
			t.Errorf("then %v score %v, want through 4 with 14/33 ln2 = %v", p.Entities, p.Score, 14.0/33*ln2)
		}
	}
	want := [][3]float64{{4.0 / 9, 1.0 / 9, 4.0 / 9}, {4.0 / 11, 3.0 / 11, 4.0 / 11}}
	for i, p := range got[:2] {
		sum := 0.0
		for k, e := range p.Explain {
			sum += e.EFNorm
			if !near(e.EFNorm, want[i][k]) {
				t.Errorf("path %v entity %d: ef_norm %v, want %v", p.Entities, e.Entity, e.EFNorm, want[i][k])
			}
		}
		if !near(sum, 1) {
			t.Errorf("path %v: ef_norm sum to %v, want 1", p.Entities, sum)
		}
	}
	if e := got[1].Explain[1]; e.EF != 3 || !near(e.IDF, 2*ln2) {
		t.Errorf("explain of 4: ef %d idf %v, want 3 and 2 ln2", e.EF, e.IDF)
	}

	// The default ("") is the normalised scoring.
	g, paths = efidfPaths()
	if def := g.rank(paths, 4, ""); def[0].Entities[1] != 3 || !near(def[0].Score, 4.0/9*ln2) {
		t.Errorf("default scoring: first %v score %v, want the normalised one", def[0].Entities, def[0].Score)
	}
}

func TestEFIDFRawCountsPathsUnnormalised(t *testing.T) {
	g, paths := efidfPaths()
	got := g.rank(paths, 4, ScoringRaw)
	// Through 4: (4·ln2 + 3·2ln2 + 4·ln2) / 3 = 14/3 ln2; through 3:
	// (4·ln2 + 1·4ln2 + 4·ln2) / 3 = 4 ln2, less: the order the
	// normalised scoring gives is reversed.
	ln2 := math.Ln2
	for _, p := range got[:3] {
		if p.Entities[1] != 4 || !near(p.Score, 14.0/3*ln2) {
			t.Errorf("%v score %v, want through 4 with 14/3 ln2 = %v", p.Entities, p.Score, 14.0/3*ln2)
		}
	}
	if last := got[3]; last.Entities[1] != 3 || !near(last.Score, 4*ln2) {
		t.Errorf("last %v score %v, want through 3 with 4 ln2 = %v", last.Entities, last.Score, 4*ln2)
	}
	// The explanation still gives the normalised EF.
	if e := got[3].Explain[1]; e.EF != 1 || !near(e.EFNorm, 1.0/9) {
		t.Errorf("explain of 3: ef %d ef_norm %v, want 1 and 1/9", e.EF, e.EFNorm)
	}
}

func TestCheckScoring(t *testing.T) {
	for _, s := range []string{"", ScoringNormalised, ScoringRaw} {
		if err := CheckScoring(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	if err := CheckScoring("tfidf"); err == nil {
		t.Error("tfidf: want an error")
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestReadCue(t *testing.T) {
	for _, c := range []struct {
		s, x, y string
		typ     string
		xHead   bool
		latin   bool
	}{
		{"孙坚之子孙策", "孙坚", "孙策", "子女", true, false},
		{"孙策之父孙坚", "孙坚", "孙策", "子女", true, false},
		{"曹操遣张辽击之", "张辽", "曹操", "下级", false, false},
		{"张辽降曹操", "曹操", "张辽", "下级", true, false},
		{"孙权与刘备善", "孙权", "刘备", "积极态度倾向", true, false},
		{"吕布杀董卓", "董卓", "吕布", "消极态度倾向", false, false},
		{"Cao Pi, son of Cao Cao, took the throne.", "Cao Cao", "Cao Pi", "parent_of", true, true},
		{"Sun Quan married Lady Bu.", "Sun Quan", "Lady Bu", "spouse_of", true, true},
	} {
		typ, xHead, _, ok := readCue(c.s, []string{c.x}, []string{c.y}, c.latin, nil)
		if !ok || typ != c.typ || xHead != c.xHead {
			t.Errorf("%s: got %s head=%v ok=%v, want %s head=%v", c.s, typ, xHead, ok, c.typ, c.xHead)
		}
	}
	if _, _, _, ok := readCue("周瑜与孙权共议", []string{"周瑜"}, []string{"孙权"}, false, nil); ok {
		t.Error("no cue in 周瑜与孙权共议")
	}
	// With the ends' types: a person and a place.
	for _, c := range []struct {
		s, x, y, xType, yType string
		typ                   string
		xHead                 bool
	}{
		{"诸葛亮，字孔明，琅邪阳都人也。", "诸葛亮", "阳都", "人物", "地点", "籍贯", true},
		{"曹操攻下邳，擒吕布。", "下邳", "曹操", "地点", "人物", "攻", false},
		{"吕布奔河内。", "吕布", "河内", "人物", "地点", "逃奔", true},
		{"刘备奔袁绍。", "刘备", "袁绍", "人物", "人物", "下级", false},
		{"诸葛亮卒于五丈原。", "诸葛亮", "五丈原", "人物", "地点", "卒于", true},
		{"关羽屯荆州。", "荆州", "关羽", "地点", "人物", "辖", false},
	} {
		typ, xHead, _, ok := readCue(c.s, []string{c.x}, []string{c.y}, false, typedAccept(c.xType, c.yType))
		if !ok || typ != c.typ || xHead != c.xHead {
			t.Errorf("%s: got %s head=%v ok=%v, want %s head=%v", c.s, typ, xHead, ok, c.typ, c.xHead)
		}
	}
	// A place cue between two people reads nothing.
	if typ, _, _, ok := readCue("刘备至孙权所。", []string{"刘备"}, []string{"孙权"}, false, typedAccept("人物", "人物")); ok {
		t.Errorf("刘备至孙权 read as %s", typ)
	}
}

func TestCompose(t *testing.T) {
	for _, c := range []struct {
		a, b dirRel
		want dirRel
		sure bool
	}{
		{fw("子女"), fw("子女"), fw("孙"), true},
		{bw("子女"), fw("子女"), fw("同胞"), true},
		{bw("下级"), fw("下级"), fw("同僚"), true},
		{fw("上级"), fw("下级"), fw("同僚"), true}, // 上级 read as the 下级 it mirrors
		{bw("同胞"), fw("子女"), fw("同族"), true}, // symmetric either way
		{fw("所属团体"), bw("所属团体"), fw("同属"), true},
	} {
		got, ok := compose(c.a, c.b)
		if !ok || got.dirRel != c.want || got.sure != c.sure {
			t.Errorf("%v + %v = %+v %v, want %v", c.a, c.b, got, ok, c.want)
		}
	}
	if _, ok := compose(fw("攻"), fw("占")); ok {
		t.Error("attacking and holding compose to nothing")
	}
}

// Every step of a path that a cue reads from the text, between others
// than the two related, is a triple of its own, verified by its cue.
func TestStepsAlongAPathAreTriplesOfTheirOwn(t *testing.T) {
	w := family()
	w.facts = nil
	r := relater(t, w)
	// 周瑜 served 孙策, 孙坚's son: no rule composes that, but both steps
	// are stated.
	res, err := r.Relate(t.Context(), 4, 1, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"孙策 下级 周瑜": false, "孙坚 子女 孙策": false}
	for _, s := range res.Steps {
		key := s.Head + " " + s.Type + " " + s.Tail
		if _, ok := want[key]; !ok {
			t.Errorf("unexpected step %s", key)
			continue
		}
		want[key] = true
		if s.Status != kg.StatusVerified || s.Rejected != "" || len(s.Evidence) != 1 || len(s.Paths) == 0 {
			t.Errorf("step %s: verified by its cue, with one sentence and its path: %+v", key, s)
		}
		if (s.HeadID == 4 && s.TailID == 1) || (s.HeadID == 1 && s.TailID == 4) {
			t.Errorf("a step between the pair itself: %+v", s)
		}
	}
	for k, ok := range want {
		if !ok {
			t.Errorf("no step %s among %+v", k, res.Steps)
		}
	}
	// A step the graph holds already is no new triple.
	w.facts = []kg.Relation{{ID: 7, HeadID: 2, Head: "孙策", Type: "下级", TailID: 4, Tail: "周瑜", Status: kg.StatusExtracted}}
	res, err = relater(t, w).Relate(t.Context(), 4, 1, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Steps {
		if s.Type == "下级" {
			t.Errorf("a fact the graph holds came back as a step: %+v", s)
		}
	}
}

// Offline, a cue that only suggests a relation does not verify it: the
// finding stays inferred, says why, and is not to be written back.
func TestOfflineVerificationRefusesWhatACueOnlySuggests(t *testing.T) {
	w := &world{
		entities: map[int64]kg.Entity{1: {ID: 1, Name: "孙权", Type: "人物"}, 2: {ID: 2, Name: "鲁肃", Type: "人物"}},
		chunks:   map[int64]string{10: "孙权厚鲁肃。"},
	}
	res, err := relater(t, w).Relate(t.Context(), 1, 2, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 {
		t.Fatalf("findings %+v", res.Findings)
	}
	if f := res.Findings[0]; f.Type != "积极态度倾向" || f.Status != kg.StatusInferred || !strings.Contains(f.Rejected, "cue") {
		t.Fatalf("厚 suggests goodwill but does not state it: %+v", f)
	}
}
