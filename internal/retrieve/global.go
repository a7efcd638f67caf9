package retrieve

import (
	"context"
	"fmt"
	"github.com/annals-project/annals/internal/histories"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/chrono/eras"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// A whole-corpus (global) question asks for a group: 孙吴的将领有哪些,
// 秦末起兵反秦的有哪些人. No one sentence answers it. Global search
// gathers the group's members from five kinds of evidence and ranks them:
//
//   - relations: the facts that tie the entities the question names to
//     others in the way its group word says (将领 of 曹操: 曹操 下级 X);
//   - passages: the entities of the wanted type in the passages that best
//     match the question, weighted by how well the sentence naming them
//     does;
//   - lists: the runs of names the histories write after a sentence
//     that says what they are (图画二十八将于南宫云台…);
//   - chapters: the entities of the chapters whose titles hold the
//     group's words (酷吏 → 酷吏列传, 宦官 → 宦者列传): the histories
//     gather such groups in chapters of their own;
//   - communities: the members of the communities whose reports best
//     match the question.
//
// A period the question names (东汉末年) keeps members in its years.

// Wants of a global question.
const (
	WantPerson = "person"
	WantPlace  = "place"
	WantGroup  = "group"
)

// Links: how the entities a global question names hold its members.
const (
	LinkSubordinate = "subordinate" // 将领, 谋士, 功臣, 弟子
	LinkKin         = "kin"         // 亲族, 家族
	LinkEnemy       = "enemy"       // 敌人, 对手
	// LinkConsort is the kin of the empresses (外戚), whom the question
	// need not name: they are its anchors.
	LinkConsort = "consort"
)

// GlobalAsk is what a whole-corpus question asks for.
type GlobalAsk struct {
	// Phrase is the group as the question describes it (孙吴的将领).
	Phrase string `json:"phrase"`
	// Categories are its head nouns (将领; 部将 and 谋士), empty when the
	// phrase has none.
	Categories []string `json:"categories,omitempty"`
	Want       string   `json:"want"`           // person, place or group
	Link       string   `json:"link,omitempty"` // subordinate, kin, enemy; "" when the words do not say
	Period     string   `json:"period,omitempty"`
	Rulers     []string `json:"rulers,omitempty"` // the founders of the state the question names
	Role       string   `json:"role,omitempty"`   // general, adviser, minister, king, noble: what members held
	// House says whether the members stand within the ruling house (宗室,
	// 同姓) or outside it (异姓, and the empresses' kin); HouseName is its
	// surname where the period names it.
	House     string `json:"house,omitempty"`
	HouseName string `json:"house_name,omitempty"`
	From      *int   `json:"from,omitempty"`
	To        *int   `json:"to,omitempty"`
}

// listTemplates end (or open) a question that asks for a list.
var (
	listSuffix = regexp.MustCompile(`(都有|共有|还有|有|是|为|包括|包含|分别是|都是)?(哪些|哪几位|哪几个|哪几家|哪几国|哪几人|哪几)(人物|人|国家|诸侯国|国|地方|地区|州郡|部族|民族)?(呢)?[？?。！!\s]*$|(都有谁|有谁|有哪些人)(呢)?[？?。！!\s]*$`)
	listPrefix = regexp.MustCompile(`^(请问)?(有)?(哪些|哪几位|哪几个)(人物|人|国家|诸侯国|国|地方|州郡)?`)
	listWords  = regexp.MustCompile(`^\s*((list|name) (all )?the |(who|which \w+) (were|are) (the|all) |những ai |những người nào )`)
)

// listTemplate finds the template that makes a question ask for a list:
// its byte span, nil when there is none.
func listTemplate(low string) []int {
	if loc := listSuffix.FindStringIndex(low); loc != nil && loc[0] > 0 {
		return loc
	}
	if loc := listPrefix.FindStringIndex(low); loc != nil && loc[1] < len(low) {
		return loc
	}
	return listWords.FindStringIndex(low)
}

// Group words: the head nouns that say how the members relate to the
// entities the question names, and the words that want places or groups.
var (
	subordinateWords = []string{"将", "臣", "谋", "客", "弟子", "门生", "门人", "学生", "部下", "属下", "手下", "部属", "僚属", "幕僚", "心腹", "功臣", "宾客", "属官", "故吏"}
	kinWords         = []string{"亲族", "家族", "宗族", "亲属", "亲戚", "族人", "子孙", "子弟", "后代", "后裔", "外家", "兄弟"}
	enemyWords       = []string{"敌人", "对手", "仇敌", "敌手", "敌"}
	consortWords     = []string{"外戚", "后族", "后家"}
)

// consortTitles end the names the histories give empresses and empress
// dowagers (窦太后, 顺烈梁皇后), and consortLimit is how many of them
// a question of 外戚 reads the kin of.
var consortTitles = []string{"皇后", "太后"}

const consortLimit = 300

// hostileVerb before the group word makes the named entities the group's
// enemies.
var hostileVerb = regexp.MustCompile(`(讨伐|攻打|征讨|镇压|击败|击破|进攻|平定|抵御|攻灭|讨平|起兵|反叛|叛乱|反抗)`)

// Houses: where the members stand to the ruling house.
const (
	HouseWithin  = "within"  // 宗室, 同姓: the ruling house's kin
	HouseOutside = "outside" // 异姓, 外戚: of another surname
)

// houseWords say which side of the ruling house a group stands on.
var (
	withinWords  = []string{"宗室", "宗亲", "同姓"}
	outsideWords = []string{"异姓"}
)

// Roles narrow a group of persons by the offices or ranks its members
// held.
const (
	RoleGeneral  = "general"  // 将领, 部将: generals' and colonels' posts
	RoleAdviser  = "adviser"  // 谋士, 谋臣: counsellors', secretaries' posts
	RoleMinister = "minister" // 重臣, 大臣: the court's and the chancery's posts
	RoleKing     = "king"     // 诸侯王, 封王: made a king
	RoleNoble    = "noble"    // 王侯, 封侯: made a king or a marquis
)

// A role is what its holders hold: facts of these types whose object
// bears one of the marks, anywhere in an office's title or at the end of
// a rank's (吕王, 郦侯; not 赵王后).
type role struct {
	types  []string
	marks  []string
	ending bool
}

var (
	officeTypes = []string{"任官", "held_office"}
	rankTypes   = []string{"封爵"}
	roles       = map[string]role{
		RoleGeneral:  {officeTypes, []string{"将军", "校尉", "中郎将", "都尉", "都督", "督", "护军", "将"}, false},
		RoleAdviser:  {officeTypes, []string{"军师", "祭酒", "尚书", "侍中", "参军", "长史", "大夫", "从事", "主簿", "掾", "谋", "令", "司直"}, false},
		RoleMinister: {officeTypes, []string{"丞相", "相国", "司徒", "司空", "太尉", "太傅", "尚书", "侍中", "御史", "大夫", "卿", "太常", "光禄", "廷尉", "少府", "中书"}, false},
		RoleKing:     {rankTypes, []string{"王"}, true},
		RoleNoble:    {rankTypes, []string{"王", "侯"}, true},
	}
	// nobleWords and kingWords name the ranks a group was given; 称王,
	// a title taken, is no rank given.
	nobleWords = []string{"王侯", "封侯", "为侯"}
	// ministerWords are the head nouns of a group of ministers.
	ministerWords = []string{"重臣", "大臣", "文臣", "宰辅", "辅臣"}
	kingWords     = []string{"诸侯王", "封王", "为王"}
)

// fits says whether a fact's object is of the role.
func (ro role) fits(tail string) bool {
	if !ro.ending {
		return containsAny(tail, ro.marks)
	}
	return slices.ContainsFunc(ro.marks, func(m string) bool { return strings.HasSuffix(tail, m) })
}

// categorySeparators split 部将和谋士 into its two groups.
var categorySeparators = regexp.MustCompile(`[和与及、,，或]`)

// listBefore is a list template before its group noun (东汉有哪些隐士),
// which parseGlobal reads as the noun's own (东汉的隐士有哪些).
var listBefore = regexp.MustCompile(`^(\p{Han}.*?)(都有|有)(哪些|哪几位|哪几个)(\p{Han}{1,5}?)(呢)?[？?。！!\s]*$`)

// nounFirst puts a group noun after a list template before it (东汉有哪些
// 隐士 → 东汉的隐士有哪些), the form the list templates read; a template's
// own noun (有哪些人, 有哪些国家) stays.
func nounFirst(low string) string {
	m := listBefore.FindStringSubmatch(low)
	if m == nil || slices.ContainsFunc(templateWants, func(tw struct{ word, want string }) bool { return strings.HasPrefix(m[4], tw.word) }) {
		return low // 有哪些人, 有哪些人参加: the template's own noun
	}
	return strings.TrimSuffix(m[1], "的") + "的" + m[4] + "有哪些"
}

// parseGlobal reads what a global question asks for.
func parseGlobal(norm string) *GlobalAsk {
	low := nounFirst(strings.ToLower(bookQualifier.ReplaceAllString(norm, "")))
	loc := listTemplate(low)
	if loc == nil {
		return nil
	}
	g := &GlobalAsk{Want: WantPerson}
	tmpl := low[loc[0]:loc[1]]
	if loc[0] == 0 {
		g.Phrase = trimPhrase(low[loc[1]:])
	} else {
		g.Phrase = trimPhrase(low[:loc[0]])
	}
	head := g.Phrase
	if i := strings.LastIndex(head, "的"); i >= 0 {
		head = head[i+len("的"):]
	} else if utf8.RuneCountInString(head) > 4 {
		head = "" // a phrase with no head noun: 秦末起兵反秦
	}
	if i := strings.Index(head, "中"); i > 0 {
		head = head[:i] // 亲族中被封王侯 → 亲族
	}
	head = strings.TrimPrefix(head, "主要")
	for _, c := range categorySeparators.Split(head, -1) {
		if c = strings.TrimSpace(c); c != "" && c != "人物" && c != "人" {
			g.Categories = append(g.Categories, c)
		}
	}
	cats := strings.Join(g.Categories, " ")
	switch {
	case hostileVerb.MatchString(g.Phrase):
		g.Link = LinkEnemy // 讨伐黄巾军的将领: those who fought the named
	case containsAny(cats, consortWords):
		g.Link = LinkConsort
	case containsAny(cats, kinWords):
		g.Link = LinkKin
	case containsAny(cats, enemyWords):
		g.Link = LinkEnemy
	case containsAny(cats, subordinateWords):
		g.Link = LinkSubordinate
	}
	g.Want = wantOf(tmpl, g.Categories, g.Link)
	switch adviser, general := strings.Contains(cats, "谋"), strings.Contains(cats, "将"); {
	case adviser && !general:
		g.Role = RoleAdviser
	case general && !adviser:
		g.Role = RoleGeneral
	case adviser || general:
	case containsAny(cats, ministerWords):
		g.Role = RoleMinister
	case containsAny(g.Phrase, nobleWords):
		g.Role = RoleNoble // 封王侯: 封王 within it is the wider 王侯
	case containsAny(g.Phrase, kingWords):
		g.Role = RoleKing
	}
	if g.Want != WantPerson && g.Link == LinkSubordinate {
		g.Link = ""
	}
	p, ok := periodOf(low)
	if ok {
		from, to := p.from, p.to
		g.Period, g.From, g.To, g.Rulers = p.name, &from, &to, p.rulers
	}
	switch {
	case containsAny(g.Phrase, outsideWords) || g.Link == LinkConsort:
		g.House, g.HouseName = HouseOutside, p.house
	case containsAny(g.Phrase, withinWords):
		g.House, g.HouseName = HouseWithin, p.house
	}
	return g
}

// Head words that say what kind of entity a group holds: the template's
// own (有哪些国家) first, longest first, then the last group word's ending.
var (
	templateWants = []struct{ word, want string }{
		{"诸侯国", WantGroup}, {"国家", WantGroup}, {"部族", WantGroup}, {"民族", WantGroup}, {"国", WantGroup},
		{"州郡", WantPlace}, {"地方", WantPlace}, {"地区", WantPlace}, {"人物", WantPerson}, {"人", WantPerson},
	}
	placeHeads = []string{"州郡", "州", "郡", "县", "城", "地方", "地区", "之地"}
	groupHeads = []string{"国家", "国", "族", "部落", "政权", "势力", "七雄"}
)

// wantOf says whether a group holds persons, places or groups.
func wantOf(tmpl string, cats []string, link string) string {
	t := strings.TrimRight(tmpl, "？?。！! 呢")
	for _, tw := range templateWants {
		if strings.HasSuffix(t, tw.word) {
			return tw.want
		}
	}
	if link == LinkKin || link == LinkConsort || len(cats) == 0 {
		return WantPerson
	}
	last := cats[len(cats)-1]
	for _, h := range placeHeads {
		if strings.HasSuffix(last, h) {
			return WantPlace
		}
	}
	for _, h := range groupHeads {
		if strings.HasSuffix(last, h) {
			return WantGroup
		}
	}
	return WantPerson
}

// trimPhrase cuts the words around a group's description.
func trimPhrase(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return r == ' ' || r == '?' || r == '？' || r == '，' || r == ',' })
	s = strings.TrimPrefix(s, "请问")
	for _, suf := range []string{"的", "都", "是", "一共", "中"} {
		s = strings.TrimSuffix(s, suf)
	}
	return s
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// Member is one entity a global search found for the group, with the
// sentence that best shows it belongs.
type Member struct {
	Entity   kg.Entity    `json:"entity"`
	Score    float64      `json:"score"`
	Routes   []string     `json:"routes"` // relation, passage, chapter, community
	Citation *kg.Evidence `json:"citation,omitempty"`
}

