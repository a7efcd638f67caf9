package schema

import "testing"

func TestShippedSchemasLoad(t *testing.T) {
	for _, name := range Shipped() {
		s, err := Load(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(s.EntityTypes) == 0 || len(s.RelationTypes) == 0 {
			t.Fatalf("%s: empty schema", name)
		}
	}
}

func TestZhHistoryDirections(t *testing.T) {
	s := MustLoad(ZhHistory)
	if got := len(s.EntityTypes); got != 8 {
		t.Fatalf("zh-history has %d entity types, want 8", got)
	}
	cases := []struct {
		head, rel, tail string
		ok              bool
	}{
		{"人物", "任官", "职官", true},
		{"职官", "任官", "人物", false},
		{"人物", "封爵", "爵位", true},
		{"社会集团", "攻", "地点", true},
		{"人物", "攻", "人物", false},
		{"人物", "死亡时间", "时间", true},
		{"事件", "发生地点", "地点", true},
		{"人物", "胜", "事件", true},
		{"事件", "胜", "人物", false},
		{"人物", "不存在", "人物", false},
	}
	for _, c := range cases {
		if got := s.Allows(c.head, c.rel, c.tail); got != c.ok {
			t.Errorf("Allows(%s,%s,%s) = %v, want %v", c.head, c.rel, c.tail, got, c.ok)
		}
	}
}

func TestParseRejectsUnknownTypes(t *testing.T) {
	_, err := Parse([]byte("name: x\nentity_types: [{name: a}]\nrelation_types: [{name: r, domain: [a], range: [b]}]\n"))
	if err == nil {
		t.Fatal("want error for relation naming unknown type b")
	}
	if _, err := Load("nope"); err == nil {
		t.Fatal("want error for unknown schema")
	}
}

func TestGeneralAcceptsAnyForRelatedTo(t *testing.T) {
	s := MustLoad(General)
	if !s.Allows("event", "related_to", "concept") {
		t.Fatal("related_to should accept any types")
	}
	if ForLanguage("lzh") != ZhHistory || ForLanguage("en") != General {
		t.Fatal("ForLanguage defaults wrong")
	}
}

func TestDescriptionsAreWhole(t *testing.T) {
	s := MustLoad(ZhHistory)
	for _, e := range s.EntityTypes {
		if e.Name == "社会集团" && e.Description != "a state, dynasty, clan, army or other group" {
			t.Fatalf("社会集团 description cut: %q", e.Description)
		}
	}
	if r := s.Relation("积极态度倾向"); r.Description != "head favoured, allied with or honoured tail" {
		t.Fatalf("积极态度倾向 description cut: %q", r.Description)
	}
}
