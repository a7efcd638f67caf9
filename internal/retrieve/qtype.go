package retrieve

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/index"
)

// Question types.
const (
	QWho        = "who"
	QWhat       = "what"
	QWhen       = "when"
	QWhere      = "where"
	QWhy        = "why"
	QYesNo      = "yes-no"
	QCourtesy   = "courtesy-name" // 字, 号
	QOffice     = "office"
	QKin        = "kin"
	QDeath      = "time-of-death"
	QDeathPlace = "place-of-death"
	QNative     = "native-place"
	QAllegiance = "allegiance"
	QChoice     = "multiple-choice"
)

// Ask is a typed question's link to the graph: the relation types whose
// facts answer it, and which end of them holds the answer.
type Ask struct {
	Label     string   `json:"label"`     // what is asked, in the question's words (字, 父亲, office)
	Relations []string `json:"relations"` // relation types, zh-history and general
	FromTail  bool     `json:"from_tail"` // the answer is the head of a fact whose tail is the entity
}

// asker recognises one typed question.
type asker struct {
	re  *regexp.Regexp
	typ string
	ask Ask
}

// askers are tried in order: the first match types the question. Kinship
// words say which way the 子女 fact points: X的父亲 is the head of
// (父亲, 子女, X); X的儿子 its tail.
var askers = func() []asker {
	a := func(pat, typ, label string, fromTail bool, rels ...string) asker {
		return asker{regexp.MustCompile(pat), typ, Ask{Label: label, Relations: rels, FromTail: fromTail}}
	}
	return []asker{
		a(`(表字|的字|字什么|字是|字何|何字|courtesy name|style name|tên chữ)`, QCourtesy, "字", false, "别称", "alias_of"),
		a(`(的号|号什么|号是|号为|称号|别号|art name)`, QCourtesy, "号", false, "别称", "alias_of"),
		a(`(父亲|之父|的父亲|的父|父是|father|cha của|\bbố\b)`, QKin, "父亲", true, "子女", "parent_of"),
		a(`(母亲|之母|的母亲|的母|mother|mẹ của)`, QKin, "母亲", true, "子女", "parent_of"),
		a(`(儿子|之子|的儿子|的子女|的子|子女|女儿|孩子|后代|\bsons?\b|daughters?|children|con của)`, QKin, "子女", false, "子女", "parent_of"),
		a(`(孙子|之孙|的孙|grandson|granddaughter)`, QKin, "孙", false, "孙"),
		a(`(兄弟|哥哥|弟弟|之兄|之弟|的兄弟|的兄长|的弟弟|的兄|的弟|姐妹|brothers?|sisters?|siblings?|anh em)`, QKin, "兄弟", false, "同胞", "sibling_of"),
		a(`(妻子|夫人|之妻|的妻子|的妻|丈夫|配偶|皇后|wife|husband|spouse|married|vợ|chồng)`, QKin, "配偶", false, "婚恋", "spouse_of"),
		a(`((死|卒|去世|逝世|薨|崩|殁|阵亡|遇害|被杀).{0,6}(何时|哪年|哪一年|何年|什么时候|几年)|(何时|哪年|哪一年|何年|什么时候).{0,6}(死|卒|去世|逝世|薨|崩|殁)|when did .* die|year .* died|mất năm|qua đời)`, QDeath, "卒年", false, "死亡时间", "died_in"),
		a(`((死|卒|去世|逝世|薨|崩|殁|阵亡|遇害)于?(何处|何地|哪里|哪儿|什么地方)|where did .* die|mất ở đâu)`, QDeathPlace, "卒地", false, "卒于", "died_in"),
		a(`(哪里人|何处人|何地人|哪儿人|籍贯|故乡|家乡|出生地|生于何|born in where|where was .* born|native|hometown|quê)`, QNative, "籍贯", false, "籍贯", "born_in"),
		a(`(担任|任过|官职|官至|什么官|何官|职位|官拜|拜为|封为|爵位|office|post|position|title|chức)`, QOffice, "官职", false, "任官", "封爵", "held_office"),
		a(`(效力|投奔|归附|属于哪|哪国|哪个国家|哪一方|阵营|麾下|追随|serve[ds]?|allegiance|which (state|kingdom)|phục vụ)`, QAllegiance, "所属", false, "所属团体", "逃奔", "member_of"),
	}
}()

// Untyped questions: the kind of answer only.
var generalTypes = []struct {
	re  *regexp.Regexp
	typ string
}{
	{regexp.MustCompile(`(为什么|为何|何故|原因|缘故|why|tại sao|vì sao|nguyên nhân)`), QWhy},
	{regexp.MustCompile(`(何时|哪年|哪一年|何年|什么时候|几年|when|what year|khi nào|năm nào|bao giờ)`), QWhen},
	{regexp.MustCompile(`(哪里|何处|何地|哪儿|在哪|where|ở đâu)`), QWhere},
	{regexp.MustCompile(`(谁|何人|哪位|\bwho\b|\bwhom\b|\bai\b)`), QWho},
	{regexp.MustCompile(`(吗[？?]?$|是否|是不是|有没有|^(is|was|were|did|does|do|are|can|could)\b|có phải)`), QYesNo},
}

// classify types a question; Asks is set for the types the graph's facts
// answer directly.
func classify(q, lang string) (string, *Ask) {
	low := strings.ToLower(q)
	for _, a := range askers {
		if a.re.MatchString(low) {
			ask := a.ask
			return a.typ, &ask
		}
	}
	for _, g := range generalTypes {
		if g.re.MatchString(low) {
			return g.typ, nil
		}
	}
	return QWhat, nil
}

// particles are the function characters of modern questions; a bigram that
// holds one says little about the content.
const particles = "的是了吗呢么哪谁啥"

// contentTerms are the terms of a question worth matching: question words
// and particles left out.
func contentTerms(q string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range index.Terms(q) {
		if seen[t] || questionWord(t) || strings.ContainsAny(t, particles) {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	return out
}

// Classify types a question on its own: its type and, for the types the
// graph's facts answer, what it asks.
func Classify(q string) (string, *Ask) { return classify(strings.ToLower(q), "") }

// FirstAsk finds the first word in s that asks for a related person or an
// office (父亲, 儿子, 官职 …), the end of the inner question of a chain,
// and returns where it ends in code points; 0 when there is none. Courtesy
// names end chains rather than link them.
func FirstAsk(s string) int {
	low := strings.ToLower(s)
	best := -1
	for _, a := range askers {
		if a.typ == QCourtesy || a.typ == QDeath || a.typ == QNative {
			continue
		}
		if loc := a.re.FindStringIndex(low); loc != nil && (best < 0 || loc[1] < best) {
			best = loc[1]
		}
	}
	if best < 0 {
		return 0
	}
	return utf8.RuneCountInString(low[:best])
}
