package retrieve

import (
	"regexp"
	"strings"
	"unicode"
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
	QCourtesy   = "courtesy-name" // 字, 号, 谥号, 又称
	QWhoseName  = "whose-name"    // Y是谁的字
	QIdentity   = "identity"      // X是谁
	QOffice     = "office"        // 担任, 官至
	QTitle      = "title"         // 被封为, 爵位
	QKin        = "kin"
	QDeath      = "time-of-death"
	QBirth      = "time-of-birth"
	QDeathPlace = "place-of-death"
	QDeathHow   = "manner-of-death" // X是怎么死的: the sentence that tells it
	QNative     = "native-place"
	QKiller     = "killer" // 谁杀了X, X为谁所杀
	QVisit      = "visited"
	QFled       = "fled-to"
	QResided    = "resided"
	QAttacked   = "attacked"
	QAllegiance = "allegiance"
	QEventTime  = "event-time"   // 赤壁之战在哪一年
	QEventPlace = "event-place"  // 官渡之战在何地
	QWinner     = "event-winner" // 官渡之战谁胜
	QLoser      = "event-loser"
	QFought     = "event-sides" // 谁参加了赤壁之战
	QChoice     = "multiple-choice"
	QGlobal     = "global" // 孙吴的将领有哪些: a list gathered over the whole corpus
)

// Ask is a typed question's link to the graph: whom it asks about, the
// relation types whose facts answer it, and which end of them holds the
// answer.
type Ask struct {
	Label     string   `json:"label"`     // what is asked, in the question's words (字, 父亲, office)
	Relations []string `json:"relations"` // relation types, zh-history and general
	FromTail  bool     `json:"from_tail"` // the answer is the head of a fact whose tail is the entity
	// Subject is the whole string the question asks about, as the
	// normalised question writes it (姜维 in 姜维的父亲是谁): a name, a
	// title or a courtesy name; empty when the wording does not set it
	// apart.
	Subject string `json:"subject,omitempty"`
	// Gender narrows kin: 男 (父亲, 儿子, 哥哥) or 女 (母亲, 女儿, 妻子).
	Gender string `json:"gender,omitempty"`
	// Kinds are the kinds of alias a courtesy question asks for (字, 号,
	// 谥号); empty for any.
	Kinds []string `json:"kinds,omitempty"`
	// List says the question expects several answers (offices, places
	// visited, children).
	List bool `json:"list,omitempty"`
}

// asker recognises one typed question by its template; the subject is
// what stands before the template, or after it when after is set (谁杀了X).
type asker struct {
	re    *regexp.Regexp
	typ   string
	ask   Ask
	after bool
	// event askers match only when the subject names an event.
	event bool
}

// eventSuffixes end the names of events: 赤壁之战, 鄢陵之役, 鸿门之会.
var eventSuffixes = []string{"之战", "之役", "战役", "大战", "之会", "之宴", "宴", "之乱", "之祸", "之变", "起义"}

// namesEvent reports whether a subject is an event's name.
func namesEvent(s string) bool {
	for _, suf := range eventSuffixes {
		if strings.HasSuffix(s, suf) && len(s) > len(suf) {
			return true
		}
	}
	return false
}

