// Package bio reads a person's profile out of the graph, as a who's-who
// such as the China Biographical Database gives one (names, dates, native
// place, kin, career, places, associates), every item cited, and writes a
// biography from it whose every sentence carries the citations of the
// facts it states.
package bio

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/chrono"
	"github.com/annals-project/annals/internal/histories"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// Source is what a profile is read from.
type Source interface {
	// AliasEvidence lists the sentences that give the entity another name
	// of the kinds (all kinds when none are given).
	AliasEvidence(ctx context.Context, entityID int64, kinds []string) ([]store.AliasEvidence, error)
	// Statements are the entity's relations of the types, each with up to
	// per evidence sentences.
	Statements(ctx context.Context, entityID int64, types []string, per int) ([]kg.Relation, error)
	// OwnDocuments are the chapters about the entity.
	OwnDocuments(ctx context.Context, entityID int64) (map[int64]bool, error)
	// NameUses count the entity's mentions by name and part of the
	// corpus, most used first, each with its first mention.
	NameUses(ctx context.Context, entityID int64, limit int) ([]store.NameUse, error)
}

// Citation is a sentence a profile item or a biography sentence rests on.
type Citation struct {
	Doc   string `json:"doc"`
	Cite  string `json:"cite"` // 《三国志·蜀书·诸葛亮传》
	Start int    `json:"start"`
	End   int    `json:"end"`
	Quote string `json:"quote"`
	Year  *int   `json:"year,omitempty"` // the year the sentence is dated to

	norm string // the sentence normalised, as names are written
	// says is how the sentence writes the item (珪 for 诸葛珪), where the
	// index read it there.
	says string
}

// Item is one fact of a profile: a name, a place, a relative, an office.
type Item struct {
	Text string `json:"text"`
	// Kind says what the item is: the kind of name (字, 号 …), the kin
	// (父, 子 …), the relation to a place (居, 访 …) or to an associate.
	Kind     string `json:"kind,omitempty"`
	EntityID int64  `json:"entity_id,omitempty"`
	// Year is the first year the texts date the fact to, where they do.
	Year *int `json:"year,omitempty"`
	// Era is Year as the texts count it (建兴十二年), for a career's
	// offices and titles, where an era of the cited book fits.
	Era string `json:"era,omitempty"`
	// Reign dates an undated office or title within a reign the era table
	// cannot place (秦昭王四十年).
	Reign string `json:"reign,omitempty"`
	// Basis, for a fact worked out rather than read (a birth from the age
	// at death), is the words it was worked out from.
	Basis     string     `json:"basis,omitempty"`
	Citations []Citation `json:"citations"`
	// Generation places a relative in the family tree: −2 grandparents,
	// −1 parents, 0 siblings and spouses, 1 children, 2 grandchildren;
	// nil for clansmen, whose generation the texts do not give.
	Generation *int `json:"generation,omitempty"`

	first position // where the texts first state it, own chapters first
}

// Designation is a name the texts call the person by, and where: its
// scope (太祖 for 曹操 in 三国志·魏书, 曹公 in the other two books).
type Designation struct {
	Name     string `json:"name"`
	Kind     string `json:"kind,omitempty"` // 字, 庙号 … where a sentence states it
	Mentions int    `json:"mentions"`
	Scope    []Use  `json:"scope"`
}

// Use is how often a designation names the person in one part of the
// corpus (a book, or a book's part), cited by its first mention there.
type Use struct {
	Part     string   `json:"part"` // 三国志·魏书
	Mentions int      `json:"mentions"`
	Citation Citation `json:"citation"`
}

// Profile is a person as the texts describe them.
type Profile struct {
	Names []Item `json:"names"` // every designation a sentence states, by kind
	// Designations are the names the texts use for the person most, with
	// their scope.
	Designations []Designation `json:"designations"`
	Surname      string        `json:"surname,omitempty"`
	Given        string        `json:"given,omitempty"`
	Zi           string        `json:"zi,omitempty"`
	NativePlace  *Item         `json:"native_place,omitempty"`
	Born         *Item         `json:"born,omitempty"`
	Died         *Item         `json:"died,omitempty"`
	// Active is the span of years of the person's dated facts ("fl."),
	// where neither birth nor death is dated.
	Active     []int  `json:"active,omitempty"`
	Kin        []Item `json:"kin"`
	Offices    []Item `json:"offices"`
	Titles     []Item `json:"titles"`
	Places     []Item `json:"places"`
	Associates []Item `json:"associates"`
}

