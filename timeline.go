package annals

import (
	"context"
	"fmt"
	"slices"

	"github.com/annals-project/annals/internal/bio"
	"github.com/annals-project/annals/internal/store"
)

// TimelineItem is a dated fact with the sentence that dates and states it.
type TimelineItem = store.TimelineItem

// TimelineOptions selects a timeline's facts.
type TimelineOptions struct {
	From, To *int   // a window of years (astronomical: −121 is 122 BCE)
	Type     string // one relation type
	Limit    int    // most items; 0 means 200
	Offset   int    // items skipped, for paging
}

// Timeline lists dated facts in year order: a person's (name given) or
// everything within a window of years (name empty).
func (w *Workspace) Timeline(ctx context.Context, name string, opts TimelineOptions) ([]TimelineItem, error) {
	q := store.TimelineQuery{From: opts.From, To: opts.To, Type: opts.Type, Limit: opts.Limit, Offset: opts.Offset}
	if name != "" {
		found, err := w.findEntities(ctx, name)
		if err != nil {
			return nil, err
		}
		q.EntityID = found[0].ID
	} else if opts.From == nil && opts.To == nil {
		return nil, fmt.Errorf("a timeline needs a name or a window of years")
	}
	return w.db.Timeline(ctx, q)
}

// ChunksNear lists the chunks that speak of a year within ±delta of year
// (delta < 0 means the default, 1): the temporal index that time-bounded
// retrieval uses.
func (w *Workspace) ChunksNear(ctx context.Context, year, delta int) ([]int64, error) {
	if delta < 0 {
		delta = 1
	}
	return w.db.ChunksInYears(ctx, year-delta, year+delta)
}

// lifeSpan reads the years of an entity's birth and death facts: the year
// most of them agree on (the earliest of equals), since one misread
// sentence should not outvote the rest. Facts from the entity's own
// chapters (titled by one of his names) outweigh passing mentions: 先主传
// dates 刘备's death, not a colleague's biography whose 卒 the rules gave
// him. An undated birth is worked out from the age at death where the
// death's sentence gives it. own are the entity's own chapters when the
// caller has read them, else nil.
func (w *Workspace) lifeSpan(ctx context.Context, id int64, own map[int64]bool) (born, died *int, err error) {
	years, err := w.db.FactYears(ctx, id, []string{"出生时间", "born_in", "死亡时间", "died_in"})
	if err != nil {
		return nil, nil, err
	}
	if len(years) == 0 {
		return nil, nil, nil
	}
	births := slices.Concat(years["出生时间"], years["born_in"])
	deaths := slices.Concat(years["死亡时间"], years["died_in"])
	// Own chapters only break a disagreement: read here, when the caller
	// has not read them, only then.
	if own == nil && (disagree(births) || disagree(deaths)) {
		if own, err = w.db.OwnDocuments(ctx, id); err != nil {
			return nil, nil, err
		}
	}
	born, died = ownFirst(own, births), ownFirst(own, deaths)
	if born == nil && died != nil {
		// Most births go undated; the age at death gives them (卒于军，
		// 时年五十四 in 234: born 181).
		for _, f := range deaths {
			if f.Year == *died {
				if y, _, ok := bio.BirthFromAge(*died, f.Sentence); ok {
					born = &y
					break
				}
			}
		}
	}
	return born, died, nil
}

// disagree says whether the facts name more than one year.
func disagree(facts []store.FactYear) bool {
	for _, f := range facts[min(1, len(facts)):] {
		if f.Year != facts[0].Year {
			return true
		}
	}
	return false
}

// ownFirst is the consensus of the years from the documents in own, or of
// all when none comes from them; the other chapters break a tie in the
// own ones (诸葛亮传 also tells of his son 乔's death, which the other
// chapters do not date to him).
func ownFirst(own map[int64]bool, lists ...[]store.FactYear) *int {
	var mine, all []int
	for _, l := range lists {
		for _, f := range l {
			all = append(all, f.Year)
			if own[f.Doc] {
				mine = append(mine, f.Year)
			}
		}
	}
	return bio.OwnFirst(mine, all)
}
