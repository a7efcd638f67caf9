package rouge

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestScore(t *testing.T) {
	// Identical texts score 1; punctuation does not count.
	if s := Score("诸葛亮，字孔明。", "诸葛亮字孔明"); !near(s.R1, 1) || !near(s.R2, 1) || !near(s.RL, 1) {
		t.Errorf("identical: %+v", s)
	}
	// Nothing shared scores 0.
	if s := Score("关羽", "曹操"); s.R1 != 0 || s.R2 != 0 || s.RL != 0 {
		t.Errorf("disjoint: %+v", s)
	}
	// 亮卒 against 亮卒于五丈原: unigrams P 1, R 2/6; one bigram, P 1 and
	// R 1/5; the LCS is 2.
	s := Score("亮卒", "亮卒于五丈原")
	if want := 0.5; !near(s.R1, want) || !near(s.RL, want) {
		t.Errorf("R1 %v RL %v, want %v", s.R1, s.RL, want)
	}
	if want := 2 * 0.2 / 1.2; !near(s.R2, want) {
		t.Errorf("R2 %v, want %v", s.R2, want)
	}
	// Order matters to ROUGE-L, not to ROUGE-1; repeats are clipped.
	s = Score("原丈五于卒亮", "亮卒于五丈原")
	if !near(s.R1, 1) || s.RL >= 0.5 {
		t.Errorf("reversed: %+v", s)
	}
	if s := Score("亮亮亮", "亮"); !near(s.R1, 2*(1.0/3)*1/(1.0/3+1)) {
		t.Errorf("clipped: %+v", s)
	}
	if s := Score("", "亮"); s.R1 != 0 || s.RL != 0 {
		t.Errorf("empty: %+v", s)
	}
}
