package answer

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/annals-project/annals/internal/chrono"
	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/retrieve"
	"github.com/annals-project/annals/internal/text"
)

// minOverlap is how much of the question's content a sentence must hold to
// be an answer when nothing else speaks for it.
const minOverlap = 0.3

// Confidence of answers that are not read from facts.
const (
	sentenceConfidence = 0.3 // the sentence that best matches the question
	listConfidence     = 0.4 // facts a template phrases, outside Chinese
)

// offline answers without a model. A typed Chinese question is answered
// from the graph's statements of its subject, as a short span; other
// typed questions from the facts retrieval ranked; an open question (why,
// how, what happened) with the sentence that best answers it. A typed
// question the statements do not answer is not answered with a sentence
// that merely names its subject: it is unable.
func offline(ctx context.Context, src retrieve.Source, reader extract.Extractor, ans *Answer) error {
	a := ans.Analysis
	if a.Asks != nil {
		text, values, evs, conf, err := factAnswer(ctx, src, a)
		if err != nil {
			return err
		}
		if text != "" {
			ans.Answer, ans.Answered, ans.Method, ans.Confidence = text, true, "fact", conf
			ans.Citations = citeAll(evs)
			if a.Asks.List {
				for i, v := range values {
					ans.List = append(ans.List, ListEntry{Name: v, Citation: citationOf(ans.Citations, &evs[i])})
				}
			}
			return nil
		}
		text, evs, conf, err = read(ctx, src, reader, a, ans.Items)
		if err != nil {
			return err
		}
		if text != "" {
			ans.Answer, ans.Answered, ans.Method, ans.Confidence = text, true, "reading", conf
			ans.Citations = citeAll(evs)
			return nil
		}
		if text, evs := typedAnswer(a, ans.Items); text != "" && !chineseQuestion(a) {
			ans.Answer, ans.Answered, ans.Method, ans.Confidence = text, true, "fact", listConfidence
			ans.Citations = cite(evs...)
			return nil
		}
	}
	if it := bestSentence(a, ans.Items); it != nil && (a.Asks == nil || !chineseQuestion(a)) {
		if want := spanWanted[a.Type]; want != "" && chineseQuestion(a) {
			// 谁, 哪里, 何时 in Chinese are answered with a name, not
			// a passage: the one name of the asked kind the best
			// sentence adds to the question, when that sentence holds
			// most of what the question says besides its names; else
			// none (诸葛亮的岳父是谁 is not answered from a sentence
			// that names 诸葛亮 and someone, but not 岳父).
			name := ""
			if restHeld(a, it.Citation.Norm) >= spanOverlap {
				var err error
				if name, err = spanIn(ctx, src, a, ans.Items, it.Citation, want); err != nil {
					return err
				}
			}
			if name != "" {
				ans.Answer, ans.Answered, ans.Method, ans.Confidence = name, true, "sentence", sentenceConfidence
				ans.Citations = cite(it.Citation)
				return nil
			}
		} else {
			ans.Answer, ans.Answered, ans.Method, ans.Confidence = it.Citation.Sentence, true, "sentence", sentenceConfidence
			ans.Citations = cite(it.Citation)
			return nil
		}
	}
	ans.Answer, ans.Method = unable(a.Lang), "none"
	ans.Citations = cite()
	return nil
}

// spanOverlap is how much of the question's content besides its names the
// sentence a name is read from must hold.
const spanOverlap = 0.75

// questionChars are the characters of a question that ask rather than say
// (谁, 哪里, 是, 的).
const questionChars = "谁何哪里处时候年什么是的了吗呢之所被为也者人"

// restHeld is the share of the question's characters, besides its names and
// the words that ask, that the sentence holds: 岳 and 父 of
// 诸葛亮的岳父是谁 in a sentence that names 诸葛亮.
func restHeld(a *retrieve.Analysis, sentence string) float64 {
	q := a.Norm
	for _, m := range a.Entities {
		q = strings.ReplaceAll(q, m.Text, "")
	}
	n, held := 0, 0
	for _, r := range q {
		if !unicode.Is(unicode.Han, r) || strings.ContainsRune(questionChars, r) {
			continue
		}
		n++
		if strings.ContainsRune(sentence, r) {
			held++
		}
	}
	if n == 0 {
		return 1
	}
	return float64(held) / float64(n)
}

// spanWanted is the entity type an untyped question of each kind asks for.
var spanWanted = map[string]string{retrieve.QWho: "人物", retrieve.QWhere: "地点", retrieve.QWhen: "时间"}

// spanIn is the one name of type want in the sentence ev that the question
// does not already hold, or "" when there is none or more than one. Of
// several, the one a fact read in that sentence ties to an entity of the
// question (张郃 of 郃 and 亮 in 拒亮将马谡於街亭, asked who beat 马谡) is
// the one.
func spanIn(ctx context.Context, src retrieve.Source, a *retrieve.Analysis, items []retrieve.Item, ev *kg.Evidence, want string) (string, error) {
	ms, err := src.MentionsIn(ctx, ev.DocID, ev.Start, ev.End)
	if err != nil {
		return "", err
	}
	named := map[int64]bool{}
	for _, m := range a.Entities {
		named[m.Entity.ID] = true
	}
	var names []string
	ids := map[string]int64{}
	for _, m := range ms {
		name := m.Name
		if name == "" {
			name = m.Surface
		}
		if m.Type != want || named[m.EntityID] && m.EntityID != 0 || strings.Contains(a.Norm, m.Surface) || strings.Contains(a.Norm, name) {
			continue
		}
		if _, ok := ids[name]; !ok {
			names = append(names, name)
		}
		ids[name] = m.EntityID
	}
	if len(names) <= 1 {
		return strings.Join(names, ""), nil
	}
	linked := map[int64]bool{}
	for _, it := range items {
		r := it.Relation
		if r == nil {
			continue
		}
		for _, e := range r.Evidence {
			if e.DocID != ev.DocID || e.Start < ev.Start || e.End > ev.End {
				continue
			}
			switch {
			case named[r.HeadID]:
				linked[r.TailID] = true
			case named[r.TailID]:
				linked[r.HeadID] = true
			}
		}
	}
	found := ""
	for _, n := range names {
		if ids[n] != 0 && linked[ids[n]] {
			if found != "" {
				return "", nil // two could be meant
			}
			found = n
		}
	}
	return found, nil
}

