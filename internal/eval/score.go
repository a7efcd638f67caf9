package eval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/annals-project/annals/internal/eval/rouge"
	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/schema"
)

// Score is a micro-averaged count with its precision, recall and F1. A
// ratio with a zero denominator is 0.
type Score struct {
	Gold      int     `json:"gold"`
	Predicted int     `json:"predicted"`
	Correct   int     `json:"correct"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

func (s *Score) finish() {
	s.Precision, s.Recall, s.F1 = 0, 0, 0
	if s.Predicted > 0 {
		s.Precision = float64(s.Correct) / float64(s.Predicted)
	}
	if s.Gold > 0 {
		s.Recall = float64(s.Correct) / float64(s.Gold)
	}
	if s.Precision+s.Recall > 0 {
		s.F1 = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
	}
}

// TypeScore is the score of one entity or relation type.
type TypeScore struct {
	// Type is the data set's label, or, for predictions of our types that
	// have no counterpart, our type's name (then Ours is empty and Mapped
	// false).
	Type    string `json:"type"`
	OurType bool   `json:"our_type,omitempty"` // Type is one of our types
	Ours    string `json:"ours,omitempty"`     // our types the label maps to, "|"-joined
	Mapped  bool   `json:"mapped"`
	Score
}

// Figures are the overall and per-type scores of one view.
type Figures struct {
	Overall Score       `json:"overall"`
	ByType  []TypeScore `json:"by_type"`
	// Rouge compares the triples as strings (triples only).
	Rouge *Rouge `json:"rouge,omitempty"`
}

// Rouge is the string view of a triple score, after the historical-figure
// KG paper: per example, the produced triples and the gold triples are each
// written as one string (see tripleString, serialise) and compared by
// ROUGE-1, ROUGE-2 and ROUGE-L F1 over characters (package rouge); the
// figures are the mean over examples (macro). Examples with neither a gold
// nor a produced triple are left out; one side empty scores 0. Score is
// the paper's SCORE: the mean of the view's micro F1 and the three ROUGE
// figures.
type Rouge struct {
	Examples int `json:"examples"` // examples averaged over
	rouge.Scores
	Score float64 `json:"score"`
}

// rougeSum accumulates per-example ROUGE figures.
type rougeSum struct {
	n          int
	r1, r2, rl float64
}

func (s *rougeSum) add(pred, gold []string) {
	if len(pred) == 0 && len(gold) == 0 {
		return
	}
	sc := rouge.Score(serialise(pred), serialise(gold))
	s.n++
	s.r1 += sc.R1
	s.r2 += sc.R2
	s.rl += sc.RL
}

func (s rougeSum) figures(f1 float64) *Rouge {
	r := &Rouge{Examples: s.n}
	if s.n > 0 {
		n := float64(s.n)
		r.R1, r.R2, r.RL = s.r1/n, s.r2/n, s.rl/n
	}
	r.Score = (f1 + r.R1 + r.R2 + r.RL) / 4
	return r
}

// tripleString writes a triple as its head, relation and tail, in that
// order, with nothing between them.
func tripleString(head, rel, tail string) string { return head + rel + tail }

// serialise writes an example's triples as one string: sorted, so that
// the order an extractor lists them in does not count, and joined by "；",
// which ROUGE does not count as a character (n-grams run across it).
func serialise(triples []string) string {
	s := slices.Clone(triples)
	slices.Sort(s)
	return strings.Join(s, "；")
}

// Block is the score of entities or of triples on one file.
type Block struct {
	Source   string `json:"source"` // the data file scored
	Examples int    `json:"examples"`
	// All counts every gold item and every prediction; Mapped only gold
	// items and predictions of types that the mapping relates.
	All    Figures `json:"all"`
	Mapped Figures `json:"mapped"`
	// Duplicates are identical predictions in one example, dropped.
	Duplicates int `json:"duplicates"`
	// PredMerged are predictions that restate an already matched gold item
	// in another accepted form (攻 and 消极态度倾向 for one attack): not
	// counted.
	PredMerged int `json:"pred_merged"`
	// GoldMerged are gold items that state in our schema the same fact as
	// another of the example (兄 A→B and 弟 B→A): counted once.
	GoldMerged int `json:"gold_merged"`
}

// goldItem is a gold entity or triple as the set of prediction keys that
// would match it.
type goldItem struct {
	class string
	keys  []string // sorted; empty when the label has no counterpart
	text  string   // tripleString of a gold triple
}

// predItem is a prediction as its key. class is the data set label its
// type maps to, or, when unmapped, our type's name.
type predItem struct {
	class  string
	key    string
	mapped bool
	text   string // tripleString of a predicted triple, relation as its label
}

// outcome is the matching of one example.
type outcome struct {
	gold       []goldItem
	pred       []predItem
	predGold   []int // per prediction, the gold item it matched or -1
	duplicates int
	predMerged int
	goldMerged int
}

// match pairs predictions with gold items one to one (maximum bipartite
// matching, so that a gold item with several accepted forms never steals
// the only match of another).
func match(gold []goldItem, pred []predItem) outcome {
	var o outcome
	sigs := map[string]bool{}
	for _, g := range gold {
		if len(g.keys) > 0 {
			sig := strings.Join(g.keys, "\x1e")
			if sigs[sig] {
				o.goldMerged++
				continue
			}
			sigs[sig] = true
		}
		o.gold = append(o.gold, g)
	}
	seen := map[string]bool{}
	for _, p := range pred {
		if seen[p.key] {
			o.duplicates++
			continue
		}
		seen[p.key] = true
		o.pred = append(o.pred, p)
	}
	byKey := map[string][]int{}
	for gi, g := range o.gold {
		for _, k := range g.keys {
			byKey[k] = append(byKey[k], gi)
		}
	}
	goldPred := make([]int, len(o.gold))
	for i := range goldPred {
		goldPred[i] = -1
	}
	predGold := make([]int, len(o.pred))
	for i := range predGold {
		predGold[i] = -1
	}
	var augment func(p int, visited []bool) bool
	augment = func(p int, visited []bool) bool {
		for _, g := range byKey[o.pred[p].key] {
			if visited[g] {
				continue
			}
			visited[g] = true
			if goldPred[g] < 0 || augment(goldPred[g], visited) {
				goldPred[g], predGold[p] = p, g
				return true
			}
		}
		return false
	}
	for p := range o.pred {
		if len(byKey[o.pred[p].key]) > 0 {
			augment(p, make([]bool, len(o.gold)))
		}
	}
	// An unmatched prediction that some gold item accepts restates a gold
	// item already matched (else the matching would have taken it).
	kept := o.pred[:0]
	keptGold := predGold[:0]
	for p, pi := range o.pred {
		if predGold[p] < 0 && len(byKey[pi.key]) > 0 {
			o.predMerged++
			continue
		}
		kept = append(kept, pi)
		keptGold = append(keptGold, predGold[p])
	}
	o.pred, o.predGold = kept, keptGold
	return o
}

type classKey struct {
	name string
	ours bool
}

// tally sums outcomes into the two views.
type tally struct {
	all, mapped       map[classKey]*Score
	allSum, mappedSum Score
	dup, pm, gm       int
	// strings turns on the ROUGE figures (triples).
	strings                   bool
	allStrings, mappedStrings rougeSum
}

func newTally() *tally {
	return &tally{all: map[classKey]*Score{}, mapped: map[classKey]*Score{}}
}

func bump(m map[classKey]*Score, k classKey) *Score {
	s := m[k]
	if s == nil {
		s = &Score{}
		m[k] = s
	}
	return s
}

func (t *tally) add(o outcome) {
	if t.strings {
		t.addStrings(o)
	}
	t.dup += o.duplicates
	t.pm += o.predMerged
	t.gm += o.goldMerged
	for _, g := range o.gold {
		k := classKey{name: g.class}
		bump(t.all, k).Gold++
		t.allSum.Gold++
		if len(g.keys) > 0 {
			bump(t.mapped, k).Gold++
			t.mappedSum.Gold++
		}
	}
	for i, p := range o.pred {
		k := classKey{name: p.class, ours: !p.mapped}
		correct := 0
		if gi := o.predGold[i]; gi >= 0 {
			// Count a hit under the gold item's label so per-type
			// precision and recall agree.
			k = classKey{name: o.gold[gi].class}
			correct = 1
		}
		s := bump(t.all, k)
		s.Predicted++
		s.Correct += correct
		t.allSum.Predicted++
		t.allSum.Correct += correct
		if p.mapped {
			s := bump(t.mapped, k)
			s.Predicted++
			s.Correct += correct
			t.mappedSum.Predicted++
			t.mappedSum.Correct += correct
		}
	}
}

// addStrings adds an example's ROUGE figures in both views. A prediction
// that matched a gold item is written as that item, so that a correct
// triple in another accepted form (a swapped or renamed relation) reads
// the same as the gold.
func (t *tally) addStrings(o outcome) {
	var goldAll, goldMapped, predAll, predMapped []string
	for _, g := range o.gold {
		goldAll = append(goldAll, g.text)
		if len(g.keys) > 0 {
			goldMapped = append(goldMapped, g.text)
		}
	}
	for i, p := range o.pred {
		s := p.text
		if gi := o.predGold[i]; gi >= 0 {
			s = o.gold[gi].text
		}
		predAll = append(predAll, s)
		if p.mapped {
			predMapped = append(predMapped, s)
		}
	}
	t.allStrings.add(predAll, goldAll)
	t.mappedStrings.add(predMapped, goldMapped)
}

// block orders the per-type rows: the mapping's labels in table order
// (always listed in "all", and in "mapped" when they have a counterpart),
// then other gold labels, then our unmapped types.
func (t *tally) block(source string, examples int, labels []string, ours func(string) string) *Block {
	b := &Block{Source: source, Examples: examples, Duplicates: t.dup, PredMerged: t.pm, GoldMerged: t.gm}
	b.All = figures(t.all, t.allSum, labels, ours, true)
	b.Mapped = figures(t.mapped, t.mappedSum, labels, ours, false)
	if t.strings {
		b.All.Rouge = t.allStrings.figures(b.All.Overall.F1)
		b.Mapped.Rouge = t.mappedStrings.figures(b.Mapped.Overall.F1)
	}
	return b
}

func figures(m map[classKey]*Score, sum Score, labels []string, ours func(string) string, all bool) Figures {
	f := Figures{Overall: sum}
	f.Overall.finish()
	done := map[classKey]bool{}
	emit := func(k classKey, s Score) {
		done[k] = true
		ts := TypeScore{Type: k.name, OurType: k.ours, Score: s}
		if !k.ours {
			ts.Ours = ours(k.name)
			ts.Mapped = ts.Ours != ""
		}
		ts.finish()
		f.ByType = append(f.ByType, ts)
	}
	for _, l := range labels {
		k := classKey{name: l}
		if done[k] {
			continue
		}
		s := m[k]
		if s == nil {
			if !all && ours(l) == "" {
				continue
			}
			s = &Score{}
		}
		emit(k, *s)
	}
	var rest []classKey
	for k := range m {
		if !done[k] {
			rest = append(rest, k)
		}
	}
	slices.SortFunc(rest, func(a, b classKey) int {
		if a.ours != b.ours {
			if a.ours {
				return 1
			}
			return -1
		}
		return strings.Compare(a.name, b.name)
	})
	for _, k := range rest {
		emit(k, *m[k])
	}
	return f
}

func sortedUnique(keys []string) []string {
	slices.Sort(keys)
	return slices.Compact(keys)
}

func entityKey(start, end int, typ string) string {
	return fmt.Sprintf("%d:%d|%s", start, end, typ)
}

// tripleKey names a triple; a symmetric relation's ends are put in order
// so that both directions give one key.
func tripleKey(sch *schema.Schema, head, rel, tail string) string {
	if rt := sch.Relation(rel); rt != nil && rt.Symmetric && tail < head {
		head, tail = tail, head
	}
	return head + "\x1f" + rel + "\x1f" + tail
}

// goldEntities turns an example's gold entities into items.
func goldEntities(m *Mapping, ex Example) []goldItem {
	out := make([]goldItem, 0, len(ex.Entities))
	for _, e := range ex.Entities {
		g := goldItem{class: e.Type}
		for _, t := range m.EntityAlts(e.Type) {
			g.keys = append(g.keys, entityKey(e.Start, e.End, t))
		}
		g.keys = sortedUnique(g.keys)
		out = append(out, g)
	}
	return out
}

func predEntities(m *Mapping, r extract.Result) []predItem {
	out := make([]predItem, 0, len(r.Entities))
	for _, e := range r.Entities {
		p := predItem{key: entityKey(e.Start, e.End, e.Type)}
		if l, ok := m.EntityLabel(e.Type); ok {
			p.class, p.mapped = l, true
		} else {
			p.class = e.Type
		}
		out = append(out, p)
	}
	return out
}

// goldEnd names a gold entity the way predictions are compared.
func (m *Mapping) goldEnd(e GoldEntity) string {
	if m.Match == MatchText {
		return e.Text
	}
	return fmt.Sprintf("%d:%d", e.Start, e.End)
}

// spanText is an entity's text, read from the example's characters when
// not given.
func spanText(given string, start, end int, text []rune) string {
	if given == "" && start >= 0 && start < end && end <= len(text) {
		return string(text[start:end])
	}
	return given
}

func (m *Mapping) predEnd(e extract.Entity, text []rune) string {
	if m.Match == MatchText {
		if e.Text == "" && e.Start >= 0 && e.Start < e.End && e.End <= len(text) {
			return string(text[e.Start:e.End])
		}
		return e.Text
	}
	return fmt.Sprintf("%d:%d", e.Start, e.End)
}

// goldTripleItem lists every key by which our schema may state t.
func (m *Mapping) goldTripleItem(sch *schema.Schema, t GoldTriple) goldItem {
	g := goldItem{class: t.Relation, text: tripleString(t.Head.Text, t.Relation, t.Tail.Text)}
	row, ok := m.RelationRow(t.Relation, t.Tail.Type)
	if !ok {
		return g
	}
	h, tl := m.goldEnd(t.Head), m.goldEnd(t.Tail)
	for _, a := range row.Alts {
		x, y := h, tl
		if a.Swap {
			x, y = y, x
		}
		g.keys = append(g.keys, tripleKey(sch, x, a.Relation, y))
		if row.Either {
			g.keys = append(g.keys, tripleKey(sch, y, a.Relation, x))
		}
	}
	g.keys = sortedUnique(g.keys)
	return g
}

func goldTriples(m *Mapping, sch *schema.Schema, ex Example) []goldItem {
	out := make([]goldItem, 0, len(ex.Triples))
	runes := []rune(ex.Text)
	for _, t := range ex.Triples {
		t.Head.Text = spanText(t.Head.Text, t.Head.Start, t.Head.End, runes)
		t.Tail.Text = spanText(t.Tail.Text, t.Tail.Start, t.Tail.End, runes)
		out = append(out, m.goldTripleItem(sch, t))
	}
	return out
}

func predTriples(m *Mapping, sch *schema.Schema, text string, r extract.Result) []predItem {
	runes := []rune(text)
	out := make([]predItem, 0, len(r.Triples))
	for _, t := range r.Triples {
		p := predItem{key: tripleKey(sch, m.predEnd(t.Head, runes), t.Relation, m.predEnd(t.Tail, runes))}
		if l, ok := m.RelationLabel(t.Relation); ok {
			p.class, p.mapped = l, true
		} else {
			p.class = t.Relation
		}
		p.text = tripleString(spanText(t.Head.Text, t.Head.Start, t.Head.End, runes), p.class, spanText(t.Tail.Text, t.Tail.Start, t.Tail.End, runes))
		out = append(out, p)
	}
	return out
}

func (m *Mapping) entityLabels() []string {
	out := make([]string, len(m.Entities))
	for i, e := range m.Entities {
		out[i] = e.Label
	}
	return out
}

func (m *Mapping) relationLabels() []string {
	var out []string
	for _, r := range m.Relations {
		if !slices.Contains(out, r.Label) {
			out = append(out, r.Label)
		}
	}
	return out
}

func (m *Mapping) entityDisplay(label string) string {
	return strings.Join(m.EntityAlts(label), "|")
}

// ScoreEntities scores predicted entities against the examples' gold
// entities: a prediction is correct when its offsets are exactly a gold
// item's and its type maps to the gold type. results[i] is the output on
// examples[i].
func ScoreEntities(m *Mapping, source string, examples []Example, results []extract.Result) (*Block, error) {
	if len(examples) != len(results) {
		return nil, fmt.Errorf("score entities: %d examples but %d results", len(examples), len(results))
	}
	t := newTally()
	for i, ex := range examples {
		t.add(match(goldEntities(m, ex), predEntities(m, results[i])))
	}
	return t.block(source, len(examples), m.entityLabels(), m.entityDisplay), nil
}

// ScoreTriples scores predicted triples against the examples' gold triples:
// a prediction is correct when its head and tail match the gold's (offsets
// or text, per the mapping), after the swap of one of the gold relation's
// accepted forms, and its relation is that form's.
func ScoreTriples(m *Mapping, sch *schema.Schema, source string, examples []Example, results []extract.Result) (*Block, error) {
	if len(examples) != len(results) {
		return nil, fmt.Errorf("score triples: %d examples but %d results", len(examples), len(results))
	}
	t := newTally()
	t.strings = true
	for i, ex := range examples {
		t.add(match(goldTriples(m, sch, ex), predTriples(m, sch, ex.Text, results[i])))
	}
	return t.block(source, len(examples), m.relationLabels(), m.relationDisplay), nil
}
