package eval

// Relation reasoning (annals relate) is scored per pair of names: the
// relation types it establishes between the two against the types the
// data set says hold, direction ignored.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/annals-project/annals/internal/text"
)

// AltSep separates the alternatives of a gold type: "任官|封爵" is matched
// by a prediction of either.
const AltSep = "|"

// NormalRelation states a relation type as it is scored with direction
// ignored: 上级 (tail was head's superior) is the 下级 it mirrors, as
// relation reasoning reads it.
func NormalRelation(t string) string {
	t = strings.TrimSpace(t)
	if t == "上级" {
		return "下级"
	}
	return t
}

// GoldClass puts a gold type, alternatives "|"-separated, in the form it
// is scored under: each alternative normalised, repeats and blanks
// dropped, in their order. "" when nothing is left.
func GoldClass(t string) string {
	var alts []string
	for _, a := range strings.Split(t, AltSep) {
		if a = NormalRelation(a); a != "" && !slices.Contains(alts, a) {
			alts = append(alts, a)
		}
	}
	return strings.Join(alts, AltSep)
}

// GoldPair is a pair of names and the relation types that hold between
// them, direction ignored; a type may list alternatives ("任官|封爵").
type GoldPair struct {
	Head string   `json:"head"`
	Tail string   `json:"tail"`
	Gold []string `json:"relations"`
}

// RelateLeftOut says what reading a data set into pairs left out.
type RelateLeftOut struct {
	Relations int `json:"relations"` // gold relations read
	// Unmapped counts, per label, the relations left out because the
	// label has no counterpart among our types.
	Unmapped map[string]int `json:"unmapped_labels,omitempty"`
	// SameName counts the relations whose head and tail read the same
	// name (after conversion to simplified characters), left out.
	SameName int `json:"same_name,omitempty"`
	// NoType counts the pairs skipped because none of their relations has
	// a counterpart.
	NoType int `json:"pairs_without_type,omitempty"`
	// NoGold counts pairs kept without a gold type (JSONL): any type found
	// for them is a false positive.
	NoGold int `json:"pairs_without_gold,omitempty"`
	// Limited counts the pairs past --limit, not evaluated.
	Limited int `json:"limited,omitempty"`
}

// RelateSet is an evaluation set for relation reasoning: the pairs, and
// the texts to index.
type RelateSet struct {
	Pairs   []GoldPair    `json:"pairs"`
	Texts   []string      `json:"texts"` // one passage each
	LeftOut RelateLeftOut `json:"left_out"`
}

// LoadCHisIECREFile reads one CHisIEC relation file (re_coling_*.json) by
// its path, as LoadCHisIECRE reads a split.
func LoadCHisIECREFile(path string) ([]Example, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: data file %s is missing", ErrDataAbsent, path)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	exs, err := ParseCHisIECRE(f, path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return exs, nil
}

// CHisIECRelatePairs turns CHisIEC relation examples into pairs of names
// with the types of ours their relations map onto (chisiecMapping; every
// alternative of a label makes one gold type, "任官|封爵"), all relations
// between the two, either way round, pooled over the set. Names are the
// entity text read from the sentence by offset, converted to simplified
// characters. Relations whose label has no counterpart are left out, and
// pairs with no type left are skipped; both are counted. Every example's
// sentence is a text to index.
func CHisIECRelatePairs(exs []Example) *RelateSet {
	m := &chisiecMapping
	set := &RelateSet{}
	index := map[[2]string]int{}
	simp := func(s string) string {
		out, _ := text.ToSimplified(strings.TrimSpace(s))
		return out
	}
	for _, ex := range exs {
		if strings.TrimSpace(ex.Text) != "" {
			set.Texts = append(set.Texts, ex.Text)
		}
		for _, tr := range ex.Triples {
			set.LeftOut.Relations++
			h, t := simp(tr.Head.Text), simp(tr.Tail.Text)
			if h == t || h == "" || t == "" {
				set.LeftOut.SameName++
				continue
			}
			key := [2]string{min(h, t), max(h, t)}
			k, ok := index[key]
			if !ok {
				k = len(set.Pairs)
				index[key] = k
				set.Pairs = append(set.Pairs, GoldPair{Head: h, Tail: t})
			}
			row, ok := m.RelationRow(tr.Relation, tr.Tail.Type)
			var alts []string
			for _, a := range row.Alts {
				alts = append(alts, a.Relation)
			}
			class := GoldClass(strings.Join(alts, AltSep))
			if !ok || class == "" {
				if set.LeftOut.Unmapped == nil {
					set.LeftOut.Unmapped = map[string]int{}
				}
				set.LeftOut.Unmapped[tr.Relation]++
				continue
			}
			if p := &set.Pairs[k]; !slices.Contains(p.Gold, class) {
				p.Gold = append(p.Gold, class)
			}
		}
	}
	kept := set.Pairs[:0]
	for _, p := range set.Pairs {
		if len(p.Gold) == 0 {
			set.LeftOut.NoType++
			continue
		}
		kept = append(kept, p)
	}
	set.Pairs = kept
	return set
}

