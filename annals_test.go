package annals_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/demo"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store/sqlstore/sqltest"
)

func indexDemo(t testing.TB) (*annals.Workspace, *annals.IndexReport) {
	t.Helper()
	return indexDemoWith(t, "")
}

// indexDemoWith indexes the demo corpus with its alias dictionary into a
// new workspace whose annals.yaml is settings ("" leaves the defaults).
func indexDemoWith(t testing.TB, settings string) (*annals.Workspace, *annals.IndexReport) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	corpus, aliases, err := demo.WriteTo(dir)
	if err != nil {
		t.Fatal(err)
	}
	wsDir := filepath.Join(dir, ".annals")
	if settings != "" {
		os.MkdirAll(wsDir, 0o755)
		if err := os.WriteFile(filepath.Join(wsDir, "annals.yaml"), []byte(settings), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := annals.Open(ctx, wsDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	if _, err := ws.ImportAliases(ctx, aliases, nil); err != nil {
		t.Fatal(err)
	}
	rep, err := ws.Index(ctx, []string{corpus}, annals.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ws, rep
}

func TestDemoGraph(t *testing.T) {
	ctx := context.Background()
	ws, rep := indexDemo(t)
	if rep.Added < 35 || len(rep.Skipped) != 0 {
		t.Fatalf("index report: %+v", rep)
	}
	st, err := ws.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"lzh", "en", "vi"} {
		if st.Languages[lang] == 0 {
			t.Errorf("no %s document detected: %v", lang, st.Languages)
		}
	}
	for _, typ := range []string{"人物", "地点", "职官", "爵位", "时间", "文献", "社会集团", "person", "place"} {
		if st.EntityTypes[typ] == 0 {
			t.Errorf("no %s entity in the demo graph: %v", typ, st.EntityTypes)
		}
	}

	// Facts the demo states outright, each with a citation.
	want := []struct{ name, rel, tail string }{
		{"诸葛亮", "籍贯", "阳都"},
		{"诸葛亮", "卒于", "五丈原"},
		{"关羽", "封爵", "汉寿亭侯"},
		{"孙权", "攻", "合肥"},
		{"Zhuge Liang", "born_in", "Yangdu"},
	}
	for _, w := range want {
		v, err := ws.Entity(ctx, w.name, annals.EntityOptions{Relations: 200})
		if err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		found := false
		for _, r := range v.Relations {
			if r.Type == w.rel && r.Tail == w.tail {
				found = true
				if len(r.Evidence) == 0 || r.Evidence[0].Sentence == "" || !strings.HasPrefix(r.Evidence[0].Cite, "《") {
					t.Errorf("(%s, %s, %s) has no citation: %+v", w.name, w.rel, w.tail, r)
				}
			}
		}
		if !found {
			t.Errorf("(%s, %s, %s) not in the graph", w.name, w.rel, w.tail)
		}
	}

	// Aliases from the dictionary and from the text both lead to the person,
	// and remember where they came from.
	v, err := ws.Entity(ctx, "孔明", annals.EntityOptions{})
	if err != nil || v.Name != "诸葛亮" {
		t.Fatalf("孔明 → %+v, %v", v, err)
	}
	sources := map[string]bool{}
	for _, a := range v.Aliases {
		if a.Name == "孔明" {
			sources[strings.SplitN(a.Source, ":", 2)[0]] = true
		}
	}
	if !sources["dictionary"] || !sources["text"] {
		t.Fatalf("孔明 should be known from the dictionary and from the text: %+v", v.Aliases)
	}
	if _, err := ws.Entity(ctx, "无此人", annals.EntityOptions{}); !errors.Is(err, annals.ErrNotFound) {
		t.Fatalf("unknown name: %v", err)
	}
}

func TestExtractWithoutWorkspace(t *testing.T) {
	res, lang, err := annals.Extract(context.Background(), "黄忠，字汉升，南阳人也。", annals.ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if lang != "lzh" {
		t.Errorf("language %s", lang)
	}
	var alias bool
	for _, tr := range res.Triples {
		alias = alias || (tr.Relation == "别称" && tr.Tail.Text == "汉升")
	}
	if !alias {
		t.Fatalf("want 黄忠 别称 汉升: %+v", res)
	}
}

// BenchmarkIndexDemo measures a full index of the demo corpus into a fresh
// workspace.
func BenchmarkIndexDemo(b *testing.B) {
	for i := 0; i < b.N; i++ {
		indexDemo(b)
	}
}

func TestIndexEmbedsChunksAndEntitiesOnce(t *testing.T) {
	ctx := context.Background()
	ws, rep := indexDemo(t)
	st, _ := ws.Stats(ctx)
	if rep.Embed == nil || !rep.Embed.Trained || rep.Embed.Chunks != st.Chunks || rep.Embed.Entities != st.Entities {
		t.Fatalf("every chunk and entity should get a vector from a freshly trained model: %+v, %d chunks, %d entities", rep.Embed, st.Chunks, st.Entities)
	}
	dir := filepath.Dir(ws.Dir)
	again, err := ws.Index(ctx, []string{filepath.Join(dir, "corpus")}, annals.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Embed == nil || again.Embed.Trained || again.Embed.Chunks != 0 || again.Embed.Entities != 0 {
		t.Fatalf("an unchanged corpus embeds nothing: %+v", again.Embed)
	}
}

func TestFactsGetYearsAndTimelines(t *testing.T) {
	ctx := context.Background()
	ws, rep := indexDemo(t)
	if rep.Date == nil || rep.Date.Dated == 0 || rep.Date.Documents != rep.Added {
		t.Fatalf("every document should be dated: %+v", rep.Date)
	}
	v, err := ws.Entity(ctx, "诸葛亮", annals.EntityOptions{})
	if err != nil || v.Died == nil || *v.Died != 234 {
		t.Fatalf("诸葛亮 died in 建兴十二年 = 234: %+v %v", v.Died, err)
	}
	// How each year was found comes with it: the death's sentence names
	// its time; a sentence that names none has the year in force.
	precisions := map[string]bool{}
	for _, r := range v.Relations {
		for _, ev := range r.Evidence {
			if ev.Year == nil && ev.Precision != "" {
				t.Fatalf("a precision without a year: %+v", ev)
			}
			if ev.Year != nil {
				precisions[ev.Precision] = true
				if r.Type == "死亡时间" && (ev.Precision == "" || ev.Precision == "context") {
					t.Fatalf("the death's sentence names its time: precision %q", ev.Precision)
				}
			}
		}
	}
	if !precisions["context"] {
		t.Fatalf("no fact dated by the year in force: %v", precisions)
	}
	items, err := ws.Timeline(ctx, "诸葛亮", annals.TimelineOptions{})
	if err != nil || len(items) < 3 {
		t.Fatalf("timeline: %d items, %v", len(items), err)
	}
	for i := 1; i < len(items); i++ {
		if a, b := items[i-1].Year, items[i].Year; b == nil && a != nil {
			continue // facts dated within a reign only come after the dated ones
		} else if a == nil && b != nil || a != nil && *b < *a {
			t.Fatalf("timeline out of order at %d: %v after %v", i, b, a)
		}
	}
	for _, it := range items {
		if it.Citation.Sentence == "" || it.Fact.Head == "" {
			t.Fatalf("item without fact or citation: %+v", it)
		}
		if kg.IsAliasRelation(it.Fact.Type) {
			t.Fatalf("a name is no event, but the timeline lists %s %s %s", it.Fact.Head, it.Fact.Type, it.Fact.Tail)
		}
	}
	// Asked for, the dated alias facts come.
	if names, err := ws.Timeline(ctx, "诸葛亮", annals.TimelineOptions{Type: "别称"}); err != nil || len(names) == 0 {
		t.Fatalf("诸葛亮's names by date: %d, %v", len(names), err)
	}
	// Pages of two follow each other without a gap or a repeat.
	for off := 0; off < len(items); off += 2 {
		page, err := ws.Timeline(ctx, "诸葛亮", annals.TimelineOptions{Limit: 2, Offset: off})
		if err != nil {
			t.Fatal(err)
		}
		if want := items[off:min(off+2, len(items))]; len(page) != len(want) || page[0].Fact.ID != want[0].Fact.ID || page[0].Citation.Start != want[0].Citation.Start {
			t.Fatalf("page at %d: %d items from fact %d, want %d from fact %d", off, len(page), page[0].Fact.ID, len(want), want[0].Fact.ID)
		}
	}
	from, to := 233, 235
	win, err := ws.Timeline(ctx, "", annals.TimelineOptions{From: &from, To: &to, Type: "死亡时间"})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, it := range win {
		if it.Year == nil || *it.Year < from || *it.Year > to || it.Fact.Type != "死亡时间" {
			t.Fatalf("window item outside the window or type: %+v", it)
		}
		found = found || it.Fact.Head == "诸葛亮"
	}
	if !found {
		t.Fatalf("诸葛亮's death should be in 233–235: %+v", win)
	}
	if ids, err := ws.ChunksNear(ctx, 234, 1); err != nil || len(ids) == 0 {
		t.Fatalf("chunks speaking of 233–235: %v %v", ids, err)
	}
	if _, err := ws.Timeline(ctx, "", annals.TimelineOptions{}); err == nil {
		t.Fatal("a timeline without a name or a window is an error")
	}
}

func TestDatingReachesOlderWorkspacesWithoutReextracting(t *testing.T) {
	ctx := context.Background()
	ws, rep := indexDemo(t)
	db := ws.Store().SQL()
	// A workspace from before dating existed: no years, no chrono step.
	if _, err := db.Exec("UPDATE evidence SET year = NULL; DELETE FROM steps WHERE step = 'chrono'; DELETE FROM chunk_years"); err != nil {
		t.Fatal(err)
	}
	again, err := ws.Index(ctx, []string{filepath.Join(filepath.Dir(ws.Dir), "corpus")}, annals.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Updated+again.Added+again.Changed != 0 || again.Date == nil || again.Date.Documents != rep.Added {
		t.Fatalf("dating should run on every document without re-extracting any: %+v %+v", again, again.Date)
	}
	if v, _ := ws.Entity(ctx, "诸葛亮", annals.EntityOptions{}); v == nil || v.Died == nil {
		t.Fatal("years should be back")
	}
}

func TestTimeExpressionsKnowTheirYears(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	v, err := ws.Entity(ctx, "建兴十二年", annals.EntityOptions{})
	if err != nil || v.Type != "时间" || len(v.Occurrences) == 0 {
		t.Fatalf("建兴十二年: %+v %v", v, err)
	}
	for _, o := range v.Occurrences {
		if o.Year == nil || *o.Year != 234 {
			t.Fatalf("建兴十二年 in %s should read 234, got %v", o.Cite, o.Year)
		}
	}
}

// indexChapters writes each chapter of a book under dir, as the First
// Four Histories lay them out, and indexes them into a workspace there.
func indexChapters(t *testing.T, dir, book string, chapters map[string]string) *annals.Workspace {
	t.Helper()
	for chapter, body := range chapters {
		if err := os.MkdirAll(filepath.Join(dir, book, chapter), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, book, chapter, "text.txt"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := annals.Open(context.Background(), filepath.Join(dir, ".annals"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	if _, err := ws.Index(context.Background(), []string{dir}, annals.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	return ws
}

func TestReignTimelineOfAnUnplacedRuler(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	ws := indexChapters(t, dir, "史记", map[string]string{
		"齐太公世家": "齐悼公者，景公之子也。悼公元年，悼公以鲍牧为相。悼公三年，鲍牧攻齐悼公。\n",
	})
	items, err := ws.Timeline(ctx, "齐悼公", annals.TimelineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var reigns []int
	for _, it := range items {
		if it.Reign != nil {
			if it.Year != nil || it.Reign.Ruler != "悼公" || it.Reign.RulerID == 0 {
				t.Fatalf("a fact of 悼公's reign has no year and names him: %+v", it)
			}
			reigns = append(reigns, it.Reign.Year)
		}
	}
	if len(reigns) == 0 || !sort.IntsAreSorted(reigns) {
		t.Fatalf("悼公's timeline lists the facts of his reign in order: %v (%d items)", reigns, len(items))
	}
}

// A multiple-choice option may name a place within the place a fact
// gives, as the texts write the two together: 亮卒于武功, and 据武功五丈原
// puts 五丈原 in 武功.
func TestChoiceNamesAPlaceWithinTheFacts(t *testing.T) {
	ctx := context.Background()
	ws := indexChapters(t, t.TempDir(), "三国志", map[string]string{
		"诸葛亮传": "诸葛亮字孔明，琅邪阳都人也。十二年春，亮悉大众由斜谷出，据武功五丈原，与司马宣王对于渭南。其年八月，亮疾病。\n",
		"杨仪传":  "杨仪字威公，襄阳人也。建兴五年，随丞相诸葛亮出屯汉中。十二年，亮卒于武功，军退还。\n",
		"先主传":  "先主遣诸葛亮自结于孙权，权遣周瑜等水军数万，与先主并力，与曹公战于赤壁，大破之。\n",
	})
	ans, err := ws.Ask(ctx, "诸葛亮卒于何地？", annals.AskOptions{Options: []annals.AnswerOption{{Letter: "A", Text: "赤壁"}, {Letter: "B", Text: "五丈原"}}})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Choice != "B" || len(ans.Citations) == 0 {
		t.Fatalf("he died at 五丈原, in 武功: %q %q", ans.Choice, ans.Answer)
	}
}

func TestAskAnswersWithCitations(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	docs := map[int64]string{}
	original := func(c annals.Citation) string {
		t.Helper()
		if _, ok := docs[c.DocID]; !ok {
			d, err := ws.Store().Document(ctx, c.DocKey)
			if err != nil {
				t.Fatal(err)
			}
			docs[c.DocID] = d.Text
		}
		return string([]rune(docs[c.DocID])[c.Start:c.End])
	}
	// A typed question: the fact that answers it, phrased, with its sentence.
	ans, err := ws.Ask(ctx, "诸葛亮字什么？", annals.AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !ans.Answered || !strings.Contains(ans.Answer, "孔明") || ans.Method != "fact" || len(ans.Citations) == 0 {
		t.Fatalf("诸葛亮's 字 is 孔明, from a cited fact: %+v", ans)
	}
	for _, c := range ans.Citations {
		if got := original(c); strings.TrimSpace(got) != c.Sentence || c.Cite == "" {
			t.Fatalf("citation [%d,%d) reads %q, says %q", c.Start, c.End, got, c.Sentence)
		}
	}
	// Alias expansion: the question names him by his 字.
	ans, err = ws.Ask(ctx, "孔明卒于何处？", annals.AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Analysis.Entities) == 0 || ans.Analysis.Entities[0].Entity.Name != "诸葛亮" {
		t.Fatalf("孔明 is 诸葛亮: %+v", ans.Analysis.Entities)
	}
	if !ans.Answered || !strings.Contains(ans.Answer, "五丈原") {
		t.Fatalf("he died at 五丈原: %+v", ans.Answer)
	}
	// Retrieval reports its routes, with the time route for a dated question.
	res, err := ws.Retrieve(ctx, "建兴十二年诸葛亮在哪里", 30, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(res.Analysis.Years, 234) || res.Routes["time"] == 0 || res.Routes["chunk"] == 0 {
		t.Fatalf("建兴十二年 reads 234 among its readings and opens the time route: %+v %v", res.Analysis.Years, res.Routes)
	}
	// Nothing in the texts answers this: say so rather than invent.
	ans, err = ws.Ask(ctx, "乾隆皇帝最喜欢哪一种瓷器？", annals.AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Answered || !strings.HasPrefix(ans.Answer, "无法回答") || len(ans.Citations) != 0 {
		t.Fatalf("an unanswerable question gets no answer: %+v", ans.Answer)
	}
}

// Typed questions are answered with the short span that answers them,
// read from the subject's statements, with a confidence; one the texts do
// not answer is refused rather than answered with a passage.
func TestAskAnswersWithShortSpans(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	for _, tt := range []struct{ q, want, not string }{
		{"诸葛亮是哪里人？", "琅邪阳都", "、"},        // one span in the source's order
		{"诸葛亮的父亲是谁？", "诸葛珪", "诸葛丰"},      // the father, not the ancestor before him
		{"姜维的父亲是谁？", "姜冏", ""},           // a bare given name gets the family name
		{"玄德是谁的字？", "刘备", ""},            // whose courtesy name
		{"后主是谁？", "刘禅", ""},              // a designation and the person it names
		{"谁杀了董卓？", "吕布", ""},             // the subject after the template
		{"诸葛亮死于哪一年？", "建兴十二年（234年）", ""}, // the year with its era
		{"关羽死于哪一年？", "建安二十四年（219年）", ""}, // taken and killed: the year of the sentence, by the era the chapter counts in
		{"关羽卒于何处？", "临沮", ""},
		{"关羽是怎么死的？", "获羽及子平于临沮，斩之", ""}, // how: the sentence that tells it            // killed at a place: died there
	} {
		ans, err := ws.Ask(ctx, tt.q, annals.AskOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !ans.Answered || !strings.Contains(ans.Answer, tt.want) || tt.not != "" && strings.Contains(ans.Answer, tt.not) {
			t.Errorf("%s: %q, want %q", tt.q, ans.Answer, tt.want)
			continue
		}
		if n := len([]rune(ans.Answer)); n > 40 || ans.Confidence < 0.5 || len(ans.Citations) == 0 {
			t.Errorf("%s: %q (%d characters, confidence %.2f, %d citations): want short, sure and cited", tt.q, ans.Answer, n, ans.Confidence, len(ans.Citations))
		}
	}
	ans, err := ws.Ask(ctx, "鲁肃的母亲是谁？", annals.AskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Answered || ans.Confidence != 0 || !strings.HasPrefix(ans.Answer, "无法回答") {
		t.Errorf("a typed question the texts do not answer: %q (confidence %.2f), want a refusal", ans.Answer, ans.Confidence)
	}
}

func TestAskMultipleChoiceFiltersAndChooses(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	ans, err := ws.Ask(ctx, "诸葛亮病卒于何地军中？", annals.AskOptions{Options: []annals.AnswerOption{
		{Letter: "A", Text: "赤壁"}, {Letter: "B", Text: "五丈原"}, {Letter: "C", Text: "洛阳宫"}, {Letter: "D", Text: "建业城"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Choice != "B" || len(ans.Citations) == 0 || !strings.Contains(ans.Citations[0].Sentence, "五丈原") {
		t.Fatalf("五丈原, with the sentence that says so: %+v", ans)
	}
	dropped := 0
	for _, o := range ans.Options {
		if !o.Kept {
			dropped++
		}
	}
	if dropped == 0 {
		t.Fatalf("options nothing supports are filtered out: %+v", ans.Options)
	}
}

// A death in camp is read as a death where the army held, so the option
// no single passage pairs with the death is still chosen.
func TestAskMultipleChoiceFromStatements(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	corpus := filepath.Join(dir, "corpus", "诸葛亮传.txt")
	if err := os.MkdirAll(filepath.Dir(corpus), 0o755); err != nil {
		t.Fatal(err)
	}
	body := "诸葛亮字孔明，琅邪阳都人也。建安十三年，曹公南征，先主遣亮诣孙权，权遣周瑜拒之，曹公败于赤壁。" +
		"建兴十二年春，亮悉众出斜谷，据五丈原，与司马宣王相持。亮分兵屯田，为久驻之计。相持百馀日。其年八月，亮疾病，卒于军，时年五十四。"
	if err := os.WriteFile(corpus, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := annals.Open(ctx, filepath.Join(dir, ".annals"))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if _, err := ws.Index(ctx, []string{filepath.Dir(corpus)}, annals.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	ans, err := ws.Ask(ctx, "诸葛亮卒于何地？", annals.AskOptions{Options: []annals.AnswerOption{{Letter: "A", Text: "赤壁"}, {Letter: "B", Text: "五丈原"}}})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Choice != "B" || len(ans.Citations) == 0 || !strings.Contains(ans.Citations[0].Sentence, "卒于军") {
		t.Fatalf("五丈原, where the army held when he died in camp: %q %+v", ans.Answer, ans.Citations)
	}
}

func TestAskAgentFollowsABridge(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	ans, err := ws.Ask(ctx, "孙策的父亲字什么？", annals.AskOptions{Agent: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Trace) < 2 || ans.Trace[0].Bridge != "孙坚" || !strings.Contains(ans.Answer, "文台") {
		t.Fatalf("his father 孙坚's 字 is 文台, found in two steps: %q %+v", ans.Answer, ans.Trace)
	}
	// Each step is routed to its level: his father is a relation, a 字 an
	// attribute of the person.
	if ans.Trace[0].Level != "triple" || ans.Trace[1].Level != "node" {
		t.Errorf("levels %q, %q: want triple, node", ans.Trace[0].Level, ans.Trace[1].Level)
	}
}

// The lexical index in memory follows the chunks: a document indexed
// after it was built is found by the next question.
func TestLexicalMemoryFollowsTheChunks(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	if err := ws.Warm(ctx); err != nil {
		t.Fatal(err)
	}
	found := func(q, word string) bool {
		t.Helper()
		res, err := ws.Retrieve(ctx, q, 30, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range res.Items {
			if it.Kind == "chunk" && strings.Contains(it.Text, word) {
				return true
			}
		}
		return false
	}
	if !found("躬耕于何处", "躬耕") {
		t.Fatal("a passage of the demo is not found from memory")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "new.txt"), []byte("甲乙丙丁，霹雳砰訇，皆在此篇。"), 0o644)
	if _, err := ws.Index(ctx, []string{dir}, annals.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	// The first question after the change may read the full-text index
	// while memory is rebuilt; either way the new passage is found.
	for range 3 {
		if !found("霹雳砰訇", "霹雳") {
			t.Fatal("a passage indexed after the memory index was built is not found")
		}
	}
	if err := ws.Warm(ctx); err != nil {
		t.Fatal(err)
	}
	if !found("霹雳砰訇", "霹雳") {
		t.Fatal("not found after warming again")
	}
}

// An index run reports its steps in order, each with its wall and CPU
// time, for `annals bench` and profiling.
func TestIndexReportsItsSteps(t *testing.T) {
	_, rep := indexDemo(t)
	var names []string
	for _, s := range rep.Steps {
		names = append(names, s.Name)
		// The document steps and writing run at once within "documents":
		// they have only the time spent in them, summed.
		if (s.Wall <= 0 || s.CPU < 0) && s.Work <= 0 {
			t.Errorf("step %s: wall %v, CPU %v, work %v", s.Name, s.Wall, s.CPU, s.Work)
		}
	}
	if got, want := strings.Join(names, " | "), "documents | ingest | chunk | extract | lexical | write | align | embed | date | communities"; got != want {
		t.Errorf("steps %q, want %q", got, want)
	}
}

// Dating again writes only what changed, and what changed is all put
// right: wrong years, years lost, a year on an undated mention, a chunk's
// stray or missing years.
func TestDatingAgainPutsEveryDateRight(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	db := ws.Store().SQL()
	snapshot := func() string {
		t.Helper()
		var b strings.Builder
		for _, q := range []string{
			"SELECT id, year, end_year, precision, time_expr, reign, reign_name, reign_year FROM evidence ORDER BY id",
			"SELECT id, year FROM mentions ORDER BY id",
			"SELECT chunk_id, year FROM chunk_years ORDER BY chunk_id, year",
		} {
			rows, err := db.Query(q)
			if err != nil {
				t.Fatal(err)
			}
			sqltest.Dump(t, &b, "", rows)
		}
		return b.String()
	}
	want := snapshot()
	if !strings.Contains(want, "234") {
		t.Fatal("the demo has no year 234 to date")
	}
	if _, err := db.Exec(`UPDATE evidence SET year = 1, end_year = 1, time_expr = 'x', precision = 'year' WHERE id % 3 = 0;
		UPDATE evidence SET year = NULL, end_year = NULL, precision = NULL, time_expr = NULL, reign = NULL WHERE id % 3 = 1;
		UPDATE evidence SET time_expr = 'y', precision = 'day' WHERE id % 3 = 2 AND year IS NOT NULL;
		UPDATE evidence SET reign = 'z', reign_year = 3 WHERE id % 5 = 2;
		UPDATE mentions SET year = 5 WHERE id % 4 = 0 AND name_id IN (SELECT id FROM names WHERE type = '时间');
		DELETE FROM chunk_years WHERE year % 2 = 0;
		INSERT INTO chunk_years(chunk_id, year) SELECT id, 9 FROM chunks;
		DELETE FROM steps WHERE step = 'chrono'`); err != nil {
		t.Fatal(err)
	}
	if snapshot() == want {
		t.Fatal("the dates were not disturbed")
	}
	if _, err := ws.Index(ctx, []string{filepath.Join(filepath.Dir(ws.Dir), "corpus")}, annals.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := snapshot(); got != want {
		g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
		for i := range min(len(g), len(w)) {
			if g[i] != w[i] {
				t.Fatalf("dating again left the dates wrong: %q, want %q", g[i], w[i])
			}
		}
		t.Fatalf("dating again left the dates wrong: %d rows, want %d", len(g), len(w))
	}
}
