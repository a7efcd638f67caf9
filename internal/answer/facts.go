package answer

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/chrono"
	"github.com/annals-project/annals/internal/histories"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/retrieve"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// A fact answer is read from the graph, not from the sentences retrieval
// ranked: the statements of the question's subject of the asked relation,
// each weighed by where it is said. A statement in the person's own
// chapter outweighs a passing mention; a formula that says what is asked
// (父珪, 字孔明, 琅邪阳都人也) outweighs a relation the rules carried over a
// clause; agreeing statements add up. The answer is the best candidate as
// a short span, with the statements that give it.

// candidate is one possible answer with what speaks for it.
type candidate struct {
	value string // the answer as it is written (琅邪阳都, 诸葛珪)
	id    int64  // the entity it names, when it names one
	score float64
	evs   []kg.Evidence
	year  int // for dates: the year the statements agree on
	// stated: a sentence states it by a formula of the asked kind, so a
	// list keeps it however much better another value is supported (a
	// ruler's youngest son is as much his son as the heir).
	stated bool
}

// factual holds what answering a typed question needs.
type factual struct {
	src     retrieve.Source
	a       *retrieve.Analysis
	subject kg.Entity
	own     map[int64]bool
}

// factAnswer answers a typed question from the subject's statements; ok
// is false when the graph holds none that answer it.
func factAnswer(ctx context.Context, src retrieve.Source, a *retrieve.Analysis) (ans string, values []string, evs []kg.Evidence, confidence float64, err error) {
	f, err := newFactual(ctx, src, a)
	if f == nil || err != nil {
		return "", nil, nil, 0, err
	}
	switch a.Type {
	case retrieve.QIdentity:
		ans, evs, confidence, err = f.identity(ctx)
		return ans, nil, evs, confidence, err
	case retrieve.QWhoseName:
		ans, evs, confidence, err = f.whoseName(ctx)
		return ans, nil, evs, confidence, err
	}
	cands, err := f.candidates(ctx)
	if err != nil || len(cands) == 0 {
		return "", nil, nil, 0, err
	}
	kept := cands[:1]
	if a.Asks.List {
		if err := f.byProminence(ctx, cands); err != nil {
			return "", nil, nil, 0, err
		}
		// Kin words after a name are everywhere (术女入孙权宫，子曜仕吴):
		// a kinsman is listed beside the best only where a sentence joins
		// him to the subject.
		kept = listed(cands, a.Type == retrieve.QKin)
	}
	for _, c := range kept {
		values = append(values, c.value)
		evs = append(evs, c.evs[0])
	}
	return f.phrase(values, cands[0]), values, evs, confidenceOf(cands), nil
}

// otherID is the entity at the end of r that is not subject.
func otherID(r kg.Relation, subject int64) int64 {
	if r.HeadID == subject {
		return r.TailID
	}
	return r.HeadID
}

// byProminence orders values of equal support by how much the texts name
// them: of 曹操's twenty-five sons, each stated once, 曹植 and 曹彰 before
// 曹均 and 曹京.
func (f *factual) byProminence(ctx context.Context, cands []candidate) error {
	var ids []int64
	for _, c := range cands {
		if c.id != 0 {
			ids = append(ids, c.id)
		}
	}
	if len(ids) < 2 {
		return nil
	}
	es, err := f.src.EntitiesByID(ctx, ids)
	if err != nil {
		return err
	}
	mentions := map[int64]int{}
	for _, e := range es {
		mentions[e.ID] = e.Mentions
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		return mentions[cands[i].id] > mentions[cands[j].id]
	})
	return nil
}

// maxListed is the most values a list answer gives.
const maxListed = 8

// listed are the values a list question is answered with, best supported
// first: the best, those a sentence states by formula however little else
// speaks for them, and unless statedOnly those with at least a third of
// the best one's support.
func listed(cands []candidate, statedOnly bool) []candidate {
	var out []candidate
	for _, c := range cands {
		if len(out) == maxListed {
			break
		}
		if len(out) == 0 || c.stated || !statedOnly && c.score >= cands[0].score/3 {
			out = append(out, c)
		}
	}
	return out
}

// newFactual prepares a typed Chinese question with a subject for answering
// from statements; it is nil for any other question.
func newFactual(ctx context.Context, src retrieve.Source, a *retrieve.Analysis) (*factual, error) {
	if a.Asks == nil || len(a.Entities) == 0 || !chineseQuestion(a) {
		return nil, nil
	}
	f := &factual{src: src, a: a, subject: a.Entities[0].Entity}
	var err error
	if f.own, err = src.OwnDocuments(ctx, f.subject.ID); err != nil {
		return nil, err
	}
	return f, nil
}

