package corpus

import (
	"regexp"
	"strings"
	"unicode"
)

// PatternsVersion changes when the units Patterns finds would change, so
// that texts chunked with them are chunked again.
const PatternsVersion = "p2"

// The openings of the units a writing pattern marks, matched at the start
// of a paragraph (see Chunk).
var (
	// lifeOpening: a name of two to six characters, optionally 字 and a
	// courtesy name, or 者, then a place and 人也: 张辽字文远，雁门马邑人也;
	// 诸葛亮字孔明，琅邪阳都人也; 王允之，河东安邑人也; 韩信者，淮阴人也.
	lifeOpening = regexp.MustCompile(`^(\p{Han}{2,6}?)(?:者，|，?字\p{Han}{1,4}，|，)(\p{Han}{1,10}?)人也`)
	// nameOpening: a full name and its 字, or a sovereign's title and his
	// name (讳), when no place follows: 关羽字云长，本字长生; 荀攸字公达，彧从子也;
	// 世祖光武皇帝讳秀，字文叔.
	nameOpening = regexp.MustCompile(`^(\p{Han}{2,4}?)者?，?字\p{Han}{1,3}，|^(\p{Han}{2,7}?)讳\p{Han}{1,2}，`)
	// yearOpening: a year, counted from a reign era or ruler or bare,
	// followed by a season, a month or a comma: 建安元年春正月, 二年，
	// 初平元年, 襄公十二年.
	yearOpening = regexp.MustCompile(`^(\p{Han}{0,6}?)(元|[一二三四五六七八九十百廿卅]+)年(?:[春夏秋冬，、。：；正闰閏一二三四五六七八九十]|$)`)
	// commentOpening: the historian's comment closing a chapter or a life.
	commentOpening = regexp.MustCompile(`^(?:评曰|評曰|太史公曰|赞曰|贊曰|论曰|論曰|史臣曰)`)
)

// minYears is how many paragraphs of a document must open with a year for
// years to open units: one or two are dates in a narrative, not a
// chronicle's frame (see isChronicle).
const minYears = 3

// yearsPerLife is how many year headings a chronicle has for each life it
// opens (see isChronicle).
const yearsPerLife = 6

// unitLook is how many code points of a paragraph's start the openings are
// looked for in; the longest opening fits in it.
const unitLook = 32

// A year counted from what comes before it: 后三年 (three years later),
// 居二年 (two years on), 其四年 are relative, and 代王立二年 (in his second
// year after he was set up), 延视事三年 say how long: not a chronicle's
// year headings.
const (
	relativeYearStart = "后後居又至其及会會绝絕第维維自凡越积積逾历歷经經数數是於于以在即惟"
	relativeYearWords = "立在事位之被享出相即凡居"
)

// kinWords make what stands before 字 a kinsman named by his relation to
// someone already named (良弟谡，字幼常; 孔子生鲤，字伯鱼), who is told of
// inside that life.
var kinWords = []string{"弟", "兄", "生", "长子", "少子", "中子", "从子", "之子", "孙"}

// lifeName is the name a paragraph opening a life gives it, or "".
func lifeName(head string) string {
	if m := lifeOpening.FindStringSubmatch(head); m != nil {
		if strings.HasSuffix(m[2], "夫") { // X，Y夫人也: a wife, not a place
			return ""
		}
		return m[1]
	}
	m := nameOpening.FindStringSubmatch(head)
	if m == nil {
		return ""
	}
	name := m[1] + m[2]
	if m[1] != "" {
		for _, w := range kinWords {
			if strings.Contains(name, w) && !strings.HasPrefix(name, w) {
				return ""
			}
		}
	}
	return name
}

// yearHeading returns what a paragraph opening with a year counts from
// (the era or ruler, "" when bare) and the year itself, or ok false.
func yearHeading(head string) (era, year string, ok bool) {
	m := yearOpening.FindStringSubmatch(head)
	if m == nil {
		return "", "", false
	}
	era = m[1]
	if era != "" {
		first := []rune(era)[0]
		if strings.ContainsRune(relativeYearStart, first) || strings.ContainsAny(era, relativeYearWords) {
			return "", "", false
		}
	}
	return era, m[2] + "年", true
}

// isChronicle reports whether year headings open units in this document:
// at least minYears paragraphs open with one, and yearsPerLife for each
// that opens a life. In a chapter of several lives the years are dates in a
// narrative, and the lives are the units; in the First Four Histories
// chapters of lives have at most five year headings a life (班梁列传), those
// of several sovereigns' reigns seven or more (少帝纪, 三嗣主传).
func (c *chunker) isChronicle(lines []line) bool {
	years, lives := 0, 0
	for i := 0; i < len(lines); {
		if lines[i].blank() {
			i++
			continue
		}
		j := c.paragraphEnd(lines, i)
		if lines[i].level == 0 {
			s := lines[i].ts
			head := c.text(s, min(lines[j-1].te, s+unitLook))
			if _, _, ok := yearHeading(head); ok {
				years++
			} else if lifeName(head) != "" {
				lives++
			}
		}
		i = j
	}
	return years >= max(minYears, yearsPerLife*lives)
}

// unit starts a unit at the paragraph [s,e) when it opens one: the chunk
// being built is closed, the next starts without overlap, and the section
// names the unit.
func (c *chunker) unit(s, e int) {
	head := c.text(s, min(e, s+unitLook))
	if m := commentOpening.FindString(head); m != "" {
		c.person, c.year, c.era, c.eraSeen = m, "", "", s
	} else if name := lifeName(head); name != "" {
		c.person, c.year, c.era, c.eraSeen = name, "", "", s
	} else if era, year, ok := yearHeading(head); ok && c.chronicle {
		c.scanEras(s)
		if era != "" {
			c.era = era
		}
		c.year = c.era + year
	} else {
		return
	}
	c.restart()
	var parts []string
	for _, p := range []string{c.base, c.person, c.year} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	c.name = strings.Join(parts, "/")
	c.units = append(c.units, s)
}

// scanEras reads the text before s that was not yet read for the first
// year of an era named in passing (建兴元年 inside a paragraph): a bare year
// heading after it counts from that era, not from the last one a heading
// named.
func (c *chunker) scanEras(s int) {
	for i := max(c.eraSeen, 2); i+1 < s; i++ {
		if c.rs[i] != '元' || c.rs[i+1] != '年' || !unicode.Is(unicode.Han, c.rs[i-2]) || !unicode.Is(unicode.Han, c.rs[i-1]) {
			continue
		}
		era := string(c.rs[i-2 : i])
		if !strings.ContainsAny(era, relativeYearStart+relativeYearWords+"为為改是") {
			c.era = era
		}
	}
	c.eraSeen = max(c.eraSeen, s)
}
