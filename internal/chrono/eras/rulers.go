package eras

// handRulers are sovereigns whose years texts count before the era system
// began under 汉武帝, which DILA lacks or covers only in part (its 秦 rows
// start in 始皇 27). Years are astronomical: year 1 of each reign, the year
// after the predecessor's death (逾年改元), and of each restart of the
// count. The dynasty names match DILA's, so that these entries replace
// DILA's for the same rulers.
var handRulers = []Ruler{
	// 秦: 政 became king in 246 BCE and took the title 始皇帝 in his 26th
	// year (221 BCE); texts go on counting from his accession as king.
	{Name: "秦王政", Aliases: []string{"秦始皇", "始皇", "始皇帝", "秦始皇帝", "嬴政", "秦王"}, Dynasty: "秦", Accession: -245},
	{Name: "二世", Aliases: []string{"秦二世", "二世皇帝", "胡亥"}, Dynasty: "秦", Accession: -208},
	// 子婴 was set up in the eighth month of 二世's third year (207 BCE),
	// which the texts go on counting as 二世's (秦三年 in 高帝纪).
	{Name: "三世", Dynasty: "秦", Accession: -206, MidYear: true},

	// 西汉: 高祖 counts from his enfeoffment as 汉王 in 206 BCE.
	{Name: "高祖", Aliases: []string{"汉高祖", "高帝", "高皇帝", "汉王", "刘邦"}, Dynasty: "西汉", Accession: -205},
	{Name: "孝惠", Aliases: []string{"惠帝", "孝惠帝", "孝惠皇帝", "汉惠帝", "刘盈"}, Dynasty: "西汉", Accession: -193},
	{Name: "高后", Aliases: []string{"吕后", "吕太后", "高皇后", "吕雉"}, Dynasty: "西汉", Accession: -186},
	{Name: "孝文", Aliases: []string{"文帝", "孝文帝", "孝文皇帝", "汉文帝", "刘恒"}, Dynasty: "西汉", Accession: -178,
		Reckonings: map[string]int{"前元": -178, "后元": -162}},
	{Name: "孝景", Aliases: []string{"景帝", "孝景帝", "孝景皇帝", "汉景帝", "刘启"}, Dynasty: "西汉", Accession: -155,
		Reckonings: map[string]int{"前元": -155, "中元": -148, "后元": -142}},
	// 武帝's first era, 建元, starts with his reign; the era names of his
	// first decades were given afterwards. His last count, 后元 (88 BCE),
	// has no era name of its own.
	{Name: "孝武", Aliases: []string{"武帝", "孝武帝", "孝武皇帝", "汉武帝", "刘彻"}, Dynasty: "西汉", Accession: -139,
		Reckonings: map[string]int{"后元": -87}},

	// 鲁, whose dukes' years the 春秋 counts (722–468 BCE).
	{Name: "隐公", Aliases: []string{"鲁隐公"}, Dynasty: "鲁", Accession: -721},
	{Name: "桓公", Aliases: []string{"鲁桓公"}, Dynasty: "鲁", Accession: -710},
	{Name: "庄公", Aliases: []string{"鲁庄公"}, Dynasty: "鲁", Accession: -692},
	{Name: "闵公", Aliases: []string{"鲁闵公"}, Dynasty: "鲁", Accession: -660},
	{Name: "僖公", Aliases: []string{"鲁僖公"}, Dynasty: "鲁", Accession: -658},
	{Name: "文公", Aliases: []string{"鲁文公"}, Dynasty: "鲁", Accession: -625},
	{Name: "宣公", Aliases: []string{"鲁宣公"}, Dynasty: "鲁", Accession: -607},
	{Name: "成公", Aliases: []string{"鲁成公"}, Dynasty: "鲁", Accession: -589},
	{Name: "襄公", Aliases: []string{"鲁襄公"}, Dynasty: "鲁", Accession: -571},
	{Name: "昭公", Aliases: []string{"鲁昭公"}, Dynasty: "鲁", Accession: -540},
	{Name: "定公", Aliases: []string{"鲁定公"}, Dynasty: "鲁", Accession: -508},
	{Name: "哀公", Aliases: []string{"鲁哀公"}, Dynasty: "鲁", Accession: -493},
	{Name: "景公", Aliases: []string{"齐景公"}, Dynasty: "齐", Accession: -546},
}
