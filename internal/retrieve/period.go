package retrieve

import "strings"

// A period is a stretch of years a question names by the name historians
// give it (东汉, 秦末, 战国), not by a reign era: the window a whole-corpus
// question keeps its answers in. Years are astronomical (−206 is 207 BCE).
type period struct {
	name     string
	from, to int
	// rulers are the founders of a state a period is named after: 孙吴's
	// generals are 孙权's and 孙策's.
	rulers []string
	// house is the surname of the ruling house, "" where none ruled the
	// whole period: its kin are the 宗室, the others 异姓.
	house string
}

// periods are the common names of the periods the First Four Histories
// cover and their years. The three kingdoms are taken in the broad sense
// their histories cover, from the rise of their founders (孙吴's generals
// 周瑜 and 鲁肃 died before 孙权 took a title). The longest name a question
// holds wins, so 东汉末年 over 东汉.
var periods = []period{
	{"两汉之际", 8, 36, nil, ""},
	{"王莽末年", 17, 25, nil, ""},
	{"东汉末年", 184, 220, nil, "刘"},
	{"东汉末", 184, 220, nil, "刘"},
	{"汉末", 184, 220, nil, "刘"},
	{"东汉初", 25, 57, nil, "刘"},
	{"西汉末", -32, 8, nil, "刘"},
	{"秦末", -210, -202, nil, ""},
	{"汉初", -206, -157, nil, "刘"},
	{"楚汉", -206, -202, nil, ""},
	{"春秋", -770, -476, nil, ""},
	{"战国", -475, -221, nil, ""},
	{"先秦", -1046, -221, nil, ""},
	{"西汉", -206, 8, nil, "刘"},
	{"前汉", -206, 8, nil, "刘"},
	{"新莽", 9, 23, nil, "王"},
	{"东汉", 25, 220, nil, "刘"},
	{"后汉", 25, 220, nil, "刘"},
	{"三国", 190, 280, nil, ""},
	{"曹魏", 190, 266, []string{"曹操", "曹丕"}, "曹"},
	{"蜀汉", 194, 263, []string{"刘备", "刘禅"}, "刘"},
	{"孙吴", 190, 280, []string{"孙权", "孙策"}, "孙"},
	{"东吴", 190, 280, []string{"孙权", "孙策"}, "孙"},
}

// periodOf finds the first period a question names, longest name first.
func periodOf(q string) (period, bool) {
	best, found := period{}, false
	for _, p := range periods {
		if strings.Contains(q, p.name) && (!found || len(p.name) > len(best.name)) {
			best, found = p, true
		}
	}
	return best, found
}
