package relate

import (
	"fmt"
	"strings"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/retrieve"
	"github.com/annals-project/annals/internal/text"
)

// zhDerived phrases the relations compositions name that the schema does
// not have; H and T are the two, V the entity between.
var zhDerived = map[string]string{
	"同僚": "H与T同事V", "同属": "H与T同属V", "同乡": "H与T同为V人", "姻亲": "H与T为姻亲（经V）",
}

var enDerived = map[string]string{
	"grandparent_of": "H is a grandparent of T", "same_group": "H and T both belonged to V",
	"same_birthplace": "H and T were both born in V", "relative_of": "H and T are relatives (through V)",
}

// phrase says a finding as a sentence.
func phrase(f Finding, lang string) string {
	via := strings.Join(f.Via, "、")
	if text.IsChinese(lang) {
		if p, ok := zhDerived[f.Type]; ok {
			return strings.NewReplacer("H", f.Head, "T", f.Tail, "V", via).Replace(p)
		}
		s := retrieve.RenderTriple(kg.Relation{Head: f.Head, Type: f.Type, Tail: f.Tail}, lang)
		if via != "" {
			s += "（经由" + via + "）"
		}
		return s
	}
	if p, ok := enDerived[f.Type]; ok {
		return strings.NewReplacer("H", f.Head, "T", f.Tail, "V", via).Replace(p)
	}
	s := retrieve.RenderTriple(kg.Relation{Head: f.Head, Type: f.Type, Tail: f.Tail}, lang)
	if via != "" {
		s += " (through " + via + ")"
	}
	return s
}

// hopText says a hop's relation as a sentence.
func hopText(h HopView, lang string) string {
	head, tail := h.FromName, h.ToName
	if !h.Head {
		head, tail = tail, head
	}
	return strings.TrimSuffix(retrieve.RenderTriple(kg.Relation{Head: head, Type: h.Relation, Tail: tail}, lang), "。")
}

// chains describes the paths no finding came from: two steps whose
// relations compose to nothing still say how the two are connected.
func chains(res *Result) []string {
	used := map[int]bool{}
	for _, f := range res.Findings {
		for _, p := range f.Paths {
			used[p] = true
		}
	}
	var out []string
	for i, p := range res.Paths {
		if used[i+1] || len(p.Hops) != 2 || len(out) == 2 {
			continue
		}
		a, b := hopText(p.Hops[0], res.Lang), hopText(p.Hops[1], res.Lang)
		if text.IsChinese(res.Lang) {
			out = append(out, fmt.Sprintf("经由%s：%s，%s", p.Names[1], a, b))
		} else {
			out = append(out, fmt.Sprintf("through %s: %s; %s", p.Names[1], a, b))
		}
	}
	return out
}

// verdict sums up the findings in one paragraph.
func verdict(res *Result) string {
	zh := text.IsChinese(res.Lang)
	links := chains(res)
	if len(res.Findings) == 0 {
		switch {
		case zh && len(links) > 0:
			return fmt.Sprintf("未能确立%s与%s之间的关系，但二人有所关联（%s）。", res.Head.Name, res.Tail.Name, strings.Join(links, "；"))
		case zh:
			return fmt.Sprintf("未能确立%s与%s之间的关系：没有一条路径的每一步都有表明关系的证据。", res.Head.Name, res.Tail.Name)
		case len(links) > 0:
			return fmt.Sprintf("No relation between %s and %s could be established, but they are connected (%s).", res.Head.Name, res.Tail.Name, strings.Join(links, "; "))
		}
		return fmt.Sprintf("No relation between %s and %s could be established: no path has evidence of a relation at every step.", res.Head.Name, res.Tail.Name)
	}
	label := map[string][2]string{
		kg.StatusExtracted: {"已见于图谱", "already in the graph"},
		kg.StatusUser:      {"人工添加", "added by a person"},
		kg.StatusVerified:  {"已核实", "verified"},
		kg.StatusInferred:  {"推断，未核实", "inferred, not verified"},
	}
	var parts []string
	for _, f := range res.Findings {
		l := label[f.Status]
		if zh {
			parts = append(parts, fmt.Sprintf("%s（%s，%d条路径）", strings.TrimSuffix(f.Text, "。"), l[0], len(f.Paths)))
		} else {
			parts = append(parts, fmt.Sprintf("%s (%s; %d path(s))", f.Text, l[1], len(f.Paths)))
		}
	}
	if zh {
		return res.Head.Name + "与" + res.Tail.Name + "：" + strings.Join(parts, "；") + "。"
	}
	return res.Head.Name + " and " + res.Tail.Name + ": " + strings.Join(parts, "; ") + "."
}
