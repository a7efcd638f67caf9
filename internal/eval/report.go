package eval

import (
	"fmt"
	"io"
	"strings"
)

// Report is the result of RunExtract.
type Report struct {
	Dataset   Dataset `json:"dataset"`
	Split     string  `json:"split"`
	Extractor string  `json:"extractor"`
	Version   string  `json:"version"`
	Limit     int     `json:"limit,omitempty"`
	// Entities is nil for data sets without entity gold (C-CLUE).
	Entities *Block   `json:"entities,omitempty"`
	Triples  *Block   `json:"triples,omitempty"`
	Mapping  *Mapping `json:"mapping"`
	Seconds  float64  `json:"seconds"`
}

// Write prints the report as aligned tables followed by the label mapping.
func (r *Report) Write(w io.Writer) error {
	head := fmt.Sprintf("Evaluation of %s %s on %s %s", r.Extractor, r.Version, r.Dataset, r.Split)
	if r.Limit > 0 {
		head += fmt.Sprintf(" (first %d examples of each file)", r.Limit)
	}
	if _, err := fmt.Fprintf(w, "%s, %.1fs\n\n", head, r.Seconds); err != nil {
		return err
	}
	if r.Entities != nil {
		if err := r.Entities.write(w, "Entities", "exact offsets and mapped type"); err != nil {
			return err
		}
	}
	if r.Triples != nil {
		how := "head and tail offsets and mapped relation"
		if r.Mapping != nil && r.Mapping.Match == MatchText {
			how = "head and tail text and mapped relation"
		}
		if err := r.Triples.write(w, "Triples", how); err != nil {
			return err
		}
	}
	if r.Mapping != nil {
		return r.Mapping.Write(w)
	}
	return nil
}

func pct(x float64) string { return fmt.Sprintf("%.1f", 100*x) }

func (b *Block) write(w io.Writer, title, how string) error {
	if _, err := fmt.Fprintf(w, "%s: %s, %d examples; correct = %s\n", title, b.Source, b.Examples, how); err != nil {
		return err
	}
	var t table
	t.group("all", 1, 6)
	t.group("mapped types only", 8, 13)
	t.row("type", "gold", "pred", "ok", "P%", "R%", "F1%", "", "gold", "pred", "ok", "P%", "R%", "F1%")
	t.alignRight(1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13)
	cells := func(s Score) []string {
		return []string{fmt.Sprint(s.Gold), fmt.Sprint(s.Predicted), fmt.Sprint(s.Correct), pct(s.Precision), pct(s.Recall), pct(s.F1)}
	}
	row := func(name string, all Score, mapped *Score) {
		c := append([]string{name}, cells(all)...)
		c = append(c, "")
		if mapped != nil {
			c = append(c, cells(*mapped)...)
		}
		t.row(c...)
	}
	row("overall", b.All.Overall, &b.Mapped.Overall)
	mapped := map[string]Score{}
	for _, ts := range b.Mapped.ByType {
		mapped[ts.Type] = ts.Score
	}
	for _, ts := range b.All.ByType {
		name := ts.Type
		var m *Score
		switch {
		case ts.Ours != "":
			name += " → " + ts.Ours
			if s, ok := mapped[ts.Type]; ok {
				m = &s
			}
		case ts.OurType:
			name += " (ours, no counterpart)"
		default:
			name += " (no counterpart)"
		}
		row(name, ts.Score, m)
	}
	if err := t.write(w, "  "); err != nil {
		return err
	}
	if err := b.writeRouge(w); err != nil {
		return err
	}
	var notes []string
	if b.Duplicates > 0 {
		notes = append(notes, fmt.Sprintf("%d identical predictions dropped", b.Duplicates))
	}
	if b.PredMerged > 0 {
		notes = append(notes, fmt.Sprintf("%d predictions restating a matched gold item in another accepted form not counted", b.PredMerged))
	}
	if b.GoldMerged > 0 {
		notes = append(notes, fmt.Sprintf("%d gold items stating the same fact as another counted once", b.GoldMerged))
	}
	if len(notes) > 0 {
		if _, err := fmt.Fprintf(w, "  (%s)\n", strings.Join(notes, "; ")); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}

// writeRouge prints, for triples, the string view beside P/R/F1: ROUGE-1,
// ROUGE-2, ROUGE-L and SCORE, their mean with F1.
func (b *Block) writeRouge(w io.Writer) error {
	if b.All.Rouge == nil || b.Mapped.Rouge == nil {
		return nil
	}
	if _, err := fmt.Fprintf(w, "\n  As strings (head+relation+tail, sorted; characters; mean of %d examples, %d mapped): SCORE = mean of F1, R1, R2, RL\n", b.All.Rouge.Examples, b.Mapped.Rouge.Examples); err != nil {
		return err
	}
	var t table
	t.row("", "P%", "R%", "F1%", "R1%", "R2%", "RL%", "SCORE%")
	t.alignRight(1, 2, 3, 4, 5, 6, 7)
	for _, v := range []struct {
		name string
		f    Figures
	}{{"all", b.All}, {"mapped types only", b.Mapped}} {
		s, r := v.f.Overall, v.f.Rouge
		t.row(v.name, pct(s.Precision), pct(s.Recall), pct(s.F1), pct(r.R1), pct(r.R2), pct(r.RL), pct(r.Score))
	}
	return t.write(w, "  ")
}
