package eval

import (
	"bytes"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/schema"
)

func TestMappingsNameOurTypes(t *testing.T) {
	sch := schema.MustLoad(schema.ZhHistory)
	for _, ds := range Datasets() {
		m, err := MappingFor(ds)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range m.Entities {
			for _, o := range e.Ours {
				if !sch.HasEntityType(o) {
					t.Errorf("%s: %s maps to unknown entity type %s", ds, e.Label, o)
				}
			}
		}
		for _, o := range m.UnmappedEntityTypes {
			if !sch.HasEntityType(o) {
				t.Errorf("%s: unknown unmapped type %s", ds, o)
			}
			if _, ok := m.EntityLabel(o); ok {
				t.Errorf("%s: %s is both mapped and unmapped", ds, o)
			}
		}
		for _, r := range m.Relations {
			for _, a := range r.Alts {
				if sch.Relation(a.Relation) == nil {
					t.Errorf("%s: %s maps to unknown relation %s", ds, r.Label, a.Relation)
				}
			}
			if r.Note == "" {
				t.Errorf("%s: %s has no note", ds, r.Label)
			}
		}
	}
	if m, _ := MappingFor(CHisIEC); len(m.relationLabels()) != 12 {
		t.Errorf("CHisIEC has %d relation labels, want 12", len(m.relationLabels()))
	}
	if m, _ := MappingFor(CCLUE); len(m.relationLabels()) != 25 {
		t.Errorf("C-CLUE has %d relation labels, want 25", len(m.relationLabels()))
	}
	for _, e := range chisiecMapping.Entities {
		if e.Label == "OFI" && (len(e.Ours) != 2 || e.Ours[0] != "职官" || e.Ours[1] != "爵位") {
			t.Errorf("OFI maps to %v", e.Ours)
		}
	}
	if _, err := MappingFor("nope"); err == nil {
		t.Error("no error for an unknown data set")
	}
}

// tripleHits scores one gold triple against predictions, returning the
// number correct.
func tripleHits(t *testing.T, ds Dataset, g GoldTriple, preds ...extract.Triple) int {
	t.Helper()
	m, _ := MappingFor(ds)
	ex := Example{Text: "甲乙丙丁戊己", Triples: []GoldTriple{g}}
	b, err := ScoreTriples(m, schema.MustLoad(schema.ZhHistory), "fixture", []Example{ex}, []extract.Result{{Triples: preds}})
	if err != nil {
		t.Fatal(err)
	}
	return b.All.Overall.Correct
}

func TestTripleMappingDirections(t *testing.T) {
	a := GoldEntity{Text: "甲", Type: "PER", Start: 0, End: 1}
	b := GoldEntity{Text: "乙", Type: "PER", Start: 1, End: 2}
	loc := GoldEntity{Text: "丙", Type: "LOC", Start: 2, End: 3}
	pa, pb, pl := ent("甲", "人物", 0, 1), ent("乙", "人物", 1, 2), ent("丙", "地点", 2, 3)
	tr := func(h extract.Entity, rel string, tl extract.Entity) extract.Triple {
		return extract.Triple{Head: h, Relation: rel, Tail: tl}
	}
	for _, tc := range []struct {
		name string
		ds   Dataset
		gold GoldTriple
		pred extract.Triple
		want int
	}{
		// CHisIEC 上下级: head is the superior.
		{"上下级 as 下级", CHisIEC, GoldTriple{a, "上下级", b}, tr(pa, "下级", pb), 1},
		{"上下级 as 上级 swapped", CHisIEC, GoldTriple{a, "上下级", b}, tr(pb, "上级", pa), 1},
		{"上下级 reversed 下级", CHisIEC, GoldTriple{a, "上下级", b}, tr(pb, "下级", pa), 0},
		// CHisIEC 父母: head is the parent, as in our 子女.
		{"父母 as 子女", CHisIEC, GoldTriple{a, "父母", b}, tr(pa, "子女", pb), 1},
		{"父母 reversed", CHisIEC, GoldTriple{a, "父母", b}, tr(pb, "子女", pa), 0},
		// Symmetric 同胞 matches either way.
		{"兄弟 as 同胞", CHisIEC, GoldTriple{a, "兄弟", b}, tr(pa, "同胞", pb), 1},
		{"兄弟 as 同胞 reversed", CHisIEC, GoldTriple{a, "兄弟", b}, tr(pb, "同胞", pa), 1},
		{"敌对攻伐 as 攻", CHisIEC, GoldTriple{a, "敌对攻伐", loc}, tr(pa, "攻", pl), 1},
		{"敌对攻伐 as 消极态度倾向", CHisIEC, GoldTriple{a, "敌对攻伐", b}, tr(pa, "消极态度倾向", pb), 1},
		{"驻守 as 居", CHisIEC, GoldTriple{a, "驻守", loc}, tr(pa, "居", pl), 1},
		{"驻守 as 访", CHisIEC, GoldTriple{a, "驻守", loc}, tr(pa, "访", pl), 0},
		{"同僚 has no counterpart", CHisIEC, GoldTriple{a, "同僚", b}, tr(pa, "积极态度倾向", pb), 0},
		{"offsets, not text, for CHisIEC", CHisIEC, GoldTriple{a, "父母", b}, tr(ent("甲", "人物", 3, 4), "子女", pb), 0},
		// C-CLUE 父: subject is the child, so our 子女 is swapped.
		{"父 as 子女 swapped", CCLUE, GoldTriple{a, "父", b}, tr(pb, "子女", pa), 1},
		{"父 as 子女 unswapped", CCLUE, GoldTriple{a, "父", b}, tr(pa, "子女", pb), 0},
		{"子 as 子女", CCLUE, GoldTriple{a, "子", b}, tr(pa, "子女", pb), 1},
		{"弟 as 同胞 reversed", CCLUE, GoldTriple{a, "弟", b}, tr(pb, "同胞", pa), 1},
		{"隶属于 person as 上级", CCLUE, GoldTriple{a, "隶属于", b}, tr(pa, "上级", pb), 1},
		{"隶属于 person as 下级 swapped", CCLUE, GoldTriple{a, "隶属于", b}, tr(pb, "下级", pa), 1},
		{"隶属于 group as 所属团体", CCLUE, GoldTriple{a, "隶属于", GoldEntity{Text: "乙", Type: "ORG"}}, tr(pa, "所属团体", pb), 1},
		{"隶属于 person not 所属团体", CCLUE, GoldTriple{a, "隶属于", b}, tr(pa, "所属团体", pb), 0},
		{"作战 either way", CCLUE, GoldTriple{a, "作战", b}, tr(pb, "攻", pa), 1},
		{"讨伐 directed", CCLUE, GoldTriple{a, "讨伐", b}, tr(pb, "攻", pa), 0},
		{"归属 as 辖 swapped", CCLUE, GoldTriple{loc, "归属", b}, tr(pb, "辖", pl), 1},
		{"text, not offsets, for C-CLUE", CCLUE, GoldTriple{a, "子", b}, tr(ent("甲", "人物", 4, 5), "子女", ent("乙", "人物", 5, 6)), 1},
		{"葬于 has no counterpart", CCLUE, GoldTriple{a, "葬于", loc}, tr(pa, "卒于", pl), 0},
	} {
		if got := tripleHits(t, tc.ds, tc.gold, tc.pred); got != tc.want {
			t.Errorf("%s: %d correct, want %d", tc.name, got, tc.want)
		}
	}
}

