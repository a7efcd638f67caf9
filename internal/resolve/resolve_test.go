package resolve

import (
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/store"
)

func names(list ...store.NameRef) []store.NameRef {
	for i := range list {
		list[i].ID = int64(i + 1)
		if list[i].Type == "" {
			list[i].Type = "人物"
		}
	}
	return list
}

func find(r store.Resolution, name string) *store.ResolvedEntity {
	for i := range r.Entities {
		if r.Entities[i].Name == name {
			return &r.Entities[i]
		}
	}
	return nil
}

func TestDictionaryMergesAndKeepsProvenance(t *testing.T) {
	facts, problems := ParseDictionary(strings.NewReader("# 別名表\n諸葛亮：孔明，臥龍\n\n曹操:孟德,阿瞒\nbroken line\n"), "aliases.txt")
	if len(problems) != 1 || !strings.Contains(problems[0].Error(), "aliases.txt:5") {
		t.Fatalf("want one problem on line 5, got %v", problems)
	}
	if len(facts) != 4 || facts[0].Main != "诸葛亮" || facts[1].Alias != "卧龙" {
		t.Fatalf("facts not simplified or parsed: %+v", facts)
	}
	ns := names(store.NameRef{Name: "诸葛亮", Mentions: 5}, store.NameRef{Name: "孔明", Mentions: 9}, store.NameRef{Name: "曹操", Mentions: 3})
	r := Resolve(ns, facts)
	if len(r.Entities) != 2 {
		t.Fatalf("want 2 entities, got %+v", r.Entities)
	}
	e := find(r, "诸葛亮")
	if e == nil {
		t.Fatalf("dictionary main name should win over a more frequent alias: %+v", r.Entities)
	}
	if len(e.NameIDs) != 2 {
		t.Fatalf("孔明 should map to 诸葛亮: %+v", e)
	}
	var src string
	for _, a := range e.Aliases {
		if a.Name == "孔明" {
			src = a.Source
		}
	}
	if src != "dictionary:aliases.txt:2" {
		t.Fatalf("alias provenance = %q", src)
	}
}

func TestTextAliasMergesUnlessAmbiguous(t *testing.T) {
	ns := names(
		store.NameRef{Name: "吕蒙", Mentions: 4},
		store.NameRef{Name: "子明", Mentions: 2},
		store.NameRef{Name: "关羽", Mentions: 7},
		store.NameRef{Name: "云长", Mentions: 1},
		store.NameRef{Name: "某甲", Mentions: 1},
	)
	al := []store.AliasFact{
		{Main: "关羽", Alias: "云长", Kind: "字", Source: "text:a@0"},
		{Main: "吕蒙", Alias: "子明", Kind: "字", Source: "text:b@0"},
		{Main: "某甲", Alias: "子明", Kind: "字", Source: "text:c@0"},
	}
	r := Resolve(ns, al)
	if e := find(r, "关羽"); e == nil || len(e.NameIDs) != 2 {
		t.Fatalf("云长 should merge into 关羽: %+v", r.Entities)
	}
	if find(r, "子明") == nil {
		t.Fatalf("an alias claimed by two people must stay its own entity: %+v", r.Entities)
	}
	if e := find(r, "吕蒙"); e == nil || len(e.Aliases) != 1 || e.Aliases[0].Kind != "字" {
		t.Fatalf("吕蒙 should still list 子明 as its 字: %+v", e)
	}
}

func TestTypesNeverMerge(t *testing.T) {
	ns := names(store.NameRef{Name: "汉中", Type: "地点", Mentions: 3}, store.NameRef{Name: "汉中", Type: "人物", Mentions: 1})
	r := Resolve(ns, nil)
	if len(r.Entities) != 2 {
		t.Fatalf("same name, different types: want 2 entities, got %d", len(r.Entities))
	}
}

func TestNormalisedSpellingsMerge(t *testing.T) {
	ns := names(store.NameRef{Name: "Zhuge Liang", Type: "person", Mentions: 3}, store.NameRef{Name: "zhuge liang", Type: "person", Mentions: 1},
		store.NameRef{Name: "諸葛亮", Mentions: 1}, store.NameRef{Name: "诸葛亮", Mentions: 2})
	r := Resolve(ns, nil)
	if len(r.Entities) != 2 {
		t.Fatalf("want 2 entities, got %+v", r.Entities)
	}
	if e := find(r, "Zhuge Liang"); e == nil || len(e.NameIDs) != 2 {
		t.Fatalf("case variants should merge: %+v", r.Entities)
	}
}

