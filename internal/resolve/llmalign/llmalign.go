// Package llmalign asks an LLM which entities of the graph are one and the
// same (HisGraphRAG's entity alignment). Blocking finds small groups of
// entities that might be one — shared characters, known aliases, similar
// embeddings — and the model, shown what the texts say about each name,
// answers which of them to merge. Accepted answers are recorded as merges
// (source llm:MODEL) that alignment applies and a person can undo; nothing
// the model says reaches the graph any other way.
package llmalign

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/resolve"
	"github.com/annals-project/annals/internal/store"
)

// DefaultTypes are the entity types aligned when Options.Types is empty, in
// the order they are asked about.
var DefaultTypes = []string{"人物", "地点", "社会集团", "person", "place", "organisation"}

// Options tunes a run. Zero values take the defaults.
type Options struct {
	Types []string // entity types to align; default DefaultTypes
	// MinMentions leaves out entities named fewer times (default 2): a name
	// read once has too little evidence to judge by. Names of one character
	// are always left out.
	MinMentions int
	// MaxEntities bounds the entities considered per type, most mentioned
	// first (default 2000).
	MaxEntities int
	// Candidates is the most candidates kept per entity (default 5).
	Candidates int
	// GroupSize is the most entities in one group (default 6).
	GroupSize int
	// Batch is the most groups in one prompt (default 8).
	Batch int
	// Similar, when set, scores two entities by id (an embedding cosine);
	// pairs at or above Threshold (default 0.85) become candidates. It is
	// called on every pair of the entities considered.
	Similar   func(a, b int64) float64
	Threshold float64
	// ReplyTokens is the completion limit per call (default 2048).
	ReplyTokens int
	// Parallel is the most calls in flight at once (default 4).
	Parallel int
	// Again asks about groups already judged with the same evidence.
	Again bool
}

func (o Options) withDefaults() Options {
	if len(o.Types) == 0 {
		o.Types = DefaultTypes
	}
	if o.MinMentions <= 0 {
		o.MinMentions = 2
	}
	if o.MaxEntities <= 0 {
		o.MaxEntities = 2000
	}
	if o.Candidates <= 0 {
		o.Candidates = 5
	}
	if o.GroupSize < 2 {
		o.GroupSize = 6
	}
	if o.Batch <= 0 {
		o.Batch = 8
	}
	if o.Threshold <= 0 {
		o.Threshold = 0.85
	}
	if o.ReplyTokens <= 0 {
		o.ReplyTokens = 2048
	}
	if o.Parallel <= 0 {
		o.Parallel = 4
	}
	return o
}

// Report says what a run did.
type Report struct {
	Model      string   `json:"model"`
	Types      []string `json:"types"`
	Entities   int      `json:"entities"`   // entities considered
	Candidates int      `json:"candidates"` // candidate pairs kept
	// CandidatesBy counts the pairs kept by the strongest reason each was
	// found for (alias, shared character, similar embedding …).
	CandidatesBy map[string]int `json:"candidates_by,omitempty"`
	Groups       int            `json:"groups"`
	// Judged counts groups not asked again: the model already judged them
	// with the same evidence and prompt.
	Judged  int `json:"judged"`
	Batches int `json:"batches"`
	Calls   int `json:"calls"`  // chat calls answered, cached ones included
	Cached  int `json:"cached"` // of which from the cache
	// Merges are the merges this run recorded.
	Merges []store.Merge `json:"merges"`
	// Skipped counts merge sets the model proposed and validation passed,
	// but which were not recorded, by reason.
	Skipped map[string]int `json:"skipped,omitempty"`
	// Failures counts batches whose reply was unusable; Problems says why,
	// along with the parts of usable replies that were dropped.
	Failures int            `json:"failures"`
	Problems map[string]int `json:"problems,omitempty"`
	Aligned  bool           `json:"aligned"` // the graph was re-aligned
	// Stopped says why the run ended before asking about every group.
	Stopped string `json:"stopped,omitempty"`
	// Usage is the run's token usage, filled in by callers that meter it.
	Usage []store.UsageRow `json:"llm_usage,omitempty"`
}

