package zh

// Character classes used by the rules. They are written for classical
// prose: a person's name is usually followed by a verb or a particle and
// preceded by a verb that takes a person, a kinship word or a pause.

func isHan(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) || (r >= 0x3400 && r <= 0x4DBF) || (r >= 0x20000 && r <= 0x2FA1F) || r == '〇'
}

var (
	// noGiven never occur in a given name.
	noGiven = set("谥諡也者曰于於而以为其乃遂所不无与及并皆又亦则即既已将欲可使令遣命诏自从至入出还归奔降攻击破讨杀斩诛拜迁封除授卒薨崩死字人州郡县年月日等谓问言得在有是此彼何哉乎矣焉耳兵军率帅领守王帝侯氏众城国官吏臣民百千万二三四五六七八九十两数诸各每吾我汝尔之上下内外里间处时初曹等闻见使请奏表书诏赐赏罚罪之乎兮邪耶耳尔云夫若如或莫勿毋非岂")
	// noSingle are not a one-character given name though they may be part
	// of a two-character one.
	noSingle = set("子公仲伯叔季元文德孝仁大小长少中东西南北王帝后侯")
	// oldAge after a surname say "old woman" and "old man" (吕媪, 刘媪),
	// no given name: 母媪 in 高帝纪 is not 吕媪.
	oldAge = set("媪妪翁")
	// precedePer may stand right before a person's name.
	precedePer = set("子弟兄父母妻女孙以与使遣诏命及并杀斩诛执擒获拜从随事降归投依奔攻击讨破谓问见召征举荐表告报救助迎送遇代曰令时会而乃遂又亦初既后至是故将帅属臣谋劝说谏诣附交结推立废徙逐捕收囚赦赐封嗣生娶嫁害弑和谮惧畏恶爱信任用纳答对")
	// followPer often follows a person's name.
	followPer = set("嗣躬曰为等字以与率遣使拜迁乃遂击攻破讨杀斩闻谓至入还奔降卒薨崩死既亦又复皆独因时已自将举表上奏请据守屯引帅进退走败战共及并说谏诣劝对答问令欲知见往归来从出逆迎追救拒围袭伐征叛反谋遇得在于於之所亡恐怒喜惧笑叹泣称言告报语责议受辞让固当必不未尝少年弟兄子父母妻女孙也者军兵众起立即传领行素初有由")
	// verbAfter are further verbs a name's end may meet.
	verbAfter = set("乞求请欲令命发开弃收纳献送致称作著撰举荐辞受取夺据保屯驻镇守逃走奔亡起兴谋图诈诬构害毒劝谏说答应对闻知见望视观听俘掠略御居徙迁")
	// strongFollow makes a name's end nearly certain.
	strongFollow = set("曰等字")
	// clausePunct ends a clause.
	clausePunct = set("，。、；：！？「」『』“”‘’（）()《》〈〉,.;:!?\n\r\t 　")
	// modStop may not be part of a general's free modifiers.
	modStop = set("为拜迁除授领行守假加兼署转徙补进之其以及与而乃遂于於曰时诸皆并复还出入召征表命使遣封赠追历官至累位号称故此彼各每旧新诏迎即遂其众")
	numeral = set("〇零一二三四五六七八九十百廿卅千两")
	stems   = set("甲乙丙丁戊己庚辛壬癸")
	branch  = set("子丑寅卯辰巳午未申酉戌亥")
	seasons = set("春夏秋冬")
)
