package embed

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// syntheticCorpus makes paragraphs of pseudo-classical text: characters
// drawn from Zipf distributions that differ by topic, with clause
// punctuation, so that co-occurrence has structure to find.
func syntheticCorpus(chars int, seed uint64) []string {
	const vocab, topics = 4000, 24
	rng := rand.New(rand.NewPCG(seed, 99))
	perms := make([][]int, topics)
	for i := range perms {
		perms[i] = rng.Perm(vocab)
	}
	common := rand.NewZipf(rng, 1.1, 1, vocab-1)
	var out []string
	var b strings.Builder
	for n := 0; n < chars; {
		b.Reset()
		topic := perms[rng.IntN(topics)]
		length := 80 + rng.IntN(250)
		for i := range length {
			r := rune(0x4E00 + topic[common.Uint64()])
			if rng.IntN(3) == 0 {
				r = rune(0x4E00 + common.Uint64()) // shared function-like characters
			}
			b.WriteRune(r)
			if i%9 == 8 {
				b.WriteString("，")
			}
		}
		b.WriteString("。")
		out = append(out, b.String())
		n += length
	}
	return out
}

func countChars(texts []string) int {
	n := 0
	for _, t := range texts {
		n += utf8.RuneCountInString(t)
	}
	return n
}

func benchEmbed(b *testing.B, e Embedder, texts []string) {
	ctx := context.Background()
	chars := countChars(texts)
	b.ResetTimer()
	for b.Loop() {
		if _, err := e.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(chars)*float64(b.N)/b.Elapsed().Seconds(), "chars/s")
}

// The demo paragraphs are fewer than the parallel threshold, so these
// measure one core.
func BenchmarkHashedEmbed(b *testing.B) { benchEmbed(b, NewHashed(256), demoTexts()) }

func BenchmarkLearnedEmbed(b *testing.B) { benchEmbed(b, trainedDemo(b), demoTexts()) }

func BenchmarkHashedEmbedParallel(b *testing.B) {
	benchEmbed(b, NewHashed(256), syntheticCorpus(300_000, 1))
}

func BenchmarkTrain(b *testing.B) {
	texts := syntheticCorpus(500_000, 2)
	chars := countChars(texts)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Train(context.Background(), texts, DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(chars)*float64(b.N)/b.Elapsed().Seconds(), "chars/s")
}

func BenchmarkTopK(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	vs := make([][]float32, 50_000)
	for i := range vs {
		vs[i] = randomUnit(rng, 256)
	}
	q := randomUnit(rng, 256)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		TopK(q, vs, 10)
	}
	b.ReportMetric(float64(len(vs))*float64(b.N)/b.Elapsed().Seconds(), "vectors/s")
}
