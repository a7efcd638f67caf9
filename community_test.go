package annals_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/annals-project/annals"
)

func memberNames(c annals.Community) []string {
	var out []string
	for _, m := range c.Members {
		out = append(out, m.Name)
	}
	return out
}

// Indexing groups the demo's people into communities that keep the sides
// of the Three Kingdoms apart, and reports each with cited facts; an
// unchanged corpus does not find them again.
func TestCommunitiesAreFoundAndReported(t *testing.T) {
	ctx := context.Background()
	ws, rep := indexDemo(t)
	cr := rep.Communities
	if cr == nil || cr.Current || cr.Communities < 3 || cr.Modularity < 0.3 {
		t.Fatalf("communities step: %+v", cr)
	}
	cs, err := ws.Communities(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != cr.Communities {
		t.Fatalf("%d communities stored, the step reported %d", len(cs), cr.Communities)
	}
	var wu *annals.Community
	for i, c := range cs {
		if i > 0 && c.Size > cs[i-1].Size {
			t.Errorf("community %d (%d members) listed after a smaller one", c.ID, c.Size)
		}
		if c.Name == "" || len(c.Members) < 3 {
			t.Errorf("community %d has an empty report: %+v", c.ID, c)
		}
		for _, f := range c.Facts {
			if len(f.Evidence) == 0 || f.Evidence[0].Sentence == "" || f.Evidence[0].DocKey == "" {
				t.Errorf("community %d: fact %s %s %s without its sentence", c.ID, f.Head, f.Type, f.Tail)
			}
		}
		for _, e := range c.Summary {
			if e.DocKey == "" || e.End <= e.Start {
				t.Errorf("community %d: summary sentence without a citation: %+v", c.ID, e)
			}
		}
		if slices.Contains(memberNames(c), "孙权") {
			cc := c
			wu = &cc
		}
	}
	if wu == nil {
		t.Fatal("孙权 is in no community")
	}
	names := memberNames(*wu)
	for _, n := range []string{"周瑜", "鲁肃"} {
		if !slices.Contains(names, n) {
			t.Errorf("%s is not with 孙权: %v", n, names)
		}
	}
	for _, n := range []string{"曹操", "诸葛亮"} {
		if slices.Contains(names, n) {
			t.Errorf("%s is with 孙权: %v", n, names)
		}
	}
	d, err := ws.Community(ctx, wu.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.AllMembers) != d.Size || d.AllMembers[0].Name != wu.Members[0].Name {
		t.Errorf("community %d: %d members listed of %d, first %v", d.ID, len(d.AllMembers), d.Size, d.AllMembers[:1])
	}
	// Its graph links its central members: 孙权 to his officers.
	linked := false
	for _, l := range d.Links {
		if l.Head == d.AllMembers[0].EntityID || l.Tail == d.AllMembers[0].EntityID {
			linked = true
		}
	}
	if !linked {
		t.Errorf("community %d: no relation of its most central member %s among %d links", d.ID, d.AllMembers[0].Name, len(d.Links))
	}
	// The graph explorer colours nodes by community: the neighbourhood
	// names each node's.
	g, err := ws.Neighbourhood(ctx, "孙权", annals.NeighbourhoodOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range g.Nodes {
		if n.Name == "孙权" && (n.Community != wu.ID || g.Communities[wu.ID] != wu.Name) {
			t.Errorf("孙权's node: community %d (%q), want %d (%q)", n.Community, g.Communities[n.Community], wu.ID, wu.Name)
		}
	}
	if _, err := ws.Community(ctx, 100000); !errors.Is(err, annals.ErrNotFound) {
		t.Errorf("a community that does not exist: %v", err)
	}
	again, err := ws.Index(ctx, []string{demoCorpus(t, ws)}, annals.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Communities == nil || !again.Communities.Current {
		t.Errorf("an unchanged corpus found its communities again: %+v", again.Communities)
	}
}

// demoCorpus is where indexDemo wrote the demo corpus: beside the
// workspace.
func demoCorpus(t *testing.T, ws *annals.Workspace) string {
	t.Helper()
	return filepath.Join(filepath.Dir(ws.Dir), "corpus")
}
