package annals

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/annals-project/annals/internal/eval"
	"github.com/annals-project/annals/internal/eval/qa"
	"github.com/annals-project/annals/internal/relate"
)

// Relation-reasoning evaluation.
type (
	// RelateReport is the outcome of EvaluateRelate.
	RelateReport = eval.RelateReport
	// CorpusPassage is a text to index for an evaluation; Key, when set,
	// names its file.
	CorpusPassage = qa.Passage
)

// relateNotes explain how EvaluateRelate scores.
var relateNotes = []string{
	"direction ignored: a pair's predicted types are the distinct types of all its findings, either way round, direct or composed through a third entity, whatever their status (extracted, verified or inferred); 上级 counts as the 下级 it mirrors",
	"a gold type written a|b (one data set label with several counterparts) is matched by either",
	"macro: the mean over the gold types of their precision, recall and F1; micro: every (pair, gold type) and every (pair, type found) that matches none of the pair's gold types",
	"a type found that no pair holds counts only in the micro precision (listed as never gold); a wrong type that several gold types list counts against each",
	"a pair with a name that names no entity has no prediction; a pair whose two names are one entity (aliases) is not related and counts as found 别称",
	"connectivity: the share of the pairs related whose search found a path every step of which states a relation",
	"scoring: the pairs are related under each ranking of the paths, normalised (BEKO's EF-IDF, each entity's path frequency over the sum of the path's; the default) and raw (the frequency unnormalised), each from the graph as indexed: what one scoring fed back is reverted before the next runs; the per-type rows are the default scoring's",
}

