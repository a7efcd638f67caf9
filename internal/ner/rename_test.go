package ner

import (
	"strings"
	"testing"
)

func renameFixture(t *testing.T) []Sentence {
	t.Helper()
	var ss []Sentence
	for i, line := range []string{
		"[诸葛亮|人物]，字[孔明|人物]，[琅邪|地点][阳都|地点]人也。",
		"[亮|人物]与[刘备|人物]会于[隆中|地点]，[亮|人物]曰：善。",
		"以[曹参|人物]为[相国|职官]。",
		"[呼韩邪|人物]来朝。",
		"[冒顿|人物]立，[呼韩邪|人物]奔。",
		"[孝文帝|人物]即位。",
		"[赵充国|人物]击[先零|社会集团]。",
		"[张良|人物]从[沛公|人物]。",
	} {
		for k := range 4 { // enough sentences that half of them have persons
			s, err := ParseLine("汉书/传/测试传:" + strings.Repeat("0", k) + string(rune('0'+i)) + "\t" + line)
			if err != nil {
				t.Fatal(err)
			}
			ss = append(ss, s)
		}
	}
	return ss
}

// A renamed copy keeps every name's place and type, the text around the
// names and the names that are not persons; one person keeps one made-up
// name in it, and titles lend no runes to made-up names.
func TestRenameKeepsTheSentenceAroundNewNames(t *testing.T) {
	ss := renameFixture(t)
	byID := map[string]Sentence{}
	for _, s := range ss {
		byID[s.ID] = s
	}
	got := Rename(ss)
	if len(got) == 0 || len(got) >= len(ss) {
		t.Fatalf("%d copies of %d sentences: want about half", len(got), len(ss))
	}
	for _, r := range got {
		if !r.Renamed() {
			t.Errorf("%s is not marked renamed", r.ID)
		}
		orig, ok := byID[strings.TrimSuffix(r.ID, renamedSuffix)]
		if !ok {
			t.Fatalf("%s: no sentence it copies", r.ID)
		}
		if len(r.Names) != len(orig.Names) {
			t.Fatalf("%s: %d names, the original %d", r.ID, len(r.Names), len(orig.Names))
		}
		rs, os := r.Runes(), orig.Runes()
		made := map[string]string{}
		for i, n := range r.Names {
			o := orig.Names[i]
			if n.Type != o.Type || n.End <= n.Start || n.End > len(rs) {
				t.Fatalf("%s: name %v for %v", r.ID, n, o)
			}
			name, old := string(rs[n.Start:n.End]), string(os[o.Start:o.End])
			if n.Type != "人物" {
				if name != old {
					t.Errorf("%s: %s %q became %q", r.ID, n.Type, old, name)
				}
				continue
			}
			if name == old {
				t.Errorf("%s: %q kept its name", r.ID, old)
			}
			if strings.ContainsAny(name, titleRunes) {
				t.Errorf("%s: made-up name %q has a title's rune", r.ID, name)
			}
			if prev, ok := made[old]; ok && prev != name {
				t.Errorf("%s: %q renamed both %q and %q", r.ID, old, prev, name)
			}
			made[old] = name
		}
		// The text between names is the original's.
		strip := func(rs []rune, names []Span) string {
			var b strings.Builder
			at := 0
			for _, n := range names {
				b.WriteString(string(rs[at:n.Start]))
				b.WriteString("|")
				at = n.End
			}
			return b.String() + string(rs[at:])
		}
		if a, b := strip(rs, r.Names), strip(os, orig.Names); a != b {
			t.Errorf("%s: text around the names %q, the original's %q", r.ID, a, b)
		}
	}
	again := Rename(ss)
	for i := range got {
		if again[i].Text != got[i].Text {
			t.Fatalf("renaming again gave %q for %q", again[i].Text, got[i].Text)
		}
	}
}

// Made-up names are no one's: the names the annotations know come from
// the annotated sentences only.
func TestRenamedNamesAreNotKnown(t *testing.T) {
	ss := renameFixture(t)
	renamed := Rename(ss)
	// Twice the same copies: every made-up name marked twice.
	k := NewKnown(append(append([]Sentence(nil), renamed...), renamed...))
	if len(k) != 0 {
		t.Errorf("renamed copies taught %d known names", len(k))
	}
	if len(NewKnown(ss)) == 0 {
		t.Fatal("the annotated sentences taught no known names")
	}
}
