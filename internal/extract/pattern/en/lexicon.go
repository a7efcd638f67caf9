package en

import "strings"

// set builds a lookup table from a space-separated word list. Multi-word
// entries are written with underscores.
func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[strings.ReplaceAll(w, "_", " ")] = true
	}
	return m
}

// Capitalised words that start sentences or clauses far more often than they
// name anything.
var stopCaps = set(`
a an the this that these those there here he she it its they them their his her him we our us i you your me my
in on at of to for from by with without within under upon over into onto after before during when while since until
till as because although though but and or nor so yet then thus however meanwhile moreover furthermore later soon
once if whether both each every all another other others many some most several few no not one two three four
five six seven eight nine ten what which who whom whose where why how instead also even still only eventually
finally subsequently afterwards afterward nevertheless therefore hence indeed perhaps according despite following
chapter volume part book section note see
monday tuesday wednesday thursday friday saturday sunday
`)

var months = set(`january february march april may june july august september october november december
jan feb mar apr jun jul aug sep sept oct nov dec`)

var eras = set(`ad ce bc bce a.d. b.c. b.c.e. c.e.`)

var wordOrdinals = set(`first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth
fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth twenty-first`)

// Prepositions and nouns after which a bare number is read as a year.
var yearCues = set(`in by from until till to since around about circa c. year before after between and during
early late mid spring summer autumn fall winter of`)

// Nouns that make a preceding number a quantity rather than a year.
var quantityNouns = set(`men troops soldiers ships boats horses people li miles households years days months
cavalry infantry warriors followers families persons officers generals archers catapults`)

// Pinyin surnames: a capitalised pair or triple beginning with one of these
// is almost always a person's name.
var surnames = set(`
cao liu sun guan zhang zhao ma huang wei jiang zhou lu lü yuan dong pang xu xun guo dian gan meng deng zhong chen
wang li yang fa fei jia cheng hua tao kong yu yue xiao bian he hu gao lin luo song tang xie shen pan du dai fan fu
shi tian ding cai yan lei mi jian man yin ling pei bao wen hou kuai mao zang lou ruan xin qiao bu le ji hao han
wu qin zhu tai zhuang mu xiang liao gu che ying zuo
zhuge sima xiahou taishi huangfu gongsun zhangsun ouyang murong chunyu linghu zhongli dongfang situ
`)

// Polities of the period, typed as organisations.
var polities = set(`
wei shu wu han jin shu_han cao_wei eastern_wu sun_wu eastern_han later_han western_han western_jin eastern_jin
qin yellow_turbans xiongnu xianbei wuhuan nanman qiang shanyue
`)

// Places that a bare capitalised word does not reveal as such.
var knownPlaces = set(`
luoyang chang'an chengdu xuchang jianye jiankang jiangling xiangyang hefei ye hanzhong jingzhou yizhou xuzhou
yangzhou liangzhou youzhou jizhou qingzhou yanzhou yuzhou jiaozhou langya longzhong nanyang chibi guandu changban
xiapi baidicheng jieting maicheng yiling xiaoting runan shouchun wancheng xinye fancheng jiange wuchang guangling
kuaiji jiangdong jiangnan yangtze yellow_river han_river wei_river wuzhang_plains hulao_pass jing_province
yi_province xu_province yang_province liang_province you_province ji_province qing_province yan_province
yu_province jiao_province china korea japan vietnam india persia rome greece egypt
`)

// Works whose titles do not show that they are works.
var knownWorks = set(`
sanguozhi analects shiji hanshu houhanshu zizhi_tongjian chu_shi_biao mengde_xinshu sunzi_bingfa
`)

// Titles that are part of how a ruler or consort is named ("Emperor Xian",
// "Lady Sun"); they stay inside the person's span.
var regnalTitles = set(`emperor empress king queen duke prince princess lady marquis marquess consort dowager`)

// Honorifics that come before a name but are not part of it.
var honorifics = set(`lord sir master mister mr mrs madam`)

