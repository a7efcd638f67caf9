package chrono

import "github.com/annals-project/annals/internal/chrono/eras"

// memTable is a small in-memory Table for tests.
type memTable struct {
	eras   []eras.Era
	rulers []eras.Ruler
}

func (m *memTable) Eras(name string) []eras.Era {
	var out []eras.Era
	for _, e := range m.eras {
		if e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

func (m *memTable) Rulers(name string) []eras.Ruler {
	var out []eras.Ruler
	for _, r := range m.rulers {
		match := r.Name == name
		for _, a := range r.Aliases {
			match = match || a == name
		}
		if match {
			out = append(out, r)
		}
	}
	return out
}

func (m *memTable) EraNames() []string {
	var out []string
	for _, e := range m.eras {
		out = append(out, e.Name)
	}
	return out
}

func (m *memTable) RulerNames() []string {
	var out []string
	for _, r := range m.rulers {
		out = append(out, r.Name)
		out = append(out, r.Aliases...)
	}
	return out
}

func era(name, dynasty, emperor string, start, end int) eras.Era {
	return eras.Era{Name: name, Dynasty: dynasty, Emperor: emperor, Start: start, End: end}
}

// testTable holds the eras and rulers the tests and the labelled set need.
var testTable = &memTable{
	eras: []eras.Era{
		era("建元", "西汉", "武帝", -139, -134),
		era("元朔", "西汉", "武帝", -127, -122),
		era("元狩", "西汉", "武帝", -121, -116),
		era("太初", "西汉", "武帝", -103, -100),
		era("天汉", "西汉", "武帝", -99, -96),
		era("征和", "西汉", "武帝", -91, -88),
		era("甘露", "西汉", "宣帝", -52, -49),
		era("建武", "东汉", "光武帝", 25, 56),
		era("永和", "东汉", "顺帝", 136, 141),
		era("中平", "东汉", "灵帝", 184, 189),
		era("初平", "东汉", "献帝", 190, 193),
		era("兴平", "东汉", "献帝", 194, 195),
		era("建安", "东汉", "献帝", 196, 220),
		era("黄初", "曹魏", "文帝", 220, 226),
		era("太和", "曹魏", "明帝", 227, 233),
		era("青龙", "曹魏", "明帝", 233, 237),
		era("景初", "曹魏", "明帝", 237, 239),
		era("正始", "曹魏", "曹芳", 240, 249),
		era("嘉平", "曹魏", "曹芳", 249, 254),
		era("甘露", "曹魏", "曹髦", 256, 260),
		era("章武", "蜀汉", "昭烈帝", 221, 223),
		era("建兴", "蜀汉", "后主", 223, 237),
		era("延熙", "蜀汉", "后主", 238, 257),
		era("景耀", "蜀汉", "后主", 258, 263),
		era("黄武", "孙吴", "大帝", 222, 229),
		era("黄龙", "孙吴", "大帝", 229, 231),
		era("赤乌", "孙吴", "大帝", 238, 251),
		era("建兴", "孙吴", "会稽王", 252, 253),
		era("甘露", "孙吴", "孙皓", 265, 266),
		era("建兴", "成汉", "武帝", 304, 306),
		era("建兴", "西晋", "愍帝", 313, 317),
		era("永和", "东晋", "穆帝", 345, 356),
		era("太和", "东晋", "海西公", 366, 371),
		era("太和", "北魏", "孝文帝", 477, 499),
		era("正始", "北魏", "宣武帝", 504, 508),
		era("武德", "唐", "高祖", 618, 626),
		era("贞观", "唐", "太宗", 627, 649),
		era("永徽", "唐", "高宗", 650, 655),
		era("开元", "唐", "玄宗", 713, 741),
		era("天宝", "唐", "玄宗", 742, 756),
		era("至德", "唐", "肃宗", 756, 758),
		era("元和", "唐", "宪宗", 806, 820),
		era("太和", "唐", "文宗", 827, 835),
		era("洪武", "明", "太祖", 1368, 1398),
		era("永乐", "明", "成祖", 1403, 1424),
		era("康熙", "清", "圣祖", 1662, 1722),
		era("乾隆", "清", "高宗", 1736, 1795),
	},
	rulers: []eras.Ruler{
		{Name: "秦王政", Aliases: []string{"始皇", "秦始皇"}, Dynasty: "秦", Accession: -245},
		{Name: "秦孝公", Aliases: []string{"孝公"}, Dynasty: "秦", Accession: -360},
		{Name: "高祖", Aliases: []string{"高帝", "汉高祖"}, Dynasty: "西汉", Accession: -205},
		{Name: "孝文", Aliases: []string{"文帝", "孝文帝"}, Dynasty: "西汉", Accession: -178,
			Reckonings: map[string]int{"前元": -178, "后元": -162}},
		{Name: "孝景", Aliases: []string{"景帝", "孝景帝"}, Dynasty: "西汉", Accession: -155,
			Reckonings: map[string]int{"前元": -155, "中元": -148, "后元": -142}},
		{Name: "魏文帝", Aliases: []string{"文帝"}, Dynasty: "曹魏", Accession: 220},
		{Name: "鲁隐公", Aliases: []string{"隐公"}, Dynasty: "鲁", Accession: -721},
		{Name: "鲁僖公", Aliases: []string{"僖公"}, Dynasty: "鲁", Accession: -658},
		{Name: "鲁桓公", Aliases: []string{"桓公"}, Dynasty: "鲁", Accession: -710},
		{Name: "齐桓公", Aliases: []string{"桓公"}, Dynasty: "齐", Accession: -684},
		{Name: "齐景公", Dynasty: "齐", Accession: -546},
		{Name: "晋文公", Aliases: []string{"文公"}, Dynasty: "晋", Accession: -635},
	},
}
