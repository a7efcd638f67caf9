package corpus

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/text"
)

// ChunkOptions sizes chunks, in code points.
type ChunkOptions struct {
	// MaxChars is the most code points in a chunk; 0 means 600.
	MaxChars int
	// Overlap is how much of the previous chunk of the same section a chunk
	// repeats at its start, in whole sentences; 0 means 100, a negative
	// value means none. It is capped at MaxChars/2 so chunks keep moving.
	Overlap int
	// Patterns makes chunks follow the units a text's writing pattern
	// marks (see Chunk): the lives of a biography chapter, the years of a
	// chronicle, the historian's closing comment.
	Patterns bool
}

// DefaultChunkOptions gives 600-character chunks with 100 characters of
// overlap.
func DefaultChunkOptions() ChunkOptions { return ChunkOptions{MaxChars: 600, Overlap: 100} }

func (o ChunkOptions) resolved() ChunkOptions {
	d := DefaultChunkOptions()
	if o.MaxChars <= 0 {
		o.MaxChars = d.MaxChars
	}
	switch {
	case o.Overlap == 0:
		o.Overlap = d.Overlap
	case o.Overlap < 0:
		o.Overlap = 0
	}
	o.Overlap = min(o.Overlap, o.MaxChars/2)
	return o
}

// maxHeading is the longest line, in code points, taken for a heading in
// plain text.
const maxHeading = 20

// Chunk cuts a document into chunks. The text is split into sections at
// headings (Markdown headings for format "md", lines that look like headings
// otherwise), sections into paragraphs, and paragraphs into sentences of
// language lang ("" detects it). Whole paragraphs are packed into chunks of
// at most MaxChars code points, never across a section boundary; a longer
// paragraph is packed sentence by sentence, and a sentence longer than a
// chunk is cut, at a comma when one is near the end. A chunk after the first
// of its section starts with the last whole sentences of the one before,
// within Overlap code points (or the last sentence alone when it is longer
// but no more than MaxChars/2), dropped as needed to keep a paragraph or
// sentence whole. Every non-space character of doc lies in a chunk, and each
// chunk's Text is exactly doc's code points [Start,End).
//
// With Patterns, a paragraph that opens a unit of the text's writing pattern
// also starts a unit inside its section: a life, opened by a formula such as
// 张辽字文远，雁门马邑人也 (X字Y，Z人也, X，字Y，Z人也, X者，Z人也, X，Z人也,
// or a name and 字 or a title and 讳 alone: 关羽字云长，本字长生);
// a year, opened by a year heading (建安元年, 元年春正月, 二年; not 秋七月)
// in a chronicle, where at least minYears paragraphs open with one and
// yearsPerLife for each that opens a life (a 本纪: reigns told year by
// year, not a chapter of lives that name a year here and there); the
// historian's comment (评曰, 太史公曰, 论曰, 赞曰). Units are boundaries as
// sections are: no chunk spans two, overlap stays inside one, and a unit
// longer than MaxChars is packed as above inside itself. A unit's chunks
// name it after the headings in their Section: 张辽, 卷一/张辽,
// 太祖武皇帝/建安二年, 评曰. A bare 二年 counts from the era of the last year
// heading that named one, or of an era's first year named in passing since
// (建兴元年 inside a paragraph). A life or a comment ends the year before
// it; text before the first unit of a section keeps the section's name.
func Chunk(doc string, format, lang string, opts ChunkOptions) []kg.Chunk {
	return chunkDoc(doc, format, lang, opts).out
}

// chunkDoc chunks a document and returns the chunker, which holds the chunks
// and the offsets where units open.
func chunkDoc(doc string, format, lang string, opts ChunkOptions) *chunker {
	opts = opts.resolved()
	if lang == "" {
		lang = text.DetectLanguage(doc)
	}
	if !utf8.ValidString(doc) {
		// Chunk texts are slices of doc; make them read as the code points
		// the offsets count, with U+FFFD for each invalid byte.
		doc = string([]rune(doc))
	}
	rs, off := decode(doc)
	c := &chunker{rs: rs, off: off, doc: doc, lang: lang, max: opts.MaxChars, overlap: opts.Overlap, md: format == "md"}
	lines := splitLines(rs)
	if format == "md" {
		markMarkdownHeadings(rs, lines)
	} else {
		markTextHeadings(rs, lines)
	}
	if opts.Patterns {
		c.patterns = true
		c.chronicle = c.isChronicle(lines)
	}
	var path []heading // open headings, outermost first
	from := 0
	for i := range lines {
		l := lines[i]
		if l.level == 0 {
			continue
		}
		c.section(lines[from:i])
		for len(path) > 0 && path[len(path)-1].level >= l.level {
			path = path[:len(path)-1]
		}
		path = append(path, heading{l.level, string(rs[l.hs:l.he])})
		c.name = joinHeadings(path)
		from = i
	}
	c.section(lines[from:])
	return c
}

