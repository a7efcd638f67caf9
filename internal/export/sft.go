package export

import (
	"bufio"
	"cmp"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"unicode"

	"github.com/annals-project/annals/internal/kg"
)

// SFT writes chain-of-thought training records for users who fine-tune an
// extraction model elsewhere (seed 000 fine-tunes on such records): one a
// sentence, with the sentence as input, the extraction prompt's five
// steps worked out from the facts it states, and as output the reply the
// prompt asks for. Only the facts an export keeps are used; annals export
// keeps the verified ones for this format unless told otherwise.
const SFT = "sft"

// SFTRecord is one training record, with the sentence's provenance.
type SFTRecord struct {
	Doc   string   `json:"doc"`
	Cite  string   `json:"cite"`
	Start int      `json:"start"`
	End   int      `json:"end"`
	Input string   `json:"input"`
	Steps SFTSteps `json:"steps"`
	// Output is Steps' entities, analysis, framework and triples as the
	// JSON object the extraction prompt asks a model to reply with.
	Output string `json:"output"`
}

// SFTSteps are the extraction prompt's five steps for one sentence.
type SFTSteps struct {
	// Translation (step 1) into modern Chinese; empty: annals translates
	// nothing offline, and a modern text needs none.
	Translation string      `json:"translation"`
	Entities    []SFTEntity `json:"entities"`  // step 2, as written in the sentence
	Analysis    string      `json:"analysis"`  // step 3
	Framework   [][3]string `json:"framework"` // step 4: (head type, relation, tail type)
	Triples     []SFTTriple `json:"triples"`   // step 5
}

// SFTEntity is an entity as the sentence writes it, with its full name
// where the sentence shortens it (亮 for 诸葛亮).
type SFTEntity struct {
	Text string `json:"text"`
	Type string `json:"type"`
	Name string `json:"name,omitempty"`
}

// SFTTriple is a fact between entities as the sentence writes them.
type SFTTriple struct {
	Head     string `json:"head"`
	Relation string `json:"relation"`
	Tail     string `json:"tail"`
}

// written is the part of the sentence a span of the document covers, or
// "" when the span is not inside it.
func written(ev *kg.Evidence, sp kg.Span) string {
	rs := []rune(ev.Sentence)
	a, b := sp.Start-ev.Start, sp.End-ev.Start
	if a < 0 || b > len(rs) || a >= b {
		return ""
	}
	return string(rs[a:b])
}

// WriteSFT writes a record for every sentence that states one of g's
// facts, in document order.
func WriteSFT(w io.Writer, g *Graph) error {
	type key struct {
		doc        string
		start, end int
	}
	recs := map[key]*SFTRecord{}
	for i := range g.Relations {
		r := &g.Relations[i]
		for j := range r.Evidence {
			ev := &r.Evidence[j]
			head, tail := written(ev, ev.Head), written(ev, ev.Tail)
			if head == "" || tail == "" {
				continue // a fact whose names the sentence does not hold teaches nothing
			}
			k := key{ev.DocKey, ev.Start, ev.End}
			rec := recs[k]
			if rec == nil {
				rec = &SFTRecord{Doc: ev.DocKey, Cite: ev.Cite, Start: ev.Start, End: ev.End, Input: ev.Sentence}
				recs[k] = rec
			}
			s := &rec.Steps
			addEntity(s, SFTEntity{Text: head, Type: r.HeadType, Name: nameIfShort(head, r.Head)})
			addEntity(s, SFTEntity{Text: tail, Type: r.TailType, Name: nameIfShort(tail, r.Tail)})
			if f := [3]string{r.HeadType, r.Type, r.TailType}; !slices.Contains(s.Framework, f) {
				s.Framework = append(s.Framework, f)
			}
			if t := (SFTTriple{head, r.Type, tail}); !slices.Contains(s.Triples, t) {
				s.Triples = append(s.Triples, t)
			}
		}
	}
	out := make([]*SFTRecord, 0, len(recs))
	for _, rec := range recs {
		s := &rec.Steps
		s.Analysis = analysis(s.Triples)
		reply, err := json.Marshal(struct {
			Entities  []SFTEntity `json:"entities"`
			Analysis  string      `json:"analysis"`
			Framework [][3]string `json:"framework"`
			Triples   []SFTTriple `json:"triples"`
		}{s.Entities, s.Analysis, s.Framework, s.Triples})
		if err != nil {
			return err
		}
		rec.Output = string(reply)
		out = append(out, rec)
	}
	slices.SortFunc(out, func(a, b *SFTRecord) int {
		return cmp.Or(strings.Compare(a.Doc, b.Doc), cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End))
	})
	b := bufio.NewWriterSize(w, 1<<16)
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	for _, rec := range out {
		if err := enc.Encode(rec); err != nil {
			return err
		}
	}
	return b.Flush()
}

// analysis states the triples in words, as step 3 asks: in Chinese for a
// schema with Chinese names (诸葛亮的任官是丞相), else in English.
func analysis(ts []SFTTriple) string {
	parts := make([]string, len(ts))
	chinese := false
	for i, t := range ts {
		if strings.ContainsFunc(t.Relation, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
			parts[i], chinese = t.Head+"的"+t.Relation+"是"+t.Tail, true
		} else {
			parts[i] = t.Head + " " + strings.ReplaceAll(t.Relation, "_", " ") + " " + t.Tail
		}
	}
	if chinese {
		return strings.Join(parts, "；") + "。"
	}
	return strings.Join(parts, "; ") + "."
}

func addEntity(s *SFTSteps, e SFTEntity) {
	if !slices.Contains(s.Entities, e) {
		s.Entities = append(s.Entities, e)
	}
}

// nameIfShort is the full name where the sentence writes another.
func nameIfShort(text, name string) string {
	if text == name {
		return ""
	}
	return name
}

// Verified says whether a fact is fit to teach a model: confirmed (by
// relation reasoning's verification or by a user), or scored by the
// process-supervision judge at minScore or above (0–10).
func Verified(r *kg.Relation, minScore float64) bool {
	switch r.Status {
	case kg.StatusVerified, kg.StatusUser:
		return true
	}
	return r.Score != nil && *r.Score >= minScore
}