// citeAll cites each of the evidence sentences.
func citeAll(evs []kg.Evidence) []Citation {
	ptrs := make([]*kg.Evidence, len(evs))
	for i := range evs {
		ptrs[i] = &evs[i]
	}
	return cite(ptrs...)
}

// typedAnswer gathers the facts of the question's first entity that answer
// what it asks (its 字, its father, its offices …), best supported first.
func typedAnswer(a *retrieve.Analysis, items []retrieve.Item) (string, []*kg.Evidence) {
	if len(a.Entities) == 0 {
		return "", nil
	}
	subject := a.Entities[0].Entity
	type found struct {
		name    string
		support int
		ev      *kg.Evidence
	}
	var got []found
	seen := map[string]bool{}
	for _, it := range items {
		r := it.Relation
		if r == nil || !hasType(a.Asks.Relations, r.Type) {
			continue
		}
		var name string
		switch {
		case a.Asks.FromTail && r.TailID == subject.ID && r.HeadID != subject.ID:
			name = r.Head
		case !a.Asks.FromTail && r.HeadID == subject.ID:
			name = r.Tail
		case !a.Asks.FromTail && r.TailID == subject.ID && symmetric(r.Type):
			name = r.Head
		default:
			continue
		}
		if seen[name] || name == subject.Name {
			continue
		}
		var ev *kg.Evidence
		if len(r.Evidence) > 0 {
			e := r.Evidence[0]
			ev = &e
		}
		// A courtesy name is read from a sentence that says so: 字 X, 号 X.
		if a.Type == retrieve.QCourtesy && ev != nil && !strings.Contains(ev.Norm, a.Asks.Label+name) {
			continue
		}
		seen[name] = true
		got = append(got, found{name, len(r.Evidence), ev})
	}
	if len(got) == 0 {
		return "", nil
	}
	sort.SliceStable(got, func(i, j int) bool { return got[i].support > got[j].support })
	if len(got) > 5 {
		got = got[:5]
	}
	names := make([]string, len(got))
	evs := make([]*kg.Evidence, len(got))
	for i, g := range got {
		names[i], evs[i] = g.name, g.ev
	}
	return phrase(a, subject.Name, names), evs
}

func hasType(types []string, t string) bool {
	for _, x := range types {
		if x == t {
			return true
		}
	}
	return false
}

func symmetric(t string) bool {
	switch t {
	case "同胞", "同族", "婚恋", "sibling_of", "spouse_of", "allied_with":
		return true
	}
	return false
}

// phrase words a typed answer in the question's language.
func phrase(a *retrieve.Analysis, subject string, names []string) string {
	if text.IsChinese(a.Lang) || a.Lang == text.Unknown {
		list := strings.Join(names, "、")
		switch a.Type {
		case retrieve.QCourtesy:
			return subject + a.Asks.Label + list + "。"
		case retrieve.QOffice:
			return subject + "曾任" + list + "。"
		case retrieve.QNative:
			return subject + "是" + list + "人。"
		case retrieve.QAllegiance:
			return subject + "属于" + list + "。"
		case retrieve.QDeath:
			return subject + "卒于" + withYear(list) + "。"
		case retrieve.QDeathPlace:
			return subject + "卒于" + list + "。"
		}
		return subject + "的" + a.Asks.Label + "是" + list + "。"
	}
	list := strings.Join(names, ", ")
	label := map[string]string{
		retrieve.QCourtesy: "other names", retrieve.QOffice: "offices", retrieve.QNative: "native place",
		retrieve.QAllegiance: "allegiance", retrieve.QDeath: "death", retrieve.QDeathPlace: "place of death",
	}[a.Type]
	if label == "" {
		label = a.Asks.Label
	}
	return fmt.Sprintf("%s — %s: %s.", subject, label, list)
}

// withYear adds the Gregorian year to an era date: 建兴十二年 (234).
func withYear(expr string) string {
	for _, t := range chrono.Parse(expr, &chrono.Context{}) {
		if t.Resolved {
			return dateValue(t.Year, expr)
		}
	}
	return expr
}

// bestSentence is the cited item that speaks most to the question: among
// items that hold enough of its content, or name its entity in a sentence
// that also shares its terms, the best fused score.
func bestSentence(a *retrieve.Analysis, items []retrieve.Item) *retrieve.Item {
	var best *retrieve.Item
	bestScore := 0.0
	for i := range items {
		it := &items[i]
		if it.Citation == nil || it.Citation.Sentence == "" || it.Kind == retrieve.KindCommunity || !a.AddsTo(it.Citation.Norm) {
			continue
		}
		score := it.Overlap
		for _, m := range a.Entities {
			if strings.Contains(it.Citation.Norm, m.Text) || strings.Contains(it.Citation.Norm, m.Entity.Name) {
				score += 0.25
			}
		}
		if score < minOverlap {
			continue
		}
		score += it.Score * 0.1
		if best == nil || score > bestScore {
			best, bestScore = it, score
		}
	}
	return best
}
