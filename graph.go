package annals

import (
	"context"
	"slices"

	"github.com/annals-project/annals/internal/store"
)

// GraphNode is an entity in a neighbourhood, with how many steps it lies
// from the centre.
type GraphNode struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Type     string `json:"type"`
	Mentions int    `json:"mentions"`
	Depth    int    `json:"depth"`
	// Community is the community the entity belongs to (0: none), named
	// in Neighbourhood.Communities.
	Community int64 `json:"community,omitempty"`
	// Aliases are the names of other entities folded into this one: the
	// text calls it so (操, 太祖, 曹公 for 曹操), and a graph that drew
	// them as neighbours would show one person as several.
	Aliases []string `json:"aliases,omitempty"`
}

// GraphEdge is a relation between two nodes of a neighbourhood.
type GraphEdge struct {
	ID      int64  `json:"id"`
	Head    int64  `json:"head"`
	Tail    int64  `json:"tail"`
	Type    string `json:"relation"`
	Status  string `json:"status"`
	Support int    `json:"support"`
	// Year is the earliest year its evidence is dated to, when dated.
	Year *int `json:"year,omitempty"`
}

// Neighbourhood is the part of the graph around an entity.
type Neighbourhood struct {
	Center int64       `json:"center"`
	Nodes  []GraphNode `json:"nodes"`
	Edges  []GraphEdge `json:"edges"`
	// Truncated says the node limit cut the neighbourhood short: the
	// best-supported relations of each node were followed first.
	Truncated bool `json:"truncated"`
	// Communities name the nodes' communities by id.
	Communities map[int64]string `json:"communities,omitempty"`
	// Relations counts the centre's relations by type in the whole graph,
	// drawn or not, so a reader can ask for more of one type.
	Relations map[string]int `json:"relations"`
}

// NeighbourhoodOptions bound a neighbourhood.
type NeighbourhoodOptions struct {
	Depth int      // steps from the centre, 1–3; 0 means 1
	Limit int      // most nodes; 0 means 150
	Types []string // only these relation types; none means all
	// PerNode bounds the relations followed from each node, best
	// supported first; 0 means 40, or Limit when Types are given.
	PerNode int
}

// aliasRelations name the relation of each built-in schema that gives an
// entity another name.
var aliasRelations = map[string]bool{"别称": true, "alias_of": true}

