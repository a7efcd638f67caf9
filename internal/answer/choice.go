package answer

import (
	"context"
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/annals-project/annals/internal/index"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/retrieve"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// choose answers a multiple-choice question (HisGraphRAG §3.4): it rates
// each option from the question alone and retrieves for the question with
// the options at least θ plausible; then it scores each option's
// plausibility against that evidence, drops those under θ, retrieves again
// for the question with each surviving option, and picks the option the
// evidence supports best.
func (a *Answerer) choose(ctx context.Context, question string, opts Options) (*Answer, error) {
	// Options are rated from the question alone first, and only those at
	// least θ plausible shape the retrieval query: a distractor's words
	// would fetch passages about the distractor.
	prior, err := a.prior(ctx, question, opts)
	if err != nil {
		return nil, err
	}
	// Offline the rating is lexical and weak: it leaves out of the query
	// only the options the texts never speak of with the question's words.
	bar := opts.Theta
	if a.LLM == nil {
		bar = math.SmallestNonzeroFloat64
	}
	scores := make([]OptionScore, len(opts.Choices))
	var asked []Option
	for i, o := range opts.Choices {
		scores[i].Option, scores[i].Prior = o, prior[i]
		if prior[i] >= bar || opts.Theta < 0 {
			asked = append(asked, o)
		}
	}
	if len(asked) == 0 {
		asked = opts.Choices
	}
	res, err := a.R.Retrieve(ctx, question, a.retrieveOptions(opts, optionTexts(asked)))
	if err != nil {
		return nil, err
	}
	ans := &Answer{Question: question, Mode: opts.Mode, Analysis: res.Analysis, Items: res.Items, Inactive: res.Inactive, Method: "choice"}
	passages, err := a.passages(ctx, res.Items)
	if err != nil {
		return nil, err
	}
	if a.LLM == nil {
		picked, err := a.chooseByFacts(ctx, ans, scores, opts)
		if picked || err != nil {
			return ans, err
		}
	}
	distinct := distinctTerms(opts.Choices)
	// First pass: support within the evidence for the question alone.
	if a.LLM != nil {
		if err := a.plausibility(ctx, ans, scores, opts); err != nil {
			return nil, err
		}
	} else {
		total := 0.0
		for i := range scores {
			// Each option reads every passage: the client may be gone.
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			scores[i].Plausibility, _ = Support(distinct[i], res.Analysis.Terms(), passages)
			total += scores[i].Plausibility
		}
		for i := range scores {
			if total > 0 {
				scores[i].Plausibility /= total
			} else {
				scores[i].Plausibility = 1 / float64(len(scores))
			}
		}
	}
	filterOptions(scores, opts.Theta)
	// Second pass: retrieval for the question with each surviving option.
	for i := range scores {
		if !scores[i].Kept {
			continue
		}
		hits, err := a.optionPassages(ctx, res.Analysis, scores[i].Text, opts)
		if err != nil {
			return nil, err
		}
		var ev *kg.Evidence
		scores[i].Score, ev = Support(distinct[i], res.Analysis.Terms(), append(hits, passages...))
		scores[i].Evidence = ev
	}
	ans.Options = scores
	if a.LLM != nil {
		if err := a.pick(ctx, ans, opts); err != nil {
			return nil, err
		}
		return ans, nil
	}
	best := -1
	for i, s := range scores {
		if s.Kept && (best < 0 || s.Score > scores[best].Score) {
			best = i
		}
	}
	if best < 0 || scores[best].Score == 0 {
		ans.Answer, ans.Method = unable(res.Analysis.Lang), "none"
		ans.Citations = cite()
		return ans, nil
	}
	ans.Choice, ans.Answered = scores[best].Letter, true
	ans.Answer = scores[best].Letter + ". " + scores[best].Text
	ans.Citations = cite(scores[best].Evidence)
	return ans, nil
}

// chooseByFacts answers a typed question from the subject's statements, as
// an open question would be, and picks the option that names the best
// supported value: the graph knows where 诸葛亮 died even when no passage
// holds both his name and the place. It reports false, and leaves the
// answer alone, when no statement names an option.
func (a *Answerer) chooseByFacts(ctx context.Context, ans *Answer, scores []OptionScore, opts Options) (bool, error) {
	f, err := newFactual(ctx, a.R.Src, ans.Analysis)
	if f == nil || err != nil {
		return false, err
	}
	cands, err := f.candidates(ctx)
	if err != nil {
		return false, err
	}
	within, err := a.placesWithin(ctx, ans.Analysis, cands, scores)
	if err != nil {
		return false, err
	}
	names := func(option string, c candidate) bool {
		return namesValue(option, c.value) || within[c.value+"\x00"+option]
	}
	for ci, c := range cands {
		best := -1
		for i, o := range scores {
			if names(o.Text, c) && (best < 0 || len(o.Text) > len(scores[best].Text)) {
				best = i
			}
		}
		if best < 0 {
			continue
		}
		for i := range scores {
			for _, d := range cands {
				if names(scores[i].Text, d) && d.score > scores[i].Score {
					scores[i].Score = d.score
					scores[i].Evidence = &d.evs[0]
				}
			}
		}
		total := 0.0
		for _, o := range scores {
			total += o.Score
		}
		for i := range scores {
			scores[i].Plausibility = round2(scores[i].Score / total)
		}
		// Options no statement names are filtered out, as by the first
		// pass below.
		filterOptions(scores, opts.Theta)
		ans.Options = scores
		ans.Choice, ans.Answered, ans.Method = scores[best].Letter, true, "fact"
		ans.Answer = scores[best].Letter + ". " + scores[best].Text
		ans.Confidence = confidenceOf(cands[ci:])
		ans.Citations = cite(&c.evs[0])
		return true, nil
	}
	return false, nil
}

// placeQuestions ask for a place, which the texts may name at two
// scales.
var placeQuestions = map[string]bool{retrieve.QDeathPlace: true, retrieve.QNative: true, retrieve.QResided: true, retrieve.QEventPlace: true}

// withinChecked is how many of the best values are looked for with an
// option after them.
const withinChecked = 3

// placesWithin finds the options that name a place within a place the
// statements give, as the texts write it, the larger first: 诸葛亮 卒于
// 武功, and 据武功五丈原 puts 五丈原 in 武功, so the option 五丈原
// names where he died. Keyed value, NUL, option.
func (a *Answerer) placesWithin(ctx context.Context, an *retrieve.Analysis, cands []candidate, scores []OptionScore) (map[string]bool, error) {
	out := map[string]bool{}
	if !placeQuestions[an.Type] || a.R.Lexical == nil {
		return out, nil
	}
	for _, c := range cands[:min(len(cands), withinChecked)] {
		for _, o := range scores {
			if namesValue(o.Text, c.value) {
				continue
			}
			written := text.FoldVariants(c.value + strings.TrimSpace(o.Text))
			ps, err := a.lexicalPassages(ctx, written, 3)
			if err != nil {
				return nil, err
			}
			for _, p := range ps {
				if strings.Contains(text.FoldVariants(p.Norm), written) {
					out[c.value+"\x00"+o.Text] = true
					break
				}
			}
		}
	}
	return out, nil
}

// filterOptions keeps the options at least theta plausible (all of them
// when theta is negative, or when none is).
func filterOptions(scores []OptionScore, theta float64) {
	kept := 0
	for i := range scores {
		scores[i].Kept = theta < 0 || scores[i].Plausibility >= theta
		if scores[i].Kept {
			kept++
		}
	}
	if kept == 0 {
		for i := range scores {
			scores[i].Kept = true
		}
	}
}

// namesValue reports whether an option and a value a statement gives name
// the same thing: one holds the other (五丈原, 武功五丈原), variants folded.
func namesValue(option, value string) bool {
	o, v := text.FoldVariants(strings.TrimSpace(option)), text.FoldVariants(value)
	if o == "" || v == "" {
		return false
	}
	return strings.Contains(o, v) || strings.Contains(v, o)
}

// optionPassages retrieves chunks for the question together with one option.
func (a *Answerer) optionPassages(ctx context.Context, an *retrieve.Analysis, option string, opts Options) ([]store.Passage, error) {
	return a.lexicalPassages(ctx, an.Norm+" "+option, 8)
}

// lexicalPassages reads the k chunks BM25 ranks best for a query; none
// where the lexical route is off.
func (a *Answerer) lexicalPassages(ctx context.Context, query string, k int) ([]store.Passage, error) {
	if a.R.Lexical == nil {
		return nil, nil
	}
	hits, err := a.R.Lexical(ctx, query, k)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	return a.R.Src.Passages(ctx, ids)
}

// passages reads the chunks behind retrieved items.
func (a *Answerer) passages(ctx context.Context, items []retrieve.Item) ([]store.Passage, error) {
	var ids []int64
	seen := map[int64]bool{}
	for _, it := range items {
		if it.Citation != nil && !seen[it.Citation.ChunkID] && it.Citation.ChunkID > 0 {
			seen[it.Citation.ChunkID] = true
			ids = append(ids, it.Citation.ChunkID)
		}
	}
	return a.R.Src.Passages(ctx, ids)
}

func optionTexts(os []Option) []string {
	out := make([]string, len(os))
	for i, o := range os {
		out[i] = o.Text
	}
	return out
}

// distinctTerms lists each option's terms that not every option shares:
// what sets it apart is what evidence must support.
func distinctTerms(os []Option) [][]string {
	count := map[string]int{}
	per := make([][]string, len(os))
	for i, o := range os {
		seen := map[string]bool{}
		for _, t := range optionTerms(o.Text) {
			if !seen[t] && !stopTerm(t) {
				seen[t] = true
				per[i] = append(per[i], t)
				count[t]++
			}
		}
	}
	for i := range per {
		var keep []string
		for _, t := range per[i] {
			if count[t] < len(os) || len(os) == 1 {
				keep = append(keep, t)
			}
		}
		per[i] = keep
	}
	return per
}

// optionTerms are the terms of an option: the index's terms, plus pairs
// of adjacent words in alphabetic scripts, since a Vietnamese word is
// often two syllables (chiến dịch, thực dân) and one syllable says little.
func optionTerms(s string) []string {
	ts := index.Terms(s)
	out := append([]string(nil), ts...)
	for i := 0; i+1 < len(ts); i++ {
		if !isHanTerm(ts[i]) && !isHanTerm(ts[i+1]) && !stopTerm(ts[i]) && !stopTerm(ts[i+1]) {
			out = append(out, ts[i]+" "+ts[i+1])
		}
	}
	return out
}

func isHanTerm(t string) bool {
	for _, r := range t {
		return unicode.Is(unicode.Han, r)
	}
	return false
}

// stopTerm is a term too common to count as support.
func stopTerm(t string) bool {
	switch t {
	case "của", "và", "là", "có", "được", "những", "các", "một", "trong", "với", "cho", "đã", "không", "the", "of",
		"and", "to", "in", "a", "an", "was", "is", "for", "on", "by", "with", "as", "that", "from", "at":
		return true
	}
	return false
}

// supportWindow is how many sentences one piece of support may span.
const supportWindow = 2

// Support scores how well passages back an option: the best window of
// sentences by the share of the option's distinct terms it holds, each
// term weighted by its length (a longer term is rarer), with the question's
// terms as a smaller bonus. It returns the score and the window's citation.
func Support(optionTerms, questionTerms []string, passages []store.Passage) (float64, *kg.Evidence) {
	if len(optionTerms) == 0 {
		return 0, nil
	}
	weight := func(ts []string) float64 {
		w := 0.0
		for _, t := range ts {
			w += math.Sqrt(float64(len([]rune(t))))
		}
		return w
	}
	total := weight(optionTerms)
	best, bestScore := (*kg.Evidence)(nil), 0.0
	for pi := range passages {
		p := &passages[pi]
		sents := sentencesOf(p)
		for i := range sents {
			end := min(i+supportWindow, len(sents))
			win := kg.Span{Start: sents[i].Start, End: sents[end-1].End}
			s := strings.ToLower(string([]rune(p.Norm)[win.Start:win.End]))
			got := 0.0
			for _, t := range optionTerms {
				if strings.Contains(s, t) {
					got += math.Sqrt(float64(len([]rune(t))))
				}
			}
			score := got / total
			if score == 0 {
				continue
			}
			q := 0
			for _, t := range questionTerms {
				if strings.Contains(s, t) {
					q++
				}
			}
			if len(questionTerms) > 0 {
				score += 0.25 * float64(q) / float64(len(questionTerms))
			}
			if score > bestScore {
				best, bestScore = retrieve.Cite(p, win), score
			}
		}
	}
	return bestScore, best
}

// sentencesOf splits a passage's normalised text into sentences, once.
func sentencesOf(p *store.Passage) []kg.Span {
	sp := text.Sentences(p.Norm, p.Lang)
	if len(sp) == 0 {
		sp = []kg.Span{{Start: 0, End: len([]rune(p.Norm))}}
	}
	sort.Slice(sp, func(i, j int) bool { return sp[i].Start < sp[j].Start })
	return sp
}

// FromPassages answers from given passages alone, with no retrieval: the
// option they support best, or the sentence that holds most of the
// question. It is the baseline that reads the gold context.
func FromPassages(question string, options []Option, passages []store.Passage) (choice, sentence string) {
	qTerms := index.Terms(question)
	if len(options) > 0 {
		distinct := distinctTerms(options)
		best := -1.0
		for i, o := range options {
			s, ev := Support(distinct[i], qTerms, passages)
			if s > best {
				best, choice = s, o.Letter
				sentence = ""
				if ev != nil {
					sentence = ev.Sentence
				}
			}
		}
		return choice, sentence
	}
	best := 0.0
	for pi := range passages {
		p := &passages[pi]
		for _, sp := range sentencesOf(p) {
			s := string([]rune(p.Norm)[sp.Start:sp.End])
			n := 0
			for _, t := range qTerms {
				if strings.Contains(strings.ToLower(s), t) {
					n++
				}
			}
			if v := float64(n) / float64(max(len(qTerms), 1)); v > best {
				best, sentence = v, s
			}
		}
	}
	return "", sentence
}

// prior rates the options from the question alone, before any evidence
// is read (P(a|q) of HisGraphRAG §3.4), as shares that sum to 1: by the
// LLM where there is one, else by what the option adds to the question's
// best match in the texts (the best BM25 score of the two as one query,
// less the question's own), so that an option the texts never speak of
// with the question's words does not steer retrieval.
func (a *Answerer) prior(ctx context.Context, question string, opts Options) ([]float64, error) {
	out := make([]float64, len(opts.Choices))
	if a.LLM != nil {
		scores, err := a.priorLLM(ctx, question, opts)
		if err != nil {
			return nil, err
		}
		copy(out, scores)
	} else if a.R.Lexical != nil {
		best := func(text string) (float64, error) {
			hits, err := a.R.Lexical(ctx, text, 1)
			if err != nil || len(hits) == 0 {
				return 0, err
			}
			return hits[0].Score, nil
		}
		base, err := best(question)
		if err != nil {
			return nil, err
		}
		// What an option adds to the question's best match: nothing when
		// the texts never speak of it in the question's words.
		for i, o := range opts.Choices {
			v, err := best(question + " " + o.Text)
			if err != nil {
				return nil, err
			}
			out[i] = v - base
		}
	}
	total := 0.0
	for _, v := range out {
		total += max(v, 0)
	}
	for i := range out {
		if total > 0 {
			out[i] = round2(max(out[i], 0) / total)
		} else {
			out[i] = round2(1 / float64(len(out)))
		}
	}
	return out, nil
}
