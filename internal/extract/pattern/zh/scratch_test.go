package zh

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/extract"
)

// TestScratchDump writes a per-example report of gold vs found triples.
func TestScratchDump(t *testing.T) {
	file := os.Getenv("SCRATCH_RE")
	if file == "" {
		t.Skip()
	}
	data, err := os.ReadFile(filepath.Join("/work/shared/data/chisiec", file))
	if err != nil {
		t.Fatal(err)
	}
	var docs []struct {
		Tokens   string `json:"tokens"`
		Entities []struct {
			Type       string `json:"type"`
			Start, End int
		} `json:"entities"`
		Relations []struct {
			Type       string `json:"type"`
			Head, Tail int
		} `json:"relations"`
	}
	if err := json.Unmarshal(data, &docs); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	x := New()
	for _, d := range docs {
		rs := []rune(d.Tokens)
		res, _ := x.Extract(context.Background(), extract.Input{Text: d.Tokens, Lang: "lzh"})
		type trip struct {
			hs, he, ts, te int
			r              string
		}
		gold := map[trip]bool{}
		for _, r := range d.Relations {
			h, tl := d.Entities[r.Head], d.Entities[r.Tail]
			name := r.Type
			if g, ok := goldRel[name]; ok {
				name = g
			}
			gold[trip{h.Start, h.End, tl.Start, tl.End, name}] = true
			if name == "兄弟" || name == "同僚" {
				gold[trip{tl.Start, tl.End, h.Start, h.End, name}] = true
			}
		}
		found := map[trip]bool{}
		for _, tr := range res.Triples {
			name, ok := ourRel[tr.Relation]
			if !ok {
				continue
			}
			found[trip{tr.Head.Start, tr.Head.End, tr.Tail.Start, tr.Tail.End, name}] = true
		}
		ents := map[[2]int]string{}
		for _, e := range res.Entities {
			ents[[2]int{e.Start, e.End}] = e.Type
		}
		fmt.Fprintf(&b, "## %s\n", d.Tokens)
		var es []string
		for _, e := range res.Entities {
			es = append(es, e.Text+"/"+e.Type)
		}
		fmt.Fprintf(&b, "   E: %s\n", strings.Join(es, " "))
		for _, r := range d.Relations {
			h, tl := d.Entities[r.Head], d.Entities[r.Tail]
			name := r.Type
			if g, ok := goldRel[name]; ok {
				name = g
			}
			k := trip{h.Start, h.End, tl.Start, tl.End, name}
			k2 := trip{tl.Start, tl.End, h.Start, h.End, name}
			mark := "MISS"
			if found[k] || (name == "兄弟" || name == "同僚") && found[k2] {
				mark = "ok  "
			}
			he, te := "", ""
			if _, ok := ents[[2]int{h.Start, h.End}]; !ok {
				he = "(H?)"
			}
			if _, ok := ents[[2]int{tl.Start, tl.End}]; !ok {
				te = "(T?)"
			}
			fmt.Fprintf(&b, "   %s %s %s%s -> %s%s\n", mark, r.Type, string(rs[h.Start:h.End]), he, string(rs[tl.Start:tl.End]), te)
		}
		for _, tr := range res.Triples {
			name, ok := ourRel[tr.Relation]
			if !ok {
				continue
			}
			k := trip{tr.Head.Start, tr.Head.End, tr.Tail.Start, tr.Tail.End, name}
			if !gold[k] {
				fmt.Fprintf(&b, "   FP   %s(%s) %s -> %s\n", name, tr.Relation, tr.Head.Text, tr.Tail.Text)
			}
		}
	}
	os.WriteFile("/tmp/scratch/"+file+".txt", []byte(b.String()), 0o644)
}

// TestScratchNER dumps gold PER mentions with our verdict and context.
func TestScratchNER(t *testing.T) {
	file := os.Getenv("SCRATCH_NER")
	if file == "" {
		t.Skip()
	}
	texts, golds, err := readNER(filepath.Join("/work/shared/data/chisiec", file))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	x := New()
	for i, s := range texts {
		rs := []rune(s)
		res, _ := x.Extract(context.Background(), extract.Input{Text: s, Lang: "lzh"})
		got := map[span3]bool{}
		for _, e := range res.Entities {
			if g, ok := nerType[e.Type]; ok {
				got[span3{e.Start, e.End, g}] = true
			}
		}
		gs := map[span3]bool{}
		for _, g := range golds[i] {
			gs[g] = true
			mark := "MISS"
			if got[g] {
				mark = "ok"
			}
			l := max(0, g.s-4)
			r := min(len(rs), g.e+4)
			fmt.Fprintf(&b, "G\t%s\t%s\t%s\t%s\t%s\t%s\n", mark, g.typ, string(rs[g.s:g.e]), string(rs[l:g.s]), string(rs[g.e:r]), s)
		}
		for g := range got {
			if !gs[g] {
				l := max(0, g.s-4)
				r := min(len(rs), g.e+4)
				fmt.Fprintf(&b, "P\tFP\t%s\t%s\t%s\t%s\t%s\n", g.typ, string(rs[g.s:g.e]), string(rs[l:g.s]), string(rs[g.e:r]), s)
			}
		}
	}
	os.WriteFile("/tmp/scratch/"+file+".tsv", []byte(b.String()), 0o644)
}
