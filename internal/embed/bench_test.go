package embed

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
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

// reportCPU reports the process's CPU time per iteration since start,
// which unlike wall time does not grow when the machine is busy.
func reportCPU(b *testing.B, start time.Duration) {
	if cpu := cpuTime() - start; cpu > 0 {
		b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
	}
}

func BenchmarkTrain(b *testing.B) {
	texts := syntheticCorpus(500_000, 2)
	chars := countChars(texts)
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		if _, err := Train(context.Background(), texts, DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
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

// BenchmarkTrainHistories trains Default's model on the corpus of
// TestRetrievalEvaluation: the First Four Histories and CHisIEC's
// sentences, what a workspace of the shared data would hold.
func BenchmarkTrainHistories(b *testing.B) {
	corpus := histories(b)
	for _, r := range chisiec(b) {
		corpus = append(corpus, r.Tokens)
	}
	chars := countChars(corpus)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		if _, err := Default(context.Background(), corpus); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(chars)*float64(b.N)/b.Elapsed().Seconds(), "chars/s")
}

// BenchmarkEigSym solves the eigenproblem of the size truncatedSVD meets
// in Default's training, Dim plus the oversampling of 16, for a matrix
// whose eigenvalues fall off a hundredfold from the first to the last, as
// those of the First Four Histories' Gram matrix do.
func BenchmarkEigSym(b *testing.B) {
	n := DefaultOptions().Dim + 16
	v := orth(randomDense(rand.New(rand.NewPCG(3, 4)), n, n))
	a := newDense(n, n)
	for i := range n {
		for j := range n {
			for k := range n {
				a.a[i*n+j] += v.a[i*n+k] * v.a[j*n+k] * math.Pow(float64(k+1), -0.93)
			}
		}
	}
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		eigSym(a)
	}
	reportCPU(b, cpu)
}