type heading struct {
	level int
	title string
}

func joinHeadings(path []heading) string {
	parts := make([]string, len(path))
	for i, h := range path {
		parts[i] = h.title
	}
	return strings.Join(parts, "/")
}

// line is one line of the document; offsets are code points.
type line struct {
	start, end int // the line without its newline
	ts, te     int // the line without surrounding white space; ts == te when blank
	level      int // heading level, 0 when not a heading
	hs, he     int // heading title inside the line
}

func (l line) blank() bool { return l.ts == l.te }

func splitLines(rs []rune) []line {
	var ls []line
	start := 0
	for i := 0; i <= len(rs); i++ {
		if i < len(rs) && rs[i] != '\n' {
			continue
		}
		l := line{start: start, end: i}
		l.ts, l.te = trim(rs, start, i)
		ls = append(ls, l)
		start = i + 1
	}
	return ls
}

// trim narrows [s,e) to exclude white space at both ends.
func trim(rs []rune, s, e int) (int, int) {
	for s < e && unicode.IsSpace(rs[s]) {
		s++
	}
	for e > s && unicode.IsSpace(rs[e-1]) {
		e--
	}
	return s, e
}

// markMarkdownHeadings finds ATX headings ("# Title"), skipping fenced code.
func markMarkdownHeadings(rs []rune, lines []line) {
	fence := rune(0)
	for i := range lines {
		l := &lines[i]
		if l.blank() {
			continue
		}
		if l.ts-l.start <= 3 && l.te-l.ts >= 3 && (rs[l.ts] == '`' || rs[l.ts] == '~') &&
			rs[l.ts+1] == rs[l.ts] && rs[l.ts+2] == rs[l.ts] {
			switch fence {
			case 0:
				fence = rs[l.ts]
			case rs[l.ts]:
				fence = 0
			}
			continue
		}
		if fence != 0 || l.ts-l.start > 3 || rs[l.ts] != '#' {
			continue
		}
		p := l.ts
		for p < l.te && rs[p] == '#' {
			p++
		}
		level := p - l.ts
		if level > 6 || (p < l.te && rs[p] != ' ' && rs[p] != '\t') {
			continue
		}
		hs, he := trim(rs, p, l.te)
		// A closing run of '#' after a space is decoration.
		q := he
		for q > hs && rs[q-1] == '#' {
			q--
		}
		if q < he && (q == hs || unicode.IsSpace(rs[q-1])) {
			hs, he = trim(rs, hs, q)
		}
		if hs == he {
			continue
		}
		l.level, l.hs, l.he = level, hs, he
	}
}

// markTextHeadings finds heading-like lines of plain text. It is
// conservative: a short line without sentence punctuation counts only when
// it names a chapter ("第三回", "Chapter 3") or stands apart (a blank line
// or the start before it, or a blank line after it that follows a finished
// sentence) ahead of a longer paragraph.
func markTextHeadings(rs []rune, lines []line) {
	prevBlank := true
	for i := range lines {
		l := &lines[i]
		if l.blank() {
			prevBlank = true
			continue
		}
		wasPrevBlank := prevBlank
		prevBlank = false
		if !headingLike(rs, l.ts, l.te) {
			continue
		}
		ok := chapterLike(rs[l.ts:l.te])
		if !ok {
			nextBlank := i+1 < len(lines) && lines[i+1].blank()
			apart := wasPrevBlank || (nextBlank && endsSentence(rs, lines[i-1]))
			j := i + 1
			for j < len(lines) && lines[j].blank() {
				j++
			}
			ok = apart && j < len(lines) && longerParagraph(rs, lines[j], l.te-l.ts)
		}
		if ok {
			l.level, l.hs, l.he = 1, l.ts, l.te
		}
	}
}