func FuzzParseDictionary(f *testing.F) {
	f.Add("曹操:孟德,阿瞒\n# c\n刘备：玄德、先主\n")
	f.Add(":::\n,,,\n\uFEFFa:b")
	f.Fuzz(func(t *testing.T, s string) {
		facts, _ := ParseDictionary(strings.NewReader(s), "f")
		for _, fa := range facts {
			if fa.Main == "" || fa.Alias == "" || fa.Main == fa.Alias {
				t.Fatalf("bad fact %+v", fa)
			}
		}
		Resolve(nil, facts)
	})
}

// An alias that names its owner only where it was read stays listed as
// his and merges no one else's name into him: a short form (晟, of 孙晟 in
// one document) and a posthumous name (壮侯, given to a dozen men).
func TestChapterAliasesDoNotMergeAcrossTheCorpus(t *testing.T) {
	for _, c := range []struct{ main, alias, kind string }{
		{"孙晟", "晟", "名"},
		{"张郃", "壮侯", "谥号"},
	} {
		ns := names(store.NameRef{Name: c.main, Mentions: 30}, store.NameRef{Name: c.alias, Mentions: 2})
		r := Resolve(ns, []store.AliasFact{{Main: c.main, Alias: c.alias, Kind: c.kind, Source: "text:a@3"}})
		if len(r.Entities) != 2 {
			t.Errorf("%s merged into %s corpus-wide: %+v", c.alias, c.main, r.Entities)
			continue
		}
		if e := find(r, c.main); e == nil || len(e.Aliases) != 1 || e.Aliases[0].Name != c.alias || e.Aliases[0].Kind != c.kind {
			t.Errorf("%s should stay listed as %s's %s: %+v", c.alias, c.main, c.kind, e)
		}
	}
	// A short form that only its alias sentence uses is safe to merge.
	ns := names(store.NameRef{Name: "孙晟", Mentions: 3}, store.NameRef{Name: "晟", Mentions: 0})
	r := Resolve(ns, []store.AliasFact{{Main: "孙晟", Alias: "晟", Kind: "名", Source: "text:a@3"}})
	if len(r.Entities) != 1 {
		t.Fatalf("an unmentioned short form should merge: %+v", r.Entities)
	}
}

func TestMergesJoinAndUndo(t *testing.T) {
	ns := names(store.NameRef{Name: "曹孟德", Mentions: 1}, store.NameRef{Name: "曹操", Mentions: 5}, store.NameRef{Name: "魏武", Mentions: 2})
	m := store.Merge{ID: 7, Type: "人物", Canonical: "曹操", Names: []string{"曹孟德", "魏武"}, Source: "llm:m"}
	r := Resolve(ns, nil, m)
	if len(r.Entities) != 1 || r.Entities[0].Name != "曹操" || len(r.Entities[0].Aliases) != 2 || r.Entities[0].Aliases[0].Source != "merge:7" {
		t.Fatalf("merge: %+v", r.Entities)
	}
	m.UndoneAt = "now"
	if r := Resolve(ns, nil, m); len(r.Entities) != 3 {
		t.Fatalf("an undone merge must separate the names again: %+v", r.Entities)
	}
}

// A 字 read in the text names its owner with the surname too (项籍 字羽:
// 项羽), and the more used of the two names the entity. Two people whose
// surname and 字 give one name keep it apart.
func TestCourtesyFullNameJoinsItsOwner(t *testing.T) {
	ns := names(
		store.NameRef{Name: "项籍", Mentions: 120}, store.NameRef{Name: "项羽", Mentions: 349}, store.NameRef{Name: "羽", Mentions: 40},
		store.NameRef{Name: "刘甲", Mentions: 5}, store.NameRef{Name: "刘乙", Mentions: 5}, store.NameRef{Name: "刘季", Mentions: 7},
		store.NameRef{Name: "诸葛亮", Mentions: 100}, store.NameRef{Name: "诸葛孔明", Mentions: 4},
	)
	facts := []store.AliasFact{
		{Main: "项籍", Alias: "羽", Kind: "字", Source: "text:a@0", DocID: 1},
		{Main: "刘甲", Alias: "季", Kind: "字", Source: "text:b@0", DocID: 2},
		{Main: "刘乙", Alias: "季", Kind: "字", Source: "text:c@0", DocID: 3},
		{Main: "诸葛亮", Alias: "孔明", Kind: "字", Source: "text:d@0", DocID: 4},
	}
	r := Resolve(ns, facts)
	xiang := find(r, "项羽")
	if xiang == nil || len(xiang.NameIDs) < 2 || xiang.NameIDs[0] != 1 || xiang.NameIDs[1] != 2 {
		t.Fatalf("项籍 and 项羽 not one entity named 项羽: %+v", r.Entities)
	}
	if find(r, "刘季") == nil || find(r, "刘甲") == nil || find(r, "刘乙") == nil {
		t.Errorf("刘季, claimed by two, merged: %+v", r.Entities)
	}
	e := find(r, "诸葛亮")
	if e == nil || len(e.NameIDs) != 2 {
		t.Fatalf("诸葛孔明 not joined to 诸葛亮: %+v", r.Entities)
	}
	// He is listed under it as a name, not as a second 字.
	kinds := map[string]string{}
	for _, a := range e.Aliases {
		kinds[a.Name] = a.Kind
	}
	if kinds["孔明"] != "字" || kinds["诸葛孔明"] != CourtesyFullName {
		t.Errorf("诸葛亮's aliases by kind: %v, want 孔明 字 and 诸葛孔明 %s", kinds, CourtesyFullName)
	}
}

