package community

import (
	"cmp"
	"context"
	"embed"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/llm"
)

//go:embed prompts/*.tmpl
var prompts embed.FS

// LLM steps of a community report, for usage accounting.
const (
	StepReportMap    = "community-map"
	StepReportReduce = "community-reduce"
)

// How much evidence a written report reads.
const (
	reportPart     = 10 // sentences a map call reads
	reportEvidence = 30 // sentences in all
)

// Writer writes a community's report with an LLM in the map-reduce style
// of GraphRAG global search: each part of the offline report's cited
// sentences is read for points, and one call writes a title and a summary
// from the points, every sentence citing the evidence it rests on.
type Writer struct {
	Client    llm.Client
	Model     string // recorded on the report
	PromptDir string // overrides of the built-in prompts
}

// numberedSentence is one sentence of evidence as the prompts show it.
type numberedSentence struct {
	N    int
	Text string
	Cite string
	ev   kg.Evidence
}

type reportPoint struct {
	Text      string `json:"text"`
	Citations []int  `json:"citations"`
	Score     int    `json:"score"`
}

// Write adds the written report to c, leaving its offline report as it
// is. A summary sentence that cites no evidence the model was shown is
// dropped; a report left with no sentence is an error, as is a malformed
// reply.
func (w Writer) Write(ctx context.Context, c *kg.Community) (llm.Usage, error) {
	var usage llm.Usage
	if w.Client == nil {
		return usage, errors.New("write a community report: no LLM")
	}
	evidence := reportSentences(c)
	if len(evidence) == 0 {
		return usage, nil // nothing cited to write from
	}
	load := func(name string) (*llm.Template, error) {
		return llm.LoadTemplate(prompts, "prompts", name, w.PromptDir, nil)
	}
	mapT, err := load("community_map.tmpl")
	if err != nil {
		return usage, err
	}
	reduceT, err := load("community_reduce.tmpl")
	if err != nil {
		return usage, err
	}
	head := map[string]any{"Name": c.Name, "Size": c.Size, "Members": MemberNames(c, 8), "Keywords": KeywordTerms(c, 8), "Years": yearsOf(c)}
	var points []reportPoint
	for start := 0; start < len(evidence); start += reportPart {
		part := evidence[start:min(len(evidence), start+reportPart)]
		var reply struct {
			Points []reportPoint `json:"points"`
		}
		data := map[string]any{"Items": part}
		for k, v := range head {
			data[k] = v
		}
		u, err := llm.ChatJSON(ctx, w.Client, mapT, StepReportMap, data, &reply)
		usage = usage.Add(u)
		if err != nil {
			return usage, fmt.Errorf("write the report of community %d: read its evidence: %w", c.ID, err)
		}
		for _, p := range reply.Points {
			// Only numbers this part showed count.
			p.Citations = slices.DeleteFunc(p.Citations, func(n int) bool { return n < part[0].N || n > part[len(part)-1].N })
			if strings.TrimSpace(p.Text) != "" && len(p.Citations) > 0 {
				points = append(points, p)
			}
		}
	}
	if len(points) == 0 {
		return usage, nil // the evidence said nothing the model could use
	}
	slices.SortStableFunc(points, func(a, b reportPoint) int { return cmp.Compare(b.Score, a.Score) })
	var reply struct {
		Title   string `json:"title"`
		Summary []struct {
			Text      string `json:"text"`
			Citations []int  `json:"citations"`
		} `json:"summary"`
	}
	data := map[string]any{"Points": points}
	for k, v := range head {
		data[k] = v
	}
	u, err := llm.ChatJSON(ctx, w.Client, reduceT, StepReportReduce, data, &reply)
	usage = usage.Add(u)
	if err != nil {
		return usage, fmt.Errorf("write the report of community %d: %w", c.ID, err)
	}
	cited := map[int]bool{}
	for _, p := range points {
		for _, n := range p.Citations {
			cited[n] = true
		}
	}
	rep := &kg.WrittenReport{Title: strings.TrimSpace(reply.Title), Model: w.Model}
	for _, s := range reply.Summary {
		line := kg.ReportLine{Text: strings.TrimSpace(s.Text)}
		for _, n := range s.Citations {
			// A sentence may cite only what the points it rests on cited.
			if cited[n] && n >= 1 && n <= len(evidence) && !slices.ContainsFunc(line.Evidence, func(e kg.Evidence) bool { return e == evidence[n-1].ev }) {
				line.Evidence = append(line.Evidence, evidence[n-1].ev)
			}
		}
		if line.Text != "" && len(line.Evidence) > 0 {
			rep.Summary = append(rep.Summary, line)
		}
	}
	if len(rep.Summary) == 0 {
		return usage, fmt.Errorf("write the report of community %d: the model cited none of the evidence it was shown", c.ID)
	}
	c.Written = rep
	return usage, nil
}

// reportSentences numbers the offline report's cited sentences: its
// summary, its key facts and its attributes, each sentence once.
func reportSentences(c *kg.Community) []numberedSentence {
	var out []numberedSentence
	seen := map[[3]int64]bool{}
	add := func(ev *kg.Evidence) {
		if ev == nil || ev.Sentence == "" || len(out) == reportEvidence {
			return
		}
		k := [3]int64{ev.DocID, int64(ev.Start), int64(ev.End)}
		if seen[k] {
			return
		}
		seen[k] = true
		out = append(out, numberedSentence{N: len(out) + 1, Text: strings.Join(strings.Fields(ev.Sentence), " "), Cite: ev.Cite, ev: *ev})
	}
	for i := range c.Summary {
		add(&c.Summary[i])
	}
	for _, f := range c.Facts {
		if len(f.Evidence) > 0 {
			add(&f.Evidence[0])
		}
	}
	for _, a := range c.Attributes {
		add(a.Evidence)
	}
	return out
}

// MemberNames lists a report's first n central members, 、-separated.
func MemberNames(c *kg.Community, n int) string {
	var names []string
	for _, m := range c.Members[:min(len(c.Members), n)] {
		names = append(names, m.Name)
	}
	return strings.Join(names, "、")
}

// KeywordTerms lists a report's first n keywords, 、-separated.
func KeywordTerms(c *kg.Community, n int) string {
	var ks []string
	for _, k := range c.Keywords[:min(len(c.Keywords), n)] {
		ks = append(ks, k.Term)
	}
	return strings.Join(ks, "、")
}

func yearsOf(c *kg.Community) string {
	if c.From == nil || c.To == nil {
		return ""
	}
	return fmt.Sprintf("%d–%d", *c.From, *c.To)
}