// RankedCommunity is a community and how well its report matches a
// question.
type RankedCommunity struct {
	Community kg.Community `json:"community"`
	Score     float64      `json:"score"`
}

// GlobalResult is what a global search found.
type GlobalResult struct {
	Ask         *GlobalAsk        `json:"ask"`
	Anchors     []kg.Entity       `json:"anchors,omitempty"` // the entities the question names
	Members     []Member          `json:"members"`
	Communities []RankedCommunity `json:"communities,omitempty"`
}

// Global-search figures.
const (
	globalPassages    = 60 // passages read for members
	globalCommunities = 3  // best communities whose members count
	globalChapterCap  = 6  // a title word in more chapters than this is too common to say anything
	globalEdges       = 5000
	// passageBase is what naming a member in a matching passage is worth
	// before its sentence matches the question.
	passageBase = 0.1
	// undatedWeight is what an undated passage counts for a question
	// that names a period.
	undatedWeight = 0.6
	// periodSlack is how far after its period a member may stand.
	periodSlack = 30
)

// Weights of the evidence kinds; each kind's scores are first scaled to
// [0, 1].
var globalWeights = map[string]float64{"relation": 1, "passage": 1, "list": 1.5, "chapter": 0.8, "community": 0.5}

// kindChapterWeights rank a group whose word names chapters of its kind
// (宦官 → 宦者列传): who the chapter is about comes first, and the other
// kinds of evidence order those only; 窦武, named in 宦者列传 as the
// eunuchs' enemy and in many other chapters, is no 宦官.
var kindChapterWeights = map[string]float64{"relation": 0.1, "passage": 0.1, "list": 0.2, "chapter": 1, "community": 0.05}