// askers are tried in order: the first match types the question. Kinship
// words say which way the 子女 fact points: X的父亲 is the head of
// (父亲, 子女, X); X的儿子 its tail.
var askers = func() []asker {
	a := func(pat, typ, label string, fromTail bool, rels ...string) asker {
		return asker{re: regexp.MustCompile(pat), typ: typ, ask: Ask{Label: label, Relations: rels, FromTail: fromTail}}
	}
	with := func(x asker, f func(*Ask)) asker { f(&x.ask); return x }
	male := func(k *Ask) { k.Gender = "男" }
	female := func(k *Ask) { k.Gender = "女" }
	list := func(k *Ask) { k.List = true }
	kinds := func(ks ...string) func(*Ask) { return func(k *Ask) { k.Kinds = ks } }
	killer := a(`^(谁|何人|哪个人|是谁)(杀了|杀死了?|杀害了?|诛杀了?|斩杀了?|刺杀了?|刺死了?|射杀了?|斩了|杀|弑)`, QKiller, "杀", true, "消极态度倾向", "攻", "killed")
	killer.after = true
	event := func(x asker) asker { x.event = true; return x }
	fought := event(with(a(`^(谁|何人|哪些人|有谁|哪几方|哪些势力)(参加了?|参与了?|参战|打了)`, QFought, "参与", true, "参与", "胜", "败", "participated_in"), list))
	fought.after = true
	return []asker{
		event(a(`(发生|爆发|打)?(在|于)?(哪一年|何年|哪年|何时|什么时候|几年)`, QEventTime, "时间", false, "发生时间", "发生地点", "happened_at")),
		event(a(`(发生|爆发|打)?(在|于)?(哪里|何处|何地|什么地方|哪儿|哪个地方)`, QEventPlace, "地点", false, "发生地点", "happened_at")),
		event(with(a(`(谁胜|谁赢|谁获胜|谁取胜|谁打赢|哪一方胜|哪方胜|胜者|胜方|赢家|的结果|结果如何)`, QWinner, "胜", true, "胜"), list)),
		event(with(a(`(谁败|谁输|谁战败|哪一方败|败者|败方|输家)`, QLoser, "败", true, "败"), list)),
		event(with(a(`(参与者|参战者|参战方|有谁参加|谁参加|哪些人参加|有谁参与|谁参与|哪些人参与|有谁参战|谁参战|有哪些人)`, QFought, "参与", true, "参与", "胜", "败", "participated_in"), list)),
		fought,
		killer,
		a(`(被|为)(谁|何人)(所)?(杀|害|诛|斩|弑|刺)`, QKiller, "杀", true, "消极态度倾向", "攻", "killed"),
		with(a(`是(谁|何人|哪位)的(表字|字)`, QWhoseName, "字", true, "别称", "alias_of"), kinds("字")),
		with(a(`是(谁|何人|哪位)的(号|别号)`, QWhoseName, "号", true, "别称", "alias_of"), kinds("号")),
		with(a(`是(谁|何人|哪位)的(谥号|谥)`, QWhoseName, "谥号", true, "别称", "alias_of"), kinds("谥号")),
		with(a(`(的表字|表字|的字|字什么|字是|字何|何字|字叫|courtesy name|style name|tên chữ)`, QCourtesy, "字", false, "别称", "alias_of"), kinds("字")),
		with(a(`(的谥号|谥号|谥什么|谥为何|何谥)`, QCourtesy, "谥号", false, "别称", "alias_of"), kinds("谥号")),
		with(a(`(的号|号什么|号是|号为|别号|art name)`, QCourtesy, "号", false, "别称", "alias_of"), kinds("号")),
		with(a(`(又称|又叫|别名|别称|还叫|称号|又名|也叫|other names?)`, QCourtesy, "别称", false, "别称", "alias_of"), list),
		with(a(`是(谁|何人|哪位)的(儿子|之子|子|女儿|孩子)`, QKin, "父亲", true, "子女", "parent_of"), male),
		// X是谁的妻子 asks for her husband, not for X's wives.
		with(a(`是(谁|何人|哪位)的(妻子|夫人|妻|皇后|王后|妃子|妃)`, QKin, "丈夫", false, "婚恋", "spouse_of"), male),
		with(a(`是(谁|何人|哪位)的(丈夫|夫君)`, QKin, "妻子", false, "婚恋", "spouse_of"), func(k *Ask) { female(k); list(k) }),
		// Kin the schema does not hold (岳父, 祖父, 叔父 …): asked, and
		// answered by no relation, so refused rather than read as 父.
		a(`(岳父|岳丈|岳母|祖父|祖母|叔父|伯父|舅父|舅舅|叔叔|义父|继父|养父|外祖)`, QKin, "亲属", false),
		with(a(`(的父亲|父亲|之父|的父|父是|father|cha của|\bbố\b)`, QKin, "父亲", true, "子女", "parent_of"), male),
		with(a(`(的母亲|母亲|之母|的母|mother|mẹ của)`, QKin, "母亲", true, "子女", "parent_of"), female),
		with(a(`(的女儿|女儿|之女|daughters?)`, QKin, "女儿", false, "子女", "parent_of"), func(k *Ask) { female(k); list(k) }),
		with(a(`(的儿子|儿子|之子|\bsons?\b)`, QKin, "儿子", false, "子女", "parent_of"), func(k *Ask) { male(k); list(k) }),
		with(a(`(的子女|的子|子女|孩子|后代|children|con của)`, QKin, "子女", false, "子女", "parent_of"), list),
		with(a(`(孙子|之孙|的孙|grandson|granddaughter)`, QKin, "孙", false, "孙"), list),
		with(a(`(哥哥|兄长|的兄|之兄|elder brother)`, QKin, "兄", false, "同胞", "sibling_of"), male),
		with(a(`(弟弟|之弟|的弟[^子]|的弟$|younger brother)`, QKin, "弟", false, "同胞", "sibling_of"), male),
		with(a(`(姐姐|姊姊|之姊|的姊|elder sister)`, QKin, "姐姐", false, "同胞", "sibling_of"), func(k *Ask) { female(k); list(k) }),
		with(a(`(妹妹|之妹|的妹|younger sister)`, QKin, "妹妹", false, "同胞", "sibling_of"), func(k *Ask) { female(k); list(k) }),
		with(a(`(兄弟|姐妹|brothers?|sisters?|siblings?|anh em)`, QKin, "兄弟", false, "同胞", "sibling_of"), list),
		// A man of these histories often had several wives: all are listed.
		with(a(`(妻子|夫人|之妻|的妻|皇后|wife|vợ)`, QKin, "妻子", false, "婚恋", "spouse_of"), func(k *Ask) { female(k); list(k) }),
		with(a(`(丈夫|之夫|husband|chồng)`, QKin, "丈夫", false, "婚恋", "spouse_of"), male),
		a(`(配偶|spouse|married)`, QKin, "配偶", false, "婚恋", "spouse_of"),
		a(`(怎么死|怎样死|如何死|因何而?死|死因|怎么去世|如何去世|死于何因)`, QDeathHow, "死因", false, "消极态度倾向", "卒于", "死亡时间"),
		a(`((死|卒|去世|逝世|薨|崩|殁|阵亡|遇害|被杀)于?(何处|何地|哪里|哪儿|什么地方|在哪)|where did .* die|mất ở đâu)`, QDeathPlace, "卒地", false, "卒于", "died_in"),
		a(`((死|卒|去世|逝世|薨|崩|殁|阵亡|遇害|被杀)于?.{0,4}(何时|哪年|哪一年|何年|什么时候|几年)|(何时|哪年|哪一年|何年|什么时候)(死|卒|去世|逝世|薨|崩|殁)|when did .* die|year .* died|mất năm|qua đời)`, QDeath, "卒年", false, "死亡时间", "died_in"),
		a(`((出生于?|出生在|生于)(何时|哪年|哪一年|何年|什么时候)|(何时|哪年|哪一年|何年)(出生|生的)|when was .* born|sinh năm)`, QBirth, "生年", false, "出生时间", "born_in"),
		a(`(哪里人|何处人|何地人|哪儿人|哪国人|籍贯|故乡|家乡|出生地|生于(何|哪)|出生于(何|哪)|born in where|where was .* born|native|hometown|quê)`, QNative, "籍贯", false, "籍贯", "born_in"),
		with(a(`(被封为|封为|封号|封爵|爵位|受封|封了|封什么|title|enfeoffed)`, QTitle, "封爵", false, "封爵"), list),
		with(a(`(担任|任过|官职|官至|什么官|何官|职位|官拜|拜为|做过|当过|office|post|position|chức)`, QOffice, "官职", false, "任官", "封爵", "held_office"), list),
		with(a(`(投奔|逃奔|逃往|奔往|投靠|归附|fled to)`, QFled, "投奔", false, "逃奔", "积极态度倾向"), list),
		with(a(`(去过|到过|到达过|至何|到了哪|去了哪|访问|visited)`, QVisit, "到过", false, "访"), list),
		with(a(`(居住|住在|居于|居何|住过|lived)`, QResided, "居", false, "居"), list),
		with(a(`(攻打|讨伐|进攻|攻击|攻伐|征讨|打过|attacked)`, QAttacked, "攻", false, "攻", "消极态度倾向"), list),
		with(a(`(效力|属于哪|哪国|哪个国家|哪一方|阵营|麾下|追随|serve[ds]?|allegiance|which (state|kingdom)|phục vụ)`, QAllegiance, "所属", false, "所属团体", "逃奔", "member_of"), list),
		// X是谁, not X的Y是谁: a kinsman or an office the table does
		// not know (卫青的舅舅) is no question of who X is.
		a(`^[^谁的]{1,10}?(是谁|是何人|是哪位|何许人)[？?。！!]*$`, QIdentity, "身份", false),
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
// answer directly, with the question's subject.
func classify(q, lang string) (string, *Ask) {
	low := nounFirst(bookQualifier.ReplaceAllString(strings.ToLower(q), ""))
	list := listTemplate(low)
	for _, a := range askers {
		if loc := a.re.FindStringIndex(low); loc != nil {
			// A relation word well before a list template qualifies
			// the group asked for (讨伐黄巾军的将领有哪些) rather than
			// asking for one entity's relations (孙权的儿子有哪些).
			if list != nil && loc[1] < list[0]-len("的") {
				continue
			}
			ask := a.ask
			if a.after {
				ask.Subject = trimSubject(low[loc[1]:])
			} else {
				ask.Subject = trimSubject(low[:loc[0]])
			}
			if a.event && !namesEvent(ask.Subject) {
				continue
			}
			if a.typ == QIdentity {
				ask.Subject = trimSubject(low[:strings.LastIndex(low[:loc[1]], "是")])
				if i := strings.Index(low, "何许人"); i >= 0 && i < len(ask.Subject) {
					ask.Subject = trimSubject(low[:i])
				}
			}
			return a.typ, &ask
		}
	}
	if list != nil {
		return QGlobal, nil
	}
	for _, g := range generalTypes {
		if g.re.MatchString(low) {
			return g.typ, nil
		}
	}
	return QWhat, nil
}

// bookQualifier is a book named before the question (《三国志·蜀书》中的,
// 在《史记》里): the subject stands after it.
var bookQualifier = regexp.MustCompile(`^\s*(在|据|按照?)?《[^》]{1,30}》(中|里|里面|内|所载)?(的|，|,)?\s*`)

// trimSubject cuts what is not the subject from the words around a
// template: punctuation, polite openings (请问), the 的 that joins the
// subject to what is asked, and question words of a subject written
// after a question word (谁是X的父亲).
func trimSubject(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) })
	for _, p := range []string{"请问", "那么", "谁是", "你知道", "历史上"} {
		s = strings.TrimPrefix(s, p)
	}
	for _, suf := range []string{"有几个", "有几位", "有多少个", "有多少", "有哪些", "有哪几个", "有哪几位", "一共有", "共有", "的", "之", "是", "曾经", "曾", "都", "最后", "一共", "被", "是在", "在", "于", "发生"} {
		s = strings.TrimSuffix(s, suf)
	}
	if !isHanString(s) {
		return ""
	}
	return s
}

// isHanString reports a string of Han characters only, the subjects that
// Chinese templates set apart.
func isHanString(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !isHan(r) {
			return false
		}
	}
	return true
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
		if a.typ != QKin && a.typ != QOffice && a.typ != QTitle {
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
