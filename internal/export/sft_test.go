package export

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/kg"
)

func TestWriteSFT(t *testing.T) {
	// 「亮为丞相，封武乡侯。」 states two facts of 诸葛亮, who is 亮 here;
	// another sentence states a third.
	sentence := "亮为丞相，封武乡侯。"
	ev := func(start int, head, tail kg.Span, s string) kg.Evidence {
		return kg.Evidence{DocKey: "三国志/诸葛亮传.txt", Cite: "《诸葛亮传》", Span: kg.Span{Start: start, End: start + len([]rune(s))}, Head: head, Tail: tail, Sentence: s}
	}
	eight := 8.5
	g := &Graph{Relations: []kg.Relation{
		{Head: "诸葛亮", HeadType: "人物", Type: "封爵", Tail: "武乡侯", TailType: "爵位", Status: kg.StatusVerified,
			Evidence: []kg.Evidence{ev(100, kg.Span{Start: 100, End: 101}, kg.Span{Start: 106, End: 109}, sentence)}},
		{Head: "诸葛亮", HeadType: "人物", Type: "任官", Tail: "丞相", TailType: "职官", Score: &eight,
			Evidence: []kg.Evidence{ev(100, kg.Span{Start: 100, End: 101}, kg.Span{Start: 102, End: 104}, sentence)}},
		{Head: "刘备", HeadType: "人物", Type: "子女", Tail: "刘禅", TailType: "人物", Status: kg.StatusUser,
			Evidence: []kg.Evidence{ev(20, kg.Span{Start: 20, End: 22}, kg.Span{Start: 24, End: 26}, "刘备子刘禅。")}},
		// Offsets outside the sentence: nothing to teach.
		{Head: "甲", HeadType: "人物", Type: "子女", Tail: "乙", TailType: "人物", Status: kg.StatusUser,
			Evidence: []kg.Evidence{ev(300, kg.Span{Start: 1, End: 2}, kg.Span{Start: 302, End: 303}, "甲子乙。")}},
	}}
	var b bytes.Buffer
	if err := WriteSFT(&b, g); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d records, want one a sentence (2):\n%s", len(lines), b.String())
	}
	var first, second SFTRecord
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &second); err != nil {
		t.Fatal(err)
	}
	// Document order: offset 20 before 100.
	if first.Start != 20 || first.Input != "刘备子刘禅。" || second.Input != sentence {
		t.Fatalf("order or input: %+v / %+v", first, second)
	}
	s := second.Steps
	if len(s.Triples) != 2 || s.Triples[0] != (SFTTriple{"亮", "封爵", "武乡侯"}) || s.Triples[1] != (SFTTriple{"亮", "任官", "丞相"}) {
		t.Fatalf("triples as the sentence writes them: %+v", s.Triples)
	}
	if s.Entities[0] != (SFTEntity{Text: "亮", Type: "人物", Name: "诸葛亮"}) || len(s.Entities) != 3 {
		t.Fatalf("entities, the short name with the full: %+v", s.Entities)
	}
	if len(s.Framework) != 2 || s.Framework[1] != [3]string{"人物", "任官", "职官"} || s.Analysis != "亮的封爵是武乡侯；亮的任官是丞相。" {
		t.Fatalf("framework %v, analysis %q", s.Framework, s.Analysis)
	}
	// The output is the reply the extraction prompt asks for.
	var reply struct {
		Entities  []SFTEntity `json:"entities"`
		Analysis  string      `json:"analysis"`
		Framework [][3]string `json:"framework"`
		Triples   []SFTTriple `json:"triples"`
	}
	if err := json.Unmarshal([]byte(second.Output), &reply); err != nil || len(reply.Triples) != 2 || reply.Analysis != s.Analysis {
		t.Fatalf("output %s: %v", second.Output, err)
	}
	if got := analysis([]SFTTriple{{"Liu Biao", "parent_of", "Liu Cong"}}); got != "Liu Biao parent of Liu Cong." {
		t.Errorf("an English schema's analysis: %q", got)
	}
}

func TestVerifiedFacts(t *testing.T) {
	seven, nine := 7.0, 9.0
	ents := []kg.Entity{{ID: 1, Name: "a"}, {ID: 2, Name: "b"}}
	rels := []kg.Relation{
		{ID: 1, HeadID: 1, TailID: 2, Status: kg.StatusExtracted},
		{ID: 2, HeadID: 1, TailID: 2, Status: kg.StatusExtracted, Score: &seven},
		{ID: 3, HeadID: 1, TailID: 2, Status: kg.StatusExtracted, Score: &nine},
		{ID: 4, HeadID: 1, TailID: 2, Status: kg.StatusVerified},
		{ID: 5, HeadID: 1, TailID: 2, Status: kg.StatusUser},
		{ID: 6, HeadID: 1, TailID: 2, Status: kg.StatusInferred},
	}
	g := Select(ents, rels, Filter{Verified: true, MinScore: 8})
	var ids []int64
	for _, r := range g.Relations {
		ids = append(ids, r.ID)
	}
	if len(ids) != 3 || ids[0] != 3 || ids[1] != 4 || ids[2] != 5 {
		t.Fatalf("verified facts: %v, want 3 (scored 9), 4 (verified), 5 (user)", ids)
	}
	if all := Select(ents, rels, Filter{}); len(all.Relations) != len(rels) {
		t.Fatalf("no filter kept %d of %d", len(all.Relations), len(rels))
	}
}
