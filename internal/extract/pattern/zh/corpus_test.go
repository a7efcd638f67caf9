package zh

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/annals-project/annals/internal/extract"
)

type chapter struct {
	key, title, text string
}

// corpus loads the First Four Histories, or skips.
func corpus(t testing.TB) []chapter {
	root := filepath.Join(dataDir(t), "first-four-histories")
	var out []chapter
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "text.txt" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		out = append(out, chapter{key: rel, title: filepath.Base(filepath.Dir(p)), text: string(b)})
		return nil
	})
	if err != nil || len(out) == 0 {
		t.Skip("first-four-histories absent")
	}
	sort.Slice(out, func(a, b int) bool { return out[a].key < out[b].key })
	return out
}

// chunks cuts a chapter into pieces of about n runes at sentence ends.
func chunks(s string, n int) []string {
	rs := []rune(s)
	var out []string
	for len(rs) > 0 {
		e := min(n, len(rs))
		for j := e; j > n/2 && j < len(rs); j-- {
			if strings.ContainsRune("。\n", rs[j-1]) {
				e = j
				break
			}
		}
		out = append(out, string(rs[:e]))
		rs = rs[e:]
	}
	return out
}

// TestCorpus runs over the whole corpus once, a DocContext per chapter, and
// logs the speed and what it found.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	chs := corpus(t)
	x := New()
	x.Extract(context.Background(), extract.Input{Text: "预热"})
	ents, trips := map[string]int{}, map[string]int{}
	chars := 0
	start := time.Now()
	for _, ch := range chs {
		doc := extract.NewDocContext(ch.key, ch.title, nil)
		for _, c := range chunks(ch.text, 600) {
			chars += len([]rune(c))
			res, err := x.Extract(context.Background(), extract.Input{Text: c, Lang: "lzh", Doc: doc})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range res.Entities {
				ents[e.Type]++
			}
			for _, tr := range res.Triples {
				trips[tr.Relation]++
			}
		}
	}
	el := time.Since(start)
	t.Logf("%d chapters, %d chars in %v: %.0f chars/s", len(chs), chars, el, float64(chars)/el.Seconds())
	t.Logf("entities: %v", ents)
	t.Logf("triples: %v", trips)
}

func BenchmarkExtract(b *testing.B) {
	chs := corpus(b)
	var pieces []string
	n := 0
	for _, ch := range chs {
		for _, c := range chunks(ch.text, 600) {
			pieces = append(pieces, c)
			n += len(c)
			if n > 1<<20 {
				break
			}
		}
		if n > 1<<20 {
			break
		}
	}
	x := New()
	b.SetBytes(int64(n))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		doc := extract.NewDocContext("b", "诸葛亮传", nil)
		for _, p := range pieces {
			x.Extract(context.Background(), extract.Input{Text: p, Lang: "lzh", Doc: doc})
		}
	}
}
