package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/charter-dev/charter/internal/buildinfo"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/output/checked"
	"github.com/charter-dev/charter/internal/output/secret"
	"github.com/charter-dev/charter/internal/repo/source"
)

// Exit codes, as docs/design.md §5 fixes them.
const (
	exitOK       = 0
	exitFindings = 1
	exitError    = 2
)

// exitErr carries an exit code out of a command. A nil err means the
// message was already printed (diagnostics). Any other error a command
// returns is a plain failure: exit 2 and its message.
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

func (e *exitErr) Unwrap() error { return e.err }

// findings ends a command with exit 1 after its output said why.
func findings() error { return &exitErr{code: exitFindings} }

// withHint ends a command with exit 2, err's message and a hint: what to do
// next.
func withHint(err error, hint string) error { return &exitErr{code: exitError, err: err, hint: hint} }

// usage ends a command with exit 2 for a usage error: a flag, an argument or
// a combination of them that the command does not accept.
func usage(format string, args ...any) error {
	return &exitErr{code: exitError, err: fmt.Errorf(format, args...)}
}

// globals are the flags every command takes.
type globals struct {
	dir    string
	quiet  bool           // --quiet: no ok or summary lines (term.go)
	color  string         // --color: auto, always or never (term.go)
	cmd    *cobra.Command // the command that runs, for hints that name its flags
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
	// format of any command prints a credential (docs/design.md §13).
	// Redaction changes lengths: a protocol that frames messages by
	// length (Content-Length) redacts each body with secret.Redact before
	// framing it, and writes to the writer underneath (Unwrap).
	// Below the redacting writers, checked.Writer keeps the first error of
	// the file: commands print without checking each write, and a write
	// that failed (a full disk) fails the command here, once.
	cout, cerr := &checked.Writer{W: stdout}, &checked.Writer{W: stderr}
	rout, rerr := secret.NewWriter(cout), secret.NewWriter(cerr)
	stdout, stderr = rout, rerr
	defer func() {
		// The writers hold a line until its line feed (a credential may
		// come in two writes): flush them last, after a panic's message
		// too.
		rout.Flush()
		rerr.Flush()
		if cout.Err() != nil && code != exitError {
			// The last line, flushed above, could not be written.
			fmt.Fprintf(cerr, "charter: writing standard output: %v\n", cout.Err())
			code = exitError
		}
		if cerr.Err() != nil {
			code = exitError
		}
	}()
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "charter: internal error: %v\n%s\nThis is a bug in charter; please report it with the input that caused it.\n", r, debug.Stack())
			code = exitError
			if claudeCodeHook(args) {
				// The hook answers even its own bug: a deny.
				hookFailure(stdout, args, fmt.Errorf("internal error: %v", r))
				code = exitOK
			}
		}
	}()
	g := &globals{stdout: stdout, stderr: stderr}
	root := newRoot(g)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteC()
	if rout.Flush(); cout.Err() != nil && (err == nil || errors.Is(err, cout.Err())) {
		// Commands print without checking each write: a failed one is
		// reported here, once, whatever the command made of it.
		err = fmt.Errorf("writing standard output: %w", cout.Err())
	}
	if err == nil {
		return exitOK
	}
	if strings.HasPrefix(err.Error(), "unknown command ") {
		// The one error cobra makes itself (every flag and argument
		// check is charter's): a command line, not a failure.
		err = usage("%s (see '%s --help')", unknownCommand(err.Error()), cmd.CommandPath())
	}
	ee := asExit(err, cmd)
	if ee.err != nil {
		textf(stderr, "charter: %v\n", ee.err)
	}
	if ee.hint != "" {
		textf(stderr, "hint: %s\n", ee.hint)
	}
	if claudeCodeHook(args) {
		// Claude Code lets a call through when a hook exits 1 and reads
		// nothing on exit 2 but stderr: the hook's own failure, a command
		// line it cannot read among them, is an answer on stdout (a deny,
		// unless --on-error allow), on exit 0.
		hookFailure(stdout, args, errors.New(errorText(err)))
		return exitOK
	}
	return ee.code
}

