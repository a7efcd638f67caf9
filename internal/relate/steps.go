package relate

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/annals-project/annals/internal/kg"
)

// reasonEachPath is reasoning with a model (BEKO §4.3): the judge reads
// each of the best paths on its own, then merges what they say into the
// relations that hold. A one-step path says its relation outright and
// costs no call. fused is the deterministic reasoning's findings: the
// graph's own facts between the two stay findings whatever the merge
// says, and a merged relation fused also found keeps its status and
// where it came from.
func (r *Relater) reasonEachPath(ctx context.Context, res *Result, fused []Finding, m int) ([]Finding, error) {
	a, b := res.Head, res.Tail
	var readings []PathReading
	for i, p := range res.Paths[:min(m, len(res.Paths))] {
		rd := PathReading{Path: i + 1}
		for _, h := range p.Hops {
			rd.Steps = append(rd.Steps, hopText(h, res.Lang)+"："+sentenceOf(h))
		}
		if len(p.Hops) == 1 {
			h := p.Hops[0]
			rd.Relation, rd.Head = h.Relation, a.Name
			if !h.Head {
				rd.Head = b.Name
			}
		} else {
			typ, headFirst, err := r.Judge.ComposePath(ctx, a.Name, b.Name, rd.Steps)
			if err != nil {
				return nil, fmt.Errorf("reason along %s: %w", strings.Join(p.Names, "—"), err)
			}
			rd.Relation, rd.Head = typ, a.Name
			if !headFirst {
				rd.Head = b.Name
			}
		}
		if rd.Relation != "" {
			readings = append(readings, rd)
		}
	}
	var merged []Merged
	switch len(readings) {
	case 0:
	case 1:
		merged = []Merged{{Relation: readings[0].Relation, Head: readings[0].Head, Paths: []int{readings[0].Path}}}
	default:
		var err error
		if merged, err = r.Judge.MergePaths(ctx, a.Name, b.Name, readings); err != nil {
			return nil, fmt.Errorf("merge the paths' readings of %s and %s: %w", a.Name, b.Name, err)
		}
	}
	var out []Finding
	for _, mg := range merged {
		// The merge may not bring in a relation no path read, nor cite a
		// path that said something else.
		var paths []int
		for _, rd := range readings {
			if rd.Relation == mg.Relation && (slices.Contains(mg.Paths, rd.Path) || len(mg.Paths) == 0) {
				paths = append(paths, rd.Path)
			}
		}
		if len(paths) == 0 {
			continue
		}
		f := Finding{Type: mg.Relation, HeadID: a.ID, TailID: b.ID, Status: kg.StatusInferred, Paths: paths}
		if mg.Head == b.Name {
			f.HeadID, f.TailID = b.ID, a.ID
		}
		direct := false
		for _, n := range paths {
			p := res.Paths[n-1]
			direct = direct || len(p.Hops) == 1
			for _, id := range p.Entities[1 : len(p.Entities)-1] {
				if !slices.Contains(f.ViaIDs, id) {
					f.ViaIDs = append(f.ViaIDs, id)
					f.Via = append(f.Via, p.Names[slices.Index(p.Entities, id)])
				}
			}
			for _, h := range p.Hops {
				if h.Evidence != nil {
					f.Evidence = appendEvidence(f.Evidence, *h.Evidence)
				}
			}
		}
		if direct {
			f.Via, f.ViaIDs = nil, nil
		}
		if g := sameFinding(fused, f); g != nil {
			f.Status, f.Verified = g.Status, g.Verified
		}
		if sameFinding(out, f) == nil {
			out = append(out, f)
		}
	}
	for _, g := range fused {
		if (g.Status == kg.StatusExtracted || g.Status == kg.StatusUser) && sameFinding(out, g) == nil {
			out = append(out, g)
		}
	}
	finish(out, res)
	return out, nil
}

// sameFinding finds in fs the finding that states f's relation between
// the same two, the same way round (either, for a symmetric one), and
// through the same entities.
func sameFinding(fs []Finding, f Finding) *Finding {
	for i := range fs {
		g := &fs[i]
		if g.Type == f.Type && (g.HeadID == f.HeadID || symmetricTypes[f.Type]) && slices.Equal(g.ViaIDs, f.ViaIDs) {
			return g
		}
	}
	return nil
}

// steps collects the triples the kept paths' hops read from the text
// (a cue, or the model) between any two entities but the pair itself,
// whose relation is a finding already, and that the graph does not hold
// yet (read again in another sentence): each once, with every path that
// shows it and its evidence.
func (r *Relater) steps(res *Result) []Finding {
	a, b := res.Head.ID, res.Tail.ID
	var out []Finding
	for i, p := range res.Paths {
		for _, h := range p.Hops {
			if h.Source == FromFact || h.Relation == "" || (h.From == a && h.To == b) || (h.From == b && h.To == a) {
				continue
			}
			f := Finding{Type: h.Relation, HeadID: h.From, Head: h.FromName, TailID: h.To, Tail: h.ToName, Status: h.Status, Paths: []int{i + 1}}
			if !h.Head {
				f.HeadID, f.Head, f.TailID, f.Tail = f.TailID, f.Tail, f.HeadID, f.Head
			}
			if r.EKG.holds(f.HeadID, f.TailID, f.Type) {
				continue
			}
			var evs []kg.Evidence
			if h.Evidence != nil {
				evs = []kg.Evidence{*h.Evidence}
			}
			if g := sameStep(out, f); g != nil {
				if !slices.Contains(g.Paths, i+1) {
					g.Paths = append(g.Paths, i+1)
				}
				g.Evidence = appendEvidence(g.Evidence, evs...)
				g.Status = stronger(g.Status, f.Status)
				continue
			}
			f.Evidence = appendEvidence(nil, evs...)
			out = append(out, f)
		}
	}
	for i := range out {
		f := &out[i]
		if f.Status == kg.StatusVerified {
			f.Verified = "a cue in the evidence sentence"
		}
		f.Text = phrase(*f, res.Lang)
	}
	return out
}

// sameStep finds the step of fs between the same two entities with f's
// relation, the same way round unless the relation is symmetric.
func sameStep(fs []Finding, f Finding) *Finding {
	for i := range fs {
		g := &fs[i]
		if g.Type != f.Type {
			continue
		}
		if (g.HeadID == f.HeadID && g.TailID == f.TailID) || (symmetricTypes[f.Type] && g.HeadID == f.TailID && g.TailID == f.HeadID) {
			return g
		}
	}
	return nil
}
