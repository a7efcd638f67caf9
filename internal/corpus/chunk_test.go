package corpus

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/annals-project/annals/internal/kg"
)

// checkChunks verifies the invariants every chunking must keep and returns
// the first violation, or "".
func checkChunks(doc string, opts ChunkOptions, chunks []kg.Chunk) string {
	o := opts.resolved()
	rs := []rune(doc)
	covered := make([]bool, len(rs))
	for i, c := range chunks {
		if c.Seq != i {
			return fmt.Sprintf("chunk %d has Seq %d", i, c.Seq)
		}
		if c.Start < 0 || c.End > len(rs) || c.Start >= c.End {
			return fmt.Sprintf("chunk %d span %v outside [0,%d) or empty", i, c.Span, len(rs))
		}
		if got := string(rs[c.Start:c.End]); c.Text != got {
			return fmt.Sprintf("chunk %d text %q != doc slice %q", i, c.Text, got)
		}
		if c.Len() > o.MaxChars {
			return fmt.Sprintf("chunk %d is %d code points, max %d", i, c.Len(), o.MaxChars)
		}
		if unicode.IsSpace(rs[c.Start]) || unicode.IsSpace(rs[c.End-1]) {
			return fmt.Sprintf("chunk %d %q starts or ends with space", i, c.Text)
		}
		for j := c.Start; j < c.End; j++ {
			covered[j] = true
		}
		if i == 0 {
			if c.Overlap != 0 {
				return fmt.Sprintf("first chunk has overlap %d", c.Overlap)
			}
			continue
		}
		p := chunks[i-1]
		if c.Start < p.Start || c.End <= p.End {
			return fmt.Sprintf("chunk %d %v does not move past chunk %d %v", i, c.Span, i-1, p.Span)
		}
		want := max(0, p.End-c.Start)
		if c.Overlap != want {
			return fmt.Sprintf("chunk %d overlap %d, shares %d with the previous", i, c.Overlap, want)
		}
		if c.Overlap > 0 {
			if p.Section != c.Section {
				return fmt.Sprintf("chunk %d overlaps chunk %d of another section", i, i-1)
			}
			if c.Overlap > max(o.Overlap, o.MaxChars/2) {
				return fmt.Sprintf("chunk %d overlap %d over the limit", i, c.Overlap)
			}
			if c.Overlap >= c.Len() {
				return fmt.Sprintf("chunk %d is all overlap", i)
			}
		}
	}
	for j, r := range rs {
		if !covered[j] && !unicode.IsSpace(r) {
			return fmt.Sprintf("code point %d %q is in no chunk", j, r)
		}
	}
	return ""
}

func mustChunk(t *testing.T, doc, format string, opts ChunkOptions) []kg.Chunk {
	t.Helper()
	chunks := Chunk(doc, format, "", opts)
	if msg := checkChunks(doc, opts, chunks); msg != "" {
		t.Fatalf("%s\nopts %+v, doc %q", msg, opts, doc)
	}
	return chunks
}

// Classical-style text written for these tests; the people are invented.
const (
	bioWang  = "王允之，河东安邑人也。少好读书，不治产业，乡里称其孝。年二十，举孝廉，为郡功曹。太守甚器之，每有疑事，辄以问焉。"
	bioWang2 = "后迁洛阳令。时豪强多犯法，允之收其首恶，皆按之，县中肃然。居三岁，以病去官，归乡里，教授弟子数百人。"
	bioLi    = "李弘度，字元方，陈留人也。父为县吏，早卒。弘度事母至谨，母病，衣不解带者三月。"
	bioLi2   = "州辟从事，不就。及天下乱，率宗族避地江东，耕于山中。或劝之仕，答曰：吾志在田亩，不在冠冕。竟不出。"
)

func TestChunkKeepsParagraphsWhole(t *testing.T) {
	doc := bioWang + "\n" + bioWang2 + "\n" + bioLi + "\n" + bioLi2 + "\n"
	opts := ChunkOptions{MaxChars: 120, Overlap: 30}
	chunks := mustChunk(t, doc, "txt", opts)
	paras := []string{bioWang, bioWang2, bioLi, bioLi2}
	for _, p := range paras {
		if len([]rune(p)) > opts.MaxChars {
			t.Fatalf("test paragraph too long: %d", len([]rune(p)))
		}
		found := false
		for _, c := range chunks {
			found = found || strings.Contains(c.Text, p)
		}
		if !found {
			t.Errorf("paragraph %q split across chunks", p)
		}
	}
	if len(chunks) < 2 {
		t.Fatalf("want several chunks, got %d", len(chunks))
	}
	for _, c := range chunks {
		if c.Section != "" {
			t.Errorf("chunk %d section %q, want none", c.Seq, c.Section)
		}
	}
}

