package pipeline

import (
	"context"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/chrono"
	"github.com/annals-project/annals/internal/histories"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// StepChrono dates facts; chronoVersion changes when dating would change.
const (
	StepChrono    = "chrono"
	chronoVersion = "11"
)

// Precisions of times not named in a fact's own sentence or not placed in
// the calendar: a year taken from the sentences before; a year of a reign
// the table cannot place, named in the sentence or in force from before.
const (
	PrecisionContext      = "context"
	PrecisionReign        = "reign"
	PrecisionReignContext = "reign-context"
)

// contextReach is how many sentences after the last one that names a time
// the year in force still dates a sentence in a later paragraph. Histories
// move on without saying so: a year named pages earlier says little about
// the sentence at hand. Within the paragraph that named it, the year holds
// to the paragraph's end: a paragraph tells one year's events
// (二十四年，先主为汉中王…权遣将逆击羽，斩羽及子平于临沮).
const contextReach = 6

// timeMovers, opening a clause, say that time has moved on by an unnamed
// stretch: after them the year in force no longer dates anything.
var timeMovers = []string{"久之", "其后", "后数岁", "后数年", "数岁", "数年", "积年", "累年", "历年", "追谥", "追赠"}

// timePasses says whether a clause of the sentence opens by moving time
// on without naming it (久之，…; 追谥超曰威侯), not where the words serve
// otherwise (蹑其后: at his rear).
func timePasses(sentence []rune) bool {
	s := string(sentence)
	for _, w := range timeMovers {
		for i := 0; ; {
			j := strings.Index(s[i:], w)
			if j < 0 {
				break
			}
			at := i + j
			if r, _ := utf8.DecodeLastRuneInString(s[:at]); at == 0 || strings.ContainsRune("，；：、 ", r) {
				return true
			}
			i = at + len(w)
		}
	}
	return false
}

// DateStore is what dating reads and writes.
type DateStore interface {
	DocsNeedingStep(ctx context.Context, step, version string) ([]int64, error)
	DocumentByID(ctx context.Context, id int64) (*store.DatedDoc, error)
	SetDates(ctx context.Context, d *store.DatedDoc, step, version string) error
	EntityDocs(ctx context.Context) ([]store.EntityDoc, error)
}

// DateReport says what dating did.
type DateReport struct {
	Documents int `json:"documents"` // documents dated by this run
	Evidence  int `json:"evidence"`  // evidence sentences looked at
	Dated     int `json:"dated"`     // of which got a year
}

// Date gives every fact the time of its sentence: the time expression in it
// (建兴十二年, 明年, 是岁 …), else the year in force where it stands, walking
// each document in order as a reader would; and it indexes each chunk by the
// years it speaks of. It is a step of its own, so workspaces indexed before
// it existed get it without extracting again.
func Date(ctx context.Context, db DateStore) (*DateReport, error) {
	rep := &DateReport{}
	ids, err := db.DocsNeedingStep(ctx, StepChrono, chronoVersion)
	if err != nil || len(ids) == 0 {
		return rep, err
	}
	counts, err := db.EntityDocs(ctx)
	if err != nil {
		return rep, err
	}
	homes := personHomes(counts)
	// The store reads and writes one document at a time; working out the
	// dates runs on every core between the two.
	run, cancel := context.WithCancel(ctx)
	defer cancel()
	read := make(chan *store.DatedDoc, 8)
	dated := make(chan *store.DatedDoc, 8)
	var readErr error
	go func() {
		defer close(read)
		for _, id := range ids {
			d, err := db.DocumentByID(run, id)
			if err != nil {
				readErr = err
				return
			}
			select {
			case read <- d:
			case <-run.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Go(func() {
			for d := range read {
				dateDocument(d, homes)
				select {
				case dated <- d:
				case <-run.Done():
					return
				}
			}
		})
	}
	go func() { wg.Wait(); close(dated) }()
	for d := range dated {
		if err := db.SetDates(run, d, StepChrono, chronoVersion); err != nil {
			return rep, err
		}
		rep.Documents++
		rep.Evidence += len(d.Evidence)
		for _, e := range d.Evidence {
			if e.Dated {
				rep.Dated++
			}
		}
	}
	if readErr != nil {
		return rep, readErr
	}
	return rep, ctx.Err()
}

// sentenceTime is the time of one sentence.
type sentenceTime struct {
	kg.Span
	explicit  bool // the sentence names its time
	relative  bool // … only counting from the year in force (是岁, 明年)
	known     bool // a year is known, named or in force
	year, end int
	precision string
	expr      string
	passes    bool // time moves on here without a name (久之)
	// A year of a reign the table cannot place, named or in force.
	reign     string
	reignName int64
	reignYear int
}

func dateDocument(d *store.DatedDoc, homes map[int64]string) {
	if !text.IsChinese(d.Lang) && d.Lang != text.Vietnamese && d.Lang != text.English {
		return
	}
	norm := []rune(d.Norm)
	home := homeOf(d.Section, d.Key)
	c := &chrono.Context{Dynasty: home}
	if s, ok := histories.Annals(d.Title, d.Section+"/"+d.Key); ok {
		// Annals count their ruler's years before they name an era.
		if cnt, ok := chrono.ReignCount(s.Dynasty, s.Titles); ok {
			c.Count, c.Own = cnt, cnt
		}
	}
	var sents []sentenceTime
	var found []chrono.Time   // every resolved expression, in document offsets
	since := contextReach + 1 // sentences since one named a time
	var reign sentenceTime    // the reign year in force, if any
	para, namedPara, prevEnd := 0, -1, 0
	for _, sp := range text.Sentences(d.Norm, d.Lang) {
		st := sentenceTime{Span: sp}
		if sp.Start > prevEnd && slices.Contains(norm[prevEnd:sp.Start], '\n') {
			para++
		}
		prevEnd = sp.End
		c.Dynasties = sentenceDynasties(d.People, sp, homes)
		for _, t := range chrono.Parse(string(norm[sp.Start:sp.End]), c) {
			t.Span = kg.Span{Start: sp.Start + t.Span.Start, End: sp.Start + t.Span.End}
			if t.Resolved {
				found = append(found, t)
			}
			// A year the sentence names outranks one it counts from the
			// year in force: 是岁建安元年也 is 196, whatever came before.
			if t.Resolved && (!st.explicit || st.relative && t.Calendar != chrono.CalRelative) {
				st.explicit, st.known, st.relative = true, true, t.Calendar == chrono.CalRelative
				st.year, st.end, st.precision, st.expr = t.Year, t.EndYear, t.Precision, t.Expr
			}
			if !t.Resolved && t.Ruler != "" && t.Ordinal > 0 && !st.explicit && st.reign == "" {
				st.reign, st.reignYear, st.expr = t.Ruler, t.Ordinal, t.Expr
				st.reignName = linkRuler(d.People, t, home)
			}
		}
		switch {
		case st.explicit:
			since, reign, namedPara = 0, sentenceTime{}, para
		case st.reign != "":
			since, reign, namedPara = 0, st, para
		case timePasses(norm[sp.Start:sp.End]):
			// 久之, 后数岁, 追谥: the year in force is over.
			since, reign, namedPara, st.passes = contextReach+1, sentenceTime{}, -1, true
		default:
			since++
		}
		if !st.explicit && st.reign == "" && (since <= contextReach || para == namedPara) {
			if c.HasYear {
				st.known, st.year, st.end, st.precision = true, c.Year, c.Year, PrecisionContext
			} else if reign.reign != "" {
				st.reign, st.reignName, st.reignYear = reign.reign, reign.reignName, reign.reignYear
			}
		}
		sents = append(sents, st)
	}
	if isAnnals(d.Title) {
		fillBetween(sents)
	}
	// Evidence: the last sentence of its span that names a time, else the
	// year in force at its last sentence.
	for i := range d.Evidence {
		e := &d.Evidence[i]
		first := sort.Search(len(sents), func(k int) bool { return sents[k].End > e.Start })
		var pick *sentenceTime
		for k := first; k < len(sents) && sents[k].Start < e.End; k++ {
			if sents[k].explicit || pick == nil || !pick.explicit {
				pick = &sents[k]
			}
		}
		switch {
		case pick != nil && pick.known:
			e.Dated, e.Year, e.EndYear, e.Precision, e.Expr = true, pick.year, pick.end, pick.precision, pick.expr
			if e.EndYear == 0 {
				e.EndYear = e.Year
			}
		case pick != nil && pick.reign != "":
			e.Reign, e.ReignName, e.ReignYear, e.Expr = pick.reign, pick.reignName, pick.reignYear, pick.expr
			e.Precision = PrecisionReign
			if pick.expr == "" {
				e.Precision = PrecisionReignContext
			}
		}
	}
	// Time expressions kept by extraction: the year of the parsed expression
	// they overlap.
	for i := range d.Times {
		m := &d.Times[i]
		k := sort.Search(len(found), func(k int) bool { return found[k].Span.End > m.Start })
		if k < len(found) && found[k].Span.Start < m.End {
			m.Dated, m.Year, m.EndYear = true, found[k].Year, found[k].EndYear
		}
	}
	// Chunks: every year their sentences name or stand in.
	for i := range d.Chunks {
		ch := &d.Chunks[i]
		seen := map[int]bool{}
		first := sort.Search(len(sents), func(k int) bool { return sents[k].End > ch.Start })
		for k := first; k < len(sents) && sents[k].Start < ch.End; k++ {
			if s := sents[k]; s.known && !seen[s.year] {
				seen[s.year] = true
				ch.Years = append(ch.Years, s.year)
			}
		}
	}
}

// isAnnals says whether a chapter is annals (高帝纪上, 项羽本纪), which
// tell their years in order.
func isAnnals(title string) bool {
	return strings.HasSuffix(strings.TrimRight(strings.TrimSpace(title), "上下"), "纪")
}

// fillBetween dates the sentences annals tell between two that name the
// same year with that year: they cannot lie outside it. 高帝纪 tells the
// feast at 鸿门 in the forty sentences between 十二月 and 春正月 of 汉元年,
// past the reach of the year in force. Time moving on unnamed (久之)
// between them leaves the gap undated.
func fillBetween(sents []sentenceTime) {
	prev := -1
	for i, st := range sents {
		switch {
		case st.passes:
			prev = -1
		case st.explicit && st.known:
			if prev >= 0 && sents[prev].year == st.year && sents[prev].end == st.end {
				for k := prev + 1; k < i; k++ {
					if g := &sents[k]; !g.known && g.reign == "" {
						g.known, g.year, g.end, g.precision = true, st.year, st.end, PrecisionContext
					}
				}
			}
			prev = i
		}
	}
}

// homeOf is the dynasty or state a chapter is written about.
func homeOf(section, key string) string { return histories.Home(section + "/" + key) }

// personHomes gives each person the dynasty or state of the chapters that
// mention them most, when those hold at least half of their mentions:
// 诸葛亮 is of 蜀汉 though 魏书 and 吴书 name him too.
func personHomes(counts []store.EntityDoc) map[int64]string {
	type tally struct {
		total int
		by    map[string]int
	}
	per := map[int64]*tally{}
	for _, c := range counts {
		t := per[c.EntityID]
		if t == nil {
			t = &tally{by: map[string]int{}}
			per[c.EntityID] = t
		}
		t.total += c.Mentions
		if h := homeOf(c.Section, c.Key); h != "" {
			t.by[h] += c.Mentions
		}
	}
	homes := map[int64]string{}
	for id, t := range per {
		for h, n := range t.by {
			if 2*n >= t.total && n > 0 {
				homes[id] = h
				break
			}
		}
	}
	return homes
}

// sentenceDynasties lists the homes of the people a sentence names.
func sentenceDynasties(people []store.PersonMention, sp kg.Span, homes map[int64]string) []string {
	var out []string
	k := sort.Search(len(people), func(k int) bool { return people[k].Start >= sp.Start })
	for ; k < len(people) && people[k].End <= sp.End; k++ {
		if h := homes[people[k].EntityID]; h != "" && !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
}

// linkRuler finds the name of the ruler a reign year counts from: the
// person named by the expression itself (景公 in 景公二十九年), else the
// person of this document called by the ruler's name, with the state of the
// chapter first (齐景公 in 齐太公世家) and then the most mentioned.
func linkRuler(people []store.PersonMention, t chrono.Time, home string) int64 {
	for _, p := range people {
		if p.Start < t.Span.End && p.End > t.Span.Start {
			return p.NameID
		}
	}
	count := map[int64]int{}
	for _, p := range people {
		switch p.Name {
		case home + t.Ruler:
			count[p.NameID] += 1 << 20
		case t.Ruler:
			count[p.NameID]++
		}
	}
	best, n := int64(0), 0
	for id, c := range count {
		if c > n || c == n && id < best {
			best, n = id, c
		}
	}
	return best
}
