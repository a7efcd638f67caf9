package answer

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/retrieve"
	"github.com/annals-project/annals/internal/text"
)

// GlobalMembers is how many members a whole-corpus answer names.
const GlobalMembers = 5

// ListEntry is one name of a list answer, with the number of the citation
// that shows it belongs.
type ListEntry struct {
	Name     string   `json:"name"`
	EntityID int64    `json:"entity_id"`
	Citation int      `json:"citation,omitempty"` // 0 when uncited
	Routes   []string `json:"routes,omitempty"`   // the kinds of evidence that found it
}

// globalConfidence is the confidence of a list gathered from the corpus:
// a ranking of evidence, not a statement the texts make.
const globalConfidence = 0.5

// global answers a whole-corpus question offline: the best-ranked members
// of the group, each cited, and one sentence that says where they come
// from. It reports false when the search found no one.
func (a *Answerer) global(ctx context.Context, ans *Answer) (bool, error) {
	res, err := a.R.Global(ctx, ans.Analysis, GlobalMembers)
	if err != nil {
		return false, err
	}
	if res == nil || len(res.Members) == 0 {
		return false, nil
	}
	ans.Global = res
	var evs []*kg.Evidence
	for _, m := range res.Members {
		evs = append(evs, m.Citation)
	}
	ans.Citations = cite(evs...)
	for _, m := range res.Members {
		ans.List = append(ans.List, ListEntry{Name: m.Entity.Name, EntityID: m.Entity.ID, Routes: m.Routes, Citation: citationOf(ans.Citations, m.Citation)})
	}
	ans.Answer = listSentence(ans.Analysis, ans.List) + " " + framing(ans.Analysis, res)
	ans.Answered, ans.Method, ans.Confidence = true, "global", globalConfidence
	return true, nil
}

// listSentence names the members, each with its citation number.
func listSentence(a *retrieve.Analysis, list []ListEntry) string {
	names := make([]string, len(list))
	for i, e := range list {
		names[i] = e.Name
		if e.Citation > 0 {
			names[i] += fmt.Sprintf("[%d]", e.Citation)
		}
	}
	if text.IsChinese(a.Lang) || a.Lang == text.Unknown {
		return strings.TrimSuffix(a.Global.Phrase, "的") + "有：" + strings.Join(names, "、") + "。"
	}
	return strings.Join(names, ", ") + "."
}

// framing says, in one sentence, what the list is: the best-supported
// members, not every one, and the community most of them belong to.
func framing(a *retrieve.Analysis, res *retrieve.GlobalResult) string {
	zh := text.IsChinese(a.Lang) || a.Lang == text.Unknown
	var group string
	if len(res.Communities) > 0 {
		c := res.Communities[0].Community
		in := 0
		for _, m := range res.Members {
			for _, cm := range c.Members {
				if cm.EntityID == m.Entity.ID {
					in++
					break
				}
			}
		}
		if in*2 >= len(res.Members) {
			group = c.Name
		}
	}
	switch {
	case zh && group != "":
		return fmt.Sprintf("这是依关系、段落与篇章证据排出的前 %d 名，并非完整名单；其中多数属于「%s」一群。", len(res.Members), group)
	case zh:
		return fmt.Sprintf("这是依关系、段落与篇章证据排出的前 %d 名，并非完整名单。", len(res.Members))
	case group != "":
		return fmt.Sprintf("These are the %d best supported by relations, passages and chapters, not a complete list; most belong to the group of %s.", len(res.Members), group)
	}
	return fmt.Sprintf("These are the %d best supported by relations, passages and chapters, not a complete list.", len(res.Members))
}

// citationOf is the number of the citation of an evidence sentence, 0
// when it is not cited.
func citationOf(cs []Citation, ev *kg.Evidence) int {
	if ev == nil {
		return 0
	}
	for _, c := range cs {
		if c.DocID == ev.DocID && c.Start == ev.Start {
			return c.N
		}
	}
	return 0
}

// Step names of the map-reduce global answer, for usage accounting.
const (
	StepGlobalMap    = "global-map"
	StepGlobalReduce = "global-reduce"
)

// Map-reduce figures.
const (
	globalPool       = 20 // members the search hands the model
	globalBatch      = 10 // sentences of members per map call
	globalReportFact = 8  // a community report's sentences per map call
)

// point is one finding of the map step.
type point struct {
	Names     []string `json:"names"`
	Text      string   `json:"text"`
	Citations []int    `json:"citations"`
	Score     float64  `json:"score"`
	// For the reduce prompt.
	NamesText, CiteText string `json:"-"`
}

