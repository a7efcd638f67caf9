package dila

import (
	"reflect"
	"strings"
	"testing"
)

const snippet = "-- MySQL dump\n" +
	"CREATE TABLE `t_note` (\n" +
	"  `id` smallint(5) unsigned NOT NULL,\n" +
	"  `text` varchar(20) NOT NULL COMMENT 'a, (tricky) comment',\n" +
	"  `extra` text,\n" +
	"  PRIMARY KEY (`id`),\n" +
	"  KEY `text` (`text`)\n" +
	") ENGINE=InnoDB DEFAULT CHARSET=utf8;\n" +
	"LOCK TABLES `t_note` WRITE;\n" +
	`INSERT INTO ` + "`t_note`" + ` VALUES (1,'建興',NULL),(2,'it\'s','a\\b'),(3,'semi;colon),(','x''y');` + "\n" +
	`INSERT INTO ` + "`t_note`" + ` VALUES (4,'line\nbreak\ttab','\0\Z\"q\"'),` + "\n" +
	`(5, '' , -12.5);` + "\n" +
	"INSERT INTO `t_note` (`text`,`id`) VALUES ('reordered',6);\n" +
	"UNLOCK TABLES;\n"

func TestParse(t *testing.T) {
	tables, err := Parse(snippet)
	if err != nil {
		t.Fatal(err)
	}
	tb := tables["t_note"]
	if tb == nil {
		t.Fatal("t_note missing")
	}
	if want := []string{"id", "text", "extra"}; !reflect.DeepEqual(tb.Columns, want) {
		t.Errorf("columns %q, want %q", tb.Columns, want)
	}
	v := func(s string) Value { return Value{S: s} }
	null := Value{Null: true}
	want := [][]Value{
		{v("1"), v("建興"), null},
		{v("2"), v("it's"), v(`a\b`)},
		{v("3"), v("semi;colon),("), v("x'y")},
		{v("4"), v("line\nbreak\ttab"), v("\x00\x1a\"q\"")},
		{v("5"), v(""), v("-12.5")},
		{v("6"), v("reordered"), null},
	}
	if !reflect.DeepEqual(tb.Rows, want) {
		t.Errorf("rows\n%+v\nwant\n%+v", tb.Rows, want)
	}
	if tb.Col("extra") != 2 || tb.Col("nope") != -1 {
		t.Error("Col")
	}
}

func TestParseErrors(t *testing.T) {
	head := "CREATE TABLE `t` (\n  `a` int,\n  `b` int\n);\n"
	for _, bad := range []string{
		"INSERT INTO `t` VALUES (1,'open);\n",
		"INSERT INTO `t` VALUES (1,2)\n",
		"INSERT INTO `t` VALUES (1,2) (3,4);\n",
		"INSERT INTO `t` VALUES (1);\n",
		"INSERT INTO `t` (`c`) VALUES (1);\n",
		"INSERT INTO `t` SET a=1;\n",
	} {
		if _, err := Parse(head + bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestParseSkipsOtherStatements(t *testing.T) {
	src := "/*!40101 SET NAMES utf8 */;\nDROP TABLE IF EXISTS `x`;\n-- INSERT INTO `x` VALUES (1);\n"
	tables, err := Parse(src)
	if err != nil || len(tables) != 0 {
		t.Fatalf("got %v, %v", tables, err)
	}
	if !strings.Contains(snippet, "COMMENT") {
		t.Fatal("snippet lost its comment")
	}
}
