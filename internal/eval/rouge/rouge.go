// Package rouge scores a generated text against a reference by ROUGE-1,
// ROUGE-2 and ROUGE-L F1 over characters: Chinese has no spaces to cut
// words by, and a character is its smallest unit of meaning. Letters and
// digits count as characters too; punctuation and spaces do not.
package rouge

import "unicode"

// Scores are ROUGE-1, ROUGE-2 and ROUGE-L, each an F1 in [0, 1].
type Scores struct {
	R1 float64 `json:"rouge1"`
	R2 float64 `json:"rouge2"`
	RL float64 `json:"rougeL"`
}

// Score compares candidate with reference.
func Score(candidate, reference string) Scores {
	c, r := units(candidate), units(reference)
	return Scores{R1: ngramF1(c, r, 1), R2: ngramF1(c, r, 2), RL: lcsF1(c, r)}
}

// units are the characters that count: letters (Han included) and digits.
func units(s string) []rune {
	var out []rune
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			out = append(out, r)
		}
	}
	return out
}

func f1(overlap, c, r int) float64 {
	if overlap == 0 || c == 0 || r == 0 {
		return 0
	}
	p, rec := float64(overlap)/float64(c), float64(overlap)/float64(r)
	return 2 * p * rec / (p + rec)
}

// ngramF1 is the F1 of the clipped overlap of the two texts' n-grams.
func ngramF1(c, r []rune, n int) float64 {
	if len(c) < n || len(r) < n {
		return 0
	}
	count := func(rs []rune) map[string]int {
		m := map[string]int{}
		for i := 0; i+n <= len(rs); i++ {
			m[string(rs[i:i+n])]++
		}
		return m
	}
	cm, rm := count(c), count(r)
	overlap := 0
	for g, k := range cm {
		overlap += min(k, rm[g])
	}
	return f1(overlap, len(c)-n+1, len(r)-n+1)
}

// lcsF1 is the F1 of the longest common subsequence, in O(len(c)·len(r))
// time and O(len(r)) space.
func lcsF1(c, r []rune) float64 {
	if len(c) == 0 || len(r) == 0 {
		return 0
	}
	prev, cur := make([]int, len(r)+1), make([]int, len(r)+1)
	for i := 1; i <= len(c); i++ {
		for j := 1; j <= len(r); j++ {
			switch {
			case c[i-1] == r[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] >= cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev, cur = cur, prev
	}
	return f1(prev[len(r)], len(c), len(r))
}
