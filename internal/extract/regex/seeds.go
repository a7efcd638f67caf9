package regex

import "github.com/annals-project/annals/internal/schema"

// Pieces the Chinese seeds share. A clause starts after punctuation or a
// line break; a name is one to three Han characters other than the
// formula's own words, so that the regex cannot swallow them.
const (
	clause  = `(?:^|[。！？；，\n])[\s　]*`
	notWord = `为以拜封子卒薨死亡嗣`
	name13  = `[^\P{Han}` + notWord + `]{1,3}?`
	// The first character of a subject is no adverb or verb (后拜大将军,
	// 征拜并州刺史 have none).
	subject = `[^\P{Han}` + notWord + `乃遂后寻复又因是再进迁累及既征加召徙转除][^\P{Han}` + notWord + `]{0,2}?`
	// A parent is not 长 of 长子恽嗣.
	parent = `[^\P{Han}` + notWord + `长次养嫡庶少幼][^\P{Han}` + notWord + `]{0,2}?`
	// An office is named by its head word; what comes before it (襄阳,
	// 车骑, 军师) belongs to it.
	office = `[^\P{Han}为以拜封]{0,6}?(?:将军|中郎将|校尉|都尉|太守|刺史|州牧|丞相|尚书令|尚书|侍中|司徒|司空|太尉|太傅|大司马|都督|长史|参军|从事|县令|大夫|仆射)`
)

// seeds are hand-written patterns for the commonest formulae of Chinese
// biographies, and one English one. They make the offline path useful and
// show the LLM what a good answer looks like.
var seeds = []Pattern{
	{
		// 诸葛亮，字孔明，琅邪阳都人也 / 汪润之，字雨元，号听舫，浙江钱塘人。
		// A kinsman (父珪，字君贡) is not the subject.
		Regex:  `(?:^|[。！？；\n])[\s　]*(?P<person>[^\P{Han}父母兄弟妻祖]\p{Han}{1,3}?)，?字(?P<zi>\p{Han}{1,3}?)[，。；](?:号(?P<hao>\p{Han}{1,4}?)[，。；])?(?:(?P<place>\p{Han}{2,8}?)人(?:也|[，。；]))?`,
		Groups: map[string]string{"person": "人物", "zi": "人物", "hao": "人物", "place": "地点"},
		Relations: []Edge{
			{Head: "person", Relation: "别称", Tail: "zi", AliasKind: "字"},
			{Head: "person", Relation: "别称", Tail: "hao", AliasKind: "号"},
			{Head: "person", Relation: "籍贯", Tail: "place"},
		},
		Example: "诸葛亮，字孔明，琅邪阳都人也。",
	},
	{
		// 羽拜前将军 / 于是亮拜丞相
		Regex:     clause + `(?:于是|乃|遂|后|寻|复|又|因)?(?P<person>` + subject + `)拜(?P<office>` + office + `)`,
		Groups:    map[string]string{"person": "人物", "office": "职官"},
		Relations: []Edge{{Head: "person", Relation: "任官", Tail: "office"}},
		Example:   "二十四年，羽拜前将军，假节钺。",
	},
	{
		// 拜羽为前将军 / 以蒋琬为尚书令: the appointee follows the verb.
		Regex:     `(?:拜|以)(?P<person>` + name13 + `)为(?P<office>` + office + `)`,
		Groups:    map[string]string{"person": "人物", "office": "职官"},
		Relations: []Edge{{Head: "person", Relation: "任官", Tail: "office"}},
		Example:   "备为汉中王，拜羽为前将军。",
	},
	{
		// 封羽为汉寿亭侯 / 封丞相诸葛亮为武乡侯
		Regex:  `封(?:(?P<office>` + office + `))?(?P<person>` + name13 + `)为(?P<title>[^\P{Han}为]{1,6}?[侯王公])`,
		Groups: map[string]string{"person": "人物", "office": "职官", "title": "爵位"},
		Relations: []Edge{
			{Head: "person", Relation: "封爵", Tail: "title"},
			{Head: "person", Relation: "任官", Tail: "office"},
		},
		Example: "封丞相诸葛亮为武乡侯。",
	},
	{
		// 亮卒，子瞻嗣 / 权子亮嗣 / 彧卒，长子恽嗣
		Regex:  clause + `(?P<parent>` + parent + `)(?:卒|薨|死|亡)?，?(?:长|次|养|嫡|庶|少|幼)?子(?P<child>` + name13 + `)嗣`,
		Groups: map[string]string{"parent": "人物", "child": "人物"},
		Relations: []Edge{
			{Head: "parent", Relation: "子女", Tail: "child"},
			{Head: "parent", Relation: "更代", Tail: "child"},
		},
		Example: "建兴十二年，亮卒，子瞻嗣爵。",
	},
}

var seedsEn = []Pattern{
	{
		// Zhao Yun (courtesy name Zilong) / Zhuge Liang, styled Kongming
		Regex:     `(?P<person>\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+){0,2})(?:,? \(|, )(?:courtesy name|style name|styled) (?P<alias>\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+)?)`,
		Groups:    map[string]string{"person": "person", "alias": "person"},
		Relations: []Edge{{Head: "person", Relation: "alias_of", Tail: "alias"}},
		Example:   "Zhao Yun (courtesy name Zilong) guarded the prince.",
	},
}

// Seeds returns the built-in patterns.
func Seeds() []Pattern {
	out := make([]Pattern, 0, len(seeds)+len(seedsEn))
	for _, p := range seeds {
		p.Schema, p.Lang, p.Source = schema.ZhHistory, "lzh", "seed"
		out = append(out, p)
	}
	for _, p := range seedsEn {
		p.Schema, p.Lang, p.Source = schema.General, "en", "seed"
		out = append(out, p)
	}
	return out
}
