package ner

import "github.com/annals-project/annals/internal/extract/pattern/zh"

// CHisIEC's annotation differs from annals's in three ways that matter
// when a model of ours is scored on it: it has four types (a state or a
// people is a place there, a noble rank an office), it marks no dates, and
// it cuts an office held at a place into the place and the office (华州 +
// 刺史, where annals keeps 华州刺史 as one office).
var chisiecTypes = map[string]string{"人物": "人物", "地点": "地点", "职官": "职官", "文献": "文献", "社会集团": "地点", "爵位": "职官"}

// ReadsBeyondCHisIEC says whether the tagger reads a type CHisIEC does
// not annotate (社会集团, 爵位, 时间): it follows annals's conventions, and
// what it finds is scored on CHisIEC through AsCHisIEC.
func (t *Tagger) ReadsBeyondCHisIEC() bool {
	for _, ty := range t.Types {
		if m, ok := chisiecTypes[ty]; !ok || m != ty {
			return true
		}
	}
	return false
}

// AsCHisIEC rewrites names found in text as CHisIEC annotates them, so
// that a score counts what was read and not the conventions.
func AsCHisIEC(text []rune, names []Span) []Span {
	var out []Span
	for _, n := range names {
		typ, ok := chisiecTypes[n.Type]
		if !ok {
			continue
		}
		n.Type = typ
		if typ == "职官" {
			if cut := placeBeforeOffice(text[n.Start:n.End]); cut > 0 {
				out = append(out, Span{n.Start, n.Start + cut, "地点"}, Span{n.Start + cut, n.End, "职官"})
				continue
			}
		}
		out = append(out, n)
	}
	return out
}

// placeBeforeOffice is where an office title starting with a place name
// (a lexicon place or a name ending in 州, 郡, 县 or 国) divides into the
// two, or 0: the office after it must be one the lexicon knows whole.
func placeBeforeOffice(title []rune) int {
	places, offices := map[int]bool{}, map[int]bool{}
	for _, m := range zh.LexiconMatches(title) {
		switch {
		case m.Start == 0 && (m.Kind == "place" || m.Kind == "state"):
			places[m.End] = true
		case m.End == len(title) && m.Kind == "office":
			offices[m.Start] = true
		}
	}
	for cut := len(title) - 1; cut > 0; cut-- {
		if !offices[cut] {
			continue
		}
		switch title[cut-1] {
		case '州', '郡', '县', '国':
			if cut >= 2 {
				return cut
			}
		}
		if places[cut] {
			return cut
		}
	}
	return 0
}