// Relations a profile reads, by section.
var (
	kinTypes       = []string{"子女", "孙", "同胞", "婚恋", "同族"}
	placeTypes     = []string{"居", "访", "攻", "占", "辖", "逃奔", "卒于"}
	associateTypes = []string{"下级", "积极态度倾向", "消极态度倾向"}
	lifeTypes      = []string{"出生时间", "死亡时间"}
)

// Most items of a kind a profile keeps, best supported first.
const (
	maxPlaces     = 30
	maxAssociates = 30
	perFact       = 3 // evidence sentences read for each fact
)

// Options tunes Read.
type Options struct {
	// Exclude are documents, by key, whose sentences the profile may not
	// rest on: a biography written without the person's own chapter, to
	// be compared with it.
	Exclude []string
}

// Read builds the profile of the person e.
func Read(ctx context.Context, src Source, e kg.Entity, opts Options) (*Profile, error) {
	own, err := src.OwnDocuments(ctx, e.ID)
	if err != nil {
		return nil, err
	}
	r := reader{own: own, self: e}
	per := perFact
	if len(opts.Exclude) > 0 {
		r.exclude = map[string]bool{}
		for _, k := range opts.Exclude {
			r.exclude[k] = true
		}
		// The first sentences of a fact are often the excluded chapter's.
		per = 4 * perFact
	}
	p := &Profile{}
	if err := r.names(ctx, src, p); err != nil {
		return nil, err
	}
	if err := r.designations(ctx, src, p); err != nil {
		return nil, err
	}
	// A section at a time: a much-told person's places would crowd out
	// the one sentence that gives his native place.
	by := map[string][]kg.Relation{}
	var rels []kg.Relation
	for _, types := range [][]string{append([]string{"籍贯"}, lifeTypes...), {"任官", "封爵"}, kinTypes, placeTypes, associateTypes} {
		got, err := src.Statements(ctx, e.ID, types, per)
		if err != nil {
			return nil, fmt.Errorf("read the facts of %s: %w", e.Name, err)
		}
		got = r.keep(got)
		for _, rel := range got {
			by[rel.Type] = append(by[rel.Type], rel)
		}
		rels = append(rels, got...)
	}
	p.NativePlace = r.nativePlace(by["籍贯"], p)
	p.Born, p.Died = r.date(by["出生时间"]), r.date(by["死亡时间"])
	if p.Born == nil && p.Died != nil {
		p.Born = bornFromAge(p.Died)
	}
	p.Offices = r.career(by["任官"])
	p.Titles = r.career(by["封爵"])
	p.Kin = r.kin(by)
	p.Places = r.places(by)
	p.Associates = r.associates(by)
	p.undateOutsideLife()
	if p.Born == nil && p.Died == nil {
		p.Active = active(rels)
	}
	return p, nil
}

// position orders facts as a reader meets them: the person's own chapters
// first, then by document and offset.
type position struct {
	notOwn bool
	doc    int64
	start  int
}

func (a position) less(b position) bool {
	if a.notOwn != b.notOwn {
		return !a.notOwn
	}
	if a.doc != b.doc {
		return a.doc < b.doc
	}
	return a.start < b.start
}

type reader struct {
	own     map[int64]bool
	self    kg.Entity
	exclude map[string]bool // documents not to rest on
}

// keep drops the evidence of excluded documents, and the facts left with
// none.
func (r reader) keep(rels []kg.Relation) []kg.Relation {
	if len(r.exclude) == 0 {
		return rels
	}
	out := rels[:0]
	for _, rel := range rels {
		var evs []kg.Evidence
		for _, ev := range rel.Evidence {
			if !r.exclude[ev.DocKey] {
				evs = append(evs, ev)
			}
		}
		if len(evs) > 0 {
			rel.Evidence = evs
			out = append(out, rel)
		}
	}
	return out
}

