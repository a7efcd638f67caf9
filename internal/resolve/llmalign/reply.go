package llmalign

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/resolve"
)

// Why a reply, or part of one, was not used. The batch-level ones make the
// whole batch yield nothing.
const (
	failEmpty     = "empty reply"
	failNoJSON    = "no JSON in reply"
	failTruncated = "reply cut off"
	failShape     = "reply not of the asked shape"
	failNoGroup   = "no group answered"

	dropUnknownGroup = "unknown group id"
	dropDupGroup     = "group answered twice"
	dropOutside      = "name outside its group"
	dropTwoSets      = "name in two sets"
	dropOneName      = "set of one name"
	dropBadSet       = "set not a list of names"
	dropType         = "types differ"
	fixCanonical     = "canonical not in its set"
)

// mergeSet is one validated set of names that are one entity.
type mergeSet struct {
	canonical *node
	others    []*node // in group order
}

// decision is what a validated reply says about one group of the batch.
type decision struct {
	group  int // index in the batch
	sets   []mergeSet
	reason string
}

// replyError is a batch-level failure.
type replyError struct{ why string }

func (e *replyError) Error() string { return e.why }

const maxReason = 200

// parseReply validates a model reply against the batch it answers. Only
// names of a group, each in at most one set of that group, come out;
// whatever else the reply says counts in problems and has no effect.
func parseReply(content string, batch []*group) ([]decision, map[string]int, error) {
	problems := map[string]int{}
	if strings.TrimSpace(content) == "" {
		return nil, problems, &replyError{failEmpty}
	}
	raw, err := llm.ExtractJSON(content)
	switch {
	case errors.Is(err, llm.ErrTruncated):
		return nil, problems, &replyError{failTruncated}
	case err != nil:
		return nil, problems, &replyError{failNoJSON}
	}
	var entries []json.RawMessage
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' {
		err = json.Unmarshal(t, &entries) // a bare list of groups
	} else {
		var top struct {
			Groups []json.RawMessage `json:"groups"`
		}
		err = json.Unmarshal(raw, &top)
		entries = top.Groups
	}
	if err != nil {
		return nil, problems, &replyError{failShape}
	}
	if len(entries) == 0 {
		return nil, problems, &replyError{failEmpty}
	}
	answered := map[int]bool{}
	var out []decision
	for _, e := range entries {
		var f struct {
			ID        json.RawMessage `json:"id"`
			Merge     json.RawMessage `json:"merge"`
			Canonical json.RawMessage `json:"canonical"`
			Reason    json.RawMessage `json:"reason"`
		}
		if json.Unmarshal(e, &f) != nil {
			problems[failShape]++
			continue
		}
		id, ok := groupID(f.ID)
		if !ok || id < 1 || id > len(batch) {
			problems[dropUnknownGroup]++
			continue
		}
		if answered[id] {
			problems[dropDupGroup]++
			continue
		}
		answered[id] = true
		d := decision{group: id - 1}
		if s, ok := stringOf(f.Reason); ok {
			d.reason = clean(s, maxReason)
		}
		d.sets = validSets(batch[id-1], f.Merge, f.Canonical, problems)
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil, problems, &replyError{failNoGroup}
	}
	// Group order, whatever order the model answered in: runs repeat.
	sort.Slice(out, func(i, j int) bool { return out[i].group < out[j].group })
	return out, problems, nil
}

// validSets keeps the merge sets whose names all belong to the group and
// appear in no other set.
func validSets(g *group, mergeRaw, canonRaw json.RawMessage, problems map[string]int) []mergeSet {
	byKey := map[string]*node{}
	order := map[*node]int{}
	for i, n := range g.members {
		byKey[n.key] = n
		order[n] = i
	}
	var lists [][]string
	var one []string
	switch {
	case len(mergeRaw) == 0 || string(mergeRaw) == "null":
	case json.Unmarshal(mergeRaw, &lists) == nil:
	case json.Unmarshal(mergeRaw, &one) == nil:
		lists = [][]string{one} // a single set, unnested
	default:
		problems[dropBadSet]++
	}

	type cand struct{ members []*node }
	var sets []cand
	count := map[*node]int{}
	for _, names := range lists {
		var members []*node
		in := map[*node]bool{}
		bad := ""
		for _, name := range names {
			n := byKey[resolve.Normalize(name)]
			if n == nil {
				bad = dropOutside
				break
			}
			if n.ent.Type != g.typ {
				bad = dropType
				break
			}
			if !in[n] {
				in[n] = true
				members = append(members, n)
			}
		}
		if bad != "" {
			problems[bad]++
			continue
		}
		if len(members) < 2 {
			if len(members) == 1 {
				problems[dropOneName]++
			}
			continue
		}
		for _, n := range members {
			count[n]++
		}
		sets = append(sets, cand{members})
	}

	var canon []string
	if s, ok := stringOf(canonRaw); ok {
		canon = []string{s}
	} else {
		_ = json.Unmarshal(canonRaw, &canon)
	}
	var out []mergeSet
	for _, s := range sets {
		clash := false
		for _, n := range s.members {
			if count[n] > 1 {
				clash = true
			}
		}
		if clash {
			problems[dropTwoSets]++
			continue
		}
		var c *node
		for _, name := range canon {
			n := byKey[resolve.Normalize(name)]
			for _, m := range s.members {
				if m == n {
					c = n
				}
			}
			if c != nil {
				break
			}
		}
		if c == nil {
			if len(canon) > 0 {
				problems[fixCanonical]++
			}
			// Members are in mention order: the most mentioned name stays.
			c = s.members[0]
			for _, m := range s.members {
				if order[m] < order[c] {
					c = m
				}
			}
		}
		ms := mergeSet{canonical: c}
		for _, n := range g.members {
			if n != c && containsNode(s.members, n) {
				ms.others = append(ms.others, n)
			}
		}
		out = append(out, ms)
	}
	return out
}

func containsNode(list []*node, n *node) bool {
	for _, m := range list {
		if m == n {
			return true
		}
	}
	return false
}

// groupID reads a group number given as a JSON number or a string.
func groupID(raw json.RawMessage) (int, bool) {
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		if i, err := strconv.Atoi(n.String()); err == nil {
			return i, true
		}
		if f, err := n.Float64(); err == nil && f == float64(int(f)) {
			return int(f), true
		}
		return 0, false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		s = strings.TrimPrefix(strings.TrimSpace(s), "#")
		if i, err := strconv.Atoi(s); err == nil {
			return i, true
		}
	}
	return 0, false
}

func stringOf(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}
