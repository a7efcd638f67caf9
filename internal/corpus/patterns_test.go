package corpus

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/annals-project/annals/internal/kg"
)

// Classical-style text written for these tests; the people, places and eras
// are invented.
const (
	// A chapter of three lives, each opened by another formula, and the
	// historian's comment.
	lifeZhang  = "张元礼字伯高，汝南平舆人也。少孤，事母以孝闻。举孝廉，除郎中，迁县令。"
	lifeZhang2 = "后三年，郡中大饥，元礼开仓赈之，活者万余人。太守上其状，征拜议郎。"
	lifeZhao   = "赵叔平，字季方，颍川定陵人也。好学，通经术，门徒数百人。"
	lifeZhao2  = "二年，州举茂才，辞不就。以寿终于家。"
	lifeQian   = "钱子彦者，东海郯人也。为人刚直，数言事，忤权贵，坐免。"
	comment    = "评曰：元礼之孝，叔平之学，子彦之直，皆一时之选也。"
	chapter    = "卷九 张赵钱传\n\n" + lifeZhang + "\n" + lifeZhang2 + "\n" + lifeZhao + "\n" + lifeZhao2 + "\n" + lifeQian + "\n" + comment + "\n"

	// A chronicle: a ruler's opening, then six years; 秋七月 is no year,
	// and the era changes in passing inside a paragraph.
	annals = "高宗孝皇帝，河内温人也。少有大志，好读兵书。\n" +
		"天和元年春正月，即皇帝位，大赦天下。\n" +
		"二年春，东巡，至于海上。\n" +
		"秋七月，大水，遣使者振贷。\n" +
		"三年冬十月，北伐，破之。明年改元，是为永昌元年。\n" +
		"二年夏四月，地震。\n" +
		"三年，大旱，蝗。\n" +
		"四年春正月，立皇子为太子。\n" +
		"后三年，帝崩于南宫。\n"
)

func patterned(o ChunkOptions) ChunkOptions { o.Patterns = true; return o }

// mustChunkUnits chunks with Patterns, checks every invariant, and returns
// the chunks.
func mustChunkUnits(t *testing.T, doc, format string, opts ChunkOptions) []kg.Chunk {
	t.Helper()
	opts.Patterns = true
	c := chunkDoc(doc, format, "", opts)
	if msg := checkChunks(doc, opts, c.out); msg != "" {
		t.Fatalf("%s\nopts %+v, doc %q", msg, opts, doc)
	}
	opts.Patterns = false
	if msg := checkUnits(doc, c.units, Chunk(doc, format, "", opts), c.out); msg != "" {
		t.Fatalf("%s\nopts %+v, doc %q", msg, opts, doc)
	}
	return c.out
}

// checkUnits verifies what chunking with Patterns adds to the invariants of
// checkChunks, given the units it found and the chunks without Patterns: a
// unit opens at the start of a line, with a chunk of its own that repeats
// nothing, and no chunk spans its start; sections are those without
// Patterns, a unit's name added after a "/", and change only where a unit
// opens or where chunks without Patterns start anew (as at a section);
// without units nothing changes.
func checkUnits(doc string, units []int, plain, chunks []kg.Chunk) string {
	if len(units) == 0 {
		if !slices.Equal(plain, chunks) {
			return "no units, but the chunks differ from those without Patterns"
		}
		return ""
	}
	rs := []rune(doc)
	isUnit := map[int]bool{}
	for k, u := range units {
		if k > 0 && u <= units[k-1] {
			return fmt.Sprintf("units out of order: %v", units)
		}
		isUnit[u] = true
		for i := u - 1; i >= 0 && rs[i] != '\n'; i-- {
			if !unicode.IsSpace(rs[i]) {
				return fmt.Sprintf("unit at %d does not start a line", u)
			}
		}
		opened := false
		for _, c := range chunks {
			if c.Start < u && u < c.End {
				return fmt.Sprintf("chunk %d %v spans the unit opening at %d", c.Seq, c.Span, u)
			}
			if c.Start == u && !opened {
				opened = true
				if c.Overlap != 0 {
					return fmt.Sprintf("chunk %d opens a unit with overlap %d", c.Seq, c.Overlap)
				}
			}
		}
		if !opened {
			return fmt.Sprintf("no chunk starts at the unit opening at %d", u)
		}
	}
	fresh := map[int]bool{} // where chunks without Patterns start anew, as sections do
	for _, p := range plain {
		if p.Overlap == 0 {
			fresh[p.Start] = true
		}
	}
	base := func(at int) string {
		for _, p := range plain {
			if p.Start <= at && at < p.End {
				return p.Section
			}
		}
		return "?"
	}
	for i, c := range chunks {
		b := base(c.Start)
		switch {
		case c.Section == b:
		case b == "" && c.Section != "" && !strings.HasPrefix(c.Section, "/"):
		case b != "" && strings.HasPrefix(c.Section, b+"/"):
		default:
			return fmt.Sprintf("chunk %d section %q does not extend %q", i, c.Section, b)
		}
		if i > 0 && c.Section != chunks[i-1].Section && !isUnit[c.Start] && !fresh[c.Start] {
			return fmt.Sprintf("chunk %d changes section to %q where no unit opens", i, c.Section)
		}
	}
	return ""
}