func (r reader) at(ev kg.Evidence) position {
	return position{notOwn: !r.own[ev.DocID], doc: ev.DocID, start: ev.Start}
}

// Cite is the citation of an evidence sentence.
func Cite(ev kg.Evidence) Citation { return cite(ev) }

func cite(ev kg.Evidence) Citation {
	return Citation{Doc: ev.DocKey, Cite: ev.Cite, Start: ev.Start, End: ev.End, Quote: ev.Sentence, Year: ev.Year, norm: ev.Norm}
}

// item makes an item of a fact from its evidence: the citations, own
// chapters first, the earliest year and where it is first stated. at, when
// set, is where each sentence names the item.
func (r reader) item(text, kind string, id int64, evs []kg.Evidence, at func(kg.Evidence) kg.Span) Item {
	evs = slices.Clone(evs)
	sort.SliceStable(evs, func(i, j int) bool { return r.at(evs[i]).less(r.at(evs[j])) })
	it := Item{Text: text, Kind: kind, EntityID: id, Citations: []Citation{}}
	for i, ev := range evs {
		if i == 0 {
			it.first = r.at(ev)
		}
		if ev.Year != nil && (it.Year == nil || *ev.Year < *it.Year) {
			y := *ev.Year
			it.Year = &y
		}
		c := cite(ev)
		if at != nil {
			c.says = ev.Words(at(ev))
		}
		it.Citations = append(it.Citations, c)
	}
	return it
}

// end says where a relation's evidence names the other party.
func (r reader) end(rel kg.Relation) func(kg.Evidence) kg.Span {
	if rel.HeadID == r.self.ID {
		return func(ev kg.Evidence) kg.Span { return ev.Tail }
	}
	return func(ev kg.Evidence) kg.Span { return ev.Head }
}

// names lists the person's designations by kind, and reads the family
// name, the given name and the 字.
func (r reader) names(ctx context.Context, src Source, p *Profile) error {
	// The rarer kinds first, on their own: a much-named person's short
	// names (操, hundreds of times) would crowd them out.
	rare, err := src.AliasEvidence(ctx, r.self.ID, []string{"字", "小字", "号", "谥号", "庙号", "封号"})
	if err != nil {
		return fmt.Errorf("read the names of %s: %w", r.self.Name, err)
	}
	rest, err := src.AliasEvidence(ctx, r.self.ID, nil)
	if err != nil {
		return fmt.Errorf("read the names of %s: %w", r.self.Name, err)
	}
	type seenAt struct {
		doc   int64
		start int
		name  string
	}
	seenEv := map[seenAt]bool{}
	var als []store.AliasEvidence
	for _, al := range append(rare, rest...) {
		if r.exclude[al.Evidence.DocKey] {
			continue
		}
		if k := (seenAt{al.Evidence.DocID, al.Evidence.Start, al.Alias}); !seenEv[k] {
			seenEv[k] = true
			als = append(als, al)
		}
	}
	type key struct{ name, kind string }
	evs := map[key][]kg.Evidence{}
	var order []key
	for _, al := range als {
		if al.Alias == r.self.Name {
			continue
		}
		k := key{al.Alias, al.Kind}
		if _, seen := evs[k]; !seen {
			order = append(order, k)
		}
		evs[k] = append(evs[k], al.Evidence)
	}
	p.Names = []Item{}
	for _, k := range order {
		// The sentences that state the name as such (字孔明) first.
		list := evs[k]
		sort.SliceStable(list, func(i, j int) bool { return formula(list[i], k.kind, k.name) && !formula(list[j], k.kind, k.name) })
		if formula(list[0], k.kind, k.name) {
			// Where the texts state it, only those sentences are cited.
			n := 1
			for n < len(list) && formula(list[n], k.kind, k.name) {
				n++
			}
			list = list[:n]
		}
		it := r.item(k.name, k.kind, 0, list, func(ev kg.Evidence) kg.Span { return ev.Tail })
		it.first = r.at(list[0])
		p.Names = append(p.Names, it)
	}
	sortItems(p.Names)
	sur := histories.Surname(r.self.Name)
	given := strings.TrimPrefix(r.self.Name, sur)
	for _, n := range p.Names {
		switch {
		// The 字 as the texts state it (字孔明), not joined to the family
		// name (诸葛孔明).
		case n.Kind == "字" && p.Zi == "" && !strings.HasPrefix(n.Text, sur):
			p.Zi = n.Text
		// A personal name: the texts call him by the given name alone.
		case n.Kind == "名" && n.Text == given && given != "":
			p.Surname, p.Given = sur, given
		}
	}
	return nil
}