func TestChunkSplitsLongParagraphAtSentences(t *testing.T) {
	doc := bioWang + bioWang2 + bioLi + bioLi2 // one line, one paragraph
	opts := ChunkOptions{MaxChars: 60, Overlap: 20}
	chunks := mustChunk(t, doc, "txt", opts)
	for _, c := range chunks {
		if !strings.HasSuffix(c.Text, "。") && !strings.HasSuffix(c.Text, "：") {
			t.Errorf("chunk %d does not end at a sentence: %q", c.Seq, c.Text)
		}
	}
	overlapped := 0
	for i, c := range chunks[1:] {
		if c.Overlap > 0 {
			overlapped++
			prev := chunks[i]
			head := string([]rune(c.Text)[:c.Overlap])
			if !strings.HasSuffix(prev.Text, head) {
				t.Errorf("overlap %q is not the tail of %q", head, prev.Text)
			}
		}
	}
	if overlapped == 0 {
		t.Error("no chunk starts with an overlap")
	}
}

func TestChunkHardCut(t *testing.T) {
	// One sentence far longer than a chunk, with commas to cut at.
	var b strings.Builder
	for i := range 12 {
		fmt.Fprintf(&b, "又攻其%s城，", []string{"东", "西", "南", "北"}[i%4])
	}
	b.WriteString("皆下之。")
	doc := b.String()
	opts := ChunkOptions{MaxChars: 20, Overlap: -1}
	chunks := mustChunk(t, doc, "txt", opts)
	if len(chunks) < 3 {
		t.Fatalf("want the sentence cut into several chunks, got %d", len(chunks))
	}
	for _, c := range chunks[:len(chunks)-1] {
		if !strings.HasSuffix(c.Text, "，") {
			t.Errorf("chunk %d cut away from a comma: %q", c.Seq, c.Text)
		}
		if c.Overlap != 0 {
			t.Errorf("chunk %d has overlap %d with overlap off", c.Seq, c.Overlap)
		}
	}
	// Without any break the cut falls at the limit.
	doc = strings.Repeat("天", 50)
	chunks = mustChunk(t, doc, "txt", opts)
	if len(chunks) != 3 || chunks[0].Len() != 20 || chunks[1].Len() != 20 {
		t.Errorf("hard cut of 50 at 20: got %v", spans(chunks))
	}
}

func spans(chunks []kg.Chunk) []kg.Span {
	var s []kg.Span
	for _, c := range chunks {
		s = append(s, c.Span)
	}
	return s
}

func TestChunkTextHeadings(t *testing.T) {
	doc := "王允之传\n\n" + bioWang + bioWang2 + "\n\n李弘度传\n\n" + bioLi + "\n" + bioLi2 + "\n"
	chunks := mustChunk(t, doc, "txt", ChunkOptions{MaxChars: 50, Overlap: 20})
	checkSections(t, chunks, map[string]string{
		"河东安邑": "王允之传",
		"洛阳令":  "王允之传",
		"陈留人":  "李弘度传",
		"避地江东": "李弘度传",
	})
	for _, c := range chunks {
		if c.Section == "王允之传" && strings.Contains(c.Text, "李弘度传") {
			t.Errorf("chunk %d crosses into the next section: %q", c.Seq, c.Text)
		}
		if strings.Contains(c.Text, "李弘度传") && !strings.HasPrefix(c.Text, "李弘度传") {
			t.Errorf("heading inside chunk %d: %q", c.Seq, c.Text)
		}
	}
	// The first chunk of a section repeats nothing.
	for i, c := range chunks {
		if i > 0 && c.Section != chunks[i-1].Section && c.Overlap != 0 {
			t.Errorf("chunk %d opens a section with overlap %d", i, c.Overlap)
		}
	}
}

func checkSections(t *testing.T, chunks []kg.Chunk, want map[string]string) {
	t.Helper()
	for probe, sec := range want {
		found := false
		for _, c := range chunks {
			if strings.Contains(c.Text, probe) {
				found = true
				if c.Section != sec {
					t.Errorf("chunk %d with %q has section %q, want %q", c.Seq, probe, c.Section, sec)
				}
			}
		}
		if !found {
			t.Errorf("no chunk holds %q", probe)
		}
	}
}