func TestChunkPatternsLives(t *testing.T) {
	for _, opts := range []ChunkOptions{{MaxChars: 40, Overlap: 15}, DefaultChunkOptions()} {
		chunks := mustChunkUnits(t, chapter, "txt", opts)
		checkSections(t, chunks, map[string]string{
			"汝南平舆": "卷九 张赵钱传/张元礼",
			"开仓赈之": "卷九 张赵钱传/张元礼",
			"颍川定陵": "卷九 张赵钱传/赵叔平",
			"茂才":   "卷九 张赵钱传/赵叔平", // a date in a life, not a chronicle's year
			"东海郯":  "卷九 张赵钱传/钱子彦",
			"一时之选": "卷九 张赵钱传/评曰",
		})
		rs := []rune(chapter)
		for _, opening := range []string{lifeZhao, lifeQian, comment} {
			at := strings.Index(chapter, opening)
			u := len([]rune(chapter[:at]))
			found := false
			for _, c := range chunks {
				if c.Start == u {
					found = true
					if c.Overlap != 0 || !strings.HasPrefix(c.Text, string(rs[u:u+4])) {
						t.Errorf("chunk %d opening a unit: overlap %d, text %q", c.Seq, c.Overlap, c.Text)
					}
				}
			}
			if !found {
				t.Errorf("no chunk starts at %q", opening[:12])
			}
		}
	}
}

func TestChunkPatternsChronicle(t *testing.T) {
	chunks := mustChunkUnits(t, annals, "txt", DefaultChunkOptions())
	var got []string
	for _, c := range chunks {
		got = append(got, c.Section+" "+string([]rune(c.Text)[:4]))
	}
	want := []string{
		"高宗孝皇帝 高宗孝皇",
		"高宗孝皇帝/天和元年 天和元年",
		"高宗孝皇帝/天和二年 二年春，", // 秋七月 stays in 二年
		"高宗孝皇帝/天和三年 三年冬十",
		"高宗孝皇帝/永昌二年 二年夏四",
		"高宗孝皇帝/永昌三年 三年，大",
		"高宗孝皇帝/永昌四年 四年春正", // 后三年 is counted from an event, not a heading
	}
	if !slices.Equal(got, want) {
		t.Errorf("chunks\n%q, want\n%q", got, want)
	}
	if !strings.Contains(chunks[2].Text, "秋七月") || !strings.Contains(chunks[6].Text, "后三年") {
		t.Errorf("chunks %q", got)
	}
}

