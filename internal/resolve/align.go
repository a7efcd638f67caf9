package resolve

import (
	"context"

	"github.com/annals-project/annals/internal/store"
)

// Workspace state that says whether alignment is current: the store sets
// metaDirty whenever documents or aliases change, and alignment clears it.
const (
	metaDirty   = "resolve_dirty"
	metaVersion = "resolve_version"
)

// AlignStore is what alignment reads and writes.
type AlignStore interface {
	Meta(ctx context.Context, key string) (string, error)
	SetMeta(ctx context.Context, key, value string) error
	Names(ctx context.Context) ([]store.NameRef, error)
	AliasFacts(ctx context.Context) ([]store.AliasFact, error)
	Merges(ctx context.Context) ([]store.Merge, error)
	// ApplyResolution writes an alignment and says how many rows it wrote.
	ApplyResolution(ctx context.Context, r store.Resolution) (int, error)
}

// Align runs entity alignment over the whole corpus when documents,
// aliases or merges changed since it last ran, or this version of it never
// ran (or always, with force). It reports whether it ran.
func Align(ctx context.Context, st AlignStore, force bool) (bool, error) {
	dirty, err := st.Meta(ctx, metaDirty)
	if err != nil {
		return false, err
	}
	version, err := st.Meta(ctx, metaVersion)
	if err != nil {
		return false, err
	}
	if !force && dirty != "1" && version == Version {
		return false, nil
	}
	names, err := st.Names(ctx)
	if err != nil {
		return false, err
	}
	aliases, err := st.AliasFacts(ctx)
	if err != nil {
		return false, err
	}
	merges, err := st.Merges(ctx)
	if err != nil {
		return false, err
	}
	if _, err := st.ApplyResolution(ctx, Resolve(names, aliases, merges...)); err != nil {
		return false, err
	}
	return true, st.SetMeta(ctx, metaVersion, Version)
}
