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
		if errors.Is(err, annals.ErrNotFound) {
			os.Exit(3)
		}
		os.Exit(1)
	}
}
