package eval

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Match modes: how a predicted triple's head and tail are compared with
// the gold.
const (
	MatchOffsets = "offsets" // code-point spans (CHisIEC)
	MatchText    = "text"    // surface strings (C-CLUE, which has no offsets)
)

// Alt is one way our schema can state a gold relation.
type Alt struct {
	Relation string `json:"relation"`       // a zh-history relation type
	Swap     bool   `json:"swap,omitempty"` // our head is the data set's tail
}

// RelationMapping maps one data set relation label onto our relation types.
type RelationMapping struct {
	Label string `json:"label"`
	// TailType, when set, limits the row to gold triples whose tail has
	// this data set entity type; rows are tried in order.
	TailType string `json:"tail_type,omitempty"`
	// Alts lists the acceptable predictions; empty means our schema has no
	// counterpart and the label is left out of the "mapped" figures.
	Alts []Alt `json:"ours"`
	// Either accepts each Alt in both directions: the data set does not
	// keep a direction for this label.
	Either bool   `json:"either,omitempty"`
	Note   string `json:"note,omitempty"` // why, with an example that shows the direction
}

// EntityMapping maps one data set entity label onto our entity types.
type EntityMapping struct {
	Label string   `json:"label"`
	Ours  []string `json:"ours"`
	Note  string   `json:"note,omitempty"`
}

// Mapping is how a data set's labels are read in our schema.
type Mapping struct {
	Dataset   Dataset           `json:"dataset"`
	Match     string            `json:"match"` // MatchOffsets or MatchText
	Entities  []EntityMapping   `json:"entities,omitempty"`
	Relations []RelationMapping `json:"relations"`
	// UnmappedEntityTypes are our entity types with no counterpart in the
	// data set: predictions of them count only in the "all" figures.
	UnmappedEntityTypes []string `json:"unmapped_entity_types,omitempty"`
	Notes               []string `json:"notes,omitempty"`
}

func alts(rels ...string) []Alt {
	out := make([]Alt, len(rels))
	for i, r := range rels {
		out[i] = Alt{Relation: r}
	}
	return out
}

// chisiecMapping: directions were read off the training data; the example
// ids below are orig_id values in re_coling_train.json.
var chisiecMapping = Mapping{
	Dataset: CHisIEC,
	Match:   MatchOffsets,
	Entities: []EntityMapping{
		{Label: "PER", Ours: []string{"人物"}},
		{Label: "LOC", Ours: []string{"地点"}, Note: "CHisIEC also tags peoples, armies and tribes LOC; our 社会集团 for them does not count"},
		{Label: "OFI", Ours: []string{"职官", "爵位"}, Note: "CHisIEC tags noble titles (王, 公, 侯) as offices"},
		{Label: "BOOK", Ours: []string{"文献"}},
	},
	Relations: []RelationMapping{
		{Label: "任职", Alts: alts("任官", "封爵"), Note: "head person, tail office; tails include noble titles, which we state with 封爵"},
		{Label: "上下级", Alts: []Alt{{Relation: "下级"}, {Relation: "上级", Swap: true}}, Note: "head is the superior (orig_id 94, 1461; 80 of 87 pattern checks): our 下级 as is, or 上级 swapped"},
		{Label: "父母", Alts: alts("子女"), Note: "head is the parent, tail the child (orig_id 919, 1798; 160 of 190 pattern checks): our 子女 as is"},
		{Label: "兄弟", Alts: alts("同胞"), Note: "symmetric"},
		{Label: "别名", Alts: alts("别称"), Note: "head is the main name, tail the other name (orig_id 961, 1500): our 别称 as is"},
		{Label: "出生于某地", Alts: alts("籍贯"), Note: "person → place (orig_id 218)"},
		{Label: "到达", Alts: alts("访", "逃奔"), Note: "person → place reached (orig_id 1907); fleeing to a place is arriving there (orig_id 1912)"},
		{Label: "管理", Alts: alts("辖"), Note: "person → place governed (orig_id 504)"},
		{Label: "驻守", Alts: alts("辖", "占", "居"), Note: "person → place garrisoned (orig_id 28, 1907): commanded at (辖), held with troops (占: 屯, 驻, 保) or stationed at (居)"},
		{Label: "敌对攻伐", Alts: alts("攻", "消极态度倾向"), Note: "attacker → place or person attacked (orig_id 94, 1400)"},
		{Label: "政治奥援", Alts: alts("积极态度倾向"), Note: "head supports or promotes tail (orig_id 1133, 1567)"},
		{Label: "同僚", Note: "colleagues: no counterpart"},
	},
	UnmappedEntityTypes: []string{"社会集团", "时间"},
	Notes: []string{
		"orig_id numbers in the notes are examples in re_coling_train.json that show the direction",
		"entity text is read from tokens (simplified) by offset; the span field, sometimes traditional, is not used",
	},
}

