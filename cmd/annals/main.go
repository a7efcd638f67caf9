// Command annals turns historical texts into a cited knowledge graph and
// lets you read it: see `annals --help`.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/annals-project/annals"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := newRoot(os.Stdout, os.Stderr).ExecuteContext(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "annals:", escapeControl(err.Error(), true))
		os.Exit(exitCode(err))
	}
}

// Exit statuses besides 0.
const (
	exitError           = 1 // any error not listed below
	exitNotFound        = 3 // what was asked for does not exist (an entity, a document)
	exitDocumentsFailed = 4 // index ran, but a step failed on some documents
)

// exitCode is the exit status for an error.
func exitCode(err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, annals.ErrDocumentsFailed):
		return exitDocumentsFailed
	case errors.Is(err, annals.ErrNotFound):
		return exitNotFound
	}
	return exitError
}
