package schema

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
)

func TestGrowthNeedsThreeConfidentChunks(t *testing.T) {
	g := NewGrowth(GrowthOptions{})
	p := Proposal{Kind: KindRelation, Name: "师从", Description: "head studied under tail", Domain: []string{"人物"}, Range: []string{"人物"}}

	// Confident, but twice in the same chunk: one chunk of support.
	p.Confidence, p.Chunk = 0.9, "doc#1"
	g.Propose(p)
	g.Propose(p)
	// Two more chunks below μ do not count.
	for i := 2; i <= 3; i++ {
		p.Confidence, p.Chunk = 0.7, fmt.Sprintf("doc#%d", i)
		if g.Propose(p) {
			t.Fatal("accepted on low confidence")
		}
	}
	if len(g.Accepted()) != 0 || len(g.Pending()) != 1 {
		t.Fatalf("accepted %v pending %v", g.Accepted(), g.Pending())
	}
	p.Confidence, p.Chunk = 0.85, "doc#2" // raises chunk 2 above μ
	if g.Propose(p) {
		t.Fatal("accepted with two chunks")
	}
	p.Confidence, p.Chunk = 0.8, "doc#4" // exactly μ counts
	if !g.Propose(p) {
		t.Fatal("third confident chunk did not accept")
	}
	if g.Propose(p) {
		t.Fatal("acceptance reported twice")
	}
	acc := g.Accepted()
	if len(acc) != 1 || acc[0].Support != 3 || len(g.Pending()) != 0 {
		t.Fatalf("accepted %+v", acc)
	}

	base := MustLoad(ZhHistory)
	grown := g.Apply(base)
	if base.Relation("师从") != nil {
		t.Fatal("Apply changed its argument")
	}
	if !grown.Allows("人物", "师从", "人物") || grown.Allows("地点", "师从", "人物") {
		t.Fatal("grown schema lacks the relation or its domain")
	}
	if len(grown.RelationTypes) != len(base.RelationTypes)+1 {
		t.Fatalf("grown has %d relations", len(grown.RelationTypes))
	}
}

func TestGrowthConfigurable(t *testing.T) {
	g := NewGrowth(GrowthOptions{Threshold: 0.5, MinChunks: 2})
	for i := range 2 {
		g.Propose(Proposal{Kind: KindEntity, Name: "官署", Confidence: 0.6, Chunk: fmt.Sprint(i)})
	}
	if len(g.Accepted()) != 1 {
		t.Fatalf("accepted %v", g.Accepted())
	}
}

func TestGrowthIgnoresBadProposals(t *testing.T) {
	g := NewGrowth(GrowthOptions{})
	for _, p := range []Proposal{
		{Kind: "rule", Name: "x", Confidence: 1},
		{Kind: KindEntity, Name: "  ", Confidence: 1},
		{Kind: KindEntity, Name: string(make([]rune, 100)), Confidence: 1},
	} {
		g.Propose(p)
	}
	if n := len(g.Pending()) + len(g.Accepted()); n != 0 {
		t.Fatalf("kept %d bad proposals", n)
	}
}

func TestGrowthApplyEntityAndRelation(t *testing.T) {
	g := NewGrowth(GrowthOptions{MinChunks: 1})
	g.Propose(Proposal{Kind: KindEntity, Name: "官署", Confidence: 0.9, Chunk: "a"})
	g.Propose(Proposal{Kind: KindRelation, Name: "供职", Domain: []string{"人物"}, Range: []string{"官署"}, Confidence: 0.9, Chunk: "a"})
	// Its range names no known type: left out rather than widened to any.
	g.Propose(Proposal{Kind: KindRelation, Name: "驻扎", Domain: []string{"人物"}, Range: []string{"军营"}, Confidence: 0.9, Chunk: "a"})
	g.Propose(Proposal{Kind: KindAttribute, Name: "别号", Confidence: 0.9, Chunk: "a"})
	// Already in the schema: Apply leaves it alone.
	g.Propose(Proposal{Kind: KindRelation, Name: "任官", Domain: []string{"地点"}, Range: []string{"地点"}, Confidence: 0.9, Chunk: "a"})

	s := g.Apply(MustLoad(ZhHistory))
	if !s.HasEntityType("官署") || !s.Allows("人物", "供职", "官署") {
		t.Fatal("entity type or relation missing")
	}
	if s.Relation("驻扎") != nil {
		t.Fatal("relation with unknown range accepted")
	}
	if s.Allows("地点", "任官", "地点") {
		t.Fatal("existing relation widened")
	}
	found := false
	for _, a := range s.AttributeTypes {
		found = found || a.Name == "别号"
	}
	if !found {
		t.Fatal("attribute missing")
	}
	if (*Growth)(nil).Apply(MustLoad(General)).Name != General {
		t.Fatal("nil tracker must return a copy")
	}
}

func TestGrowthJSONRoundTrip(t *testing.T) {
	g := NewGrowth(GrowthOptions{Threshold: 0.7})
	for i := range 3 {
		g.Propose(Proposal{Kind: KindRelation, Name: "师从", Domain: []string{"人物"}, Range: []string{"人物"}, Confidence: 0.75, Chunk: fmt.Sprint(i), Evidence: "从某某学"})
	}
	g.Propose(Proposal{Kind: KindEntity, Name: "官署", Confidence: 0.9, Chunk: "x"})
	data, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	var h Growth
	if err := json.Unmarshal(data, &h); err != nil {
		t.Fatal(err)
	}
	if h.Options().Threshold != 0.7 || h.Options().MinChunks != DefaultGrowthChunks {
		t.Fatalf("options %+v", h.Options())
	}
	if a := h.Accepted(); len(a) != 1 || a[0].Name != "师从" || a[0].Support != 3 {
		t.Fatalf("accepted after restore: %+v", a)
	}
	if p := h.Pending(); len(p) != 1 || p[0].Name != "官署" {
		t.Fatalf("pending after restore: %+v", p)
	}
	again, _ := json.Marshal(&h)
	if string(again) != string(data) {
		t.Fatalf("not stable:\n%s\n%s", data, again)
	}
}

func TestGrowthConcurrent(t *testing.T) {
	g := NewGrowth(GrowthOptions{})
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				g.Propose(Proposal{Kind: KindEntity, Name: fmt.Sprint("t", i%5), Confidence: 0.9, Chunk: fmt.Sprint(w, "-", i)})
				if i%50 == 0 {
					g.Accepted()
					_, _ = json.Marshal(g)
				}
			}
		}()
	}
	wg.Wait()
	if len(g.Accepted()) != 5 {
		t.Fatalf("accepted %d", len(g.Accepted()))
	}
}