// cclueMapping: directions were read off the data; the example ids are
// line numbers in train_data.json.
var cclueMapping = Mapping{
	Dataset: CCLUE,
	Match:   MatchText,
	Relations: []RelationMapping{
		{Label: "任职", Alts: alts("任官", "封爵"), Note: "person → office; objects include noble titles (王, 侯, 公)"},
		{Label: "升迁", Alts: alts("任官"), Note: "person → office promoted to (line 33)"},
		{Label: "子", Alts: alts("子女"), Note: "subject is the parent, object the child (lines 4, 32; 104 of 112 pattern checks): our 子女 as is"},
		{Label: "父", Alts: []Alt{{Relation: "子女", Swap: true}}, Note: "subject is the child, object the father (lines 77, 81; 45 of 52 pattern checks): our 子女 swapped"},
		{Label: "兄", Alts: alts("同胞"), Note: "symmetric"},
		{Label: "弟", Alts: alts("同胞"), Note: "symmetric"},
		{Label: "名", Alts: alts("别称"), Note: "subject → its personal or full name (lines 23, 110)"},
		{Label: "字", Alts: alts("别称"), Note: "person → courtesy name (line 155)"},
		{Label: "号", Alts: alts("别称", "封爵"), Note: "person → title or posthumous name (lines 12, 28): a title may come as 封爵"},
		{Label: "同名于", Alts: alts("别称"), Either: true, Note: "two names of one person or place, no fixed order (lines 31, 41)"},
		{Label: "隶属于", TailType: "ORG", Alts: alts("所属团体"), Note: "person → state or group served (lines 8, 13)"},
		{Label: "隶属于", Alts: []Alt{{Relation: "上级"}, {Relation: "下级", Swap: true}}, Note: "person → lord served (line 2; 25 of 25 pattern checks): our 上级 as is, or 下级 swapped"},
		{Label: "去往", Alts: alts("访", "逃奔"), Note: "person → place gone to, often fleeing (lines 30, 87)"},
		{Label: "依附", Alts: alts("积极态度倾向", "逃奔"), Note: "person → lord or state submitted or fled to (lines 22, 123)"},
		{Label: "位于", Alts: alts("居", "访"), Note: "person → place where he stayed or came (lines 16, 74)"},
		{Label: "出生地", Alts: alts("籍贯"), Note: "person → native place (line 47)"},
		{Label: "管理", Alts: alts("辖"), Note: "person → place governed (line 56)"},
		{Label: "归属", Alts: []Alt{{Relation: "辖", Swap: true}, {Relation: "占", Swap: true}}, Note: "place → state that held it (lines 76, 86): our 辖 or 占 swapped"},
		{Label: "杀", Alts: alts("消极态度倾向"), Note: "killer → killed (line 34)"},
		{Label: "讨伐", Alts: alts("攻", "消极态度倾向"), Note: "attacker → state attacked (line 24)"},
		{Label: "作战", Alts: alts("攻", "消极态度倾向"), Either: true, Note: "two sides at war, either may come first (lines 14, 138)"},
		{Label: "朋友", Alts: alts("积极态度倾向"), Either: true, Note: "friendship, stated both ways (line 98)"},
		{Label: "属于", Note: "place inside a larger place: no counterpart"},
		{Label: "葬于", Note: "burial place: no counterpart (卒于 is where one died)"},
		{Label: "作", Note: "author → work: no counterpart"},
		{Label: "姓", Note: "surname: no counterpart"},
	},
	Notes: []string{
		"line numbers in the notes are examples in train_data.json that show the direction",
		"C-CLUE has no entity gold and no offsets: triples match on (subject text, relation, object text); a prediction's surface text is used, not its canonical name",
	},
}

