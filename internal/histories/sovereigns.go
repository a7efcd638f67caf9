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
西汉 吕雉 吕后 高后 吕太后 高皇后 吕皇后
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

// consortTable holds, in the same form, the consorts and mothers of
// sovereigns whose chapters 汉书·外戚传, 后汉书·皇后纪 and 三国志's
// chapters of consorts open, with the forms the histories call them by
// (卞太后, 太皇卞太后, 邓太后). A consort is named by surname and given name
// where her chapter gives it (光烈阴皇后讳丽华: 阴丽华), else by the name
// her chapter opens with. A form two consorts of one dynasty share is
// listed under "-": 王太后 and 许皇后 of 西汉, 窦太后 and 邓皇后 of 东汉,
// 郭太后 of 曹魏 are each more than one woman, whom only the date tells
// apart, so the form names no one there, nor in the dynasties searched
// after it (a 窦太后 in 后汉书 is not 西汉's).
const consortTable = `
西汉 - 王皇后 王太后 王后 许皇后 许后 许太后 薄后
东汉 - 窦太后 窦皇后 窦后 邓皇后 邓后 梁皇后 梁后 阴皇后 阴后
曹魏 - 郭皇后 郭后 郭太后
蜀汉 - 张皇后 张后
西汉 薄姬 薄太后 高祖薄姬 薄夫人
西汉 孝惠张皇后 张皇后 孝惠皇后
西汉 孝文窦皇后 窦皇后 窦太后 窦后 窦太皇太后 孝文窦太后
西汉 孝景薄皇后 薄皇后
西汉 孝景王皇后 孝景皇后
西汉 孝武陈皇后 陈皇后 陈后
西汉 卫子夫 孝武卫皇后 卫皇后 卫后 卫思后 卫夫人
西汉 孝武李夫人 李夫人
西汉 孝武钩弋赵婕妤 钩弋夫人 钩弋婕妤 赵婕妤 钩弋赵婕妤
西汉 孝昭上官皇后 上官皇后 上官太后 上官太皇太后
西汉 许平君 孝宣许皇后 恭哀皇后 恭哀许皇后
西汉 霍成君 孝宣霍皇后 霍皇后 霍后
西汉 孝宣王皇后 邛成太后 邛成王皇后
西汉 王政君 孝元王皇后 孝元皇后 元后 孝元太后
西汉 孝成许皇后 许废后
西汉 赵飞燕 孝成赵皇后 赵皇后 赵后 赵太后 飞燕
西汉 孝成班婕妤 班婕妤 班倢伃
西汉 孝元傅昭仪 傅昭仪 傅太后 定陶傅太后 傅太皇太后
西汉 孝元冯昭仪 冯昭仪 冯太后 中山冯太后
西汉 定陶丁姬 丁姬 丁太后 丁后
西汉 孝哀傅皇后 傅皇后
西汉 孝平王皇后 黄皇室主
东汉 郭圣通 光武郭皇后 郭皇后 郭后 郭太后
东汉 阴丽华 光烈阴皇后 光烈皇后 阴太后 光烈阴后
东汉 明德马皇后 明德皇后 马皇后 马后 马太后 明德太后 明德马后
东汉 章德窦皇后 章德皇后
东汉 和帝阴皇后
东汉 邓绥 和熹邓皇后 和熹皇后 邓太后 和熹太后 和熹邓后
东汉 阎姬 安思阎皇后 安思皇后 阎皇后 阎后 阎太后
东汉 梁妠 顺烈梁皇后 顺烈皇后 梁太后
东汉 郾明 孝崇郾皇后 孝崇皇后 郾皇后
东汉 梁女莹 懿献梁皇后 懿献皇后
东汉 邓猛女 桓帝邓皇后
东汉 窦妙 桓思窦皇后 桓思皇后
东汉 孝仁董皇后 董太后 孝仁皇后 永乐太后 董后
东汉 灵帝宋皇后 宋皇后 宋后
东汉 灵思何皇后 灵思皇后 何皇后 何后 何太后
东汉 伏寿 献帝伏皇后 伏皇后 伏后
东汉 献穆曹皇后 献穆皇后 曹皇后
曹魏 武宣卞皇后 卞皇后 卞后 卞太后 太皇卞太后 卞太皇太后 武宣皇后 武宣卞后 卞夫人
曹魏 文昭甄皇后 甄皇后 甄后 文昭皇后 甄夫人
曹魏 文德郭皇后 文德皇后
曹魏 明悼毛皇后 毛皇后 毛后 明悼皇后
曹魏 明元郭皇后 明元皇后
蜀汉 甘皇后 先主甘皇后 甘夫人 昭烈皇后
蜀汉 穆皇后 先主穆皇后 吴皇后 穆皇太后
蜀汉 敬哀皇后 后主敬哀皇后
`

// Sovereigns lists the table, in its order.
func Sovereigns() []Sovereign { return table().list }

type tables struct {
	list     []Sovereign
	consorts []Sovereign
	byTitle  map[string]string // dynasty \x00 title → person
	byGiven  map[string]string // dynasty \x00 one-character given name → person
}

var table = sync.OnceValue(func() *tables {
	t := &tables{byTitle: map[string]string{}, byGiven: map[string]string{}}
	given := map[string]int{}
	rows := func(table string) []Sovereign {
		var out []Sovereign
		for _, line := range strings.Split(table, "\n") {
			if f := strings.Fields(line); len(f) >= 3 {
				out = append(out, Sovereign{Dynasty: f[0], Person: f[1], Titles: f[2:]})
			}
		}
		return out
	}
	t.list = rows(sovereignTable)
	t.consorts = rows(consortTable)
	for _, s := range append(t.list[:len(t.list):len(t.list)], t.consorts...) {
		for _, title := range s.Titles {
			k := s.Dynasty + "\x00" + title
			if _, dup := t.byTitle[k]; !dup {
				t.byTitle[k] = s.Person
			}
		}
	}
	for _, s := range t.list {
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