// candidate gathers one entity's evidence during a global search.
type candidate struct {
	e         kg.Entity
	raw       map[string]float64
	cite      *kg.Evidence
	citeScore float64
	chapter   *store.EntityCount
	enemy     int // support of hostile facts with an anchor
	friend    int
}

// candidates are the entities a global search gathers evidence for.
type candidates map[int64]*candidate

// getter returns the candidate of an entity that admit lets in, made on
// first sight; nil for one it keeps out.
func (cs candidates) getter(admit func(kg.Entity) bool) func(kg.Entity) *candidate {
	return func(e kg.Entity) *candidate {
		if !admit(e) {
			return nil
		}
		c := cs[e.ID]
		if c == nil {
			c = &candidate{e: e, raw: map[string]float64{}}
			cs[e.ID] = c
		}
		return c
	}
}

// Global runs a global search for an analysed question and returns up to
// limit members, best first. A question that does not ask for a group
// gets nil.
func (r *Retriever) Global(ctx context.Context, a *Analysis, limit int) (*GlobalResult, error) {
	if a.Global == nil {
		return nil, nil
	}
	g := a.Global
	res := &GlobalResult{Ask: g}
	cands := candidates{}
	anchors, err := r.anchors(ctx, a)
	if err != nil {
		return nil, err
	}
	res.Anchors = anchors
	exclude := map[int64]bool{}
	for _, e := range anchors {
		exclude[e.ID] = true
	}
	get := cands.getter(func(e kg.Entity) bool { return !exclude[e.ID] && g.admits(e) })
	if err := r.globalRelations(ctx, g, anchors, get); err != nil {
		return nil, err
	}
	if err := r.globalPassages(ctx, a, anchors, get); err != nil {
		return nil, err
	}
	kindChapter, err := r.globalChapters(ctx, a, get)
	if err != nil {
		return nil, err
	}
	ranked, err := r.rankCommunities(ctx, anchors, phraseTerms(a), g)
	if err != nil {
		return nil, err
	}
	if len(ranked) > globalCommunities {
		ranked = ranked[:globalCommunities]
	}
	res.Communities = ranked
	for i, rc := range ranked {
		w := rc.Score / ranked[0].Score / float64(i+1)
		for j, m := range rc.Community.Members {
			if c := get(kg.Entity{ID: m.EntityID, Name: m.Name, Type: m.Type}); c != nil {
				c.raw["community"] = math.Max(c.raw["community"], w*5/float64(j+5))
			}
		}
	}
	years, err := r.memberYears(ctx, cands)
	if err != nil {
		return nil, err
	}
	members := rankMembers(g, anchors, cands, years, kindChapter)
	if clan := clanOf(a); clan != "" {
		members = bySurname(clan, true, members)
	}
	if members, err = r.byRole(ctx, g.Role, members); err != nil {
		return nil, err
	}
	rulers, err := r.rulersAmong(ctx, members)
	if err != nil {
		return nil, err
	}
	members = rulersApart(a, members, rulers)
	if house := houseOf(g, members, rulers); house != "" {
		members = bySurname(house, g.House == HouseWithin, members)
	}
	members = distinctNames(members)
	if len(members) > limit {
		members = members[:limit]
	}
	res.Members = members
	for i := range res.Members {
		if res.Members[i].Citation == nil {
			if err := r.citeMember(ctx, a, &res.Members[i], cands[res.Members[i].Entity.ID]); err != nil {
				return nil, err
			}
		}
	}
	return res, nil
}

// admits says whether an entity may be a member of the group asked: of
// the kind wanted, and not the group word itself, which is what is
// asked (东夷 of 东夷诸国诸族 is no state of the 东夷).
func (g *GlobalAsk) admits(e kg.Entity) bool {
	return wants(g.Want, e) && !slices.ContainsFunc(g.Categories, func(c string) bool { return strings.Contains(c, e.Name) })
}

// wants reports whether an entity is of the kind a question wants, and
// has a name worth listing: a person named by one character (a surname
// or a given name cut from its context) or by a family name alone (公孙)
// is not.
func wants(want string, e kg.Entity) bool {
	switch want {
	case WantPlace:
		return e.Type == "地点" || e.Type == "place" || e.Type == "location"
	case WantGroup:
		return e.Type == "社会集团" || e.Type == "organisation" || e.Type == "organization" || e.Type == "地点"
	}
	return (e.Type == "人物" || e.Type == "person") && utf8.RuneCountInString(e.Name) >= 2 && !histories.IsCompoundSurname(e.Name)
}

// linkTypes are the relation types that tie the named entities to the
// members, by link; the hostile types mark enemies under any link.
var (
	linkTypes = map[string][]string{
		LinkSubordinate: {"下级", "所属团体", "subordinate_of", "member_of"},
		LinkKin:         {"子女", "同胞", "同族", "孙", "婚恋", "parent_of", "sibling_of", "spouse_of"},
		LinkConsort:     {"子女", "同胞", "同族", "parent_of", "sibling_of"},
		LinkEnemy:       {"攻", "消极态度倾向", "败", "胜", "attacked", "killed"},
		"":              {"下级", "所属团体", "积极态度倾向", "subordinate_of", "member_of"},
	}
	hostileTypes = []string{"攻", "消极态度倾向", "败", "胜", "attacked", "killed"}
	// friendlyTypes mark a friend under any link, as a superior does: one
	// the anchor favoured is seldom the enemy one clash makes him look.
	friendlyTypes = []string{"积极态度倾向"}
)

// globalRelations scores the entities the question's named entities are
// linked to as its group word says, by the support of those facts.
func (r *Retriever) globalRelations(ctx context.Context, g *GlobalAsk, anchors []kg.Entity, get func(kg.Entity) *candidate) error {
	types := linkTypes[g.Link]
	for _, anchor := range anchors {
		edges, err := r.Src.Edges(ctx, anchor.ID, globalEdges)
		if err != nil {
			return fmt.Errorf("global search: read the links of %s: %w", anchor.Name, err)
		}
		support := make(map[int64]int, len(edges))
		for _, e := range edges {
			support[e.RelationID] = e.Support
		}
		rels, err := r.Src.Statements(ctx, anchor.ID, slices.Concat(types, hostileTypes, friendlyTypes), 1)
		if err != nil {
			return fmt.Errorf("global search: read the facts of %s: %w", anchor.Name, err)
		}
		var surname string
		if (g.Link == LinkKin || g.Link == LinkConsort) && isPersonType(anchor.Type) {
			surname = firstRune(anchor.Name)
		}
		for _, rel := range rels {
			other := kg.Entity{ID: rel.TailID, Name: rel.Tail, Type: rel.TailType}
			forward := rel.HeadID == anchor.ID
			if !forward {
				other = kg.Entity{ID: rel.HeadID, Name: rel.Head, Type: rel.HeadType}
			}
			c := get(other)
			if c == nil {
				continue
			}
			n := max(support[rel.ID], len(rel.Evidence))
			if slices.Contains(hostileTypes, rel.Type) {
				c.enemy += n
				if g.Link != LinkEnemy {
					continue
				}
			} else if linkFits(LinkSubordinate, rel.Type, forward) || slices.Contains(friendlyTypes, rel.Type) {
				c.friend += n
			}
			if !slices.Contains(types, rel.Type) || !linkFits(g.Link, rel.Type, forward) {
				continue
			}
			w := math.Log1p(float64(n))
			if surname != "" && firstRune(other.Name) == surname {
				w *= 2 // kin of 吕后 are mostly 吕
			}
			c.raw["relation"] += w
			if len(rel.Evidence) > 0 && w > c.citeScore {
				ev := rel.Evidence[0]
				c.cite, c.citeScore = &ev, w
			}
		}
	}
	return nil
}

