package relate

import (
	"context"
	"fmt"
	"slices"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/retrieve"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// How a hop's relation was read.
const (
	FromFact    = "fact"    // a relation the graph holds
	FromPattern = "pattern" // a cue in the evidence sentence
	FromLLM     = "llm"     // a model chose it from the schema's types
)

// HopView is a hop with the relation it expresses and its evidence.
type HopView struct {
	Hop
	FromName string       `json:"from_name"`
	ToName   string       `json:"to_name"`
	Relation string       `json:"relation"`       // its type; "" when the hop expresses none
	Head     bool         `json:"from_is_head"`   // From is the relation's head
	Source   string       `json:"source"`         // FromFact, FromPattern or FromLLM
	Status   string       `json:"status"`         // the fact's, or verified/inferred for one read here
	Evidence *kg.Evidence `json:"evidence"`       // the sentence that shows it
	Why      string       `json:"why,omitempty"`  // why the hop expresses no relation
	FactID   int64        `json:"fact,omitempty"` // the relation, for a fact
	Names    []string     `json:"-"`              // what From and To are called, for reading sentences
	toNames  []string
}

// PathView is a ranked path with its hops read.
type PathView struct {
	Path
	Names []string  `json:"names"`
	Hops  []HopView `json:"hops"`
}

// Finding is one relation between the two entities: direct, or composed
// along a path through another.
type Finding struct {
	Type     string        `json:"relation"`
	HeadID   int64         `json:"head_id"` // which of the two is the head
	Head     string        `json:"head"`
	TailID   int64         `json:"tail_id"`
	Tail     string        `json:"tail"`
	Status   string        `json:"status"` // extracted (already a fact), verified or inferred
	Via      []string      `json:"via,omitempty"`
	ViaIDs   []int64       `json:"via_ids,omitempty"`
	Text     string        `json:"text"`  // the finding as a sentence
	Paths    []int         `json:"paths"` // the paths (1-based) that show it
	Evidence []kg.Evidence `json:"evidence"`
	Verified string        `json:"verified_by,omitempty"` // how it was checked
	// Rejected says why verification refused it: only a verified triple
	// is written back into the graph.
	Rejected string `json:"rejected,omitempty"`
}

// Result is what relation reasoning found between two entities.
type Result struct {
	Head     kg.Entity  `json:"head"`
	Tail     kg.Entity  `json:"tail"`
	Paths    []PathView `json:"paths"`
	Dropped  int        `json:"dropped"`            // ranked paths left out for a hop that expresses no relation
	Left     []PathView `json:"left_out,omitempty"` // the best of them, with why
	Findings []Finding  `json:"findings"`
	// Steps are the triples the kept paths' hops read from the text
	// between other pairs than the two (a hop the graph holds as a fact is
	// none), each verified like a finding: what every step of the
	// reasoning establishes is fed back too (BEKO §4.4).
	Steps   []Finding `json:"steps,omitempty"`
	Verdict string    `json:"verdict"`
	Visited int       `json:"visited"`
	Stopped string    `json:"stopped,omitempty"` // why the search stopped early
	Lang    string    `json:"lang"`
}

// Options tune one question.
type Options struct {
	SearchOptions
	// Reasoned is how many of the best paths a judge reads one by one
	// before merging what they say; 0 means DefaultReasoned.
	Reasoned int
}

// DefaultReasoned is how many paths a judge reasons over.
const DefaultReasoned = 5

// Relater reasons over one workspace's graph.
type Relater struct {
	Src Source
	EKG *EKG
	// Judge, when set, reads relations a pattern cannot (choosing from the
	// schema's types) and verifies inferred facts; nil works offline.
	Judge Judge
}

// Judge is what a model adds: a relation for a hop no cue reads, a
// reading of each path, the merge of those readings, and a verdict on
// whether a triple follows from its evidence.
type Judge interface {
	HopRelation(ctx context.Context, from, to string, sentences []string) (typ string, fromIsHead bool, err error)
	// ComposePath reads what a chain of steps, each a sentence, says
	// about its two ends.
	ComposePath(ctx context.Context, head, tail string, steps []string) (typ string, headIsHead bool, err error)
	// MergePaths fuses what each path concluded into the relations that
	// hold between head and tail.
	MergePaths(ctx context.Context, head, tail string, readings []PathReading) ([]Merged, error)
	Verify(ctx context.Context, f Finding) (bool, error)
}

// PathReading is what one path says about its two ends.
type PathReading struct {
	Path     int      // 1-based, among the kept paths
	Relation string   // the type
	Head     string   // the name that is its head
	Steps    []string // each step's relation and sentence
}

// Merged is one relation the merge of the paths' readings keeps, with
// the paths that say it.
type Merged struct {
	Relation string
	Head     string
	Paths    []int
}

// Relate finds how head and tail are related.
func (r *Relater) Relate(ctx context.Context, head, tail int64, opts Options) (*Result, error) {
	h, err := r.Src.Entity(ctx, head)
	if err != nil {
		return nil, err
	}
	t, err := r.Src.Entity(ctx, tail)
	if err != nil {
		return nil, err
	}
	res := &Result{Head: *h, Tail: *t, Lang: langOf(h.Name + t.Name), Paths: []PathView{}, Findings: []Finding{}}
	keep := opts.MaxPaths
	if keep <= 0 {
		keep = DefaultMaxPaths
	}
	// Rank more than are kept: paths whose hops express nothing drop out.
	search := opts.SearchOptions
	search.MaxPaths = keep * 3
	paths, visited, stopped := r.EKG.Search(head, tail, search)
	res.Visited = visited
	if stopped {
		res.Stopped = fmt.Sprintf("the search stopped after visiting %d nodes (--budget); the paths found by then are shown", visited)
	}
	views, err := r.read(ctx, paths)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, v := range views {
		ok := true
		key := ""
		for _, hp := range v.Hops {
			ok = ok && hp.Relation != ""
			key += fmt.Sprintf("%d>%d:%s:%v:", hp.From, hp.To, hp.Relation, hp.Head)
			if hp.Evidence != nil {
				key += fmt.Sprintf("%d@%d;", hp.Evidence.DocID, hp.Evidence.Start)
			}
		}
		// A cue read in the sentence a fact came from says it again.
		if ok && seen[key] {
			continue
		}
		seen[key] = true
		switch {
		case !ok:
			res.Dropped++
			if len(res.Left) < 5 {
				res.Left = append(res.Left, v)
			}
		case len(res.Paths) < keep:
			res.Paths = append(res.Paths, v)
		}
	}
	fs := r.reason(res)
	if r.Judge != nil {
		reasoned := opts.Reasoned
		if reasoned <= 0 {
			reasoned = DefaultReasoned
		}
		if fs, err = r.reasonEachPath(ctx, res, fs, reasoned); err != nil {
			return nil, err
		}
	}
	if len(fs) > 0 {
		res.Findings = fs
	}
	res.Steps = r.steps(res)
	if err := r.verify(ctx, res); err != nil {
		return nil, err
	}
	res.Verdict = verdict(res)
	return res, nil
}

// read gives each hop of the paths its relation and evidence.
func (r *Relater) read(ctx context.Context, paths []Path) ([]PathView, error) {
	var ids, chunks, rels []int64
	for _, p := range paths {
		ids = append(ids, p.Entities...)
		for _, h := range p.Hops {
			if h.Chunk != 0 {
				chunks = append(chunks, h.Chunk)
			} else {
				rels = append(rels, h.Relation)
			}
		}
	}
	names, err := r.Src.EntityNames(ctx, unique(ids))
	if err != nil {
		return nil, err
	}
	ps, err := r.Src.Passages(ctx, unique(chunks))
	if err != nil {
		return nil, err
	}
	passage := map[int64]*store.Passage{}
	for i := range ps {
		passage[ps[i].ChunkID] = &ps[i]
	}
	facts, err := r.Src.RelationsByID(ctx, unique(rels), 1)
	if err != nil {
		return nil, err
	}
	fact := map[int64]*kg.Relation{}
	for i := range facts {
		fact[facts[i].ID] = &facts[i]
	}
	name := func(id int64) string {
		if ns := names[id]; len(ns) > 0 {
			return ns[0]
		}
		return fmt.Sprint(id)
	}
	out := make([]PathView, len(paths))
	for i, p := range paths {
		v := PathView{Path: p}
		for _, e := range p.Entities {
			v.Names = append(v.Names, name(e))
		}
		for _, h := range p.Hops {
			hv := HopView{Hop: h, FromName: name(h.From), ToName: name(h.To), Names: names[h.From], toNames: names[h.To]}
			if h.Relation != 0 {
				readFact(&hv, fact[h.Relation])
			} else if err := r.readChunk(ctx, &hv, passage[h.Chunk]); err != nil {
				return nil, err
			}
			v.Hops = append(v.Hops, hv)
		}
		out[i] = v
	}
	return out, nil
}

func readFact(hv *HopView, f *kg.Relation) {
	if f == nil {
		hv.Why = "the relation is no longer in the graph"
		return
	}
	hv.Relation, hv.Head, hv.Source, hv.Status, hv.FactID = f.Type, f.HeadID == hv.From, FromFact, f.Status, f.ID
	if len(f.Evidence) > 0 {
		ev := f.Evidence[0]
		hv.Evidence = &ev
	}
}

// readChunk finds the sentence of a shared chunk that shows the two
// together and reads their relation from it.
func (r *Relater) readChunk(ctx context.Context, hv *HopView, p *store.Passage) error {
	if p == nil {
		hv.Why = "the chunk is no longer in the workspace"
		return nil
	}
	latin := !text.IsChinese(p.Lang) && langOf(p.Norm) != text.Classical
	type sent struct {
		span kg.Span
		s    string
		n    int  // its place in the chunk
		x    bool // it names From (else To)
	}
	var both, either []sent
	rs := []rune(p.Norm)
	for i, sp := range text.Sentences(p.Norm, p.Lang) {
		s := string(rs[sp.Start:sp.End])
		x, y := mentionsAny(s, hv.Names), mentionsAny(s, hv.toNames)
		switch {
		case x && y:
			both = append(both, sent{sp, s, i, true})
		case x || y:
			either = append(either, sent{sp, s, i, x})
		}
	}
	// Sentences naming one of the two, nearest a sentence naming the
	// other first: what the chunk says of them together.
	distance := func(st sent) int {
		d := len(rs)
		for _, o := range either {
			if o.x != st.x {
				d = min(d, abs(o.n-st.n))
			}
		}
		return d
	}
	slices.SortStableFunc(either, func(a, b sent) int { return distance(a) - distance(b) })
	accept := typedAccept(r.EKG.typeOf(hv.From), r.EKG.typeOf(hv.To))
	for _, st := range both {
		if typ, xHead, sure, ok := readCue(st.s, hv.Names, hv.toNames, latin, accept); ok {
			hv.Relation, hv.Head, hv.Source = typ, xHead, FromPattern
			hv.Status = kg.StatusInferred
			if sure {
				hv.Status = kg.StatusVerified
			}
			hv.Evidence = retrieve.Cite(p, st.span)
			return nil
		}
	}
	var shown []string
	for _, st := range append(both, either...) {
		shown = append(shown, st.s)
	}
	if len(both) > 0 {
		hv.Evidence = retrieve.Cite(p, both[0].span)
	} else if len(either) > 0 {
		hv.Evidence = retrieve.Cite(p, either[0].span)
	}
	if r.Judge != nil && len(shown) > 0 {
		typ, fromHead, err := r.Judge.HopRelation(ctx, hv.FromName, hv.ToName, shown[:min(len(shown), 4)])
		if err != nil {
			return fmt.Errorf("read the relation of %s and %s: %w", hv.FromName, hv.ToName, err)
		}
		if typ != "" {
			hv.Relation, hv.Head, hv.Source, hv.Status = typ, fromHead, FromLLM, kg.StatusInferred
			return nil
		}
	}
	if len(both) == 0 {
		hv.Why = "no sentence of the chunk names both"
	} else {
		hv.Why = "no cue in the sentence that names both states a relation"
	}
	return nil
}

// reason reads each path for what it says about the two (a direct hop
// says it outright; two hops compose by rule), and fuses the paths into
// one finding per relation and direction: the deterministic reasoning,
// all there is offline.
func (r *Relater) reason(res *Result) []Finding {
	a, b := res.Head, res.Tail
	var out []Finding
	add := func(f Finding, path int, evs []kg.Evidence) {
		if g := sameFinding(out, f); g != nil {
			g.Paths = append(g.Paths, path)
			g.Evidence = appendEvidence(g.Evidence, evs...)
			g.Status = stronger(g.Status, f.Status)
			return
		}
		f.Paths, f.Evidence = []int{path}, appendEvidence(nil, evs...)
		out = append(out, f)
	}
	for i, p := range res.Paths {
		var evs []kg.Evidence
		for _, h := range p.Hops {
			if h.Evidence != nil {
				evs = append(evs, *h.Evidence)
			}
		}
		switch len(p.Hops) {
		case 1:
			h := p.Hops[0]
			f := Finding{Type: h.Relation, Status: h.Status}
			f.HeadID, f.TailID = a.ID, b.ID
			if !h.Head {
				f.HeadID, f.TailID = b.ID, a.ID
			}
			add(f, i+1, evs)
		case 2:
			x, y := p.Hops[0], p.Hops[1]
			c, ok := compose(dirRel{x.Relation, x.Head}, dirRel{y.Relation, y.Head})
			if !ok {
				continue
			}
			f := Finding{Type: c.typ, Via: []string{p.Names[1]}, ViaIDs: []int64{p.Entities[1]}, Status: kg.StatusInferred}
			if c.sure && solid(x.Status) && solid(y.Status) {
				f.Status, f.Verified = kg.StatusVerified, "composition of two established steps"
			}
			f.HeadID, f.TailID = a.ID, b.ID
			if !c.forward {
				f.HeadID, f.TailID = b.ID, a.ID
			}
			add(f, i+1, evs)
		}
	}
	finish(out, res)
	return out
}

// finish names each finding's ends, says it as a sentence and orders
// the findings: facts first, then verified, then inferred; more paths
// first.
func finish(out []Finding, res *Result) {
	a, b := res.Head, res.Tail
	for i := range out {
		f := &out[i]
		f.Head, f.Tail = a.Name, b.Name
		if f.HeadID == b.ID {
			f.Head, f.Tail = b.Name, a.Name
		}
		if f.Verified == "" && f.Status == kg.StatusVerified {
			f.Verified = "a cue in the evidence sentence"
		}
		f.Text = phrase(*f, res.Lang)
	}
	rank := map[string]int{kg.StatusExtracted: 0, kg.StatusUser: 0, kg.StatusVerified: 1, kg.StatusInferred: 2}
	slices.SortStableFunc(out, func(x, y Finding) int {
		if d := rank[x.Status] - rank[y.Status]; d != 0 {
			return d
		}
		return len(y.Paths) - len(x.Paths)
	})
}

func sentenceOf(h HopView) string {
	if h.Evidence == nil {
		return ""
	}
	return h.Evidence.Sentence
}

// solid says whether a step can carry a verified composition.
func solid(status string) bool {
	return status == kg.StatusExtracted || status == kg.StatusVerified || status == kg.StatusUser
}

func stronger(a, b string) string {
	rank := map[string]int{kg.StatusExtracted: 3, kg.StatusUser: 3, kg.StatusVerified: 2, kg.StatusInferred: 1}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

func appendEvidence(evs []kg.Evidence, more ...kg.Evidence) []kg.Evidence {
	for _, e := range more {
		dup := false
		for _, x := range evs {
			if x.DocID == e.DocID && x.Start == e.Start && x.End == e.End {
				dup = true
				break
			}
		}
		if !dup && len(evs) < 6 {
			evs = append(evs, e)
		}
	}
	return evs
}

// verify decides, for every finding and step that is not yet a fact,
// whether it may be written back: with a judge, the model checks it
// against its evidence; offline, a cue that states it (or a sure
// composition of established steps) is its check. What fails stays
// inferred, with why, and is not written.
func (r *Relater) verify(ctx context.Context, res *Result) error {
	check := func(f *Finding, step bool) error {
		if f.Status != kg.StatusVerified && f.Status != kg.StatusInferred {
			return nil // already a fact
		}
		if r.Judge == nil {
			switch {
			case f.Status == kg.StatusVerified:
			case step || len(f.Via) == 0:
				f.Rejected = "no cue states it: the words between the names only suggest it"
			default:
				f.Rejected = "no sure rule composes its steps, or a step is itself only inferred"
			}
			return nil
		}
		ok, err := r.Judge.Verify(ctx, *f)
		if err != nil {
			return fmt.Errorf("verify %s: %w", f.Text, err)
		}
		if ok {
			f.Status, f.Verified, f.Rejected = kg.StatusVerified, "the model judged it consistent with its evidence", ""
		} else {
			f.Status, f.Verified, f.Rejected = kg.StatusInferred, "", "the model judged that its evidence does not support it"
		}
		return nil
	}
	for i := range res.Findings {
		if err := check(&res.Findings[i], false); err != nil {
			return err
		}
	}
	for i := range res.Steps {
		if err := check(&res.Steps[i], true); err != nil {
			return err
		}
	}
	return nil
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func unique(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

func langOf(s string) string {
	for _, r := range s {
		if r >= 0x3400 && r <= 0x9FFF {
			return text.Classical
		}
	}
	return "en"
}
