package chrono

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

type labelledLine struct {
	group, text string
	ctx         Context
	preset      bool
	items       []string
}

func loadLabelled(t *testing.T) []labelledLine {
	f, err := os.Open("testdata/labelled.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labelledLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 6 {
			t.Fatalf("bad line %q", line)
		}
		l := labelledLine{group: cols[0], text: cols[4]}
		if cols[1] != "-" {
			l.ctx.Dynasty = cols[1]
		}
		if cols[2] != "-" {
			l.ctx.Dynasties = strings.Split(cols[2], ",")
		}
		if cols[3] != "-" {
			y, err := strconv.Atoi(cols[3])
			if err != nil {
				t.Fatal(err)
			}
			l.ctx.SetYear(y)
			l.preset = true
		}
		for _, it := range strings.Split(cols[5], " | ") {
			l.items = append(l.items, strings.TrimSpace(it))
		}
		out = append(out, l)
	}
	return out
}

// judge checks one expected item against the parse; it returns the index
// of the Time it accounts for (−1 for none) and whether it is right.
func judge(item, text string, ts []Time) (int, bool, string) {
	if strings.HasPrefix(item, "!") {
		neg := []rune(item[1:])
		rs := []rune(text)
		for k := 0; k+len(neg) <= len(rs); k++ {
			if string(rs[k:k+len(neg)]) != string(neg) {
				continue
			}
			for i, tm := range ts {
				if tm.Span.Start < k+len(neg) && tm.Span.End > k {
					return i, false, fmt.Sprintf("%q parsed as %q", item[1:], tm.Expr)
				}
			}
			return -1, true, ""
		}
		return -1, false, "negative text not in sentence"
	}
	f := strings.Split(item, "@")
	if len(f) != 4 {
		return -1, false, "bad item " + item
	}
	for i, tm := range ts {
		if tm.Expr != f[0] {
			continue
		}
		got := fmt.Sprintf("%s@%d@%s@%s", tm.Expr, tm.Year, tm.Precision, map[bool]string{true: "R", false: "U"}[tm.Resolved])
		if tm.EndYear != tm.Year {
			got = fmt.Sprintf("%s@%d..%d@%s@R", tm.Expr, tm.Year, tm.EndYear, tm.Precision)
		}
		if !tm.Resolved {
			got = fmt.Sprintf("%s@?@%s@U", tm.Expr, tm.Precision)
		}
		return i, got == item, "got " + got
	}
	return -1, false, "not found"
}

func evalLabelled(t *testing.T, p *Parser) float64 {
	lines := loadLabelled(t)
	var ctx *Context
	group := ""
	right, total := 0, 0
	for _, l := range lines {
		if l.group != group {
			group = l.group
			c := l.ctx
			ctx = &c
		} else {
			ctx.Dynasties = l.ctx.Dynasties
		}
		ts := p.Parse(l.text, ctx)
		used := map[int]bool{}
		for _, it := range l.items {
			total++
			i, ok, why := judge(it, l.text, ts)
			if i >= 0 {
				used[i] = true
			}
			if ok {
				right++
			} else {
				t.Logf("MISS %s: %s — %s", l.text, it, why)
			}
		}
		// Anything parsed that no item accounts for is a spurious date.
		for i, tm := range ts {
			if !used[i] {
				total++
				t.Logf("SPURIOUS %s: %q", l.text, tm.Expr)
			}
		}
	}
	acc := float64(right) / float64(total)
	t.Logf("labelled accuracy %d/%d = %.3f", right, total, acc)
	return acc
}

func TestLabelled(t *testing.T) {
	if acc := evalLabelled(t, NewParser(DefaultTable())); acc < 0.9 {
		t.Errorf("accuracy %.3f below 0.9", acc)
	}
}

// The small table resolves every era and ruler the set names, so it
// measures the parser apart from the data.
func TestLabelledSmallTable(t *testing.T) {
	if acc := evalLabelled(t, NewParser(testTable)); acc < 0.9 {
		t.Errorf("accuracy %.3f below 0.9", acc)
	}
}
