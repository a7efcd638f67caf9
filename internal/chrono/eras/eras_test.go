package eras

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"
)

func find1(t *testing.T, name, dynasty string) Era {
	t.Helper()
	for _, e := range Lookup(name) {
		if e.Dynasty == dynasty {
			return e
		}
	}
	t.Fatalf("Lookup(%s): no era of %s in %v", name, dynasty, Lookup(name))
	return Era{}
}

func TestLookupKnownEras(t *testing.T) {
	for _, c := range []struct {
		name, dynasty string
		start, end    int
	}{
		{"建兴", "蜀汉", 223, 237},
		{"建興", "蜀汉", 223, 237},
		{"建兴", "孙吴", 252, 253},
		{"建兴", "西晋", 313, 316},
		{"延熙", "蜀汉", 238, 257},
		{"黄初", "曹魏", 220, 226},
		{"黃初", "曹魏", 220, 226},
		{"建安", "东汉", 196, 220},
		{"贞观", "唐", 627, 649},
		{"正观", "唐", 627, 649},
		{"乾封", "唐", 666, 668},
		{"干封", "唐", 666, 668},
		{"开元", "唐", 713, 741},
		{"開元", "唐", 713, 741},
		{"太初", "西汉", -103, -100},
		{"建元", "西汉", -139, -134},
		{"元狩", "西汉", -121, -116},
		{"乾隆", "清", 1736, 1795},
		{"干隆", "清", 1736, 1795},
		// 成祖 abolished 建文 and counted 洪武 on to 35 (1402); DILA follows.
		{"洪武", "明", 1368, 1402},
	} {
		e := find1(t, c.name, c.dynasty)
		if e.Start != c.start || e.End != c.end {
			t.Errorf("%s (%s) = %d–%d, want %d–%d", c.name, c.dynasty, e.Start, e.End, c.start, c.end)
		}
	}
	if y := find1(t, "建兴", "蜀汉").Year(12); y != 234 {
		t.Errorf("建兴十二年 = %d, want 234", y)
	}
}

func TestLookupShared(t *testing.T) {
	got := Lookup("至元")
	var yuan []string
	for _, e := range got {
		if e.Dynasty == "元" {
			yuan = append(yuan, fmt.Sprintf("%s %d–%d", e.Emperor, e.Start, e.End))
		}
	}
	// Khubilai's 至元 starts under the name 蒙古 and is one era.
	if want := []string{"世祖 1264–1294", "顺帝 1335–1340"}; !slices.Equal(yuan, want) {
		t.Errorf("至元 of 元: %v, want %v", yuan, want)
	}
	all := Lookup("建兴")
	if len(all) < 5 {
		t.Fatalf("建兴: %d eras, want at least 5", len(all))
	}
	if !slices.IsSortedFunc(all, func(a, b Era) int { return a.Start - b.Start }) {
		t.Error("建兴 not sorted by start")
	}
	if all[0].Dynasty != "蜀汉" {
		t.Errorf("first 建兴 is %s, want 蜀汉", all[0].Dynasty)
	}
	if len(Lookup("上元")) < 2 {
		t.Errorf("上元: %v", Lookup("上元"))
	}
	if Lookup("不是年号") != nil || Lookup("") != nil {
		t.Error("unknown name found")
	}
}