// MappingFor returns the label mapping of a data set. Its tables are shared:
// treat them as read-only.
func MappingFor(ds Dataset) (*Mapping, error) {
	var m Mapping
	switch ds {
	case CHisIEC:
		m = chisiecMapping
	case CCLUE:
		m = cclueMapping
	case Annals:
		m = annalsMapping
	default:
		return nil, fmt.Errorf("no label mapping for data set %q", ds)
	}
	return &m, nil
}

// RelationRow returns the row that maps a gold relation label whose tail
// has type tailType, and whether there is one.
func (m *Mapping) RelationRow(label, tailType string) (RelationMapping, bool) {
	for _, r := range m.Relations {
		if r.Label == label && (r.TailType == "" || r.TailType == tailType) {
			return r, true
		}
	}
	return RelationMapping{}, false
}

// RelationLabel returns the data set label that one of our relation types
// stands for, and false when it has none: the first (table order) that
// reads it as written, else the first that reads it swapped, so that our
// 下级 counts as 下级, not as the 上级 it also states the other way round.
func (m *Mapping) RelationLabel(ours string) (string, bool) {
	swapped := ""
	for _, r := range m.Relations {
		for _, a := range r.Alts {
			switch {
			case a.Relation != ours:
			case !a.Swap:
				return r.Label, true
			case swapped == "":
				swapped = r.Label
			}
		}
	}
	return swapped, swapped != ""
}

// EntityAlts returns our entity types that a data set entity label accepts.
func (m *Mapping) EntityAlts(label string) []string {
	for _, e := range m.Entities {
		if e.Label == label {
			return e.Ours
		}
	}
	return nil
}

// EntityLabel returns the data set label one of our entity types maps to.
func (m *Mapping) EntityLabel(ours string) (string, bool) {
	for _, e := range m.Entities {
		if slices.Contains(e.Ours, ours) {
			return e.Label, true
		}
	}
	return "", false
}

// oursString renders a row's accepted forms for tables.
func (r RelationMapping) oursString() string {
	if len(r.Alts) == 0 {
		return "—"
	}
	parts := make([]string, len(r.Alts))
	for i, a := range r.Alts {
		parts[i] = a.Relation
		if a.Swap {
			parts[i] += " (swapped)"
		}
	}
	s := strings.Join(parts, " | ")
	if r.Either {
		s += " (either direction)"
	}
	return s
}

// relationDisplay is a label as shown in per-type rows: 任职→任官|封爵.
func (m *Mapping) relationDisplay(label string) string {
	var ours []string
	for _, r := range m.Relations {
		if r.Label != label {
			continue
		}
		for _, a := range r.Alts {
			if !slices.Contains(ours, a.Relation) {
				ours = append(ours, a.Relation)
			}
		}
	}
	return strings.Join(ours, "|")
}

// Write prints the mapping as aligned tables.
func (m *Mapping) Write(w io.Writer) error {
	var t table
	if len(m.Entities) > 0 {
		t.row("entity type", "ours", "note")
		for _, e := range m.Entities {
			t.row(e.Label, strings.Join(e.Ours, " | "), e.Note)
		}
		if len(m.UnmappedEntityTypes) > 0 {
			t.row("—", strings.Join(m.UnmappedEntityTypes, " | "), "no counterpart: counted only in the \"all\" figures")
		}
		t.blank()
	}
	t.row("relation", "ours (head → tail)", "note")
	for _, r := range m.Relations {
		label := r.Label
		if r.TailType != "" {
			label += " (tail " + r.TailType + ")"
		}
		t.row(label, r.oursString(), r.Note)
	}
	if _, err := fmt.Fprintf(w, "Label mapping, %s (matched on %s; our symmetric relations match either way)\n", m.Dataset, m.Match); err != nil {
		return err
	}
	if err := t.write(w, "  "); err != nil {
		return err
	}
	for _, n := range m.Notes {
		if _, err := fmt.Fprintf(w, "  %s\n", n); err != nil {
			return err
		}
	}
	return nil
}