// candidates ranks the values the subject's statements give for what the
// question asks, best supported first.
func (f *factual) candidates(ctx context.Context) (cands []candidate, err error) {
	switch f.a.Type {
	case retrieve.QIdentity, retrieve.QWhoseName:
		return nil, nil
	case retrieve.QCourtesy:
		cands, err = f.names(ctx)
	case retrieve.QDeath, retrieve.QBirth, retrieve.QEventTime:
		cands, err = f.dates(ctx)
	case retrieve.QKiller:
		cands, err = f.killers(ctx)
	case retrieve.QDeathHow:
		cands, err = f.deathTold(ctx)
	default:
		cands, err = f.related(ctx)
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	return cands, err
}

func chineseQuestion(a *retrieve.Analysis) bool {
	return text.IsChinese(a.Lang) || a.Lang == text.Unknown
}

// confidenceOf grows with the best candidate's weight and its margin over
// the next: one formula in the person's own chapter is near certain, two
// passing mentions that disagree are a guess.
func confidenceOf(cands []candidate) float64 {
	best := cands[0].score
	next := 0.0
	if len(cands) > 1 {
		next = cands[1].score
	}
	c := best / (best + 3)
	if best > 0 {
		c *= 1 - 0.5*next/best
	}
	return round2(c)
}

func round2(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

// bareNameWeight is what a statement counts for when it names the subject
// by a one-character given name outside his own chapters.
const bareNameWeight = 0.5

// weigh is what one statement adds: its own chapter, a formula that
// states the asked thing, the statement itself.
func (f *factual) weigh(ev kg.Evidence, formula bool) float64 {
	w := 1.0
	if f.own[ev.DocID] {
		w += 2
	}
	if formula {
		w += 3
	}
	return w
}

// add puts a statement's weight on its value.
func add(by map[string]*candidate, order *[]string, value string, w float64, ev kg.Evidence) {
	c := by[value]
	if c == nil {
		c = &candidate{value: value}
		by[value] = c
		*order = append(*order, value)
	}
	c.score += w
	if f := len(c.evs); f == 0 || w > 1 && !sameDoc(c.evs, ev) {
		c.evs = append(c.evs, ev)
		// The strongest statement is cited first.
		if len(c.evs) > 1 && w > 3 {
			c.evs[0], c.evs[len(c.evs)-1] = c.evs[len(c.evs)-1], c.evs[0]
		}
	}
}

func sameDoc(evs []kg.Evidence, ev kg.Evidence) bool {
	for _, e := range evs {
		if e.DocID == ev.DocID && e.Start == ev.Start {
			return true
		}
	}
	return false
}

func collect(by map[string]*candidate, order []string) []candidate {
	out := make([]candidate, 0, len(order))
	for _, v := range order {
		out = append(out, *by[v])
	}
	return out
}

// related answers from relations: kin, native place, offices, titles,
// places visited, those attacked, the allegiance.
func (f *factual) related(ctx context.Context) ([]candidate, error) {
	ask := f.a.Asks
	rels, err := f.src.Statements(ctx, f.subject.ID, ask.Relations, 8)
	if err != nil {
		return nil, err
	}
	by := map[string]*candidate{}
	var order []string
	for _, r := range rels {
		var other string
		var otherType string
		switch {
		case ask.FromTail && r.TailID == f.subject.ID && r.HeadID != f.subject.ID:
			other, otherType = r.Head, r.HeadType
		case !ask.FromTail && r.HeadID == f.subject.ID:
			other, otherType = r.Tail, r.TailType
		case !ask.FromTail && r.TailID == f.subject.ID && symmetric(r.Type):
			other, otherType = r.Head, r.HeadType
		default:
			continue
		}
		if other == f.subject.Name || otherType == "时间" {
			continue
		}
		for _, ev := range r.Evidence {
			surface := otherSurface(r, ev, f.subject.ID)
			if surface == "" {
				surface = other
			}
			if !f.fitsGender(surface, other, ev) || f.wantsPerson() && f.subject.Type == "人物" && otherType != f.subject.Type {
				continue
			}
			if f.wantsPlace() && otherType == "人物" {
				continue
			}
			if f.a.Type == retrieve.QFled && r.Type == "积极态度倾向" && !fleesTo(ev.Norm, subjectSurface(r, ev, f.subject.ID), surface) {
				// Favour is flight only where the sentence says so.
				continue
			}
			subj := subjectSurface(r, ev, f.subject.ID)
			value, formula := f.value(other, surface, subj, ev)
			w := f.weigh(ev, formula)
			if utf8.RuneCountInString(subj) == 1 && !f.own[ev.DocID] && value != other {
				// A bare given name outside the person's own chapter may
				// be someone else's, and the family name given to his
				// kin then a guess (郃子固 is 李固's father, not 班郃).
				w = bareNameWeight
			}
			add(by, &order, value, w, ev)
			if value == other {
				by[value].id = max(by[value].id, otherID(r, f.subject.ID))
			}
			if f.a.Type == retrieve.QKin && statesChild(ev.Norm, subj, surface) {
				by[value].stated = true
			}
		}
	}
	return collect(by, order), nil
}

// wantsPerson says the question asks who (投奔过谁), not where.
func (f *factual) wantsPerson() bool {
	return strings.Contains(f.a.Norm, "谁") || strings.Contains(f.a.Norm, "何人")
}

// wantsPlace says the question asks where (逃奔到哪里), not who.
func (f *factual) wantsPlace() bool {
	for _, w := range []string{"哪里", "何处", "何地", "哪儿", "什么地方", "何所"} {
		if strings.Contains(f.a.Norm, w) {
			return true
		}
	}
	return false
}

// subjectSurface is the subject's end of a relation as the sentence
// writes it (亮 in 父珪…亮早孤).
func subjectSurface(r kg.Relation, ev kg.Evidence, subject int64) string {
	sp := ev.Head
	if r.TailID == subject && r.HeadID != subject {
		sp = ev.Tail
	}
	return ev.Words(sp)
}

// otherSurface is the other end of a relation as the sentence writes it.
func otherSurface(r kg.Relation, ev kg.Evidence, subject int64) string {
	sp := ev.Tail
	if r.TailID == subject {
		sp = ev.Head
	}
	return ev.Words(sp)
}

// femaleMarks end the names of women (吴氏, 甘夫人, 卞后).
var femaleMarks = []string{"氏", "夫人", "后", "姬", "妃", "公主", "女", "母"}

// fitsGender drops a kin of the wrong sex: a father is not 吴氏, and a
// mother is one the sentence calls so.
func (f *factual) fitsGender(surface, name string, ev kg.Evidence) bool {
	g := f.a.Asks.Gender
	if g == "" || f.a.Type != retrieve.QKin {
		return true
	}
	female := false
	for _, m := range femaleMarks {
		if strings.HasSuffix(name, m) || strings.HasSuffix(surface, m) {
			female = true
		}
	}
	for _, w := range []string{"母", "妻", "夫人", "女"} {
		if strings.Contains(ev.Norm, w+surface) {
			female = true
		}
	}
	if g == "女" {
		return female || f.a.Asks.Label == "妻子"
	}
	return !female
}

// value is the answer a statement gives and whether the sentence states it
// by a formula of the asked kind.
func (f *factual) value(name, surface, subj string, ev kg.Evidence) (string, bool) {
	s := ev.Norm
	switch f.a.Type {
	case retrieve.QNative:
		if place, ok := histories.NativePlace(ev.Norm, surface); ok {
			return place, true
		}
		return name, false
	case retrieve.QKin:
		word := map[string][]string{
			"父亲": {"父" + surface, surface + "生" + subj, subj + "，" + surface + "之子", surface + "子也", surface + "长子" + subj, surface + "中子" + subj, surface + "少子" + subj, surface + "子" + subj},
			"母亲": {"母" + surface, surface + "生" + subj},
			"兄":  {"兄" + surface},
			"弟":  {"弟" + surface},
			"妻子": {"妻" + surface, "夫人" + surface, "娶" + surface, "纳" + surface},
			"子女": {"子" + surface, "生" + surface, "长子" + surface, "女" + surface},
			"儿子": {"子" + surface, "生" + surface, "长子" + surface},
			"女儿": {"女" + surface},
			"兄弟": {"兄" + surface, "弟" + surface},
			"姐姐": {"姊" + surface, "姐" + surface},
			"妹妹": {"妹" + surface},
		}[f.a.Asks.Label]
		formula := false
		for _, w := range word {
			formula = formula || strings.Contains(s, w)
		}
		if l := f.a.Asks.Label; l == "儿子" || l == "子女" {
			// 武皇帝二十五男：…陈思王植: a count of sons, then their list.
			formula = formula || countsSons(s, subj, strings.Index(s, surface))
		}
		return f.fullName(name, surface), formula
	case retrieve.QOffice, retrieve.QTitle:
		return name, strings.Contains(s, "为"+surface) || strings.Contains(s, "拜"+surface) || strings.Contains(s, "封"+surface) || strings.Contains(s, "迁"+surface)
	}
	return name, false
}

// countsSons says the sentence counts the parent's sons and then lists
// them, the child among them at byte at: 武皇帝二十五男：卞皇后生文皇帝、
// 任城威王彰……
func countsSons(s, parent string, at int) bool {
	i := strings.Index(s, parent)
	if i < 0 || at < 0 {
		return false
	}
	rest := []rune(s[i+len(parent):])
	n := 0
	for n < len(rest) && strings.ContainsRune("一二三四五六七八九十百", rest[n]) {
		n++
	}
	if n == 0 || n+1 >= len(rest) || !strings.ContainsRune("男子", rest[n]) {
		return false
	}
	if rest[n+1] == '人' && n+2 < len(rest) {
		n++
	}
	list := i + len(parent) + len(string(rest[:n+2]))
	return (rest[n+1] == '：' || rest[n+1] == ':') && at >= list
}

// childWords join a parent to his child: 操子丕, 权少子也, 亮之子.
var childWords = []string{"子", "之子", "长子", "次子", "中子", "少子", "庶子", "第", "女", "长女", "少女"}

// statesChild says the sentence names the child right after the parent
// and a kin word (操子丕, 权长子登), or names the child and then calls
// him the parent's son (孙亮字子明，权少子也; 诸葛瞻，丞相亮之子). A 子 that
// follows some other name (羽及子平 told in 孙权's chapter) is not his.
func statesChild(s, parent, child string) bool {
	if parent == "" || child == "" {
		return false
	}
	at := strings.Index(s, child)
	if countsSons(s, parent, at) {
		return true
	}
	for _, w := range childWords {
		if strings.Contains(s, parent+w+child) {
			return true
		}
		// Named first, then called the parent's: a bare 子 or 女 only
		// when 也 closes it (瞻，亮子也), since 亮子瞻 and 子X follow too.
		j := strings.Index(s, parent+w)
		if at < 0 || j <= at {
			continue
		}
		if w != "子" && w != "女" || strings.HasPrefix(s[j+len(parent+w):], "也") {
			return true
		}
	}
	return false
}

// fullName names a father, son or brother the sentence calls by a bare
// given name: sons bear their father's surname, so 嵩 in 曹操's chapter
// is 曹嵩 and 父操 in 凌统's is 凌操, even where alignment took the one
// character for a better-known man (曹操).
func (f *factual) fullName(name, surface string) string {
	switch f.a.Asks.Label {
	case "父亲", "子女", "儿子", "兄", "弟", "兄弟":
	default:
		return name
	}
	if utf8.RuneCountInString(surface) != 1 || utf8.RuneCountInString(f.subject.Name) < 2 || utf8.RuneCountInString(f.subject.Name) > 4 {
		return name
	}
	sur := histories.Surname(f.subject.Name)
	if strings.HasPrefix(name, sur) && utf8.RuneCountInString(name) > utf8.RuneCountInString(sur) {
		return name
	}
	return sur + surface
}

// names answers what a person is called: 字, 号, 谥号, or every name.
func (f *factual) names(ctx context.Context) ([]candidate, error) {
	ask := f.a.Asks
	als, err := f.src.AliasEvidence(ctx, f.subject.ID, ask.Kinds)
	if err != nil {
		return nil, err
	}
	// 又称 asks for the names beside the one the question uses: the
	// given name cut from it (亮 of 诸葛亮) is that name, shortened, and
	// answers only when the texts give no other.
	other := func(al store.AliasEvidence) bool {
		return ask.Label != "别称" || al.Kind != "名" || !strings.HasSuffix(f.subject.Name, al.Alias)
	}
	if !slices.ContainsFunc(als, other) {
		other = func(store.AliasEvidence) bool { return true }
	}
	by := map[string]*candidate{}
	var order []string
	for _, al := range als {
		if al.Alias == f.subject.Name || !other(al) {
			continue
		}
		formula := strings.Contains(al.Evidence.Norm, al.Kind+al.Alias) || strings.Contains(al.Evidence.Norm, al.Kind+"曰"+al.Alias)
		add(by, &order, al.Alias, f.weigh(al.Evidence, formula), al.Evidence)
	}
	return collect(by, order), nil
}

// whoseName answers whose 字 (号, 谥号) the subject is: the entities the
// subject names that the texts give it to as that kind, most mentioned
// first; the others are named after.
func (f *factual) whoseName(ctx context.Context) (string, []kg.Evidence, float64, error) {
	ask := f.a.Asks
	name := ask.Subject
	type owner struct {
		e  kg.Entity
		ev kg.Evidence
	}
	var owners []owner
	for _, e := range append([]kg.Entity{f.subject}, f.a.Others...) {
		if e.Name == name {
			continue
		}
		als, err := f.src.AliasEvidence(ctx, e.ID, ask.Kinds)
		if err != nil {
			return "", nil, 0, err
		}
		for _, al := range als {
			if al.Alias == name {
				owners = append(owners, owner{e, al.Evidence})
				break
			}
		}
	}
	if len(owners) == 0 {
		return "", nil, 0, nil
	}
	sort.SliceStable(owners, func(i, j int) bool { return owners[i].e.Mentions > owners[j].e.Mentions })
	out := name + "是" + owners[0].e.Name + "的" + ask.Label + "。"
	evs := []kg.Evidence{owners[0].ev}
	if len(owners) > 1 {
		var also []string
		for _, o := range owners[1:] {
			also = append(also, o.e.Name)
			evs = append(evs, o.ev)
		}
		out += "（" + strings.Join(also, "、") + "亦" + ask.Label + name + "）"
	}
	conf := 0.8
	if len(owners) > 1 {
		conf = 0.6
	}
	return out, evs, conf, nil
}

// identity answers who a designation is: the person it resolves to and
// how the texts call him.
func (f *factual) identity(ctx context.Context) (string, []kg.Evidence, float64, error) {
	e := f.subject
	subject := f.a.Asks.Subject
	if e.Name == subject {
		// An entity named only by the title asked (后主, where the
		// chapters that tie it to 刘禅 were read apart) says nothing of
		// who it is; a person the title is recorded for does.
		for i, o := range f.a.Others {
			if o.Type == "人物" && o.Name != subject {
				e = o
				// The answer names him; the others are the rest.
				f.a.Others = slices.Delete(slices.Clone(f.a.Others), i, i+1)
				break
			}
		}
	}
	var evs []kg.Evidence
	if e.Type != "人物" && e.Name == subject {
		// A title read as an office (吴主) that one man alone holds in
		// the texts names him.
		holder, held, err := f.soleHolder(ctx, e)
		if err != nil {
			return "", nil, 0, err
		}
		if holder != nil {
			e, evs = *holder, append(evs, held)
		}
	}
	// The 字 first, on its own: a much-named person's other aliases
	// (曹公, hundreds of times) would crowd it out.
	zis, err := f.src.AliasEvidence(ctx, e.ID, []string{"字"})
	if err != nil {
		return "", nil, 0, err
	}
	als, err := f.src.AliasEvidence(ctx, e.ID, nil)
	if err != nil {
		return "", nil, 0, err
	}
	als = append(zis, als...)
	var zi string
	for _, al := range als {
		if al.Kind == "字" && zi == "" {
			zi = al.Alias
			evs = append(evs, al.Evidence)
		}
		if al.Alias == subject && len(evs) < 2 {
			evs = append(evs, al.Evidence)
		}
	}
	var b strings.Builder
	switch {
	case zi == subject:
		b.WriteString(subject + "是" + e.Name + "的字")
	case e.Name != subject:
		b.WriteString(subject + "即" + e.Name)
	default:
		b.WriteString(e.Name)
	}
	if zi != "" && zi != subject {
		b.WriteString("，字" + zi)
	}
	b.WriteString("。")
	conf := 0.5
	if e.Name != subject && len(evs) > 0 {
		conf = 0.7
	}
	if len(evs) == 0 && e.Type == "人物" {
		// No other name to give (司马迁): say who he was by the office
		// the texts give him most often.
		office, ev, err := f.bestOffice(ctx, e)
		if err != nil || office == "" {
			return "", nil, 0, err
		}
		b.Reset()
		b.WriteString(e.Name + "，曾任" + office + "。")
		evs, conf = append(evs, ev), 0.4
	}
	if len(f.a.Others) > 0 {
		b.WriteString("（亦可指" + f.a.Others[0].Name + "）")
		conf -= 0.2
	}
	if len(evs) == 0 {
		return "", nil, 0, nil
	}
	return b.String(), evs, conf, nil
}

// plainOffices say too little to tell who a man was: 平原君 was more than
// an envoy.
var plainOffices = []string{"使者", "使", "将", "将军", "相", "令", "郎", "吏", "客", "大将", "臣", "官"}

// bestOffice is the office the most statements give person e, with the
// first of them; "" when none does.
func (f *factual) bestOffice(ctx context.Context, e kg.Entity) (string, kg.Evidence, error) {
	rels, err := f.src.Statements(ctx, e.ID, []string{"任官"}, 8)
	if err != nil {
		return "", kg.Evidence{}, err
	}
	best, n := -1, 0
	for i, r := range rels {
		if r.HeadID == e.ID && len(r.Evidence) > n && !slices.Contains(plainOffices, r.Tail) {
			best, n = i, len(r.Evidence)
		}
	}
	if best < 0 {
		return "", kg.Evidence{}, nil
	}
	return rels[best].Tail, rels[best].Evidence[0], nil
}

// soleHolder is the one person the texts say holds the title or office e,
// by at least two statements and every one there is; nil when none or
// several do (丞相).
func (f *factual) soleHolder(ctx context.Context, e kg.Entity) (*kg.Entity, kg.Evidence, error) {
	rels, err := f.src.Statements(ctx, e.ID, []string{"任官", "封爵", "held_office"}, 8)
	if err != nil {
		return nil, kg.Evidence{}, err
	}
	var holder *kg.Entity
	var ev kg.Evidence
	n := 0
	for _, r := range rels {
		if r.TailID != e.ID || r.HeadType != "人物" || len(r.Evidence) == 0 {
			continue
		}
		if holder != nil && holder.ID != r.HeadID {
			return nil, kg.Evidence{}, nil
		}
		if holder == nil {
			holder, ev = &kg.Entity{ID: r.HeadID, Name: r.Head, Type: r.HeadType}, r.Evidence[0]
		}
		n += len(r.Evidence)
	}
	if n < 2 {
		return nil, kg.Evidence{}, nil
	}
	return holder, ev, nil
}

// killers answers who killed the subject: the heads of hostile relations
// whose sentence tells of a killing of him.
func (f *factual) killers(ctx context.Context) ([]candidate, error) {
	ks, err := f.killings(ctx, f.a.Asks.Relations)
	if err != nil {
		return nil, err
	}
	// 谁刺杀了吴王僚 asks who stabbed him (专诸), not who had him killed
	// (公子光): where a sentence kills him that way, those are the answer.
	way := func(k killing) bool {
		for _, w := range killingWays {
			if strings.Contains(f.a.Norm, w) && strings.Contains(k.ev.Norm, w) {
				return true
			}
		}
		return false
	}
	if slices.ContainsFunc(ks, way) {
		ks = slices.DeleteFunc(slices.Clone(ks), func(k killing) bool { return !way(k) })
	}
	by := map[string]*candidate{}
	var order []string
	for _, k := range ks {
		if k.rel.HeadType == f.subject.Type {
			add(by, &order, k.rel.Head, f.weigh(k.ev, true), k.ev)
		}
	}
	return collect(by, order), nil
}

// killingWays are ways of killing a question may ask about.
var killingWays = []string{"刺", "射", "鸩", "缢", "毒"}

// killing is a statement of another against the subject and a sentence
// of it that tells that he killed him.
type killing struct {
	rel kg.Relation
	ev  kg.Evidence
}

// killings reads the subject's statements of the given types whose head
// is another and whose sentences tell that the head killed him.
func (f *factual) killings(ctx context.Context, types []string) ([]killing, error) {
	// Every sentence of a feud, not the first few: 曹操 fought 吕布 in
	// thirty-two, and killed him in one (击吕布于徐州，斩之).
	rels, err := f.src.Statements(ctx, f.subject.ID, types, killingsRead)
	if err != nil {
		return nil, err
	}
	var out []killing
	for _, r := range rels {
		if r.TailID != f.subject.ID || r.HeadID == f.subject.ID {
			continue
		}
		for _, ev := range r.Evidence {
			kills, err := f.tellsKilling(ctx, r, ev)
			if err != nil {
				return nil, err
			}
			if kills {
				out = append(out, killing{r, ev})
			}
		}
	}
	return out, nil
}

// ownDeaths reads the sentences of the subject's own death statements of
// the given types (卒于, 死亡时间).
func (f *factual) ownDeaths(ctx context.Context, types []string) ([]kg.Evidence, error) {
	rels, err := f.src.Statements(ctx, f.subject.ID, types, 8)
	if err != nil {
		return nil, err
	}
	var out []kg.Evidence
	for _, r := range rels {
		if r.HeadID == f.subject.ID {
			out = append(out, r.Evidence...)
		}
	}
	return out, nil
}

// deathTold answers how the subject died with the sentence that tells
// it, the one way a question may be answered by a sentence: those that
// kill him first, then those that tell his death with its place or time,
// his own chapter's before others'.
func (f *factual) deathTold(ctx context.Context) ([]candidate, error) {
	by := map[string]*candidate{}
	var order []string
	ks, err := f.killings(ctx, []string{"消极态度倾向"})
	if err != nil {
		return nil, err
	}
	for _, k := range ks {
		ev := lastSentenceOf(k.ev)
		add(by, &order, ev.Sentence, f.weigh(ev, true)+1, ev)
	}
	deaths, err := f.ownDeaths(ctx, []string{"卒于", "死亡时间"})
	if err != nil {
		return nil, err
	}
	for _, ev := range deaths {
		ev = lastSentenceOf(ev)
		add(by, &order, ev.Sentence, f.weigh(ev, true), ev)
	}
	return collect(by, order), nil
}

// lastSentence is the last sentence of an evidence span, where the fact
// is told; the sentences before it only carried its subject.
func lastSentence(s string) string {
	s = strings.TrimSpace(s)
	body := strings.TrimRight(s, "。！？")
	if i := strings.LastIndexAny(body, "。！？"); i >= 0 {
		_, size := utf8.DecodeRuneInString(body[i:])
		s = strings.TrimSpace(s[i+size:])
	}
	return s
}

// lastSentenceOf narrows an evidence span to its last sentence, so that
// the citation is the sentence the answer quotes.
func lastSentenceOf(ev kg.Evidence) kg.Evidence {
	last := lastSentence(ev.Sentence)
	i := strings.LastIndex(ev.Sentence, last)
	if last == "" || i < 0 {
		return ev
	}
	ev.Start += utf8.RuneCountInString(ev.Sentence[:i])
	ev.End = ev.Start + utf8.RuneCountInString(last)
	ev.Sentence = last
	if ev.Norm != "" {
		ev.Norm = lastSentence(ev.Norm)
	}
	return ev
}

// fleesTo says whether a sentence has who flee to, or seek refuge with,
// whom: a verb of it between them (先主奔袁绍, 背曹公依袁绍).
func fleesTo(s, who, whom string) bool {
	h, t := strings.Index(s, who), strings.LastIndex(s, whom)
	if h < 0 || t < 0 || t <= h {
		return false
	}
	between := s[h+len(who) : t]
	return utf8.RuneCountInString(between) <= 8 && !strings.ContainsAny(between, "。；") && strings.ContainsAny(between, "奔投归依附")
}

// failed says that the words after an attempt tell it came to nothing
// (掩杀布，不获).
func failed(after string) bool {
	after = strings.TrimLeft(after, "，, ")
	for _, w := range []string{"不获", "不克", "不果", "未果", "不中", "不得", "未克", "不胜"} {
		if strings.HasPrefix(after, w) {
			return true
		}
	}
	return false
}

// otherDeeds are verbs that, between a killing verb and a name, make the
// name their own object.
const otherDeeds = "攻击伐围破讨败追逐获擒执降拒袭"

// killWords are the verbs of killing a person.
var killWords = []string{"杀", "诛", "斩", "弑", "害", "戮", "枭", "刺"}

// tellsKilling says whether a sentence tells that head killed tail: a
// killing verb between them (布遂杀卓), or tail为head所杀.
func tellsKilling(s, head, tail string, far bool) bool {
	h := strings.Index(s, head)
	if h < 0 {
		return false
	}
	if t := strings.Index(s[h+len(head):], tail); t >= 0 {
		// 击吕布于徐州，斩之: the one fought is killed by a pronoun in the
		// clause after.
		if rest := s[h+len(head)+t+len(tail):]; killsHim(rest) && !failed(rest) {
			return true
		}
		// Each time the one killed is named after the doer, within reach:
		// 大破渊军，斩渊 names 渊 twice, and the second is the killing.
		from := h + len(head)
		for t >= 0 {
			between := s[from : from+t]
			n := utf8.RuneCountInString(between)
			if strings.ContainsAny(between, "。；") || n > killReach {
				return false
			}
			for _, w := range killWords {
				i := strings.LastIndex(between, w)
				if i < 0 || intended(between[:i]) || w == "刺" && strings.HasPrefix(between[i+len(w):], "史") {
					continue // 刺史 is an office
				}
				// The verb near the doer (布遂杀卓), or right before the
				// one killed, the doer further back (忠推锋必进…一战斩渊);
				// not one whose object comes first, the one named after
				// taking another verb (杀允攻布: 布 was attacked).
				rest := between[i+len(w):]
				if strings.ContainsAny(rest, otherDeeds) || failed(s[from+t+len(tail):]) {
					continue
				}
				if strings.HasSuffix(rest, "为") || strings.HasSuffix(rest, "与") {
					continue // 杀卓为术报雠: 术 is whom it was done for
				}
				if n <= 8 || far && utf8.RuneCountInString(rest) <= 1 {
					return true
				}
			}
			next := strings.Index(s[from+t+len(tail):], tail)
			if next < 0 {
				break
			}
			t += len(tail) + next
		}
		return false
	}
	t := strings.Index(s, tail)
	if t < 0 || t > h {
		return false
	}
	after := s[h+len(head):]
	if !strings.HasPrefix(after, "所") {
		return false
	}
	for _, w := range killWords {
		if strings.HasPrefix(after[len("所"):], w) {
			return strings.Contains(s[t:h], "为") || strings.Contains(s[t:h], "被")
		}
	}
	return false
}

// tellsKilling says whether a statement's sentence tells that its head
// killed its tail. The killing verb may stand far from the killer only
// when no other person stands between them to be its doer (鲁已还南郑，
// 北降曹公，然卒…杀夏侯渊 is not 张鲁's deed).
func (f *factual) tellsKilling(ctx context.Context, r kg.Relation, ev kg.Evidence) (bool, error) {
	head, tail := ev.Words(ev.Head), ev.Words(ev.Tail)
	if head == "" || tail == "" {
		return false, nil
	}
	if tellsKilling(ev.Norm, head, tail, false) {
		return true, nil
	}
	if ev.Head.End > ev.Tail.Start || !tellsKilling(ev.Norm, head, tail, true) {
		return false, nil
	}
	ms, err := f.src.MentionsIn(ctx, ev.DocID, ev.Head.End, ev.Tail.Start)
	if err != nil {
		return false, err
	}
	for _, m := range ms {
		if m.Type == "人物" && m.EntityID != r.HeadID && m.EntityID != r.TailID {
			return false, nil
		}
	}
	return true, nil
}

// killsHim says whether the words after the one fought kill him in the
// next clause, by a pronoun (于徐州，斩之; ，遂杀之), before the sentence ends.
func killsHim(after string) bool {
	c := strings.Index(after, "，")
	if c < 0 || strings.ContainsAny(after[:c], "。；") || utf8.RuneCountInString(after[:c]) > 8 {
		return false
	}
	next := strings.TrimLeft(after[c+len("，"):], "遂乃因即")
	for _, w := range killWords {
		if strings.HasPrefix(next, w+"之") {
			return true
		}
	}
	return false
}

// killingsRead is how many sentences of each hostile fact a killer is
// looked for in.
const killingsRead = 64

// killReach is how far apart, in characters, a killer and the one killed
// may stand in the sentence that tells it.
const killReach = 30

// intended says that the words before a killing verb make it a plan, a
// wish or a plea (谋诛卓, 欲杀之, 劝斩之), not a deed.
func intended(before string) bool {
	r, _ := utf8.DecodeLastRuneInString(before)
	return strings.ContainsRune("欲将议图请劝", r) || strings.Contains(before, "谋")
}

// dates answers when the subject died or was born: the year the dated
// statements of his own chapters agree on, else those of all chapters.
func (f *factual) dates(ctx context.Context) ([]candidate, error) {
	rels, err := f.src.Statements(ctx, f.subject.ID, f.a.Asks.Relations, 20)
	if err != nil {
		return nil, err
	}
	by := map[int]*candidate{}
	var years []int
	type at struct {
		doc   int64
		start int
	}
	counted := map[at]bool{} // a sentence that tells the death twice counts once
	put := func(ev kg.Evidence, expr string) {
		if counted[at{ev.DocID, ev.Start}] {
			return
		}
		counted[at{ev.DocID, ev.Start}] = true
		y := *ev.Year
		c := by[y]
		if c == nil {
			c = &candidate{year: y, value: expr}
			by[y] = c
			years = append(years, y)
		}
		c.score += f.weigh(ev, false)
		if len(c.evs) == 0 || f.own[ev.DocID] && !f.own[c.evs[0].DocID] {
			c.evs = append([]kg.Evidence{ev}, c.evs...)
			c.value = expr
		}
	}
	for _, r := range rels {
		if r.HeadID != f.subject.ID {
			continue
		}
		for _, ev := range r.Evidence {
			if ev.Year != nil {
				put(ev, ev.Words(ev.Tail))
			}
		}
	}
	if f.a.Type == retrieve.QDeath {
		// One who died at a place, or was killed, died when the sentence
		// that tells it names its time (夏四月，司徒王允与吕布共杀卓). A
		// year merely in force where it stands counts only in his own
		// chapter, which follows his life: elsewhere it may be another's
		// (刘璋 surrendered in 214, and the next lines of his chapter tell
		// of 关羽's death five years on).
		dated := func(ev kg.Evidence) bool {
			return ev.Year != nil && ev.Precision != "" && (!strings.HasSuffix(ev.Precision, "context") || f.own[ev.DocID])
		}
		places, err := f.ownDeaths(ctx, []string{"卒于"})
		if err != nil {
			return nil, err
		}
		for _, ev := range places {
			if dated(ev) {
				put(ev, "")
			}
		}
		ks, err := f.killings(ctx, []string{"消极态度倾向"})
		if err != nil {
			return nil, err
		}
		for _, k := range ks {
			if dated(k.ev) {
				put(k.ev, "")
			}
		}
	}
	out := make([]candidate, 0, len(years))
	for _, y := range years {
		c := by[y]
		era, err := f.era(ctx, c.year, c.value, c.evs[0])
		if err != nil {
			return nil, err
		}
		c.value = dateValue(c.year, era)
		out = append(out, *c)
	}
	return out, nil
}

// era names a statement's year by its era: the era its expression or its
// sentence names, else the one its passage writes out with that year,
// else the era a reader of the chapter up to the sentence counts in
// (三年春二月…夏四月癸巳，先主殂: 章武三年, though 建兴 began that year),
// else the era its book most likely counts in.
func (f *factual) era(ctx context.Context, year int, expr string, ev kg.Evidence) (string, error) {
	if era := chrono.EraNamed(year, expr, ev.Norm); era != "" {
		return era, nil
	}
	ids := make([]int64, 0, eraChunks)
	for id := max(1, ev.ChunkID-eraChunks+1); id <= ev.ChunkID; id++ {
		ids = append(ids, id)
	}
	ps, err := f.src.Passages(ctx, ids)
	if err != nil {
		return "", err
	}
	var before strings.Builder
	for _, p := range ps {
		if p.DocID != ev.DocID {
			continue
		}
		if p.ChunkID != ev.ChunkID {
			before.WriteString(p.Norm)
			continue
		}
		if era := chrono.EraNamed(year, expr, p.Norm); era != "" {
			return era, nil
		}
		upTo := p.Norm
		if i := strings.Index(p.Norm, ev.Norm); i >= 0 {
			upTo = p.Norm[:i+len(ev.Norm)]
		}
		before.WriteString(upTo)
	}
	if era := chrono.EraInForce(year, before.String()); era != "" {
		return era, nil
	}
	return chrono.EraOfBook(year, expr, ev.Cite), nil
}

// eraChunks is how many chunks, the statement's and those before it in
// its chapter, are read for the era in force.
const eraChunks = 12

// dateValue writes a year as the texts count it, with the Western year:
// 建安二十四年（219年）; the Western year alone when the era is unknown.
func dateValue(year int, era string) string {
	western := fmt.Sprintf("%d年", year)
	if year <= 0 {
		western = fmt.Sprintf("公元前%d年", 1-year)
	}
	if era != "" {
		return era + "（" + western + "）"
	}
	return western
}

// phrase words a fact answer.
func (f *factual) phrase(values []string, best candidate) string {
	subject := f.a.Asks.Subject
	if subject == "" {
		subject = f.subject.Name
	}
	list := strings.Join(values, "、")
	label := f.a.Asks.Label
	switch f.a.Type {
	case retrieve.QCourtesy:
		if label == "别称" {
			return subject + "又称" + list + "。"
		}
		return subject + label + list + "。"
	case retrieve.QOffice:
		return subject + "曾任" + list + "。"
	case retrieve.QTitle:
		return subject + "受封" + list + "。"
	case retrieve.QNative:
		return subject + "是" + list + "人。"
	case retrieve.QAllegiance:
		return subject + "属于" + list + "。"
	case retrieve.QDeath:
		return subject + "卒于" + list + "。"
	case retrieve.QBirth:
		return subject + "生于" + list + "。"
	case retrieve.QDeathPlace:
		return subject + "卒于" + list + "。"
	case retrieve.QKiller:
		return subject + "为" + list + "所杀。"
	case retrieve.QDeathHow:
		return best.value
	case retrieve.QFled:
		return subject + "投奔过" + list + "。"
	case retrieve.QVisit:
		return subject + "到过" + list + "。"
	case retrieve.QResided:
		return subject + "居于" + list + "。"
	case retrieve.QAttacked:
		return subject + "攻打过" + list + "。"
	case retrieve.QEventTime, retrieve.QEventPlace:
		return subject + "发生于" + list + "。"
	case retrieve.QWinner:
		return subject + "，胜者为" + list + "。"
	case retrieve.QLoser:
		return subject + "，败者为" + list + "。"
	case retrieve.QFought:
		return "参与" + subject + "的有" + list + "。"
	}
	switch label {
	case "兄":
		label = "哥哥"
	case "弟":
		label = "弟弟"
	}
	return subject + "的" + label + "是" + list + "。"
}