// linkFits checks a fact's direction: a subordinate is the tail of 下级
// (曹操 下级 夏侯惇) and the head of 所属团体 (周瑜 所属团体 吴).
func linkFits(link, typ string, forward bool) bool {
	if link == LinkConsort {
		// An empress's parents and brothers are 外戚; her sons are
		// princes and emperors.
		parent := typ == "子女" || typ == "parent_of"
		return !parent || !forward
	}
	if link != LinkSubordinate && link != "" {
		return true
	}
	switch typ {
	case "下级", "subordinate_of":
		return forward
	case "所属团体", "member_of":
		return !forward
	}
	return true
}

// globalPassages scores the entities named in the passages that best
// match the question.
func (r *Retriever) globalPassages(ctx context.Context, a *Analysis, anchors []kg.Entity, get func(kg.Entity) *candidate) error {
	if r.Lexical == nil {
		return nil
	}
	hits, err := r.Lexical(ctx, a.Global.Phrase, globalPassages)
	if err != nil {
		return fmt.Errorf("global search: rank passages: %w", err)
	}
	if r.Vectors != nil {
		near, err := r.Vectors(ctx, a.Global.Phrase, globalPassages/2)
		if err != nil {
			return fmt.Errorf("global search: nearest passages: %w", err)
		}
		hits = interleave(hits, near)
	}
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	ps, err := r.Src.Passages(ctx, ids)
	if err != nil {
		return fmt.Errorf("global search: read passages: %w", err)
	}
	byID := map[int64]*store.Passage{}
	for i := range ps {
		byID[ps[i].ChunkID] = &ps[i]
	}
	terms := phraseTerms(a)
	inPeriod, err := r.periodWeights(ctx, a.Global)
	if err != nil {
		return err
	}
	rank := -1
	for _, id := range ids {
		p := byID[id]
		if p == nil {
			continue
		}
		pw := 1.0
		if inPeriod != nil {
			if pw = inPeriod(id); pw == 0 {
				continue
			}
		}
		rank++
		ms, err := r.Src.MentionsIn(ctx, p.DocID, p.Start, p.End)
		if err != nil {
			return fmt.Errorf("global search: read mentions: %w", err)
		}
		sents := origSentences(p)
		w := pw / float64(rank+4)
		var listed map[framedMember]bool
		if rank < listPassages {
			if listed, err = r.globalLists(ctx, p, sents, terms, anchors, w, get); err != nil {
				return err
			}
		}
		seen := map[int64]bool{}
		for _, m := range ms {
			if seen[m.EntityID] || !tellsMember(m) {
				continue
			}
			c := get(kg.Entity{ID: m.EntityID, Name: m.Name, Type: m.Type})
			if c == nil {
				continue
			}
			sp, prev := sentenceAround(sents, m.Start)
			if listed[framedMember{sp.orig.Start, m.EntityID}] {
				// The sentence that frames a list counts for its members
				// once, through the list, in the list's order: 其外又有王常、
				// 李通 in the sentence that frames the twenty-eight generals
				// puts the four last of the thirty-two, not first.
				continue
			}
			seen[m.EntityID] = true
			s := p.Norm[sp.normStart:sp.normEnd]
			// A list often follows the sentence that says what it is
			// (图画二十八将于南宫云台，其外又有…).
			fit := math.Max(overlap(terms, s), 0.7*overlap(terms, p.Norm[prev.normStart:prev.normEnd]))
			for _, x := range anchors {
				if strings.Contains(s, x.Name) {
					fit += 0.5
				}
			}
			score := w * (passageBase + fit)
			c.raw["passage"] += score
			if c.raw["relation"] == 0 && score > c.citeScore {
				c.cite, c.citeScore = Cite(p, kg.Span{Start: sp.Start, End: sp.End}), score
			}
		}
	}
	return nil
}

// The histories often list a group themselves, right after the sentence
// that says what the list is: 图画二十八将于南宫云台…故依其本弟系之篇末
// and then the generals, name after name; 图画其人于麒麟阁…次曰…张安世，
// 次曰…韩增; 胶西、胶东、菑川、济南、楚、赵亦皆反. A list is a run of
// names packed one after another, a few characters apart at most.
const (
	listPassages = 8   // best passages whose sentences may frame a list
	listFit      = 0.3 // share of the phrase's terms a framing sentence holds
	listLead     = 60  // how far after its framing sentence a list may begin
	listReach    = 2000
	listGap      = 4 // most characters between two names of one list
	listMin      = 4 // fewest wanted members a list has
)

// framedMember is a member of a list and the start of the sentence that
// frames it.
type framedMember struct {
	sentence int
	entity   int64
}

// globalLists scores the members of the lists the passage's sentences
// frame, by how well the framing sentence fits and in the list's order,
// and says which members each framing sentence listed.
func (r *Retriever) globalLists(ctx context.Context, p *store.Passage, sents []sentenceSpan, terms []string, anchors []kg.Entity, w float64, get func(kg.Entity) *candidate) (map[framedMember]bool, error) {
	listed := map[framedMember]bool{}
	for _, sp := range sents {
		s := p.Norm[sp.normStart:sp.normEnd]
		fit := overlap(terms, s)
		if fit < listFit || !framesList(int(math.Round(fit*float64(len(terms)))), anchors, s) {
			continue
		}
		ms, err := r.Src.MentionsIn(ctx, p.DocID, sp.orig.Start, sp.orig.End+listReach)
		if err != nil {
			return nil, fmt.Errorf("global search: read a list: %w", err)
		}
		// The longest list the sentence frames: 其外又有王常、李通 inside
		// it is an aside, the thirty-two generals after it the list.
		var list []*candidate
		for _, run := range packedRuns(ms) {
			if run[0].Start > sp.orig.End+listLead {
				break
			}
			var members []*candidate
			seen := map[int64]bool{}
			for _, m := range run {
				if seen[m.EntityID] || !tellsMember(m) {
					continue
				}
				if c := get(kg.Entity{ID: m.EntityID, Name: m.Name, Type: m.Type}); c != nil {
					seen[m.EntityID] = true
					members = append(members, c)
				}
			}
			if len(members) > len(list) {
				list = members
			}
		}
		if len(list) < listMin {
			continue
		}
		for i, c := range list {
			c.raw["list"] = math.Max(c.raw["list"], w*fit*(1-0.01*float64(i)))
			listed[framedMember{sp.orig.Start, c.e.ID}] = true
		}
	}
	return listed, nil
}

