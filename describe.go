package annals

import (
	"fmt"
	"slices"
	"strings"

	"github.com/annals-project/annals/internal/kg"
)

// A description is the one or two sentences an entity's page opens with,
// merged from its facts as HisGraphRAG's entity descriptions are, but
// offline: a person's life, 字, native place, offices in the order held
// and titles; for a place, an office, a title, a group or an event, who
// is most often bound to it and how. Each clause restates facts the page
// lists below with their citations.

// descriptionNames is how many names a clause lists before 等, and
// describeFacts how many of the best-attested facts a description reads.
const (
	descriptionNames = 4
	describeFacts    = 200
)

// describe writes v's description from its facts, in Chinese for the
// zh-history schema's types and in English otherwise; "" when the facts
// say too little.
func describe(v *EntityView) string {
	switch v.Type {
	case "人物":
		return describePerson(v)
	case "地点":
		return describeOther(v, "地点", map[string]string{"访": "至此", "攻": "攻此", "占": "据此", "辖": "治此", "居": "居此", "籍贯": "籍此", "卒于": "卒于此", "逃奔": "奔此"})
	case "职官":
		return describeOther(v, "职官", map[string]string{"任官": "任此职"})
	case "爵位":
		return describeOther(v, "爵位", map[string]string{"封爵": "受此封"})
	case "社会集团":
		return describeOther(v, "社会集团", map[string]string{"所属团体": "属此", "攻": "攻之", "积极态度倾向": "附之", "消极态度倾向": "敌之"})
	case "事件":
		return describeEvent(v)
	}
	return describeGeneral(v)
}

// earliestYear is the earliest year r's evidence is dated to; has is
// false when none is dated.
func earliestYear(r Relation) (year int, has bool) {
	for _, e := range r.Evidence {
		if e.Year != nil && (!has || *e.Year < year) {
			year, has = *e.Year, true
		}
	}
	return year, has
}

// datedTails are the relations tailsOf lists: of these alone the
// description reads the sentences, for their years and, for posts and
// titles, whether they are hearsay, and an entity page reads them only
// for these (relationsToDescribe); a relation tailsOf is asked for must be
// here.
var datedTails = map[string]bool{"籍贯": true, "任官": true, "封爵": true, "发生时间": true, "发生地点": true}

// tailsOf lists the other ends of v's facts of one relation where v is
// the head, in the order first dated (undated last), each name once.
func tailsOf(v *EntityView, rel string) []string {
	type dated struct {
		name string
		year int
		has  bool
	}
	var out []dated
	for _, r := range v.Relations {
		if r.Type != rel || r.HeadID != v.ID || (rel == "任官" || rel == "封爵") && kg.Hearsay(v.own, r.Evidence) {
			continue
		}
		if rel == "任官" && thrones[r.Tail] {
			continue // 称帝 is no post held in a career
		}
		d := dated{name: r.Tail}
		d.year, d.has = earliestYear(r)
		out = append(out, d)
	}
	slices.SortStableFunc(out, func(a, b dated) int {
		switch {
		case a.has != b.has:
			if a.has {
				return -1
			}
			return 1
		case a.has:
			return a.year - b.year
		}
		return 0
	})
	var names []string
	for _, d := range out {
		if !slices.Contains(names, d.name) {
			names = append(names, d.name)
		}
	}
	return names
}

// thrones are the offices of a sovereign, which the texts state as 任官
// (称帝, 立为帝) and a description does not list as posts.
var thrones = map[string]bool{"帝": true, "皇帝": true, "天子": true}

// zi is the person's 字: the one his own chapter states, else the one
// most sentences state, else the first of his names of that kind (瑜字仲异
// in 宗室传 is 孙瑜's, whatever the chapter resolved 瑜 to; 周瑜传 says
// 公瑾).
func (v *EntityView) zi() string {
	best, own := -1, false
	for i, a := range v.Stated {
		if a.Kind != "字" {
			continue
		}
		mine := a.Evidence != nil && v.own[a.Evidence.DocID]
		if best < 0 || mine && !own || mine == own && a.Support > v.Stated[best].Support {
			best, own = i, mine
		}
	}
	if best >= 0 {
		return v.Stated[best].Value
	}
	if zi := v.Attributes["字"]; len(zi) > 0 {
		return zi[0]
	}
	return ""
}