// unknownCommand puts cobra's "unknown command" message on one line: its
// suggestions, on lines of their own after "Did you mean this?", become
// "did you mean "build"?".
func unknownCommand(msg string) string {
	head, tail, ok := strings.Cut(msg, "\n\nDid you mean this?\n")
	if !ok {
		return strings.TrimSpace(msg)
	}
	var quoted []string
	for _, s := range strings.Fields(tail) {
		quoted = append(quoted, strconv.Quote(s))
	}
	if len(quoted) == 0 {
		return head
	}
	return head + "; did you mean " + strings.Join(quoted, " or ") + "?"
}

// asExit returns the exit code, message and hint err carries: exit 2 and
// its message for a plain error. A revision that could not be read
// (revision.Error) is exit 2 with its hint: this is the one place that
// says so.
// cmd is the command that ran (nil when unknown): the hint names only
// flags it has.
func asExit(err error, cmd *cobra.Command) *exitErr {
	var ee *exitErr
	if errors.As(err, &ee) {
		if ee.hint == "" {
			ee.hint = flagHint(ee.err, cmd)
		}
		return ee
	}
	var re *revision.Error
	if errors.As(err, &re) {
		return &exitErr{code: exitError, err: re.Err, hint: cmp.Or(re.Hint, flagHint(re.Err, cmd))}
	}
	return &exitErr{code: exitError, err: err, hint: flagHint(err, cmd)}
}

// flagHint says which flags avoid what a library reports, where one does:
// libraries name the concept, the command line its flags.
func flagHint(err error, cmd *cobra.Command) string {
	var nr *source.NotRepositoryError
	var er *source.EmptyRepositoryError
	var oe *net.OpError
	switch {
	case errors.As(err, &oe) && oe.Op == "listen" && oe.Addr != nil && errors.Is(err, syscall.EADDRINUSE) && flagOf(cmd, "addr") != nil:
		return fmt.Sprintf("another program listens on %s (another charter serve?): stop it, or pass --addr HOST:PORT with a free port", oe.Addr)
	case errors.As(err, &nr):
		// A --rev or --staged given is one the command can do without;
		// a command that reads commits whatever its flags (publish, log,
		// diff, ...) is told where to run instead.
		for _, name := range []string{"rev", "staged"} {
			if f := flagOf(cmd, name); f != nil && f.Changed && f.DefValue != "HEAD" {
				return "validate, lint and build without --rev or --staged still work"
			}
		}
		if cmd != nil && cmd.Name() != "" {
			return fmt.Sprintf("%s reads commits: run it in the Git repository that holds the configuration (cd there, or charter -C DIR %s)", cmd.Name(), cmd.Name())
		}
		return "validate, lint and build without --rev or --staged still work"
	case errors.As(err, &er):
		// A --rev given, without a default, is one the command can do
		// without (log's walks from HEAD by default; site --history
		// reads commits whatever --rev says).
		if f := flagOf(cmd, "rev"); f != nil && f.Changed && f.DefValue == "" {
			if flagOf(cmd, "staged") != nil {
				return "without --rev, charter reads the working tree (or the index with --staged)"
			}
			return "without --rev, charter reads the working tree"
		}
		// diff, log, show, review and site --history read commits:
		// no flag helps, a first commit does.
		return "make the first commit (git add -A && git commit), then run this again"
	}
	return ""
}

// flagOf returns cmd's flag name, or nil when cmd is nil or has none.
func flagOf(cmd *cobra.Command, name string) *pflag.Flag {
	if cmd == nil {
		return nil
	}
	return cmd.Flags().Lookup(name)
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
	root.PersistentFlags().StringVarP(&g.dir, "dir", "C", ".", "config root: the directory holding the charter repository's .cue files (default: the nearest folder up from here with cue.mod, as cue finds a module)")
	// The usage says the default in words; cobra would add (default ".").
	root.PersistentFlags().Lookup("dir").DefValue = ""
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		g.cmd = cmd
		// Without -C the config root is found upward, as cue and git
		// find theirs: charter run in agents/ reads the whole repository.
		// init starts a repository where it is told.
		if !cmd.Flags().Changed("dir") && cmd.Name() != "init" {
			g.dir = source.FindRoot(g.dir)
		}
		return nil
	}
	registerTermFlags(root, g)
	root.SetFlagErrorFunc(flagError)
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
		newReviewCmd(g),
		newCodeownersCmd(g),
		newShowCmd(g),
		newTestCmd(g),
		newEvalCmd(g),
		newServeCmd(g),
		newVerifyLogCmd(g),
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