// framesList says whether a sentence holding n of the phrase's terms
// names the list asked: two of the terms, or one and every entity the
// question names. 弟子 alone in 昭公弟子亹 is no list of 孔子's.
func framesList(n int, anchors []kg.Entity, s string) bool {
	if n >= 2 {
		return true
	}
	for _, a := range anchors {
		if !strings.Contains(s, a.Name) {
			return false
		}
	}
	return n == 1 && len(anchors) > 0
}

// packedRuns splits mentions, in the order of the text, into runs whose
// neighbours stand at most listGap characters apart.
func packedRuns(ms []store.TypedMention) [][]store.TypedMention {
	var out [][]store.TypedMention
	start, end := 0, -1
	for i, m := range ms {
		if i > 0 && m.Start-end > listGap {
			out = append(out, ms[start:i])
			start = i
		}
		end = max(end, m.End)
	}
	if len(ms) > 0 {
		out = append(out, ms[start:])
	}
	return out
}

// tellsMember says whether a mention may show a member of a group: it
// names an entity, and a person by more than one character. One
// character (上, 帝, 亮) names whoever the context means, mostly the
// reigning emperor: no evidence of a group.
func tellsMember(m store.TypedMention) bool {
	return m.EntityID != 0 && !(isPersonType(m.Type) && utf8.RuneCountInString(m.Surface) < 2)
}

// anchors are the entities a global question names, and the founders of
// the state it names (孙权 for 孙吴).
func (r *Retriever) anchors(ctx context.Context, a *Analysis) ([]kg.Entity, error) {
	var out []kg.Entity
	seen := map[int64]bool{}
	owner := possessor(a)
	for i, m := range a.Entities {
		// The group word itself (外戚, 宦官) may be a name in the
		// graph; it is what is asked, not whom. So are a title or an
		// office that describe the group (被封王侯, 诸侯王, 皇后), and a
		// person who only qualifies the one whose group it is (汉元帝 in
		// 汉元帝皇后王政君的家族).
		if seen[m.Entity.ID] || slices.ContainsFunc(a.Global.Categories, func(c string) bool { return strings.Contains(c, m.Text) }) ||
			m.Entity.Type == "爵位" || m.Entity.Type == "职官" || owner >= 0 && i != owner && isPersonType(m.Entity.Type) {
			continue
		}
		seen[m.Entity.ID] = true
		out = append(out, m.Entity)
	}
	if a.Global.Link == LinkConsort {
		consorts, err := r.Src.EntitiesNamedEnding(ctx, "人物", consortTitles, consortLimit)
		if err != nil {
			return nil, fmt.Errorf("global search: the empresses: %w", err)
		}
		for _, e := range consorts {
			if !seen[e.ID] {
				seen[e.ID] = true
				out = append(out, e)
			}
		}
	}
	if len(a.Global.Rulers) == 0 {
		return out, nil
	}
	ms, err := r.Src.MatchNames(ctx, a.Global.Rulers)
	if err != nil {
		return nil, fmt.Errorf("global search: %w", err)
	}
	for _, name := range a.Global.Rulers {
		for _, m := range ms {
			if m.Text == name && isPersonType(m.Entity.Type) && !seen[m.Entity.ID] {
				seen[m.Entity.ID] = true
				out = append(out, m.Entity)
				break
			}
		}
	}
	return out, nil
}