// globalLLM answers a whole-corpus question in the map-reduce style of
// GraphRAG's global search: the model reads each best community's report
// and the search's members in parts, drawing scored points from each
// (map); then it answers from the best points (reduce). Every name and
// sentence it cites is evidence the search found. It reports false when
// the search found nothing to read.
func (a *Answerer) globalLLM(ctx context.Context, ans *Answer, opts Options) (bool, error) {
	res, err := a.R.Global(ctx, ans.Analysis, globalPool)
	if err != nil {
		return false, err
	}
	if res == nil || len(res.Members) == 0 && len(res.Communities) == 0 {
		return false, nil
	}
	ans.Global = res
	var evidence []numbered
	var parts []struct {
		group string
		items []numbered
	}
	add := func(ev *kg.Evidence, text string) numbered {
		n := numbered{N: len(evidence) + 1, Text: strings.Join(strings.Fields(text), " "), Cite: ev.Cite}
		n.item = &retrieve.Item{Citation: ev}
		evidence = append(evidence, n)
		return n
	}
	for _, rc := range res.Communities {
		c := rc.Community
		var items []numbered
		for i := range c.Summary {
			if len(items) == globalReportFact {
				break
			}
			items = append(items, add(&c.Summary[i], c.Summary[i].Sentence))
		}
		for _, f := range c.Facts {
			if len(items) == globalReportFact {
				break
			}
			if len(f.Evidence) > 0 {
				ev := f.Evidence[0]
				items = append(items, add(&ev, ev.Sentence))
			}
		}
		if len(items) > 0 {
			parts = append(parts, struct {
				group string
				items []numbered
			}{communityLine(c), items})
		}
	}
	var batch []numbered
	for _, m := range res.Members {
		if m.Citation == nil {
			continue
		}
		batch = append(batch, add(m.Citation, m.Entity.Name+"："+m.Citation.Sentence))
		if len(batch) == globalBatch {
			parts = append(parts, struct {
				group string
				items []numbered
			}{"", batch})
			batch = nil
		}
	}
	if len(batch) > 0 {
		parts = append(parts, struct {
			group string
			items []numbered
		}{"", batch})
	}
	var points []point
	for _, p := range parts {
		var reply struct {
			Points []point `json:"points"`
		}
		data := map[string]any{"Question": ans.Question, "Group": p.group, "Items": p.items}
		if err := a.call(ctx, ans, StepGlobalMap, "global_map.tmpl", data, &reply); err != nil {
			return false, err
		}
		for _, pt := range reply.Points {
			// Only numbers this part offered count.
			var cs []int
			for _, n := range pt.Citations {
				if slices.ContainsFunc(p.items, func(x numbered) bool { return x.N == n }) {
					cs = append(cs, n)
				}
			}
			if len(pt.Names) == 0 || len(cs) == 0 && opts.Mode == ModeReject {
				continue
			}
			pt.Citations = cs
			points = append(points, pt)
		}
	}
	sort.SliceStable(points, func(i, j int) bool { return points[i].Score > points[j].Score })
	for i := range points {
		points[i].NamesText = strings.Join(points[i].Names, "、")
		for _, n := range points[i].Citations {
			points[i].CiteText += fmt.Sprintf("[%d]", n)
		}
	}
	ans.Method = "llm-global"
	if len(points) == 0 {
		ans.Answer, ans.Answered, ans.Citations = unable(ans.Analysis.Lang), false, cite()
		return true, nil
	}
	var reply struct {
		Names     []string `json:"names"`
		Answer    string   `json:"answer"`
		Citations []int    `json:"citations"`
		Unable    bool     `json:"unable"`
		Own       bool     `json:"own_knowledge"`
	}
	data := map[string]any{"Question": ans.Question, "Mode": opts.Mode, "Max": GlobalMembers, "Points": points}
	if err := a.callStream(ctx, ans, StepGlobalReduce, "global_reduce.tmpl", data, &reply, opts.Stream); err != nil {
		return false, err
	}
	evs := citedEvidence(evidence, reply.Citations)
	if reply.Unable || len(reply.Names) == 0 || opts.Mode == ModeReject && len(evs) == 0 {
		ans.Answer, ans.Answered, ans.Citations = unable(ans.Analysis.Lang), false, cite()
		return true, nil
	}
	ans.Own = opts.Mode == ModeOpen && reply.Own
	ans.Citations = cite(evs...)
	for _, name := range reply.Names[:min(len(reply.Names), GlobalMembers)] {
		e := ListEntry{Name: name}
		// A name's citation: the first cited sentence of a point naming it.
		for _, pt := range points {
			if slices.Contains(pt.Names, name) {
				for _, n := range pt.Citations {
					if c := citationOf(ans.Citations, evidence[n-1].item.Citation); c > 0 {
						e.Citation = c
						break
					}
				}
			}
			if e.Citation > 0 {
				break
			}
		}
		for _, m := range res.Members {
			if m.Entity.Name == name {
				e.EntityID, e.Routes = m.Entity.ID, m.Routes
			}
		}
		ans.List = append(ans.List, e)
	}
	ans.Answer, ans.Answered, ans.Confidence = strings.TrimSpace(reply.Answer), true, globalConfidence
	if ans.Answer == "" {
		ans.Answer = listSentence(ans.Analysis, ans.List)
	}
	return true, nil
}

// communityLine names a community for a prompt: its name and central
// members.
func communityLine(c kg.Community) string {
	names := make([]string, 0, 8)
	for _, m := range c.Members[:min(len(c.Members), 8)] {
		names = append(names, m.Name)
	}
	return c.Name + "（" + strings.Join(names, "、") + "）"
}