func TestChunkTextHeadingsConservative(t *testing.T) {
	cases := []struct {
		name, doc string
		sections  []string
	}{
		{"verse lines apart", "春山空寂\n\n明月松间\n\n清泉石上\n", []string{""}},
		{"short line inside prose", bioWang + "\n允之卒\n" + bioLi + "\n", []string{""}},
		{"short line before a short line", "东郡济北\n陈留\n" + bioLi + "\n", []string{""}},
		{"last line", bioWang + "\n\n全书终\n", []string{""}},
		{"title line at the start", "王允之传\n" + bioWang + "\n", []string{"王允之传"}},
		{"chapter names", "第一回 允之举孝廉\n" + bioWang + "\n第二回 弘度避乱\n" + bioLi + "\n", []string{"第一回 允之举孝廉", "第二回 弘度避乱"}},
		{"after a finished sentence", bioWang + "\n弘度传\n\n" + bioLi + "\n", []string{"", "弘度传"}},
		{"punctuated line", "允之曰：善。\n\n" + bioWang + "\n", []string{""}},
		{"english", "Chapter 2\n\nThe envoy left the capital in spring, carrying letters for the king.\n", []string{"Chapter 2"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			chunks := mustChunk(t, tc.doc, "txt", DefaultChunkOptions())
			var got []string
			for _, c := range chunks {
				if len(got) == 0 || got[len(got)-1] != c.Section {
					got = append(got, c.Section)
				}
			}
			if !slices.Equal(got, tc.sections) {
				t.Errorf("sections %q, want %q", got, tc.sections)
			}
		})
	}
}

func TestChunkMarkdown(t *testing.T) {
	doc := "# 列传\n\n导言一段，述其大略。\n\n## 王允之\n\n" + bioWang + "\n\n" + bioWang2 +
		"\n\n```\n# 此非标题\n```\n\n## 李弘度 ##\n\n" + bioLi + "\n\n### 晚年\n\n" + bioLi2 + "\n\n# 附录\n\n- 一条\n- 二条\n"
	chunks := mustChunk(t, doc, "md", ChunkOptions{MaxChars: 80, Overlap: 20})
	checkSections(t, chunks, map[string]string{
		"导言":     "列传",
		"河东安邑":   "列传/王允之",
		"洛阳令":    "列传/王允之",
		"此非标题":   "列传/王允之",
		"陈留人":    "列传/李弘度",
		"避地江东":   "列传/李弘度/晚年",
		"二条":     "附录",
		"## 王允之": "列传/王允之",
	})
	for _, c := range chunks {
		rs := []rune(c.Text)
		for i := 1; i < len(rs); i++ {
			if rs[i-1] == '\n' && rs[i] == '#' && !strings.HasPrefix(string(rs[i:]), "# 此非标题") {
				t.Errorf("chunk %d holds a heading after its start: %q", c.Seq, c.Text)
			}
		}
	}
}

func TestChunkEdgeCases(t *testing.T) {
	if got := Chunk("", "txt", "", DefaultChunkOptions()); len(got) != 0 {
		t.Errorf("empty doc: %v", got)
	}
	if got := Chunk(" \n\t\n　\n", "md", "", DefaultChunkOptions()); len(got) != 0 {
		t.Errorf("blank doc: %v", got)
	}
	docs := []string{
		"一",
		"#",
		"# \n##\n###### x\n####### y",
		"\r\n" + bioWang + "\r\n\r\n" + bioLi + "\r\n",
		"a\u0301\u0302\u0303b\u0301\u0302\u0303c\u0301\u0302\u0303d\u0301\u0302",
		strings.Repeat("。", 30),
		strings.Repeat("天 ", 40),
		strings.Repeat("\n\n短\n\n", 10) + strings.Repeat("长文一句。", 40),
		"invalid \xff\xfe bytes。and more\xc0",
		"Người Việt\nđã lập nước\n\nTừ thời Hùng Vương, các vua đã trị vì nhiều đời.",
		"The quick brown fox jumps over\nthe lazy dog and runs\naway. Then it sleeps.\n\nAnother paragraph, short.",
	}
	for _, doc := range docs {
		for _, format := range []string{"txt", "md", "json"} {
			for _, o := range []ChunkOptions{{MaxChars: 1, Overlap: 1}, {MaxChars: 2, Overlap: 5}, {MaxChars: 7, Overlap: 3}, {MaxChars: 16, Overlap: -1}, {}} {
				chunks := Chunk(doc, format, "", o)
				if msg := checkChunks(doc, o, chunks); msg != "" {
					t.Errorf("%s: %s\nopts %+v doc %q", format, msg, o, doc)
				}
			}
		}
	}
}

func TestChunkOptionsResolved(t *testing.T) {
	if got := (ChunkOptions{}).resolved(); got != DefaultChunkOptions() {
		t.Errorf("zero options resolve to %+v", got)
	}
	if got := (ChunkOptions{MaxChars: 100, Overlap: -1}).resolved(); got.Overlap != 0 {
		t.Errorf("negative overlap resolves to %d", got.Overlap)
	}
	if got := (ChunkOptions{MaxChars: 100, Overlap: 90}).resolved(); got.Overlap != 50 {
		t.Errorf("overlap not capped at half a chunk: %d", got.Overlap)
	}
}