// headsOf lists the entities bound to v by facts of some relations where
// v is the tail, the best attested first (relations come so), each once.
func headsOf(v *EntityView, rels map[string]string) (names []string, how []string) {
	for _, r := range v.Relations {
		phrase, ok := rels[r.Type]
		if !ok || r.TailID != v.ID {
			continue
		}
		if !slices.Contains(names, r.Head) {
			names = append(names, r.Head)
		}
		if !slices.Contains(how, phrase) {
			how = append(how, phrase)
		}
	}
	return names, how
}

// listed joins names with 、, the first few, and 等 after more.
func listed(names []string) string {
	if len(names) > descriptionNames {
		return strings.Join(names[:descriptionNames], "、") + "等"
	}
	return strings.Join(names, "、")
}

func yearZh(y int) string {
	if y <= 0 {
		return fmt.Sprintf("前%d", 1-y)
	}
	return fmt.Sprint(y)
}

func describePerson(v *EntityView) string {
	var b strings.Builder
	b.WriteString(v.Name)
	if v.Born != nil || v.Died != nil {
		b.WriteString("（")
		if v.Born != nil {
			b.WriteString(yearZh(*v.Born))
		} else {
			b.WriteString("？")
		}
		b.WriteString("—")
		if v.Died != nil {
			b.WriteString(yearZh(*v.Died))
		} else {
			b.WriteString("？")
		}
		b.WriteString("）")
	}
	var clauses []string
	if zi := v.zi(); zi != "" {
		clauses = append(clauses, "字"+zi)
	}
	if from := tailsOf(v, "籍贯"); len(from) > 0 {
		clauses = append(clauses, from[0]+"人")
	}
	first := b.String()
	if len(clauses) > 0 {
		first += "，" + strings.Join(clauses, "，")
	}
	sentences := []string{first}
	if offices := tailsOf(v, "任官"); len(offices) > 0 {
		s := "历任" + listed(offices)
		if len(offices) == 1 {
			s = "任" + offices[0]
		}
		if titles := tailsOf(v, "封爵"); len(titles) > 0 {
			s += "，封" + listed(titles)
		}
		sentences = append(sentences, s)
	} else if titles := tailsOf(v, "封爵"); len(titles) > 0 {
		sentences = append(sentences, "封"+listed(titles))
	}
	if len(sentences) == 1 && len(clauses) == 0 && v.Born == nil && v.Died == nil {
		return "" // the name alone says nothing
	}
	return strings.Join(sentences, "。") + "。"
}

// describeOther says what an entity is and who is most often bound to it
// by the relations given, each with the phrase that says how.
func describeOther(v *EntityView, kind string, rels map[string]string) string {
	names, how := headsOf(v, rels)
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf("%s。%s%s。", kind, listed(names), strings.Join(how[:min(3, len(how))], "、"))
}

func describeEvent(v *EntityView) string {
	var parts []string
	if when := tailsOf(v, "发生时间"); len(when) > 0 {
		parts = append(parts, "时在"+when[0])
	}
	if where := tailsOf(v, "发生地点"); len(where) > 0 {
		parts = append(parts, "地在"+where[0])
	}
	if who, _ := headsOf(v, map[string]string{"参与": "", "胜": "", "败": ""}); len(who) > 0 {
		parts = append(parts, "参与者有"+listed(who))
	}
	if len(parts) == 0 {
		return ""
	}
	return "事件，" + strings.Join(parts, "，") + "。"
}

// describeGeneral names the relations an entity of another schema has
// most, with whom: "person; born_in Shu; ally_of Liu Bei, Guan Yu."
func describeGeneral(v *EntityView) string {
	by := map[string][]string{}
	var order []string
	for _, r := range v.Relations {
		other := r.Tail
		if r.HeadID != v.ID {
			other = r.Head
		}
		if _, ok := by[r.Type]; !ok {
			order = append(order, r.Type)
		}
		if !slices.Contains(by[r.Type], other) {
			by[r.Type] = append(by[r.Type], other)
		}
	}
	if len(order) == 0 {
		return ""
	}
	parts := []string{v.Type}
	for _, rel := range order[:min(3, len(order))] {
		names := by[rel]
		if len(names) > descriptionNames {
			names = append(names[:descriptionNames:descriptionNames], "…")
		}
		parts = append(parts, rel+" "+strings.Join(names, ", "))
	}
	return strings.Join(parts, "; ") + "."
}