// TestChunkPatternsYearsInLives: a chapter of lives that open paragraphs
// with a year here and there is no chronicle; its units are the lives.
func TestChunkPatternsYearsInLives(t *testing.T) {
	doc := chapter + "三年春，元礼卒。\n" + lifeZhang + "\n建安元年，征拜议郎。\n二年，迁侍中。\n" + lifeQian + "\n五年，坐事免。\n"
	for _, c := range mustChunkUnits(t, doc, "txt", ChunkOptions{MaxChars: 50, Overlap: 10}) {
		if strings.Contains(c.Section, "年") {
			t.Errorf("chunk %d section %q", c.Seq, c.Section)
		}
	}
	// Three sovereigns with years enough for each are a chronicle.
	var b strings.Builder
	for _, ruler := range []string{"齐王讳芳，字兰卿。", "高贵乡公讳髦，字彦士。", "陈留王讳奂，字景明。"} {
		b.WriteString(ruler + "\n")
		for _, y := range []string{"正元元年春，", "二年，", "三年，", "四年，", "五年，", "六年，"} {
			b.WriteString(y + "大赦。\n")
		}
	}
	chunks := mustChunkUnits(t, b.String(), "txt", DefaultChunkOptions())
	if len(chunks) != 21 || chunks[0].Section != "齐王" || chunks[9].Section != "高贵乡公/正元二年" {
		t.Errorf("%d chunks, sections %q, %q", len(chunks), chunks[0].Section, chunks[9].Section)
	}
}

func TestChunkPatternsLongUnit(t *testing.T) {
	// A unit longer than a chunk is packed inside itself, with overlap.
	doc := chapter + strings.Repeat(lifeZhang2, 6) + "\n" + lifeZhao + "\n"
	chunks := mustChunkUnits(t, doc, "txt", ChunkOptions{MaxChars: 60, Overlap: 30})
	n, overlapped := 0, 0
	for _, c := range chunks {
		if c.Section == "卷九 张赵钱传/评曰" {
			n++
			if c.Overlap > 0 {
				overlapped++
			}
		}
	}
	if n < 3 || overlapped == 0 {
		t.Errorf("the long comment unit has %d chunks, %d with overlap", n, overlapped)
	}
	if last := chunks[len(chunks)-1]; last.Section != "卷九 张赵钱传/赵叔平" || last.Overlap != 0 {
		t.Errorf("last chunk %+v", last)
	}
}

func TestChunkPatternsMarkdown(t *testing.T) {
	doc := "# 列传\n\n## 甲\n\n" + lifeZhang + "\n\n" + lifeZhao + "\n\n## 乙\n\n" + lifeQian + "\n" + lifeZhang2 + "\n"
	chunks := mustChunkUnits(t, doc, "md", ChunkOptions{MaxChars: 80, Overlap: 20})
	checkSections(t, chunks, map[string]string{
		"汝南平舆": "列传/甲/张元礼",
		"颍川定陵": "列传/甲/赵叔平",
		"东海郯":  "列传/乙/钱子彦",
		"开仓赈之": "列传/乙/钱子彦",
	})
}

// TestChunkPatternsOff: without Patterns the lives are packed by size as
// before, one chunk holding more than one of them, under the chapter's
// heading alone.
func TestChunkPatternsOff(t *testing.T) {
	chunks := mustChunk(t, chapter, "txt", DefaultChunkOptions())
	spanning := false
	for _, c := range chunks {
		if c.Section != "卷九 张赵钱传" {
			t.Errorf("chunk %d section %q", c.Seq, c.Section)
		}
		if strings.Contains(c.Text, "张元礼字") && strings.Contains(c.Text, "赵叔平，") {
			spanning = true
		}
	}
	if !spanning {
		t.Error("without Patterns, no chunk holds two lives")
	}
	// Texts with no openings chunk the same either way.
	for _, doc := range []string{synthetic(20000), bioWang2 + "\n" + bioLi2, "# a\n\nsome text. more\n"} {
		for _, opts := range []ChunkOptions{DefaultChunkOptions(), {MaxChars: 30, Overlap: 10}} {
			if a, b := Chunk(doc, "txt", "", opts), Chunk(doc, "txt", "", patterned(opts)); !slices.Equal(a, b) {
				t.Errorf("Patterns changed chunks of a text with no units (%d vs %d chunks)", len(a), len(b))
			}
		}
	}
}

