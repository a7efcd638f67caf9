package corpus

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFirstFourHistories walks the shared corpus of the four histories when
// it is present.
func TestFirstFourHistories(t *testing.T) {
	root := filepath.Join("..", "..", "..", "shared", "data", "first-four-histories")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no shared corpus at %s: %v", root, err)
	}
	start := time.Now()
	var docs []Doc
	warns, err := Walk(context.Background(), root, func(d Doc) error {
		docs = append(docs, d)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("walked %d documents in %v", len(docs), time.Since(start))
	for _, w := range warns {
		t.Errorf("warning: %v", w)
	}
	if len(docs) != 444 {
		t.Errorf("%d documents, want 444", len(docs))
	}
	books := map[string]int{}
	chars := 0
	for _, d := range docs {
		if len(d.Section) != 3 || d.Title != d.Section[2] || d.Format != "txt" || !strings.HasSuffix(d.Key, "/text.txt") {
			t.Errorf("%s: section %q title %q format %s", d.Key, d.Section, d.Title, d.Format)
			continue
		}
		books[d.Section[0]]++
		chars += len([]rune(d.Text))
	}
	for _, b := range []string{"史记", "汉书", "后汉书", "三国志"} {
		if books[b] == 0 {
			t.Errorf("no chapters of %s", b)
		}
	}
	t.Logf("chapters per book %v, %d code points", books, chars)

	opts := DefaultChunkOptions()
	start = time.Now()
	n := 0
	for _, d := range docs {
		n += len(Chunk(d.Text, d.Format, "lzh", opts))
	}
	took := time.Since(start)
	t.Logf("chunked %d code points into %d chunks in %v (%.0f code points per chunk)", chars, n, took, float64(chars)/float64(n))
	for _, d := range docs {
		if msg := checkChunks(d.Text, opts, Chunk(d.Text, d.Format, "lzh", opts)); msg != "" {
			t.Errorf("%s: %s", d.Key, msg)
		}
	}

	// Following the writing pattern: the lives, years and comments.
	n, units, named := 0, 0, map[string]bool{}
	for _, d := range docs {
		c := chunkDoc(d.Text, d.Format, "lzh", patterned(opts))
		n, units = n+len(c.out), units+len(c.units)
		msg := checkChunks(d.Text, patterned(opts), c.out)
		if msg == "" {
			msg = checkUnits(d.Text, c.units, Chunk(d.Text, d.Format, "lzh", opts), c.out)
		}
		if msg != "" {
			t.Errorf("%s with patterns: %s", d.Key, msg)
		}
		if d.Title == "张乐于张徐传" || d.Title == "武帝纪" && d.Section[0] == "三国志" {
			for _, ch := range c.out {
				named[ch.Section] = true
			}
		}
	}
	t.Logf("with patterns: %d chunks, %d units", n, units)
	for _, s := range []string{"张辽", "乐进", "于禁", "张郃", "徐晃", "评曰", "太祖武皇帝/建安五年"} {
		if !named[s] {
			t.Errorf("no chunk of section %q", s)
		}
	}
}
