// Command annals turns historical texts into a cited knowledge graph and
// lets you read it: see `annals --help`.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := execute(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit statuses besides 0. exitCodesHelp describes them for --help, and the
// README repeats it.
const (
	exitError           = 1 // any error not listed below
	exitUsage           = 2 // the command line is wrong: an unknown command or flag, a bad flag value, missing arguments
	exitNotFound        = 3 // what was asked for does not exist (an entity, a document, a date in the expression)
	exitDocumentsFailed = 4 // index ran, but a step failed on some documents
)

const exitCodesHelp = `Exit status:
  0  done (files index skipped as unreadable, with a warning, do not count)
  1  an error; the message says what
  2  the command line is wrong: an unknown command or flag, a bad flag value
     (entities --type of no such type), missing or extra arguments
  3  what was asked for does not exist: an entity, a document, a date that
     the expression does not name or that cannot be placed in a year
  4  index ran, but a step failed on some documents (annals docs --failed)

Errors go to standard error: "annals: MESSAGE", or with --json one line of
JSON, {"error": "MESSAGE", "code": N}, N being the exit status. Standard
output then holds only results.`

// execute runs the command line args, reports an error on errOut (as text,
// or as a JSON object under --json) and returns the exit status.
func execute(ctx context.Context, args []string, out, errOut io.Writer) int {
	return executeRoot(ctx, newRoot(out, errOut), args, errOut)
}

// executeRoot is execute with the root command made.
func executeRoot(ctx context.Context, root *cobra.Command, args []string, errOut io.Writer) int {
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return 0
	}
	if isCobraUsage(err) {
		err = usageError{err}
	}
	code := exitCode(err)
	if jsonWanted(root, args) {
		enc := json.NewEncoder(errOut)
		enc.SetEscapeHTML(false)
		enc.Encode(struct {
			Error string `json:"error"`
			Code  int    `json:"code"`
		}{err.Error(), code})
		return code
	}
	fmt.Fprintln(errOut, "annals:", escapeControl(err.Error(), true))
	if code == exitUsage && cmd != nil {
		fmt.Fprintf(errOut, "run `%s --help` for usage\n", cmd.CommandPath())
	}
	return code
}

// jsonWanted reports whether --json was given, also when the command line
// failed to parse before it was read.
func jsonWanted(root *cobra.Command, args []string) bool {
	if on, err := root.PersistentFlags().GetBool("json"); err == nil && on {
		return true
	}
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "--json", "--json=true", "--json=1":
			return true
		}
	}
	return false
}

// exitCode is the exit status for an error.
func exitCode(err error) int {
	var usage usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, annals.ErrDocumentsFailed):
		return exitDocumentsFailed
	case errors.Is(err, annals.ErrNotFound):
		return exitNotFound
	case errors.As(err, &usage):
		return exitUsage
	}
	return exitError
}

// notFoundError is an error of its own words that exits with exitNotFound.
type notFoundError struct{ msg string }

func (e notFoundError) Error() string        { return e.msg }
func (e notFoundError) Is(target error) bool { return target == annals.ErrNotFound }

// usageError is a wrong command line: it exits with exitUsage.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usageErrorf makes a usageError, for a flag value or argument a command
// refuses.
func usageErrorf(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// isCobraUsage reports whether err is one of the command-line errors cobra
// makes without a hook of its own: an unknown command, a required flag
// missing.
func isCobraUsage(err error) bool {
	var usage usageError
	if errors.As(err, &usage) {
		return false
	}
	msg := err.Error()
	return strings.HasPrefix(msg, "unknown command ") || strings.HasPrefix(msg, "required flag(s) ")
}

// markUsageErrors makes the flag and argument errors of cmd and every
// command under it usage errors.
func markUsageErrors(cmd *cobra.Command) {
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if args := c.Args; args != nil {
			c.Args = func(c *cobra.Command, a []string) error {
				if err := args(c, a); err != nil {
					return usageError{err}
				}
				return nil
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(cmd)
}
