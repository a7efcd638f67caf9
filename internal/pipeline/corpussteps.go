package pipeline

import (
	"context"

	"github.com/annals-project/annals/internal/embed"
	"github.com/annals-project/annals/internal/resolve"
)

// The corpus steps' names.
const (
	StepAlign = "align"
	StepEmbed = "embed"
	StepDate  = "date"
)

// Alignment is the corpus step that decides which names are one entity
// (resolve.Align), where documents, aliases or merges changed.
func Alignment(db resolve.AlignStore, force bool) CorpusStep { return align{db: db, force: force} }

type align struct {
	db    resolve.AlignStore
	force bool
}

func (align) Name() string    { return StepAlign }
func (align) Version() string { return resolve.Version }
func (s align) Run(ctx context.Context, r *Run) (err error) {
	r.Report.Aligned, err = resolve.Align(ctx, s.db, s.force)
	return err
}

// Embedding is the corpus step that gives chunks and entities vectors from
// em, or from the offline model learned from the corpus when em is nil (see
// Embed). Then, when set, runs after it: the workspace packs the vectors
// there for the next question to read in one piece.
func Embedding(db EmbedStore, em embed.Embedder, then func(context.Context) error) CorpusStep {
	return embedding{db: db, em: em, then: then}
}

type embedding struct {
	db   EmbedStore
	em   embed.Embedder
	then func(context.Context) error
}

func (embedding) Name() string { return StepEmbed }
func (s embedding) Version() string {
	if s.em == nil {
		return "learned"
	}
	return s.em.Name() + "@" + s.em.Version()
}

func (s embedding) Run(ctx context.Context, r *Run) (err error) {
	if r.Report.Embed, err = Embed(ctx, s.db, s.em); err != nil || s.then == nil {
		return err
	}
	return s.then(ctx)
}

// Dating is the corpus step that gives every fact the time of its sentence
// (see Date). It comes after alignment, which tells whose chapter a person
// belongs to.
func Dating(db DateStore) CorpusStep { return dating{db: db} }

type dating struct{ db DateStore }

func (dating) Name() string    { return StepDate }
func (dating) Version() string { return chronoVersion }
func (s dating) Run(ctx context.Context, r *Run) (err error) {
	r.Report.Date, err = Date(ctx, s.db)
	return err
}
