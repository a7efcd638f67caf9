package annals

import (
	"context"

	"github.com/annals-project/annals/internal/kg"
)

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
