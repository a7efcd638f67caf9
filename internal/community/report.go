package community

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/annals-project/annals/internal/kg"
)

// ReportSource is what reports read beyond the graph: the facts chosen as
// key facts with their sentences, and the central members' names and
// titles.
type ReportSource interface {
	RelationsByID(ctx context.Context, ids []int64, per int) ([]kg.Relation, error)
	Aliases(ctx context.Context, entityID int64) ([]kg.Alias, error)
	Statements(ctx context.Context, entityID int64, types []string, per int) ([]kg.Relation, error)
}

// Report sizes.
const (
	MinSize       = 3  // smaller groups are not reported as communities
	reportMembers = 30 // central members kept in a report
	reportWords   = 8
	reportFacts   = 8
	summaryLines  = 3
	attrMembers   = 5 // central people whose attributes the tree holds
	attrTitles    = 3 // their best supported titles
)

// Alias kinds that are attributes of a person in the knowledge tree.
var attributeKinds = map[string]bool{"字": true, "号": true, "谥号": true, "小字": true, "封号": true}

// Reports writes the offline report of every community of at least
// MinSize members in partition of, largest first. Each report names its
// central members, its keywords, the years of its dated facts, its key
// facts and a short extractive summary, every fact and sentence cited.
//
// All returns every member of each reported community, most central first,
// in the same order as the reports.
func Reports(ctx context.Context, src ReportSource, g *Graph, of []int, method string) (reports []kg.Community, all [][]kg.CommunityMember, err error) {
	groups := map[int][]int{}
	for i, c := range of {
		groups[c] = append(groups[c], i)
	}
	var ids []int
	for c, m := range groups {
		if len(m) >= MinSize {
			ids = append(ids, c)
		}
	}
	slices.SortFunc(ids, func(a, b int) int {
		return cmp.Or(cmp.Compare(len(groups[b]), len(groups[a])), cmp.Compare(a, b))
	})
	inside := make([]float64, len(g.Nodes)) // link weight inside the node's community
	incident := make([][]int, len(g.Nodes))
	for k, e := range g.Edges {
		if e.A == e.B || e.A < 0 || e.B < 0 || e.A >= len(of) || e.B >= len(of) {
			continue
		}
		incident[e.A] = append(incident[e.A], k)
		incident[e.B] = append(incident[e.B], k)
		if of[e.A] == of[e.B] {
			inside[e.A] += e.weight()
			inside[e.B] += e.weight()
		}
	}
	terms := make([]map[string]float64, len(ids))
	df := map[string]int{}
	for n, c := range ids {
		terms[n] = keywordCounts(g, of, c, groups[c], incident)
		for t := range terms[n] {
			df[t]++
		}
	}
	for n, c := range ids {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		members := groups[c]
		total := 0.0
		for _, i := range members {
			total += inside[i]
		}
		ms := make([]kg.CommunityMember, len(members))
		mentions := map[int64]int{}
		for k, i := range members {
			share := 0.0
			if total > 0 {
				share = inside[i] / total
			}
			nd := g.Nodes[i]
			ms[k] = kg.CommunityMember{EntityID: nd.ID, Name: nd.Name, Type: nd.Type, Centrality: round3(share)}
			mentions[nd.ID] = nd.Weight
		}
		slices.SortStableFunc(ms, func(a, b kg.CommunityMember) int {
			return cmp.Or(cmp.Compare(b.Centrality, a.Centrality), cmp.Compare(mentions[b.EntityID], mentions[a.EntityID]), cmp.Compare(a.EntityID, b.EntityID))
		})
		r := kg.Community{ID: int64(n + 1), Method: method, Size: len(members), Members: ms[:min(len(ms), reportMembers)]}
		r.Keywords = topKeywords(terms[n], df, len(ids))
		r.From, r.To = span(g, of, c, members, incident)
		if r.Facts, err = keyFacts(ctx, src, g, of, c, members, incident, inside); err != nil {
			return nil, nil, err
		}
		r.Summary = summarise(r)
		r.Name = nameOf(r)
		if r.Attributes, err = attributes(ctx, src, r.Members); err != nil {
			return nil, nil, err
		}
		reports = append(reports, r)
		all = append(all, ms)
	}
	return reports, all, nil
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// keywordCounts are the terms of a community's sentences, weighted by the
// evidence that states them: the names its members' facts join them to,
// other than its own people. People are what the community is; the
// places, groups and events its facts name are what mark it.
func keywordCounts(g *Graph, of []int, c int, members []int, incident [][]int) map[string]float64 {
	out := map[string]float64{}
	for _, i := range members {
		for _, k := range incident[i] {
			e := g.Edges[k]
			other := e.B
			if other == i {
				other = e.A
			}
			if of[other] == c && isPerson(g.Nodes[other].Type) {
				continue
			}
			out[g.Nodes[other].Name] += e.weight()
		}
	}
	return out
}

func isPerson(t string) bool { return t == "人物" || t == "person" }

// topKeywords ranks terms by TF-IDF over the communities.
func topKeywords(tf map[string]float64, df map[string]int, n int) []kg.Keyword {
	var out []kg.Keyword
	for t, f := range tf {
		idf := math.Log(float64(n+1) / float64(df[t]))
		out = append(out, kg.Keyword{Term: t, Weight: round3(math.Log1p(f) * idf)})
	}
	slices.SortFunc(out, func(a, b kg.Keyword) int {
		return cmp.Or(cmp.Compare(b.Weight, a.Weight), strings.Compare(a.Term, b.Term))
	})
	return out[:min(len(out), reportWords)]
}

// span is the middle 80 % of the years the community's facts are dated to.
func span(g *Graph, of []int, c int, members []int, incident [][]int) (from, to *int) {
	var years []int
	seen := map[int]bool{}
	for _, i := range members {
		for _, k := range incident[i] {
			if seen[k] {
				continue
			}
			seen[k] = true
			years = append(years, g.Edges[k].Years...)
		}
	}
	if len(years) == 0 {
		return nil, nil
	}
	slices.Sort(years)
	lo, hi := years[len(years)/10], years[min(len(years)-1, len(years)*9/10)]
	return &lo, &hi
}

// keyFacts are the community's best supported facts between its members,
// those of its most central members first, each with one sentence.
func keyFacts(ctx context.Context, src ReportSource, g *Graph, of []int, c int, members []int, incident [][]int, inside []float64) ([]kg.Relation, error) {
	type cand struct {
		rel    int64
		weight float64
	}
	seen := map[int]bool{}
	var cands []cand
	for _, i := range members {
		for _, k := range incident[i] {
			e := g.Edges[k]
			if seen[k] || of[e.A] != c || of[e.B] != c || e.RelationID == 0 || e.Relation == "别称" {
				continue
			}
			seen[k] = true
			cands = append(cands, cand{e.RelationID, e.weight() * (1 + inside[e.A] + inside[e.B])})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		return cmp.Or(cmp.Compare(b.weight, a.weight), cmp.Compare(a.rel, b.rel))
	})
	ids := make([]int64, 0, reportFacts)
	for _, x := range cands[:min(len(cands), reportFacts)] {
		ids = append(ids, x.rel)
	}
	rels, err := src.RelationsByID(ctx, ids, 1)
	if err != nil {
		return nil, fmt.Errorf("read a community's key facts: %w", err)
	}
	order := map[int64]int{}
	for k, id := range ids {
		order[id] = k
	}
	slices.SortFunc(rels, func(a, b kg.Relation) int { return cmp.Compare(order[a.ID], order[b.ID]) })
	return rels, nil
}

// summarise picks up to summaryLines sentences of the key facts, each
// time the one that names most central members and keywords not yet
// named.
func summarise(r kg.Community) []kg.Evidence {
	var words []string
	for _, m := range r.Members[:min(len(r.Members), 8)] {
		words = append(words, m.Name)
	}
	for _, k := range r.Keywords {
		if !slices.Contains(words, k.Term) {
			words = append(words, k.Term)
		}
	}
	covered := map[string]bool{}
	used := map[string]bool{}
	var out []kg.Evidence
	for len(out) < summaryLines {
		best, gain := -1, 0
		for i, f := range r.Facts {
			if len(f.Evidence) == 0 || used[f.Evidence[0].Sentence] {
				continue
			}
			g := 0
			for _, w := range words {
				if !covered[w] && strings.Contains(f.Evidence[0].Sentence, w) {
					g++
				}
			}
			if g > gain {
				best, gain = i, g
			}
		}
		if best < 0 {
			break
		}
		ev := r.Facts[best].Evidence[0]
		used[ev.Sentence] = true
		for _, w := range words {
			if strings.Contains(ev.Sentence, w) {
				covered[w] = true
			}
		}
		out = append(out, ev)
	}
	return out
}

// nameOf names a community by its three most central members, after its
// first keyword: 吴：孙权、周瑜、鲁肃.
func nameOf(r kg.Community) string {
	var names []string
	for _, m := range r.Members {
		if len(names) == 3 {
			break
		}
		names = append(names, m.Name)
	}
	name := strings.Join(names, "、")
	if len(r.Keywords) > 0 {
		name = r.Keywords[0].Term + "：" + name
	}
	return name
}

// attributes are the fourth level of the tree: the names and titles of
// the community's most central people.
func attributes(ctx context.Context, src ReportSource, members []kg.CommunityMember) ([]kg.Attribute, error) {
	var out []kg.Attribute
	n := 0
	for _, m := range members {
		if n == attrMembers {
			break
		}
		if !isPerson(m.Type) {
			continue
		}
		n++
		as, err := src.Aliases(ctx, m.EntityID)
		if err != nil {
			return nil, fmt.Errorf("read %s's names: %w", m.Name, err)
		}
		seen := map[string]bool{}
		for _, a := range as {
			if attributeKinds[a.Kind] && !seen[a.Kind+a.Name] {
				seen[a.Kind+a.Name] = true
				out = append(out, kg.Attribute{EntityID: m.EntityID, Entity: m.Name, Kind: a.Kind, Value: a.Name})
			}
		}
		titles, err := src.Statements(ctx, m.EntityID, []string{"封爵"}, 1)
		if err != nil {
			return nil, fmt.Errorf("read %s's titles: %w", m.Name, err)
		}
		kept := 0
		for _, t := range titles {
			if t.HeadID != m.EntityID || kept == attrTitles {
				continue
			}
			kept++
			a := kg.Attribute{EntityID: m.EntityID, Entity: m.Name, Kind: "爵位", Value: t.Tail}
			if len(t.Evidence) > 0 {
				a.Evidence = &t.Evidence[0]
			}
			out = append(out, a)
		}
	}
	return out, nil
}
