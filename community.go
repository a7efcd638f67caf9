package annals

import (
	"context"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/pipeline"
	"github.com/annals-project/annals/internal/store/sqlite"
)

// askSource is the store as retrieval reads it, with the community
// reports held in memory between questions: the community route ranks
// them all for every question.
type askSource struct {
	*sqlite.DB
	w *Workspace
}

// Communities reads the reports again only when the communities step has
// written new ones since.
func (s askSource) Communities(ctx context.Context) ([]kg.Community, error) {
	gen, err := s.DB.State(ctx, pipeline.StateCommunities)
	if err != nil {
		return nil, err
	}
	return s.w.communities.get(string(gen), func() ([]kg.Community, error) { return s.DB.Communities(ctx) })
}

// CommunityDetail is a community's report with every member, most
// central first.
type CommunityDetail struct {
	Community
	AllMembers []kg.CommunityMember `json:"all_members"`
}

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
	return &CommunityDetail{Community: *c, AllMembers: all}, nil
}