// Reasons a validated merge set is not recorded.
const (
	SkipCovered = "already one entity"
	SkipUndone  = "undone by a person"
)

// Store is what LLM alignment reads and writes: the names and evidence it
// shows the model, the merges it records, and alignment itself.
type Store interface {
	resolve.AlignStore
	AddMerge(ctx context.Context, m store.Merge) (int64, error)
	Entity(ctx context.Context, id int64) (*kg.Entity, error)
	ListEntities(ctx context.Context, q store.EntityQuery) ([]kg.Entity, error)
	Relations(ctx context.Context, entityID int64, limit int) ([]kg.Relation, error)
	Mentions(ctx context.Context, entityID int64, limit int) ([]kg.Mention, error)
	State(ctx context.Context, name string) ([]byte, error)
	SetState(ctx context.Context, name string, value []byte) error
}

// stateName keeps the hashes of judged groups between runs.
const stateName = "llm_align"

// Run aligns the entities of st with the model behind c: it records the
// merges the model justifies and re-aligns the graph. It returns the report
// together with any error; an LLM error (llm.ErrBudget, a failed call)
// ends the run, and what was recorded before stays.
func Run(ctx context.Context, st Store, c llm.Client, opts Options) (*Report, error) {
	opts = opts.withDefaults()
	rep := &Report{Model: c.Model(), Types: opts.Types, Merges: []store.Merge{}, CandidatesBy: map[string]int{}, Skipped: map[string]int{}, Problems: map[string]int{}}
	merges, err := st.Merges(ctx)
	if err != nil {
		return rep, fmt.Errorf("align with LLM: %w", err)
	}
	book := newLedger(merges)
	state, err := loadState(ctx, st)
	if err != nil {
		return rep, err
	}

	var groups []*group
	for _, typ := range opts.Types {
		gs, err := blockType(ctx, st, typ, opts, rep)
		if err != nil {
			return rep, err
		}
		seen := map[int64]string{}
		for _, g := range gs {
			if err := render(ctx, st, g, c.Model(), seen); err != nil {
				return rep, err
			}
		}
		groups = append(groups, gs...)
	}
	rep.Groups = len(groups)

	judged := map[string]map[string]bool{} // type → hashes, for the next run
	for _, typ := range opts.Types {
		judged[typ] = map[string]bool{}
	}
	var todo []*group
	for _, g := range groups {
		if !opts.Again && state[g.typ][g.hash] {
			rep.Judged++
			judged[g.typ][g.hash] = true
			continue
		}
		todo = append(todo, g)
	}
	var batches [][]*group
	for i := 0; i < len(todo); i += opts.Batch {
		batches = append(batches, todo[i:min(i+opts.Batch, len(todo))])
	}
	rep.Batches = len(batches)

	runErr := ask(ctx, c, batches, opts, func(batch []*group, resp *llm.Response) error {
		rep.Calls++
		if resp.Cached {
			rep.Cached++
		}
		decisions, problems, err := parseReply(resp.Content, batch)
		if resp.Truncated {
			// Decisions cut off at the limit may miss the batch's last
			// groups and the reasons of the others: none is used.
			decisions, problems, err = nil, nil, &replyError{failTruncated}
		}
		for k, v := range problems {
			rep.Problems[k] += v
		}
		var re *replyError
		if errors.As(err, &re) {
			rep.Failures++
			rep.Problems[re.why]++
			return nil
		}
		for _, d := range decisions {
			g := batch[d.group]
			judged[g.typ][g.hash] = true
			for _, s := range d.sets {
				if err := record(ctx, st, book, g, s, d.reason, c.Model(), rep); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if errors.Is(runErr, llm.ErrBudget) {
		rep.Stopped = "LLM token budget reached"
	}

	// Keep what was judged, even after an error: those answers are paid for.
	for typ, hashes := range state {
		if _, asked := judged[typ]; !asked {
			judged[typ] = hashes
		}
	}
	errs := []error{runErr}
	if err := saveState(ctx, st, judged); err != nil {
		errs = append(errs, err)
	}
	aligned, err := resolve.Align(ctx, st, false)
	rep.Aligned = aligned
	if err != nil {
		errs = append(errs, fmt.Errorf("re-align after LLM merges: %w", err))
	}
	return rep, errors.Join(errs...)
}

// blockType loads the entities of one type and groups its candidates.
func blockType(ctx context.Context, st Store, typ string, opts Options, rep *Report) ([]*group, error) {
	nodes, err := loadNodes(ctx, st, typ, opts)
	if err != nil {
		return nil, err
	}
	rep.Entities += len(nodes)
	person := typ == "人物" || typ == "person"
	pairs, sets := groupCandidates(nodes, candidates(nodes, person, opts.Similar, opts.Threshold), opts.Candidates, opts.GroupSize)
	rep.Candidates += len(pairs)
	for _, p := range pairs {
		rep.CandidatesBy[p.why]++
	}
	out := make([]*group, len(sets))
	for i, s := range sets {
		g := &group{typ: typ}
		for _, k := range s {
			g.members = append(g.members, &nodes[k])
		}
		out[i] = g
	}
	return out, nil
}

// loadNodes lists the entities of a type with enough mentions, most
// mentioned first, with their aliases.
func loadNodes(ctx context.Context, st Store, typ string, opts Options) ([]node, error) {
	const page = 500
	person := typ == "人物" || typ == "person"
	var out []node
	for offset := 0; len(out) < opts.MaxEntities; offset += page {
		list, err := st.ListEntities(ctx, store.EntityQuery{Type: typ, Limit: page, Offset: offset})
		if err != nil {
			return nil, fmt.Errorf("list %s entities: %w", typ, err)
		}
		for _, e := range list {
			if e.Mentions < opts.MinMentions || len(out) == opts.MaxEntities {
				return out, nil
			}
			full, err := st.Entity(ctx, e.ID)
			if err != nil {
				return nil, fmt.Errorf("read entity %s: %w", e.Name, err)
			}
			// A one-character name merged corpus-wide would take every
			// other person of that name along: only the text can join it.
			if n := newNode(*full, person); distinctive(unitKey(n.units, n.latin)) {
				out = append(out, n)
			}
		}
		if len(list) < page {
			break
		}
	}
	return out, nil
}

// ask sends the batches, up to opts.Parallel at once, and hands each reply
// to apply in batch order, so that runs are repeatable. After the first
// error no new batch is sent; replies already paid for are still applied.
func ask(ctx context.Context, c llm.Client, batches [][]*group, opts Options, apply func([]*group, *llm.Response) error) error {
	type outcome struct {
		i    int
		resp *llm.Response
		err  error
	}
	var stopped atomic.Bool
	jobs := make(chan int)
	results := make(chan outcome)
	go func() {
		defer close(jobs)
		for i := range batches {
			if stopped.Load() {
				return
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range min(opts.Parallel, len(batches)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				if stopped.Load() {
					continue
				}
				resp, err := c.Chat(ctx, request(batches[i], opts.ReplyTokens))
				if resp != nil && errors.Is(err, llm.ErrInvalidReply) {
					// A reply that does not answer the batch is the batch's
					// failure, which apply counts; the run goes on.
					err = nil
				}
				if err != nil {
					stopped.Store(true)
				}
				results <- outcome{i, resp, err}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	var errs []error
	pending := map[int]outcome{}
	next := 0
	handle := func(o outcome) {
		if o.err != nil {
			errs = append(errs, fmt.Errorf("align batch %d: %w", o.i+1, o.err))
		}
		if o.resp == nil {
			return
		}
		if err := apply(batches[o.i], o.resp); err != nil {
			stopped.Store(true)
			errs = append(errs, err)
		}
	}
	for o := range results {
		pending[o.i] = o
		for {
			p, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			handle(p)
		}
	}
	// Batches after one never sent leave gaps: apply the rest in order.
	rest := make([]int, 0, len(pending))
	for i := range pending {
		rest = append(rest, i)
	}
	sort.Ints(rest)
	for _, i := range rest {
		handle(pending[i])
	}
	if len(errs) == 0 && ctx.Err() != nil {
		errs = append(errs, ctx.Err())
	}
	return errors.Join(errs...)
}

// record adds one merge unless the names are already one entity or a
// person undid that merge before.
func record(ctx context.Context, st Store, book *ledger, g *group, s mergeSet, reason, model string, rep *Report) error {
	keys := []string{s.canonical.key}
	names := make([]string, 0, len(s.others))
	for _, n := range s.others {
		keys = append(keys, n.key)
		names = append(names, n.ent.Name)
	}
	switch {
	case book.undone(g.typ, keys):
		rep.Skipped[SkipUndone]++
		return nil
	case book.joined(g.typ, keys):
		rep.Skipped[SkipCovered]++
		return nil
	}
	if reason == "" {
		reason = "the texts show these names are one entity"
	}
	m := store.Merge{Type: g.typ, Canonical: s.canonical.ent.Name, Names: names, Reason: reason, Source: "llm:" + model}
	id, err := st.AddMerge(ctx, m)
	if err != nil {
		return fmt.Errorf("record merge %s ← %s: %w", m.Canonical, strings.Join(names, ", "), err)
	}
	m.ID = id
	book.join(g.typ, keys)
	rep.Merges = append(rep.Merges, m)
	return nil
}

// ledger knows which names active merges join and which sets people undid.
type ledger struct {
	parent map[string]string     // type + name key → union-find parent
	undo   map[string][][]string // type → name keys of undone merges
}

func newLedger(merges []store.Merge) *ledger {
	l := &ledger{parent: map[string]string{}, undo: map[string][][]string{}}
	for _, m := range merges {
		keys := []string{resolve.Normalize(m.Canonical)}
		for _, n := range m.Names {
			keys = append(keys, resolve.Normalize(n))
		}
		if m.UndoneAt != "" {
			l.undo[m.Type] = append(l.undo[m.Type], keys)
			continue
		}
		l.join(m.Type, keys)
	}
	return l
}

func (l *ledger) find(k string) string {
	if _, ok := l.parent[k]; !ok {
		l.parent[k] = k
	}
	for l.parent[k] != k {
		l.parent[k] = l.parent[l.parent[k]]
		k = l.parent[k]
	}
	return k
}

func (l *ledger) join(typ string, keys []string) {
	for _, k := range keys[1:] {
		a, b := l.find(typ+"\x00"+keys[0]), l.find(typ+"\x00"+k)
		if a != b {
			l.parent[b] = a
		}
	}
}

// joined reports whether active merges already make the names one.
func (l *ledger) joined(typ string, keys []string) bool {
	root := l.find(typ + "\x00" + keys[0])
	for _, k := range keys[1:] {
		if l.find(typ+"\x00"+k) != root {
			return false
		}
	}
	return true
}

// undone reports whether the set holds every name of a merge a person
// undid: proposing it again would overrule that person.
func (l *ledger) undone(typ string, keys []string) bool {
	have := map[string]bool{}
	for _, k := range keys {
		have[k] = true
	}
	for _, u := range l.undo[typ] {
		all := true
		for _, k := range u {
			if !have[k] {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// judgedState is the stored record of judged groups: type → hashes.
type judgedState map[string]map[string]bool

func loadState(ctx context.Context, st Store) (judgedState, error) {
	b, err := st.State(ctx, stateName)
	if err != nil || b == nil {
		return judgedState{}, err
	}
	var stored map[string][]string
	if err := json.Unmarshal(b, &stored); err != nil {
		return judgedState{}, nil // unreadable: judge again, costing only cached calls
	}
	s := judgedState{}
	for typ, hashes := range stored {
		s[typ] = map[string]bool{}
		for _, h := range hashes {
			s[typ][h] = true
		}
	}
	return s, nil
}

// saveState keeps, per type asked about, the groups judged in this run;
// groups that no longer occur are forgotten.
func saveState(ctx context.Context, st Store, s map[string]map[string]bool) error {
	out := map[string][]string{}
	for typ, hashes := range s {
		if len(hashes) == 0 {
			continue
		}
		list := make([]string, 0, len(hashes))
		for h := range hashes {
			list = append(list, h)
		}
		sort.Strings(list)
		out[typ] = list
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	return st.SetState(ctx, stateName, b)
}