// Most designations a profile lists, and parts of the corpus each.
const (
	maxDesignations = 10
	maxScope        = 4
)

// designations lists the names the texts call the person by other than
// his own, most used first, each with the parts of the corpus it is used
// in: a title stands for him in one book (太祖 in 三国志·魏书), a 字 in
// all. A name used once is left out as more likely a misreading.
func (r reader) designations(ctx context.Context, src Source, p *Profile) error {
	uses, err := src.NameUses(ctx, r.self.ID, 60)
	if err != nil {
		return fmt.Errorf("read the names of %s: %w", r.self.Name, err)
	}
	kinds := map[string]string{}
	for _, n := range p.Names {
		if kinds[n.Text] == "" {
			kinds[n.Text] = n.Kind
		}
	}
	at := map[string]int{}
	p.Designations = []Designation{}
	for _, u := range uses {
		if u.Name == r.self.Name || r.exclude[u.First.DocKey] {
			continue
		}
		i, ok := at[u.Name]
		if !ok {
			i = len(p.Designations)
			at[u.Name] = i
			p.Designations = append(p.Designations, Designation{Name: u.Name, Kind: kinds[u.Name], Scope: []Use{}})
		}
		d := &p.Designations[i]
		d.Mentions += u.Mentions
		if len(d.Scope) < maxScope {
			m := u.First
			d.Scope = append(d.Scope, Use{Part: strings.ReplaceAll(u.Part, "/", "·"), Mentions: u.Mentions,
				Citation: Citation{Doc: m.DocKey, Cite: m.Cite, Start: m.Start, End: m.End, Quote: m.Context}})
		}
	}
	kept := p.Designations[:0]
	for _, d := range p.Designations {
		if d.Mentions > 1 {
			kept = append(kept, d)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].Mentions > kept[j].Mentions })
	p.Designations = kept[:min(len(kept), maxDesignations)]
	return nil
}

// formula reports whether a sentence states a name as its kind: 字孔明,
// 号曰卧龙.
func formula(ev kg.Evidence, kind, name string) bool {
	return strings.Contains(ev.Norm, kind+name) || strings.Contains(ev.Norm, kind+"曰"+name)
}

// sortItems puts items in the order a reader meets them.
func sortItems(items []Item) {
	sort.SliceStable(items, func(i, j int) bool { return items[i].first.less(items[j].first) })
}

// other is the entity a relation joins the person to, and whether the
// person is its head.
func (r reader) other(rel kg.Relation) (name string, id int64, head bool) {
	if rel.HeadID == r.self.ID {
		return rel.Tail, rel.TailID, true
	}
	return rel.Head, rel.HeadID, false
}