func TestMergedContinuation(t *testing.T) {
	// 贞观 23 is split between 太宗 and 高宗 in DILA; it is one era here.
	n := 0
	for _, e := range Lookup("贞观") {
		if e.Dynasty == "唐" {
			n++
			if e.Emperor != "太宗" || e.FirstYear != 1 {
				t.Errorf("贞观: %+v", e)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d 贞观 eras of 唐, want 1", n)
	}
	// 前凉 took up 西晋's 建兴 count; the part after 和平 starts at 43.
	for _, e := range Lookup("建兴") {
		if e.Dynasty == "前凉" && e.FirstYear != 1 && (e.FirstYear != 43 || e.Start != 313) {
			t.Errorf("前凉 建兴: %+v", e)
		}
	}
}

func TestTableSane(t *testing.T) {
	all := All()
	if len(all) < 700 {
		t.Fatalf("%d eras", len(all))
	}
	for _, e := range all {
		if e.Name == "" || e.Trad == "" || e.Dynasty == "" || e.Emperor == "" {
			t.Errorf("incomplete: %+v", e)
		}
		if e.FirstYear < 1 || e.End < e.Start || e.EndJDN < e.StartJDN || e.End-e.Start > 70 {
			t.Errorf("bad span: %+v", e)
		}
		if got := Lookup(e.Trad); !slices.ContainsFunc(got, func(x Era) bool { return x.StartJDN == e.StartJDN }) {
			t.Errorf("Lookup(%s) misses %+v", e.Trad, e)
		}
	}
	all[0].Name = "changed"
	if All()[0].Name == "changed" {
		t.Error("All shares the table")
	}
	if len(ByDynasty("蜀汉")) != 5 || len(ByDynasty("蜀漢")) != 5 {
		t.Errorf("蜀汉: %v", ByDynasty("蜀汉"))
	}
}

func TestRulers(t *testing.T) {
	for _, c := range []struct {
		name, dynasty string
		accession     int
		reckonings    map[string]int
	}{
		{"秦王政", "秦", -245, nil},
		{"秦始皇", "秦", -245, nil},
		{"二世", "秦", -208, nil},
		{"汉高祖", "西汉", -205, nil},
		{"孝惠", "西汉", -193, nil},
		{"吕后", "西汉", -186, nil},
		{"高后", "西汉", -186, nil},
		{"孝文", "西汉", -178, map[string]int{"前元": -178, "后元": -162}},
		{"文帝", "西汉", -178, map[string]int{"前元": -178, "后元": -162}},
		{"孝景", "西汉", -155, map[string]int{"前元": -155, "中元": -148, "后元": -142}},
		{"武帝", "西汉", -139, map[string]int{"后元": -87}},
		{"昭帝", "西汉", -85, nil},
		{"隐公", "鲁", -721, nil},
		{"哀公", "鲁", -493, nil},
		{"后主", "蜀汉", 223, nil},
		{"後主", "蜀汉", 223, nil},
	} {
		var r *Ruler
		for _, x := range LookupRuler(c.name) {
			if x.Dynasty == c.dynasty {
				r = &x
				break
			}
		}
		if r == nil {
			t.Errorf("LookupRuler(%s): none of %s", c.name, c.dynasty)
			continue
		}
		if r.Accession != c.accession || !maps.Equal(r.Reckonings, c.reckonings) {
			t.Errorf("%s: %d %v, want %d %v", c.name, r.Accession, r.Reckonings, c.accession, c.reckonings)
		}
	}
	if n := len(LookupRuler("文帝")); n < 4 {
		t.Errorf("文帝: %d rulers", n)
	}
	rs := Rulers()
	if !slices.IsSortedFunc(rs, func(a, b Ruler) int { return a.Accession - b.Accession }) {
		t.Error("Rulers not sorted")
	}
	for _, r := range rs {
		if r.Dynasty == "西汉" && (r.Name == "文帝" || r.Name == "景帝") {
			t.Errorf("DILA's %s kept beside the written entry", r.Name)
		}
	}
}

// The written rulers must agree with DILA where DILA has them.
func TestHandRulersAgreeWithDILA(t *testing.T) {
	var tb table
	if err := json.Unmarshal(tableJSON, &tb); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, h := range handRulers {
		for _, d := range tb.Rulers {
			if d.Dynasty != h.Dynasty || !sharesName(d, h) {
				continue
			}
			checked++
			if d.Accession != h.Accession {
				t.Errorf("%s: written %d, DILA %d", h.Name, h.Accession, d.Accession)
			}
			if d.Reckonings != nil && !maps.Equal(d.Reckonings, h.Reckonings) {
				t.Errorf("%s: written %v, DILA %v", h.Name, h.Reckonings, d.Reckonings)
			}
		}
	}
	if checked < 7 {
		t.Errorf("only %d written rulers found in DILA", checked)
	}
}

func BenchmarkLookup(b *testing.B) {
	load()
	names := []string{"建兴", "貞觀", "干封", "至元", "不是年号"}
	for i := 0; b.Loop(); i++ {
		Lookup(names[i%len(names)])
	}
}

func BenchmarkLookupSimplified(b *testing.B) {
	load()
	for b.Loop() {
		Lookup("开元")
	}
}

// A ruler's count ends the year before the next of his dynasty acceded;
// the histories' spelling of an era DILA spells otherwise finds it.
func TestRulerLastYearAndEraAliases(t *testing.T) {
	for _, r := range LookupRuler("孝惠") {
		if r.Dynasty == "西汉" && r.Last != -187 {
			t.Errorf("孝惠 reigned to 188 BCE (-187), got %d", r.Last)
		}
	}
	// 子婴 took the throne within 二世's last year, which stays 二世's.
	for _, r := range LookupRuler("二世") {
		if r.Dynasty == "秦" && r.Last != -206 {
			t.Errorf("二世's count runs to 207 BCE (-206), got %d", r.Last)
		}
	}
	found := false
	for _, e := range Lookup("建始") {
		found = found || e.Dynasty == "西汉" && e.Start == -31
	}
	if !found {
		t.Error("建始 is 成帝's first era (32 BCE)")
	}
}