// A relation another row also accepts swapped is counted under its own
// label: our 下级 under 下级, not under the 上级 it states the other way.
func TestRelationLabelPrefersTheUnswappedRow(t *testing.T) {
	m, err := MappingFor(Annals)
	if err != nil {
		t.Fatal(err)
	}
	for ours, want := range map[string]string{"下级": "下级", "上级": "上级", "子女": "子女"} {
		if got, ok := m.RelationLabel(ours); !ok || got != want {
			t.Errorf("RelationLabel(%s) = %q, %v; want %q", ours, got, ok, want)
		}
	}
	if _, ok := m.RelationLabel("无此关系"); ok {
		t.Error("a relation no row accepts has a label")
	}
}

func TestTripleMappedFigures(t *testing.T) {
	m, _ := MappingFor(CCLUE)
	ex := Example{Text: "x", Triples: []GoldTriple{
		{Head: GoldEntity{Text: "甲"}, Relation: "兄", Tail: GoldEntity{Text: "乙"}},
		{Head: GoldEntity{Text: "乙"}, Relation: "弟", Tail: GoldEntity{Text: "甲"}}, // same fact
		{Head: GoldEntity{Text: "甲"}, Relation: "作", Tail: GoldEntity{Text: "某书"}},
	}}
	res := extract.Result{Triples: []extract.Triple{
		{Head: extract.Entity{Text: "乙"}, Relation: "同胞", Tail: extract.Entity{Text: "甲"}},
		{Head: extract.Entity{Text: "甲"}, Relation: "同胞", Tail: extract.Entity{Text: "乙"}}, // identical once ordered
		{Head: extract.Entity{Text: "甲"}, Relation: "婚恋", Tail: extract.Entity{Text: "丙"}}, // no C-CLUE counterpart
		{Head: extract.Entity{Text: "甲"}, Relation: "任官", Tail: extract.Entity{Text: "令"}}, // mapped, wrong
	}}
	b, err := ScoreTriples(m, schema.MustLoad(schema.ZhHistory), "fixture", []Example{ex}, []extract.Result{res})
	if err != nil {
		t.Fatal(err)
	}
	checkScore(t, "all", b.All.Overall, 2, 3, 1, 1.0/3, 0.5, 0.4)
	checkScore(t, "mapped", b.Mapped.Overall, 1, 2, 1, 0.5, 1, 2.0/3)
	if b.GoldMerged != 1 || b.Duplicates != 1 {
		t.Errorf("gold merged %d, duplicates %d; want 1 1", b.GoldMerged, b.Duplicates)
	}
}

func TestMappingWrite(t *testing.T) {
	for _, ds := range Datasets() {
		m, _ := MappingFor(ds)
		var buf bytes.Buffer
		if err := m.Write(&buf); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, r := range m.Relations {
			if !strings.Contains(out, r.Label) {
				t.Errorf("%s table lacks %s", ds, r.Label)
			}
		}
		if ds == CCLUE && !strings.Contains(out, "子女 (swapped)") {
			t.Errorf("C-CLUE table does not show the 父 swap:\n%s", out)
		}
	}
}

func TestParseDataset(t *testing.T) {
	for in, want := range map[string]Dataset{"chisiec": CHisIEC, "CHisIEC": CHisIEC, "c-clue": CCLUE, "cclue": CCLUE} {
		if got, err := ParseDataset(in); err != nil || got != want {
			t.Errorf("ParseDataset(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseDataset("squad"); err == nil {
		t.Error("no error for an unknown data set")
	}
}
