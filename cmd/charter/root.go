package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/buildinfo"
	"github.com/charter-dev/charter/revision"
	"github.com/charter-dev/charter/secret"
)

// Exit codes, as DESIGN.md fixes them.
const (
	exitOK       = 0
	exitFindings = 1
	exitError    = 2
)

// exitErr carries an exit code out of a command. A nil err means the
// message was already printed (diagnostics).
type exitErr struct {
	code int
	err  error
	hint string
}

func (e *exitErr) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

// findings ends a command with exit 1 after its output said why.
func findings() error { return &exitErr{code: exitFindings} }

// fail ends a command with exit 2 and a message, and an optional hint.
func fail(err error, hint string) error { return &exitErr{code: exitError, err: err, hint: hint} }

// usage ends a command with exit 2 for a usage error.
func usage(format string, args ...any) error {
	return &exitErr{code: exitError, err: fmt.Errorf(format, args...)}
}

// globals are the flags every command takes.
type globals struct {
	dir    string
	quiet  bool   // --quiet: no ok or summary lines (term.go)
	color  string // --color: auto, always or never (term.go)
	stdout io.Writer
	stderr io.Writer
}

// Main runs charter with os.Args and returns the exit code. It is the one
// place that prints errors and picks the exit code.
func Main() (code int) {
	defer startProfile()()
	return run(os.Args[1:], os.Stdout, os.Stderr)
}

func run(args []string, stdout, stderr io.Writer) (code int) {
	// Every byte a command prints passes the credential detector: no
	// format of any command prints a credential (DESIGN.md section 9).
	// Redaction changes lengths: a protocol that frames messages by
	// length (Content-Length) redacts each body with secret.Redact before
	// framing it, and writes to the writer underneath (Unwrap).
	// The writers hold a line until its line feed (a credential may come
	// in two writes): flush them last, after a panic's message too.
	rout, rerr := secret.NewWriter(stdout), secret.NewWriter(stderr)
	stdout, stderr = rout, rerr
	defer func() {
		rout.Flush()
		rerr.Flush()
		// The Claude Code hook's own failures, a command line cobra
		// refuses or a panic among them, exit 1: exit 2 blocks the call.
		if code == exitError && claudeCodeHook(args) {
			code = exitFindings
		}
	}()
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "charter: internal error: %v\n%s\nThis is a bug in charter; please report it with the input that caused it.\n", r, debug.Stack())
			code = exitError
		}
	}()
	g := &globals{stdout: stdout, stderr: stderr}
	root := newRoot(g)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	ee := asExit(err)
	if ee == nil {
		// cobra's own errors: unknown command or flag, wrong argument count.
		fmt.Fprintf(stderr, "charter: %v\n", err)
		fmt.Fprintf(stderr, "run 'charter --help' for usage\n")
		return exitError
	}
	if ee.err != nil {
		fmt.Fprintf(stderr, "charter: %v\n", ee.err)
	}
	if ee.hint != "" {
		fmt.Fprintf(stderr, "hint: %s\n", ee.hint)
	}
	return ee.code
}

// asExit returns the exit error err carries, nil for cobra's own errors. A
// revision that could not be read (revision.Error) is exit 2 with its hint:
// this is the one place that says so.
func asExit(err error) *exitErr {
	var ee *exitErr
	if errors.As(err, &ee) {
		return ee
	}
	var re *revision.Error
	if errors.As(err, &re) {
		return &exitErr{code: exitError, err: re.Err, hint: re.Hint}
	}
	return nil
}

func newRoot(g *globals) *cobra.Command {
	root := &cobra.Command{
		Use:   "charter",
		Short: "Compile and lint LLM agent configuration kept as CUE in Git",
		Long: `charter validates, lints and compiles LLM agent configuration declared in CUE:
behavior categories, agent types, agent identities, composable behaviors and
rule profiles. It builds reproducible prompt bundles and audits every agent
identity across Git history.`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.PersistentFlags().StringVarP(&g.dir, "dir", "C", ".", "config root: the directory holding the charter repository's .cue files")
	registerTermFlags(root, g)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usage("%v (see '%s --help')", err, c.CommandPath())
	})
	// charter --version, as most tools have it: the first line of charter
	// version.
	root.Version = buildinfo.Read().Version
	root.SetVersionTemplate("charter {{.Version}}\n")
	root.AddCommand(
		newValidateCmd(g),
		newBuildCmd(g),
		newRenderCmd(g),
		newWhyCmd(g),
		newDiffCmd(g),
		newLogCmd(g),
		newShowCmd(g),
		newTestCmd(g),
		newEvalCmd(g),
		newFmtCmd(g),
		newExportCmd(g),
		newInitCmd(g),
		newVersionCmd(g),
		newLintCmd(g),
		newExplainCmd(g),
		newSchemaCmd(g),
		newDocsCmd(g),
		newSiteCmd(g),
		newRouteCmd(g),
		newTeamCmd(g),
		newCompletionCmd(g),
		newPublishCmd(g),
		newPullCmd(g),
		newVerifyCmd(g),
		newImportCmd(g),
		newLSPCmd(g),
	)
	registerCompletions(root, g)
	return root
}