// Neighbourhood lists the entities and relations within a few steps of the
// entity a name refers to, breadth first, the best-supported relations of
// each node first.
func (w *Workspace) Neighbourhood(ctx context.Context, name string, opts NeighbourhoodOptions) (*Neighbourhood, error) {
	found, err := w.findEntities(ctx, name)
	if err != nil {
		return nil, err
	}
	opts.Depth = min(max(opts.Depth, 1), 3)
	if opts.Limit <= 0 {
		opts.Limit = 150
	}
	if opts.PerNode <= 0 {
		opts.PerNode = 40
		if len(opts.Types) > 0 {
			opts.PerNode = opts.Limit
		}
	}
	center := found[0].ID
	counts, err := w.db.EdgeTypeCounts(ctx, center)
	if err != nil {
		return nil, err
	}
	n := &Neighbourhood{Center: center, Nodes: []GraphNode{}, Edges: []GraphEdge{}, Relations: counts}
	depth := map[int64]int{center: 0}
	order := []int64{center}
	seenEdge := map[int64]bool{}
	frontier := []int64{center}
	for d := 1; d <= opts.Depth && len(frontier) > 0; d++ {
		var next []int64
		for _, id := range frontier {
			// Aliases are always read, to be folded, whatever the types.
			types := opts.Types
			if len(types) > 0 {
				types = append(slices.Clone(types), "别称", "alias_of")
			}
			edges, err := w.db.EdgesOf(ctx, id, types, opts.PerNode)
			if err != nil {
				return nil, err
			}
			for _, e := range edges {
				if _, ok := depth[e.Other]; !ok {
					if len(order) >= opts.Limit {
						n.Truncated = true
						continue
					}
					depth[e.Other] = d
					order = append(order, e.Other)
					next = append(next, e.Other)
				}
				if !seenEdge[e.RelationID] {
					seenEdge[e.RelationID] = true
					head, tail := id, e.Other
					if !e.Forward {
						head, tail = tail, head
					}
					n.Edges = append(n.Edges, GraphEdge{ID: e.RelationID, Head: head, Tail: tail, Type: e.Type, Status: e.Status, Support: e.Support})
				}
			}
		}
		frontier = next
	}
	into := foldAliases(n, center)
	ids := make([]int64, len(n.Edges))
	for i, e := range n.Edges {
		ids[i] = e.ID
	}
	years, err := w.db.RelationYears(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := range n.Edges {
		if y, ok := years[n.Edges[i].ID]; ok {
			n.Edges[i].Year = &y
		}
	}
	ents, err := w.db.EntitiesByID(ctx, order)
	if err != nil {
		return nil, err
	}
	comms, err := w.db.EntityCommunities(ctx, order)
	if err != nil {
		return nil, err
	}
	folded := map[int64][]string{}
	for _, e := range ents {
		if to, ok := into[e.ID]; ok {
			folded[to] = append(folded[to], e.Name)
		}
	}
	for _, e := range ents {
		if _, ok := into[e.ID]; ok {
			continue
		}
		c := comms[e.ID]
		n.Nodes = append(n.Nodes, GraphNode{ID: e.ID, Name: e.Name, Type: e.Type, Mentions: e.Mentions, Depth: depth[e.ID], Community: c.ID, Aliases: folded[e.ID]})
		if c.ID != 0 {
			if n.Communities == nil {
				n.Communities = map[int64]string{}
			}
			n.Communities[c.ID] = c.Name
		}
	}
	slices.SortStableFunc(n.Nodes, func(a, b GraphNode) int { return a.Depth - b.Depth })
	return n, nil
}

// foldAliases folds the entities that name another one (the tail of an
// alias relation; the head when the tail is the centre) into it: their
// alias edges go, their other edges move to the entity they name, and
// edges that come to join the same pair by the same relation become one,
// their support summed. It returns where each folded entity went.
func foldAliases(n *Neighbourhood, center int64) map[int64]int64 {
	into := map[int64]int64{}
	root := func(id int64) int64 {
		for i := 0; i < 8; i++ { // alias chains are short; a cycle stops here
			to, ok := into[id]
			if !ok {
				break
			}
			id = to
		}
		return id
	}
	for _, e := range n.Edges {
		if !aliasRelations[e.Type] {
			continue
		}
		keep, fold := root(e.Head), root(e.Tail)
		if fold == center {
			keep, fold = fold, keep
		}
		if keep != fold && fold != center {
			into[fold] = keep
		}
	}
	if len(into) == 0 {
		return into
	}
	for id := range into {
		into[id] = root(id)
	}
	type key struct {
		head, tail int64
		rel        string
	}
	at := map[key]int{}
	edges := n.Edges[:0]
	for _, e := range n.Edges {
		if to, ok := into[e.Head]; ok {
			e.Head = to
		}
		if to, ok := into[e.Tail]; ok {
			e.Tail = to
		}
		if e.Head == e.Tail {
			continue
		}
		k := key{e.Head, e.Tail, e.Type}
		if i, ok := at[k]; ok {
			edges[i].Support += e.Support
			continue
		}
		at[k] = len(edges)
		edges = append(edges, e)
	}
	n.Edges = edges
	return into
}

// Reading is a document's text with the entities it names.
type Reading struct {
	Document
	Text     string             `json:"text"` // the original text
	Mentions []store.DocMention `json:"mentions"`
}

// Read returns a document (by key or id prefix) with its original text and
// every entity mention in it, for a reader that highlights and links them.
func (w *Workspace) Read(ctx context.Context, keyOrPrefix string) (*Reading, error) {
	d, err := w.db.Document(ctx, keyOrPrefix)
	if err != nil {
		return nil, err
	}
	ms, err := w.db.DocumentMentions(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	if ms == nil {
		ms = []store.DocMention{}
	}
	return &Reading{Document: *d, Text: d.Text, Mentions: ms}, nil
}
