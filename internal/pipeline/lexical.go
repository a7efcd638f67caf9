package pipeline

import "context"

// LexicalPending reports whether some document is not in the lexical index
// with the current terms, so that a search through the index would miss
// it (a workspace from before the index, or one being indexed).
func LexicalPending(ctx context.Context, db interface {
	DocsNeedingStep(ctx context.Context, step, version string) ([]int64, error)
}) (bool, error) {
	ids, err := db.DocsNeedingStep(ctx, StepLexical, lexicalVersion)
	return len(ids) > 0, err
}