// RelationPrediction is one pair's gold types and the types found for
// it, both direction ignored.
type RelationPrediction struct {
	Gold []string `json:"gold"` // a type may list alternatives ("任官|封爵")
	Pred []string `json:"pred"`
}

// RelationTypeScore is the score of one gold type over the pairs: Gold
// pairs hold it, Predicted pairs were given it (or one of its
// alternatives) without it being matched otherwise, Correct pairs both.
// For a type predicted that no pair holds, only Predicted is set.
type RelationTypeScore struct {
	Type string `json:"type"`
	Score
}

// Macro is the mean over the gold types of their precision, recall and F1.
type Macro struct {
	Types     int     `json:"types"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

// RelationScores are the figures of one set of predictions.
type RelationScores struct {
	Pairs int   `json:"pairs"`
	Macro Macro `json:"macro"`
	// Micro counts every (pair, gold type) and every (pair, predicted
	// type) that matches none of the pair's gold types.
	Micro  Score               `json:"micro"`
	ByType []RelationTypeScore `json:"by_type"` // the gold types, most held first
	// NeverGold are the types predicted that no pair holds: they count
	// only in the micro precision.
	NeverGold []RelationTypeScore `json:"never_gold,omitempty"`
}

// ScoreRelations scores the types found per pair against the gold ones,
// direction ignored (both sides go through NormalRelation). Per pair, a
// gold type is correct when one of its alternatives was found, else
// missed; a type found that matches none of the pair's gold types is a
// false positive of every gold type (over all pairs) that lists it, or,
// when none does, of its own never-gold row. Micro figures count each
// such false type once; macro figures average the per-type ones.
func ScoreRelations(preds []RelationPrediction) RelationScores {
	out := RelationScores{Pairs: len(preds)}
	type pair struct{ gold, pred []string }
	ps := make([]pair, len(preds))
	rows := map[string]*RelationTypeScore{}
	var order []string
	for i, p := range preds {
		for _, g := range p.Gold {
			if c := GoldClass(g); c != "" && !slices.Contains(ps[i].gold, c) {
				ps[i].gold = append(ps[i].gold, c)
				if rows[c] == nil {
					rows[c] = &RelationTypeScore{Type: c}
					order = append(order, c)
				}
			}
		}
		for _, t := range p.Pred {
			if t = NormalRelation(t); t != "" && !slices.Contains(ps[i].pred, t) {
				ps[i].pred = append(ps[i].pred, t)
			}
		}
	}
	// listing[t] are the gold types that accept a prediction of t.
	listing := map[string][]string{}
	for _, c := range order {
		for _, a := range strings.Split(c, AltSep) {
			listing[a] = append(listing[a], c)
		}
	}
	never := map[string]*RelationTypeScore{}
	for _, p := range ps {
		for _, c := range p.gold {
			r := rows[c]
			r.Gold++
			out.Micro.Gold++
			if slices.ContainsFunc(strings.Split(c, AltSep), func(a string) bool { return slices.Contains(p.pred, a) }) {
				r.Correct++
				r.Predicted++
				out.Micro.Correct++
				out.Micro.Predicted++
			}
		}
		for _, t := range p.pred {
			if slices.ContainsFunc(p.gold, func(c string) bool { return slices.Contains(strings.Split(c, AltSep), t) }) {
				continue // counted with the gold type it matched
			}
			out.Micro.Predicted++
			if cs := listing[t]; len(cs) > 0 {
				for _, c := range cs {
					rows[c].Predicted++
				}
				continue
			}
			if never[t] == nil {
				never[t] = &RelationTypeScore{Type: t}
			}
			never[t].Predicted++
		}
	}
	out.Micro.finish()
	for _, c := range order {
		r := rows[c]
		r.finish()
		out.ByType = append(out.ByType, *r)
		out.Macro.Precision += r.Precision
		out.Macro.Recall += r.Recall
		out.Macro.F1 += r.F1
	}
	if n := len(out.ByType); n > 0 {
		out.Macro.Types = n
		out.Macro.Precision /= float64(n)
		out.Macro.Recall /= float64(n)
		out.Macro.F1 /= float64(n)
	}
	slices.SortStableFunc(out.ByType, func(a, b RelationTypeScore) int { return b.Gold - a.Gold })
	for _, r := range never {
		r.finish()
		out.NeverGold = append(out.NeverGold, *r)
	}
	slices.SortFunc(out.NeverGold, func(a, b RelationTypeScore) int {
		if d := b.Predicted - a.Predicted; d != 0 {
			return d
		}
		return strings.Compare(a.Type, b.Type)
	})
	return out
}

// RelateRoundScore is one round of a relation-reasoning evaluation: what
// relating the pairs did, and how the types found score.
type RelateRoundScore struct {
	// Scoring is how the paths were ranked: normalised (BEKO's EF-IDF)
	// or raw.
	Scoring string `json:"scoring,omitempty"`
	Round   int    `json:"round"`
	// Pairs were related this round: every pair but those whose two names
	// are one entity. Connectivity is Connected / Pairs.
	Pairs        int     `json:"pairs"`
	Connected    int     `json:"connected"`
	Connectivity float64 `json:"connectivity"`
	Added        int     `json:"added"`    // verified facts written back that the graph did not hold
	Steps        int     `json:"steps"`    // of them, triples of a step along a path
	Rejected     int     `json:"rejected"` // findings and steps verification refused
	Unknown      int     `json:"unknown"`  // pairs with a name that names no entity
	Macro        Macro   `json:"macro"`
	Micro        Score   `json:"micro"`
}

// RelateReport is the outcome of a relation-reasoning evaluation.
type RelateReport struct {
	Dataset string `json:"dataset,omitempty"`
	// LeftOut says what reading the data set left out; set by the caller.
	LeftOut *RelateLeftOut `json:"left_out,omitempty"`
	Pairs   int            `json:"pairs"` // pairs scored
	// Passages were indexed into a fresh workspace, giving Documents,
	// Entities and Facts.
	Passages  int `json:"passages"`
	Documents int `json:"documents"`
	Entities  int `json:"entities"`
	Facts     int `json:"facts"`
	// SameEntity pairs name one entity twice (the names are aliases): they
	// are not related, and count as found 别称.
	SameEntity int `json:"same_entity"`
	// Rounds are the rounds under each scoring of the paths, Scoring's
	// first.
	Rounds []RelateRoundScore `json:"rounds"`
	// Scoring is the scoring ByType and NeverGold are under.
	Scoring string `json:"scoring,omitempty"`
	// ByType and NeverGold are the last round's per-type figures.
	ByType    []RelationTypeScore `json:"by_type"`
	NeverGold []RelationTypeScore `json:"never_gold,omitempty"`
	Notes     []string            `json:"notes"`
	Seconds   float64             `json:"seconds"`
}

// Text writes the report: what was read and left out, a row per round,
// the last round's per-type rows, then the notes.
func (r *RelateReport) Text(w io.Writer) error {
	var b strings.Builder
	head := "Relation reasoning"
	if r.Dataset != "" {
		head += " on " + r.Dataset
	}
	fmt.Fprintf(&b, "%s: %d pairs; %d passages indexed (%d documents, %d entities, %d facts), %.1fs\n",
		head, r.Pairs, r.Passages, r.Documents, r.Entities, r.Facts, r.Seconds)
	if lo := r.LeftOut; lo != nil {
		if lo.Relations > 0 {
			fmt.Fprintf(&b, "  %d gold relations read\n", lo.Relations)
		}
		if len(lo.Unmapped) > 0 {
			labels := make([]string, 0, len(lo.Unmapped))
			n := 0
			for l, k := range lo.Unmapped {
				labels = append(labels, fmt.Sprintf("%s %d", l, k))
				n += k
			}
			slices.Sort(labels)
			fmt.Fprintf(&b, "  left out: %d relations whose label has no counterpart among our types (%s)\n", n, strings.Join(labels, ", "))
		}
		if lo.SameName > 0 {
			fmt.Fprintf(&b, "  left out: %d relations whose head and tail read the same name\n", lo.SameName)
		}
		if lo.NoType > 0 {
			fmt.Fprintf(&b, "  skipped: %d pairs with no relation type left\n", lo.NoType)
		}
		if lo.NoGold > 0 {
			fmt.Fprintf(&b, "  %d pairs have no gold type: any type found for them is a false positive\n", lo.NoGold)
		}
		if lo.Limited > 0 {
			fmt.Fprintf(&b, "  not evaluated: %d pairs past --limit\n", lo.Limited)
		}
	}
	if r.SameEntity > 0 {
		fmt.Fprintf(&b, "  %d pairs name one entity twice: not related, counted as found 别称\n", r.SameEntity)
	}
	b.WriteString("\n")
	// A column of the scoring when the rounds say theirs.
	scored := slices.ContainsFunc(r.Rounds, func(rd RelateRoundScore) bool { return rd.Scoring != "" })
	var t table
	lead := func(scoring string, cells ...string) []string {
		if scored {
			return append([]string{scoring}, cells...)
		}
		return cells
	}
	o := len(lead(""))
	t.group("macro", o+8, o+10)
	t.group("micro", o+11, o+16)
	t.row(lead("scoring", "round", "related", "connected", "conn%", "added", "steps", "rejected", "unknown", "P%", "R%", "F1%", "gold", "pred", "ok", "P%", "R%", "F1%")...)
	for c := o + 1; c <= o+16; c++ {
		t.alignRight(c)
	}
	for _, rd := range r.Rounds {
		t.row(lead(rd.Scoring, fmt.Sprint(rd.Round), fmt.Sprint(rd.Pairs), fmt.Sprint(rd.Connected), pct(rd.Connectivity),
			fmt.Sprint(rd.Added), fmt.Sprint(rd.Steps), fmt.Sprint(rd.Rejected), fmt.Sprint(rd.Unknown),
			pct(rd.Macro.Precision), pct(rd.Macro.Recall), pct(rd.Macro.F1),
			fmt.Sprint(rd.Micro.Gold), fmt.Sprint(rd.Micro.Predicted), fmt.Sprint(rd.Micro.Correct),
			pct(rd.Micro.Precision), pct(rd.Micro.Recall), pct(rd.Micro.F1))...)
	}
	if err := writeString(w, b.String()); err != nil {
		return err
	}
	if err := t.write(w, "  "); err != nil {
		return err
	}
	if len(r.ByType)+len(r.NeverGold) > 0 {
		last, under := 0, ""
		for _, rd := range r.Rounds {
			if rd.Scoring == r.Scoring {
				last = max(last, rd.Round)
			}
		}
		if r.Scoring != "" {
			under = ", " + r.Scoring + " scoring"
		}
		var tt table
		tt.row("type", "gold", "pred", "ok", "P%", "R%", "F1%")
		tt.alignRight(1, 2, 3, 4, 5, 6)
		for _, ts := range r.ByType {
			tt.row(ts.Type, fmt.Sprint(ts.Gold), fmt.Sprint(ts.Predicted), fmt.Sprint(ts.Correct), pct(ts.Precision), pct(ts.Recall), pct(ts.F1))
		}
		if len(r.NeverGold) > 0 {
			tt.blank()
			for _, ts := range r.NeverGold {
				tt.row(ts.Type+" (never gold)", "0", fmt.Sprint(ts.Predicted), "0", "-", "-", "-")
			}
		}
		if err := writeString(w, fmt.Sprintf("\nPer type, round %d%s: pairs that hold it (gold), were given it (pred), both (ok)\n", last, under)); err != nil {
			return err
		}
		if err := tt.write(w, "  "); err != nil {
			return err
		}
	}
	if len(r.Notes) > 0 {
		var nb strings.Builder
		nb.WriteString("\nNotes\n")
		for _, n := range r.Notes {
			nb.WriteString("  " + n + "\n")
		}
		return writeString(w, nb.String())
	}
	return nil
}

func writeString(w io.Writer, s string) error {
	_, err := io.WriteString(w, s)
	return err
}