// nativePlace is where the person is from, as one span in the source's
// order (琅邪阳都 from 琅邪阳都人也). Where the person's own chapter gives
// the 字, the sentence that gives it is the opening, which says where he was
// from (X字Y，Z人也); else the first sentence a 籍贯 fact rests on, read
// from the place it names.
func (r reader) nativePlace(rels []kg.Relation, p *Profile) *Item {
	for _, n := range p.Names {
		if n.Kind != "字" || n.Text != p.Zi || n.first.notOwn {
			continue
		}
		if place, ok := histories.NativePlaceIn(n.Citations[0].norm); ok {
			it := Item{Text: place, Kind: "籍贯", Citations: n.Citations[:1], first: n.first}
			return &it
		}
	}
	var evs []kg.Evidence
	var places []string
	for _, rel := range rels {
		if rel.HeadID == r.self.ID {
			evs = append(evs, rel.Evidence...)
			places = append(places, rel.Tail)
		}
	}
	sort.SliceStable(evs, func(i, j int) bool { return r.at(evs[i]).less(r.at(evs[j])) })
	for _, ev := range evs {
		for _, pl := range places {
			if span, ok := histories.NativePlace(ev.Norm, pl); ok {
				// The sentences that state it are cited.
				var citing []kg.Evidence
				for _, e := range evs {
					if strings.Contains(e.Norm, span+"人") {
						citing = append(citing, e)
					}
				}
				it := r.item(span, "籍贯", 0, citing, nil)
				return &it
			}
		}
	}
	if len(evs) == 0 {
		return nil
	}
	// No formula: the place of the first sentence, as the fact names it.
	for _, pl := range places {
		if strings.Contains(evs[0].Norm, pl) {
			it := r.item(pl, "籍贯", 0, evs[:1], nil)
			return &it
		}
	}
	return nil
}

// date is a birth or death: the year most of the person's own chapters'
// sentences give, else most sentences (OwnFirst).
func (r reader) date(rels []kg.Relation) *Item {
	byYear := map[int][]kg.Evidence{}
	var mine, all []int
	for _, rel := range rels {
		if rel.HeadID != r.self.ID {
			continue
		}
		for _, ev := range rel.Evidence {
			if ev.Year == nil {
				continue
			}
			byYear[*ev.Year] = append(byYear[*ev.Year], ev)
			all = append(all, *ev.Year)
			if r.own[ev.DocID] {
				mine = append(mine, *ev.Year)
			}
		}
	}
	best := OwnFirst(mine, all)
	if best == nil {
		return nil
	}
	it := r.item(fmt.Sprint(*best), "", 0, byYear[*best], nil)
	it.Year = best
	return &it
}

// OwnFirst is the year a person's own chapters give (mine) by most votes,
// all the sentences breaking a tie; or, where the own chapters date none,
// the year most of all give. Between equals, the earliest. nil when there
// are none. One misread sentence elsewhere does not outvote the chapter.
func OwnFirst(mine, all []int) *int {
	if len(mine) > 0 {
		return consensus(mine, all)
	}
	return consensus(all, nil)
}

// consensus is the year most votes name; between equals, the one more of
// the seconds name, then the earliest. nil when there are none.
func consensus(votes, seconds []int) *int {
	count := func(ys []int) map[int]int {
		n := map[int]int{}
		for _, y := range ys {
			n[y]++
		}
		return n
	}
	first, second := count(votes), count(seconds)
	best, n, m := 0, 0, 0
	for y, v := range first {
		if v > n || v == n && (second[y] > m || second[y] == m && y < best) {
			best, n, m = y, v, second[y]
		}
	}
	if n == 0 {
		return nil
	}
	return &best
}

// undateOutsideLife drops the year of a fact dated before the person was
// born, or of an office or a place dated after they died: the year in force
// where a sentence stands is sometimes a forebear's (宜城亭侯 dated to 117
// BCE in 刘备's chapter, which begins with his ancestry). Titles given
// after death keep theirs. The fact stays, undated, and the career is put
// in order again.
func (p *Profile) undateOutsideLife() {
	if p.Born == nil && p.Died == nil {
		return
	}
	fix := func(items []Item, afterDeath bool) {
		for i := range items {
			y := items[i].Year
			if y == nil {
				continue
			}
			if p.Born != nil && *y < *p.Born.Year || !afterDeath && p.Died != nil && *y > *p.Died.Year {
				items[i].Year, items[i].Era = nil, ""
			}
		}
	}
	fix(p.Offices, false)
	fix(p.Places, false)
	fix(p.Kin, true)
	fix(p.Associates, false)
	fix(p.Titles, true)
	inTimeOrder(p.Offices)
	inTimeOrder(p.Titles)
}

