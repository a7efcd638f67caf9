package eval

import (
	"io"
	"strings"

	"github.com/mattn/go-runewidth"
)

// table aligns columns by display width: text/tabwriter counts a Chinese
// character as one column where terminals draw two.
type table struct {
	rows   [][]string
	right  map[int]bool // right-aligned columns
	widths []int
	groups []group
}

// group is a heading drawn over columns from..to.
type group struct {
	label    string
	from, to int
}

// group adds a heading over columns from..to, drawn above the first row.
func (t *table) group(label string, from, to int) {
	t.groups = append(t.groups, group{label, from, to})
}

func (t *table) row(cells ...string) {
	t.rows = append(t.rows, cells)
	for i, c := range cells {
		if i >= len(t.widths) {
			t.widths = append(t.widths, 0)
		}
		t.widths[i] = max(t.widths[i], DisplayWidth(c))
	}
}

func (t *table) blank() { t.rows = append(t.rows, nil) }

func (t *table) alignRight(cols ...int) {
	if t.right == nil {
		t.right = map[int]bool{}
	}
	for _, c := range cols {
		t.right[c] = true
	}
}

func (t *table) write(w io.Writer, indent string) error {
	var b strings.Builder
	if len(t.groups) > 0 {
		// Column i starts at pos[i] display columns after the indent.
		pos := make([]int, len(t.widths)+1)
		for i, w := range t.widths {
			pos[i+1] = pos[i] + w + 2
		}
		line := indent
		at := 0
		for _, g := range t.groups {
			if g.from > g.to || g.to >= len(t.widths) || pos[g.from] < at {
				continue
			}
			line += strings.Repeat(" ", pos[g.from]-at)
			span := pos[g.to] + t.widths[g.to] - pos[g.from]
			fill := max(0, span-DisplayWidth(g.label)-2)
			text := strings.Repeat("─", fill/2) + " " + g.label + " " + strings.Repeat("─", fill-fill/2)
			line += text
			at = pos[g.from] + DisplayWidth(text)
		}
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteString("\n")
	}
	for _, r := range t.rows {
		if r == nil {
			b.WriteString("\n")
			continue
		}
		line := indent
		for i, c := range r {
			pad := strings.Repeat(" ", t.widths[i]-DisplayWidth(c))
			if i > 0 {
				line += "  "
			}
			if t.right[i] {
				line += pad + c
			} else if i < len(r)-1 {
				line += c + pad
			} else {
				line += c
			}
		}
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// DisplayWidth is the width of s in terminal columns, where a Chinese
// character takes two.
func DisplayWidth(s string) int { return runewidth.StringWidth(s) }