// headingLike: short, has a letter, no sentence punctuation.
func headingLike(rs []rune, s, e int) bool {
	if e-s > maxHeading {
		return false
	}
	letter := false
	for _, r := range rs[s:e] {
		if isSentencePunct(r) {
			return false
		}
		if unicode.IsLetter(r) {
			letter = true
		}
	}
	return letter
}

func isSentencePunct(r rune) bool {
	switch r {
	case '。', '．', '！', '？', '；', '，', '、', '：', '…', '.', '!', '?', ';', ',', ':':
		return true
	}
	return false
}

func isCommaLike(r rune) bool {
	switch r {
	case '，', '、', '：', '；', ',', ';', ':':
		return true
	}
	return false
}

// longerParagraph: a line longer than a heading of n code points that reads
// as prose.
func longerParagraph(rs []rune, l line, n int) bool {
	if l.te-l.ts <= n {
		return false
	}
	if l.te-l.ts > maxHeading {
		return true
	}
	for _, r := range rs[l.ts:l.te] {
		if isSentencePunct(r) {
			return true
		}
	}
	return false
}

// endsSentence: the line ends with sentence-final punctuation, possibly
// inside closing quotes or brackets.
func endsSentence(rs []rune, l line) bool {
	for e := l.te; e > l.ts; e-- {
		switch r := rs[e-1]; {
		case strings.ContainsRune("。．！？….!?", r):
			return true
		case strings.ContainsRune("”’」』）)]】〗》\"'", r):
			continue
		default:
			return false
		}
	}
	return false
}

var chapterUnits = []rune("回章节節卷篇部集")

// chapterLike: "第" numeral unit …, or Chapter/Book/Part and a number.
func chapterLike(rs []rune) bool {
	if len(rs) >= 3 && rs[0] == '第' {
		i := 1
		for i < len(rs) && isNumeral(rs[i]) {
			i++
		}
		return i > 1 && i < len(rs) && slices.Contains(chapterUnits, rs[i])
	}
	word, rest, ok := strings.Cut(string(rs), " ")
	if !ok {
		return false
	}
	switch strings.ToLower(word) {
	case "chapter", "book", "part", "chương", "phần", "hồi", "quyển":
	default:
		return false
	}
	num, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
	if num == "" {
		return false
	}
	for _, r := range num {
		if !unicode.IsDigit(r) && !strings.ContainsRune("IVXLCivxlc", r) {
			return false
		}
	}
	return true
}

func isNumeral(r rune) bool {
	return unicode.IsDigit(r) || strings.ContainsRune("〇零一二三四五六七八九十百千两壹贰叁肆伍陆柒捌玖拾佰仟", r)
}

// chunker packs one document; it keeps the atoms (sentences, or pieces of a
// cut sentence) of the chunk being built and of the last one emitted, from
// which the next chunk's overlap is taken.
type chunker struct {
	rs      []rune
	off     []int  // byte offset in doc of each code point, and of the end
	doc     string // the text of rs, sliced for chunk texts without copying
	lang    string
	max     int
	overlap int
	md      bool
	name    string // current section path, then the unit with patterns

	patterns  bool   // units follow the writing pattern
	chronicle bool   // year headings open units
	base      string // the section's heading path
	person    string // the life being read, or the comment
	year      string // the year being read
	era       string // what the last year counted from
	eraSeen   int    // the text before this was read for eras
	units     []int  // where units open

	out     []kg.Chunk
	prevEnd int       // end of the last chunk of this section, -1 if none
	prev    []kg.Span // atoms of that chunk
	cur     []kg.Span // atoms of the chunk being built
	curNew  int       // cur[:curNew] repeat the previous chunk
	open    bool      // cur has been seeded with its overlap
	atoms   []kg.Span // scratch for a paragraph's atoms
}