// bornFromAge works out the year of birth from the age a death sentence
// gives (卒于军，时年五十四): ages are counted from one at birth, so a man
// who died at 54 in 234 was born in 181. The item cites the death sentence
// and says it is worked out.
func bornFromAge(died *Item) *Item {
	for _, c := range died.Citations {
		if c.Year == nil || *c.Year != *died.Year {
			continue
		}
		if y, basis, ok := BirthFromAge(*died.Year, c.norm); ok {
			return &Item{Text: fmt.Sprint(y), Kind: "推算", Year: &y, Basis: basis, Citations: []Citation{c}}
		}
	}
	return nil
}

// BirthFromAge reads the age a sentence of someone's death gives (时年五十四)
// and works out the year of birth from the year of death: ages count from
// one at birth. It returns the year and the words it read.
func BirthFromAge(died int, sentence string) (int, string, bool) {
	for _, cue := range []string{"时年", "，年", "年"} {
		i := strings.Index(sentence, cue)
		if i < 0 {
			continue
		}
		rest := []rune(sentence[i+len(cue):])
		age, n, ok := chrono.Number(string(rest))
		if !ok || age < 1 || age > 120 {
			continue
		}
		if n < len(rest) && strings.ContainsRune("年月日", rest[n]) {
			continue // a date (年二月), not an age
		}
		return died - age + 1, strings.TrimPrefix(cue, "，") + string(rest[:n]), true
	}
	return 0, "", false
}

// career lists offices or titles, each once, in the order the texts date
// them, the undated after in the order they are told.
func (r reader) career(rels []kg.Relation) []Item {
	out := []Item{}
	for _, rel := range rels {
		if rel.HeadID != r.self.ID {
			continue
		}
		it := r.item(rel.Tail, rel.Type, rel.TailID, rel.Evidence, r.end(rel))
		if r.hearsay(rel) {
			continue
		}
		it.Era, it.Reign = reignYear(it.Year, rel.Evidence)
		out = append(out, it)
	}
	inTimeOrder(out)
	return out
}

// hearsay reports whether a post rests on a passing mention in another
// chapter (kg.Hearsay); the entity page's description reads the career
// the same way. Written without the own chapter, a profile keeps them all.
func (r reader) hearsay(rel kg.Relation) bool {
	return len(r.exclude) == 0 && kg.Hearsay(r.own, rel.Evidence)
}

// reignYear names a career fact's year as its sentences count it: by the
// era of the sentence dated to year (建兴十二年), or, undated, by the year
// of the reign a sentence dates it in (秦昭王四十年).
func reignYear(year *int, evs []kg.Evidence) (era, reign string) {
	for _, ev := range evs {
		switch {
		case year != nil && ev.Year != nil && *ev.Year == *year:
			if era := chrono.EraYear(*year, "", ev.Norm, ev.Cite); era != "" {
				return era, ""
			}
		case year == nil && ev.Reign != "" && ev.ReignYear > 0:
			return "", ev.Reign + chrono.YearNumeral(ev.ReignYear)
		}
	}
	return "", ""
}

// inTimeOrder puts dated items first, by year, and the undated after them
// in the order the texts tell them.
func inTimeOrder(items []Item) {
	sortItems(items)
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i].Year, items[j].Year
		return a != nil && (b == nil || *a < *b)
	})
}

// kin lists relatives, each with what they are to the person.
func (r reader) kin(by map[string][]kg.Relation) []Item {
	out := []Item{}
	for _, t := range kinTypes {
		for _, rel := range by[t] {
			name, id, head := r.other(rel)
			if id == r.self.ID || len(rel.Evidence) == 0 {
				continue
			}
			it := r.item(name, "", id, rel.Evidence, r.end(rel))
			it.Kind = kinOf(t, head, it.Citations)
			if g, ok := kinGeneration[it.Kind]; ok {
				it.Generation = &g
			}
			// A relative only other chapters name once is more likely a
			// misreading than a relative.
			if it.first.notOwn && len(it.Citations) < 2 {
				continue
			}
			out = append(out, it)
		}
	}
	out = r.mergeGivenNames(mergeSameKin(out))
	sort.SliceStable(out, func(i, j int) bool { return kinRank[out[i].Kind] < kinRank[out[j].Kind] })
	return out
}