func TestChunkDeterministic(t *testing.T) {
	doc := synthetic(20000)
	a := Chunk(doc, "txt", "", DefaultChunkOptions())
	b := Chunk(doc, "txt", "", DefaultChunkOptions())
	if !slices.Equal(a, b) {
		t.Error("two runs differ")
	}
	if msg := checkChunks(doc, DefaultChunkOptions(), a); msg != "" {
		t.Error(msg)
	}
}

// synthetic builds about n code points of classical-like prose: lines of
// sentences of varied length, some short heading-like lines between.
func synthetic(n int) string {
	words := []rune("王侯将相天下国家兵马城池山川郡县民人使者太守刺史军士粮草帝曰臣闻其事于是遂乃而之以为")
	var b strings.Builder
	seed := uint32(1)
	next := func(k int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % k
	}
	count := 0
	for count < n {
		if next(40) == 0 {
			k := next(10)
			b.WriteString("\n卷第" + "一二三四五六七八九十"[k*3:k*3+3] + "\n\n")
			count += 6
		}
		sentences := 1 + next(12)
		for range sentences {
			clauses := 1 + next(4)
			for k := range clauses {
				for range 3 + next(6) {
					b.WriteRune(words[next(len(words))])
					count++
				}
				if k < clauses-1 {
					b.WriteRune('，')
				} else {
					b.WriteRune('。')
				}
				count++
			}
		}
		b.WriteByte('\n')
		count++
	}
	return b.String()
}

func BenchmarkChunk(b *testing.B) {
	doc := synthetic(350000) // about 1 MB of UTF-8
	b.SetBytes(int64(len(doc)))
	opts := DefaultChunkOptions()
	b.ResetTimer()
	for b.Loop() {
		Chunk(doc, "txt", "lzh", opts)
	}
}

func TestChunkSpeed(t *testing.T) {
	doc := synthetic(1_000_000)
	start := time.Now()
	chunks := Chunk(doc, "txt", "lzh", DefaultChunkOptions())
	t.Logf("chunked %d code points into %d chunks in %v", len([]rune(doc)), len(chunks), time.Since(start))
	if msg := checkChunks(doc, DefaultChunkOptions(), chunks); msg != "" {
		t.Error(msg)
	}
}

// TestChunkRandom checks the invariants on documents built from pieces that
// stress the rules: headings, blank lines, long sentences, wrapped lines.
func TestChunkRandom(t *testing.T) {
	pieces := []string{
		"。", "，", "、", "：", "\n", "\n\n", "\n\n\n", " ", "　", "\t", "\r\n",
		"# ", "## ", "### 卷", "```\n", "第一回", "卷二", "Chapter 4",
		"王", "允之", "河东安邑", "天下大乱", "the", "king", "Việt", "e\u0301",
		bioWang, bioLi2, strings.Repeat("兵", 70), "- 条目", "1. item",
	}
	seed := uint32(7)
	next := func(k int) int {
		seed = seed*1103515245 + 12345
		return int(seed>>8) % k
	}
	for iter := range 3000 {
		var b strings.Builder
		for range next(60) {
			b.WriteString(pieces[next(len(pieces))])
		}
		doc := b.String()
		opts := ChunkOptions{MaxChars: 1 + next(80), Overlap: next(50) - 5}
		format := []string{"txt", "md", "json"}[next(3)]
		chunks := Chunk(doc, format, "", opts)
		if msg := checkChunks(doc, opts, chunks); msg != "" {
			t.Fatalf("iteration %d: %s\nopts %+v format %s doc %q", iter, msg, opts, format, doc)
		}
	}
}

// TestChunkAdversarialSizes runs shapes of text that could make chunking
// slow if some step were quadratic; it logs the times.
func TestChunkAdversarialSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	shapes := map[string]string{
		"one long sentence": strings.Repeat("天", 300000),
		"commas only":       strings.Repeat("，", 300000),
		"short lines apart": strings.Repeat("卷\n\n", 100000),
		"md headings":       strings.Repeat("# a\n", 75000),
		"tiny sentences":    strings.Repeat("一。", 150000),
		"spaced words":      strings.Repeat("word ", 60000),
		"deep md":           strings.Repeat("###### x\n# y\n", 25000),
	}
	for name, doc := range shapes {
		start := time.Now()
		chunks := Chunk(doc, "md", "", DefaultChunkOptions())
		t.Logf("%s: %d code points, %d chunks, %v", name, len([]rune(doc)), len(chunks), time.Since(start))
		if msg := checkChunks(doc, DefaultChunkOptions(), chunks); msg != "" {
			t.Errorf("%s: %s", name, msg)
		}
		chunks = Chunk(doc, "txt", "", ChunkOptions{MaxChars: 7, Overlap: 3})
		if msg := checkChunks(doc, ChunkOptions{MaxChars: 7, Overlap: 3}, chunks); msg != "" {
			t.Errorf("%s, small chunks: %s", name, msg)
		}
	}
}
