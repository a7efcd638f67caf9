package qa

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/annals-project/annals/internal/eval"
)

// Text writes the report as a short table: overall, then one row per
// question type. Only the columns that apply are shown: accuracy when
// there are multiple-choice questions; short, contains, F1, EM and
// confidently wrong when there are free answers.
func (r *Report) Text(w io.Writer) error {
	mc, free, lists := r.MultipleChoice > 0, r.N-r.MultipleChoice > 0, r.Lists > 0
	recall, judged, tokens := r.Recalled > 0, r.Judged > 0, r.Tokens > 0
	head := []string{"type", "n"}
	if mc {
		head = append(head, "acc%")
	}
	if lists {
		head = append(head, "names%")
	}
	if free {
		head = append(head, "short%", "contains%", "F1%", "EM%", "sure&wrong%")
	}
	if judged {
		head = append(head, "judge%")
	}
	if recall {
		head = append(head, "recall@k%")
	}
	head = append(head, "ms/q")
	if tokens {
		head = append(head, "tokens/q")
	}
	head = append(head, "abstained", "errors")
	rows := [][]string{head}
	row := func(name string, s Summary) {
		c := []string{name, fmt.Sprint(s.N)}
		if mc {
			c = append(c, pctIf(s.MultipleChoice > 0, s.Accuracy))
		}
		if lists {
			c = append(c, pctIf(s.Lists > 0, s.Names))
		}
		if free {
			f := s.N-s.MultipleChoice > 0
			c = append(c, pctIf(f, s.Short), pctIf(f, s.Contains), pctIf(f, s.F1), pctIf(f, s.EM), pctIf(f, s.ConfidentlyWrong))
		}
		if judged {
			c = append(c, pctIf(s.Judged > 0, s.JudgedRight))
		}
		if recall {
			c = append(c, pctIf(s.Recalled > 0, s.Recall))
		}
		c = append(c, fmt.Sprintf("%.0f", s.Millis))
		if tokens {
			c = append(c, fmt.Sprintf("%.0f", s.Tokens))
		}
		rows = append(rows, append(c, fmt.Sprint(s.Abstained), fmt.Sprint(s.Errors)))
	}
	row("all", r.Summary)
	for _, t := range keysLast(r.ByType) {
		row(orNone(t, "(no type)"), *r.ByType[t])
	}
	if _, err := fmt.Fprintf(w, "QA: %d questions, %d multiple choice, %d free answers\n", r.N, r.MultipleChoice, r.N-r.MultipleChoice); err != nil {
		return err
	}
	if err := writeTable(w, rows); err != nil || len(r.ByMethod) == 0 {
		return err
	}
	// The same figures by how each answer was found.
	rows = [][]string{append([]string{"method"}, head[1:]...)}
	for _, m := range keysLast(r.ByMethod) {
		row(orNone(m, "(none)"), *r.ByMethod[m])
	}
	if _, err := fmt.Fprintln(w, "by method:"); err != nil {
		return err
	}
	return writeTable(w, rows)
}

// keysLast sorts a map's keys, "" last after the named ones.
func keysLast(m map[string]*Summary) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if (a == "") != (b == "") {
			if a == "" {
				return 1
			}
			return -1
		}
		return strings.Compare(a, b)
	})
	return keys
}

func orNone(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

func pctIf(ok bool, x float64) string {
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.1f", 100*x)
}

// writeTable aligns columns by display width, the first left and the
// rest right; text/tabwriter would count a Chinese character as one
// column where terminals draw two.
func writeTable(w io.Writer, rows [][]string) error {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], eval.DisplayWidth(c))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(" ")
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-eval.DisplayWidth(c))
			b.WriteString(" ")
			if i == 0 {
				b.WriteString(c + pad)
			} else {
				b.WriteString(" " + pad + c)
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