// possessor is the index of the person whose group a question of kin or
// subordinates asks for, the one named right before 的 and the group
// word, or before 手下 (王政君的家族, 刘邦手下的功臣); -1 when no one
// person is.
func possessor(a *Analysis) int {
	if a.Global.Link != LinkKin && a.Global.Link != LinkSubordinate {
		return -1
	}
	rs := []rune(a.Norm)
	found := -1
	for i, m := range a.Entities {
		if !isPersonType(m.Entity.Type) || m.Span.End > len(rs) {
			continue
		}
		after := string(rs[m.Span.End:])
		owns := strings.HasPrefix(after, "手下") || strings.HasPrefix(after, "麾下") || strings.HasPrefix(after, "部下") ||
			slices.ContainsFunc(a.Global.Categories, func(c string) bool { return strings.HasPrefix(after, "的"+c) })
		if owns {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// clanWords ask for a person's clan, who share its family name: 吕后's
// 亲族 who were made kings are 吕台, 吕产, 吕禄, not her son 刘盈.
var clanWords = []string{"亲族", "家族", "宗族", "族人"}

// clanOf is the family name of the person whose clan a question asks
// for; "" when it asks for no clan. A name the question writes in full
// before the graph's shorter one (王 of 王政君, known as 政君) gives it.
func clanOf(a *Analysis) string {
	if a.Global.Link != LinkKin || !containsAny(strings.Join(a.Global.Categories, " "), clanWords) {
		return ""
	}
	i := possessor(a)
	if i < 0 {
		return ""
	}
	m := a.Entities[i]
	rs := []rune(a.Norm)
	if s := m.Span.Start; utf8.RuneCountInString(m.Text) == 2 && s > 0 && !slices.ContainsFunc(a.Entities, func(o Mention) bool { return o.Span.Start < s && o.Span.End >= s }) {
		if c := string(rs[s-1]); histories.Surname(m.Entity.Name) != c && !strings.ContainsAny(c, "的之帝后") {
			return c
		}
	}
	return histories.Surname(m.Entity.Name)
}

// surnamePenalty scales a member on the wrong side of the surname a
// group is drawn by.
const surnamePenalty = 0.1

// bySurname puts the members who bear a surname first (same) or last
// (not same), keeping the evidence's order within each side: a spouse or
// a child of another house is kin, not clan, and the emperor's kin are
// no 异姓王.
func bySurname(surname string, same bool, ms []Member) []Member {
	for i := range ms {
		if strings.HasPrefix(ms[i].Entity.Name, surname) != same {
			ms[i].Score = math.Round(ms[i].Score*surnamePenalty*1000) / 1000
		}
	}
	sortMembers(ms)
	return ms
}

// houseOf is the surname of the ruling house a group is drawn by: the
// period's, or else the one most of the rulers among the best members
// bear (刘 of 刘秀, 刘祜, 刘隆 beside the 东汉 外戚); "" when the group
// is not drawn by the house, or no surname leads.
func houseOf(g *GlobalAsk, ms []Member, rulers map[int64]ruling) string {
	if g.House == "" || g.HouseName != "" {
		return g.HouseName
	}
	count := map[string]int{}
	for _, m := range ms {
		if rulers[m.Entity.ID] != notRuler {
			count[histories.Surname(m.Entity.Name)]++
		}
	}
	best, tie := "", false
	for s, n := range count {
		switch {
		case s == "":
		case best == "" || n > count[best]:
			best, tie = s, false
		case n == count[best]:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}

// periodWeights weighs passages by the period a question names: those
// dated inside it count fully, undated ones less, and those dated
// outside not at all. Nil when the question names no period.
func (r *Retriever) periodWeights(ctx context.Context, g *GlobalAsk) (func(int64) float64, error) {
	if g.From == nil {
		return nil, nil
	}
	in, err := r.Src.ChunksInYears(ctx, *g.From-periodSlack, *g.To+periodSlack)
	if err != nil {
		return nil, fmt.Errorf("global search: %w", err)
	}
	dated, err := r.Src.ChunksInYears(ctx, math.MinInt32, math.MaxInt32)
	if err != nil {
		return nil, fmt.Errorf("global search: %w", err)
	}
	inSet := make(map[int64]bool, len(in))
	for _, id := range in {
		inSet[id] = true
	}
	datedSet := make(map[int64]bool, len(dated))
	for _, id := range dated {
		datedSet[id] = true
	}
	return func(id int64) float64 {
		switch {
		case inSet[id]:
			return 1
		case datedSet[id]:
			return 0
		}
		return undatedWeight
	}, nil
}

// interleave merges two rankings, alternating, without repeats.
func interleave(a, b []Scored) []Scored {
	out := make([]Scored, 0, len(a)+len(b))
	seen := map[int64]bool{}
	for i := 0; i < len(a) || i < len(b); i++ {
		for _, l := range [][]Scored{a, b} {
			if i < len(l) && !seen[l[i].ID] {
				seen[l[i].ID] = true
				out = append(out, l[i])
			}
		}
	}
	return out
}

// phraseTerms are the content terms of the question's group phrase,
// without the names of the entities it names: what a member's sentence
// should hold.
func phraseTerms(a *Analysis) []string {
	var out []string
	for _, t := range contentTerms(a.Global.Phrase) {
		named := false
		for _, m := range a.Entities {
			if strings.Contains(m.Text, t) && !slices.ContainsFunc(a.Global.Categories, func(c string) bool { return strings.Contains(c, m.Text) }) {
				named = true
				break
			}
		}
		if !named {
			out = append(out, t)
		}
	}
	return out
}

// sentenceSpan is a sentence of a passage: code points in its normalised
// text, and its byte bounds there.
type sentenceSpan struct {
	kg.Span            // code points in the passage's normalised text
	orig               kg.Span
	normStart, normEnd int
}

// origSentences splits a passage into sentences that know their original
// offsets.
func origSentences(p *store.Passage) []sentenceSpan {
	at := runeCursor{s: p.Norm}
	var out []sentenceSpan
	for _, sp := range text.Sentences(p.Norm, p.Lang) {
		out = append(out, sentenceSpan{Span: sp, orig: kg.Span{Start: p.OrigOffset(sp.Start), End: p.OrigOffset(sp.End)},
			normStart: at.seek(sp.Start), normEnd: at.seek(sp.End)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// sentenceAround is the sentence holding an original offset (the last one
// that starts before it when none holds it), and the sentence before it.
func sentenceAround(ss []sentenceSpan, off int) (at, prev sentenceSpan) {
	for i, s := range ss {
		if s.orig.Start > off {
			break
		}
		at = s
		if i > 0 {
			prev = ss[i-1]
		} else {
			prev = s
		}
		if off < s.orig.End {
			break
		}
	}
	return at, prev
}

// globalChapters scores the entities of the chapters whose titles hold
// the group's words. It reports whether the group's own word names
// chapters of their kind (宦官 → 宦者列传, 酷吏 → 酷吏列传): the
// historians' own list of the group, which then outweighs the rest.
func (r *Retriever) globalChapters(ctx context.Context, a *Analysis, get func(kg.Entity) *candidate) (bool, error) {
	var docs []int64
	kind := false
	kinds := kindTitles(a.Global.Categories)
	for _, t := range titleTerms(a) {
		ds, err := r.Src.DocumentsTitled(ctx, []string{t})
		if err != nil {
			return false, fmt.Errorf("global search: %w", err)
		}
		if len(ds) > 0 && len(ds) <= globalChapterCap {
			docs = append(docs, ds...)
			kind = kind || slices.Contains(kinds, t)
		}
	}
	docs, err := r.chaptersInPeriod(ctx, docs, a.Global)
	if err != nil || len(docs) == 0 {
		return false, err
	}
	counts, err := r.Src.EntitiesIn(ctx, docs, 200)
	if err != nil {
		return false, fmt.Errorf("global search: %w", err)
	}
	found := 0
	for i := range counts {
		if counts[i].Count < 2 {
			// Named once in a table of a hundred names is no evidence
			// (孝景始, 弓高 in a table of lords).
			continue
		}
		if c := get(counts[i].Entity); c != nil {
			// A member is named there often, and mostly there: an
			// emperor named in every chapter is no 酷吏. In a chapter of
			// the group's kind, how much it tells of him counts most:
			// the eunuchs whose deeds fill other chapters too (曹节,
			// 张让) are its chief subjects, not the least of them.
			n := float64(counts[i].Count)
			there := n / math.Max(n, float64(counts[i].Entity.Mentions))
			c.raw["chapter"] = math.Log1p(n) * math.Sqrt(there)
			if kind {
				c.raw["chapter"] = n * math.Sqrt(there)
			}
			c.chapter = &counts[i]
			found++
		}
	}
	return kind && found >= kindChapterMembers, nil
}

// chaptersInPeriod keeps the chapters that tell of the period a question
// names: those where at least a third of the dated people and places they
// name most stand in it. The eunuchs of 东汉 are in 后汉书's 宦者列传, and
// its 外戚 are not those of 汉书's 外戚传.
func (r *Retriever) chaptersInPeriod(ctx context.Context, docs []int64, g *GlobalAsk) ([]int64, error) {
	if g == nil || g.From == nil || len(docs) == 0 {
		return docs, nil
	}
	named := make([][]int64, len(docs)) // each chapter's most named
	var all []int64
	for i, d := range docs {
		counts, err := r.Src.EntitiesIn(ctx, []int64{d}, chapterPeriodSample)
		if err != nil {
			return nil, fmt.Errorf("global search: %w", err)
		}
		for _, c := range counts {
			named[i] = append(named[i], c.Entity.ID)
		}
		all = append(all, named[i]...)
	}
	years, err := r.Src.EntityYears(ctx, all) // one read for every chapter
	if err != nil {
		return nil, fmt.Errorf("global search: %w", err)
	}
	dates := medianYears(years)
	var out []int64
	for i, d := range docs {
		in, dated := 0, 0
		for _, id := range named[i] {
			if y, ok := dates[id]; ok {
				dated++
				if g.near(y) {
					in++
				}
			}
		}
		if dated == 0 || 3*in >= dated {
			out = append(out, d)
		}
	}
	return out, nil
}

// chapterPeriodSample is how many of the entities a chapter names most
// date it.
const chapterPeriodSample = 30

// kindChapterMembers is how many members the chapters of a group's kind
// must name before only their members are listed first.
const kindChapterMembers = 3

// kindTitles are the title words of the chapters of the kinds of people a
// question's group words name: the group word itself (酷吏) and the words
// the histories use for it (宦官 → 宦者).
func kindTitles(categories []string) []string {
	out := readersTitles(categories)
	for _, c := range categories {
		for _, w := range kindChapterWords {
			if strings.HasSuffix(c, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// readersTitles are the title words of the chapters a reader's words for
// kinds of people name (groupChapters), in the order of the words.
func readersTitles(categories []string) []string {
	var out []string
	for _, c := range categories {
		for word, titles := range groupChapters {
			if strings.HasSuffix(c, word) {
				out = append(out, titles...)
			}
		}
	}
	return out
}

// kindChapterWords title the chapters of kinds of people (类传) in the
// First Four Histories; a group word that ends with one names them.
var kindChapterWords = []string{"酷吏", "循吏", "儒林", "游侠", "刺客", "佞幸", "货殖", "外戚", "宦者", "逸民",
	"方术", "方技", "独行", "列女", "文苑", "党锢", "滑稽", "日者", "龟策"}

// groupChapters are the words the histories title their chapters of
// kinds of people with (类传: 宦者列传, 逸民列传, 货殖列传), by the words a
// reader calls those people: 宦官 are the 宦者, 隐士 the 逸民, 商人 the
// 货殖. A group word that is a title word already (酷吏, 刺客, 外戚) needs
// no entry.
var groupChapters = map[string][]string{
	"宦官": {"宦者"}, "太监": {"宦者"}, "中官": {"宦者"}, "阉人": {"宦者"}, "阉宦": {"宦者"},
	"隐士": {"逸民"}, "隐者": {"逸民"}, "处士": {"逸民"}, "高士": {"逸民"},
	"侠客": {"游侠"}, "任侠": {"游侠"}, "侠士": {"游侠"},
	"儒生": {"儒林"}, "儒者": {"儒林"}, "经师": {"儒林"}, "经学家": {"儒林"}, "学者": {"儒林"}, "博士": {"儒林"},
	"医生": {"方术", "方技", "扁鹊"}, "名医": {"方术", "方技", "扁鹊"}, "医者": {"方术", "方技", "扁鹊"},
	"方士": {"方术", "方技"}, "术士": {"方术", "方技"},
	"商人": {"货殖"}, "富商": {"货殖"}, "商贾": {"货殖"}, "巨富": {"货殖"}, "富人": {"货殖"},
	"良吏": {"循吏"}, "清官": {"循吏"}, "能吏": {"循吏"},
	"宠臣": {"佞幸"}, "佞臣": {"佞幸"}, "幸臣": {"佞幸"}, "男宠": {"佞幸"},
	"烈女": {"列女"}, "贤妻": {"列女"}, "贤母": {"列女"}, "才女": {"列女"},
	"文人": {"文苑"}, "文士": {"文苑"}, "文学家": {"文苑"}, "辞赋家": {"文苑"},
	"党人": {"党锢"}, "孝子": {"独行"}, "义士": {"独行"},
	"俳优": {"滑稽"}, "卜者": {"日者", "龟策"}, "占卜者": {"日者", "龟策"},
}

// titleTerms are the two-character terms of the group phrase that are
// not names the question holds nor words every title has, with the title
// words of the chapters its group words name (groupChapters).
func titleTerms(a *Analysis) []string {
	out := readersTitles(a.Global.Categories)
	for _, t := range phraseTerms(a) {
		if slices.Contains(out, t) {
			continue
		}
		if utf8.RuneCountInString(t) != 2 || strings.ContainsAny(t, "传纪书志表世家列") {
			continue
		}
		if _, ok := periodOf(t); ok {
			continue
		}
		out = append(out, t)
	}
	return out
}

// rankCommunities ranks the communities by how well their reports match
// the question: the named entities among their members, and the
// question's terms in their names, keywords and central members.
func (r *Retriever) rankCommunities(ctx context.Context, anchors []kg.Entity, terms []string, g *GlobalAsk) ([]RankedCommunity, error) {
	cs, err := r.Src.Communities(ctx)
	if err != nil {
		return nil, fmt.Errorf("rank communities: %w", err)
	}
	if len(cs) == 0 {
		return nil, nil
	}
	home := map[int64]bool{}
	for _, e := range anchors {
		id, err := r.Src.EntityCommunity(ctx, e.ID)
		if err != nil {
			return nil, err
		}
		home[id] = id != 0
	}
	var out []RankedCommunity
	for _, c := range cs {
		if c.Size < 3 {
			continue
		}
		var b strings.Builder
		b.WriteString(c.Name)
		for _, k := range c.Keywords {
			b.WriteString(" " + k.Term)
		}
		for _, m := range c.Members {
			b.WriteString(" " + m.Name)
		}
		score := overlap(terms, b.String())
		if home[c.ID] {
			score += 1
		}
		if g != nil && g.From != nil && c.From != nil && c.To != nil {
			if *c.To < *g.From || *c.From > *g.To {
				score *= 0.5
			}
		}
		if score > 0 {
			out = append(out, RankedCommunity{Community: c, Score: score})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out, nil
}

// memberYears reads each candidate's entity whole (routes may know only
// its name) and its median year, where dated.
func (r *Retriever) memberYears(ctx context.Context, cands candidates) (map[int64]int, error) {
	ids := make([]int64, 0, len(cands))
	for id := range cands {
		ids = append(ids, id)
	}
	es, err := r.Src.EntitiesByID(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("global search: %w", err)
	}
	for _, e := range es {
		if c := cands[e.ID]; c != nil {
			c.e = e
		}
	}
	ys, err := r.Src.EntityYears(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("global search: %w", err)
	}
	return medianYears(ys), nil
}

// medianYears dates each entity by the median of the years of the
// passages naming it; one with none is left out.
func medianYears(ys map[int64][]int) map[int64]int {
	out := make(map[int64]int, len(ys))
	for id, y := range ys {
		if len(y) > 0 {
			slices.Sort(y)
			out[id] = y[len(y)/2]
		}
	}
	return out
}

// near says whether year y stands within periodSlack of the period the
// question names; true when it names none.
func (g *GlobalAsk) near(y int) bool {
	return g.From == nil || y >= *g.From-g.leadIn() && y <= *g.To+periodSlack
}

// leadIn is how far before its period a member may stand: a tenth of
// the period, five years at least and periodSlack at most. One whose
// years centre before the period mostly lived before it (丁姬, 哀帝's
// mother, is no 东汉 consort's kin; 项燕 fell before 秦末's risings),
// while one who rose in it may centre well after it.
func (g *GlobalAsk) leadIn() int {
	return min(periodSlack, max(5, (*g.To-*g.From)/10))
}

// rankMembers scales each kind of evidence to [0, 1], weighs and sums
// them, and keeps the best members: those of the question's period, and
// not the named entities' enemies unless enemies are asked for.
func rankMembers(g *GlobalAsk, anchors []kg.Entity, cands candidates, years map[int64]int, kindChapter bool) []Member {
	lord := 0
	for _, e := range anchors {
		lord = max(lord, e.Mentions)
	}
	top := map[string]float64{}
	for _, c := range cands {
		for k, v := range c.raw {
			top[k] = math.Max(top[k], v)
		}
	}
	var out []Member
	for _, c := range cands {
		score := 0.0
		var routes []string
		weights := globalWeights
		if kindChapter {
			weights = kindChapterWeights
		}
		for _, k := range []string{"relation", "passage", "list", "chapter", "community"} {
			if v := c.raw[k]; v > 0 && top[k] > 0 {
				score += weights[k] * v / top[k]
				routes = append(routes, k)
			}
		}
		if score == 0 {
			continue
		}
		// Evidence of two kinds is worth more than twice one kind, except
		// beside the historians' own chapter of the group, which others
		// only order.
		switch {
		case !kindChapter:
			score *= 1 + 0.25*float64(len(routes)-1)
		case c.raw["chapter"] == 0:
			score *= 0.2 // not in that chapter
		}
		if y, ok := years[c.e.ID]; ok && !g.near(y) {
			score *= 0.3
		}
		switch {
		case g.Link == LinkEnemy && c.friend > c.enemy:
			score *= 0.3 // 张角 is 黄巾's, not its enemy
		case g.Link != LinkEnemy && c.enemy > c.friend:
			score *= 0.3
		}
		// A subordinate named more than the lord is a rival lord who
		// served him for a while (刘备 under 袁绍).
		if g.Link == LinkSubordinate && lord > 0 && float64(c.e.Mentions) > 0.8*float64(lord) {
			score *= 0.1
		}
		out = append(out, Member{Entity: c.e, Score: math.Round(score*1000) / 1000, Routes: routes, Citation: c.cite})
	}
	sortMembers(out)
	return out
}

// distinctNames keeps the best-ranked member of each name: a list that
// names 秦 twice (the state as a place and as a power) says one thing twice.
func distinctNames(ms []Member) []Member {
	seen := map[string]bool{}
	out := ms[:0]
	for _, m := range ms {
		if !seen[m.Entity.Name] {
			seen[m.Entity.Name] = true
			out = append(out, m)
		}
	}
	return out
}

func sortMembers(ms []Member) {
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].Score != ms[j].Score {
			return ms[i].Score > ms[j].Score
		}
		return ms[i].Entity.ID < ms[j].Entity.ID
	})
}

// roleChecked is how many of the best members have their offices read.
const roleChecked = 30

// byRole reweighs the best members by the offices or ranks they held,
// each fact by the sentences that state it: a general held generals'
// posts, an adviser counsellors', a king was enfeoffed a kingdom. A member
// with no office on record keeps its score; one with no rank on record
// is no king.
func (r *Retriever) byRole(ctx context.Context, name string, ms []Member) ([]Member, error) {
	ro, ok := roles[name]
	if !ok {
		return ms, nil
	}
	for i := range ms[:min(len(ms), roleChecked)] {
		rels, err := r.Src.Statements(ctx, ms[i].Entity.ID, ro.types, 0)
		if err != nil {
			return nil, fmt.Errorf("global search: read the offices of %s: %w", ms[i].Entity.Name, err)
		}
		if len(rels) == 0 && !ro.ending {
			continue
		}
		fits, all := 0, 0
		for _, rel := range rels {
			n := max(1, rel.Support)
			all += n
			if ro.fits(rel.Tail) {
				fits += n
			}
		}
		share := float64(fits) / float64(max(1, all))
		ms[i].Score = math.Round(ms[i].Score*(0.2+1.3*share)*1000) / 1000
	}
	sortMembers(ms)
	return ms, nil
}

// rulerWords mark a group of rulers: kings enfeoffed, men who called
// themselves emperor, warlords who held a region, men who rose in arms
// and made themselves kings (刘玄, 刘盆子 among those who rose against
// 王莽). 主 alone is left out: it is 主要 far more often than 君主.
var rulerWords = []string{"帝", "王", "君", "群雄", "割据", "诸侯", "霸", "起兵", "ruler", "king", "emperor"}

// asksRulers says whether the group a question asks for is one of
// rulers, by its words once the people it names are taken out: 帝 in
// 汉宣帝时…的功臣 dates the group, and 王 in 王莽末年 names a man.
func asksRulers(a *Analysis) bool {
	phrase := strings.ToLower(a.Global.Phrase)
	for _, m := range a.Entities {
		if isPersonType(m.Entity.Type) && m.Text != "" {
			phrase = strings.ReplaceAll(phrase, strings.ToLower(m.Text), "·")
		}
	}
	return containsAny(phrase, rulerWords)
}

// rulerPenalty scales a ruler's score in a group that is not one of
// rulers: the emperor is named beside every official of his reign, and
// is none of them.
const rulerPenalty = 0.15

// ruling is how a member came to rule, by the names the graph holds.
type ruling int

const (
	notRuler  ruling = iota
	succeeded        // a temple name, or a title the ruler table knows
	founded          // a founder's temple name: 刘邦, 曹操
)

// rulersAmong reads the names of the best persons among the members and
// says which of them ruled, and how.
func (r *Retriever) rulersAmong(ctx context.Context, ms []Member) (map[int64]ruling, error) {
	out := map[int64]ruling{}
	for _, m := range ms[:min(len(ms), roleChecked)] {
		if !isPersonType(m.Entity.Type) {
			continue
		}
		as, err := r.Src.Aliases(ctx, m.Entity.ID)
		if err != nil {
			return nil, fmt.Errorf("global search: read the names of %s: %w", m.Entity.Name, err)
		}
		if k := rulingOf(as); k != notRuler {
			out[m.Entity.ID] = k
		}
	}
	return out, nil
}

// founderTemples are the temple names of a dynasty's founders.
var founderTemples = []string{"高祖", "太祖", "世祖", "烈祖"}

// rulingOf says from a person's names whether and how he ruled. A
// posthumous name counts only as an emperor's: 文公 or 景侯 is a ruler's
// name in the tables, and a minister's too.
func rulingOf(as []kg.Alias) ruling {
	k := notRuler
	for _, al := range as {
		switch {
		case al.Kind == "庙号" && slices.Contains(founderTemples, al.Name):
			return founded
		case al.Kind == "庙号" || (al.Kind == "称号" || al.Kind == "谥号" && strings.HasSuffix(al.Name, "帝")) && len(eras.LookupRuler(al.Name)) > 0:
			k = succeeded
		}
	}
	return k
}

// rulersApart lowers the rulers by succession among the members, unless
// the group asked for is one of rulers: an emperor is not one of his
// reign's 酷吏 or 宦官. A founder rose among others before he reigned,
// and belongs to the groups of his rise, but not to the empresses' kin:
// 曹操 gave 献帝 an empress, and no historian counts him among 外戚.
func rulersApart(a *Analysis, ms []Member, rulers map[int64]ruling) []Member {
	g := a.Global
	if asksRulers(a) {
		return ms
	}
	changed := false
	for i := range ms {
		if k := rulers[ms[i].Entity.ID]; k == succeeded || k == founded && g.Link == LinkConsort {
			ms[i].Score = math.Round(ms[i].Score*rulerPenalty*1000) / 1000
			changed = true
		}
	}
	if changed {
		sortMembers(ms)
	}
	return ms
}

// citeMember finds a citation for a member that has none yet: its first
// mention in the chapters that named it.
func (r *Retriever) citeMember(ctx context.Context, a *Analysis, m *Member, c *candidate) error {
	if c == nil || c.chapter == nil {
		return nil
	}
	ps, err := r.Src.Passages(ctx, []int64{c.chapter.ChunkID})
	if err != nil {
		return fmt.Errorf("global search: cite %s: %w", m.Entity.Name, err)
	}
	if len(ps) == 0 {
		return nil
	}
	sp, _ := sentenceAround(origSentences(&ps[0]), c.chapter.Start)
	m.Citation = Cite(&ps[0], sp.Span)
	return nil
}

func isPersonType(t string) bool { return t == "人物" || t == "person" }

func firstRune(s string) string {
	_, n := utf8.DecodeRuneInString(s)
	return s[:n]
}

// communityItem is a community as a retrieval item: its report in one
// line, cited by the first sentence of its summary.
func communityItem(c kg.Community) Item {
	var b strings.Builder
	b.WriteString(c.Name)
	for i, m := range c.Members {
		if i == 8 {
			break
		}
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("、")
		}
		b.WriteString(m.Name)
	}
	it := Item{Key: fmt.Sprintf("k%d", c.ID), Kind: KindCommunity, Text: b.String()}
	if len(c.Summary) > 0 {
		ev := c.Summary[0]
		it.Citation = &ev
	}
	return it
}