// section chunks the lines of one section.
func (c *chunker) section(lines []line) {
	c.restart()
	c.base, c.person, c.year, c.era = c.name, "", "", ""
	if len(lines) > 0 {
		c.eraSeen = lines[0].start
	}
	for i := 0; i < len(lines); {
		if lines[i].blank() {
			i++
			continue
		}
		j := c.paragraphEnd(lines, i)
		s, e := lines[i].ts, lines[j-1].te
		if c.patterns && lines[i].level == 0 {
			c.unit(s, e)
		}
		c.paragraph(s, e)
		i = j
	}
	c.emit()
}

// restart closes the chunk being built; the next one starts a new run,
// without overlap.
func (c *chunker) restart() {
	c.emit()
	c.prevEnd, c.prev, c.cur, c.curNew, c.open = -1, c.prev[:0], c.cur[:0], 0, false
}

// paragraphEnd is the line after the paragraph that starts at lines[i], a
// non-blank line: a heading is a paragraph of its own, and other lines run
// on while they wrap softly.
func (c *chunker) paragraphEnd(lines []line, i int) int {
	j := i + 1
	if lines[i].level == 0 {
		for j < len(lines) && !lines[j].blank() && lines[j].level == 0 &&
			softWrap(c.rs, lines[j-1], lines[j], c.md) {
			j++
		}
	}
	return j
}

// softWrap reports whether the line break between a and b is inside a
// paragraph: text in an alphabetic script wrapped at a word. Chinese lines,
// and lines that end a sentence, are paragraphs of their own.
func softWrap(rs []rune, a, b line, md bool) bool {
	if md && blockStart(rs[b.ts:b.te]) {
		return false
	}
	last, first := rs[a.te-1], rs[b.ts]
	wordy := func(r rune) bool {
		return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !isCJK(r)
	}
	return (wordy(last) || strings.ContainsRune(",;-–—(", last)) && (wordy(first) || strings.ContainsRune("(\"'“‘", first))
}

// blockStart: a Markdown line that starts its own block (list item, quote,
// table row).
func blockStart(rs []rune) bool {
	if len(rs) >= 2 && strings.ContainsRune("-*+>|", rs[0]) && (rs[0] == '>' || rs[0] == '|' || rs[1] == ' ') {
		return true
	}
	i := 0
	for i < len(rs) && rs[i] >= '0' && rs[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(rs) && (rs[i] == '.' || rs[i] == ')') && rs[i+1] == ' '
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) ||
		(r >= 0x3000 && r <= 0x303F) || (r >= 0xFF00 && r <= 0xFFEF)
}

// paragraph splits [s,e) into atoms at sentence ends and packs them.
func (c *chunker) paragraph(s, e int) {
	c.atoms = c.splitSentences(c.atoms[:0], s, e)
	// A paragraph that fits is kept whole: with the current chunk if there
	// is room, else in a chunk of its own.
	if c.hasNew() && e-c.cur[0].Start <= c.max {
		c.cur = append(c.cur, c.atoms...)
		return
	}
	if e-s <= c.max {
		c.emit()
		c.seed()
		c.shrinkFor(e)
		c.cur = append(c.cur, c.atoms...)
		return
	}
	// A long paragraph tops up a chunk that is less than half full; a fuller
	// one is closed so the paragraph starts fresh.
	if c.hasNew() && c.cur[len(c.cur)-1].End-c.cur[0].Start >= c.max/2 {
		c.emit()
	}
	for _, a := range c.atoms {
		c.add(a)
	}
}

// splitSentences appends the trimmed, non-empty sentences of [s,e) to dst.
// Only the sentence ends are taken from the splitter, so whatever it
// returns, the atoms cover every non-space character in order.
func (c *chunker) splitSentences(dst []kg.Span, s, e int) []kg.Span {
	spans := text.Sentences(c.text(s, e), c.lang)
	ends := make([]int, 0, len(spans)+1)
	for _, sp := range spans {
		if sp.End > 0 && sp.End < e-s {
			ends = append(ends, s+sp.End)
		}
	}
	if !slices.IsSorted(ends) {
		slices.Sort(ends)
	}
	ends = append(ends, e)
	from := s
	for _, b := range ends {
		if b <= from {
			continue
		}
		if ts, te := trim(c.rs, from, b); ts < te {
			dst = append(dst, kg.Span{Start: ts, End: te})
		}
		from = b
	}
	return dst
}

func (c *chunker) hasNew() bool { return len(c.cur) > c.curNew }

