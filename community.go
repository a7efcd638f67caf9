package annals

import (
	"context"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/pipeline"
	"github.com/annals-project/annals/internal/relate"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/store/sqlstore"
)

// askSource is the store as retrieval reads it, with the community
// reports held in memory between questions: the community route ranks
// them all for every question. Where the graph's structure is in memory
// already (a server, warmed), an entity's relations are read from it:
// the walk from a question's entity reads those of up to sixty entities.
type askSource struct {
	*sqlstore.DB
	w     *Workspace
	graph *relate.EKG // nil: read from the store
}

// Edges are an entity's best supported relations.
func (s askSource) Edges(ctx context.Context, entityID int64, limit int) ([]store.Edge, error) {
	if s.graph != nil {
		return s.graph.Edges(entityID, limit), nil
	}
	return s.DB.Edges(ctx, entityID, limit)
}

// Communities reads the reports again only when the communities step has
// written new ones since.
func (s askSource) Communities(ctx context.Context) ([]kg.Community, error) {
	gen, err := s.DB.State(ctx, pipeline.StateCommunities)
	if err != nil {
		return nil, err
	}
	return s.w.communities.Get(string(gen), func() ([]kg.Community, error) { return s.DB.Communities(ctx) })
}

// CommunityDetail is a community's report with every member, most
// central first.
type CommunityDetail struct {
	Community
	AllMembers []kg.CommunityMember `json:"all_members"`
	// Links are the relations among its most central members
	// (linkedMembers), best supported first: what a graph of it draws.
	Links []GraphEdge `json:"links"`
}

// What a community's graph holds: its most central members and the best
// supported relations among them.
const (
	linkedMembers = 40
	memberLinks   = 150
)

// Communities lists the communities indexing found, largest first, each
// with its report. There are none until the communities step has run
// (index.communities: off skips it).
func (w *Workspace) Communities(ctx context.Context) ([]Community, error) {
	return w.db.Communities(ctx)
}

// Community is one community's report with all its members; ErrNotFound
// when there is no community with that id.
func (w *Workspace) Community(ctx context.Context, id int64) (*CommunityDetail, error) {
	c, err := w.db.Community(ctx, id)
	if err != nil {
		return nil, err
	}
	all, err := w.db.CommunityMembers(ctx, id)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, 0, linkedMembers)
	for _, m := range all[:min(len(all), linkedMembers)] {
		ids = append(ids, m.EntityID)
	}
	links, err := w.db.LinksAmong(ctx, ids, memberLinks)
	if err != nil {
		return nil, err
	}
	d := &CommunityDetail{Community: *c, AllMembers: all, Links: []GraphEdge{}}
	for _, l := range links {
		d.Links = append(d.Links, GraphEdge{ID: l.ID, Head: l.Head, Tail: l.Tail, Type: l.Type, Status: l.Status, Support: l.Support})
	}
	return d, nil
}
