package zh

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/extract"
)

// dataDir is the shared data folder, or "" when this checkout lacks it.
func dataDir(t testing.TB) string {
	for _, d := range []string{"../../../../../shared/data", "/work/shared/data"} {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	t.Skip("shared data absent: ../shared/data not found")
	return ""
}

// gold types for our types; 社会集团 counts as LOC because CHisIEC tags
// states and peoples as places.
var nerType = map[string]string{tPer: "PER", tLoc: "LOC", tGrp: "LOC", tOff: "OFI", tTitle: "OFI", tBook: "BOOK"}

type span3 struct {
	s, e int
	typ  string
}

type prf struct{ tp, fp, fn int }

func (c prf) String() string {
	p, r := 0.0, 0.0
	if c.tp+c.fp > 0 {
		p = float64(c.tp) / float64(c.tp+c.fp)
	}
	if c.tp+c.fn > 0 {
		r = float64(c.tp) / float64(c.tp+c.fn)
	}
	f := 0.0
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return fmt.Sprintf("P %.3f R %.3f F1 %.3f (tp %d fp %d fn %d)", p, r, f, c.tp, c.fp, c.fn)
}

func readNER(path string) ([]string, [][]span3, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var texts []string
	var golds [][]span3
	var cur []rune
	var spans []span3
	start, typ := -1, ""
	flush := func() {
		if len(cur) > 0 {
			texts = append(texts, string(cur))
			golds = append(golds, spans)
		}
		cur, spans, start = nil, nil, -1
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		rs := []rune(line)
		ch := rs[0]
		tag := strings.TrimSpace(string(rs[1:]))
		i := len(cur)
		cur = append(cur, ch)
		switch {
		case strings.HasPrefix(tag, "B-"):
			start, typ = i, tag[2:]
		case strings.HasPrefix(tag, "E-"):
			if start >= 0 && typ == tag[2:] {
				spans = append(spans, span3{start, i + 1, typ})
			}
			start = -1
		case strings.HasPrefix(tag, "S-"):
			spans = append(spans, span3{i, i + 1, tag[2:]})
			start = -1
		case tag == "O":
			start = -1
		}
	}
	flush()
	return texts, golds, sc.Err()
}

func scoreEntities(counts map[string]*prf, got []extract.Entity, gold []span3, miss map[string]int, extra map[string]int, text []rune) {
	g := map[span3]bool{}
	for _, s := range gold {
		g[s] = true
	}
	seen := map[span3]bool{}
	for _, e := range got {
		gt, ok := nerType[e.Type]
		if !ok {
			continue
		}
		s := span3{e.Start, e.End, gt}
		if seen[s] {
			continue
		}
		seen[s] = true
		c := counts[gt]
		if g[s] {
			c.tp++
		} else {
			c.fp++
			if extra != nil {
				extra[gt+" "+string(text[s.s:s.e])]++
			}
		}
	}
	for _, s := range gold {
		if !seen[s] {
			counts[s.typ].fn++
			if miss != nil {
				miss[s.typ+" "+string(text[s.s:s.e])]++
			}
		}
	}
}

func top(m map[string]int, n int) string {
	type kv struct {
		k string
		v int
	}
	var l []kv
	for k, v := range m {
		l = append(l, kv{k, v})
	}
	sort.Slice(l, func(a, b int) bool { return l[a].v > l[b].v || l[a].v == l[b].v && l[a].k < l[b].k })
	var b strings.Builder
	for i, e := range l {
		if i >= n {
			break
		}
		fmt.Fprintf(&b, "%s:%d ", e.k, e.v)
	}
	return b.String()
}

// ourRel maps our relations to CHisIEC's.
var ourRel = map[string]string{
	"任官": "任职", "封爵": "任职", "下级": "上下级", "子女": "父母", "同胞": "兄弟", "别称": "别名",
	"籍贯": "出生于某地", "访": "到达", "辖": "管理/驻守", "居": "管理/驻守", "攻": "敌对攻伐", "消极态度倾向": "敌对攻伐",
	"积极态度倾向": "政治奥援", "逃奔": "到达",
}

var goldRel = map[string]string{"管理": "管理/驻守", "驻守": "管理/驻守"}

// TestTuneCHisIEC measures the extractor on CHisIEC's dev sets (never the
// test sets). Run with ANNALS_TUNE=1; ANNALS_TUNE=v also lists errors.
func TestTuneCHisIEC(t *testing.T) {
	mode := os.Getenv("ANNALS_TUNE")
	if mode == "" {
		t.Skip("set ANNALS_TUNE=1 to measure on CHisIEC dev")
	}
	dir := filepath.Join(dataDir(t), "chisiec")
	nerFile := os.Getenv("ANNALS_TUNE_NER")
	if nerFile == "" {
		nerFile = "ner_dev.txt"
	}
	texts, golds, err := readNER(filepath.Join(dir, nerFile))
	if err != nil {
		t.Skip(err)
	}
	x := New()
	counts := map[string]*prf{"PER": {}, "LOC": {}, "OFI": {}, "BOOK": {}}
	miss, extra := map[string]int{}, map[string]int{}
	for i, s := range texts {
		res, _ := x.Extract(context.Background(), extract.Input{Text: s, Lang: "lzh"})
		scoreEntities(counts, res.Entities, golds[i], miss, extra, []rune(s))
		if ty := os.Getenv("ANNALS_TUNE_TYPE"); ty != "" {
			showDiff(t, s, res.Entities, golds[i], ty)
		}
	}
	all := prf{}
	for _, k := range []string{"PER", "LOC", "OFI", "BOOK"} {
		c := counts[k]
		t.Logf("NER %s %-5s %v", nerFile, k, *c)
		all.tp += c.tp
		all.fp += c.fp
		all.fn += c.fn
	}
	t.Logf("NER %s all   %v", nerFile, all)
	if mode == "v" {
		t.Logf("missed: %s", top(miss, 120))
		t.Logf("spurious: %s", top(extra, 120))
	}

	reFile := os.Getenv("ANNALS_TUNE_RE")
	if reFile == "" {
		reFile = "re_coling_train_dev.json"
	}
	data, err := os.ReadFile(filepath.Join(dir, reFile))
	if err != nil {
		t.Skip(err)
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
	rc := map[string]*prf{}
	get := func(k string) *prf {
		if rc[k] == nil {
			rc[k] = &prf{}
		}
		return rc[k]
	}
	ecounts := map[string]*prf{"PER": {}, "LOC": {}, "OFI": {}, "BOOK": {}}
	type trip struct {
		hs, he, ts, te int
		r              string
	}
	rmiss, rextra := map[string]int{}, map[string]int{}
	for _, d := range docs {
		rs := []rune(d.Tokens)
		res, _ := x.Extract(context.Background(), extract.Input{Text: d.Tokens, Lang: "lzh"})
		var gs []span3
		for _, e := range d.Entities {
			gs = append(gs, span3{e.Start, e.End, e.Type})
		}
		scoreEntities(ecounts, res.Entities, gs, nil, nil, rs)
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
			k := trip{tr.Head.Start, tr.Head.End, tr.Tail.Start, tr.Tail.End, name}
			if found[k] {
				continue
			}
			found[k] = true
			if gold[k] {
				get(name).tp++
			} else {
				get(name).fp++
				rextra[name+" "+tr.Head.Text+"→"+tr.Tail.Text]++
			}
		}
		counted := map[trip]bool{}
		for _, r := range d.Relations {
			h, tl := d.Entities[r.Head], d.Entities[r.Tail]
			name := r.Type
			if g, ok := goldRel[name]; ok {
				name = g
			}
			k := trip{h.Start, h.End, tl.Start, tl.End, name}
			k2 := trip{tl.Start, tl.End, h.Start, h.End, name}
			if counted[k] || (name == "兄弟" || name == "同僚") && counted[k2] {
				continue
			}
			counted[k] = true
			if !found[k] && !((name == "兄弟" || name == "同僚") && found[k2]) {
				get(name).fn++
				rmiss[name+" "+string(rs[h.Start:h.End])+"→"+string(rs[tl.Start:tl.End])]++
			}
		}
	}
	for _, k := range []string{"PER", "LOC", "OFI", "BOOK"} {
		t.Logf("RE-NER %s %-5s %v", reFile, k, *ecounts[k])
	}
	var names []string
	for k := range rc {
		names = append(names, k)
	}
	sort.Strings(names)
	all = prf{}
	for _, k := range names {
		c := rc[k]
		t.Logf("RE %s %-8s %v", reFile, k, *c)
		all.tp += c.tp
		all.fp += c.fp
		all.fn += c.fn
	}
	t.Logf("RE %s all      %v", reFile, all)
	if mode == "v" {
		t.Logf("missed: %s", top(rmiss, 60))
		t.Logf("spurious: %s", top(rextra, 60))
	}
}

// showDiff logs a sentence with the gold and found mentions of one type
// when they differ.
func showDiff(t *testing.T, s string, got []extract.Entity, gold []span3, ty string) {
	rs := []rune(s)
	var g, o []string
	gs := map[[2]int]bool{}
	for _, e := range gold {
		if e.typ == ty {
			gs[[2]int{e.s, e.e}] = true
		}
	}
	os := map[[2]int]bool{}
	for _, e := range got {
		if nerType[e.Type] == ty {
			os[[2]int{e.Start, e.End}] = true
		}
	}
	for k := range gs {
		if !os[k] {
			g = append(g, string(rs[k[0]:k[1]]))
		}
	}
	for k := range os {
		if !gs[k] {
			o = append(o, string(rs[k[0]:k[1]]))
		}
	}
	if len(g)+len(o) > 0 {
		t.Logf("%s\n    missed %v spurious %v", s, g, o)
	}
}
