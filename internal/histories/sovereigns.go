package histories

import (
	"strings"
	"sync"
)

// sovereignTable holds, a line each, a dynasty, a sovereign's personal name
// and the titles the histories call him by. Only titles that name him alone
// within his dynasty are listed: 曹丕's temple name 高祖 is left out, since
// 三国志 writes 高祖 for 刘邦; 怀王 is left out of 楚, since 史记 also has
// the 怀王 of the warring states; a 王 of 周 is listed, and 周 is searched
// only in 周本纪 or after 周 in the title (see spans). Facts from the
// histories themselves and the standard chronologies.
const sovereignTable = `
周 姬昌 文王 西伯 西伯昌
周 姬发 武王
周 姬诵 成王
周 姬钊 康王
周 姬瑕 昭王
周 姬满 穆王
周 姬胡 厉王
周 姬静 宣王
周 姬宫湦 幽王
周 姬宜臼 平王
周 姬林 桓王
周 姬阆 惠王
周 姬郑 襄王
周 姬泄心 灵王
周 姬贵 景王
周 姬匄 敬王
周 姬午 威烈王
周 姬扁 显王
周 姬延 赧王
秦 嬴政 始皇 始皇帝 秦始皇 秦始皇帝 秦王政
秦 胡亥 二世 二世皇帝 秦二世
秦 子婴 秦王子婴
楚 项羽 项王 西楚霸王 霸王
楚 熊心 义帝
西汉 刘邦 高祖 高帝 高皇帝 太祖 太祖高皇帝 汉王 沛公 刘季 高祖皇帝
西汉 刘盈 惠帝
西汉 吕雉 吕后 高后 吕太后
西汉 刘恒 文帝 太宗
西汉 刘启 景帝
西汉 刘彻 武帝 世宗
西汉 刘弗陵 昭帝
西汉 刘询 宣帝 中宗
西汉 刘奭 元帝 高宗
西汉 刘骜 成帝 统宗
西汉 刘欣 哀帝
西汉 刘衎 平帝 元宗
西汉 刘婴 孺子婴
西汉 刘玄 更始 更始帝
新 王莽 安汉公 假皇帝 新皇帝
东汉 刘秀 光武 光武帝 世祖 世祖光武皇帝
东汉 刘庄 明帝 显宗 显宗孝明皇帝
东汉 刘炟 章帝 肃宗 肃宗孝章皇帝
东汉 刘肇 和帝 穆宗
东汉 刘隆 殇帝
东汉 刘祜 安帝 恭宗
东汉 刘保 顺帝 敬宗
东汉 刘炳 冲帝
东汉 刘缵 质帝
东汉 刘志 桓帝 威宗
东汉 刘宏 灵帝
东汉 刘辩 弘农王
东汉 刘协 献帝 山阳公
曹魏 曹操 太祖 武帝 太祖武皇帝 魏武 曹公 魏公 魏王
曹魏 曹丕 文帝
曹魏 曹叡 明帝 烈祖
曹魏 曹芳 齐王 邵陵厉公
曹魏 曹髦 高贵乡公
曹魏 曹奂 陈留王 元帝
蜀汉 刘备 先主 昭烈帝 汉中王 刘豫州
蜀汉 刘禅 后主 安乐公
孙吴 孙坚 武烈皇帝 孙破虏 破虏
孙吴 孙策 长沙桓王 孙讨逆 讨逆
孙吴 孙权 吴主 大帝 太祖 至尊 孙讨虏 孙将军
孙吴 孙亮 会稽王
孙吴 孙休 景帝
孙吴 孙皓 归命侯 乌程侯
西晋 司马懿 宣王 宣帝 晋宣王 司马宣王 宣皇帝
西晋 司马师 景王 晋景王 司马景王 世宗
西晋 司马昭 文王 晋文王 司马文王 晋王 太祖
西晋 司马炎 晋武帝 晋帝
`

// Sovereigns lists the table, in its order.
func Sovereigns() []Sovereign { return table().list }

type tables struct {
	list    []Sovereign
	byTitle map[string]string // dynasty \x00 title → person
	byGiven map[string]string // dynasty \x00 one-character given name → person
}

var table = sync.OnceValue(func() *tables {
	t := &tables{byTitle: map[string]string{}, byGiven: map[string]string{}}
	given := map[string]int{}
	for _, line := range strings.Split(sovereignTable, "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		s := Sovereign{Dynasty: f[0], Person: f[1], Titles: f[2:]}
		t.list = append(t.list, s)
		for _, title := range s.Titles {
			k := s.Dynasty + "\x00" + title
			if _, dup := t.byTitle[k]; !dup {
				t.byTitle[k] = s.Person
			}
		}
		if g := []rune(strings.TrimPrefix(s.Person, Surname(s.Person))); len(g) == 1 {
			k := s.Dynasty + "\x00" + string(g)
			t.byGiven[k] = s.Person
			given[k]++
		}
	}
	for k, n := range given {
		if n > 1 {
			delete(t.byGiven, k) // two sovereigns of one dynasty share it
		}
	}
	return t
})

func byTitle() map[string]string { return table().byTitle }
