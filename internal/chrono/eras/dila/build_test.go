package dila

import (
	"maps"
	"strings"
	"testing"
)

// A dump of two emperors: A proclaims 甲元 in 223, B keeps it for its last
// year and then proclaims 乙元; C counts without era, then restarts (後元).
// 甲元 carries proleptic months at both ends.
const miniDump = "CREATE TABLE `t_dynasty_names` (\n  `dynasty_id` int,\n  `name` varchar(10),\n  `ranking` int,\n  `language_id` int\n);\n" +
	"INSERT INTO `t_dynasty_names` VALUES (1,'蜀漢',0,1),(2,'西漢',0,1);\n" +
	"CREATE TABLE `t_emperor` (\n  `id` int,\n  `dynasty_id` int\n);\n" +
	"INSERT INTO `t_emperor` VALUES (1,1),(2,1),(3,2);\n" +
	"CREATE TABLE `t_emperor_names` (\n  `emperor_id` int,\n  `name` varchar(10),\n  `ranking` int,\n  `language_id` int\n);\n" +
	"INSERT INTO `t_emperor_names` VALUES (1,'先主',0,1),(2,'後主',0,1),(2,'劉禪',1,1),(3,'文帝',0,1),(3,'문제',1,10);\n" +
	"CREATE TABLE `t_era` (\n  `id` int,\n  `emperor_id` int\n);\n" +
	"INSERT INTO `t_era` VALUES (10,1),(11,2),(12,2),(13,3),(14,3);\n" +
	"CREATE TABLE `t_era_names` (\n  `era_id` int,\n  `name` varchar(10),\n  `ranking` int,\n  `language_id` int\n);\n" +
	"INSERT INTO `t_era_names` VALUES (10,'甲元',0,1),(10,'乾元',1,1),(11,'甲元',0,1),(12,'乙元',0,1),(13,'（無年號）',0,1),(14,'（後元）',0,1);\n" +
	"CREATE TABLE `t_month` (\n  `id` int,\n  `year` int,\n  `era_id` int,\n  `first` int,\n  `last` int,\n  `ganzhi` char(6),\n  `status` char(1)\n);\n" +
	// 甲元: a proleptic month in 222, years 1 (223) and 2 (224), a
	// proleptic month after.
	"INSERT INTO `t_month` VALUES (1,1,10,1802600,1802629,'癸卯','P'),(2,1,10,1802630,1802900,'癸卯','S'),(3,2,10,1802901,1803200,'甲辰','S'),\n" +
	"(4,3,10,1803201,1803230,'乙巳','P');\n" +
	"INSERT INTO `t_month` VALUES (5,3,11,1803231,1803500,'乙巳','S'),(6,1,12,1803501,1803700,'丙午','S');\n" +
	// 文帝: years 1–2 without era from -178, 後元 1 in -162.
	"INSERT INTO `t_month` VALUES (7,1,13,1656000,1656300,'壬戌','S'),(8,2,13,1656301,1656500,'癸亥','S'),(9,1,14,1661900,1662000,'戊寅','S');\n"

func TestBuild(t *testing.T) {
	tables, err := Parse(miniDump)
	if err != nil {
		t.Fatal(err)
	}
	simplify := strings.NewReplacer("漢", "汉", "劉", "刘", "後", "后").Replace
	eras, rulers, warnings, err := Build(tables, simplify)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings: %q", warnings)
	}
	if len(eras) != 2 {
		t.Fatalf("eras: %+v", eras)
	}
	a := eras[0]
	if a.Trad != "甲元" || a.Emperor != "先主" || a.Dynasty != "蜀汉" || a.Start != 223 || a.End != 225 ||
		a.StartJDN != 1802630 || a.EndJDN != 1803500 || a.FirstYear != 1 || len(a.Aliases) != 1 || a.Aliases[0] != "乾元" {
		t.Errorf("甲元: %+v", a)
	}
	if b := eras[1]; b.Trad != "乙元" || b.Emperor != "后主" || b.Start != 226 || b.End != 226 {
		t.Errorf("乙元: %+v", b)
	}
	want := map[string]Ruler{
		"先主": {Name: "先主", Dynasty: "蜀汉", Accession: 223},
		"后主": {Name: "后主", Dynasty: "蜀汉", Accession: 226},
		"文帝": {Name: "文帝", Dynasty: "西汉", Accession: -178, Reckonings: map[string]int{"前元": -178, "后元": -162}},
	}
	if len(rulers) != len(want) {
		t.Fatalf("rulers: %+v", rulers)
	}
	for _, r := range rulers {
		w := want[r.Name]
		if r.Dynasty != w.Dynasty || r.Accession != w.Accession || !maps.Equal(r.Reckonings, w.Reckonings) {
			t.Errorf("ruler %+v, want %+v", r, w)
		}
	}
	if rulers[0].Name != "文帝" || rulers[2].Aliases[0] != "後主" {
		t.Errorf("order or aliases: %+v", rulers)
	}
}
