package pipeline

import (
	"slices"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// doc builds a document to date, with one evidence sentence per sentence
// of the text and the people it names.
func doc(key, body string, people ...store.PersonMention) *store.DatedDoc {
	d := &store.DatedDoc{Key: key, Lang: text.Classical, Text: body, Norm: body, People: people}
	start := 0
	rs := []rune(body)
	for i, r := range rs {
		if r == '。' {
			d.Evidence = append(d.Evidence, store.Dated{Start: start, End: i + 1})
			start = i + 1
		}
	}
	return d
}

// person is a mention of name at the first place body has it.
func person(body, name string, nameID, entityID int64) store.PersonMention {
	at := len([]rune(body[:strings.Index(body, name)]))
	return store.PersonMention{NameID: nameID, EntityID: entityID, Name: name, Start: at, End: at + len([]rune(name))}
}

func TestPeopleInTheSentenceSettleASharedEra(t *testing.T) {
	// 建兴 was an era of 蜀汉 (223), of 孙吴 (252) and of others; a chapter
	// on 魏 says nothing of which, the person in the sentence does.
	body := "建兴五年，诸葛亮率诸军北驻汉中。"
	bare := doc("三国志/魏书/明帝纪/text.txt", body)
	dateDocument(bare, nil)
	if e := bare.Evidence[0]; e.Dated && e.Year != 227 {
		t.Fatalf("without people the era should stay open or read 227, got %d", e.Year)
	}
	withPerson := doc("三国志/魏书/明帝纪/text.txt", body, person(body, "诸葛亮", 1, 10))
	dateDocument(withPerson, map[int64]string{10: "蜀汉"})
	if e := withPerson.Evidence[0]; !e.Dated || e.Year != 227 {
		t.Fatalf("诸葛亮 is of 蜀汉, so 建兴五年 is 227: %+v", e)
	}
	// The same sentence about a person of 孙吴 reads the 孙吴 era.
	body2 := "建兴二年，孙峻杀诸葛恪。"
	wu := doc("三国志/魏书/三少帝纪/text.txt", body2, person(body2, "孙峻", 2, 20))
	dateDocument(wu, map[int64]string{20: "孙吴"})
	if e := wu.Evidence[0]; !e.Dated || e.Year != 253 {
		t.Fatalf("孙峻 is of 孙吴, so 建兴二年 is 253: %+v", e)
	}
}

func TestReignYearsTheTableCannotPlaceLinkToTheRuler(t *testing.T) {
	body := "悼公三年，晏婴使于晋。晏婴还，言于公。秦始皇二十六年，初并天下。景公二十九年，晏婴卒。"
	d := doc("史记/三十世家/齐太公世家/text.txt", body,
		store.PersonMention{NameID: 7, EntityID: 70, Name: "齐悼公", Start: 0, End: 2},
		person(body, "晏婴", 8, 80))
	dateDocument(d, nil)
	e := d.Evidence
	if e[0].Dated || e[0].Reign != "悼公" || e[0].ReignName != 7 || e[0].ReignYear != 3 || e[0].Precision != PrecisionReign || e[0].Expr != "悼公三年" {
		t.Fatalf("悼公三年 stays a year of 悼公's reign, linked to his name: %+v", e[0])
	}
	if e[1].Dated || e[1].Reign != "悼公" || e[1].ReignYear != 3 || e[1].Precision != PrecisionReignContext {
		t.Fatalf("the next sentence stands in the same reign year: %+v", e[1])
	}
	if !e[2].Dated || e[2].Year != -220 || e[2].Reign != "" {
		t.Fatalf("a year the table places ends the reign in force: %+v", e[2])
	}
	// 景公 is a lord of several states; in the chapter on 齐 he is 齐景公,
	// whose accession the table knows.
	if !e[3].Dated || e[3].Year != -518 {
		t.Fatalf("景公二十九年 in the chapter on 齐 is 519 BCE: %+v", e[3])
	}
}

func TestLinkRulerPrefersTheChaptersState(t *testing.T) {
	body := "晋悼公、齐悼公皆在。悼公三年。"
	d := doc("史记/三十世家/齐太公世家/text.txt", body,
		store.PersonMention{NameID: 3, Name: "晋悼公", Start: 0, End: 3},
		store.PersonMention{NameID: 4, Name: "齐悼公", Start: 4, End: 7})
	dateDocument(d, nil)
	if got := d.Evidence[1]; got.ReignName != 4 {
		t.Fatalf("in the chapter on 齐, 悼公 is 齐悼公: %+v", got)
	}
	if got := homeOf("", "史记/三十世家/魏世家/text.txt"); got != "魏" {
		t.Fatalf("史记's 魏世家 is about the state of 魏, got %q", got)
	}
}

func TestPersonHomesNeedHalfTheMentions(t *testing.T) {
	homes := personHomes([]store.EntityDoc{
		{EntityID: 1, Key: "三国志/蜀书/诸葛亮传/text.txt", Mentions: 30},
		{EntityID: 1, Key: "三国志/魏书/明帝纪/text.txt", Mentions: 10},
		{EntityID: 1, Key: "三国志/吴书/吴主传/text.txt", Mentions: 5},
		{EntityID: 2, Key: "三国志/蜀书/后主传/text.txt", Mentions: 3},
		{EntityID: 2, Key: "三国志/魏书/武帝纪/text.txt", Mentions: 3},
		{EntityID: 2, Key: "三国志/吴书/吴主传/text.txt", Mentions: 3},
	})
	if homes[1] != "蜀汉" {
		t.Fatalf("诸葛亮 belongs to 蜀汉: %q", homes[1])
	}
	if h, ok := homes[2]; ok {
		t.Fatalf("a person spread evenly has no home, got %q", h)
	}
}

// Annals that open without naming a count date their bare years by their
// ruler's: 光武帝纪下 continues 建武, and its 中元 is 建武中元.
func TestAnnalsCountTheirRulersYears(t *testing.T) {
	body := "六年春正月丙辰，改舂陵乡为章陵县。中元元年春正月，东海王彊来朝。二年二月戊戌，帝崩于南宫前殿。"
	d := doc("后汉书/本纪/光武帝纪下/text.txt", body)
	d.Title = "光武帝纪下"
	dateDocument(d, nil)
	var years []int
	for _, e := range d.Evidence {
		years = append(years, e.Year)
		if !e.Dated {
			t.Fatalf("undated: %+v", e)
		}
	}
	if !slices.Equal(years, []int{30, 56, 57}) {
		t.Fatalf("建武六年, 建武中元元年 and 二年 are 30, 56, 57: got %v", years)
	}
	d = doc("后汉书/本纪/光武帝纪下/text.txt", body) // no title: nothing to go by
	dateDocument(d, nil)
	if d.Evidence[0].Dated {
		t.Fatalf("a bare 六年 in a chapter of unknown ruler: %+v", d.Evidence[0])
	}
}

// A paragraph that names its year keeps it to its end, however long; the
// next paragraph keeps it only for a few sentences.
func TestAYearHoldsToTheEndOfItsParagraph(t *testing.T) {
	body := "建安五年，曹公东征。\n二十四年，先主为汉中王。" + strings.Repeat("羽攻樊。", contextReach+3) + "权遣将逆击羽，斩羽于临沮。\n" +
		strings.Repeat("飞犹不悛。", contextReach+3) + "其帐下将杀飞。"
	d := doc("三国志/蜀书/关张马黄赵传/text.txt", body)
	dateDocument(d, nil)
	var killing, later *store.Dated
	for i := range d.Evidence {
		switch s := string([]rune(body)[d.Evidence[i].Start:d.Evidence[i].End]); {
		case strings.HasPrefix(s, "权遣将"):
			killing = &d.Evidence[i]
		case strings.HasPrefix(s, "其帐下将"):
			later = &d.Evidence[i]
		}
	}
	if killing == nil || !killing.Dated || killing.Year != 219 || killing.Precision != PrecisionContext {
		t.Errorf("the killing, in the paragraph of 二十四年, should be dated 219 from context: %+v", killing)
	}
	if later == nil || later.Dated {
		t.Errorf("a sentence far into the next paragraph should stay undated: %+v", later)
	}
}

// Words that move time on by an unnamed stretch end the year in force.
func TestUnnamedStretchesEndTheYearInForce(t *testing.T) {
	body := "建安二十四年，先主为汉中王。羽攻樊，可遣人蹑其后。久之，吕壹为中书。追谥超曰威侯。"
	d := doc("三国志/蜀书/关张马黄赵传/text.txt", body)
	dateDocument(d, nil)
	if e := d.Evidence[1]; !e.Dated || e.Year != 219 {
		t.Errorf("羽攻樊 follows 二十四年 in its paragraph: %+v", e)
	}
	for _, e := range d.Evidence[2:] {
		if e.Dated {
			t.Errorf("after 久之 nothing is dated by the year in force: %+v", e)
		}
	}
}

// A sentence that counts from the year in force and names its year (是岁
// 建安元年也) is of the year it names, not of an old one in force: 先主传
// names 元狩六年 (117 BCE) five paragraphs before.
func TestANamedYearOutranksTheYearInForce(t *testing.T) {
	body := "胜子贞，元狩六年封涿县陆城亭侯。曹公表先主为镇东将军，封宜城亭侯，是岁建安元年也。明年，先主与术相持。"
	d := doc("三国志/蜀书/先主传/text.txt", body)
	dateDocument(d, nil)
	if e := d.Evidence[1]; !e.Dated || e.Year != 196 || e.Precision == PrecisionContext {
		t.Errorf("是岁建安元年也 is 196: %+v", e)
	}
	if e := d.Evidence[2]; !e.Dated || e.Year != 197 {
		t.Errorf("明年 counts from 196: %+v", e)
	}
}

// Annals date what they tell between two sentences of the same year with
// that year, however far apart; a biography does not, nor do annals when
// the two years differ or time moves on unnamed between them.
func TestAnnalsDateWhatLiesBetweenTwoMonthsOfAYear(t *testing.T) {
	feast := strings.Repeat("项伯夜驰见张良。", contextReach+2) + "\n沛公旦日从百余骑见羽鸿门。" + strings.Repeat("羽因留沛公饮。", contextReach+2)
	for _, c := range []struct {
		title, body string
		year        int // of the feast; 0: undated
	}{
		{"高帝纪上", "元年冬十月，沛公至霸上。十二月，项羽至戏下。\n" + feast + "\n春正月，尊怀王为义帝。", -205},
		{"张陈王周传", "元年冬十月，沛公至霸上。十二月，项羽至戏下。\n" + feast + "\n春正月，尊怀王为义帝。", 0},
		{"高帝纪上", "元年冬十月，沛公至霸上。十二月，项羽至戏下。\n" + feast + "\n二年冬十月，项羽使布杀义帝。", 0},
		{"高帝纪上", "元年冬十月，沛公至霸上。十二月，项羽至戏下。\n" + feast + "久之，羽东归。\n春正月，尊怀王为义帝。", 0},
	} {
		d := doc("汉书/纪/"+c.title+"/text.txt", c.body)
		d.Title = c.title
		dateDocument(d, nil)
		for _, e := range d.Evidence {
			if !strings.Contains(string([]rune(c.body)[e.Start:e.End]), "鸿门") {
				continue
			}
			if got := map[bool]int{true: e.Year}[e.Dated]; got != c.year {
				t.Errorf("%s, %q: the feast is dated %d, want %d (%+v)", c.title, c.body[len(c.body)-30:], got, c.year, e)
			}
		}
	}
}
