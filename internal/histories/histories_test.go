package histories

import "testing"

func TestResolveByBookAndDynasty(t *testing.T) {
	for _, c := range []struct{ title, path, want string }{
		{"太祖", "三国志/魏书/荀彧攸贾诩传/text.txt", "曹操"},
		{"太祖", "汉书/志/郊祀志下/text.txt", "刘邦"},
		{"太祖", "史记/十二本纪/孝文本纪/text.txt", "刘邦"},
		{"高祖", "三国志/魏书/辛毗杨阜高堂隆传/text.txt", "刘邦"},
		{"世祖", "三国志/蜀书/杜周杜许孟来尹李谯郤/text.txt", "刘秀"},
		{"世祖", "后汉书/列传/马援列传/text.txt", "刘秀"},
		{"光武皇帝", "后汉书/列传/马援列传/text.txt", "刘秀"},
		{"先主", "三国志/蜀书/诸葛亮传/text.txt", "刘备"},
		{"曹公", "三国志/吴书/吴主传/text.txt", "曹操"},
		{"文帝", "汉书/传/张冯汲郑传/text.txt", "刘恒"},
		{"文帝", "三国志/魏书/韩崔高孙王传/text.txt", "曹丕"},
		{"孝武皇帝", "汉书/传/卫青霍去病传/text.txt", "刘彻"},
		{"汉武帝", "三国志/魏书/钟繇华歆王朗传/text.txt", "刘彻"},
		{"孝武", "三国志/魏书/文帝纪/text.txt", "刘彻"}, // 孝 names 汉's emperors, not 魏's 武帝
		{"明帝", "后汉书/本纪/皇后纪上/text.txt", "刘庄"},
		{"明帝", "三国志/魏书/诸夏侯曹传/text.txt", "曹叡"},
		{"项王", "史记/十二本纪/高祖本纪/text.txt", "项羽"},
		{"沛公", "汉书/传/张陈王周传/text.txt", "刘邦"},
		{"宣王", "史记/十二本纪/周本纪/text.txt", "姬静"},
		{"宣王", "三国志/魏书/少帝纪/text.txt", "司马懿"},
	} {
		got, ok := Resolve(c.title, c.path)
		if !ok || got.Person != c.want {
			t.Errorf("%s in %s: got %+v (%v), want %s", c.title, c.path, got, ok, c.want)
		}
	}
}

func TestResolveLeavesOthersAlone(t *testing.T) {
	for _, c := range []struct{ title, path string }{
		{"宣王", "史记/三十世家/田敬仲完世家/text.txt"}, // 齐宣王, not 周's
		{"太祖", "notes/diary.txt"},         // outside the histories
		{"诸葛亮", "三国志/蜀书/诸葛亮传/text.txt"},   // a name, not a title
		{"帝", "三国志/魏书/文帝纪/text.txt"},      // one character says nothing
	} {
		if got, ok := Resolve(c.title, c.path); ok {
			t.Errorf("%s in %s: want no one, got %+v", c.title, c.path, got)
		}
	}
}

func TestResolveGivenOnlyInTheOwnDynasty(t *testing.T) {
	if got, ok := ResolveGiven("权", "三国志/吴书/周瑜鲁肃吕蒙传/text.txt"); !ok || got.Person != "孙权" {
		t.Fatalf("权 in 吴书: got %+v", got)
	}
	if got, ok := ResolveGiven("亮", "三国志/蜀书/先主传/text.txt"); ok {
		t.Fatalf("亮 in 蜀书 is not 吴's 孙亮: got %+v", got)
	}
	if got, ok := ResolveGiven("景", "三国志/吴书/吴主传/text.txt"); ok {
		t.Fatalf("no 孙吴 sovereign is named 景: got %+v", got)
	}
}

func TestHome(t *testing.T) {
	for path, want := range map[string]string{
		"史记/三十世家/魏世家/text.txt":   "魏",
		"史记/七十列传/淮阴侯列传/text.txt": "",
		"后汉书/本纪/光武帝纪上/text.txt":  "东汉",
		"汉书/纪/高帝纪上/text.txt":     "西汉",
		"三国志/吴书/吴主传/text.txt":    "孙吴",
	} {
		if got := Home(path); got != want {
			t.Errorf("Home(%s) = %q, want %q", path, got, want)
		}
	}
}

