package annals_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annals-project/annals"
	"github.com/annals-project/annals/internal/kg"
)

// Relating two people writes what a sentence states back into the graph,
// once; reverting takes it out again.
func TestRelateFeedsBackAndReverts(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	docs := map[string]string{}
	original := func(ev kg.Evidence) string {
		t.Helper()
		if _, ok := docs[ev.DocKey]; !ok {
			d, err := ws.Store().Document(ctx, ev.DocKey)
			if err != nil {
				t.Fatal(err)
			}
			docs[ev.DocKey] = d.Text
		}
		return strings.TrimSpace(string([]rune(docs[ev.DocKey])[ev.Start:ev.End]))
	}
	// The first of these pairs whose reasoning verifies a fact the text
	// never stated outright: which one depends on what extraction reads.
	var res *annals.Related
	var pair [2]string
	for _, p := range [][2]string{{"张飞", "刘备"}, {"周瑜", "曹操"}, {"赵云", "刘备"}, {"关羽", "曹操"}} {
		r, err := ws.Relate(ctx, p[0], p[1], annals.RelateOptions{NoFeed: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range r.Findings {
			if f.Status == "verified" && res == nil {
				res, pair = r, p
			}
		}
	}
	if res == nil {
		t.Fatal("no pair of the demo verifies a fact by reasoning")
	}
	res, err := ws.Relate(ctx, pair[0], pair[1], annals.RelateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Paths) == 0 || len(res.Findings) == 0 || res.Verdict == "" {
		t.Fatalf("%s and %s: %+v", pair[0], pair[1], res.RelateResult)
	}
	for _, p := range res.Paths {
		if p.Entities[0] != res.Head.ID || p.Entities[len(p.Entities)-1] != res.Tail.ID {
			t.Fatalf("a path from elsewhere: %+v", p)
		}
		for _, h := range p.Hops {
			if h.Relation == "" || h.Evidence == nil || original(*h.Evidence) != h.Evidence.Sentence {
				t.Fatalf("each step states a relation, with its sentence in original offsets: %+v", h)
			}
		}
	}
	var fed []annals.Feedback
	for _, f := range res.Feedback {
		if f.New {
			fed = append(fed, f)
		}
	}
	if len(fed) == 0 {
		t.Fatalf("nothing written back: findings %+v", res.Findings)
	}
	list, err := ws.FeedbackList(ctx, false)
	if err != nil || len(list) != len(fed) || list[0].Query != "relate "+pair[0]+" "+pair[1] || len(list[0].Evidence) == 0 {
		t.Fatalf("feedback list %+v, %v", list, err)
	}
	// The fact is in the graph now, with its status and evidence.
	f := fed[0]
	v, err := ws.Entity(ctx, f.Head, annals.EntityOptions{Relations: 200})
	if err != nil {
		t.Fatal(err)
	}
	if !hasFact(v.Relations, f) {
		t.Fatalf("%s's facts lack the fed-back %s %s %s", f.Head, f.Head, f.Type, f.Tail)
	}
	// Asking again adds nothing.
	again, err := ws.Relate(ctx, pair[0], pair[1], annals.RelateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range again.Feedback {
		if f.New {
			t.Fatalf("written back twice: %+v", f)
		}
	}
	if err := ws.RevertFeedback(ctx, f.ID); err != nil {
		t.Fatal(err)
	}
	if err := ws.RevertFeedback(ctx, f.ID); err == nil {
		t.Fatal("reverted twice")
	}
	v, err = ws.Entity(ctx, f.Head, annals.EntityOptions{Relations: 200})
	if err != nil {
		t.Fatal(err)
	}
	if hasFact(v.Relations, f) {
		t.Fatal("the reverted fact is still in the graph")
	}
	all, _ := ws.FeedbackList(ctx, true)
	live, _ := ws.FeedbackList(ctx, false)
	if len(all) != len(list) || len(live) != len(list)-1 {
		t.Fatalf("after revert: %d rows, %d in force", len(all), len(live))
	}
}

func hasFact(rels []kg.Relation, f annals.Feedback) bool {
	for _, r := range rels {
		if r.HeadID == f.HeadID && r.TailID == f.TailID && r.Type == f.Type && r.Status == f.Status && len(r.Evidence) > 0 {
			return true
		}
	}
	return false
}

func TestRelateRoundsReportConnectivity(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	pairs := []annals.RelatePair{{Head: "曹操", Tail: "曹丕"}, {Head: "孙坚", Tail: "孙策"}, {Head: "无名氏甲", Tail: "曹操"}}
	var seen int
	rounds, err := ws.RelateRounds(ctx, pairs, 2, annals.RelateOptions{}, func(round, i int, res *annals.Related) { seen++ })
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != 2 || seen != 6 {
		t.Fatalf("2 rounds of 3 pairs: %+v, %d calls", rounds, seen)
	}
	r1, r2 := rounds[0], rounds[1]
	if r1.Unknown != 1 || r1.Connected != 2 || r1.Connectivity < 0.66 || r1.Connectivity > 0.67 {
		t.Fatalf("round 1: %+v", r1)
	}
	if r2.Added != 0 || r2.Connected < r1.Connected {
		t.Fatalf("round 2 adds nothing new and keeps the paths: %+v", r2)
	}
	if _, err := ws.Relate(ctx, "曹操", "曹操", annals.RelateOptions{}); err == nil {
		t.Fatal("an entity related to itself")
	}
	if _, err := ws.Relate(ctx, "无名氏甲", "曹操", annals.RelateOptions{}); !errors.Is(err, annals.ErrNotFound) {
		t.Fatalf("unknown name: %v", err)
	}
}

// The verdict can become a document of its own, linked to its entities.
func TestRelateAddsTheVerdictAsADocument(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	res, err := ws.Relate(ctx, "孙坚", "孙策", annals.RelateOptions{AddDocument: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Document == "" || len(res.Findings) == 0 {
		t.Fatalf("no document for %+v", res.RelateResult)
	}
	d, err := ws.Store().Document(ctx, res.Document)
	if err != nil || !strings.Contains(d.Text, res.Verdict) {
		t.Fatalf("document %s: %v", res.Document, err)
	}
	v, err := ws.Entity(ctx, "孙策", annals.EntityOptions{Mentions: 1000})
	if err != nil {
		t.Fatal(err)
	}
	linked := false
	for _, m := range v.Occurrences {
		linked = linked || m.DocKey == res.Document
	}
	if !linked {
		t.Fatalf("孙策 is not linked to %s", res.Document)
	}
}

// Relating after more texts were indexed reads the graph again.
func TestRelateSeesNewlyIndexedTexts(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	hasSentence := func(res *annals.Related, word string) bool {
		for _, p := range res.Paths {
			for _, h := range p.Hops {
				if h.Evidence != nil && strings.Contains(h.Evidence.Sentence, word) {
					return true
				}
			}
		}
		return false
	}
	before, err := ws.Relate(ctx, "孙坚", "曹操", annals.RelateOptions{NoFeed: true, Top: 30})
	if err != nil {
		t.Fatal(err)
	}
	if hasSentence(before, "汴水") {
		t.Fatal("the sentence is there before it was indexed")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "汴水.txt"), []byte("初平元年，孙坚与曹操战于汴水。"), 0o644)
	if _, err := ws.Index(ctx, []string{dir}, annals.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	after, err := ws.Relate(ctx, "孙坚", "曹操", annals.RelateOptions{NoFeed: true, Top: 30})
	if err != nil {
		t.Fatal(err)
	}
	if !hasSentence(after, "汴水") {
		t.Fatalf("the newly indexed sentence is not among the paths: %s", after.Verdict)
	}
}
