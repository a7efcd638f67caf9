package eval

import (
	"io"
	"strings"
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
		t.widths[i] = max(t.widths[i], displayWidth(c))
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
			fill := max(0, span-displayWidth(g.label)-2)
			text := strings.Repeat("─", fill/2) + " " + g.label + " " + strings.Repeat("─", fill-fill/2)
			line += text
			at = pos[g.from] + displayWidth(text)
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
			pad := strings.Repeat(" ", t.widths[i]-displayWidth(c))
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

// displayWidth counts East Asian wide and fullwidth characters as two
// columns.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		if isWide(r) {
			n += 2
		} else {
			n++
		}
	}
	return n
}

func isWide(r rune) bool {
	switch {
	case r >= 0x1100 && r <= 0x115F,
		r >= 0x2E80 && r <= 0x303E,
		r >= 0x3041 && r <= 0x33FF,
		r >= 0x3400 && r <= 0x4DBF,
		r >= 0x4E00 && r <= 0x9FFF,
		r >= 0xA000 && r <= 0xA4CF,
		r >= 0xAC00 && r <= 0xD7A3,
		r >= 0xF900 && r <= 0xFAFF,
		r >= 0xFE30 && r <= 0xFE4F,
		r >= 0xFF00 && r <= 0xFF60,
		r >= 0xFFE0 && r <= 0xFFE6,
		r >= 0x20000 && r <= 0x3FFFD:
		return true
	}
	return false
}