// mergeSameKin folds the items that name one relative as the same kin
// (兄弟姊妹 孙策 read both ways, 孙权 同胞 孙策 and 孙策 同胞 孙权) into one,
// with the citations of both.
func mergeSameKin(items []Item) []Item {
	type key struct {
		id   int64
		kind string
	}
	at := map[key]int{}
	out := items[:0]
	for _, it := range items {
		k := key{it.EntityID, it.Kind}
		if i, ok := at[k]; ok && it.EntityID != 0 {
			for _, c := range it.Citations {
				if !slices.ContainsFunc(out[i].Citations, func(o Citation) bool { return o.Doc == c.Doc && o.Start == c.Start }) {
					out[i].Citations = append(out[i].Citations, c)
				}
			}
			if it.Year != nil && (out[i].Year == nil || *it.Year < *out[i].Year) {
				out[i].Year = it.Year
			}
			continue
		}
		at[k] = len(out)
		out = append(out, it)
	}
	return out
}

// mergeGivenNames folds a relative named by the given name alone (丕, read
// as a person of its own) into the one with the family's name (曹丕),
// keeping the more precise kind (父 over 父母).
func (r reader) mergeGivenNames(items []Item) []Item {
	sur := histories.Surname(r.self.Name)
	full := map[string]int{}
	for i, it := range items {
		full[it.Text] = i
	}
	out := items[:0]
	var folded []Item
	for _, it := range items {
		if j, ok := full[sur+it.Text]; ok && utf8.RuneCountInString(it.Text) == 1 && kinRank[it.Kind] == kinRank[items[j].Kind] {
			folded = append(folded, it)
			continue
		}
		out = append(out, it)
	}
	for _, it := range folded {
		for i := range out {
			if out[i].Text == sur+it.Text {
				out[i].Citations = append(out[i].Citations, it.Citations...)
				if len(out[i].Kind) > len(it.Kind) {
					out[i].Kind = it.Kind
				}
				if it.Year != nil && (out[i].Year == nil || *it.Year < *out[i].Year) {
					out[i].Year = it.Year
				}
			}
		}
	}
	return out
}

// kinRank orders relatives as a family tree is read: elders, spouses,
// siblings, children, then the rest.
// kinGeneration is each kind of relative's generation relative to the
// person; clansmen (族人) have none.
var kinGeneration = map[string]int{"祖": -2, "父": -1, "母": -1, "父母": -1, "配偶": 0, "兄弟姊妹": 0, "子": 1, "女": 1, "子女": 1, "孙": 2}

var kinRank = map[string]int{"祖": 0, "父": 1, "母": 1, "父母": 1, "配偶": 2, "兄弟姊妹": 3, "子": 4, "女": 4, "子女": 4, "孙": 5, "族人": 6}

// kinOf names a relative by the first of the sentences that says his or
// her sex, else by the first sentence: 曹冲 is a son by 爱子仓舒, though
// the first sentence lists him by his title.
func kinOf(rel string, selfIsHead bool, cs []Citation) string {
	first := kinKind(rel, selfIsHead, cs[0])
	if first != "子女" && first != "父母" {
		return first
	}
	for _, c := range cs[1:] {
		if k := kinKind(rel, selfIsHead, c); k != first {
			return k
		}
	}
	return first
}

// sonsCounted and daughtersCounted count a man's sons or daughters before
// naming them (武皇帝二十五男：…, 生三女).
var (
	sonsCounted      = regexp.MustCompile(`[一二三四五六七八九十百两]+(男|子[：:，,])`)
	daughtersCounted = regexp.MustCompile(`[一二三四五六七八九十百两]+女`)
)

