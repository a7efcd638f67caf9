package retrieve

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// Choosing a chunk's sentence only once it ranks among the best must give
// the ranking that choosing every chunk's sentence first gives.
func TestFusionChoosesSentencesLazilyWithTheSameRanking(t *testing.T) {
	a := &Analysis{Norm: "诸葛亮字孔明何年出师", terms: []string{"诸葛", "葛亮", "孔明", "出师"}}
	sentences := []string{"诸葛亮字孔明。", "孔明出师北伐。", "天下大乱。", "曹操南征。", "诸葛亮出师。", "刘备三顾。"}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 50 {
		var passages []*store.Passage
		for i := range 25 {
			norm := ""
			for range 1 + rng.IntN(4) {
				norm += sentences[rng.IntN(len(sentences))]
			}
			passages = append(passages, &store.Passage{ChunkID: int64(i + 1), DocID: 1, Lang: "zh-Hans", Start: i * 100, End: i*100 + len([]rune(norm)), Text: norm, Norm: norm})
		}
		build := func(eager bool) []Item {
			f := newFusion(a)
			for i := range 8 {
				f.add(RouteTriple, i, Item{Key: fmt.Sprintf("r%d", i), Kind: KindTriple, Text: sentences[rng.IntN(len(sentences))]})
			}
			for _, route := range []string{RouteChunk, RouteVector} {
				for rank, k := range rng.Perm(len(passages))[:15] {
					it := Item{Key: chunkKey(passages[k].ChunkID), Kind: KindChunk, passage: passages[k]}
					if eager {
						it.Citation = BestSentence(passages[k], a.terms, a)
						it.Text, it.passage = it.Citation.Norm, nil
					}
					f.add(route, rank, it)
				}
			}
			return f.ranked(10)
		}
		seed := rng.Uint64()
		rng = rand.New(rand.NewPCG(seed, 0))
		lazy := build(false)
		rng = rand.New(rand.NewPCG(seed, 0))
		eager := build(true)
		for i := range lazy {
			lazy[i].ranks, eager[i].ranks = nil, nil
		}
		if !reflect.DeepEqual(lazy, eager) {
			t.Fatalf("round %d: lazy ranking\n%+v\ndiffers from eager\n%+v", round, lazy, eager)
		}
		for _, it := range lazy {
			if it.Kind == KindChunk && (it.Citation == nil || it.Text == "") {
				t.Fatalf("round %d: chunk %s ranked without its sentence", round, it.Key)
			}
		}
	}
}

// The cited sentence keeps the original characters and the document
// offsets, also where the original differs from the normalised text.
func TestBestSentenceCitesOriginalCharacters(t *testing.T) {
	p := &store.Passage{ChunkID: 7, DocID: 3, DocKey: "k", Lang: "zh-Hans", Start: 100, End: 114,
		Text: "曹操南征。諸葛亮字孔明。", Norm: "曹操南征。诸葛亮字孔明。"}
	a := &Analysis{terms: []string{"孔明"}}
	ev := BestSentence(p, a.terms, a)
	if ev.Sentence != "諸葛亮字孔明。" || ev.Norm != "诸葛亮字孔明。" || ev.Start != 105 || ev.End != 112 {
		t.Fatalf("cited %+v", ev)
	}
	// A span past the end is held to the passage.
	ev = Cite(p, kg.Span{Start: 5, End: 99})
	if ev.Sentence != "諸葛亮字孔明。" || ev.End != 112 {
		t.Fatalf("clamped span cited %+v", ev)
	}
}