// EvaluateRelate indexes corpus into a fresh workspace under dir (the
// passages as files in dir/corpus, the workspace in dir/.annals; with the
// offline pattern extractor unless opts.LLM asks for the configured one),
// then relates the pairs for rounds rounds, feeding back after each (see
// RelateRounds), and scores every round's findings against each pair's
// Gold types, direction ignored. Gold types may list alternatives,
// "任官|封爵". Passages without a Key are pooled (repeats dropped) and
// keyed. The rounds run under each scoring of the paths (raw, then the
// default, normalised, whose feedback the workspace keeps), or only under
// opts.Scoring when set.
func EvaluateRelate(ctx context.Context, dir string, pairs []RelatePair, corpus []CorpusPassage, rounds int, opts RelateOptions) (*RelateReport, error) {
	start := time.Now()
	if len(pairs) == 0 {
		return nil, errors.New("evaluate relate: no pairs")
	}
	if err := relate.CheckScoring(opts.Scoring); err != nil {
		return nil, fmt.Errorf("evaluate relate: %w", err)
	}
	if slices.ContainsFunc(corpus, func(p CorpusPassage) bool { return p.Key == "" }) {
		corpus = qa.Corpus([]qa.Question{{Context: corpus}})
	}
	if len(corpus) == 0 {
		return nil, errors.New("evaluate relate: no passages to index")
	}
	wsDir := filepath.Join(dir, ".annals")
	if _, err := os.Stat(wsDir); err == nil {
		return nil, fmt.Errorf("evaluate relate: %s already holds a workspace; the evaluation needs a fresh one (what earlier runs fed back would count)", wsDir)
	}
	root := filepath.Join(dir, "corpus")
	if err := WritePassages(root, corpus); err != nil {
		return nil, err
	}
	ws, err := Open(ctx, wsDir)
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	extractor := "pattern"
	if opts.LLM {
		extractor = "" // the settings'
	}
	if _, err := ws.Index(ctx, []string{root}, IndexOptions{Extractor: extractor}); err != nil {
		return nil, fmt.Errorf("index the passages: %w", err)
	}
	st, err := ws.Stats(ctx)
	if err != nil {
		return nil, err
	}
	rep, err := ws.scoreRelate(ctx, pairs, rounds, opts)
	if err != nil {
		return nil, err
	}
	rep.Passages, rep.Documents, rep.Entities, rep.Facts = len(corpus), st.Documents, st.Entities, st.Relations
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// scoreRelate relates the pairs over the workspace round after round,
// under each scoring (or opts.Scoring's alone), and scores each round.
func (w *Workspace) scoreRelate(ctx context.Context, pairs []RelatePair, rounds int, opts RelateOptions) (*RelateReport, error) {
	if rounds <= 0 {
		rounds = 1
	}
	rep := &RelateReport{Pairs: len(pairs), Notes: relateNotes}
	// Pairs whose two names are one entity cannot be related (RelateIDs
	// refuses): they are aliases, a 别称 found. The rest are related,
	// at[j] being the pair the j-th related one is.
	var related []RelatePair
	var at []int
	alias := make([]bool, len(pairs))
	for i, p := range pairs {
		ha, errA := w.findEntities(ctx, p.Head)
		hb, errB := w.findEntities(ctx, p.Tail)
		for _, err := range []error{errA, errB} {
			if err != nil && !errors.Is(err, ErrNotFound) {
				return nil, fmt.Errorf("pair %d (%s, %s): %w", i+1, p.Head, p.Tail, err)
			}
		}
		if errA == nil && errB == nil && ha[0].ID == hb[0].ID {
			alias[i] = true
			rep.SameEntity++
			continue
		}
		related = append(related, p)
		at = append(at, i)
	}
	// The default scoring runs last, so that the workspace keeps what it
	// fed back, and is reported first.
	scorings := []string{opts.Scoring}
	if opts.Scoring == "" {
		scorings = []string{relate.ScoringRaw, relate.ScoringNormalised}
	}
	rep.Scoring = scorings[len(scorings)-1]
	var rows [][]eval.RelateRoundScore
	for k, scoring := range scorings {
		if k > 0 {
			if err := w.revertAllFeedback(ctx); err != nil {
				return nil, fmt.Errorf("before scoring %s: %w", scoring, err)
			}
		}
		o := opts
		o.Scoring = scoring
		rs, sc, err := w.scoreRelateRounds(ctx, pairs, related, at, alias, rounds, o)
		if err != nil {
			return nil, fmt.Errorf("scoring %s: %w", scoring, err)
		}
		rows = append(rows, rs)
		if k == len(scorings)-1 {
			rep.ByType, rep.NeverGold = sc.ByType, sc.NeverGold
		}
	}
	for k := len(rows) - 1; k >= 0; k-- {
		rep.Rounds = append(rep.Rounds, rows[k]...)
	}
	return rep, nil
}

// scoreRelateRounds relates the related pairs round after round under
// opts.Scoring and scores each round; it also returns the last round's
// scores.
func (w *Workspace) scoreRelateRounds(ctx context.Context, pairs, related []RelatePair, at []int, alias []bool, rounds int,
	opts RelateOptions) ([]eval.RelateRoundScore, eval.RelationScores, error) {
	// found[r][i] are the types found for pair i in round r+1.
	found := make([][][]string, rounds)
	for r := range found {
		found[r] = make([][]string, len(pairs))
		for i := range pairs {
			if alias[i] {
				found[r][i] = []string{"别称"}
			}
		}
	}
	stats, err := w.RelateRounds(ctx, related, rounds, opts, func(round, j int, res *Related) {
		if res == nil {
			return // an unknown name: nothing found
		}
		var types []string
		for _, f := range res.Findings {
			if !slices.Contains(types, f.Type) {
				types = append(types, f.Type)
			}
		}
		found[round-1][at[j]] = types
	})
	if err != nil {
		return nil, eval.RelationScores{}, err
	}
	var out []eval.RelateRoundScore
	var last eval.RelationScores
	for r, st := range stats {
		preds := make([]eval.RelationPrediction, len(pairs))
		for i, p := range pairs {
			preds[i] = eval.RelationPrediction{Gold: p.Gold, Pred: found[r][i]}
		}
		sc := eval.ScoreRelations(preds)
		out = append(out, eval.RelateRoundScore{
			Scoring: opts.Scoring, Round: st.N, Pairs: st.Pairs, Connected: st.Connected, Connectivity: st.Connectivity,
			Added: st.Added, Steps: st.Steps, Rejected: st.Rejected, Unknown: st.Unknown, Macro: sc.Macro, Micro: sc.Micro,
		})
		last = sc
	}
	return out, last, nil
}

// revertAllFeedback takes every fact relation reasoning fed back out of
// the graph, leaving it as indexed; the structure in memory is read again
// at the next question.
func (w *Workspace) revertAllFeedback(ctx context.Context) error {
	fbs, err := w.db.Feedback(ctx, false)
	if err != nil {
		return err
	}
	defer w.relateGraph.Update(func(gen *[4]int64, _ *relate.EKG) { gen[0] = -1 }) // no generation the store reports
	for _, f := range fbs {
		if err := w.db.RevertFeedback(ctx, f.ID); err != nil {
			return fmt.Errorf("revert feedback %d: %w", f.ID, err)
		}
	}
	return nil
}