func TestTells(t *testing.T) {
	for _, c := range []struct {
		path, dynasty string
		want          bool
	}{
		{"史记/十二本纪/项羽本纪/text.txt", "秦", true},
		{"汉书/传/陈胜项籍传/text.txt", "楚", true},
		{"后汉书/本纪/光武帝纪上/text.txt", "秦", false},
		{"三国志/魏书/武帝纪/text.txt", "东汉", true},
		{"汉书/纪/高帝纪上/text.txt", "东汉", false},
		{"史记/三十世家/魏世家/text.txt", "魏", true},
		{"my/notes/text.txt", "秦", true},
	} {
		if got := Tells(c.path, c.dynasty); got != c.want {
			t.Errorf("Tells(%s, %s) = %v, want %v", c.path, c.dynasty, got, c.want)
		}
	}
}

func TestTableIsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range append(Sovereigns(), table().consorts...) {
		if (len([]rune(s.Person)) < 2 && s.Person != shared) || len(s.Titles) == 0 {
			t.Errorf("bad row %+v", s)
		}
		for _, title := range s.Titles {
			k := s.Dynasty + "/" + title
			if seen[k] {
				t.Errorf("%s names two sovereigns of %s", title, s.Dynasty)
			}
			seen[k] = true
		}
	}
}

func TestAnnals(t *testing.T) {
	for _, c := range []struct{ title, path, want string }{
		{"武帝纪", "汉书/纪/武帝纪", "刘彻"},
		{"武帝纪", "三国志/魏书/武帝纪", "曹操"},
		{"高帝纪下", "汉书/纪/高帝纪下", "刘邦"},
		{"光武帝纪下", "后汉书/本纪/光武帝纪下", "刘秀"},
		{"显宗孝明帝纪", "后汉书/本纪/显宗孝明帝纪", "刘庄"},
		{"孝景本纪", "史记/十二本纪/孝景本纪", "刘启"},
		{"孝和孝殇帝纪", "后汉书/本纪/孝和孝殇帝纪", ""},
		{"皇后纪上", "后汉书/本纪/皇后纪上", ""},
		{"诸葛亮传", "三国志/蜀书/诸葛亮传", ""},
	} {
		s, ok := Annals(c.title, c.path)
		if s.Person != c.want || ok != (c.want != "") {
			t.Errorf("Annals(%s, %s) = %q %v, want %q", c.title, c.path, s.Person, ok, c.want)
		}
	}
}

// An opening's native place is the clause before 人也, whole, with 犍为
// (a commandery) kept though 为 ends other clauses.
func TestNativePlaceIn(t *testing.T) {
	for sentence, want := range map[string]string{
		"诸葛亮字孔明，琅邪阳都人也。": "琅邪阳都",
		"张翼字伯恭，犍为武阳人也。":  "犍为武阳",
		"匡衡字稚圭，东海承人也。":   "东海承",
		"房凤字子元，不其人也。":    "不其",
		"其先本齐人也。":        "齐",
		"时人以为贤人也。":       "",
	} {
		got, ok := NativePlaceIn(sentence)
		if got != want || ok != (want != "") {
			t.Errorf("%s: %q %v, want %q", sentence, got, ok, want)
		}
	}
}

// Consorts are found by the forms the histories call them by, in the
// chapter's dynasty first; a form two consorts of a dynasty share names no
// one there, and is not looked for in the dynasties after it.
func TestConsorts(t *testing.T) {
	for _, c := range []struct{ title, path, want string }{
		{"卞太后", "三国志/魏书/后妃传", "武宣卞皇后"},
		{"太皇卞太后", "三国志/魏书/后妃传", "武宣卞皇后"},
		{"邓太后", "后汉书/本纪/孝安帝纪", "邓绥"},
		{"光烈阴皇后", "后汉书/本纪/皇后纪上", "阴丽华"},
		{"窦太后", "汉书/传/窦田灌韩传", "孝文窦皇后"},
		{"窦太后", "后汉书/列传/窦融列传", ""}, // 章德 or 桓思: not 西汉's
		{"王太后", "汉书/传/元后传", ""},
		{"郭太后", "三国志/魏书/三少帝纪", ""},
		{"郭皇后", "后汉书/本纪/光武帝纪上", "郭圣通"},
		{"吕后", "史记/十二本纪/吕太后本纪", "吕雉"},
	} {
		got, ok := Resolve(c.title, c.path)
		if got.Person != c.want || ok != (c.want != "") {
			t.Errorf("Resolve(%s, %s) = %q %v, want %q", c.title, c.path, got.Person, ok, c.want)
		}
	}
	// A consort is no sovereign: no annals are hers, and her given name
	// names no one bare.
	for _, s := range Sovereigns() {
		if s.Person == "阴丽华" {
			t.Error("阴丽华 listed among sovereigns")
		}
	}
	if _, ok := ResolveGiven("姬", "后汉书/本纪/皇后纪下"); ok {
		t.Error("阎姬's given name resolves bare")
	}
}