func TestLifeName(t *testing.T) {
	cases := map[string]string{
		"张辽字文远，雁门马邑人也。":    "张辽",
		"诸葛亮字孔明，琅邪阳都人也。":   "诸葛亮",
		"李弘度，字元方，陈留人也。":    "李弘度",
		"韩信者，淮阴人也。":        "韩信",
		"太祖武皇帝，沛国谯人也，姓曹":   "太祖武皇帝",
		"将军李蔡，成纪人也。":       "将军李蔡",
		"易王母，文侯夫人也。":       "", // a wife
		"初，太祖为兖州，以陈留人也":    "",
		"时荆州未定，复遣辽屯长社。":    "",
		"辽谓左右曰：勿动。":        "",
		"高祖吕皇后，父吕公，单父人也。":  "",
		"关羽字云长，本字长生，河东解人也": "关羽",
		"荀攸字公达，彧从子也。":      "荀攸",
		"王烈者，字彦方，於时名闻":     "王烈",
		"世祖光武皇帝讳秀，字文叔":     "世祖光武皇帝",
		"良弟谡，字幼常，以荆州从事":    "",
		"孔子生鲤，字伯鱼。":        "",
		"繇长子基，字敬舆，年十四":     "",
		"秦商字子丕。":           "", // a line of a list of disciples
	}
	for in, want := range cases {
		if got := lifeName(in); got != want {
			t.Errorf("lifeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestYearHeading(t *testing.T) {
	cases := map[string]string{ // "" for none, else era+"|"+year
		"建安元年春正月，": "建安|元年",
		"二年春，绍、馥":  "|二年",
		"二十五年春正月，": "|二十五年",
		"元年冬十月，":   "|元年",
		"永元元年，":    "永元|元年",
		"秦二世元年秋七月": "秦二世|元年",
		"襄公十二年，":   "襄公|十二年",
		"秋七月，袁绍":   "",
		"是岁，孙策":    "",
		"后三年，帝崩":   "",
		"居二年，纣杀":   "",
		"其四年，绀孙":   "",
		"代王立二年，":   "",
		"延视事三年，":   "",
		"十年之间，":    "",
		"明年春，":     "",
	}
	for in, want := range cases {
		era, year, ok := yearHeading(in)
		got := ""
		if ok {
			got = era + "|" + year
		}
		if got != want {
			t.Errorf("yearHeading(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestChunkPatternsRandom checks the invariants with Patterns on documents
// built from openings, year headings and the pieces of TestChunkRandom.
func TestChunkPatternsRandom(t *testing.T) {
	pieces := []string{
		"\n", "\n\n", " ", "。", "，", "# ", "## ", "卷二\n\n", "第一回\n",
		lifeZhang, lifeZhang2, lifeZhao, lifeZhao2, lifeQian, comment,
		"天和元年春，", "二年，", "三年春正月，", "秋七月，", "后三年，", "张辽字文远，雁门马邑人也",
		bioWang, strings.Repeat("兵", 70), "the king", "e\u0301",
	}
	seed := uint32(11)
	next := func(k int) int {
		seed = seed*1103515245 + 12345
		return int(seed>>8) % k
	}
	for iter := range 2000 {
		var b strings.Builder
		for range next(40) {
			b.WriteString(pieces[next(len(pieces))])
		}
		doc := b.String()
		opts := ChunkOptions{MaxChars: 1 + next(120), Overlap: next(50) - 5, Patterns: true}
		format := []string{"txt", "md"}[next(2)]
		c := chunkDoc(doc, format, "", opts)
		msg := checkChunks(doc, opts, c.out)
		if msg == "" {
			msg = checkUnits(doc, c.units, Chunk(doc, format, "", ChunkOptions{MaxChars: opts.MaxChars, Overlap: opts.Overlap}), c.out)
		}
		if msg != "" {
			t.Fatalf("iteration %d: %s\nopts %+v format %s doc %q", iter, msg, opts, format, doc)
		}
	}
}