// add puts one atom into chunks, closing chunks and cutting the atom as
// needed.
func (c *chunker) add(a kg.Span) {
	for {
		c.seed()
		start := a.Start
		if len(c.cur) > 0 {
			start = c.cur[0].Start
		}
		if a.End-start <= c.max {
			c.cur = append(c.cur, a)
			return
		}
		if c.hasNew() {
			c.emit()
			continue
		}
		if a.Len() <= c.max {
			c.shrinkFor(a.End)
			c.cur = append(c.cur, a)
			return
		}
		// Longer than a chunk: cut it, keeping the overlap unless little
		// room would be left.
		room := c.max - (a.Start - start)
		if room*2 < c.max {
			c.cur, c.curNew, room = c.cur[:0], 0, c.max
		}
		cut := c.cutPoint(a.Start, a.Start+room)
		piece := kg.Span{Start: a.Start, End: cut}
		piece.Start, piece.End = trim(c.rs, piece.Start, piece.End)
		c.cur = append(c.cur, piece)
		c.emit()
		a.Start, _ = trim(c.rs, cut, a.End)
	}
}

// cutPoint picks where to cut a sentence starting at s so the piece ends by
// limit: after a comma-like mark in the last third, else at a space there,
// else at limit (not before a combining mark).
func (c *chunker) cutPoint(s, limit int) int {
	floor := s + (limit-s)*2/3
	for i := limit - 1; i >= floor && i > s; i-- {
		if isCommaLike(c.rs[i]) {
			return i + 1
		}
	}
	for i := limit - 1; i >= floor && i > s; i-- {
		if unicode.IsSpace(c.rs[i]) {
			if ts, te := trim(c.rs, s, i); ts < te {
				return i
			}
		}
	}
	cut := limit
	for cut > s+1 && unicode.Is(unicode.Mn, c.rs[cut]) {
		cut--
	}
	return cut
}

// seed opens a chunk with its overlap: the last atoms of the previous chunk
// of the section that fit in the overlap, or the last one alone if no more
// than half a chunk.
func (c *chunker) seed() {
	if c.open {
		return
	}
	c.open = true
	c.cur, c.curNew = c.cur[:0], 0
	if len(c.prev) == 0 || c.overlap <= 0 {
		return
	}
	end := c.prev[len(c.prev)-1].End
	k := len(c.prev)
	for k > 0 && end-c.prev[k-1].Start <= c.overlap {
		k--
	}
	if k == len(c.prev) && c.prev[k-1].Len() <= c.max/2 {
		k--
	}
	c.cur = append(c.cur, c.prev[k:]...)
	c.curNew = len(c.cur)
}

// shrinkFor drops leading overlap atoms until a chunk ending at end fits.
func (c *chunker) shrinkFor(end int) {
	k := 0
	for k < c.curNew && end-c.cur[k].Start > c.max {
		k++
	}
	if k > 0 {
		c.cur = append(c.cur[:0], c.cur[k:]...)
		c.curNew -= k
	}
}

// text is the document's code points [s,e), a substring of doc.
func (c *chunker) text(s, e int) string { return c.doc[c.off[s]:c.off[e]] }

// decode splits doc into code points and the byte offset of each, plus one
// for the end. Invalid bytes count as one code point each, as in []rune.
func decode(doc string) ([]rune, []int) {
	n := utf8.RuneCountInString(doc)
	rs := make([]rune, 0, n)
	off := make([]int, 0, n+1)
	for i, r := range doc {
		rs = append(rs, r)
		off = append(off, i)
	}
	return rs, append(off, len(doc))
}

// emit closes the current chunk if it holds anything new.
func (c *chunker) emit() {
	if !c.hasNew() {
		return
	}
	s, e := c.cur[0].Start, c.cur[len(c.cur)-1].End
	ov := 0
	if c.prevEnd > s {
		ov = c.prevEnd - s
	}
	c.out = append(c.out, kg.Chunk{
		Seq:     len(c.out),
		Section: c.name,
		Span:    kg.Span{Start: s, End: e},
		Overlap: ov,
		Text:    c.text(s, e),
	})
	c.prevEnd = e
	c.prev, c.cur = c.cur, c.prev[:0]
	c.curNew, c.open = 0, false
}
