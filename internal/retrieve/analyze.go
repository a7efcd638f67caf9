// Package retrieve finds what a question needs from the graph and the
// text: it reads the question (its entities, times and type), runs several
// retrieval routes (entities, triples, chunks, paths, a window of years,
// communities) and fuses what they return into one ranked list, each item
// with the sentence that supports it.
package retrieve

import (
	"context"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/chrono"
	"github.com/annals-project/annals/internal/index"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// Analysis is what a question asks about.
type Analysis struct {
	Question string    `json:"question"`
	Norm     string    `json:"norm"` // normalised (simplified) question
	Lang     string    `json:"lang"`
	Type     string    `json:"type"` // see the Q* constants
	Asks     *Ask      `json:"asks,omitempty"`
	Entities []Mention `json:"entities"`
	// Others are the other entities the question's subject may name
	// (孔明 is 诸葛亮's 字, and 胡昭's), most mentioned first; the answer
	// is for Entities[0].
	Others []kg.Entity `json:"others,omitempty"`
	// Global is what a whole-corpus question asks for (Type QGlobal).
	Global *GlobalAsk      `json:"global,omitempty"`
	Years  []int           `json:"years,omitempty"`
	Times  []string        `json:"times,omitempty"` // the expressions the years come from
	terms  []string        // content terms, question words left out
	said   map[string]bool // every term of the question, question words too
	names  map[int64]bool
}

// Mention is an entity named in the question, with the names it also goes
// by (seed 000's alias expansion: 曹操 → 魏太祖, 孟德, 曹孟德).
type Mention struct {
	Text    string    `json:"text"`
	Span    kg.Span   `json:"span"` // code points in the normalised question
	Entity  kg.Entity `json:"entity"`
	Aliases []string  `json:"aliases,omitempty"`
}

// maxNameLen bounds the names looked up in a question, in characters for
// Chinese and words elsewhere.
const (
	maxHanName  = 8
	maxWordName = 5
)

// maxReadings bounds the readings of an ambiguous time that retrieval
// tries.
const maxReadings = 8

// Analyze reads a question: it finds the entities it names (the longest
// names first, one entity per place), their aliases, the years its time
// expressions stand for and the kind of answer it wants.
func Analyze(ctx context.Context, src Source, question string, t2s bool) (*Analysis, error) {
	a := &Analysis{Question: question, Norm: question, names: map[int64]bool{}}
	a.Lang = text.QuestionLanguage(question)
	if t2s && (text.IsChinese(a.Lang) || a.Lang == text.Unknown) {
		a.Norm, _ = text.ToSimplified(question)
	}
	a.Type, a.Asks = classify(a.Norm, a.Lang)
	if a.Type == QGlobal {
		a.Global = parseGlobal(a.Norm)
	}
	// An era shared by several dynasties (建兴) keeps every reading: the
	// window covers each, and the text decides.
	for _, t := range chrono.Parse(a.Norm, &chrono.Context{}) {
		if t.Precision == chrono.Century || t.Precision == chrono.Decade {
			continue
		}
		switch {
		case t.Resolved:
			a.Years = append(a.Years, t.Year)
		case len(t.Candidates) > 0 && len(t.Candidates) <= maxReadings:
			for _, c := range t.Candidates {
				a.Years = append(a.Years, c.Year)
			}
		default:
			continue
		}
		a.Times = append(a.Times, t.Expr)
	}
	cands := nameCandidates(a.Norm)
	subject := ""
	if a.Asks != nil && a.Asks.Subject != "" {
		// The subject is asked as a whole, one character (亮) included.
		subject = a.Asks.Subject
		if i := strings.Index(a.Norm, subject); i >= 0 && len(cands[subject]) == 0 {
			at := utf8.RuneCountInString(a.Norm[:i])
			cands[subject] = []span{{at, at + utf8.RuneCountInString(subject)}}
		}
	}
	matches, err := src.MatchNames(ctx, keys(cands))
	if err != nil {
		return nil, err
	}
	a.Entities = pickMentions(cands, matches)
	if subject != "" {
		joinSubject(a, subject, matches)
		a.Others = subjectFirst(a, subject, matches)
	}
	for i := range a.Entities {
		m := &a.Entities[i]
		a.names[m.Entity.ID] = true
		al, err := src.Aliases(ctx, m.Entity.ID)
		if err != nil {
			return nil, err
		}
		seen := map[string]bool{m.Entity.Name: true, m.Text: true}
		for _, x := range al {
			if !seen[x.Name] && utf8.RuneCountInString(x.Name) > 1 {
				seen[x.Name] = true
				m.Aliases = append(m.Aliases, x.Name)
			}
		}
	}
	a.terms = contentTerms(a.Norm)
	a.said = map[string]bool{}
	for _, t := range index.Terms(a.Norm) {
		a.said[t] = true
	}
	return a, nil
}

// Named reports whether the question names the entity.
func (a *Analysis) Named(id int64) bool { return a.names[id] }

// Terms are the question's content terms: character bigrams and words,
// without those of question words (什么, 哪里, who, when …).
func (a *Analysis) Terms() []string { return a.terms }

// AddsTo says whether a sentence says anything the question does not: a
// title line that only repeats the question's names answers nothing.
func (a *Analysis) AddsTo(sentence string) bool {
	if a == nil || a.said == nil {
		return true
	}
	for _, t := range index.Terms(sentence) {
		if !a.said[t] {
			return true
		}
	}
	return false
}

// span is a candidate name: where it stands in the question.
type span struct{ start, end int }

// nameCandidates lists the substrings of a question that could be names:
// runs of two to eight Han characters, and runs of up to five words that
// start with a capital letter or a digit.
func nameCandidates(q string) map[string][]span {
	out := map[string][]span{}
	rs := []rune(q)
	for i := 0; i < len(rs); i++ {
		if !isHan(rs[i]) {
			continue
		}
		for j := i + 2; j <= len(rs) && j-i <= maxHanName && isHan(rs[j-1]); j++ {
			s := string(rs[i:j])
			if !questionWord(s) {
				out[s] = append(out[s], span{i, j})
			}
		}
	}
	words := wordSpans(rs)
	for i, w := range words {
		if !unicode.IsUpper(rs[w.start]) && !unicode.IsDigit(rs[w.start]) {
			continue
		}
		for j := i; j < len(words) && j-i < maxWordName; j++ {
			s := string(rs[w.start:words[j].end])
			out[s] = append(out[s], span{w.start, words[j].end})
		}
	}
	return out
}

// wordSpans finds the runs of letters and digits outside Han text; a run
// may hold inner hyphens and apostrophes (Lü Bu, Dong-a, O'Neill).
func wordSpans(rs []rune) []span {
	var out []span
	for i := 0; i < len(rs); {
		if !isWord(rs[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(rs) && (isWord(rs[j]) || (rs[j] == '-' || rs[j] == '\'') && j+1 < len(rs) && isWord(rs[j+1])) {
			j++
		}
		out = append(out, span{i, j})
		i = j
	}
	return out
}

func isHan(r rune) bool  { return unicode.Is(unicode.Han, r) }
func isWord(r rune) bool { return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !isHan(r) }

func keys(m map[string][]span) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// pickMentions keeps, place by place, the longest name that matched, and
// for it the entity a reader most likely means: the one called so by its
// canonical name, then the most mentioned. Times are left to chrono.
func pickMentions(cands map[string][]span, matches []store.NameMatch) []Mention {
	best := map[string]store.NameMatch{}
	for _, m := range matches {
		if m.Entity.Type == "时间" || m.Entity.Type == "time" {
			continue
		}
		if b, ok := best[m.Text]; !ok || likelier(m, b) {
			best[m.Text] = m
		}
	}
	type placed struct {
		span
		m store.NameMatch
	}
	var all []placed
	for t, m := range best {
		for _, sp := range cands[t] {
			all = append(all, placed{sp, m})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		li, lj := all[i].end-all[i].start, all[j].end-all[j].start
		if li != lj {
			return li > lj
		}
		if all[i].m.Entity.Mentions != all[j].m.Entity.Mentions {
			return all[i].m.Entity.Mentions > all[j].m.Entity.Mentions
		}
		return all[i].start < all[j].start
	})
	var taken []span
	var out []Mention
	seen := map[int64]bool{}
	for _, p := range all {
		overlaps := false
		for _, t := range taken {
			if p.start < t.end && t.start < p.end {
				overlaps = true
				break
			}
		}
		if overlaps {
			continue
		}
		taken = append(taken, p.span)
		if seen[p.m.Entity.ID] {
			continue
		}
		seen[p.m.Entity.ID] = true
		out = append(out, Mention{Text: p.m.Text, Span: kg.Span{Start: p.start, End: p.end}, Entity: p.m.Entity})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Span.Start < out[j].Span.Start })
	return out
}

// subjectFirst puts the mention of the question's whole subject first and
// returns the other entities the subject names, most mentioned first.
func subjectFirst(a *Analysis, subject string, matches []store.NameMatch) []kg.Entity {
	at := -1
	for i, m := range a.Entities {
		if m.Text == subject {
			at = i
			break
		}
	}
	if at < 0 {
		return nil
	}
	first := a.Entities[at]
	a.Entities = append([]Mention{first}, append(a.Entities[:at:at], a.Entities[at+1:]...)...)
	var others []kg.Entity
	seen := map[int64]bool{first.Entity.ID: true}
	for _, m := range matches {
		if m.Text == subject && !seen[m.Entity.ID] && m.Entity.Type == first.Entity.Type && m.Entity.Name != subject {
			seen[m.Entity.ID] = true
			others = append(others, m.Entity)
		}
	}
	sort.SliceStable(others, func(i, j int) bool { return others[i].Mentions > others[j].Mentions })
	if len(others) > 5 {
		others = others[:5]
	}
	return others
}

// joinSubject reads a subject that no name matches whole but its parts
// do (太祖武皇帝: 太祖, 武皇帝) as the one entity every part may name (曹操,
// where 太祖 alone would be 刘邦): the parts' mentions become one.
func joinSubject(a *Analysis, subject string, matches []store.NameMatch) {
	var parts []int
	for i, m := range a.Entities {
		if m.Text == subject {
			return
		}
		if strings.Contains(subject, m.Text) {
			parts = append(parts, i)
		}
	}
	if len(parts) < 2 {
		return
	}
	count := map[int64]int{}
	var common *store.NameMatch
	for _, i := range parts {
		seen := map[int64]bool{}
		for j, m := range matches {
			if m.Text != a.Entities[i].Text || seen[m.Entity.ID] {
				continue
			}
			seen[m.Entity.ID] = true
			count[m.Entity.ID]++
			if count[m.Entity.ID] == len(parts) && (common == nil || likelier(m, *common)) {
				common = &matches[j]
			}
		}
	}
	if common == nil {
		return
	}
	first, last := a.Entities[parts[0]].Span, a.Entities[parts[len(parts)-1]].Span
	joined := Mention{Text: subject, Span: kg.Span{Start: first.Start, End: last.End}, Entity: common.Entity}
	var keep []Mention
	for i, m := range a.Entities {
		if i == parts[0] {
			keep = append(keep, joined)
		}
		if !slices.Contains(parts, i) {
			keep = append(keep, m)
		}
	}
	a.Entities = keep
}

// likelier says whom a reader more likely means by a name: the entity
// called so by its canonical name, unless another that goes by it is
// mentioned ten times as often (先主 is 刘备, not a stray entity named
// 先主); then the most mentioned.
func likelier(m, than store.NameMatch) bool {
	if m.ByName != than.ByName {
		if m.ByName {
			return m.Entity.Mentions*10 >= than.Entity.Mentions
		}
		return m.Entity.Mentions >= 10*than.Entity.Mentions
	}
	return m.Entity.Mentions > than.Entity.Mentions
}

// questionWords are asked with, not asked about: they are never names and
// their terms do not count as content.
var questionWords = []string{
	"什么", "甚么", "哪里", "哪儿", "哪个", "哪位", "哪些", "哪一", "哪年", "何时", "何地", "何处", "何人", "何年",
	"为何", "为什么", "何故", "怎样", "怎么", "如何", "多少", "是谁", "谁是", "是否", "是不是", "有没有",
	"的是", "是什", "么时", "时候", "一年", "哪一年", "请问", "问题",
	"who", "whom", "whose", "what", "when", "where", "which", "why", "how", "is", "was", "were", "are", "did",
	"does", "do", "the", "a", "an", "of", "in", "on", "to", "and", "or", "by", "for", "with", "as", "at", "from",
	"that", "this", "it", "its", "be", "been", "has", "have", "had",
	"ai", "gì", "nào", "đâu", "sao", "bao", "giờ", "là", "của", "và", "có", "được", "những", "các", "một",
	"trong", "với", "cho", "đã", "sau", "đây", "không", "phải", "khi", "thì", "này", "ở", "vì", "tại", "điểm",
}

var questionWordSet = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range questionWords {
		m[w] = true
	}
	return m
}()

func questionWord(s string) bool { return questionWordSet[strings.ToLower(s)] }