// A 字 that is also a name the text gives a 字 of its own is another man's
// name: 蔡衍字孟喜 does not make 蔡衍 the 孟喜 who is 字长卿.
func TestCourtesyThatIsAnotherMansNameMergesNothing(t *testing.T) {
	ns := names(store.NameRef{Name: "蔡衍", Mentions: 6}, store.NameRef{Name: "孟喜", Mentions: 9}, store.NameRef{Name: "长卿", Mentions: 1})
	facts := []store.AliasFact{
		{Main: "蔡衍", Alias: "孟喜", Kind: "字", Source: "text:a@0", DocID: 1},
		{Main: "孟喜", Alias: "长卿", Kind: "字", Source: "text:b@0", DocID: 2},
	}
	r := Resolve(ns, facts)
	cai, meng := find(r, "蔡衍"), find(r, "孟喜")
	if cai == nil || meng == nil || len(cai.NameIDs) != 1 {
		t.Fatalf("蔡衍 and 孟喜 merged: %+v", r.Entities)
	}
	if len(meng.NameIDs) != 2 {
		t.Errorf("长卿 not joined to 孟喜: %+v", meng)
	}
	if len(cai.Aliases) != 1 || cai.Aliases[0].Name != "孟喜" || cai.Aliases[0].Kind != "字" {
		t.Errorf("蔡衍 should still list 孟喜 as his 字: %+v", cai)
	}
}

// A surname and 字 that spell another man's name, one the text gives a 字
// of his own, are that man: 李昙字云 does not make 李昙 the 李云 who is
// 字行祖.
func TestCourtesyFullNameThatIsAnotherMansNameMergesNothing(t *testing.T) {
	ns := names(store.NameRef{Name: "李昙", Mentions: 4}, store.NameRef{Name: "李云", Mentions: 9}, store.NameRef{Name: "行祖", Mentions: 1})
	facts := []store.AliasFact{
		{Main: "李昙", Alias: "云", Kind: "字", Source: "text:a@0", DocID: 1},
		{Main: "李云", Alias: "行祖", Kind: "字", Source: "text:b@0", DocID: 2},
	}
	r := Resolve(ns, facts)
	tan, yun := find(r, "李昙"), find(r, "李云")
	if tan == nil || yun == nil || len(tan.NameIDs) != 1 {
		t.Fatalf("李昙 and 李云 merged: %+v", r.Entities)
	}
	for _, a := range tan.Aliases {
		if a.Name == "李云" {
			t.Errorf("李昙 lists 李云, another man, as his name: %+v", tan.Aliases)
		}
	}
}

// A 字 the corpus names more often than its bearer is more often another
// man's name: 向长字子平 does not make 向长 the 子平 of 晋世家 and the rest,
// while 诸葛亮, named far more than 孔明, takes his 字 everywhere.
func TestCourtesyMoreNamedThanItsBearerMergesNothing(t *testing.T) {
	ns := names(store.NameRef{Name: "向长", Mentions: 4}, store.NameRef{Name: "子平", Mentions: 15},
		store.NameRef{Name: "诸葛亮", Mentions: 400}, store.NameRef{Name: "孔明", Mentions: 30})
	facts := []store.AliasFact{
		{Main: "向长", Alias: "子平", Kind: "字", Source: "text:a@0", DocID: 1},
		{Main: "诸葛亮", Alias: "孔明", Kind: "字", Source: "text:b@0", DocID: 2},
	}
	r := Resolve(ns, facts)
	xiang, ziping := find(r, "向长"), find(r, "子平")
	if xiang == nil || ziping == nil || len(xiang.NameIDs) != 1 {
		t.Fatalf("向长 and 子平 merged: %+v", r.Entities)
	}
	if len(xiang.Aliases) != 1 || xiang.Aliases[0].Name != "子平" || xiang.Aliases[0].Kind != "字" {
		t.Errorf("向长 should still list 子平 as his 字: %+v", xiang)
	}
	if zg := find(r, "诸葛亮"); zg == nil || len(zg.NameIDs) != 2 {
		t.Errorf("孔明 not joined to 诸葛亮: %+v", r.Entities)
	}
}
