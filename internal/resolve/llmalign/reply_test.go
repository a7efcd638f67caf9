package llmalign

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/llm"
)

func testBatch() []*group {
	mk := func(typ string, names ...string) *group {
		g := &group{typ: typ}
		for i, n := range names {
			nd := newNode(kg.Entity{ID: int64(len(n) + i), Name: n, Type: typ, Mentions: 10 - i}, true)
			g.members = append(g.members, &nd)
		}
		return g
	}
	return []*group{mk("人物", "曹操", "曹孟德", "魏武帝"), mk("人物", "刘备", "刘玄德")}
}

func TestParseReply(t *testing.T) {
	batch := testBatch()
	ds, problems, err := parseReply("```json\n"+`{"groups":[{"id":1,"merge":[["魏武帝","曹孟德","曹操"]],"canonical":"曹操","reason":"同一人"},{"id":"2","merge":["刘玄德","刘备"]}]}`+"\n```", batch)
	if err != nil || len(ds) != 2 || len(problems) != 0 {
		t.Fatalf("%v %+v %v", err, ds, problems)
	}
	s := ds[0].sets[0]
	if s.canonical.ent.Name != "曹操" || len(s.others) != 2 || s.others[0].ent.Name != "曹孟德" || ds[0].reason != "同一人" {
		t.Fatalf("set %+v", s)
	}
	// No canonical: the most mentioned name of the set.
	if s := ds[1].sets[0]; s.canonical.ent.Name != "刘备" || s.others[0].ent.Name != "刘玄德" {
		t.Fatalf("set %+v", s)
	}
	// A canonical outside its set falls back, and is counted.
	ds, problems, _ = parseReply(`{"groups":[{"id":1,"merge":[["曹孟德","魏武帝"]],"canonical":"刘备"}]}`, batch)
	if ds[0].sets[0].canonical.ent.Name != "曹孟德" || problems[fixCanonical] != 1 {
		t.Fatalf("%+v %v", ds, problems)
	}
	// Several sets with a canonical each.
	ds, _, _ = parseReply(`{"groups":[{"id":1,"merge":[["曹操","曹孟德"],["魏武帝"]],"canonical":["曹孟德"]}]}`, batch)
	if len(ds[0].sets) != 1 || ds[0].sets[0].canonical.ent.Name != "曹孟德" {
		t.Fatalf("%+v", ds)
	}
}

func FuzzParseReply(f *testing.F) {
	for _, s := range []string{
		`{"groups":[{"id":1,"merge":[["曹操","曹孟德"]],"canonical":"曹操","reason":"x"}]}`,
		`{"groups":[{"id":2,"merge":[["刘备","刘玄德"],["刘备"]],"canonical":["刘玄德","x"]}]}`,
		`[{"id":"1","merge":["曹操","魏武帝"]}]`,
		`{"groups":[{"id":1.0,"merge":null},{"id":1e300},{"id":-1},{"id":{}}]}`,
		`{"groups":[{"id":1,"merge":[["曹操","曹操 "," 曹孟德"]],"canonical":7}]}`,
		`<think>{"groups":`, `{"groups":[{"id":1,"merge":[["曹`, "", "null", `{"groups":{}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		batch := testBatch()
		ds, _, err := parseReply(content, batch)
		if err != nil && len(ds) > 0 {
			t.Fatal("a failed reply yielded decisions")
		}
		seenGroup := map[int]bool{}
		for _, d := range ds {
			if d.group < 0 || d.group >= len(batch) || seenGroup[d.group] {
				t.Fatalf("bad group %d", d.group)
			}
			seenGroup[d.group] = true
			used := map[*node]bool{}
			for _, s := range d.sets {
				if s.canonical == nil || len(s.others) == 0 {
					t.Fatalf("set without names: %+v", s)
				}
				for _, n := range append([]*node{s.canonical}, s.others...) {
					if !containsNode(batch[d.group].members, n) || used[n] || n.ent.Type != batch[d.group].typ {
						t.Fatalf("name %s outside its group or in two sets", n.ent.Name)
					}
					used[n] = true
				}
			}
			if len([]rune(d.reason)) > maxReason+1 || strings.ContainsAny(d.reason, "\n\r") {
				t.Fatalf("reason %q", d.reason)
			}
		}
	})
}

// evidenceStore answers the two reads the prompt makes with text of
// realistic length.
type evidenceStore struct{ Store }

func (evidenceStore) Mentions(_ context.Context, id int64, limit int) ([]kg.Mention, error) {
	var out []kg.Mention
	for i := range min(limit, 4) {
		out = append(out, kg.Mention{DocID: int64(i), Span: kg.Span{Start: i * 100}, Cite: "《三国志·魏书·武帝纪》",
			// As the store cuts it: 20 characters each side of the name.
			Context: "太祖武皇帝沛国谯人也姓曹讳操字孟德汉相国参之后桓帝世曹腾为中常侍大长秋封费亭侯养子嵩嗣官至太尉"})
	}
	return out, nil
}

func (evidenceStore) Relations(_ context.Context, id int64, limit int) ([]kg.Relation, error) {
	var out []kg.Relation
	for range min(limit, 5) {
		out = append(out, kg.Relation{Head: "曹孟德", Type: "任职", Tail: "丞相"})
	}
	return out, nil
}

// TestPromptSize keeps the prompt lean: a full batch of eight groups of
// three names, each with two snippets, three relations and aliases.
func TestPromptSize(t *testing.T) {
	var batch []*group
	for i := range 8 {
		g := &group{typ: "人物"}
		for j := range 3 {
			n := newNode(kg.Entity{ID: int64(i*3 + j), Name: fmt.Sprintf("司马仲达%d", j), Type: "人物",
				Aliases: []kg.Alias{{Name: "仲达", Kind: "字"}, {Name: "宣帝", Kind: "谥号"}, {Name: "晋宣帝", Kind: "dictionary"}}}, true)
			g.members = append(g.members, &n)
		}
		if err := render(context.Background(), evidenceStore{}, g, "m", map[int64]string{}); err != nil {
			t.Fatal(err)
		}
		batch = append(batch, g)
	}
	req := request(batch, 2048)
	system := llm.EstimateTokens(req.Messages[0].Content)
	total := llm.EstimateMessages(req.Messages)
	t.Logf("system prompt ≈ %d tokens; batch of 8 groups × 3 names ≈ %d tokens (%d per name)", system, total, (total-system)/24)
	if system > 500 || total > 5000 {
		t.Fatalf("prompt grew: system %d, total %d tokens", system, total)
	}
}