// Words that head an office: "Imperial Chancellor", "General of the Left".
var officeHeads = set(`
chancellor general emperor empress king queen governor inspector prefect minister commandant marshal marquis
marquess duke regent tutor protector administrator magistrate commander colonel secretary censor counsellor
counselor adviser advisor strategist chamberlain prince steward director supervisor attendant libationer heir
chanyu consul senator tribune dictator pharaoh shogun general-in-chief excellency colonel-director
lieutenant-general major-general captain
`)

// Words that may precede an office head inside the office's name.
var officeMods = set(`
grand imperial chief senior junior great supreme prime deputy vice acting crown palace household cavalry chariot
chariots left right front rear central general-in-chief major lieutenant army navy guards inner outer
`)

// Lower-case words allowed after "of" in an office's name ("minister of works").
var officeOfWords = set(`left right front rear centre center masses works household guards palace writing ceremonies
state army navy cavalry infantry the`)

// Words that, placed before a capitalised name, mark it as a person.
var personCues = set(`
general chancellor emperor empress king queen minister strategist official officer warlord scholar poet historian
ruler commander lord lady advisor adviser governor prefect inspector regent marshal commandant consort concubine
prince princess duke marquis tutor son daughter father mother brother sister wife husband uncle nephew cousin
heir successor rival ally subordinate
`)

// Heads of event names.
var eventHeads = set(`battle battles siege campaign campaigns war wars rebellion revolt uprising expedition
expeditions incident massacre coup conquest invasion sack fall oath mutiny`)

// Heads that take "of"/"at": "Battle of Red Cliffs", "Siege of Fancheng".
var eventOfHeads = set(`battle siege campaign sack fall conquest invasion massacre oath war rebellion revolt
uprising incident`)

// Heads of place names, last word: "Langya Commandery", "Fan Castle".
var placeHeads = set(`
province provinces commandery commanderies county prefecture river mountain mountains lake pass castle city
valley plain plains island islands sea bay gorge gorges ford bridge gate hill hills cliffs cliff fortress fort
canal desert peninsula region district village town garden palace temple forest marsh strait ocean capital
`)

// Heads of place names, first word: "Mount Dingjun".
var placePrefixes = set(`mount mt lake fort port cape`)

// Heads of organisation names, last word.
var orgHeads = set(`
kingdom empire dynasty clan army court turbans rebels council navy guard guards academy alliance coalition bureau
ministry secretariat family party church company order society tribe tribes confederation legion republic
`)

// Organisation prefixes taking "of": "Kingdom of Wei".
var orgOfPrefixes = set(`kingdom state empire dynasty principality duchy republic house clan`)

// Lower-case words that follow a polity name to form an organisation:
// "the Han dynasty", "the Wei court".
var orgSuffixes = set(`dynasty empire kingdom state clan family court army armies navy forces government regime`)

// Lower-case words that follow a name to form a place: "Jing province".
var placeSuffixes = set(`province commandery county prefecture river mountains mountain lake pass castle`)

// Heads of work titles taking "of"/"on": "Records of the Three Kingdoms".
var workHeads = set(`records book annals romance art chronicles classic treatise history memoirs commentary
biography biographies canon songs odes book_of`)

// Short function words allowed inside a quoted title.
var titleSmallWords = set(`of the a an and on in to for with at by from or`)

// Adverbs dropped before relation patterns are matched, so that "was later
// appointed" reads as "was appointed".
var adverbs = set(`later then also soon eventually once again subsequently thereafter finally still already
afterwards afterward briefly initially formally promptly quickly successfully ultimately reportedly allegedly
personally secretly openly jointly together`)

// Words ending in -ly that are not adverbs.
var lyWords = set(`only early family ally rally reply supply apply fly july holy italy bodily daily lily`)

// Lower-case particles inside personal names.
var nameParticles = set(`de da di del della von van der du la le bin ibn al`)

// Heads of names of ideas and plans: "the Longzhong Plan".
var conceptHeads = set(`plan strategy doctrine policy system reform reforms code teaching teachings school`)