// kinKind names a relative: the relation's direction says parent or
// child; the sentence, where it says so, the sex (X女Y, Y母, 爱子Y, a son
// with a courtesy name, sons counted before they are listed).
func kinKind(rel string, selfIsHead bool, c Citation) string {
	s, other := c.norm, c.says
	if other == "" {
		other = "\x00" // matches nothing
	}
	before := func(name string) string {
		i := strings.Index(s, name)
		if i <= 0 {
			return ""
		}
		r, _ := utf8.DecodeLastRuneInString(s[:i])
		return string(r)
	}
	switch rel {
	case "子女":
		if selfIsHead {
			if before(other) == "女" {
				return "女"
			}
			if before(other) == "子" {
				return "子"
			}
			at := strings.Index(s, other)
			switch {
			case at < 0:
			case strings.HasPrefix(s[at+len(other):], "字"):
				return "子" // a courtesy name: a son (邓哀王冲字仓舒)
			case daughtersCounted.MatchString(s[:at]) != sonsCounted.MatchString(s[:at]):
				// Only sons or only daughters counted before the name.
				if sonsCounted.MatchString(s[:at]) {
					return "子"
				}
				return "女"
			}
			return "子女"
		}
		if strings.Contains(s, other+"母") || strings.Contains(s, "母"+other) {
			return "母"
		}
		if strings.Contains(s, other+"之子") || strings.Contains(s, other+"子") || strings.Contains(s, "父"+other) {
			return "父"
		}
		return "父母"
	case "孙":
		if selfIsHead {
			return "孙"
		}
		return "祖"
	case "同胞":
		return "兄弟姊妹"
	case "婚恋":
		return "配偶"
	}
	return "族人"
}

// places lists where the person went, lived, fought and died, most
// supported first.
func (r reader) places(by map[string][]kg.Relation) []Item {
	out := []Item{}
	for _, t := range placeTypes {
		for _, rel := range by[t] {
			if rel.HeadID != r.self.ID {
				continue
			}
			out = append(out, r.item(rel.Tail, rel.Type, rel.TailID, rel.Evidence, r.end(rel)))
		}
	}
	return bestFirst(out, maxPlaces)
}

// associates lists the people the person served, commanded, favoured or
// opposed.
func (r reader) associates(by map[string][]kg.Relation) []Item {
	type seenKey struct {
		kind string
		id   int64
	}
	out := []Item{}
	seen := map[seenKey]int{}
	for _, t := range associateTypes {
		for _, rel := range by[t] {
			name, id, head := r.other(rel)
			if id == r.self.ID || (head && rel.TailType != "人物") || (!head && rel.HeadType != "人物") {
				continue
			}
			kind := map[string]string{"积极态度倾向": "友", "消极态度倾向": "敌"}[t]
			if t == "下级" {
				// The superior is the head.
				kind = "上级"
				if head {
					kind = "下级"
				}
			}
			it := r.item(name, kind, id, rel.Evidence, r.end(rel))
			if i, ok := seen[seenKey{kind, id}]; ok {
				// 友 孙权 read from two relations (favoured, allied): one item.
				out[i].Citations = append(out[i].Citations, it.Citations...)
				continue
			}
			seen[seenKey{kind, id}] = len(out)
			out = append(out, it)
		}
	}
	return bestFirst(out, maxAssociates)
}

// bestFirst keeps the n items the most sentences state, in the order a
// reader meets them.
func bestFirst(items []Item, n int) []Item {
	if len(items) > n {
		sort.SliceStable(items, func(i, j int) bool { return len(items[i].Citations) > len(items[j].Citations) })
		items = items[:n]
	}
	sortItems(items)
	return items
}

// active is the first and last year the person's facts are dated to.
func active(rels []kg.Relation) []int {
	lo, hi, any := 0, 0, false
	for _, rel := range rels {
		for _, ev := range rel.Evidence {
			if ev.Year == nil || ev.Precision == "context" {
				continue
			}
			y := *ev.Year
			if !any || y < lo {
				lo = y
			}
			if !any || y > hi {
				hi = y
			}
			any = true
		}
	}
	if !any {
		return nil
	}
	return []int{lo, hi}
}
